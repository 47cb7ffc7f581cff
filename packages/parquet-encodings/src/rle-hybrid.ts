/**
 * The RLE / bit-packing hybrid (Encodings.md, "Run Length Encoding / Bit-Packing Hybrid (RLE = 3)"):
 * https://github.com/apache/parquet-format/blob/master/Encodings.md#run-length-encoding--bit-packing-hybrid-rle--3
 *
 * ```
 * rle-bit-packed-hybrid: <length> <encoded-data>      (length: 4 bytes little endian, optional)
 * encoded-data := <run>*
 * run := <bit-packed-run> | <rle-run>
 * bit-packed-run := <bit-packed-header> <bit-packed-values>
 * bit-packed-header := varint-encode(<bit-pack-scaled-run-len> << 1 | 1)   (scaled = groups of 8)
 * rle-run := <rle-header> <repeated-value>
 * rle-header := varint-encode((rle-run-len) << 1)
 * repeated-value := value that is repeated, using a fixed-width of round-up-to-next-byte(bit-width)
 * ```
 * Used for definition/repetition levels, dictionary indices and RLE booleans. Bit widths 0–32.
 *
 * @module
 */
import { ByteReader, Type, type ByteWriter } from '@parquetry/thrift-compact';
import { UNPACK } from './bit-pack-kernels.js';
import { PACK } from './bit-pack-encode-kernels.js';
import { checkRange, encodingError, truncated } from './errors.js';
import type { ValueCodec, ValueDecoder } from './types.js';
import { withEncoder } from './value-codec.js';

/**
 * Upper bound on values per encoded byte used to refuse absurd counts before allocating:
 * an RLE run header of 5 bytes can announce 2^31 − 1 values, so the ratio is unbounded in principle;
 * 2^26 values per byte of input keeps allocations proportional to real data for all sane writers.
 */
const MAX_VALUES_PER_BYTE = 1 << 26;

const scratchBytes = /*#__PURE__*/ new Uint8Array(32);
const scratchValues = /*#__PURE__*/ new Int32Array(8);

function checkBitWidth(bitWidth: number, max: number, pos: number): void {
  if (!(bitWidth >= 0 && bitWidth <= max && (bitWidth | 0) === bitWidth)) {
    throw encodingError('ENCODING_BIT_WIDTH', `bit width ${bitWidth} at byte ${pos} is outside 0–${max}`, pos);
  }
}

/**
 * Decodes `count` values of the RLE / bit-packing hybrid (no length prefix) from `src[pos, end)`.
 *
 * Runs longer than needed are consumed whole; a final bit-packed run whose padding bytes were
 * omitted by the writer is accepted as long as the requested values are present.
 *
 * @param src - the encoded bytes.
 * @param pos - first byte of the first run header.
 * @param end - exclusive end of the encoded data.
 * @param bitWidth - value bit width, 0–32 (32-bit values are stored as their int32 bit pattern).
 * @param out - receives the values.
 * @param outPos - first index of `out` to fill.
 * @param count - number of values to decode.
 * @returns the byte position after the last run read.
 * @throws ParquetError `ENCODING_TRUNCATED` when the runs end before `count` values,
 *   `ENCODING_CORRUPT` for a zero-length run, `ENCODING_BIT_WIDTH` for a width outside 0–32,
 *   `VARINT_TOO_LONG` for an over-long run header, `ENCODING_ARGUMENT` for bad ranges.
 */
