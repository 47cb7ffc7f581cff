/**
 * PLAIN (Encodings.md, "Plain: (PLAIN = 0)"):
 * https://github.com/apache/parquet-format/blob/master/Encodings.md#plain-plain--0
 *
 * BOOLEAN: bit-packed, LSB first. INT32/INT64/INT96/FLOAT/DOUBLE: little endian, 4/8/12/4/8 bytes.
 * BYTE_ARRAY: 4-byte little-endian length followed by the bytes. FIXED_LEN_BYTE_ARRAY: the bytes.
 *
 * Fixed-width numbers decode to zero-copy typed-array views of the input when the byte offset is
 * aligned (the views alias the page buffer), and to copies otherwise. Little-endian hosts only,
 * which is every JavaScript engine in use.
 *
 * @module
 */
import { Type, type ByteWriter } from '@parquetry/thrift-compact';
import { encodingError, truncated } from './errors.js';
import type { ByteArrays, ColumnDescriptor, ColumnValues, DecodeResult, FixedLenByteArrays, ValueCodec, ValueDecoder } from './types.js';
import { withEncoder } from './value-codec.js';

function checkCount(what: string, pos: number, end: number, count: number, bytesPer: number, src: Uint8Array): void {
  if (!(count >= 0 && Number.isInteger(count)) || !(pos >= 0 && pos <= end && end <= src.length)) {
    throw encodingError('ENCODING_ARGUMENT', `${what}: invalid count ${count} or range [${pos}, ${end}) of ${src.length}`, pos);
  }
  if (count * bytesPer > end - pos) truncated(`${what}: ${count} values of ${bytesPer} bytes`, pos, count * bytesPer, end);
}

/**
 * Decodes `count` PLAIN booleans (LSB-first bits) into one 0/1 byte per value.
 * @param src - the encoded bytes.
 * @param pos - first byte.
 * @param end - exclusive end.
 * @param out - receives 0 or 1 per value.
 * @param outPos - first index of `out` to fill.
 * @param count - number of values.
 * @returns `pos + ceil(count / 8)`.
 * @throws ParquetError `ENCODING_TRUNCATED` when the bytes are short.
 */
export function decodePlainBoolean(src: Uint8Array, pos: number, end: number, out: Uint8Array, outPos: number, count: number): number {
  const nBytes = Math.ceil(count / 8);
  checkCount('PLAIN BOOLEAN', pos, end, nBytes, 1, src);
  if (outPos < 0 || outPos + count > out.length) throw encodingError('ENCODING_ARGUMENT', `PLAIN BOOLEAN: output of ${out.length} too small for ${count} values at ${outPos}`, pos);
  const full = count >>> 3;
  let o = outPos;
  let p = pos;
  for (let g = 0; g < full; g++, o += 8) {
    const b = src[p++]!;
    out[o] = b & 1;
    out[o + 1] = (b >>> 1) & 1;
    out[o + 2] = (b >>> 2) & 1;
    out[o + 3] = (b >>> 3) & 1;
    out[o + 4] = (b >>> 4) & 1;
    out[o + 5] = (b >>> 5) & 1;
    out[o + 6] = (b >>> 6) & 1;
    out[o + 7] = b >>> 7;
  }
  const rest = count & 7;
  if (rest) {
    const b = src[p]!;
    for (let k = 0; k < rest; k++) out[o + k] = (b >>> k) & 1;
  }
  return pos + nBytes;
}

/**
 * Encodes booleans (any non-zero byte is true) as PLAIN LSB-first bits, zero-padding the last byte.
 * @param values - one byte per value.
 * @param start - first index.
 * @param count - number of values.
 * @param w - receives the bytes.
 */
