/**
 * BYTE_STREAM_SPLIT (Encodings.md, "Byte Stream Split: (BYTE_STREAM_SPLIT = 9)"):
 * https://github.com/apache/parquet-format/blob/master/Encodings.md#byte-stream-split-byte_stream_split--9
 *
 * For values of K bytes, byte k of value i is stored at `k · N + i`: K streams of N bytes, which
 * compress better for floating-point data. FLOAT and INT32 (K = 4), DOUBLE and INT64 (K = 8),
 * FIXED_LEN_BYTE_ARRAY (K = type length). Values are reassembled as 32-bit words (why: one store
 * per word instead of four byte stores).
 *
 * @module
 */
import { Type, type ByteWriter } from '@parquetry/thrift-compact';
import { encodingError, truncated } from './errors.js';
import type { ColumnValues, DecodeResult, ValueCodec, ValueDecoder } from './types.js';
import { withEncoder } from './value-codec.js';

/**
 * Un-splits `count` values of `width` bytes from `src[pos…]` into `out` (`count · width` bytes).
 * @param src - the encoded bytes.
 * @param pos - first byte.
 * @param end - exclusive end.
 * @param count - number of values.
 * @param width - bytes per value.
 * @param out - receives `count · width` bytes, value by value.
 * @returns `pos + count · width`.
 * @throws ParquetError `ENCODING_TRUNCATED` when the streams run past `end`, `ENCODING_ARGUMENT` for bad sizes.
 */
export function decodeByteStreamSplit(src: Uint8Array, pos: number, end: number, count: number, width: number, out: Uint8Array): number {
  if (!(width >= 1 && Number.isInteger(width) && count >= 0 && Number.isInteger(count) && pos >= 0 && end <= src.length)) {
    throw encodingError('ENCODING_ARGUMENT', `BYTE_STREAM_SPLIT: invalid width ${width} or count ${count}`, pos);
  }
  const n = count * width;
  if (n > end - pos) truncated(`BYTE_STREAM_SPLIT: ${count} values of ${width} bytes`, pos, n, end);
  if (out.length < n) throw encodingError('ENCODING_ARGUMENT', `BYTE_STREAM_SPLIT: output of ${out.length} bytes too small for ${n}`, pos);
  if ((width === 4 || width === 8) && out.byteOffset % 4 === 0) {
    const o32 = new Int32Array(out.buffer, out.byteOffset, n >>> 2);
    const s0 = pos;
    const s1 = pos + count;
    const s2 = pos + 2 * count;
    const s3 = pos + 3 * count;
    if (width === 4) {
      for (let i = 0; i < count; i++) o32[i] = src[s0 + i]! | (src[s1 + i]! << 8) | (src[s2 + i]! << 16) | (src[s3 + i]! << 24);
    } else {
      const s4 = pos + 4 * count;
      const s5 = pos + 5 * count;
      const s6 = pos + 6 * count;
      const s7 = pos + 7 * count;
      for (let i = 0, j = 0; i < count; i++, j += 2) {
        o32[j] = src[s0 + i]! | (src[s1 + i]! << 8) | (src[s2 + i]! << 16) | (src[s3 + i]! << 24);
        o32[j + 1] = src[s4 + i]! | (src[s5 + i]! << 8) | (src[s6 + i]! << 16) | (src[s7 + i]! << 24);
      }
    }
  } else {
    for (let k = 0; k < width; k++) {
      const s = pos + k * count;
      for (let i = 0, o = k; i < count; i++, o += width) out[o] = src[s + i]!;
    }
  }
  return pos + n;
}

/**
 * Splits `count` values of `width` bytes (`bytes`, value by value) into K byte streams.
 * @param bytes - the values' bytes, `count · width` of them.
 * @param count - number of values.
 * @param width - bytes per value.
 * @param w - receives the bytes.
 */
export function encodeByteStreamSplit(bytes: Uint8Array, count: number, width: number, w: ByteWriter): void {
  const n = count * width;
  w.ensureSpare(n);
  const b = w.buf;
  const p = w.pos;
  for (let k = 0; k < width; k++) {
    const d = p + k * count;
    for (let i = 0, s = k; i < count; i++, s += width) b[d + i] = bytes[s]!;
  }
  w.pos = p + n;
}

function widthOf(type: number, typeLength: number | undefined, pos: number): number {
  switch (type) {
    case Type.INT32:
    case Type.FLOAT:
      return 4;
    case Type.INT64:
    case Type.DOUBLE:
      return 8;
    case Type.FIXED_LEN_BYTE_ARRAY:
      if (typeLength !== undefined && typeLength >= 1) return typeLength;
      throw encodingError('ENCODING_ARGUMENT', `BYTE_STREAM_SPLIT: invalid type length ${typeLength}`, pos);
    default:
      throw encodingError('ENCODING_UNSUPPORTED', `BYTE_STREAM_SPLIT: not defined for physical type ${type}`, pos);
  }
}

function decode(src: Uint8Array, pos: number, end: number, count: number, type: number, typeLength: number | undefined): DecodeResult {
  const width = widthOf(type, typeLength, pos);
  if (!(count >= 0 && Number.isInteger(count))) throw encodingError('ENCODING_ARGUMENT', `BYTE_STREAM_SPLIT: invalid count ${count}`, pos);
  if (count * width > end - pos) truncated(`BYTE_STREAM_SPLIT: ${count} values of ${width} bytes`, pos, count * width, end);
  let values: ColumnValues;
  let bytes: Uint8Array;
  switch (type) {
    case Type.INT32: values = new Int32Array(count); break;
    case Type.FLOAT: values = new Float32Array(count); break;
    case Type.INT64: values = new BigInt64Array(count); break;
    case Type.DOUBLE: values = new Float64Array(count); break;
    default: values = { width, data: new Uint8Array(count * width) };
  }
  if ('width' in values) bytes = values.data;
  else bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  return { values, pos: decodeByteStreamSplit(src, pos, end, count, width, bytes) };
}

/** The decoding half of {@link byteStreamSplitCodec}: what a reader registers, with no encoder reachable from it. */
export const byteStreamSplitDecoder: ValueDecoder = {
  encoding: 9,
  name: 'BYTE_STREAM_SPLIT',
  supports: (type) => type === Type.FLOAT || type === Type.DOUBLE || type === Type.INT32 || type === Type.INT64 || type === Type.FIXED_LEN_BYTE_ARRAY,
  decode: (src, pos, end, count, column) => decode(src, pos, end, count, column.type, column.typeLength),
};

/** BYTE_STREAM_SPLIT, for FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY. */
export const byteStreamSplitCodec: ValueCodec = /*#__PURE__*/ withEncoder(byteStreamSplitDecoder, function encode(values, column, w) {
  const width = widthOf(column.type, column.typeLength, 0);
  if ('offsets' in values) throw encodingError('ENCODING_ARGUMENT', 'BYTE_STREAM_SPLIT: BYTE_ARRAY values are not supported');
  if ('width' in values) {
    if (values.width !== width) throw encodingError('ENCODING_ARGUMENT', `BYTE_STREAM_SPLIT: values of ${values.width} bytes for a type length of ${width}`);
    return encodeByteStreamSplit(values.data, values.data.length / width, width, w);
  }
  if (values.BYTES_PER_ELEMENT !== width) throw encodingError('ENCODING_ARGUMENT', `BYTE_STREAM_SPLIT: values do not match physical type ${column.type}`);
  encodeByteStreamSplit(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), values.length, width, w);
});
