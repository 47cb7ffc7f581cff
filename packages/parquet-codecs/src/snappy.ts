/**
 * SNAPPY: Google's Snappy raw format (no framing), as parquet.thrift's `CompressionCodec.SNAPPY` uses it.
 * Format: https://github.com/google/snappy/blob/main/format_description.txt
 *
 * A stream is `uvarint(uncompressed length)` followed by elements whose tag byte's low two bits pick the kind:
 * `00` literal (length-1 in the upper 6 bits, or 60..63 meaning 1..4 little-endian length bytes follow),
 * `01` copy of 4..11 bytes with an 11-bit offset, `10` copy of 1..64 bytes with a 16-bit offset,
 * `11` copy of 1..64 bytes with a 32-bit offset.
 *
 * Decompression runs in a hand-written WebAssembly kernel (wasm/snappy.wat, snappy-kernel.ts) when WebAssembly is
 * available and the kernel's module has loaded (it is imported on the first call), and in the TypeScript loop below
 * otherwise; both give the same bytes and the same errors. Compression (snappy-compress.ts)
 * follows the same pattern with its own kernel (wasm/snappy-compress.wat).
 */
import { CompressionCodec } from './compression-codec.js';
import type { Codec } from './codec.js';
import { CodecErrorCode, ParquetError, snappyCorrupt as corrupt } from './errors.js';
import type { CodecWithScratch, CompressedPage } from './compress-page.js';
import { snappyCompress, snappyCompressToScratch } from './snappy-compress.js';

export { snappyCompress };

/**
 * Reads the uncompressed length a Snappy stream declares in its preamble.
 * @param src - a Snappy stream.
 * @returns the declared length.
 * @throws ParquetError `CODEC_CORRUPT` when the preamble is truncated or over 32 bits.
 */
export function snappyUncompressedLength(src: Uint8Array): number {
  let len = 0;
  let pos = 0;
  for (let shift = 0; ; shift += 7) {
    if (pos >= src.length) throw corrupt('truncated length preamble', pos);
    const b = src[pos++]!;
    len += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
    if (shift === 28) throw corrupt('length preamble longer than 5 bytes', pos - 1);
  }
  if (len > 0xffffffff) throw corrupt(`length preamble ${len} exceeds 32 bits`, 0);
  return len;
}

// ---- WebAssembly kernel (src/wasm/snappy.wat, assembled into wasm/snappy-wasm.ts by tools/wasm/build-wasm.mjs), in
// snappy-kernel.ts: imported on the first call of snappyDecompress (a lazy chunk of a browser bundle), which decodes
// with the TypeScript loop until it has loaded — a speed-up, never a condition: no call waits for it.

/** Which decoder {@link snappyDecompress} uses: see {@link setSnappyDecoder}. */
export type SnappyDecoderMode = 'auto' | 'ts';

let mode: SnappyDecoderMode = 'auto';

/**
 * Chooses the decoder behind {@link snappyDecompress} (internal: for tests and benchmarks, not exported from the
 * package entry). `'auto'` (the default) uses the WebAssembly kernel when `WebAssembly` is available (and the page
 * fits its memory), else the TypeScript loop; `'ts'` always uses the TypeScript loop. Both decoders give the same
 * bytes and the same errors.
 * @param m - the mode.
 */
export function setSnappyDecoder(m: SnappyDecoderMode): void {
  mode = m;
}

type KernelModule = typeof import('./snappy-kernel.js');
/** The kernel's decoder once its module is imported; null when the import failed (the TypeScript loop decodes all). */
let kernelDecompress: KernelModule['kernelDecompress'] | null | undefined;
/** The kernel's PLAIN BYTE_ARRAY split, set with {@link kernelDecompress}. */
let kernelByteArrays: KernelModule['kernelByteArrays'] | undefined;
let kernelImport: Promise<KernelModule | null> | undefined;

/** Imports the kernel's module (once; a failure leaves the TypeScript loop in use). */
function importKernel(): Promise<KernelModule | null> {
  return (kernelImport ??= import('./snappy-kernel.js').then(
    (m) => {
      kernelDecompress = m.kernelDecompress;
      kernelByteArrays = m.kernelByteArrays;
      return m;
    },
    () => {
      kernelDecompress = null;
      return null;
    },
  ));
}

/**
 * Whether the WebAssembly kernel can be used here: imports its module and compiles and instantiates it (internal: for
 * tests and benchmarks). Afterwards `snappyDecompress` uses it in `'auto'` mode.
 * @returns true when `snappyDecompress` uses the kernel.
 */
export async function snappyWasmAvailable(): Promise<boolean> {
  const m = await importKernel();
  return m !== null && m.kernelAvailable();
}

