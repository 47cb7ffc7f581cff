/**
 * The reader's columnar vectors (validity per slot, `Int32Array` offsets, slot-aligned typed values, binary offsets
 * + bytes) → Arrow `Data`, in the Arrow columnar format
 * (https://arrow.apache.org/docs/format/Columnar.html): fixed-width typed arrays, list offsets and UTF-8/binary
 * bytes are handed over without a copy; validity bytes become Arrow bitmaps (LSB first). The Parquet values
 * themselves are those of https://github.com/apache/parquet-format/blob/master/LogicalTypes.md as the reader maps
 * them (`convertValues`): decimals, INT96, FLOAT16, UUID and INTERVAL values are converted back to Arrow's
 * fixed-width layout here.
 *
 * @module
 */
import { type Data, type DataType, type Decimal, type FixedSizeList, type Float, type Interval, IntervalUnit, Dictionary, type Field as ArrowField, FixedSizeBinary, makeData, makeVector, Struct, Type as ArrowType } from 'apache-arrow';
import type { BinaryVector, ColumnarVector, Field, LeafVector, MapVector, StructVector } from '@parquetry/parquet-levels';
import { ParquetError } from '@parquetry/thrift-compact';

type TypedArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array | BigInt64Array | BigUint64Array;
type TypedArrayCtor = new (n: number | ArrayLike<number> | ArrayLike<bigint>) => TypedArray;

const TWO32 = 4294967296;
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

function vectorError(where: string, message: string): ParquetError {
  return new ParquetError('INVALID_VECTOR', `arrow: column '${where}': ${message}`);
}

function valueError(where: string, slot: number, message: string): ParquetError {
  return new ParquetError('INVALID_VALUE', `arrow: column '${where}': slot ${slot}: ${message}`);
}

/**
 * An Arrow validity bitmap (LSB first) of one byte per slot (0 or 1, as the reader's validity is), and the null
 * count; no bitmap when nothing is null. The leading slots that are all valid are found first, a 32-bit word at a
 * time, and not packed (their bitmap bytes are 0xff): a validity without nulls (a nullable field that has none, e.g.
 * the mixed file's tags lists and elements) is read once and no bitmap is allocated (2.2M such bytes, in-process
 * alternating: 0.35-0.58 -> 0.16 ms); one with nulls is packed from its first null on, as subarrays (packBytes with
 * a start index inside its loops took ~15% longer on bytes with 30% nulls).
 */
export function toBitmap(validity: Uint8Array | null, length: number): { bitmap: Uint8Array | undefined; nulls: number } {
  if (validity === null) return { bitmap: undefined, nulls: 0 };
  const valid = leadingValid(validity, length);
  if (valid === length) return { bitmap: undefined, nulls: 0 };
  const bm = new Uint8Array((length + 7) >> 3);
  let set = valid;
  if (valid === 0) set = packBytes(validity, length, bm);
  else {
    bm.fill(0xff, 0, valid >> 3);
    set += packBytes(validity.subarray(valid), length - valid, bm.subarray(valid >> 3));
  }
  const nulls = length - set;
  return nulls === 0 ? { bitmap: undefined, nulls: 0 } : { bitmap: bm, nulls };
}

/**
 * `length` when the first `length` bytes are all 1; otherwise a multiple of 8 up to which they are (not necessarily
 * the largest), 4 bytes per word when the bytes are 4-aligned. The word loop is a function of its own, with nothing
 * after it: compiled on stack replacement inside this function, the code after the loop (never run yet, so without
 * type feedback) threw every later call back to the interpreter (--trace-deopt: a deopt per call; toBitmap 12% of a
 * tags read's profile, as much as its level loop).
 */
function leadingValid(bytes: Uint8Array, length: number): number {
  let i = LITTLE_ENDIAN && (bytes.byteOffset & 3) === 0 && length >= 8 ? validWords(new Int32Array(bytes.buffer, bytes.byteOffset, length >> 2)) << 2 : 0;
  for (; i < length; i++) if (bytes[i] !== 1) return i & ~7;
  return length;
}

