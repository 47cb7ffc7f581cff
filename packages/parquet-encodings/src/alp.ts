/**
 * ALP, Adaptive Lossless floating-Point (AlpEncoding.md, `ALP = 10`, Preview upstream):
 * https://github.com/apache/parquet-format/blob/master/AlpEncoding.md
 *
 * ```
 * page   := header(7) offsets(num_vectors × u32) vector*
 * header := compression_mode(u8 = 0) integer_encoding(u8 = 0) log_vector_size(u8, 3–15) num_elements(i32)
 * vector := AlpInfo(exponent u8, factor u8, num_exceptions u16)
 *           ForInfo(frame_of_reference i32|i64, bit_width u8)
 *           packed(ceil(n · bit_width / 8)) exception_positions(u16 × k) exception_values(f32|f64 × k)
 * decoded = float(encoded) * 10^factor * 10^-exponent     (two multiplications, in the value's precision)
 * ```
 * The decoder is the normative procedure. The encoder picks (exponent, factor) per vector from a
 * sample, keeps every value that does not reproduce bit for bit (NaN, ±Inf, -0, out of range,
 * rounding misses) as an exception with its raw IEEE 754 bits, so decode(encode(x)) is bit-exact.
 *
 * @module
 */
import { Type, type ByteWriter } from '@parquetry/thrift-compact';
import { packN, packWide, unpackN, unpackWide } from './bit-util.js';
import { encodingError, truncated } from './errors.js';
import type { ValueCodec, ValueDecoder } from './types.js';
import { withEncoder } from './value-codec.js';

const TWO_32 = 4294967296;

/** 10^0 … 10^18 and 10^-0 … 10^-18 as correctly rounded doubles (JS numeric literals are correctly rounded). */
export const POW10_F64: readonly number[] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18];
/** Negative powers of ten as doubles. */
export const NEG_POW10_F64: readonly number[] = [1e-0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18];
/** 10^0 … 10^10 as binary32 (all exact). */
export const POW10_F32: Float32Array = /*#__PURE__*/ Float32Array.of(1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10);
/**
 * 10^-0 … 10^-10 as correctly rounded binary32, given by bit pattern (why: rounding the double
 * literal to float rounds twice; the test suite checks each against exact rational rounding).
 */
export const NEG_POW10_F32: Float32Array = /*#__PURE__*/ new Float32Array(
  Uint32Array.of(0x3f800000, 0x3dcccccd, 0x3c23d70a, 0x3a83126f, 0x38d1b717, 0x3727c5ac, 0x358637bd, 0x33d6bf95, 0x322bcc77, 0x3089705f, 0x2edbe6ff).buffer,
);

const HEADER = 7;
const MAX_E_F32 = 10;
const MAX_E_F64 = 18;

/** A parsed ALP page header. */
interface AlpPage {
  vectorSize: number;
  numVectors: number;
  offsetsAt: number;
}

function readHeader(src: Uint8Array, pos: number, end: number, count: number, vecHeader: number): AlpPage {
  if (!(pos >= 0 && pos <= end && end <= src.length && count >= 0 && Number.isInteger(count))) {
    throw encodingError('ENCODING_ARGUMENT', `ALP: invalid range [${pos}, ${end}) of ${src.length} or count ${count}`, pos);
  }
  if (end - pos < HEADER) truncated('ALP: page header', pos, HEADER, end);
  const mode = src[pos]!;
  const intEnc = src[pos + 1]!;
  const log = src[pos + 2]!;
  const n = src[pos + 3]! | (src[pos + 4]! << 8) | (src[pos + 5]! << 16) | (src[pos + 6]! << 24);
  if (mode !== 0 || intEnc !== 0) throw encodingError('ENCODING_UNSUPPORTED', `ALP: compression mode ${mode} / integer encoding ${intEnc} at byte ${pos} (only 0/0 is defined)`, pos);
  if (log < 3 || log > 15) throw encodingError('ENCODING_CORRUPT', `ALP: log_vector_size ${log} at byte ${pos + 2} outside 3–15`, pos + 2);
  if (n !== count) throw encodingError('ENCODING_CORRUPT', `ALP: header at byte ${pos} declares ${n} values, expected ${count}`, pos);
  const vectorSize = 1 << log;
  const numVectors = Math.ceil(count / vectorSize);
  const offsetsAt = pos + HEADER;
  // every vector costs a 4-byte offset and its header: refuse counts the bytes cannot hold
  if (numVectors * (4 + vecHeader) > end - offsetsAt) truncated(`ALP: ${numVectors} vectors`, offsetsAt, numVectors * (4 + vecHeader), end);
  return { vectorSize, numVectors, offsetsAt };
}