export function decodeRleHybrid(src: Uint8Array, pos: number, end: number, bitWidth: number, out: Int32Array, outPos: number, count: number): number {
  checkBitWidth(bitWidth, 32, pos);
  checkRange('RLE hybrid', src, pos, end, out.length, outPos, count);
  const byteWidth = (bitWidth + 7) >> 3;
  const unpack = UNPACK[bitWidth]!;
  const r = new ByteReader(src, pos, end);
  let o = outPos;
  const outEnd = outPos + count;
  while (o < outEnd) {
    const hdrPos = r.pos;
    if (hdrPos >= end) truncated(`RLE hybrid: run header for ${outEnd - o} more values`, hdrPos, 1, end);
    const header = r.uleb32();
    let p = r.pos;
    if ((header & 1) === 0) {
      const run = header >>> 1;
      if (run === 0) throw encodingError('ENCODING_CORRUPT', `RLE hybrid: RLE run of length 0 at byte ${hdrPos}`, hdrPos);
      if (end - p < byteWidth) truncated('RLE hybrid: repeated value', p, byteWidth, end);
      let v = 0;
      switch (byteWidth) {
        case 1: v = src[p]!; break;
        case 2: v = src[p]! | (src[p + 1]! << 8); break;
        case 3: v = src[p]! | (src[p + 1]! << 8) | (src[p + 2]! << 16); break;
        case 4: v = src[p]! | (src[p + 1]! << 8) | (src[p + 2]! << 16) | (src[p + 3]! << 24); break;
      }
      if (bitWidth < 32 && v >>> bitWidth !== 0) {
        throw encodingError('ENCODING_CORRUPT', `RLE hybrid: repeated value ${v} at byte ${p} does not fit in ${bitWidth} bits`, p);
      }
      p += byteWidth;
      const take = run < outEnd - o ? run : outEnd - o;
      out.fill(v, o, o + take);
      o += take;
    } else {
      const groups = header >>> 1;
      if (groups === 0) throw encodingError('ENCODING_CORRUPT', `RLE hybrid: bit-packed run of 0 groups at byte ${hdrPos}`, hdrPos);
      const runBytes = groups * bitWidth;
      const want = outEnd - o;
      const take = groups * 8 < want ? groups * 8 : want;
      const avail = end - p;
      if (runBytes > avail) {
        // Tolerate a last run whose trailing padding bytes are missing, if the values we need are there.
        const needed = Math.ceil((take * bitWidth) / 8);
        if (needed > avail) truncated(`RLE hybrid: bit-packed run of ${groups * 8} values`, p, runBytes, end);
      }
      const full = take >>> 3;
      unpack(src, p, out, o, full);
      const rest = take & 7;
      if (rest !== 0) {
        const gp = p + full * bitWidth;
        const gb = bitWidth < end - gp ? bitWidth : end - gp;
        scratchBytes.fill(0);
        scratchBytes.set(src.subarray(gp, gp + gb));
        unpack(scratchBytes, 0, scratchValues, 0, 1);
        for (let k = 0; k < rest; k++) out[o + full * 8 + k] = scratchValues[k]!;
      }
      o += take;
      p = runBytes > avail ? end : p + runBytes;
    }
    r.pos = p;
  }
  return r.pos;
}

/**
 * Decodes the hybrid preceded by its 4-byte little-endian length (data page v1 levels, RLE booleans).
 * @param src - the encoded bytes.
 * @param pos - position of the 4-byte length.
 * @param end - exclusive end of the readable region.
 * @param bitWidth - value bit width, 0–32.
 * @param out - receives the values.
 * @param outPos - first index of `out` to fill.
 * @param count - number of values to decode.
 * @returns the position after the length-prefixed block.
 * @throws ParquetError as {@link decodeRleHybrid}, and `ENCODING_TRUNCATED` when the length exceeds the input.
 */
export function decodeRleHybridPrefixed(src: Uint8Array, pos: number, end: number, bitWidth: number, out: Int32Array, outPos: number, count: number): number {
  checkRange('RLE hybrid', src, pos, end, out.length, outPos, count);
  if (end - pos < 4) truncated('RLE hybrid: 4-byte length', pos, 4, end);
  const len = (src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24)) >>> 0;
  const start = pos + 4;
  if (len > end - start) truncated(`RLE hybrid: block of ${len} bytes`, start, len, end);
  decodeRleHybrid(src, start, start + len, bitWidth, out, outPos, count);
  return start + len;
}

/**
 * Whether the first `count` values of an RLE/bit-packed hybrid stream are all `value`, judged from its run headers
 * alone: true only when RLE runs repeating `value` cover them (a bit-packed run answers false without being
 * decoded). Lets a reader skip materialising levels that are all at the max. Never throws: a malformed or short
 * stream answers false (decoding it then reports the error).
 * @param src - the encoded bytes.
 * @param pos - position of the first run header.
 * @param end - exclusive end of the stream.
 * @param bitWidth - value bit width, 1–32.
 * @param count - number of values that must equal `value`.
 * @param value - the value.
 * @returns whether RLE runs of `value` cover the first `count` values.
 */