/** The leading words of `w` whose 4 bytes are all 1. */
function validWords(w: Int32Array): number {
  const words = w.length;
  let j = 0;
  while (j < words && w[j] === 0x01010101) j++;
  return j;
}

/**
 * Packs `length` bytes of 0/1 into `out` as LSB-first bits; returns the number of ones. Eight slots at a time from two 32-bit words when the bytes are 4-aligned: with bytes b0..b3 of 0/1 in a
 * little-endian word w, the product w × 0x01020408 puts b_k at bit 24 + k and every other partial product at a
 * distinct bit outside 24..27, so the top byte is the four bits with no carry.
 */
function packBytes(bytes: Uint8Array, length: number, out: Uint8Array): number {
  let set = 0;
  const full = length & ~7;
  let i = 0;
  if (LITTLE_ENDIAN && (bytes.byteOffset & 3) === 0 && full > 0) {
    const w = new Uint32Array(bytes.buffer, bytes.byteOffset, full >> 2);
    for (let j = 0; i < full; i += 8, j += 2) {
      const b = (Math.imul(w[j]!, 0x01020408) >>> 24) | ((Math.imul(w[j + 1]!, 0x01020408) >>> 24) << 4);
      out[i >> 3] = b;
      set += POPCOUNT[b]!;
    }
  }
  for (; i < full; i += 8) {
    const b = bytes[i]! | (bytes[i + 1]! << 1) | (bytes[i + 2]! << 2) | (bytes[i + 3]! << 3) | (bytes[i + 4]! << 4) | (bytes[i + 5]! << 5) | (bytes[i + 6]! << 6) | (bytes[i + 7]! << 7);
    out[i >> 3] = b;
    set += POPCOUNT[b]!;
  }
  for (; i < length; i++) {
    if (bytes[i] !== 0) {
      out[i >> 3]! |= 1 << (i & 7);
      set++;
    }
  }
  return set;
}

/** Booleans (the reader's `boolean[]`, or bytes of 0/1) as LSB-first bits. */
function packBooleans(values: ArrayLike<unknown>, length: number): Uint8Array {
  const bits = new Uint8Array((length + 7) >> 3);
  if (values instanceof Uint8Array) {
    packBytes(values, length, bits);
    return bits;
  }
  const full = length & ~7;
  let i = 0;
  for (; i < full; i += 8) {
    bits[i >> 3] =
      (values[i] === true ? 1 : 0) | (values[i + 1] === true ? 2 : 0) | (values[i + 2] === true ? 4 : 0) | (values[i + 3] === true ? 8 : 0) |
      (values[i + 4] === true ? 16 : 0) | (values[i + 5] === true ? 32 : 0) | (values[i + 6] === true ? 64 : 0) | (values[i + 7] === true ? 128 : 0);
  }
  for (; i < length; i++) if (values[i] === true) bits[i >> 3]! |= 1 << (i & 7);
  return bits;
}

/** Set bits per byte value. */
export const POPCOUNT: Uint8Array = /*#__PURE__*/ (() => {
  const t = new Uint8Array(256);
  for (let i = 1; i < 256; i++) t[i] = (i & 1) + t[i >> 1]!;
  return t;
})();

const INTEGER_CTORS: ReadonlySet<unknown> = /*#__PURE__*/ new Set<unknown>([Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array]);

function isInteger(a: TypedArray): boolean {
  return !(a instanceof Float32Array || a instanceof Float64Array);
}