function vectorStart(src: Uint8Array, page: AlpPage, v: number, end: number, vecHeader: number): number {
  const at = page.offsetsAt + 4 * v;
  const off = (src[at]! | (src[at + 1]! << 8) | (src[at + 2]! << 16) | (src[at + 3]! << 24)) >>> 0;
  const p = page.offsetsAt + off;
  if (off < page.numVectors * 4 || p + vecHeader > end) {
    throw encodingError('ENCODING_CORRUPT', `ALP: vector ${v} offset ${off} (at byte ${at}) points outside the page`, at);
  }
  return p;
}

/**
 * Decodes `count` ALP-encoded FLOAT values (normative decoder, binary32 arithmetic).
 * @param src - the encoded bytes.
 * @param pos - first byte of the ALP header.
 * @param end - exclusive end.
 * @param out - receives the values (exceptions are written as their stored bits).
 * @param outPos - first index of `out` to fill.
 * @param count - number of values; must equal the header's num_elements.
 * @returns the position after the last vector.
 * @throws ParquetError `ENCODING_TRUNCATED`, `ENCODING_CORRUPT` (header, offsets, exponent/factor, exception positions), `ENCODING_BIT_WIDTH`, `ENCODING_UNSUPPORTED` (other modes).
 */
export function decodeAlpFloat(src: Uint8Array, pos: number, end: number, out: Float32Array, outPos: number, count: number): number {
  if (!(outPos >= 0 && outPos + count <= out.length)) throw encodingError('ENCODING_ARGUMENT', `ALP: output of ${out.length} too small for ${count} values at ${outPos}`, pos);
  const page = readHeader(src, pos, end, count, 9);
  const u = new Int32Array(Math.min(page.vectorSize, count));
  const o32 = new Int32Array(out.buffer, out.byteOffset, out.length);
  let last = page.offsetsAt + page.numVectors * 4;
  for (let v = 0; v < page.numVectors; v++) {
    let p = vectorStart(src, page, v, end, 9);
    const o = outPos + v * page.vectorSize;
    const n = Math.min(page.vectorSize, count - v * page.vectorSize);
    const e = src[p]!;
    const f = src[p + 1]!;
    const ne = src[p + 2]! | (src[p + 3]! << 8);
    const base = src[p + 4]! | (src[p + 5]! << 8) | (src[p + 6]! << 16) | (src[p + 7]! << 24);
    const bw = src[p + 8]!;
    if (e > MAX_E_F32 || f > e) throw encodingError('ENCODING_CORRUPT', `ALP: FLOAT vector ${v} at byte ${p}: exponent ${e} / factor ${f} (need factor ≤ exponent ≤ 10)`, p);
    if (bw > 32) throw encodingError('ENCODING_BIT_WIDTH', `ALP: FLOAT vector ${v} at byte ${p + 8}: bit width ${bw} exceeds 32`, p + 8);
    if (ne > n) throw encodingError('ENCODING_CORRUPT', `ALP: vector ${v} at byte ${p}: ${ne} exceptions for ${n} values`, p);
    p += 9;
    const packed = Math.ceil((n * bw) / 8);
    const need = packed + ne * 6;
    if (need > end - p) truncated(`ALP: vector ${v} data`, p, need, end);
    const F = POW10_F32[f]!;
    const FR = NEG_POW10_F32[e]!;
    if (bw === 0) {
      const x = Math.fround(Math.fround(Math.fround(base) * F) * FR);
      out.fill(x, o, o + n);
    } else {
      unpackN(src, p, p + packed, bw, u, 0, n);
      for (let i = 0; i < n; i++) out[o + i] = Math.fround(Math.fround((base + u[i]!) | 0) * F) * FR;
    }
    p += packed;
    const vp = p + ne * 2;
    for (let j = 0; j < ne; j++) {
      const at = src[p + 2 * j]! | (src[p + 2 * j + 1]! << 8);
      if (at >= n) throw encodingError('ENCODING_CORRUPT', `ALP: vector ${v}: exception position ${at} at byte ${p + 2 * j} is not below ${n}`, p + 2 * j);
      const q = vp + 4 * j;
      o32[o + at] = src[q]! | (src[q + 1]! << 8) | (src[q + 2]! << 16) | (src[q + 3]! << 24);
    }
    p = vp + ne * 4;
    if (p > last) last = p;
  }
  return last;
}