export function rleHybridAllEqual(src: Uint8Array, pos: number, end: number, bitWidth: number, count: number, value: number): boolean {
  if (!(bitWidth >= 1 && bitWidth <= 32) || end > src.length || (bitWidth < 32 && value >>> bitWidth !== 0)) return false;
  const byteWidth = (bitWidth + 7) >> 3;
  let covered = 0;
  let p = pos;
  while (covered < count) {
    let header = 0;
    let shift = 0;
    for (;;) {
      if (p >= end || shift > 28) return false;
      const b = src[p++]!;
      header += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
      shift += 7;
    }
    if (header % 2 !== 0) return false;
    const run = header / 2;
    if (run === 0 || end - p < byteWidth) return false;
    let v = 0;
    for (let k = byteWidth - 1; k >= 0; k--) v = v * 256 + src[p + k]!;
    if (v !== value) return false;
    p += byteWidth;
    covered += run;
  }
  return true;
}

function writeRle(w: ByteWriter, v: number, run: number, byteWidth: number): void {
  while (run > 0) {
    const n = run > 0x3fffffff ? 0x3fffffff : run;
    // header (at most 5 bytes) and value in one reservation
    w.ensureSpare(9);
    const b = w.buf;
    let p = w.pos;
    let h = (n * 2) >>> 0;
    while (h > 0x7f) {
      b[p++] = (h & 0x7f) | 0x80;
      h >>>= 7;
    }
    b[p++] = h;
    for (let k = 0; k < byteWidth; k++) b[p++] = v >>> (8 * k);
    w.pos = p;
    run -= n;
  }
}

function writeBitPacked(w: ByteWriter, values: Int32Array, from: number, n: number, bitWidth: number): void {
  const groups = (n + 7) >>> 3;
  // header (at most 5 bytes) and the packed groups in one reservation
  w.ensureSpare(5 + groups * bitWidth);
  const b = w.buf;
  let p = w.pos;
  let h = (groups * 2 + 1) >>> 0;
  while (h > 0x7f) {
    b[p++] = (h & 0x7f) | 0x80;
    h >>>= 7;
  }
  b[p++] = h;
  const full = n >>> 3;
  const pack = PACK[bitWidth]!;
  pack(values, from, b, p, full);
  p += full * bitWidth;
  const rest = n & 7;
  if (rest !== 0) {
    scratchValues.fill(0);
    for (let k = 0; k < rest; k++) scratchValues[k] = values[from + full * 8 + k]!;
    pack(scratchValues, 0, b, p, 1);
    p += bitWidth;
  }
  w.pos = p;
}

/**
 * Encodes values with the RLE / bit-packing hybrid (no length prefix): runs of 8 or more equal
 * values become RLE runs, everything else bit-packed runs (the last one zero-padded to 8 values).
 * @param values - the values (for widths below 32, each must lie in [0, 2^bitWidth)).
 * @param start - index of the first value.
 * @param count - number of values.
 * @param bitWidth - bit width, 0–32.
 * @param w - receives the bytes.
 * @throws ParquetError `ENCODING_BIT_WIDTH` for a width outside 0–32, `ENCODING_CORRUPT` for a value that does not fit.
 */