/** The values as a typed array of `Ctor`, the same array when it already is one (zero copy), else converted. */
function typedAs(values: ArrayLike<unknown>, Ctor: TypedArrayCtor, length: number, where: string): TypedArray {
  if (values instanceof (Ctor as unknown as typeof Int8Array)) {
    const t = values as unknown as TypedArray;
    return t.length === length ? t : t.subarray(0, length);
  }
  if (ArrayBuffer.isView(values)) {
    const src = values as unknown as TypedArray;
    const big = src instanceof BigInt64Array || src instanceof BigUint64Array;
    const toBig = Ctor === (BigInt64Array as unknown) || Ctor === (BigUint64Array as unknown);
    if (big === toBig) {
      const width = (Ctor as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
      if (width === src.BYTES_PER_ELEMENT && isInteger(src) && INTEGER_CTORS.has(Ctor)) {
        // integers of one width, signed ↔ unsigned (BigInt64Array → BigUint64Array for UINT_64): the same bits, so a
        // view of the same buffer is exactly the modulo-2^n conversion an element-wise copy would make
        return new (Ctor as unknown as new (b: ArrayBufferLike, o: number, n: number) => TypedArray)(src.buffer, src.byteOffset, length);
      }
      // element-wise conversion inside the engine (e.g. Int32Array → Int8Array for INT(8), Float64Array → Uint32Array)
      return new Ctor((src.length === length ? src : src.subarray(0, length)) as ArrayLike<number>);
    }
  }
  // plain arrays (INT96 bigints) and mixed kinds: value by value, null slots as 0
  const out = new Ctor(length);
  const big = out instanceof BigInt64Array || out instanceof BigUint64Array;
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    if (big) {
      if (typeof v !== 'bigint') throw valueError(where, i, `expected a bigint, got ${typeof v}`);
      (out as BigInt64Array)[i] = v;
    } else {
      if (typeof v !== 'number') throw valueError(where, i, `expected a number, got ${typeof v}`);
      (out as Int32Array)[i] = v;
    }
  }
  return out;
}

/** IEEE 754 half-precision bits of a number, rounded to nearest even (the reader's FLOAT16 values are exact halves). */
export function toHalfBits(x: number): number {
  f32[0] = x;
  const bits = u32[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  const mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | (mant !== 0 ? 0x7e00 | (mant >>> 13) : 0x7c00);
  const e = exp - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    const m = mant | 0x800000;
    const shift = 14 - e;
    let h = m >>> shift;
    const rem = m & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && (h & 1) === 1)) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (h & 1) === 1)) h++;
  return sign | h;
}
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * Writes a decimal's unscaled value into `stride` little-endian 32-bit words at `w` (two's complement).
 * `digits` holds the magnitude's decimal digits.
 */
function putDecimal(words: Uint32Array, w: number, stride: number, neg: boolean, digits: string, where: string, slot: number): void {
  if (digits.length <= 15) {
    const n = Number(digits);
    let lo = n % TWO32;
    let hi = (n - lo) / TWO32;
    if (neg && n !== 0) {
      // two's complement: invert and add one, carrying through the words
      lo = (TWO32 - lo) % TWO32;
      hi = (lo === 0 ? TWO32 - hi : TWO32 - 1 - hi) % TWO32;
      words[w] = lo;
      if (stride > 1) words[w + 1] = hi;
      for (let k = 2; k < stride; k++) words[w + k] = 0xffffffff;
      if (stride === 1 && n > 0x80000000) throw valueError(where, slot, `decimal -${digits} does not fit in 32 bits`);
    } else {
      words[w] = lo;
      if (stride > 1) words[w + 1] = hi;
      else if (hi !== 0 || lo >= 0x80000000) throw valueError(where, slot, `decimal ${digits} does not fit in 32 bits`);
      for (let k = 2; k < stride; k++) words[w + k] = 0;
    }
    return;
  }
  let v = BigInt(digits);
  const bits = BigInt(32 * stride);
  if (v >= 1n << (bits - 1n) && !(neg && v === 1n << (bits - 1n))) throw valueError(where, slot, `decimal with ${digits.length} digits does not fit in ${32 * stride} bits`);
  if (neg) v = BigInt.asUintN(32 * stride, -v);
  for (let k = 0; k < stride; k++) {
    words[w + k] = Number(v & 0xffffffffn);
    v >>= 32n;
  }
}

