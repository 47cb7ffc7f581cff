/**
 * Shared helpers of the streaming encoders (`createValueEncoder`, `DictionaryEncoder`): checking a
 * value batch against the column's physical type before anything is buffered, growing reused buffers, and the
 * byte lengths of the varints that DELTA_BINARY_PACKED and the RLE hybrid write
 * (https://github.com/apache/parquet-format/blob/master/Encodings.md).
 *
 * @module
 */
import { Type, TypeNames } from '@parquetry/thrift-compact';
import { encodingError } from './errors.js';
import type { ColumnDescriptor, ColumnValues } from './types.js';

/** Largest buffer a streaming encoder grows to (offsets and lengths are Int32). */
export const MAX_BUFFER = 0x7fffffff;

/**
 * Bytes per value of a fixed-width physical type (0 for BOOLEAN and BYTE_ARRAY).
 * @param what - the caller, for messages.
 * @param column - the column.
 * @returns 4, 8, 12 or the FIXED_LEN_BYTE_ARRAY type length; 0 for BOOLEAN and BYTE_ARRAY.
 * @throws ParquetError `ENCODING_ARGUMENT` for a FIXED_LEN_BYTE_ARRAY without a positive type length,
 *   `ENCODING_UNSUPPORTED` for an unknown physical type.
 */
export function valueWidth(what: string, column: ColumnDescriptor): number {
  switch (column.type) {
    case Type.BOOLEAN:
    case Type.BYTE_ARRAY:
      return 0;
    case Type.INT32:
    case Type.FLOAT:
      return 4;
    case Type.INT64:
    case Type.DOUBLE:
      return 8;
    case Type.INT96:
      return 12;
    case Type.FIXED_LEN_BYTE_ARRAY: {
      const w = column.typeLength;
      if (w === undefined || !(w >= 1 && Number.isInteger(w))) {
        throw encodingError('ENCODING_ARGUMENT', `${what}: FIXED_LEN_BYTE_ARRAY column needs a positive integer type length, got ${String(w)}`);
      }
      return w;
    }
    default:
      throw encodingError('ENCODING_UNSUPPORTED', `${what}: unknown physical type ${String(column.type)}`);
  }
}

/**
 * Checks that `values` has the form of `type` (see `ColumnValues`) and that `[start, end)` is a valid range of
 * it; for BYTE_ARRAY also that the offsets of the range are non-decreasing and inside `data`. Runs before an encoder
 * buffers anything, so a rejected batch leaves the encoder unchanged.
 * @param what - the caller, for messages.
 * @param values - the batch.
 * @param type - the column's physical type.
 * @param width - bytes per value for INT96 / FIXED_LEN_BYTE_ARRAY (from `valueWidth`).
 * @param start - first value.
 * @param end - exclusive end.
 * @throws ParquetError `ENCODING_ARGUMENT` when the form, the width or the range is wrong.
 */
export function checkBatch(what: string, values: ColumnValues, type: number, width: number, start: number, end: number): void {
  let ok = typeof values === 'object' && values !== null;
  let n = 0;
  if (ok) switch (type) {
    case Type.BOOLEAN: ok = values instanceof Uint8Array; break;
    case Type.INT32: ok = values instanceof Int32Array; break;
    case Type.INT64: ok = values instanceof BigInt64Array; break;
    case Type.FLOAT: ok = values instanceof Float32Array; break;
    case Type.DOUBLE: ok = values instanceof Float64Array; break;
    case Type.BYTE_ARRAY: ok = 'offsets' in values && values.offsets instanceof Int32Array && values.data instanceof Uint8Array; break;
    default: ok = 'width' in values && values.data instanceof Uint8Array;
  }
  if (!ok) throw encodingError('ENCODING_ARGUMENT', `${what}: values are not in the form of physical type ${TypeNames[type] ?? type}`);
  if ('offsets' in values) n = values.offsets.length - 1;
  else if ('width' in values) {
    if (values.width !== width) throw encodingError('ENCODING_ARGUMENT', `${what}: values of ${values.width} bytes for a column of ${width}-byte values`);
    n = Math.floor(values.data.length / width);
  } else n = values.length;
  if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= n)) {
    throw encodingError('ENCODING_ARGUMENT', `${what}: invalid range [${start}, ${end}) of ${n} values`);
  }
  if ('offsets' in values && end > start) {
    const o = values.offsets;
    if (!(o[start]! >= 0 && o[end]! <= values.data.length)) {
      throw encodingError('ENCODING_ARGUMENT', `${what}: offsets ${o[start]}…${o[end]} of values [${start}, ${end}) outside data of ${values.data.length} bytes`);
    }
    // the previous offset carried in a local: one read per value
    let prev = o[start]!;
    for (let i = start + 1; i <= end; i++) {
      const x = o[i]!;
      if (x < prev) throw encodingError('ENCODING_ARGUMENT', `${what}: offsets decrease at value ${i - 1} (${prev} then ${x})`);
      prev = x;
    }
  }
}

/**
 * Returns `buf` when it holds `need` bytes, else a larger zero-filled copy of its first `used` bytes (capacity doubles).
 * @param buf - the current buffer.
 * @param used - bytes to keep.
 * @param need - bytes required.
 * @returns a buffer of at least `need` bytes whose first `used` bytes are those of `buf`.
 * @throws ParquetError `ENCODING_ARGUMENT` when `need` exceeds 2^31 − 1 bytes.
 */
export function growBytes(buf: Uint8Array<ArrayBuffer>, used: number, need: number): Uint8Array<ArrayBuffer> {
  if (need <= buf.length) return buf;
  if (need > MAX_BUFFER) throw encodingError('ENCODING_ARGUMENT', `streaming encoder: buffer of ${need} bytes exceeds 2^31 − 1; flush pages sooner`);
  const next = new Uint8Array(Math.min(MAX_BUFFER, Math.max(need, buf.length * 2, 64)));
  next.set(buf.subarray(0, used));
  return next;
}

/**
 * Int32Array counterpart of `growBytes`.
 * @param buf - the current buffer.
 * @param used - entries to keep.
 * @param need - entries required.
 * @returns a buffer of at least `need` entries whose first `used` entries are those of `buf`.
 */
export function growInt32(buf: Int32Array<ArrayBuffer>, used: number, need: number): Int32Array<ArrayBuffer> {
  if (need <= buf.length) return buf;
  const next = new Int32Array(Math.max(need, buf.length * 2, 16));
  next.set(buf.subarray(0, used));
  return next;
}

/**
 * Bytes of the unsigned LEB128 varint of a non-negative integer (up to 2^53).
 * @param x - the value.
 * @returns 1–8.
 */
export function ulebLen(x: number): number {
  if (x < 0x80) return 1;
  if (x < 0x4000) return 2;
  if (x < 0x200000) return 3;
  if (x < 0x10000000) return 4;
  let n = 4;
  for (x = Math.floor(x / 0x10000000); x > 0; x = Math.floor(x / 128)) n++;
  return n;
}

/**
 * Bytes of the zigzag LEB128 varint of a signed 64-bit value given as two 32-bit words.
 * @param lo - low 32 bits.
 * @param hi - high 32 bits (sign in bit 31).
 * @returns 1–10.
 */
export function zigzag64Len(lo: number, hi: number): number {
  const mask = hi >> 31;
  const zlo = ((lo << 1) ^ mask) >>> 0;
  const zhi = (((hi << 1) | (lo >>> 31)) ^ mask) >>> 0;
  if (zhi === 0) return ulebLen(zlo);
  return Math.ceil((64 - Math.clz32(zhi)) / 7);
}