/**
 * Decompresses a Snappy stream into `out`, never writing past the length the stream declares or past `out`.
 * @param src - the compressed stream.
 * @param out - the destination; must be at least the declared length.
 * @returns the number of bytes written (the declared length).
 * @throws ParquetError `CODEC_OVERRUN` when the declared length exceeds `out.length`, `CODEC_CORRUPT` for a malformed
 * element, an offset before the start, or a stream that ends before the declared length.
 */
export function snappyDecompress(src: Uint8Array, out: Uint8Array): number {
  const n = src.length;
  let pos = 0;
  let len = 0;
  for (let shift = 0; ; shift += 7) {
    if (pos >= n) throw corrupt('truncated length preamble', pos);
    const b = src[pos++]!;
    len += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
    if (shift === 28) throw corrupt('length preamble longer than 5 bytes', pos - 1);
  }
  if (len > out.length) {
    throw new ParquetError(CodecErrorCode.OVERRUN, `parquet-codecs: SNAPPY stream declares ${len} uncompressed bytes, the page allows ${out.length}`, 0);
  }
  if (mode === 'auto') {
    if (kernelDecompress) {
      const r = kernelDecompress(src, pos, out, len);
      if (r >= 0) return r;
    } else if (kernelDecompress === undefined) void importKernel();
  }
  return decompressTs(src, pos, out, len);
}

/**
 * Splits PLAIN BYTE_ARRAY values `src[pos, end)` into new offsets (from 0) and bytes in the decompression kernel
 * (internal: the SNAPPY codecs' non-enumerable `byteArrays`, which the reader's chunk decoder uses for the pages of
 * SNAPPY chunks).
 * @returns the values, or undefined (decode them the usual way, which gives them or the error).
 */
export function snappyByteArrays(src: Uint8Array, pos: number, end: number, count: number): { offsets: Int32Array; data: Uint8Array } | undefined {
  return mode === 'auto' ? kernelByteArrays?.(src, pos, end, count) : undefined;
}

/** The pure-TypeScript decoder: the elements from `pos` on, into `out[0..end)`. */
function decompressTs(src: Uint8Array, pos: number, out: Uint8Array, end: number): number {
  const n = src.length;
  const sv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const ov = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let op = 0;
  while (pos < n) {
    const tag = src[pos]!;
    const kind = tag & 3;
    if (kind === 0) {
      let lit = tag >>> 2;
      if (lit < 16 && op + 16 <= end && pos + 17 <= n) {
        // Fast path for a short literal (1..16 bytes) well inside both buffers (which also rules out every error
        // below): four 4-byte moves (a DataView load/store compiles to one unaligned move); the bytes past the
        // literal are overwritten by whatever follows.
        pos++;
        ov.setUint32(op, sv.getUint32(pos));
        ov.setUint32(op + 4, sv.getUint32(pos + 4));
        if (lit >= 8) {
          ov.setUint32(op + 8, sv.getUint32(pos + 8));
          ov.setUint32(op + 12, sv.getUint32(pos + 12));
        }
        pos += lit + 1;
        op += lit + 1;
        continue;
      }
      if (lit < 60) {
        pos++;
      } else {
        const extra = lit - 59;
        if (pos + extra >= n) throw corrupt('truncated literal length', pos);
        lit = src[pos + 1]!;
        if (extra > 1) lit |= src[pos + 2]! << 8;
        if (extra > 2) lit |= src[pos + 3]! << 16;
        if (extra > 3) lit = (lit | (src[pos + 4]! << 24)) >>> 0;
        pos += 1 + extra;
      }
      lit += 1;
      if (lit > n - pos) throw corrupt(`literal of ${lit} bytes runs past the end (${n - pos} left)`, pos);
      if (lit > end - op) throw new ParquetError(CodecErrorCode.OVERRUN, `parquet-codecs: SNAPPY literal at byte ${pos} writes past the declared length ${end}`, pos);
      if (lit < 64 && op + lit + 4 <= end && pos + lit + 4 <= n) {
        for (let i = 0; i < lit; i += 4) ov.setUint32(op + i, sv.getUint32(pos + i));
      } else if (lit < 64) {
        for (let i = 0; i < lit; i++) out[op + i] = src[pos + i]!;
      } else {
        out.set(src.subarray(pos, pos + lit), op);
      }
      pos += lit;
      op += lit;
      continue;
    }
    let length: number;
    let offset: number;
    if (kind === 1) {
      if (pos + 2 > n) throw corrupt('truncated 1-byte-offset copy', pos);
      length = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | src[pos + 1]!;
      pos += 2;
    } else if (kind === 2) {
      if (pos + 3 > n) throw corrupt('truncated 2-byte-offset copy', pos);
      length = (tag >>> 2) + 1;
      offset = src[pos + 1]! | (src[pos + 2]! << 8);
      pos += 3;
    } else {
      if (pos + 5 > n) throw corrupt('truncated 4-byte-offset copy', pos);
      length = (tag >>> 2) + 1;
      offset = (src[pos + 1]! | (src[pos + 2]! << 8) | (src[pos + 3]! << 16) | (src[pos + 4]! << 24)) >>> 0;
      pos += 5;
    }
    const from = op - offset;
    if (offset >= 4 && offset <= op && length <= 16 && op + 16 <= end) {
      // Fast path (also rules out every error below): 4-byte moves in order. With offset >= 4 each move reads
      // only bytes already final, so overlapping copies keep their run-length meaning; bytes past `length` are
      // overwritten later.
      ov.setUint32(op, ov.getUint32(from));
      ov.setUint32(op + 4, ov.getUint32(from + 4));
      if (length > 8) {
        ov.setUint32(op + 8, ov.getUint32(from + 8));
        ov.setUint32(op + 12, ov.getUint32(from + 12));
      }
      op += length;
      continue;
    }
    if (offset === 0 || offset > op) throw corrupt(`copy offset ${offset} at output position ${op}`, pos);
    if (length > end - op) throw new ParquetError(CodecErrorCode.OVERRUN, `parquet-codecs: SNAPPY copy at byte ${pos} writes past the declared length ${end}`, pos);
    if (offset >= 4 && op + length + 4 <= end) {
      for (let i = 0; i < length; i += 4) ov.setUint32(op + i, ov.getUint32(from + i));
    } else {
      // Overlapping (run-length) copy with offset < 4, or at the very end: byte by byte, which repeats the
      // pattern as the format intends.
      for (let i = 0; i < length; i++) out[op + i] = out[from + i]!;
    }
    op += length;
  }
  if (op !== end) throw corrupt(`stream ends after ${op} of ${end} declared bytes`, n);
  return op;
}

