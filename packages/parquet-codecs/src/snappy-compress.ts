/**
 * SNAPPY compression: Google's Snappy raw format (no framing), as parquet.thrift's `CompressionCodec.SNAPPY` uses it
 * (https://github.com/apache/parquet-format/blob/master/Compression.md#snappy).
 * Format: https://github.com/google/snappy/blob/main/format_description.txt
 *
 * One greedy algorithm, written twice: a hand-written WebAssembly kernel (wasm/snappy-compress.wat), used when
 * WebAssembly is available, and the TypeScript loop below otherwise. Both give the same bytes. The input is cut into
 * 64 KiB blocks; each is matched on its own with a hash table of 2^8..2^14 block-relative positions (cleared per
 * block and sized to it, so the output depends on the input alone), one probe per position hashed, positions
 * skipped ever faster while nothing matches (1 byte for 32 probes, then the step grows by itself every 32 bytes
 * skipped), and the first 4-byte match taken and extended as far as it goes.
 */
import type { CompressedPage } from './compress-page.js';
import { crc32 } from './crc32.js';
import { CodecErrorCode, ParquetError } from './errors.js';
import { snappyCompressWasmBytes } from './wasm/snappy-compress-wasm.js';

/** Which encoder {@link snappyCompress} uses: see {@link setSnappyEncoder}. */
export type SnappyEncoderMode = 'auto' | 'ts';

const BLOCK = 1 << 16;
const MAX_TABLE_BITS = 14;
const HASH_MUL = 0x1e35a7bd;
/** The kernel's hash table sits at address 0 (2^14 16-bit entries), its CRC-32 tables after it (16 KiB); the input follows. */
const WASM_INPUT = (2 << MAX_TABLE_BITS) + 16384;
/** Bytes past the largest possible output that a kernel or the TypeScript loop may write to (short-move overshoot). */
const SLACK = 16;
/** After a call leaves the kernel's memory (or the TypeScript scratch buffer) larger than this, it is dropped. */
const KEEP_MEMORY_BYTES = 64 << 20;
/** The kernel's regions at or above this never go to the kernel (its addresses are 32-bit, growth may fail). */
const MAX_WASM_BYTES = 0x40000000;

/**
 * The most bytes {@link snappyCompress} can produce for `n` input bytes (Snappy's own bound, `32 + n + n / 6`).
 * @param n - the input length.
 * @returns the bound.
 */
export function snappyMaxCompressedLength(n: number): number {
  return 32 + n + Math.floor(n / 6);
}

let mode: SnappyEncoderMode = 'auto';

/**
 * Chooses the encoder behind {@link snappyCompress} (internal: for tests and benchmarks, not exported from the
 * package entry). `'auto'` (the default) uses the WebAssembly kernel when `WebAssembly` is available (and the input
 * fits its memory), else the TypeScript loop; `'ts'` always uses the TypeScript loop. Both give the same bytes.
 * @param m - the mode.
 */
export function setSnappyEncoder(m: SnappyEncoderMode): void {
  mode = m;
}

/**
 * Whether the WebAssembly compression kernel can be used here (compiles and instantiates it on first call).
 * @returns true when `snappyCompress` can use the kernel.
 */
export function snappyCompressWasmAvailable(): boolean {
  return (kernel === undefined ? loadKernel() : kernel) !== null;
}

interface Kernel {
  memory: WebAssembly.Memory;
  compress: (src: number, n: number, dst: number) => number;
  crc32: (p: number, n: number) => number;
  /** a view of `memory`, renewed after every growth */
  heap: Uint8Array;
}

/** undefined: not tried yet; null: WebAssembly unavailable or refused (CSP), so the TypeScript loop is used. */
let kernel: Kernel | null | undefined;
let compiled: WebAssembly.Module | null | undefined;

function loadKernel(): Kernel | null {
  try {
    if (compiled === undefined) {
      compiled = typeof WebAssembly === 'object' ? new WebAssembly.Module(snappyCompressWasmBytes()) : null;
    }
    if (compiled === null) return (kernel = null);
    const x = new WebAssembly.Instance(compiled, {}).exports;
    const memory = x['memory'] as WebAssembly.Memory;
    kernel = { memory, compress: x['compress'] as Kernel['compress'], crc32: x['crc32'] as Kernel['crc32'], heap: new Uint8Array(memory.buffer) };
  } catch {
    compiled = null;
    kernel = null;
  }
  return kernel;
}