/**
 * Decodes `count` ALP-encoded DOUBLE values (normative decoder).
 * @param src - the encoded bytes.
 * @param pos - first byte of the ALP header.
 * @param end - exclusive end.
 * @param out - receives the values (exceptions are written as their stored bits).
 * @param outPos - first index of `out` to fill.
 * @param count - number of values; must equal the header's num_elements.
 * @returns the position after the last vector.
 * @throws ParquetError `ENCODING_TRUNCATED`, `ENCODING_CORRUPT`, `ENCODING_BIT_WIDTH` (above 64), `ENCODING_UNSUPPORTED`.
 */
export function decodeAlpDouble(src: Uint8Array, pos: number, end: number, out: Float64Array, outPos: number, count: number): number {
  if (!(outPos >= 0 && outPos + count <= out.length)) throw encodingError('ENCODING_ARGUMENT', `ALP: output of ${out.length} too small for ${count} values at ${outPos}`, pos);
  const page = readHeader(src, pos, end, count, 13);
  const size = Math.min(page.vectorSize, count);
  const ulo = new Int32Array(size);
  const uhi = new Int32Array(size);
  const o32 = new Int32Array(out.buffer, out.byteOffset, out.length * 2);
  let last = page.offsetsAt + page.numVectors * 4;
  for (let v = 0; v < page.numVectors; v++) {
    let p = vectorStart(src, page, v, end, 13);
    const o = outPos + v * page.vectorSize;
    const n = Math.min(page.vectorSize, count - v * page.vectorSize);
    const e = src[p]!;
    const f = src[p + 1]!;
    const ne = src[p + 2]! | (src[p + 3]! << 8);
    const baseLo = (src[p + 4]! | (src[p + 5]! << 8) | (src[p + 6]! << 16) | (src[p + 7]! << 24)) >>> 0;
    const baseHi = src[p + 8]! | (src[p + 9]! << 8) | (src[p + 10]! << 16) | (src[p + 11]! << 24);
    const bw = src[p + 12]!;
    if (e > MAX_E_F64 || f > e) throw encodingError('ENCODING_CORRUPT', `ALP: DOUBLE vector ${v} at byte ${p}: exponent ${e} / factor ${f} (need factor ≤ exponent ≤ 18)`, p);
    if (bw > 64) throw encodingError('ENCODING_BIT_WIDTH', `ALP: DOUBLE vector ${v} at byte ${p + 12}: bit width ${bw} exceeds 64`, p + 12);
    if (ne > n) throw encodingError('ENCODING_CORRUPT', `ALP: vector ${v} at byte ${p}: ${ne} exceptions for ${n} values`, p);
    p += 13;
    const packed = Math.ceil((n * bw) / 8);
    const need = packed + ne * 10;
    if (need > end - p) truncated(`ALP: vector ${v} data`, p, need, end);
    const F = POW10_F64[f]!;
    const FR = NEG_POW10_F64[e]!;
    if (bw <= 32) {
      if (bw === 0) ulo.fill(0, 0, n);
      else unpackN(src, p, p + packed, bw, ulo, 0, n);
      for (let i = 0; i < n; i++) {
        // encoded = base + u (mod 2^64) as lo/hi, then int64 → double (one correctly rounded addition)
        const s = baseLo + (ulo[i]! >>> 0);
        const lo = s >>> 0;
        const hi = (baseHi + (s - lo) / TWO_32) | 0;
        out[o + i] = (hi * TWO_32 + lo) * F * FR;
      }
    } else {
      unpackWide(src, p, p + packed, bw, ulo, uhi, 0, n);
      for (let i = 0; i < n; i++) {
        const s = baseLo + (ulo[i]! >>> 0);
        const lo = s >>> 0;
        const hi = (baseHi + uhi[i]! + (s - lo) / TWO_32) | 0;
        out[o + i] = (hi * TWO_32 + lo) * F * FR;
      }
    }
    p += packed;
    const vp = p + ne * 2;
    for (let j = 0; j < ne; j++) {
      const at = src[p + 2 * j]! | (src[p + 2 * j + 1]! << 8);
      if (at >= n) throw encodingError('ENCODING_CORRUPT', `ALP: vector ${v}: exception position ${at} at byte ${p + 2 * j} is not below ${n}`, p + 2 * j);
      const q = vp + 8 * j;
      o32[2 * (o + at)] = src[q]! | (src[q + 1]! << 8) | (src[q + 2]! << 16) | (src[q + 3]! << 24);
      o32[2 * (o + at) + 1] = src[q + 4]! | (src[q + 5]! << 8) | (src[q + 6]! << 16) | (src[q + 7]! << 24);
    }
    p = vp + ne * 8;
    if (p > last) last = p;
  }
  return last;
}

