/**
 * Concatenation of per-page physical values into one column-chunk array.
 * @module
 */
import type { ByteArrays, ColumnValues, FixedLenByteArrays } from '@parquetry/parquet-encodings';
import { ParquetError } from '@parquetry/thrift-compact';

/** Largest total of byte-array bytes one offsets array can address (32-bit signed offsets, as Arrow's Binary). */
export const MAX_BINARY_BYTES = 0x7fffffff;

/**
 * Throws when `bytes` of byte arrays are more than 32-bit offsets address.
 * @param bytes - the bytes.
 * @param where - what holds them, for the message.
 * @throws ParquetError `VALUE_TOO_LARGE`.
 * @internal
 */
export function checkOffsetRange(bytes: number, where = 'a column chunk'): void {
  if (bytes > MAX_BINARY_BYTES) {
    throw new ParquetError(
      'VALUE_TOO_LARGE',
      `parquet-column: ${where} holds ${bytes} bytes of byte arrays, more than 32-bit offsets address (${MAX_BINARY_BYTES}); read it with binary: 'values' (and strings: 'bytes') for one Uint8Array per value`,
    );
  }
}

/**
 * Number of values in a physical value array.
 * @param v - values.
 * @returns the count.
 */
export function physicalLength(v: ColumnValues): number {
  if ('offsets' in v) return v.offsets.length - 1;
  if ('width' in v) return v.width === 0 ? 0 : v.data.length / v.width;
  return v.length;
}

/**
 * Concatenates value arrays of one physical type (page after page).
 * @param parts - arrays of the same kind.
 * @param empty - what to return when there are no parts.
 * @returns one array (the only part itself when there is one).
 */
export function concatValues(parts: ColumnValues[], empty: ColumnValues): ColumnValues {
  if (parts.length === 0) return empty;
  if (parts.length === 1) return parts[0]!;
  const first = parts[0]!;
  if ('offsets' in first) {
    let n = 0;
    let bytes = 0;
    for (const p of parts as ByteArrays[]) {
      n += p.offsets.length - 1;
      bytes += p.offsets[p.offsets.length - 1]! - p.offsets[0]!;
    }
    checkOffsetRange(bytes);
    const offsets = new Int32Array(n + 1);
    const data = new Uint8Array(bytes);
    let i = 0;
    let at = 0;
    for (const p of parts as ByteArrays[]) {
      const base = p.offsets[0]!;
      const m = p.offsets.length - 1;
      data.set(p.data.subarray(base, p.offsets[m]!), at);
      for (let k = 1; k <= m; k++) offsets[i + k] = at + p.offsets[k]! - base;
      i += m;
      at += p.offsets[m]! - base;
    }
    return { offsets, data };
  }
  if ('width' in first) {
    let bytes = 0;
    for (const p of parts as FixedLenByteArrays[]) bytes += p.data.length;
    const data = new Uint8Array(bytes);
    let at = 0;
    for (const p of parts as FixedLenByteArrays[]) {
      data.set(p.data, at);
      at += p.data.length;
    }
    return { width: first.width, data };
  }
  let n = 0;
  for (const p of parts) n += (p as Int32Array).length;
  const Ctor = (first as Int32Array).constructor as new (n: number) => Int32Array;
  const out = new Ctor(n);
  let at = 0;
  for (const p of parts as Int32Array[]) {
    out.set(p, at);
    at += p.length;
  }
  return out as ColumnValues;
}
