/**
 * Dictionary encoding (Encodings.md, "Dictionary Encoding (PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)"):
 * https://github.com/apache/parquet-format/blob/master/Encodings.md#dictionary-encoding-plain_dictionary--2-and-rle_dictionary--8
 *
 * The dictionary page holds the distinct values PLAIN-encoded ({@link decodeDictionaryPage}); data
 * pages hold indices as one bit-width byte followed by the RLE / bit-packing hybrid (no length prefix).
 *
 * @module
 */
import { Type, type ByteWriter } from '@parquetry/thrift-compact';
import { encodingError, truncated } from './errors.js';
import { decodePlain, encodePlain } from './plain.js';
import { bitWidthOf, decodeRleHybrid, encodeRleHybrid } from './rle-hybrid.js';
import type { ByteArrays, ColumnDescriptor, ColumnValues, DecodeResult, FixedLenByteArrays, ValueCodec, ValueDecoder } from './types.js';
import { withEncoder } from './value-codec.js';

/**
 * Decodes a dictionary page's values (PLAIN for every type).
 * @param src - the page bytes (decompressed).
 * @param pos - first byte of the values.
 * @param end - exclusive end.
 * @param count - `DictionaryPageHeader.num_values`.
 * @param column - the column's physical type.
 * @returns the dictionary values and the position after them.
 * @throws ParquetError as {@link decodePlain}.
 */
export function decodeDictionaryPage(src: Uint8Array, pos: number, end: number, count: number, column: ColumnDescriptor): DecodeResult {
  return decodePlain(src, pos, end, count, column);
}

/**
 * Encodes dictionary values as a dictionary page body (PLAIN).
 * @param dictionary - the distinct values.
 * @param column - the column's physical type.
 * @param w - receives the bytes.
 * @throws ParquetError as {@link encodePlain}.
 */
export function encodeDictionaryPage(dictionary: ColumnValues, column: ColumnDescriptor, w: ByteWriter): void {
  encodePlain(dictionary, column, w);
}

/**
 * Decodes `count` dictionary indices: a bit-width byte (0–32) then the RLE / bit-packing hybrid.
 * @param src - the encoded bytes.
 * @param pos - position of the bit-width byte.
 * @param end - exclusive end.
 * @param out - receives the indices.
 * @param outPos - first index of `out` to fill.
 * @param count - number of indices (0 reads nothing).
 * @returns the position after the runs read.
 * @throws ParquetError `ENCODING_TRUNCATED`, `ENCODING_BIT_WIDTH` for a width byte above 32, and as {@link decodeRleHybrid}.
 */
export function decodeDictionaryIndices(src: Uint8Array, pos: number, end: number, out: Int32Array, outPos: number, count: number): number {
  if (count === 0) return pos;
  if (!(pos >= 0 && pos < end && end <= src.length)) truncated('dictionary indices: bit width byte', pos, 1, end);
  const bw = src[pos]!;
  if (bw > 32) throw encodingError('ENCODING_BIT_WIDTH', `dictionary indices: bit width ${bw} at byte ${pos} exceeds 32`, pos);
  return decodeRleHybrid(src, pos + 1, end, bw, out, outPos, count);
}

/** Reused index buffer of {@link decodeDictionaryValues} (grows to the largest page seen). */
let scratchIndices = new Int32Array(0);

/** A dictionary of fixed-width numbers that {@link decodeDictionaryValues} can gather from. */
export type NumericDictionary = Int32Array | Float32Array | Float64Array | BigInt64Array;

/**
 * Decodes `count` dictionary-encoded values of a numeric column straight to values: the indices (bit-width byte +
 * hybrid) go through a reused buffer and are checked and gathered in one pass (4- and 8-byte values move as 32-bit
 * words: no BigInt per value, NaN bits kept).
 * @param src - the encoded bytes.
 * @param pos - position of the bit-width byte.
 * @param end - exclusive end.
 * @param count - number of values.
 * @param dictionary - the decoded dictionary page.
 * @param offset - byte offset to report in errors (the page position).
 * @param into - an array of the dictionary's type to write the values into (from `intoPos` on) instead of a new one:
 *   a reader filling one array for a whole column chunk passes it.
 * @param intoPos - first index of `into` to write.
 * @returns the values, of the dictionary's array type: a new array, or `into` itself.
 * @throws ParquetError as {@link decodeDictionaryIndices}, `DICTIONARY_INDEX` for an index outside the dictionary,
 *   and `ENCODING_ARGUMENT` when `into` is not of the dictionary's type or lacks room for `count` values.
 */
