/**
 * The plain-JavaScript BROTLI decoder, imported only when a first BROTLI page is read (a lazy chunk of about
 * 60 KB gzip in a browser bundle, no WebAssembly to serve).
 * @module
 */
export { brotliDecoder } from '@parquetry/codec-brotli';
