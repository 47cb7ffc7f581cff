/**
 * The plain-JavaScript BROTLI decoder, imported only when a first BROTLI page is read (a lazy chunk of about
 * 60 KB gzip in a browser bundle, no WebAssembly to serve). Imported from its own subpath so that a bundler does
 * not put it in one chunk with the WebAssembly codec (which `./brotli.js` loads for writing).
 * @module
 */
export { brotliDecoder } from '@parquetry/codec-brotli/decoder';