// ---------------------------------------------------------------- encoder (informative part)

const SAMPLE = 32;

/** Picks (exponent, factor) for values[s, s+n) by trying every pair on an evenly spaced sample. */
function choose(values: Float32Array | Float64Array, s: number, n: number, maxE: number, valueBytes: number, single: boolean): number {
  const step = Math.max(1, Math.floor(n / SAMPLE));
  let best = 0;
  let bestCost = Infinity;
  for (let e = 0; e <= maxE; e++) {
    for (let f = 0; f <= e; f++) {
      let exc = 0;
      let min = Infinity;
      let max = -Infinity;
      let m = 0;
      for (let i = 0; i < n; i += step, m++) {
        const v = values[s + i]!;
        const enc = single ? encodeF32(v, e, f) : encodeF64(v, e, f);
        if (enc !== enc) exc++;
        else {
          if (enc < min) min = enc;
          if (enc > max) max = enc;
        }
      }
      const range = max >= min ? max - min : 0;
      const bits = range === 0 ? 0 : Math.ceil(Math.log2(range + 1));
      const cost = (exc / m) * (valueBytes + 2) * 8 + bits;
      if (cost < bestCost) {
        bestCost = cost;
        best = (e << 8) | f;
      }
    }
  }
  return best;
}

/** The integer a FLOAT encodes to under (e, f), or NaN when it must be an exception. */
function encodeF32(v: number, e: number, f: number): number {
  const scaled = Math.fround(Math.fround(v * POW10_F32[e]!) * NEG_POW10_F32[f]!);
  if (!(scaled >= -2147483648 && scaled <= 2147483520)) return NaN;
  const enc = Math.round(scaled);
  const dec = Math.fround(Math.fround(Math.fround(enc) * POW10_F32[f]!) * NEG_POW10_F32[e]!);
  if (dec !== v || (v === 0 && 1 / v < 0)) return NaN;
  return enc === 0 ? 0 : enc;
}

/** The integer a DOUBLE encodes to under (e, f), or NaN when it must be an exception. */
function encodeF64(v: number, e: number, f: number): number {
  const scaled = v * POW10_F64[e]! * NEG_POW10_F64[f]!;
  if (!(scaled > -9.2e18 && scaled < 9.2e18)) return NaN;
  const enc = Math.round(scaled);
  const dec = enc * POW10_F64[f]! * NEG_POW10_F64[e]!;
  if (dec !== v || (v === 0 && 1 / v < 0)) return NaN;
  return enc === 0 ? 0 : enc;
}

function writeHeader(w: ByteWriter, count: number, log: number): number {
  w.u8(0);
  w.u8(0);
  w.u8(log);
  w.i32le(count);
  const offsetsAt = w.pos;
  const numVectors = Math.ceil(count / (1 << log));
  w.ensureSpare(4 * numVectors);
  w.buf.fill(0, w.pos, w.pos + 4 * numVectors);
  w.pos += 4 * numVectors;
  return offsetsAt;
}