export function encodePlainBoolean(values: Uint8Array, start: number, count: number, w: ByteWriter): void {
  const nBytes = Math.ceil(count / 8);
  w.ensureSpare(nBytes);
  const b = w.buf;
  let p = w.pos;
  let i = start;
  const full = count >>> 3;
  for (let g = 0; g < full; g++, i += 8) {
    b[p++] =
      (values[i] ? 1 : 0) | (values[i + 1] ? 2 : 0) | (values[i + 2] ? 4 : 0) | (values[i + 3] ? 8 : 0) |
      (values[i + 4] ? 16 : 0) | (values[i + 5] ? 32 : 0) | (values[i + 6] ? 64 : 0) | (values[i + 7] ? 128 : 0);
  }
  const rest = count & 7;
  if (rest) {
    let byte = 0;
    for (let k = 0; k < rest; k++) if (values[i + k]) byte |= 1 << k;
    b[p++] = byte;
  }
  w.pos = p;
}

/**
 * Decodes `count` PLAIN INT32 values (a zero-copy view when 4-byte aligned).
 * @param src - the encoded bytes.
 * @param pos - first byte.
 * @param end - exclusive end.
 * @param count - number of values; the values end at `pos + 4 * count`.
 * @returns the values.
 * @throws ParquetError `ENCODING_TRUNCATED` when the bytes are short.
 */
export function decodePlainInt32(src: Uint8Array, pos: number, end: number, count: number): Int32Array {
  checkCount('PLAIN INT32', pos, end, count, 4, src);
  const at = src.byteOffset + pos;
  // aligned: a zero-copy view; otherwise copy into a fresh (aligned) buffer
  if ((at & 3) === 0) return new Int32Array(src.buffer, at, count);
  const copy = new Int32Array(count);
  new Uint8Array(copy.buffer).set(src.subarray(pos, pos + count * 4));
  return copy;
}

/**
 * Decodes `count` PLAIN INT64 values into a BigInt64Array (a zero-copy view when 8-byte aligned; no BigInt is created).
 * @param src - the encoded bytes.
 * @param pos - first byte.
 * @param end - exclusive end.
 * @param count - number of values; the values end at `pos + 8 * count`.
 * @returns the values.
 * @throws ParquetError `ENCODING_TRUNCATED` when the bytes are short.
 */
export function decodePlainInt64(src: Uint8Array, pos: number, end: number, count: number): BigInt64Array {
  checkCount('PLAIN INT64', pos, end, count, 8, src);
  const at = src.byteOffset + pos;
  // aligned: a zero-copy view; otherwise copy into a fresh (aligned) buffer
  if ((at & 7) === 0) return new BigInt64Array(src.buffer, at, count);
  const copy = new BigInt64Array(count);
  new Uint8Array(copy.buffer).set(src.subarray(pos, pos + count * 8));
  return copy;
}

/**
 * Decodes `count` PLAIN FLOAT values (a zero-copy view when 4-byte aligned).
 * @param src - the encoded bytes.
 * @param pos - first byte.
 * @param end - exclusive end.
 * @param count - number of values; the values end at `pos + 4 * count`.
 * @returns the values.
 * @throws ParquetError `ENCODING_TRUNCATED` when the bytes are short.
 */
export function decodePlainFloat(src: Uint8Array, pos: number, end: number, count: number): Float32Array {
  checkCount('PLAIN FLOAT', pos, end, count, 4, src);
  const at = src.byteOffset + pos;
  // aligned: a zero-copy view; otherwise copy into a fresh (aligned) buffer
  if ((at & 3) === 0) return new Float32Array(src.buffer, at, count);
  const copy = new Float32Array(count);
  new Uint8Array(copy.buffer).set(src.subarray(pos, pos + count * 4));
  return copy;
}

/**
 * Decodes `count` PLAIN DOUBLE values (a zero-copy view when 8-byte aligned).
 * @param src - the encoded bytes.
 * @param pos - first byte.
 * @param end - exclusive end.
 * @param count - number of values; the values end at `pos + 8 * count`.
 * @returns the values.
 * @throws ParquetError `ENCODING_TRUNCATED` when the bytes are short.
 */
export function decodePlainDouble(src: Uint8Array, pos: number, end: number, count: number): Float64Array {
  checkCount('PLAIN DOUBLE', pos, end, count, 8, src);
  const at = src.byteOffset + pos;
  // aligned: a zero-copy view; otherwise copy into a fresh (aligned) buffer
  if ((at & 7) === 0) return new Float64Array(src.buffer, at, count);
  const copy = new Float64Array(count);
  new Uint8Array(copy.buffer).set(src.subarray(pos, pos + count * 8));
  return copy;
}

