/**
 * `@parquetry/codec-zstd` — the ZSTD compression codec for Parquetry: fzstd to decompress (pure JavaScript),
 * the reference zstd library in WebAssembly (`@bokuweb/zstd-wasm`) to compress; Node and browsers.
 *
 * ```ts
 * import { createZstdCodec, zstdDecoder } from '@parquetry/codec-zstd';
 * const zstd = await createZstdCodec({ level: 3 });   // both directions
 * const readOnly = zstdDecoder;                        // decompression only, no WebAssembly
 * ```
 *
 * @packageDocumentation
 */
export { createZstdCodec, zstdDecoder, zstdDecompress, type ZstdCodecOptions } from './zstd.js';
export { zstdFrames, MAX_WINDOW, type ZstdFrame } from './zstd-frames.js';
export { zstdPrescan } from './zstd-prescan.js';
