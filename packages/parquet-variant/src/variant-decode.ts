/**
 * Decoding of the Variant binary encoding: the metadata
 * (https://github.com/apache/parquet-format/blob/master/VariantEncoding.md#metadata-encoding) and the
 * value (https://github.com/apache/parquet-format/blob/master/VariantEncoding.md#value-encoding) into
 * the JS mapping of {@link VariantValue}.
 *
 * Every size and offset is checked against the input; a value that references overlapping bytes more
 * than once cannot blow up the output, because the number of decoded values is bounded by the value's
 * byte length (every well-formed value occupies at least one byte of its own).
 *
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';
import { formatDecimal, makeDate, makeDecimal, makeTime, makeTimestamp, makeUuid, type VariantObject, type VariantValue } from './variant-value.js';

/** Deepest nesting of arrays/objects accepted by default. */
export const DEFAULT_MAX_VARIANT_DEPTH = 128;

/** Options for {@link decodeVariant}. */
export interface DecodeVariantOptions {
  /** Deepest array/object nesting accepted (default {@link DEFAULT_MAX_VARIANT_DEPTH}). */
  readonly maxDepth?: number;
}

const utf8 = /*#__PURE__*/ new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }); // a leading U+FEFF is part of the value
const HEX = /*#__PURE__*/ Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function corrupt(what: string, where: string, pos: number): ParquetError {
  return new ParquetError('VARIANT_CORRUPT', `parquet-variant: ${what}, at ${where} byte ${pos}`, pos);
}

/** Reads an unsigned little-endian integer of 1-4 bytes (caller checked bounds). */
function readUint(b: Uint8Array, pos: number, size: number): number {
  switch (size) {
    case 1:
      return b[pos]!;
    case 2:
      return b[pos]! | (b[pos + 1]! << 8);
    case 3:
      return b[pos]! | (b[pos + 1]! << 8) | (b[pos + 2]! << 16);
    default:
      return (b[pos]! | (b[pos + 1]! << 8) | (b[pos + 2]! << 16)) + b[pos + 3]! * 0x1000000;
  }
}

/**
 * A decoded Variant metadata: its dictionary, with strings decoded lazily.
 */
export class VariantMetadata {
  /** The metadata bytes. */
  readonly bytes: Uint8Array;
  /** Number of dictionary strings. */
  readonly size: number;
  /** Whether the header's `sorted_strings` bit is set. */
  readonly sorted: boolean;
  /** Bytes per dictionary size/offset field (1-4). */
  readonly offsetSize: number;
  /** Byte length of the whole metadata (header, sizes, offsets and string bytes). */
  readonly byteLength: number;
  private readonly offsetsPos: number;
  private readonly stringsPos: number;
  private readonly cache: (string | undefined)[] = [];
  private strictlySorted: boolean | undefined;