function patchOffset(w: ByteWriter, offsetsAt: number, v: number): void {
  const off = w.pos - offsetsAt;
  const b = w.buf;
  const at = offsetsAt + 4 * v;
  b[at] = off;
  b[at + 1] = off >>> 8;
  b[at + 2] = off >>> 16;
  b[at + 3] = off >>> 24;
}

function checkLog(log: number): void {
  if (!(log >= 3 && log <= 15 && Number.isInteger(log))) throw encodingError('ENCODING_ARGUMENT', `ALP: log vector size ${log} outside 3–15`);
}

/**
 * Encodes FLOAT values with ALP (bit-exact round trip, including NaN payloads, -0, ±Inf and subnormals).
 * @param values - the values.
 * @param start - first index.
 * @param count - number of values.
 * @param w - receives the bytes.
 * @param logVectorSize - log2 of the vector size, 3–15 (default 10: 1024 values).
 * @throws ParquetError `ENCODING_ARGUMENT` for a bad vector size.
 */
export function encodeAlpFloat(values: Float32Array, start: number, count: number, w: ByteWriter, logVectorSize = 10): void {
  checkLog(logVectorSize);
  const vs = 1 << logVectorSize;
  const offsetsAt = writeHeader(w, count, logVectorSize);
  const bits = new Int32Array(values.buffer, values.byteOffset, values.length);
  const size = Math.min(vs, count);
  const enc = new Int32Array(size);
  const exc = new Int32Array(size);
  for (let v = 0; v * vs < count; v++) {
    patchOffset(w, offsetsAt, v);
    const s = start + v * vs;
    const n = Math.min(vs, count - v * vs);
    const ef = choose(values, s, n, MAX_E_F32, 4, true);
    const e = ef >> 8;
    const f = ef & 0xff;
    let ne = 0;
    let placeholder = 0;
    let havePlaceholder = false;
    let min = 0x7fffffff;
    for (let i = 0; i < n; i++) {
      const x = encodeF32(values[s + i]!, e, f);
      if (x !== x) {
        exc[ne++] = i;
        continue;
      }
      if (!havePlaceholder) {
        placeholder = x;
        havePlaceholder = true;
      }
      enc[i] = x;
      if (x < min) min = x;
    }
    if (!havePlaceholder) min = 0;
    for (let j = 0; j < ne; j++) enc[exc[j]!] = placeholder;
    if (placeholder < min) min = placeholder;
    let or = 0;
    for (let i = 0; i < n; i++) {
      const d = (enc[i]! - min) | 0;
      enc[i] = d;
      or |= d;
    }
    const bw = 32 - Math.clz32(or);
    w.ensureSpare(9 + Math.ceil((n * bw) / 8) + ne * 6);
    w.u8(e);
    w.u8(f);
    w.u8(ne);
    w.u8(ne >>> 8);
    w.i32le(min);
    w.u8(bw);
    w.pos += packN(enc, 0, n, bw, w.buf, w.pos);
    for (let j = 0; j < ne; j++) {
      w.u8(exc[j]!);
      w.u8(exc[j]! >>> 8);
    }
    for (let j = 0; j < ne; j++) w.i32le(bits[s + exc[j]!]!);
  }
}

/**
 * Encodes DOUBLE values with ALP (bit-exact round trip, including NaN payloads, -0, ±Inf and subnormals).
 * @param values - the values.
 * @param start - first index.
 * @param count - number of values.
 * @param w - receives the bytes.
 * @param logVectorSize - log2 of the vector size, 3–15 (default 10: 1024 values).
 * @throws ParquetError `ENCODING_ARGUMENT` for a bad vector size.
 */
