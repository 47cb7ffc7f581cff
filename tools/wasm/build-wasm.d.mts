// Types for build-wasm.mjs, so TypeScript tests can import it.

/** Path of the WAT source (packages/parquet-codecs/src/wasm/snappy.wat). */
export declare const WAT_PATH: string;
/** Path of the generated module (packages/parquet-codecs/src/wasm/snappy-wasm.ts). */
export declare const OUT_PATH: string;
/**
 * Assembles WAT text into a wasm binary with `wabt` (no name section).
 * @param text - the WAT source.
 * @returns the module bytes.
 */
export declare function assemble(text: string): Promise<Uint8Array>;
/**
 * The generated TypeScript source for module bytes.
 * @param bytes - the module bytes.
 * @returns the file text.
 */
export declare function renderTs(bytes: Uint8Array): string;