/** Decimal values (the reader's exact decimal strings; bigints and numbers are taken as the value) → Arrow words. */
function decimalData(type: Decimal, values: ArrayLike<unknown>, length: number, where: string): Uint32Array {
  const stride = type.bitWidth / 32;
  const words = new Uint32Array(length * stride);
  const scale = type.scale;
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    let s: string;
    if (typeof v === 'string') s = v;
    else if (typeof v === 'bigint' || typeof v === 'number') s = String(v);
    else throw valueError(where, i, `expected a decimal string, got ${typeof v}`);
    const neg = s.charCodeAt(0) === 45;
    let digits = neg ? s.slice(1) : s;
    const dot = digits.indexOf('.');
    if (scale > 0) {
      // the reader writes exactly `scale` digits after the point
      const frac = dot < 0 ? '' : digits.slice(dot + 1);
      const int = dot < 0 ? digits : digits.slice(0, dot);
      if (frac.length > scale) throw valueError(where, i, `decimal ${s} has more than ${scale} digits after the point`);
      digits = int + frac + '0'.repeat(scale - frac.length);
    } else if (scale < 0) {
      digits = (BigInt(dot < 0 ? digits : digits.slice(0, dot)) / 10n ** BigInt(-scale)).toString();
    } else if (dot >= 0) {
      digits = digits.slice(0, dot);
    }
    digits = digits.replace(/^0+(?=\d)/, '');
    if (!/^\d+$/.test(digits)) throw valueError(where, i, `'${s}' is not a decimal number`);
    putDecimal(words, i * stride, stride, neg, digits, where, i);
  }
  return words;
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 0x20;
  return l >= 97 && l <= 102 ? l - 87 : -1;
}

const encoder = /*#__PURE__*/ new TextEncoder();

/**
 * FIXED_LEN_BYTE_ARRAY values as the reader gives them (byte views; UUID strings; INTERVAL objects; text for
 * STRING-annotated columns) → `width` bytes per slot.
 */
function fixedData(width: number, values: ArrayLike<unknown>, length: number, where: string): Uint8Array {
  const out = new Uint8Array(length * width);
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    const o = i * width;
    if (v instanceof Uint8Array) {
      if (v.length !== width) throw valueError(where, i, `${v.length} bytes in a FIXED_LEN_BYTE_ARRAY(${width})`);
      out.set(v, o);
    } else if (typeof v === 'string') {
      if (width === 16 && v.length === 36 && v.charCodeAt(8) === 45) {
        // UUID: 8-4-4-4-12 hex digits
        let p = 0;
        for (let b = 0; b < 16; b++) {
          if (b === 4 || b === 6 || b === 8 || b === 10) p++;
          const h = hexDigit(v.charCodeAt(p));
          const l = hexDigit(v.charCodeAt(p + 1));
          if (h < 0 || l < 0) throw valueError(where, i, `'${v}' is not a UUID`);
          out[o + b] = (h << 4) | l;
          p += 2;
        }
      } else {
        const r = encoder.encodeInto(v, out.subarray(o, o + width));
        if (r.read !== v.length || r.written !== width) throw valueError(where, i, `text of ${encoder.encode(v).length} UTF-8 bytes in a FIXED_LEN_BYTE_ARRAY(${width})`);
      }
    } else if (typeof v === 'object' && width === 12) {
      const { months, days, millis } = v as { months: number; days: number; millis: number };
      const dv = new DataView(out.buffer, o, 12);
      dv.setUint32(0, months, true);
      dv.setUint32(4, days, true);
      dv.setUint32(8, millis, true);
    } else {
      throw valueError(where, i, `unexpected ${typeof v} in a FIXED_LEN_BYTE_ARRAY(${width})`);
    }
  }
  return out;
}

/**
 * INTERVAL values (the reader's `{ months, days, millis }`, or 12 raw bytes) → Arrow Interval(YEAR_MONTH) (months) or
 * Interval(DAY_TIME) (days, milliseconds): the 32-bit words keep their bits, as arrow-rs reads them.
 */
