/**
 * Concatenation of per-page physical values into one column-chunk array.
 * @module
 */
import type { ByteArrays, ColumnValues, FixedLenByteArrays } from '@parquetry/parquet-encodings';
import { ParquetError } from '@parquetry/thrift-compact';

/** Largest total of byte-array bytes one offsets array can address (32-bit signed offsets, as Arrow's Binary). */
export const MAX_BINARY_BYTES = 0x7fffffff;

function checkOffsetRange(bytes: number, where = 'a column chunk'): void {
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

/**
 * A BYTE_ARRAY chunk's non-null values as one offsets + bytes pair, dictionary indices resolved, with one
 * allocation for all bytes (the single plain segment is returned as it is, without a copy).
 * @param segments - the chunk's value segments (indices must already be checked against the dictionary).
 * @param dictionary - the chunk's dictionary, when some segment holds indices.
 * @param numValues - total number of values.
 * @param where - the chunk, for messages.
 * @returns offsets and bytes.
 * @throws ParquetError `VALUE_TOO_LARGE` when the values hold more bytes than 32-bit offsets address.
 */
export function chunkByteArrays(
  segments: readonly ({ indices: Int32Array; values?: undefined } | { values: ColumnValues; indices?: undefined })[],
  dictionary: ColumnValues | undefined,
  numValues: number,
  where?: string,
): ByteArrays {
  if (segments.length === 1 && segments[0]!.values) return segments[0]!.values as ByteArrays;
  const dict = dictionary as ByteArrays | undefined;
  let bytes = 0;
  for (const s of segments) {
    if (s.indices) {
      const doff = dict!.offsets;
      const idx = s.indices;
      for (let i = 0; i < idx.length; i++) bytes += doff[idx[i]! + 1]! - doff[idx[i]!]!;
    } else {
      const o = (s.values as ByteArrays).offsets;
      bytes += o[o.length - 1]! - o[0]!;
    }
  }
  checkOffsetRange(bytes, where);
  const offsets = new Int32Array(numValues + 1);
  const data = new Uint8Array(bytes);
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let k = 0;
  let at = 0;
  for (const s of segments) {
    if (s.indices) {
      const { offsets: doff, data: ddata } = dict!;
      const sv = new DataView(ddata.buffer, ddata.byteOffset, ddata.byteLength);
      const dlen = ddata.length;
      const idx = s.indices;
      for (let i = 0; i < idx.length; i++) {
        const j = idx[i]!;
        const a = doff[j]!;
        const len = doff[j + 1]! - a;
        if (len < 64) {
          const words = (len + 3) & ~3;
          if (at + words <= bytes && a + words <= dlen) {
            // 4-byte moves; the bytes past this value are overwritten by the next one (copied in order)
            for (let b = 0; b < words; b += 4) dv.setUint32(at + b, sv.getUint32(a + b));
          } else {
            for (let b = 0; b < len; b++) data[at + b] = ddata[a + b]!;
          }
        } else data.set(ddata.subarray(a, a + len), at);
        at += len;
        offsets[++k] = at;
      }
    } else {
      const { offsets: so, data: sd } = s.values as ByteArrays;
      const m = so.length - 1;
      const base = so[0]!;
      data.set(sd.subarray(base, so[m]!), at);
      for (let i = 1; i <= m; i++) offsets[k + i] = at + so[i]! - base;
      k += m;
      at += so[m]! - base;
    }
  }
  return { offsets, data };
}
