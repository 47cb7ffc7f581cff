/**
 * The BROTLI codec with the reference library in WebAssembly (inlined in its JavaScript: nothing to serve),
 * imported only when BROTLI is written — or read in Node, where it decodes faster than the plain-JavaScript decoder.
 * @module
 */
export { createBrotliCodec } from '@parquetry/codec-brotli';