function intervalData(yearMonth: boolean, values: ArrayLike<unknown>, length: number, where: string): Int32Array {
  const out = new Int32Array(yearMonth ? length : 2 * length);
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    let months: number;
    let days: number;
    let millis: number;
    if (v instanceof Uint8Array) {
      if (v.length !== 12) throw valueError(where, i, `${v.length} bytes for an INTERVAL (12)`);
      const dv = new DataView(v.buffer, v.byteOffset, 12);
      months = dv.getInt32(0, true);
      days = dv.getInt32(4, true);
      millis = dv.getInt32(8, true);
    } else if (typeof v === 'object') {
      ({ months, days, millis } = v as { months: number; days: number; millis: number });
    } else {
      throw valueError(where, i, `unexpected ${typeof v} for an INTERVAL`);
    }
    if (yearMonth) out[i] = months;
    else {
      out[2 * i] = days;
      out[2 * i + 1] = millis;
    }
  }
  return out;
}

/**
 * Non-negative int32 values (offsets, dictionary indices) as 64-bit integers, less `base`: written as the low words of
 * the int64s (the high words stay 0), no BigInt per value.
 */
function widen(src: ArrayLike<number>, n: number, base: number, Out: typeof BigInt64Array | typeof BigUint64Array = BigInt64Array): BigInt64Array | BigUint64Array {
  const out = new Out(n);
  if (LITTLE_ENDIAN) {
    const w = new Int32Array(out.buffer);
    for (let i = 0; i < n; i++) w[2 * i] = src[i]! - base;
  } else {
    for (let i = 0; i < n; i++) out[i] = BigInt(src[i]! - base);
  }
  return out;
}

/** Offsets rebased to start at 0 as 64-bit integers (Large* types). */
function largeOffsets(o: Int32Array, length: number): BigInt64Array {
  return widen(o, length + 1, o[0]!) as BigInt64Array;
}

/** Binary bytes (offsets into `data`) as Arrow data of a binary-like type: Utf8/Binary, their Large and View kinds. */
function binaryData(type: DataType, offsets: Int32Array, data: Uint8Array, length: number, bitmap: Uint8Array | undefined, nulls: number): Data {
  switch (type.typeId) {
    case ArrowType.Utf8:
    case ArrowType.Binary:
      return makeData({ type, length, nullCount: nulls, nullBitmap: bitmap, valueOffsets: offsets.length === length + 1 ? offsets : offsets.subarray(0, length + 1), data } as never);
    case ArrowType.LargeUtf8:
    case ArrowType.LargeBinary: {
      const base = offsets[0]!;
      return makeData({ type, length, nullCount: nulls, nullBitmap: bitmap, valueOffsets: largeOffsets(offsets, length), data: data.subarray(base, offsets[length]!) } as never);
    }
    default: {
      // BinaryView / Utf8View: 16 bytes per value — length, then 12 inline bytes, or a 4-byte prefix, buffer 0, offset
      const views = new Uint8Array(length * 16);
      const vw = new Int32Array(views.buffer);
      for (let i = 0; i < length; i++) {
        const a = offsets[i]!;
        const n = offsets[i + 1]! - a;
        const o = i * 16;
        vw[o >> 2] = n;
        if (n <= 12) {
          for (let k = 0; k < n; k++) views[o + 4 + k] = data[a + k]!;
        } else {
          for (let k = 0; k < 4; k++) views[o + 4 + k] = data[a + k]!;
          vw[(o >> 2) + 2] = 0;
          vw[(o >> 2) + 3] = a;
        }
      }
      return makeData({ type, length, nullCount: nulls, nullBitmap: bitmap, views, variadicBuffers: [data] } as never);
    }
  }
}

