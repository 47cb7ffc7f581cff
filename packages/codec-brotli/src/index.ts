/**
 * `@parquetry/codec-brotli` — the BROTLI compression codec for Parquetry: the reference Brotli library in
 * WebAssembly (via `brotli-compress`), both directions, Node and browsers; and a decode-only codec in plain
 * JavaScript (via `brotli`), synchronous and small, for readers.
 *
 * ```ts
 * import { brotliDecoder, createBrotliCodec } from '@parquetry/codec-brotli';
 * const brotli = await createBrotliCodec({ quality: 5 });   // both directions (WebAssembly)
 * const readOnly = brotliDecoder;                           // decompression only, no WebAssembly
 * ```
 *
 * @packageDocumentation
 */
export { createBrotliCodec, type BrotliCodecOptions } from './brotli.js';
export { brotliDecoder, brotliDecompress } from './decoder.js';