export function encodeAlpDouble(values: Float64Array, start: number, count: number, w: ByteWriter, logVectorSize = 10): void {
  checkLog(logVectorSize);
  const vs = 1 << logVectorSize;
  const offsetsAt = writeHeader(w, count, logVectorSize);
  const bits = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
  const size = Math.min(vs, count);
  const lo = new Int32Array(size);
  const hi = new Int32Array(size);
  const exc = new Int32Array(size);
  for (let v = 0; v * vs < count; v++) {
    patchOffset(w, offsetsAt, v);
    const s = start + v * vs;
    const n = Math.min(vs, count - v * vs);
    const ef = choose(values, s, n, MAX_E_F64, 8, false);
    const e = ef >> 8;
    const f = ef & 0xff;
    let ne = 0;
    let pLo = 0;
    let pHi = 0;
    let havePlaceholder = false;
    for (let i = 0; i < n; i++) {
      const x = encodeF64(values[s + i]!, e, f);
      if (x !== x) {
        exc[ne++] = i;
        continue;
      }
      const h = Math.floor(x / TWO_32);
      lo[i] = x - h * TWO_32;
      hi[i] = h;
      if (!havePlaceholder) {
        pLo = lo[i]!;
        pHi = h;
        havePlaceholder = true;
      }
    }
    for (let j = 0; j < ne; j++) {
      lo[exc[j]!] = pLo;
      hi[exc[j]!] = pHi;
    }
    // frame of reference: signed 64-bit minimum
    let mLo = lo[0]! >>> 0;
    let mHi = hi[0]! | 0;
    for (let i = 1; i < n; i++) {
      const h = hi[i]! | 0;
      const l = lo[i]! >>> 0;
      if (h < mHi || (h === mHi && l < mLo)) {
        mHi = h;
        mLo = l;
      }
    }
    let orLo = 0;
    let orHi = 0;
    for (let i = 0; i < n; i++) {
      const l = lo[i]! >>> 0;
      const borrow = l < mLo ? 1 : 0;
      lo[i] = (l - mLo) | 0;
      hi[i] = (hi[i]! - mHi - borrow) | 0;
      orLo |= lo[i]!;
      orHi |= hi[i]!;
    }
    const bw = orHi !== 0 ? 64 - Math.clz32(orHi) : 32 - Math.clz32(orLo);
    w.ensureSpare(13 + Math.ceil((n * bw) / 8) + ne * 10);
    w.u8(e);
    w.u8(f);
    w.u8(ne);
    w.u8(ne >>> 8);
    w.i32le(mLo);
    w.i32le(mHi);
    w.u8(bw);
    w.pos += bw <= 32 ? packN(lo, 0, n, bw, w.buf, w.pos) : packWide(lo, hi, 0, n, bw, w.buf, w.pos);
    for (let j = 0; j < ne; j++) {
      w.u8(exc[j]!);
      w.u8(exc[j]! >>> 8);
    }
    for (let j = 0; j < ne; j++) {
      w.i32le(bits[2 * (s + exc[j]!)]!);
      w.i32le(bits[2 * (s + exc[j]!) + 1]!);
    }
  }
}

/** The decoding half of {@link alpCodec}: what a reader registers, with no encoder reachable from it. */
export const alpDecoder: ValueDecoder = {
  encoding: 10,
  name: 'ALP',
  supports: (type) => type === Type.FLOAT || type === Type.DOUBLE,
  decode(src, pos, end, count, column) {
    if (column.type === Type.FLOAT) {
      readHeader(src, pos, end, count, 9);
      const out = new Float32Array(count);
      return { values: out, pos: decodeAlpFloat(src, pos, end, out, 0, count) };
    }
    readHeader(src, pos, end, count, 13);
    const out = new Float64Array(count);
    return { values: out, pos: decodeAlpDouble(src, pos, end, out, 0, count) };
  },
};

/** ALP, for FLOAT and DOUBLE. */
export const alpCodec: ValueCodec = /*#__PURE__*/ withEncoder(alpDecoder, function encode(values, column, w) {
  if (column.type === Type.FLOAT && values instanceof Float32Array) encodeAlpFloat(values, 0, values.length, w);
  else if (column.type === Type.DOUBLE && values instanceof Float64Array) encodeAlpDouble(values, 0, values.length, w);
  else throw encodingError('ENCODING_ARGUMENT', `ALP: values do not match physical type ${column.type}`);
});