/** Bytes of slot `i` as a string key (one char per byte), for dictionary encoding. */
function byteKey(data: Uint8Array, a: number, b: number): string {
  if (b - a <= 64) return String.fromCharCode.apply(null, data.subarray(a, b) as unknown as number[]);
  let s = '';
  for (let k = a; k < b; k += 4096) s += String.fromCharCode.apply(null, data.subarray(k, Math.min(b, k + 4096)) as unknown as number[]);
  return s;
}

const INDEX_MAX: Record<number, number> = { 8: 127, 16: 32767, 32: 2147483647, 64: 2147483647 };

/** Binary values dictionary-encoded in order of first appearance: indices of the type's index width, one dictionary. */
function dictionaryData(type: Dictionary, v: BinaryVector, bitmap: Uint8Array | undefined, nulls: number, where: string): Data {
  const length = v.length;
  const { offsets, data } = v;
  const Indices = type.indices.ArrayType as unknown as TypedArrayCtor;
  const big = Indices === (BigInt64Array as unknown) || Indices === (BigUint64Array as unknown);
  // 64-bit indices are collected as int32 (there are fewer than 2^31 distinct values in a batch) and widened once
  const idx = big ? new Int32Array(length) : new Indices(length);
  const max = INDEX_MAX[type.indices.bitWidth] ?? 2147483647;
  const seen = new Map<string, number>();
  const dictOffsets: number[] = [0];
  const slots: number[] = [];
  let bytes = 0;
  const valid = v.validity;
  for (let i = 0; i < length; i++) {
    if (valid !== null && valid[i] === 0) continue;
    const a = offsets[i]!;
    const b = offsets[i + 1]!;
    const key = byteKey(data, a, b);
    let k = seen.get(key);
    if (k === undefined) {
      k = seen.size;
      if (k > max) throw new ParquetError('VALUE_TOO_LARGE', `arrow: column '${where}': more than ${max + 1} distinct values for dictionary indices of ${type.indices.bitWidth} bits`);
      seen.set(key, k);
      slots.push(i);
      bytes += b - a;
      dictOffsets.push(bytes);
    }
    (idx as Int32Array)[i] = k;
  }
  const dictBytes = new Uint8Array(bytes);
  let at = 0;
  for (const i of slots) {
    const a = offsets[i]!;
    const b = offsets[i + 1]!;
    dictBytes.set(data.subarray(a, b), at);
    at += b - a;
  }
  const n = slots.length;
  const dictionary = binaryData(type.dictionary, Int32Array.from(dictOffsets), dictBytes, n, undefined, 0);
  const indices = big ? widen(idx as Int32Array, length, 0, Indices as unknown as typeof BigInt64Array) : idx;
  return makeData({ type, length, nullCount: nulls, nullBitmap: bitmap, data: indices, dictionary: makeVector(dictionary) } as never);
}

const NANOS_PER_DAY = 86400000000000n;
const JULIAN_EPOCH = 2440588n;
const WRAP_DAYS = 4294967296n * NANOS_PER_DAY;

/**
 * INT96 timestamps (the reader's exact nanosecond bigints) → int64 nanoseconds as Arrow C++ computes them: the
 * Julian day taken as an unsigned 32-bit number and the result wrapped to 64 bits (so out-of-range values match
 * pyarrow's rather than failing).
 */
function int96Nanos(values: ArrayLike<unknown>, length: number, where: string): BigInt64Array {
  const out = new BigInt64Array(length);
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    if (typeof v !== 'bigint') throw valueError(where, i, `expected a bigint, got ${typeof v}`);
    // a Julian day with its top bit set reads as a negative day here, as a day past 2^31 in Arrow C++
    const day = (v >= 0n ? v / NANOS_PER_DAY : (v - NANOS_PER_DAY + 1n) / NANOS_PER_DAY) + JULIAN_EPOCH;
    out[i] = BigInt.asIntN(64, day < 0n ? v + WRAP_DAYS : v);
  }
  return out;
}