export function encodeRleHybrid(values: Int32Array, start: number, count: number, bitWidth: number, w: ByteWriter): void {
  checkBitWidth(bitWidth, 32, 0);
  if (!(start >= 0 && count >= 0 && start + count <= values.length)) {
    throw encodingError('ENCODING_ARGUMENT', `RLE hybrid: ${count} values at ${start} exceed an input of ${values.length}`);
  }
  if (count === 0) return;
  const byteWidth = (bitWidth + 7) >> 3;
  const end = start + count;
  // the bits no value may have (none at width 32), or-ed over every value and checked once at the end
  const high = bitWidth >= 32 ? 0 : ~((1 << bitWidth) - 1);
  let bad = 0;
  let pend = start;
  let prev = values[start]!;
  bad |= prev & high;
  // length of the run of equal values ending at i, counted without a branch per value (random indices and levels
  // change value at unpredictable places); only a run reaching 8 values takes the branch
  let run = 1;
  for (let i = start + 1; i < end; i++) {
    const v = values[i]!;
    bad |= v & high;
    const x = v ^ prev;
    // (x | -x) >>> 31 is 1 when v differs from prev, else 0
    run = (run & (((x | -x) >>> 31) - 1)) + 1;
    prev = v;
    if (run === 8) {
      // a run of 8 equal values [i - 7, j): RLE unless the bit-packed values before it cannot end on a multiple of 8
      const first = i - 7;
      let j = i + 1;
      while (j < end && values[j] === v) j++;
      // bit-packed runs before an RLE run must hold a multiple of 8 values: borrow from this run
      const pad = (8 - ((first - pend) & 7)) & 7;
      const k = first + pad;
      if (j - k >= 8) {
        if (k > pend) writeBitPacked(w, values, pend, k - pend, bitWidth);
        writeRle(w, v, j - k, byteWidth);
        pend = j;
      }
      // the value at j (if any) differs from v: the next run starts there
      i = j - 1;
    }
  }
  if (bad !== 0) {
    for (let i = start; i < end; i++) {
      const v = values[i]!;
      if ((v & high) !== 0) throw encodingError('ENCODING_CORRUPT', `RLE hybrid: value ${v} at index ${i} does not fit in ${bitWidth} bits`);
    }
  }
  if (pend < end) writeBitPacked(w, values, pend, end - pend, bitWidth);
}

/**
 * Encodes the hybrid preceded by its 4-byte little-endian length.
 * @param values - the values.
 * @param start - index of the first value.
 * @param count - number of values.
 * @param bitWidth - bit width, 0–32.
 * @param w - receives the bytes.
 * @throws ParquetError as {@link encodeRleHybrid}.
 */
export function encodeRleHybridPrefixed(values: Int32Array, start: number, count: number, bitWidth: number, w: ByteWriter): void {
  w.i32le(0);
  const at = w.pos;
  encodeRleHybrid(values, start, count, bitWidth, w);
  const len = w.pos - at;
  const b = w.buf;
  b[at - 4] = len;
  b[at - 3] = len >>> 8;
  b[at - 2] = len >>> 16;
  b[at - 1] = len >>> 24;
}

/**
 * Number of bits needed to represent `maxValue` (0 for 0), the bit width of levels and indices.
 * @param maxValue - a non-negative integer up to 2^32 − 1.
 * @returns the bit width, 0–32.
 */
export function bitWidthOf(maxValue: number): number {
  return maxValue <= 0 ? 0 : 32 - Math.clz32(maxValue);
}

/** The decoding half of {@link rleCodec}: what a reader registers, with no encoder reachable from it. */
export const rleDecoder: ValueDecoder = {
  encoding: 3,
  name: 'RLE',
  supports: (type) => type === Type.BOOLEAN,
  decode(src, pos, end, count) {
    if (!(count >= 0 && Number.isInteger(count))) throw encodingError('ENCODING_ARGUMENT', `RLE BOOLEAN: invalid count ${count}`, pos);
    if (count > MAX_VALUES_PER_BYTE * Math.max(1, end - pos)) {
      throw encodingError('ENCODING_TRUNCATED', `RLE BOOLEAN: ${count} values cannot fit in ${end - pos} bytes at byte ${pos}`, pos);
    }
    const tmp = new Int32Array(count);
    const next = count === 0 && end - pos < 4 ? pos : decodeRleHybridPrefixed(src, pos, end, 1, tmp, 0, count);
    const out = new Uint8Array(count);
    for (let i = 0; i < count; i++) out[i] = tmp[i]!;
    return { values: out, pos: next };
  },
};

/**
 * RLE (= 3) as a data-page value encoding: BOOLEAN values as a 4-byte length followed by the
 * hybrid at bit width 1 (Encodings.md: "RLE … for BOOLEAN values in data pages").
 */
export const rleCodec: ValueCodec = /*#__PURE__*/ withEncoder(rleDecoder, function encode(values, _column, w) {
  if (!(values instanceof Uint8Array)) throw encodingError('ENCODING_ARGUMENT', 'RLE: BOOLEAN values must be a Uint8Array');
  const tmp = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) tmp[i] = values[i] ? 1 : 0;
  encodeRleHybridPrefixed(tmp, 0, tmp.length, 1, w);
});

