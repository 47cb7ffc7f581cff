/**
 * DELTA_LENGTH_BYTE_ARRAY (Encodings.md, "Delta-length byte array (DELTA_LENGTH_BYTE_ARRAY = 6)"):
 * https://github.com/apache/parquet-format/blob/master/Encodings.md#delta-length-byte-array-delta_length_byte_array--6
 *
 * ```
 * <lengths: DELTA_BINARY_PACKED INT32> <the byte arrays concatenated>
 * ```
 * Decoding is zero-copy for the data: `data` is a view of the input and `offsets` the running sum
 * of the lengths.
 *
 * @module
 */
import { Type, type ByteWriter } from '@parquetry/thrift-compact';
import { decodeDeltaBinaryPackedInt32, encodeDeltaBinaryPackedInt32 } from './delta-binary-packed.js';
import { encodingError, truncated } from './errors.js';
import type { ByteArrays, ValueCodec, ValueDecoder } from './types.js';
import { withEncoder } from './value-codec.js';

/**
 * Decodes `count` DELTA_LENGTH_BYTE_ARRAY values; `data` is a zero-copy view of `src`.
 * @param src - the encoded bytes.
 * @param pos - first byte (the lengths' DELTA_BINARY_PACKED header).
 * @param end - exclusive end.
 * @param count - number of values.
 * @returns the values and the position after the data.
 * @throws ParquetError `ENCODING_CORRUPT` for a negative length, `ENCODING_TRUNCATED` when the data runs past `end`, and as the DELTA_BINARY_PACKED decoder.
 */
export function decodeDeltaLengthByteArray(src: Uint8Array, pos: number, end: number, count: number): { values: ByteArrays; pos: number } {
  const offsets = new Int32Array(count + 1);
  // lengths land in offsets[1..]; the DBP decoder has bounded `count` by the input size before this allocation matters
  let p = decodeDeltaBinaryPackedInt32(src, pos, end, offsets, 1, count);
  let total = 0;
  const avail = end - p;
  for (let i = 1; i <= count; i++) {
    const len = offsets[i]!;
    if (len < 0) throw encodingError('ENCODING_CORRUPT', `DELTA_LENGTH_BYTE_ARRAY: negative length ${len} for value ${i - 1} (lengths at byte ${pos})`, pos);
    total += len;
    if (total > avail) truncated(`DELTA_LENGTH_BYTE_ARRAY: ${count} values`, p, total, end);
    offsets[i] = total;
  }
  const data = src.subarray(p, p + total);
  p += total;
  return { values: { offsets, data }, pos: p };
}

/**
 * Encodes byte arrays as DELTA_LENGTH_BYTE_ARRAY.
 * @param values - the values.
 * @param w - receives the bytes.
 */
export function encodeDeltaLengthByteArray(values: ByteArrays, w: ByteWriter): void {
  const { offsets, data } = values;
  const n = offsets.length - 1;
  const lengths = new Int32Array(n);
  for (let i = 0; i < n; i++) lengths[i] = offsets[i + 1]! - offsets[i]!;
  encodeDeltaBinaryPackedInt32(lengths, 0, n, w);
  w.bytes(data.subarray(offsets[0]!, offsets[n]!));
}

/** The decoding half of {@link deltaLengthByteArrayCodec}: what a reader registers, with no encoder reachable from it. */
export const deltaLengthByteArrayDecoder: ValueDecoder = {
  encoding: 6,
  name: 'DELTA_LENGTH_BYTE_ARRAY',
  supports: (type) => type === Type.BYTE_ARRAY,
  decode: (src, pos, end, count) => decodeDeltaLengthByteArray(src, pos, end, count),
};

/** DELTA_LENGTH_BYTE_ARRAY, for BYTE_ARRAY. */
export const deltaLengthByteArrayCodec: ValueCodec = /*#__PURE__*/ withEncoder(deltaLengthByteArrayDecoder, function encode(values, _column, w) {
  if (!('offsets' in values)) throw encodingError('ENCODING_ARGUMENT', 'DELTA_LENGTH_BYTE_ARRAY: values must be ByteArrays');
  encodeDeltaLengthByteArray(values, w);
});