export function decodeDictionaryValues<T extends NumericDictionary>(src: Uint8Array, pos: number, end: number, count: number, dictionary: T, offset?: number, into?: T, intoPos = 0): T {
  if (into !== undefined && (into.constructor !== dictionary.constructor || !(intoPos >= 0 && Number.isInteger(intoPos)) || intoPos + count > into.length)) {
    throw encodingError('ENCODING_ARGUMENT', `dictionary values: no room for ${count} values at ${intoPos} of ${into.length} (${into.constructor.name} for a ${dictionary.constructor.name} dictionary)`, offset ?? pos);
  }
  if (scratchIndices.length < count) scratchIndices = new Int32Array(Math.max(count, scratchIndices.length * 2));
  const idx = scratchIndices;
  decodeDictionaryIndices(src, pos, end, idx, 0, count);
  const size = dictionary.length;
  const wide = dictionary.BYTES_PER_ELEMENT === 8;
  const out = into ?? new (dictionary.constructor as new (n: number) => T)(count);
  const d = new Int32Array(dictionary.buffer, dictionary.byteOffset, wide ? size * 2 : size);
  const at = into === undefined ? 0 : intoPos;
  const o = new Int32Array(out.buffer, out.byteOffset + at * dictionary.BYTES_PER_ELEMENT, wide ? count * 2 : count);
  let bad = -1;
  if (wide) {
    for (let i = 0; i < count; i++) {
      const j = idx[i]!;
      if (j >>> 0 >= size) {
        bad = i;
        break;
      }
      o[2 * i] = d[2 * j]!;
      o[2 * i + 1] = d[2 * j + 1]!;
    }
  } else {
    for (let i = 0; i < count; i++) {
      const j = idx[i]!;
      if (j >>> 0 >= size) {
        bad = i;
        break;
      }
      o[i] = d[j]!;
    }
  }
  if (bad >= 0) {
    throw encodingError('DICTIONARY_INDEX', `dictionary index ${idx[bad]} (value ${bad} of the page at byte ${offset ?? pos}) out of range: dictionary has ${size} values`, offset ?? pos);
  }
  return out;
}

/**
 * Encodes dictionary indices: the bit width of the largest index, then the hybrid.
 * @param indices - indices into the dictionary (non-negative).
 * @param start - first index.
 * @param count - number of indices.
 * @param w - receives the bytes.
 * @param bitWidth - bit width to use (default: the width of the largest index).
 * @throws ParquetError `ENCODING_CORRUPT` for a negative index.
 */
export function encodeDictionaryIndices(indices: Int32Array, start: number, count: number, w: ByteWriter, bitWidth?: number): void {
  let max = 0;
  for (let i = start; i < start + count; i++) {
    const v = indices[i]!;
    if (v > max) max = v;
    else if (v < 0) throw encodingError('ENCODING_CORRUPT', `dictionary indices: negative index ${v} at ${i}`);
  }
  const bw = bitWidth ?? bitWidthOf(max);
  w.u8(bw);
  encodeRleHybrid(indices, start, count, bw, w);
}

/** Number of values held by decoded column values of the given type. */
export function valueCount(values: ColumnValues): number {
  if ('offsets' in values) return values.offsets.length - 1;
  if ('width' in values) return values.width > 0 ? values.data.length / values.width : 0;
  return values.length;
}

/**
 * Materialises `indices` against a dictionary (gathers values), checking every index.
 * @param dictionary - the decoded dictionary page.
 * @param indices - the indices.
 * @param count - number of indices to use from the start of `indices`.
 * @param offset - byte offset to report in errors (the page position).
 * @returns the values, in the same form as the dictionary.
 * @throws ParquetError `DICTIONARY_INDEX` when an index is negative or not below the dictionary size.
 */