  /**
   * Parses and validates the header, dictionary size and offsets (strings are decoded on use).
   * @param bytes - the metadata; it may be followed by other bytes (see {@link byteLength}).
   * @throws ParquetError `VARIANT_CORRUPT` for an empty input, a version other than 1, sizes or offsets
   *   past the end, or decreasing offsets.
   */
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    const n = bytes.length;
    if (n < 1) throw corrupt('empty metadata, expected a header byte', 'metadata', 0);
    const header = bytes[0]!;
    if ((header & 0x0f) !== 1) throw corrupt(`unsupported metadata version ${header & 0x0f}, expected 1`, 'metadata', 0);
    this.sorted = (header & 0x10) !== 0;
    const os = (this.offsetSize = (header >>> 6) + 1);
    if (n < 1 + os) throw corrupt(`metadata truncated, expected ${os}-byte dictionary_size`, 'metadata', 1);
    const size = readUint(bytes, 1, os);
    this.offsetsPos = 1 + os;
    // (size + 1) offsets must fit; checked before anything is sized by `size`.
    if ((size + 1) * os > n - this.offsetsPos) {
      throw corrupt(`dictionary_size ${size} needs ${(size + 1) * os} offset bytes, only ${n - this.offsetsPos} left`, 'metadata', 1);
    }
    this.size = size;
    this.stringsPos = this.offsetsPos + (size + 1) * os;
    let prev = readUint(bytes, this.offsetsPos, os);
    if (prev !== 0) throw corrupt(`first dictionary offset is ${prev}, expected 0`, 'metadata', this.offsetsPos);
    for (let i = 1, p = this.offsetsPos + os; i <= size; i++, p += os) {
      const o = readUint(bytes, p, os);
      if (o < prev) throw corrupt(`dictionary offset ${i} is ${o}, below the previous ${prev}`, 'metadata', p);
      prev = o;
    }
    if (prev > n - this.stringsPos) {
      throw corrupt(`dictionary bytes end at ${this.stringsPos + prev}, past the metadata end ${n}`, 'metadata', this.stringsPos);
    }
    this.byteLength = this.stringsPos + prev;
  }

  /**
   * Whether the dictionary strings are verifiably unique and in increasing byte order (checked once, on
   * first use, when the header claims `sorted_strings`; a false claim is not trusted).
   * @returns true when ids in increasing order name distinct, increasing keys.
   */
  isStrictlySorted(): boolean {
    if (this.strictlySorted !== undefined) return this.strictlySorted;
    let ok = this.sorted;
    const b = this.bytes;
    const os = this.offsetSize;
    for (let i = 1; ok && i < this.size; i++) {
      const p = this.offsetsPos + i * os;
      const s0 = this.stringsPos + readUint(b, p - os, os);
      const s1 = this.stringsPos + readUint(b, p, os);
      const e1 = this.stringsPos + readUint(b, p + os, os);
      // string i-1 is [s0, s1), string i is [s1, e1): require bytes(i-1) < bytes(i)
      let j = 0;
      for (; s0 + j < s1 && s1 + j < e1; j++) if (b[s0 + j] !== b[s1 + j]) break;
      ok = s0 + j === s1 ? s1 + j < e1 : s1 + j < e1 && b[s0 + j]! < b[s1 + j]!;
    }
    return (this.strictlySorted = ok);
  }

  /**
   * The dictionary string with id `id`.
   * @param id - dictionary id.
   * @param at - byte position in the value that referenced it (for the error).
   * @returns the string.
   * @throws ParquetError `VARIANT_CORRUPT` when `id` is out of range or the string is not UTF-8.
   */
  get(id: number, at = 0): string {
    const cached = this.cache[id];
    if (cached !== undefined) return cached;
    if (id >= this.size) throw corrupt(`field id ${id} out of range, the dictionary has ${this.size} strings`, 'value', at);
    const os = this.offsetSize;
    const p = this.offsetsPos + id * os;
    const start = this.stringsPos + readUint(this.bytes, p, os);
    const end = this.stringsPos + readUint(this.bytes, p + os, os);
    const s = decodeUtf8(this.bytes, start, end, 'metadata');
    this.cache[id] = s;
    return s;
  }
}

function decodeUtf8(b: Uint8Array, start: number, end: number, where: string): string {
  // Short ASCII fast path: TextDecoder has a fixed cost per call.
  if (end - start <= 32) {
    let s = '';
    let i = start;
    for (; i < end; i++) {
      const c = b[i]!;
      if (c >= 0x80) break;
      s += String.fromCharCode(c);
    }
    if (i === end) return s;
  }
  try {
    return utf8.decode(b.subarray(start, end));
  } catch {
    throw corrupt('string is not valid UTF-8', where, start);
  }
}

/** The last metadata parsed from bytes, reused while consecutive rows carry identical bytes. */
let lastMetadata: VariantMetadata | undefined;

/**
 * Parses metadata, reusing the previous result when the bytes are identical (rows of one column usually
 * share their metadata). The cached instance holds a copy, so callers may reuse their buffers.
 * @param bytes - metadata bytes.
 * @returns the parsed metadata.
 * @throws ParquetError `VARIANT_CORRUPT` as {@link VariantMetadata}.
 */
export function parseMetadataCached(bytes: Uint8Array): VariantMetadata {
  const last = lastMetadata;
  if (last !== undefined) {
    const a = last.bytes;
    if (a.length === bytes.length) {
      let i = 0;
      while (i < a.length && a[i] === bytes[i]) i++;
      if (i === a.length) return last;
    }
  }
  return (lastMetadata = new VariantMetadata(bytes.slice()));
}

/** Decoding state: the metadata, the value bytes, the depth limit and the node budget. */
interface Ctx {
  readonly md: VariantMetadata;
  readonly b: Uint8Array;
  readonly dv: DataView;
  readonly maxDepth: number;
  budget: number;
}

/**
 * Decodes a Variant (metadata + value) into its JS value.
 *
 * JS mapping: null → `null`; booleans → `boolean`; int8/int16/int32 → `number`; int64 → `number` when
 * a safe integer, else `bigint`; float/double → `number`; decimal4/8/16 → `{ type: 'decimal', value }`
 * with exactly `scale` fractional digits; date → `{ type: 'date', days }`; timestamps →
 * `{ type: 'timestamp', unit: 'us' | 'ns', utc, value: bigint }`; time → `{ type: 'time', unit: 'us',
 * value: bigint }`; uuid → `{ type: 'uuid', value }` (lowercase 8-4-4-4-12); binary → `Uint8Array`
 * (a copy); string → `string`; object → plain object in stored key order; array → array. The typed values
 * (decimal, date, timestamps, time, uuid) are branded (`VARIANT_TYPED`), so encoding them again gives the same types.
 *
 * @param metadata - the Variant metadata bytes (consecutive calls with identical bytes reuse one parse), or a
 *   parsed {@link VariantMetadata}.
 * @param value - the Variant value bytes (bytes after the top-level value are ignored).
 * @param options - nesting limit.
 * @returns the decoded value.
 * @throws ParquetError `VARIANT_CORRUPT` (with the byte offset) for a bad header, an unknown type ID,
 *   sizes or offsets past the end, an out-of-range dictionary id, invalid UTF-8, duplicate object keys,
 *   overlapping values, or nesting deeper than `maxDepth`.
 */