/**
 * Decodes `count` PLAIN fixed-width byte strings (FIXED_LEN_BYTE_ARRAY, or INT96 with width 12) as a zero-copy view.
 * @param src - the encoded bytes.
 * @param pos - first byte.
 * @param end - exclusive end.
 * @param count - number of values; they end at `pos + width * count`.
 * @param width - bytes per value (at least 1).
 * @returns the values.
 * @throws ParquetError `ENCODING_TRUNCATED` when the bytes are short, `ENCODING_ARGUMENT` for a width below 1.
 */
export function decodePlainFixed(src: Uint8Array, pos: number, end: number, count: number, width: number): FixedLenByteArrays {
  if (!(width >= 1 && Number.isInteger(width))) throw encodingError('ENCODING_ARGUMENT', `PLAIN FIXED_LEN_BYTE_ARRAY: invalid type length ${width}`, pos);
  checkCount('PLAIN FIXED_LEN_BYTE_ARRAY', pos, end, count, width, src);
  return { width, data: src.subarray(pos, pos + count * width) };
}

/**
 * Throws `ENCODING_TRUNCATED` for PLAIN BYTE_ARRAY value `i`: its length (`kind` 0), its bytes (1), or its bytes and
 * the lengths of the values after it (2) run past `end`.
 */
function byteArrayTruncated(kind: 0 | 1 | 2, i: number, p: number, len: number, count: number, end: number): never {
  if (kind === 0) truncated(`PLAIN BYTE_ARRAY: length of value ${i}`, p, 4, end);
  if (kind === 1) truncated(`PLAIN BYTE_ARRAY: value ${i} of ${len} bytes`, p, len, end);
  return truncated(`PLAIN BYTE_ARRAY: value ${i} of ${len} bytes and the lengths of the ${count - 1 - i} values after it`, p, len + 4 * (count - 1 - i), end);
}

/**
 * Decodes `count` PLAIN BYTE_ARRAY values (4-byte length + bytes each) into columnar form (the bytes are copied once).
 * @param src - the encoded bytes.
 * @param pos - first byte.
 * @param end - exclusive end.
 * @param count - number of values.
 * @returns the values and the position after them.
 * @throws ParquetError `ENCODING_TRUNCATED` when a length or value runs past `end` (checked before any allocation by `count`).
 */
export function decodePlainByteArray(src: Uint8Array, pos: number, end: number, count: number): { values: ByteArrays; pos: number } {
  checkCount('PLAIN BYTE_ARRAY', pos, end, count, 4, src);
  const offsets = new Int32Array(count + 1);
  // every value has a 4-byte length, so the bytes of all values fit in (end - pos) - 4 * count
  const data = new Uint8Array((end - pos - 4 * count + 3) & ~3);
  const p = decodePlainByteArrayInto(src, pos, end, count, offsets, 0, data);
  return { values: { offsets, data: data.subarray(0, offsets[count]!) }, pos: p };
}

/**
 * Decodes `count` PLAIN BYTE_ARRAY values into arrays the caller owns, after values already there: value `i`'s
 * bytes are copied to `data` from `offsets[outPos + i]` on, and `offsets[outPos + i + 1]` receives where they end.
 * A reader appending a column chunk's pages to one buffer uses it (no per-page arrays to join afterwards).
 * @param src - the encoded bytes.
 * @param pos - first byte.
 * @param end - exclusive end.
 * @param count - number of values.
 * @param offsets - receives the end offsets; `offsets[outPos]` is where the first value's bytes go (at least
 *   `outPos + count + 1` long).
 * @param outPos - index of the offset the values start at.
 * @param data - receives the bytes: it must have room for `(end - pos) - 4 * count` bytes from `offsets[outPos]`
 *   (what the values can hold at most).
 * @returns the position after the values.
 * @throws ParquetError `ENCODING_TRUNCATED` when a length or value runs past `end`; `ENCODING_ARGUMENT` when
 *   `offsets` or `data` lack the room.
 */
