/**
 * `@parquetry/codec-zstd` — the ZSTD compression codec for Parquetry: our own decoder to decompress (pure
 * TypeScript, bounded on any input), the reference zstd library in WebAssembly (`@bokuweb/zstd-wasm`) to compress;
 * Node and browsers.
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
export type { ZstdDecompressOptions } from './zstd-decode.js';
export { zstdFrames, MAX_WINDOW, type ZstdFrame } from './zstd-frames.js';