export function decodeVariant(metadata: Uint8Array | VariantMetadata, value: Uint8Array, options: DecodeVariantOptions = {}): VariantValue {
  const md = metadata instanceof VariantMetadata ? metadata : parseMetadataCached(metadata);
  const ctx: Ctx = {
    md,
    b: value,
    dv: new DataView(value.buffer, value.byteOffset, value.byteLength),
    maxDepth: options.maxDepth ?? DEFAULT_MAX_VARIANT_DEPTH,
    budget: value.length,
  };
  return decodeAt(ctx, 0, value.length, 0);
}

/**
 * Splits a concatenated `metadata ‖ value` buffer (the layout of the upstream `*.variant.bin` files)
 * at the end of the metadata, which is self-delimiting.
 * @param bytes - metadata followed by value.
 * @returns the two parts (views into `bytes`).
 * @throws ParquetError `VARIANT_CORRUPT` when the metadata is invalid.
 */
export function splitVariantBinary(bytes: Uint8Array): { metadata: Uint8Array; value: Uint8Array } {
  const md = new VariantMetadata(bytes);
  return { metadata: bytes.subarray(0, md.byteLength), value: bytes.subarray(md.byteLength) };
}

function need(pos: number, n: number, end: number, what: string): void {
  if (n > end - pos) throw corrupt(`${what} needs ${n} bytes, only ${Math.max(0, end - pos)} left`, 'value', pos);
}

function decodeAt(ctx: Ctx, pos: number, end: number, depth: number): VariantValue {
  if (--ctx.budget < 0) throw corrupt('more values than bytes: overlapping object/array offsets', 'value', pos);
  if (pos >= end) throw corrupt('value truncated, expected a value_metadata byte', 'value', pos);
  const b = ctx.b;
  const head = b[pos]!;
  const basic = head & 3;
  const hdr = head >>> 2;
  const p = pos + 1;
  switch (basic) {
    case 0:
      return decodePrimitive(ctx, hdr, p, end, pos);
    case 1:
      need(p, hdr, end, `short string of ${hdr} bytes`);
      return decodeUtf8(b, p, p + hdr, 'value');
    case 2:
      return decodeObject(ctx, hdr, p, end, depth, pos);
    default:
      return decodeArray(ctx, hdr, p, end, depth, pos);
  }
}

function decodePrimitive(ctx: Ctx, id: number, p: number, end: number, pos: number): VariantValue {
  const dv = ctx.dv;
  switch (id) {
    case 0:
      return null;
    case 1:
      return true;
    case 2:
      return false;
    case 3:
      need(p, 1, end, 'int8');
      return dv.getInt8(p);
    case 4:
      need(p, 2, end, 'int16');
      return dv.getInt16(p, true);
    case 5:
      need(p, 4, end, 'int32');
      return dv.getInt32(p, true);
    case 6: {
      need(p, 8, end, 'int64');
      const lo = dv.getUint32(p, true);
      const hi = dv.getInt32(p + 4, true);
      if (hi >= -0x200000 && hi < 0x200000) {
        const v = hi * 0x100000000 + lo;
        if (Number.isSafeInteger(v)) return v;
      }
      return dv.getBigInt64(p, true);
    }
    case 7:
      need(p, 8, end, 'double');
      return dv.getFloat64(p, true);
    case 8:
    case 9:
    case 10: {
      const width = id === 8 ? 4 : id === 9 ? 8 : 16;
      need(p, 1 + width, end, `decimal${width}`);
      const scale = ctx.b[p]!;
      if (scale > 38) throw corrupt(`decimal scale ${scale} outside [0, 38]`, 'value', p);
      let unscaled: bigint | number;
      if (width === 4) unscaled = dv.getInt32(p + 1, true);
      else if (width === 8) unscaled = dv.getBigInt64(p + 1, true);
      else unscaled = (dv.getBigInt64(p + 9, true) << 64n) | dv.getBigUint64(p + 1, true);
      return makeDecimal(formatDecimal(unscaled, scale));
    }
    case 11:
      need(p, 4, end, 'date');
      return makeDate(dv.getInt32(p, true));
    case 12:
    case 13:
    case 18:
    case 19:
      need(p, 8, end, 'timestamp');
      return makeTimestamp(id < 18 ? 'us' : 'ns', id === 12 || id === 18, dv.getBigInt64(p, true));
    case 14:
      need(p, 4, end, 'float');
      return dv.getFloat32(p, true);
    case 15:
    case 16: {
      need(p, 4, end, id === 15 ? 'binary size' : 'string size');
      const len = dv.getUint32(p, true);
      need(p + 4, len, end, id === 15 ? `binary of ${len} bytes` : `string of ${len} bytes`);
      return id === 15 ? ctx.b.slice(p + 4, p + 4 + len) : decodeUtf8(ctx.b, p + 4, p + 4 + len, 'value');
    }
    case 17:
      need(p, 8, end, 'time');
      return makeTime(dv.getBigInt64(p, true));
    case 20: {
      need(p, 16, end, 'uuid');
      const b = ctx.b;
      let s = '';
      for (let i = 0; i < 16; i++) {
        if (i === 4 || i === 6 || i === 8 || i === 10) s += '-';
        s += HEX[b[p + i]!]!;
      }
      return makeUuid(s);
    }
    default:
      throw corrupt(`unknown primitive type id ${id}`, 'value', pos);
  }
}