export function applyDictionary(dictionary: ColumnValues, indices: Int32Array, count = indices.length, offset?: number): ColumnValues {
  const n = valueCount(dictionary);
  for (let i = 0; i < count; i++) {
    if (indices[i]! >>> 0 >= n) {
      throw encodingError('DICTIONARY_INDEX', `dictionary index ${indices[i]} (value ${i} of the page at byte ${offset ?? '?'}) out of range: dictionary has ${n} values`, offset);
    }
  }
  if ('offsets' in dictionary) return gatherByteArrays(dictionary, indices, count);
  if ('width' in dictionary) return gatherFixed(dictionary, indices, count);
  if (dictionary instanceof BigInt64Array || dictionary instanceof Float64Array) {
    // 8-byte values move as two 32-bit words: no BigInt per value, no NaN canonicalisation
    const out = dictionary instanceof BigInt64Array ? new BigInt64Array(count) : new Float64Array(count);
    const d = new Int32Array(dictionary.buffer, dictionary.byteOffset, dictionary.length * 2);
    const o = new Int32Array(out.buffer);
    for (let i = 0; i < count; i++) {
      const j = indices[i]! << 1;
      o[2 * i] = d[j]!;
      o[2 * i + 1] = d[j + 1]!;
    }
    return out;
  }
  if (dictionary instanceof Float32Array) {
    const out = new Float32Array(count);
    const d = new Int32Array(dictionary.buffer, dictionary.byteOffset, dictionary.length);
    const o = new Int32Array(out.buffer);
    for (let i = 0; i < count; i++) o[i] = d[indices[i]!]!;
    return out;
  }
  if (dictionary instanceof Int32Array) {
    const out = new Int32Array(count);
    for (let i = 0; i < count; i++) out[i] = dictionary[indices[i]!]!;
    return out;
  }
  const out = new Uint8Array(count);
  for (let i = 0; i < count; i++) out[i] = dictionary[indices[i]!]!;
  return out;
}

function gatherByteArrays(dict: ByteArrays, indices: Int32Array, count: number): ByteArrays {
  const { offsets: doff, data: ddata } = dict;
  const offsets = new Int32Array(count + 1);
  let total = 0;
  for (let i = 0; i < count; i++) {
    const j = indices[i]!;
    total += doff[j + 1]! - doff[j]!;
    if (total > 0x7fffffff) throw encodingError('ENCODING_CORRUPT', `dictionary: materialised byte arrays exceed 2 GiB at value ${i}`);
    offsets[i + 1] = total;
  }
  const data = new Uint8Array(total);
  for (let i = 0; i < count; i++) {
    const j = indices[i]!;
    const a = doff[j]!;
    const len = doff[j + 1]! - a;
    const o = offsets[i]!;
    if (len < 16) for (let k = 0; k < len; k++) data[o + k] = ddata[a + k]!;
    else data.set(ddata.subarray(a, a + len), o);
  }
  return { offsets, data };
}

function gatherFixed(dict: FixedLenByteArrays, indices: Int32Array, count: number): FixedLenByteArrays {
  const width = dict.width;
  const ddata = dict.data;
  const data = new Uint8Array(count * width);
  for (let i = 0; i < count; i++) {
    const a = indices[i]! * width;
    const o = i * width;
    for (let k = 0; k < width; k++) data[o + k] = ddata[a + k]!;
  }
  return { width, data };
}

/**
 * Builds a dictionary from values: the distinct values in first-seen order and one index per value.
 * Floating-point values are compared by bit pattern (so -0, 0 and each NaN payload stay distinct).
 * @param values - the values (any form except BOOLEAN).
 * @returns `{ dictionary, indices }`.
 * @throws ParquetError `ENCODING_UNSUPPORTED` for BOOLEAN values (the spec has no boolean dictionary use).
 */