export function decodePlainByteArrayInto(src: Uint8Array, pos: number, end: number, count: number, offsets: Int32Array, outPos: number, data: Uint8Array): number {
  checkCount('PLAIN BYTE_ARRAY', pos, end, count, 4, src);
  const start = offsets[outPos];
  // the bytes of all values fit in (end - pos) - 4 * count
  const cap = end - pos - 4 * count;
  if (start === undefined || !(start >= 0) || outPos + count >= offsets.length || start + cap > data.length) {
    throw encodingError('ENCODING_ARGUMENT', `PLAIN BYTE_ARRAY: no room for ${count} values (${cap} bytes at most) from offset ${outPos} (byte ${start}) in ${offsets.length} offsets and ${data.length} bytes`, pos);
  }
  const sv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const room = data.length;
  const limit = start + cap;
  let p = pos;
  let a = start;
  for (let i = 0; i < count; i++) {
    // (the messages are built out of the loop: a template string in it makes the loop twice as slow)
    if (end - p < 4) byteArrayTruncated(0, i, p, 0, count, end);
    const len = sv.getUint32(p, true);
    p += 4;
    if (len > end - p) byteArrayTruncated(1, i, p, len, count, end);
    // the value must leave room for the 4-byte lengths of the values after it (`data` is sized on that)
    if (a + len > limit) byteArrayTruncated(2, i, p, len, count, end);
    if (len <= 64 && a + len + 7 < room && p + len + 7 < end) {
      // whole 8-byte words moved as doubles (half the moves of 4-byte words: 1M 32-byte values about 35% faster);
      // a word that reads as NaN goes as two 4-byte words instead, since a NaN's bits need not survive setFloat64
      // (ECMA-262 SetValueInBuffer), while every other double is written back with the bits it was read from
      for (let k = 0; k < len; k += 8) {
        const x = sv.getFloat64(p + k, true);
        if (x === x) dv.setFloat64(a + k, x, true);
        else {
          dv.setInt32(a + k, sv.getInt32(p + k, true), true);
          dv.setInt32(a + k + 4, sv.getInt32(p + k + 4, true), true);
        }
      }
    } else if (len <= 64 && a + len + 3 < room && p + len + 3 < end) {
      // whole 4-byte words (unaligned little-endian moves); the bytes written past this value are overwritten by the
      // next one (values are copied in order), and the words read past it are within the page
      for (let k = 0; k < len; k += 4) dv.setInt32(a + k, sv.getInt32(p + k, true), true);
    } else if (len < 16) {
      for (let k = 0; k < len; k++) data[a + k] = src[p + k]!;
    } else data.set(src.subarray(p, p + len), a);
    p += len;
    a += len;
    offsets[outPos + i + 1] = a;
  }
  return p;
}

/**
 * Encodes BYTE_ARRAY values as PLAIN (4-byte length + bytes each).
 * @param values - the values.
 * @param w - receives the bytes.
 */
export function encodePlainByteArray(values: ByteArrays, w: ByteWriter): void {
  const { offsets, data } = values;
  const n = offsets.length - 1;
  w.ensureSpare(4 * n + (offsets[n]! - offsets[0]!));
  const b = w.buf;
  // short values move 4 bytes at a time through DataViews (unaligned word access, no view object per value)
  const bv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const sv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let p = w.pos;
  for (let i = 0; i < n; i++) {
    const a = offsets[i]!;
    const len = offsets[i + 1]! - a;
    bv.setInt32(p, len, true);
    p += 4;
    if (len <= 64) {
      let k = 0;
      for (const l4 = len - 3; k < l4; k += 4) bv.setInt32(p + k, sv.getInt32(a + k, true), true);
      for (; k < len; k++) b[p + k] = data[a + k]!;
    } else b.set(data.subarray(a, a + len), p);
    p += len;
  }
  w.pos = p;
}

/** Bytes of a typed array, as a view. */
function bytesOf(v: Int32Array | BigInt64Array | Float32Array | Float64Array | Uint8Array): Uint8Array {
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}