/**
 * A SNAPPY codec object (made by a call that bundlers may drop when the object is unused: an object literal reading
 * `CompressionCodec.SNAPPY` would be kept, and with it the compressor it references).
 */
function snappyWith(compress: (src: Uint8Array) => Uint8Array): Codec {
  const codec = { codec: CompressionCodec.SNAPPY, decompress: snappyDecompress, compress };
  // not enumerable, like compressToScratch: a caller's codec spread from this one has none
  Object.defineProperty(codec, 'byteArrays', { value: snappyByteArrays });
  Object.defineProperty(codec, 'ready', { value: snappyReady });
  return codec;
}

/**
 * Pages of at least this many decompressed bytes wait for the kernel's import (once): below it the TypeScript loop
 * decodes the page while the import goes on.
 */
const KERNEL_WAIT_BYTES = 1 << 16;

/**
 * What a reader awaits before decompressing a page of `size` bytes (the SNAPPY codecs' non-enumerable `ready`, which
 * parquet-codecs' `prepareCodec` calls): the kernel's import (started by the first call) while it is under way and
 * the page is large enough to be worth the wait, else undefined. Without it a read whose source never yields to the event loop (a file in
 * memory) would decode every page with the TypeScript loop, the import settling only after the read. Never rejects:
 * a failed import leaves the TypeScript loop in use.
 */
function snappyReady(size: number): Promise<unknown> | undefined {
  if (mode !== 'auto' || kernelDecompress !== undefined) return undefined;
  const p = importKernel();
  return size >= KERNEL_WAIT_BYTES ? p : undefined;
}

/**
 * The SNAPPY codec for readers: decompression only (the WebAssembly kernel with its TypeScript fallback), without the
 * compressor and its WebAssembly, which {@link snappyCodec} brings — what a browser reader puts in its codec map to
 * keep its bundle small. Its `compress` throws `CODEC_UNAVAILABLE`: write SNAPPY pages with {@link snappyCodec}.
 */
export const snappyDecoder: Codec = /*#__PURE__*/ snappyWith(() => {
  throw new ParquetError(CodecErrorCode.UNAVAILABLE, 'parquet-codecs: snappyDecoder only decompresses; write SNAPPY pages with snappyCodec');
});

/**
 * The SNAPPY codec (both directions; WebAssembly kernels with TypeScript fallbacks). Its `compressToScratch` leaves
 * the stream in the kernel's memory (and computes its CRC-32 there when asked), for a writer to copy out once.
 */
export const snappyCodec: CodecWithScratch = /*#__PURE__*/ snappyWithScratch(snappyCompress, snappyCompressToScratch);

/**
 * {@link snappyWith} with a `compressToScratch` (one call, so that bundlers may drop it and the compressor unused).
 * `compressToScratch` is not enumerable: a caller's codec made by spreading this one with its own `compress`
 * (`{ ...snappyCodec, compress }`) does not carry it, so writers call the caller's `compress`.
 */
function snappyWithScratch(compress: (src: Uint8Array) => Uint8Array, compressToScratch: (src: Uint8Array, crc: boolean) => CompressedPage): CodecWithScratch {
  const codec = snappyWith(compress);
  Object.defineProperty(codec, 'compressToScratch', { value: compressToScratch, enumerable: false, writable: false, configurable: false });
  return codec as CodecWithScratch;
}
