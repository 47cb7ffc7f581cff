/**
 * The SNAPPY decompression kernel in WebAssembly (src/wasm/snappy.wat, assembled into wasm/snappy-wasm.ts by
 * tools/wasm/build-wasm.mjs): compiled and instantiated on first use, dropped after a call that grew its memory past
 * 64 MiB. Imported by `snappy.ts` on the first SNAPPY page (a lazy chunk in a browser bundle: a reader's first pages
 * decode with the TypeScript loop meanwhile); gives the same bytes as that loop, and hands a malformed stream back to
 * it, which throws its error (so that this chunk imports no module of the initial load: a bundler would otherwise
 * put the codecs' errors module in a file of its own).
 * @module
 */
import { snappyWasmBytes } from './wasm/snappy-wasm.js';

// No size threshold: tools/wasm/snappy-speed.mjs measured the kernel faster per call than the TypeScript loop at
// every output size down to 0 bytes (Node 20: about 0.1-0.25 us against 0.25-0.55 us for an empty stream), since the
// copies in and out cost less than the loop's two DataView constructions.
/** After a call leaves the kernel's memory larger than this, the instance is dropped so the memory can be freed. */
const KEEP_MEMORY_BYTES = 64 << 20;
/** Inputs plus outputs at or above this never go to the kernel (its addresses are 32-bit, growth may fail). */
const MAX_WASM_BYTES = 0x40000000;

interface Kernel {
  memory: WebAssembly.Memory;
  decompress: (ip: number, ipEnd: number, op: number, opEnd: number) => number;
  byteArrays: (ip: number, ipEnd: number, count: number, offs: number, data: number) => number;
  /** a view of `memory`, renewed after every growth */
  heap: Uint8Array;
}

/** undefined: not tried yet; null: WebAssembly unavailable or refused (CSP), so the TypeScript loop is used. */
let kernel: Kernel | null | undefined;
let compiled: WebAssembly.Module | null | undefined;

function loadKernel(): Kernel | null {
  try {
    if (compiled === undefined) {
      compiled = typeof WebAssembly === 'object' ? new WebAssembly.Module(snappyWasmBytes()) : null;
    }
    if (compiled === null) return (kernel = null);
    const x = new WebAssembly.Instance(compiled, {}).exports;
    const memory = x['memory'] as WebAssembly.Memory;
    kernel = {
      memory,
      decompress: x['decompress'] as Kernel['decompress'],
      byteArrays: x['byteArrays'] as Kernel['byteArrays'],
      heap: new Uint8Array(memory.buffer),
    };
  } catch {
    compiled = null;
    kernel = null;
  }
  return kernel;
}

/**
 * The kernel's memory as bytes, grown to at least `need` bytes.
 * @returns undefined when `need` is over the kernel's bound or the runtime refuses to grow its memory.
 */
function reserve(k: Kernel, need: number): Uint8Array | undefined {
  if (need >= MAX_WASM_BYTES) return undefined;
  if (need > k.heap.length) {
    try {
      k.memory.grow(Math.ceil((need - k.heap.length) / 65536));
    } catch {
      return undefined;
    }
    k.heap = new Uint8Array(k.memory.buffer);
  }
  return k.heap;
}

/**
 * Runs the kernel on the elements from `pos` on. Layout: the whole stream at address 0 (so kernel positions are
 * stream positions), the output after it, 8-aligned.
 * @returns the bytes written, or -1 when the kernel cannot take this input (too large for its memory) or the stream
 *   is malformed.
 */
function wasmDecompress(k: Kernel, src: Uint8Array, pos: number, out: Uint8Array, len: number): number {
  const n = src.length;
  const dst = (n + 7) & ~7;
  const need = dst + len;
  const heap = reserve(k, need);
  if (heap === undefined) return -1;
  heap.set(src);
  const r = k.decompress(pos, n, dst, need);
  // a malformed stream: the TypeScript loop decodes it again and throws its error (the kernel stops where the loop
  // does, for the same reason; errors are rare, and this module then needs no error code of its own)
  if (r < 0) return -1;
  out.set(heap.subarray(dst, need));
  if (heap.length > KEEP_MEMORY_BYTES) kernel = undefined;
  return r;
}

/**
 * Whether the kernel can be used here (compiles and instantiates it on first call).
 * @returns false without WebAssembly or when the runtime refuses the module (CSP).
 */
export function kernelAvailable(): boolean {
  return (kernel === undefined ? loadKernel() : kernel) !== null;
}

/**
 * Decodes the elements of a SNAPPY stream from `pos` on into `out[0..len)` with the kernel.
 * @param src - the stream.
 * @param pos - where its elements start (after the length preamble).
 * @param out - the destination, at least `len` bytes.
 * @param len - the declared length.
 * @returns the bytes written, or -1 when the kernel cannot take this input (no WebAssembly, too large for its
 *   memory, or malformed): the caller decodes it with the TypeScript loop, which throws a malformed stream's error.
 */
export function kernelDecompress(src: Uint8Array, pos: number, out: Uint8Array, len: number): number {
  const k = kernel === undefined ? loadKernel() : kernel;
  return k === null ? -1 : wasmDecompress(k, src, pos, out, len);
}

/**
 * Splits the PLAIN BYTE_ARRAY values `src[pos, end)` (4-byte little-endian length, then the bytes, per value) into
 * new offsets (from 0) and bytes in the kernel: copied in, split, copied out, about 1.6x as fast as the TypeScript
 * loop on 32-byte strings.
 * @param src - the page.
 * @param pos - where the values start.
 * @param end - where they end.
 * @param count - the values.
 * @returns the values, or undefined when the kernel is not loaded or cannot take them, or a length or value runs
 *   past `end` (the caller's decoder then gives the values or the error).
 */
export function kernelByteArrays(src: Uint8Array, pos: number, end: number, count: number): { offsets: Int32Array; data: Uint8Array } | undefined {
  const k = kernel;
  const size = end - pos;
  if (!k || !(pos >= 0 && size >= 4 * count && end <= src.length && count >= 0)) return undefined;
  // the values at 0, the offsets after them (8-aligned), the bytes after those, with 32 spare bytes for the moves
  const offs = (size + 7) & ~7;
  const data = offs + 4 * (count + 1);
  const heap = reserve(k, data + size - 4 * count + 32);
  if (heap === undefined) return undefined;
  heap.set(src.subarray(pos, end));
  const w = k.byteArrays(0, size, count, offs, data);
  if (heap.length > KEEP_MEMORY_BYTES) kernel = undefined;
  return w < 0 ? undefined : { offsets: new Int32Array(heap.buffer, offs, count + 1).slice(), data: heap.slice(data, data + w) };
}