/** A leaf vector's values, for leaf types whose Arrow layout is not binary. */
function leafData(type: DataType, v: LeafVector, bitmap: Uint8Array | undefined, nulls: number, where: string): Data {
  const length = v.length;
  const values = v.values;
  const base = { type, length, nullCount: nulls, nullBitmap: bitmap };
  switch (type.typeId) {
    case ArrowType.Null:
      return makeData({ type, length } as never);
    case ArrowType.Bool:
      // packed by the reader (booleans: 'bits'): already Arrow's layout
      return makeData({ ...base, data: v.packed === true ? (values as Uint8Array) : packBooleans(values, length) } as never);
    case ArrowType.Timestamp:
      if (!ArrayBuffer.isView(values)) return makeData({ ...base, data: int96Nanos(values, length, where) } as never);
      return makeData({ ...base, data: typedAs(values, type.ArrayType as TypedArrayCtor, length, where) } as never);
    case ArrowType.Int:
    case ArrowType.Date:
    case ArrowType.Time:
    case ArrowType.Duration:
      return makeData({ ...base, data: typedAs(values, type.ArrayType as TypedArrayCtor, length, where) } as never);
    case ArrowType.Float: {
      if ((type as Float).precision === 0) {
        // Float16: the reader's numbers back to their half-precision bits
        const h = new Uint16Array(length);
        for (let i = 0; i < length; i++) {
          const x = values[i];
          if (typeof x === 'number') h[i] = toHalfBits(x);
          else if (x !== null && x !== undefined) throw valueError(where, i, `expected a number, got ${typeof x}`);
        }
        return makeData({ ...base, data: h } as never);
      }
      return makeData({ ...base, data: typedAs(values, type.ArrayType as TypedArrayCtor, length, where) } as never);
    }
    case ArrowType.Decimal:
      return makeData({ ...base, data: decimalData(type as Decimal, values, length, where) } as never);
    case ArrowType.FixedSizeBinary:
      return makeData({ ...base, data: fixedData((type as FixedSizeBinary).byteWidth, values, length, where) } as never);
    case ArrowType.Interval:
      return makeData({ ...base, data: intervalData((type as Interval).unit === IntervalUnit.YEAR_MONTH, values, length, where) } as never);
    default:
      throw vectorError(where, `a leaf vector cannot give Arrow ${String(type)}`);
  }
}

/**
 * Converts one vector to Arrow data of `field`'s type.
 * @param v - the reader's vector.
 * @param field - the Arrow field (type decided by the read plan).
 * @param pq - the projected Parquet field `v` reads (children are matched through it).
 * @returns the Arrow data.
 * @throws ParquetError `INVALID_VECTOR` when the vector does not have the shape the field needs; `INVALID_VALUE` for
 *   a value that does not fit its Arrow type; `VALUE_TOO_LARGE` when dictionary indices overflow.
 */
export function toArrowData(v: ColumnarVector, field: ArrowField, pq: Field): Data {
  const where = pq.node.path.join('.');
  const type = field.type as DataType;
  const length = v.length;
  const { bitmap, nulls } = toBitmap(v.validity, length);
  switch (v.kind) {
    case 'leaf':
      return leafData(type, v, bitmap, nulls, where);
    case 'binary':
      if (type.typeId === ArrowType.Dictionary) return dictionaryData(type as Dictionary, v, bitmap, nulls, where);
      if (!isBinaryLike(type)) throw vectorError(where, `a binary vector cannot give Arrow ${String(type)}`);
      return binaryData(type, v.offsets, v.data, length, bitmap, nulls);
    case 'struct':
      return structData(v, type, pq, bitmap, nulls, where);
    case 'list': {
      if (pq.kind !== 'list') throw vectorError(where, `a list vector for a Parquet ${pq.kind}`);
      return listData(type, v.offsets, toArrowData(v.element, type.children[0] as ArrowField, pq.element), length, bitmap, nulls, where);
    }
    case 'map':
      return mapData(v, type, pq, bitmap, nulls, where);
  }
}

