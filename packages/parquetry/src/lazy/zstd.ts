/**
 * The ZSTD codec with the reference library in WebAssembly, imported only when a first ZSTD page is read or
 * written (a lazy chunk in a browser bundle). In a browser its WebAssembly is fetched from
 * `new URL('./zstd.wasm', import.meta.url)` — beside this module: Vite and webpack emit the file there, and an
 * esbuild bundle wants `zstd.wasm` (the one `@bokuweb/zstd-wasm` ships) copied beside its chunks; `parquetry`'s
 * build copies it into `dist/lazy/`. In Node the library reads its own file.
 * @module
 */
import { createZstdCodec } from '@parquetry/codec-zstd';
import type { Codec } from '@parquetry/parquet-codecs';

/**
 * Where the ZSTD WebAssembly is fetched from in a browser (for messages and for {@link loadZstd}).
 * @returns the URL beside this module.
 */
export function zstdWasmUrl(): URL {
  return new URL('./zstd.wasm', import.meta.url);
}

/**
 * Instantiates the ZSTD codec (both directions).
 * @param level - compression level 1..22 (undefined: 3).
 * @param wasm - where the WebAssembly is: a URL or bytes; undefined for the library's own (Node).
 * @returns the codec.
 * @throws ParquetError `CODEC_SIZE` for a bad level, `CODEC_UNAVAILABLE` when the WebAssembly cannot be fetched or
 *   does not compile (as a rejected promise).
 */
export function loadZstd(level: number | undefined, wasm: string | URL | ArrayBuffer | Uint8Array | undefined): Promise<Codec> {
  return createZstdCodec({ ...(level === undefined ? {} : { level }), ...(wasm === undefined ? {} : { wasm }) });
}
