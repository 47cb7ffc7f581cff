/**
 * `@parquetry/codec-brotli` — the BROTLI compression codec for Parquetry: the reference Brotli library in
 * WebAssembly (via `brotli-compress`), both directions, Node and browsers.
 *
 * ```ts
 * import { createBrotliCodec } from '@parquetry/codec-brotli';
 * const brotli = await createBrotliCodec({ quality: 5 });
 * ```
 *
 * @packageDocumentation
 */
export { createBrotliCodec, type BrotliCodecOptions } from './brotli.js';