/** The CRC-32 the last {@link wasmCompress} call with `withCrc` computed (of the stream it returned). */
let lastCrc = 0;

/**
 * Runs the kernel. Layout: hash table at 0, CRC tables after it, the input at {@link WASM_INPUT} (one copy in), the
 * output after it, 8-aligned. The result is a view of the kernel's memory, valid until the next call (callers copy
 * it out). With `withCrc`, the kernel also computes the stream's CRC-32 while it is in its memory ({@link lastCrc}).
 * @returns the stream, or null when the kernel cannot take this input (too large for its memory).
 */
function wasmCompress(k: Kernel, src: Uint8Array, withCrc: boolean): Uint8Array | null {
  const n = src.length;
  const dst = (WASM_INPUT + n + 7) & ~7;
  const need = dst + snappyMaxCompressedLength(n) + SLACK;
  if (need >= MAX_WASM_BYTES) return null;
  let heap = k.heap;
  if (need > heap.length) {
    try {
      k.memory.grow(Math.ceil((need - heap.length) / 65536));
    } catch {
      return null;
    }
    heap = k.heap = new Uint8Array(k.memory.buffer);
  }
  heap.set(src, WASM_INPUT);
  const written = k.compress(WASM_INPUT, n, dst);
  if (withCrc) lastCrc = k.crc32(dst, written) >>> 0;
  if (heap.length > KEEP_MEMORY_BYTES) kernel = undefined;
  return heap.subarray(dst, dst + written);
}

/**
 * Compresses bytes into a Snappy stream (greedy hash matching over 64 KiB blocks, as the reference encoder does).
 * @param src - the bytes to compress.
 * @returns the Snappy stream, in a new array the caller owns.
 * @throws ParquetError `CODEC_SIZE` when `src` is longer than the 32-bit length a Snappy stream can declare.
 */
export function snappyCompress(src: Uint8Array): Uint8Array {
  return compress(src, false).slice();
}

/**
 * Compresses bytes into a Snappy stream, as {@link snappyCompress}, into memory the encoder reuses, and with
 * `withCrc` gives the stream's CRC-32 too (a Parquet page checksum): the WebAssembly kernel computes it over the
 * stream in its own memory, the TypeScript fallback with {@link crc32}.
 * @param src - the bytes to compress.
 * @param withCrc - whether to compute the CRC-32.
 * @returns the stream (the bytes {@link snappyCompress} gives) as a view that is valid only until the next SNAPPY
 *   compression (copy it out), and its CRC-32 (undefined without `withCrc`).
 * @throws ParquetError `CODEC_SIZE` when `src` is longer than the 32-bit length a Snappy stream can declare.
 */
export function snappyCompressToScratch(src: Uint8Array, withCrc: boolean): CompressedPage {
  lastCrc = -1;
  const bytes = compress(src, withCrc);
  return { bytes, crc: !withCrc ? undefined : lastCrc >= 0 ? lastCrc : crc32(bytes) };
}

/**
 * Both forms; the result is a view of the kernel's memory or the TypeScript scratch (a new array when it is too
 * large to keep). `lastCrc` is set when the kernel compressed and `withCrc` asked for it.
 */
function compress(src: Uint8Array, withCrc: boolean): Uint8Array {
  const n = src.length;
  if (n > 0xffffffff) {
    throw new ParquetError(CodecErrorCode.SIZE, `parquet-codecs: SNAPPY input of ${n} bytes, a Snappy stream holds at most ${0xffffffff}`, 0);
  }
  if (mode === 'auto') {
    const k = kernel === undefined ? loadKernel() : kernel;
    if (k !== null) {
      const out = wasmCompress(k, src, withCrc);
      if (out !== null) return out;
    }
  }
  return compressTs(src);
}

// ---- the TypeScript encoder

/** Hash table scratch, shared across calls (compression is synchronous): block-relative positions. */
const table = /*#__PURE__*/ new Uint16Array(1 << MAX_TABLE_BITS);
/** Output scratch, grown as needed and kept up to {@link KEEP_MEMORY_BYTES}; results are views of its prefix. */
let scratch = /*#__PURE__*/ new Uint8Array(0);