/**
 * Decodes PLAIN values of any physical type.
 * @param src - the encoded bytes.
 * @param pos - first byte.
 * @param end - exclusive end.
 * @param count - number of values.
 * @param column - the column's physical type (and `typeLength` for FIXED_LEN_BYTE_ARRAY).
 * @returns the values and the position after them.
 * @throws ParquetError `ENCODING_TRUNCATED`, `ENCODING_ARGUMENT`, `ENCODING_UNSUPPORTED` for an unknown type.
 */
export function decodePlain(src: Uint8Array, pos: number, end: number, count: number, column: ColumnDescriptor): DecodeResult {
  switch (column.type) {
    case Type.BOOLEAN: {
      checkCount('PLAIN BOOLEAN', pos, end, Math.ceil(count / 8), 1, src);
      const out = new Uint8Array(count);
      return { values: out, pos: decodePlainBoolean(src, pos, end, out, 0, count) };
    }
    case Type.INT32:
      return { values: decodePlainInt32(src, pos, end, count), pos: pos + 4 * count };
    case Type.INT64:
      return { values: decodePlainInt64(src, pos, end, count), pos: pos + 8 * count };
    case Type.INT96:
      return { values: decodePlainFixed(src, pos, end, count, 12), pos: pos + 12 * count };
    case Type.FLOAT:
      return { values: decodePlainFloat(src, pos, end, count), pos: pos + 4 * count };
    case Type.DOUBLE:
      return { values: decodePlainDouble(src, pos, end, count), pos: pos + 8 * count };
    case Type.BYTE_ARRAY:
      return decodePlainByteArray(src, pos, end, count);
    case Type.FIXED_LEN_BYTE_ARRAY: {
      const width = column.typeLength ?? 0;
      return { values: decodePlainFixed(src, pos, end, count, width), pos: pos + width * count };
    }
    default:
      throw encodingError('ENCODING_UNSUPPORTED', `PLAIN: unknown physical type ${String(column.type)}`, pos);
  }
}

/**
 * Encodes values of any physical type as PLAIN.
 * @param values - the values in the form for `column.type` (see {@link ColumnValues}).
 * @param column - the column's physical type.
 * @param w - receives the bytes.
 * @throws ParquetError `ENCODING_ARGUMENT` when the value form does not match the type.
 */
export function encodePlain(values: ColumnValues, column: ColumnDescriptor, w: ByteWriter): void {
  const t = column.type;
  if (t === Type.BOOLEAN && values instanceof Uint8Array) encodePlainBoolean(values, 0, values.length, w);
  else if (
    (t === Type.INT32 && values instanceof Int32Array) ||
    (t === Type.INT64 && values instanceof BigInt64Array) ||
    (t === Type.FLOAT && values instanceof Float32Array) ||
    (t === Type.DOUBLE && values instanceof Float64Array)
  ) {
    w.bytes(bytesOf(values));
  } else if (t === Type.BYTE_ARRAY && 'offsets' in values) encodePlainByteArray(values, w);
  else if ((t === Type.FIXED_LEN_BYTE_ARRAY || t === Type.INT96) && 'width' in values) {
    const expected = t === Type.INT96 ? 12 : column.typeLength;
    if (values.width !== expected) throw encodingError('ENCODING_ARGUMENT', `PLAIN: values of ${values.width} bytes for a type length of ${expected}`);
    w.bytes(values.data);
  }
  else throw encodingError('ENCODING_ARGUMENT', `PLAIN: values do not match physical type ${t}`);
}

/** The decoding half of {@link plainCodec}: what a reader registers, with no encoder reachable from it. */
export const plainDecoder: ValueDecoder = {
  encoding: 0,
  name: 'PLAIN',
  supports: (type) => type >= 0 && type <= 7,
  decode: (src, pos, end, count, column) => decodePlain(src, pos, end, count, column),
};

/** PLAIN, for every physical type. */
export const plainCodec: ValueCodec = /*#__PURE__*/ withEncoder(plainDecoder, encodePlain);