function isBinaryLike(t: DataType): boolean {
  const id = t.typeId;
  return id === ArrowType.Utf8 || id === ArrowType.Binary || id === ArrowType.LargeUtf8 || id === ArrowType.LargeBinary || id === ArrowType.Utf8View || id === ArrowType.BinaryView;
}

function listData(type: DataType, offsets: Int32Array, child: Data, length: number, bitmap: Uint8Array | undefined, nulls: number, where: string): Data {
  if (type.typeId === ArrowType.List) {
    return makeData({ type, length, nullCount: nulls, nullBitmap: bitmap, valueOffsets: offsets.length === length + 1 ? offsets : offsets.subarray(0, length + 1), child } as never);
  }
  if (type.typeId === ArrowType.LargeList) {
    // offsets must index the child as given: keep their base
    const o = widen(offsets, length + 1, 0);
    return makeData({ type, length, nullCount: nulls, nullBitmap: bitmap, valueOffsets: o, child } as never);
  }
  if (type.typeId === ArrowType.FixedSizeList) {
    // every list must have exactly `size` elements (a null list too: Parquet stores none for it, so it cannot be
    // laid out without padding the child; Arrow C++ refuses such a column as well)
    const size = (type as FixedSizeList).listSize;
    const base = offsets[0]!;
    for (let i = 0; i < length; i++) {
      const k = offsets[i + 1]! - offsets[i]!;
      if (k !== size) throw valueError(where, i, `a list of ${k} elements where FixedSizeList(${size}) needs ${size}`);
    }
    const c = base === 0 && child.length === length * size ? child : child.slice(base, length * size);
    return makeData({ type, length, nullCount: nulls, nullBitmap: bitmap, child: c } as never);
  }
  throw vectorError(where, `a list vector cannot give Arrow ${String(type)}`);
}

function structData(v: StructVector, type: DataType, pq: Field, bitmap: Uint8Array | undefined, nulls: number, where: string): Data {
  if (type.typeId !== ArrowType.Struct || pq.kind !== 'struct') throw vectorError(where, `a struct vector cannot give Arrow ${String(type)}`);
  const kids = type.children as ArrowField[];
  const children = pq.fields.map((f, i) => {
    // by name, which is unique within a group (buildSchemaTree refuses two fields of one name): a dataset file's
    // vectors carry that file's schema nodes, not the plan's
    const cv = v.children.find((c) => c.field.node.name === f.node.name);
    if (!cv) throw vectorError(where, `the reader gave no vector for '${f.node.name}'`);
    return toArrowData(cv, kids[i]!, f);
  });
  return makeData({ type, length: v.length, nullCount: nulls, nullBitmap: bitmap, children } as never);
}

function mapData(v: MapVector, type: DataType, pq: Field, bitmap: Uint8Array | undefined, nulls: number, where: string): Data {
  if (pq.kind !== 'map') throw vectorError(where, `a map vector for a Parquet ${pq.kind}`);
  if (type.typeId === ArrowType.List) {
    // a map without values: the list of its keys
    return listData(type, v.offsets, toArrowData(v.keys, type.children[0] as ArrowField, pq.key), v.length, bitmap, nulls, where);
  }
  if (type.typeId !== ArrowType.Map || !v.values || !pq.value) throw vectorError(where, `a map vector cannot give Arrow ${String(type)}`);
  const entriesField = type.children[0] as ArrowField;
  const entryType = entriesField.type as Struct;
  const [kf, vf] = entryType.children as ArrowField[];
  const keys = toArrowData(v.keys, kf!, pq.key);
  const values = toArrowData(v.values, vf!, pq.value);
  const entries = makeData({ type: entryType, length: keys.length, nullCount: 0, children: [keys, values] } as never);
  return makeData({ type, length: v.length, nullCount: nulls, nullBitmap: bitmap, valueOffsets: v.offsets.length === v.length + 1 ? v.offsets : v.offsets.subarray(0, v.length + 1), child: entries } as never);
}