function decodeObject(ctx: Ctx, hdr: number, p: number, end: number, depth: number, pos: number): VariantObject {
  if (depth >= ctx.maxDepth) throw corrupt(`nesting deeper than ${ctx.maxDepth}`, 'value', pos);
  const b = ctx.b;
  const offSize = (hdr & 3) + 1;
  const idSize = ((hdr >>> 2) & 3) + 1;
  const large = (hdr & 0x10) !== 0;
  const nSize = large ? 4 : 1;
  need(p, nSize, end, 'object num_elements');
  const n = readUint(b, p, nSize);
  p += nSize;
  const idsPos = p;
  // Checked before looping over n: ids and n + 1 offsets must fit.
  if (n * idSize + (n + 1) * offSize > end - p) {
    throw corrupt(`object of ${n} fields needs ${n * idSize + (n + 1) * offSize} header bytes, only ${end - p} left`, 'value', p);
  }
  const offsPos = idsPos + n * idSize;
  const dataPos = offsPos + (n + 1) * offSize;
  const total = readUint(b, offsPos + n * offSize, offSize);
  if (total > end - dataPos) throw corrupt(`object fields end at ${dataPos + total}, past the value end ${end}`, 'value', offsPos + n * offSize);
  const dataEnd = dataPos + total;
  const md = ctx.md;
  // With a sorted, unique dictionary, strictly increasing ids are distinct keys: no lookup needed.
  const sorted = n > 1 && md.isStrictlySorted();
  let prevId = -1;
  const out: VariantObject = {};
  for (let i = 0; i < n; i++) {
    const idAt = idsPos + i * idSize;
    const id = readUint(b, idAt, idSize);
    const key = md.get(id, idAt);
    const offAt = offsPos + i * offSize;
    const off = readUint(b, offAt, offSize);
    if (off >= total) throw corrupt(`object field offset ${off} not below the fields size ${total}`, 'value', offAt);
    if (!(sorted && id > prevId) && Object.hasOwn(out, key)) throw corrupt(`duplicate object key ${JSON.stringify(key)}`, 'value', idAt);
    prevId = id;
    const v = decodeAt(ctx, dataPos + off, dataEnd, depth + 1);
    if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return out;
}

function decodeArray(ctx: Ctx, hdr: number, p: number, end: number, depth: number, pos: number): VariantValue[] {
  if (depth >= ctx.maxDepth) throw corrupt(`nesting deeper than ${ctx.maxDepth}`, 'value', pos);
  const b = ctx.b;
  const offSize = (hdr & 3) + 1;
  const nSize = (hdr & 4) !== 0 ? 4 : 1;
  need(p, nSize, end, 'array num_elements');
  const n = readUint(b, p, nSize);
  p += nSize;
  if ((n + 1) * offSize > end - p) {
    throw corrupt(`array of ${n} elements needs ${(n + 1) * offSize} offset bytes, only ${end - p} left`, 'value', p);
  }
  const dataPos = p + (n + 1) * offSize;
  const total = readUint(b, p + n * offSize, offSize);
  if (total > end - dataPos) throw corrupt(`array elements end at ${dataPos + total}, past the value end ${end}`, 'value', p + n * offSize);
  const dataEnd = dataPos + total;
  const out: VariantValue[] = new Array<VariantValue>(n);
  for (let i = 0; i < n; i++) {
    const offAt = p + i * offSize;
    const off = readUint(b, offAt, offSize);
    if (off >= total) throw corrupt(`array element offset ${off} not below the elements size ${total}`, 'value', offAt);
    out[i] = decodeAt(ctx, dataPos + off, dataEnd, depth + 1);
  }
  return out;
}