function compressTs(src: Uint8Array): Uint8Array {
  const n = src.length;
  const need = snappyMaxCompressedLength(n) + SLACK;
  let out = scratch;
  if (out.length < need) {
    out = new Uint8Array(need);
    if (need <= KEEP_MEMORY_BYTES) scratch = out;
  }
  const ov = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const sv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  let op = 0;
  let v = n;
  while (v >= 0x80) {
    out[op++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  out[op++] = v;
  for (let bs = 0; bs < n; bs += BLOCK) {
    const be = Math.min(bs + BLOCK, n);
    let anchor = bs;
    if (be - bs >= 4) {
      // 2^bits entries, bits = ceil(log2(block length)) within 8..14
      const shift = Math.max(32 - MAX_TABLE_BITS, Math.min(24, Math.clz32(be - bs - 1)));
      table.fill(0, 0, 1 << (32 - shift));
      const limit = be - 4;
      // the block's first position has nothing before it to match and its entry is already the cleared one (0):
      // scanning starts at the second, as the first probe's step of 1 would, and every candidate then lies before
      // the position probed
      let ip = bs + 1;
      let skip = 33;
      while (ip <= limit) {
        const seq = sv.getInt32(ip, true);
        const h = Math.imul(seq, HASH_MUL) >>> shift;
        const cand = bs + table[h]!;
        table[h] = ip - bs;
        if (sv.getInt32(cand, true) === seq) {
          if (ip > anchor) op = emitLiteral(out, ov, op, src, sv, anchor, ip - anchor);
          // extend 4 bytes at a time (the first differing byte from the xor's trailing zeros), then byte by byte
          const off = ip - cand;
          let s = ip + 4;
          for (;;) {
            if (s > be - 4) {
              while (s < be && src[s] === src[s - off]) s++;
              break;
            }
            const x = sv.getInt32(s, true) ^ sv.getInt32(s - off, true);
            if (x !== 0) {
              s += (31 - Math.clz32(x & -x)) >>> 3;
              break;
            }
            s += 4;
          }
          op = emitCopy(out, op, off, s - ip);
          // Seed the table with the position just before the match end, so runs chain cheaply.
          if (s - 1 <= limit) table[Math.imul(sv.getInt32(s - 1, true), HASH_MUL) >>> shift] = s - 1 - bs;
          ip = s;
          anchor = s;
          skip = 32;
        } else {
          const step = skip >>> 5;
          ip += step;
          skip += step;
        }
      }
    }
    if (be > anchor) op = emitLiteral(out, ov, op, src, sv, anchor, be - anchor);
  }
  return out.subarray(0, op);
}

/** A literal of `len` (1..65536: literals never span blocks) bytes; `out` has {@link SLACK} spare bytes. */
function emitLiteral(out: Uint8Array, ov: DataView, op: number, src: Uint8Array, sv: DataView, from: number, len: number): number {
  const n = len - 1;
  if (n < 60) {
    out[op++] = n << 2;
  } else if (n < 0x100) {
    out[op++] = 60 << 2;
    out[op++] = n;
  } else {
    out[op++] = 61 << 2;
    out[op++] = n & 0xff;
    out[op++] = n >>> 8;
  }
  if (len <= 64 && from + len + 3 <= src.length) {
    // 4-byte moves; the up to 3 bytes written past the literal are overwritten by the next element or lie past the end
    for (let i = 0; i < len; i += 4) ov.setInt32(op + i, sv.getInt32(from + i));
  } else if (len <= 64) {
    for (let i = 0; i < len; i++) out[op + i] = src[from + i]!;
  } else {
    out.set(src.subarray(from, from + len), op);
  }
  return op + len;
}

/** Copies of `len` (>= 4) bytes at `offset` (1..65535: matches stay inside a block) back. */
function emitCopy(out: Uint8Array, op: number, offset: number, len: number): number {
  if (len < 12 && offset < 2048) {
    out[op] = ((offset >>> 8) << 5) | ((len - 4) << 2) | 1;
    out[op + 1] = offset & 0xff;
    return op + 2;
  }
  while (len >= 68) {
    out[op++] = (63 << 2) | 2;
    out[op++] = offset & 0xff;
    out[op++] = offset >>> 8;
    len -= 64;
  }
  if (len > 64) {
    out[op++] = (59 << 2) | 2;
    out[op++] = offset & 0xff;
    out[op++] = offset >>> 8;
    len -= 60;
  }
  if (len < 12 && offset < 2048) {
    out[op++] = ((offset >>> 8) << 5) | ((len - 4) << 2) | 1;
    out[op++] = offset & 0xff;
  } else {
    out[op++] = ((len - 1) << 2) | 2;
    out[op++] = offset & 0xff;
    out[op++] = offset >>> 8;
  }
  return op;
}