export function buildDictionary(values: ColumnValues): { dictionary: ColumnValues; indices: Int32Array } {
  const n = valueCount(values);
  const indices = new Int32Array(n);
  if ('offsets' in values || 'width' in values) {
    const map = new Map<string, number>();
    const firsts: number[] = [];
    for (let i = 0; i < n; i++) {
      const a = 'offsets' in values ? values.offsets[i]! : i * values.width;
      const b = 'offsets' in values ? values.offsets[i + 1]! : a + values.width;
      const key = latin1(values.data, a, b);
      let idx = map.get(key);
      if (idx === undefined) {
        idx = firsts.length;
        map.set(key, idx);
        firsts.push(i);
      }
      indices[i] = idx;
    }
    const sel = Int32Array.from(firsts);
    return { dictionary: applyDictionary(values, sel), indices };
  }
  if (values instanceof Uint8Array) throw encodingError('ENCODING_UNSUPPORTED', 'dictionary: BOOLEAN columns are not dictionary encoded');
  const words = values instanceof BigInt64Array || values instanceof Float64Array ? 2 : 1;
  const w32 = new Int32Array(values.buffer, values.byteOffset, n * words);
  const firsts: number[] = [];
  if (words === 1) {
    const map = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      const k = w32[i]!;
      let idx = map.get(k);
      if (idx === undefined) {
        idx = firsts.length;
        map.set(k, idx);
        firsts.push(i);
      }
      indices[i] = idx;
    }
  } else {
    const map = new Map<number, Map<number, number>>();
    for (let i = 0; i < n; i++) {
      const lo = w32[2 * i]!;
      const hi = w32[2 * i + 1]!;
      let inner = map.get(hi);
      if (inner === undefined) map.set(hi, (inner = new Map()));
      let idx = inner.get(lo);
      if (idx === undefined) {
        idx = firsts.length;
        inner.set(lo, idx);
        firsts.push(i);
      }
      indices[i] = idx;
    }
  }
  return { dictionary: applyDictionary(values, Int32Array.from(firsts)), indices };
}

function latin1(data: Uint8Array, a: number, b: number): string {
  let s = '';
  for (let p = a; p < b; p += 4096) s += String.fromCharCode.apply(null, data.subarray(p, Math.min(b, p + 4096)) as unknown as number[]);
  return s;
}

function dictionaryDecoder(encoding: 2 | 8, name: string): ValueDecoder {
  return {
    encoding,
    name,
    supports: (type) => type !== Type.BOOLEAN && type >= 0 && type <= 7,
    decode(src, pos, end, count, _column, dictionary) {
      if (dictionary === undefined) throw encodingError('ENCODING_ARGUMENT', `${name}: data page at byte ${pos} needs the dictionary page`, pos);
      if (!(count >= 0 && Number.isInteger(count))) throw encodingError('ENCODING_ARGUMENT', `${name}: invalid count ${count}`, pos);
      // bound the allocation: a run header of ≤ 5 bytes + value can announce at most 2^31 − 1 values
      if (count > (1 << 26) * Math.max(1, end - pos)) truncated(`${name}: ${count} indices`, pos, count, end);
      const idx = new Int32Array(count);
      const next = decodeDictionaryIndices(src, pos, end, idx, 0, count);
      return { values: applyDictionary(dictionary, idx, count, pos), pos: next };
    },
  };
}

function dictionaryCodec(decoder: ValueDecoder): ValueCodec {
  return withEncoder(decoder, (values, _column, w) => {
    if (!(values instanceof Int32Array)) throw encodingError('ENCODING_ARGUMENT', `${decoder.name}: encode takes the Int32Array of dictionary indices`);
    encodeDictionaryIndices(values, 0, values.length, w);
  });
}

/** The decoding half of {@link plainDictionaryCodec}: what a reader registers, with no encoder reachable from it. */
export const plainDictionaryDecoder: ValueDecoder = /*#__PURE__*/ dictionaryDecoder(2, 'PLAIN_DICTIONARY');
/** The decoding half of {@link rleDictionaryCodec}: what a reader registers, with no encoder reachable from it. */
export const rleDictionaryDecoder: ValueDecoder = /*#__PURE__*/ dictionaryDecoder(8, 'RLE_DICTIONARY');

/** PLAIN_DICTIONARY (= 2, the Parquet 1.0 name): indices in data pages; decode needs the dictionary. */
export const plainDictionaryCodec: ValueCodec = /*#__PURE__*/ dictionaryCodec(plainDictionaryDecoder);
/** RLE_DICTIONARY (= 8): indices in data pages; decode needs the dictionary. */
export const rleDictionaryCodec: ValueCodec = /*#__PURE__*/ dictionaryCodec(rleDictionaryDecoder);
