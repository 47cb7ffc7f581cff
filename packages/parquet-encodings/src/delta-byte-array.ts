/**
 * DELTA_BYTE_ARRAY, incremental encoding (Encodings.md, "Delta Strings (DELTA_BYTE_ARRAY = 7)"):
 * https://github.com/apache/parquet-format/blob/master/Encodings.md#delta-strings-delta_byte_array--7
 *
 * ```
 * <prefix lengths: DELTA_BINARY_PACKED INT32> <suffixes: DELTA_LENGTH_BYTE_ARRAY>
 * value[i] = value[i-1][0 : prefix[i]] ++ suffix[i]
 * ```
 * For BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY (every rebuilt value must then have the type length).
 *
 * @module
 */
import { Type, type ByteWriter } from '@parquetry/thrift-compact';
import { decodeDeltaBinaryPackedInt32, encodeDeltaBinaryPackedInt32 } from './delta-binary-packed.js';
import { decodeDeltaLengthByteArray } from './delta-length-byte-array.js';
import { encodingError } from './errors.js';
import type { ByteArrays, FixedLenByteArrays, ValueCodec, ValueDecoder } from './types.js';
import { withEncoder } from './value-codec.js';

/** Largest total size of rebuilt values (offsets are Int32). */
const MAX_TOTAL = 0x7fffffff;

/**
 * Decodes `count` DELTA_BYTE_ARRAY values into columnar form.
 * @param src - the encoded bytes.
 * @param pos - first byte (the prefix lengths' header).
 * @param end - exclusive end.
 * @param count - number of values.
 * @param maxBytes - refuse to rebuild more than this many bytes in total (default 2^31 − 1).
 * @param charge - called with the rebuilt size before it is allocated (a reader's budget), and throws to refuse it.
 * @returns the values and the position after the suffix data.
 * @throws ParquetError `ENCODING_CORRUPT` when a prefix is negative or longer than the previous value, or the rebuilt size exceeds `maxBytes`; and as the DELTA_* decoders; what `charge` throws.
 */
export function decodeDeltaByteArray(src: Uint8Array, pos: number, end: number, count: number, maxBytes = MAX_TOTAL, charge?: (bytes: number) => void): { values: ByteArrays; pos: number } {
  const prefix = new Int32Array(count);
  const p = decodeDeltaBinaryPackedInt32(src, pos, end, prefix, 0, count);
  const { values: suffixes, pos: next } = decodeDeltaLengthByteArray(src, p, end, count);
  const so = suffixes.offsets;
  const offsets = new Int32Array(count + 1);
  let total = 0;
  let prevLen = 0;
  for (let i = 0; i < count; i++) {
    const pre = prefix[i]!;
    if (pre < 0 || pre > prevLen) {
      throw encodingError('ENCODING_CORRUPT', `DELTA_BYTE_ARRAY: prefix length ${pre} of value ${i} exceeds the previous value's ${prevLen} bytes (page at byte ${pos})`, pos);
    }
    prevLen = pre + so[i + 1]! - so[i]!;
    total += prevLen;
    if (total > maxBytes) throw encodingError('ENCODING_CORRUPT', `DELTA_BYTE_ARRAY: rebuilt values exceed ${maxBytes} bytes at value ${i} (page at byte ${pos})`, pos);
    offsets[i + 1] = total;
  }
  charge?.(total);
  const data = new Uint8Array(total);
  const sd = suffixes.data;
  for (let i = 0; i < count; i++) {
    const o = offsets[i]!;
    const pre = prefix[i]!;
    if (pre > 0) data.copyWithin(o, offsets[i - 1]!, offsets[i - 1]! + pre);
    const a = so[i]!;
    const len = so[i + 1]! - a;
    if (len < 16) for (let k = 0; k < len; k++) data[o + pre + k] = sd[a + k]!;
    else data.set(sd.subarray(a, a + len), o + pre);
  }
  return { values: { offsets, data }, pos: next };
}

/**
 * Encodes byte arrays as DELTA_BYTE_ARRAY (each value's prefix shared with the previous value).
 * @param values - the values.
 * @param w - receives the bytes.
 */
export function encodeDeltaByteArray(values: ByteArrays, w: ByteWriter): void {
  const { offsets, data } = values;
  const n = offsets.length - 1;
  const prefix = new Int32Array(n);
  const suffixLen = new Int32Array(n);
  let suffixTotal = 0;
  for (let i = 0; i < n; i++) {
    const a = offsets[i]!;
    const len = offsets[i + 1]! - a;
    let pre = 0;
    if (i > 0) {
      const pa = offsets[i - 1]!;
      const max = Math.min(len, a - pa);
      while (pre < max && data[pa + pre] === data[a + pre]) pre++;
    }
    prefix[i] = pre;
    suffixLen[i] = len - pre;
    suffixTotal += len - pre;
  }
  encodeDeltaBinaryPackedInt32(prefix, 0, n, w);
  encodeDeltaBinaryPackedInt32(suffixLen, 0, n, w);
  w.ensureSpare(suffixTotal);
  const b = w.buf;
  let p = w.pos;
  for (let i = 0; i < n; i++) {
    const s = offsets[i]! + prefix[i]!;
    const e = offsets[i + 1]!;
    for (let k = s; k < e; k++) b[p++] = data[k]!;
  }
  w.pos = p;
}

/** The decoding half of {@link deltaByteArrayCodec}: what a reader registers, with no encoder reachable from it. */
export const deltaByteArrayDecoder: ValueDecoder = {
  encoding: 7,
  name: 'DELTA_BYTE_ARRAY',
  supports: (type) => type === Type.BYTE_ARRAY || type === Type.FIXED_LEN_BYTE_ARRAY,
  decode(src, pos, end, count, column, _dictionary, charge) {
    if (column.type !== Type.FIXED_LEN_BYTE_ARRAY) return decodeDeltaByteArray(src, pos, end, count, MAX_TOTAL, charge);
    const width = column.typeLength ?? 0;
    if (!(width >= 1)) throw encodingError('ENCODING_ARGUMENT', `DELTA_BYTE_ARRAY: invalid type length ${width}`, pos);
    const r = decodeDeltaByteArray(src, pos, end, count, Math.min(MAX_TOTAL, count * width));
    const o = r.values.offsets;
    for (let i = 0; i < count; i++) {
      if (o[i + 1]! - o[i]! !== width) {
        throw encodingError('ENCODING_CORRUPT', `DELTA_BYTE_ARRAY: value ${i} has ${o[i + 1]! - o[i]!} bytes, FIXED_LEN_BYTE_ARRAY(${width}) expected (page at byte ${pos})`, pos);
      }
    }
    const values: FixedLenByteArrays = { width, data: r.values.data };
    return { values, pos: r.pos };
  },
};

/** DELTA_BYTE_ARRAY, for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY. */
export const deltaByteArrayCodec: ValueCodec = /*#__PURE__*/ withEncoder(deltaByteArrayDecoder, function encode(values, column, w) {
  if ('offsets' in values) return encodeDeltaByteArray(values, w);
  if ('width' in values && column.type === Type.FIXED_LEN_BYTE_ARRAY) {
    const n = values.width > 0 ? values.data.length / values.width : 0;
    const offsets = new Int32Array(n + 1);
    for (let i = 0; i <= n; i++) offsets[i] = i * values.width;
    return encodeDeltaByteArray({ offsets, data: values.data }, w);
  }
  throw encodingError('ENCODING_ARGUMENT', 'DELTA_BYTE_ARRAY: values must be ByteArrays or FixedLenByteArrays');
});
