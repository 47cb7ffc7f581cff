// Types for build-wasm.mjs, so TypeScript tests can import it.

/** One kernel: its WAT source, its generated TypeScript module, and the names that module exports. */
export interface WasmKernel {
  /** Path of the WAT source. */
  readonly wat: string;
  /** Path of the generated TypeScript module. */
  readonly out: string;
  /** Name of the exported base64 constant. */
  readonly constName: string;
  /** Name of the exported function returning the bytes. */
  readonly fnName: string;
  /** What the kernel is, for the generated TSDoc. */
  readonly what: string;
}
/** The kernels: snappy.wat (decompression) and snappy-compress.wat (compression). */
export declare const KERNELS: readonly WasmKernel[];
/** Path of the decompression kernel's WAT source (packages/parquet-codecs/src/wasm/snappy.wat). */
export declare const WAT_PATH: string;
/** Path of its generated module (packages/parquet-codecs/src/wasm/snappy-wasm.ts). */
export declare const OUT_PATH: string;
/**
 * Assembles WAT text into a wasm binary with `wabt` (no name section).
 * @param text - the WAT source.
 * @param file - the file name wabt's messages use.
 * @returns the module bytes.
 */
export declare function assemble(text: string, file?: string): Promise<Uint8Array>;
/**
 * The generated TypeScript source for a kernel's bytes.
 * @param bytes - the module bytes.
 * @param kernel - which kernel (default: the decompression kernel).
 * @returns the file text.
 */
export declare function renderTs(bytes: Uint8Array, kernel?: WasmKernel): string;
