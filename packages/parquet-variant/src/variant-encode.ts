/**
 * Encoding of JS values (the {@link VariantValue} mapping) into the Variant binary encoding:
 * https://github.com/apache/parquet-format/blob/master/VariantEncoding.md#metadata-encoding and
 * https://github.com/apache/parquet-format/blob/master/VariantEncoding.md#value-encoding.
 *
 * The metadata dictionary is sorted and unique (`sorted_strings` = 1); every size field uses the
 * smallest width that holds it; objects list fields (and store their values) in UTF-8 key order.
 *
 * @module
 */
import { ByteWriter, ParquetError } from '@parquetry/thrift-compact';
import { DEFAULT_MAX_VARIANT_DEPTH } from './variant-decode.js';
import { asTagged, compareUtf8, isVariantTyped, type VariantValue } from './variant-value.js';

/** Options for {@link encodeVariant}. */
export interface EncodeVariantOptions {
  /** Deepest array/object nesting accepted (default 128, the decoder's default). Guards against cycles. */
  readonly maxDepth?: number;
}

/** An encoded Variant: the two binary fields of a Variant column. */
export interface EncodedVariant {
  /** The metadata (dictionary of object keys). */
  readonly metadata: Uint8Array;
  /** The value. */
  readonly value: Uint8Array;
}

const utf8 = /*#__PURE__*/ new TextEncoder();
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** Path segments of the value being written (built into text only for an error message). */
type PathStack = (string | number)[];

function pathText(path: PathStack): string {
  let s = '$';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : `.${p}`;
  return s;
}

function unrepresentable(what: string, path: PathStack): ParquetError {
  return new ParquetError('VARIANT_UNREPRESENTABLE', `parquet-variant: cannot encode ${what} at ${pathText(path)}`);
}

function sizeFor(max: number): number {
  return max <= 0xff ? 1 : max <= 0xffff ? 2 : max <= 0xffffff ? 3 : 4;
}

function putUint(b: Uint8Array, p: number, v: number, size: number): void {
  for (let i = 0; i < size; i++) {
    b[p + i] = v & 0xff;
    v = Math.floor(v / 256);
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Encodes a JS value as a Variant (the inverse of {@link decodeVariant} for the documented mapping).
 *
 * Numbers: integers (not −0) → the smallest of int8/int16/int32 that holds them, other safe integers →
 * int64, everything else (fractions, −0, NaN, ±Infinity, unsafe integers) → double. `bigint` → int64.
 * Strings shorter than 64 UTF-8 bytes → short string, else string. Typed values (`date`, `timestamp`, `time`,
 * `uuid`, `decimal`) → their Variant types, but only when branded ({@link VARIANT_TYPED}: made by the decoder or by
 * {@link variantDate}, {@link variantTimestamp}, {@link variantTime}, {@link variantUuid}, {@link variantDecimal});
 * a decimal uses the smallest of decimal4/8/16 that holds its precision. Every plain object is a Variant object,
 * `{ type: 'date', days: 3 }` included; so is a typed value copied by `structuredClone` or a spread (the brand, on the
 * prototype, is not copied).
 *
 * @param value - the value to encode.
 * @param options - nesting limit.
 * @returns the metadata and value bytes.
 * @throws ParquetError `VARIANT_UNREPRESENTABLE` for `undefined`, functions, symbols, a `bigint` outside
 *   int64, a decimal of more than 38 digits, out-of-range dates/timestamps, a branded value whose fields no longer
 *   fit its type, a non-plain object (a class instance, `Map`, `Date`…), or nesting deeper than `maxDepth`.
 */
export function encodeVariant(value: VariantValue, options: EncodeVariantOptions = {}): EncodedVariant {
  const sorted = variantKeys(value, options);
  const ids = new Map<string, number>();
  for (let i = 0; i < sorted.length; i++) ids.set(sorted[i]!, i);
  return { metadata: encodeMetadata(sorted), value: encodeVariantValue(value, ids, options) };
}

/**
 * Collects the object keys used anywhere in a value: the dictionary {@link encodeMetadata} takes, e.g. to share one
 * metadata between several values encoded with {@link encodeVariantValue} (the pieces of a shredded Variant).
 * @param value - the value (only plain objects contribute keys; typed values have none).
 * @param options - nesting limit.
 * @returns the distinct keys, sorted by UTF-8 bytes.
 * @throws ParquetError `VARIANT_UNREPRESENTABLE` for nesting deeper than `maxDepth` (a cycle).
 */
export function variantKeys(value: VariantValue, options: EncodeVariantOptions = {}): string[] {
  const keys = new Set<string>();
  collectKeys(value, keys, options.maxDepth ?? DEFAULT_MAX_VARIANT_DEPTH, []);
  return [...keys].sort(compareUtf8);
}

/**
 * Encodes a value's bytes against a given metadata dictionary (as {@link encodeVariant} does against the one it
 * builds); the dictionary may hold more keys than the value uses.
 * @param value - the value to encode.
 * @param ids - field id of every key the value's objects use (its position in the metadata dictionary).
 * @param options - nesting limit.
 * @returns the value bytes.
 * @throws ParquetError `VARIANT_UNREPRESENTABLE` as {@link encodeVariant}, and for an object key missing from `ids`.
 */
export function encodeVariantValue(value: VariantValue, ids: ReadonlyMap<string, number>, options: EncodeVariantOptions = {}): Uint8Array {
  // One scratch buffer serves consecutive calls (a new typed array per small value costs more than encoding it);
  // taking it out while in use keeps a nested or failed call from sharing it.
  const w = spare ?? new ByteWriter(256);
  spare = undefined;
  w.pos = 0;
  writeValue(w, value, { ids, maxDepth: options.maxDepth ?? DEFAULT_MAX_VARIANT_DEPTH }, []);
  const out = w.buf.slice(0, w.pos);
  if (w.buf.length <= MAX_SPARE) spare = w;
  return out;
}

/** The scratch writer of {@link encodeVariantValue} when not in use, and the largest buffer kept. */
let spare: ByteWriter | undefined;
const MAX_SPARE = 1 << 20;

/** What the value writers share: the dictionary and the nesting limit. */
interface WriteCtx {
  readonly ids: ReadonlyMap<string, number>;
  readonly maxDepth: number;
}

function collectKeys(v: unknown, keys: Set<string>, maxDepth: number, path: PathStack): void {
  if (typeof v !== 'object' || v === null || v instanceof Uint8Array) return;
  if (Array.isArray(v)) {
    if (path.length >= maxDepth) throw unrepresentable(`nesting deeper than ${maxDepth} (a cycle?)`, path);
    path.push(0);
    for (let i = 0; i < v.length; i++) {
      path[path.length - 1] = i;
      collectKeys(v[i], keys, maxDepth, path);
    }
    path.pop();
    return;
  }
  if (!isPlainObject(v) || asTagged(v) !== undefined) return; // non-plain objects are rejected by writeValue
  if (path.length >= maxDepth) throw unrepresentable(`nesting deeper than ${maxDepth} (a cycle?)`, path);
  path.push('');
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    keys.add(k);
    path[path.length - 1] = k;
    collectKeys(v[k], keys, maxDepth, path);
  }
  path.pop();
}

/**
 * Encodes a sorted, unique key list as Variant metadata (`sorted_strings` set, smallest offset size).
 * @param keys - the dictionary strings, already sorted by UTF-8 bytes and unique.
 * @returns the metadata bytes.
 */
export function encodeMetadata(keys: readonly string[]): Uint8Array {
  const encoded = keys.map((k) => utf8.encode(k));
  let total = 0;
  for (const e of encoded) total += e.length;
  const os = sizeFor(Math.max(total, keys.length));
  const out = new Uint8Array(1 + os * (keys.length + 2) + total);
  out[0] = 1 | 0x10 | ((os - 1) << 6);
  putUint(out, 1, keys.length, os);
  let p = 1 + os;
  let off = 0;
  let s = 1 + os * (keys.length + 2);
  putUint(out, p, 0, os);
  p += os;
  for (const e of encoded) {
    off += e.length;
    putUint(out, p, off, os);
    p += os;
    out.set(e, s);
    s += e.length;
  }
  return out;
}

// An int64 goes out as two 32-bit words through a BigInt64Array/Int32Array alias (no BigInt arithmetic).
const I64 = /*#__PURE__*/ new BigInt64Array(1);
const I64_WORDS = /*#__PURE__*/ new Int32Array(I64.buffer);
const LO = /*#__PURE__*/ new Uint8Array(Uint16Array.of(1).buffer)[0] === 1 ? 0 : 1;

/** Writes an int64 given as a bigint in range (or wrapped to 64 bits: BigInt64Array stores it modulo 2^64). */
function writeInt64(w: ByteWriter, v: bigint): void {
  I64[0] = v;
  w.i32le(I64_WORDS[LO]!);
  w.i32le(I64_WORDS[1 - LO]!);
}

/** Writes a safe integer as int64 (two's complement words, no BigInt). */
function writeSafeInt64(w: ByteWriter, v: number): void {
  const hi = Math.floor(v / 4294967296);
  w.i32le((v - hi * 4294967296) | 0);
  w.i32le(hi | 0);
}

function writeDecimal(w: ByteWriter, text: string, path: PathStack): void {
  const neg = text.startsWith('-');
  const body = neg ? text.slice(1) : text;
  const dot = body.indexOf('.');
  const scale = dot < 0 ? 0 : body.length - dot - 1;
  const digits = (dot < 0 ? body : body.slice(0, dot) + body.slice(dot + 1)).replace(/^0+(?=\d)/, '');
  if (scale > 38) throw unrepresentable(`decimal ${text} with scale ${scale} > 38`, path);
  const precision = digits === '0' ? 1 : digits.length;
  if (precision > 38) throw unrepresentable(`decimal ${text} with ${precision} digits > 38`, path);
  const unscaled = neg ? -BigInt(digits) : BigInt(digits);
  if (precision <= 9) {
    w.u8(8 << 2);
    w.u8(scale);
    w.i32le(Number(unscaled));
  } else if (precision <= 18) {
    w.u8(9 << 2);
    w.u8(scale);
    writeInt64(w, unscaled);
  } else {
    w.u8(10 << 2);
    w.u8(scale);
    writeInt64(w, BigInt.asIntN(64, unscaled));
    writeInt64(w, BigInt.asIntN(64, unscaled >> 64n));
  }
}

function writeString(w: ByteWriter, s: string): void {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: encode in place, then fix the header.
  const max = s.length * 3;
  const p = w.pos;
  if (max < 64) {
    w.ensureSpare(1 + max);
    const n = utf8.encodeInto(s, w.buf.subarray(p + 1)).written;
    w.buf[p] = 1 | (n << 2);
    w.pos = p + 1 + n;
    return;
  }
  w.ensureSpare(5 + max);
  const b = w.buf;
  const n = utf8.encodeInto(s, b.subarray(p + 5)).written;
  if (n < 64) {
    b.copyWithin(p + 1, p + 5, p + 5 + n);
    b[p] = 1 | (n << 2);
    w.pos = p + 1 + n;
    return;
  }
  b[p] = 16 << 2;
  b[p + 1] = n & 0xff;
  b[p + 2] = (n >>> 8) & 0xff;
  b[p + 3] = (n >>> 16) & 0xff;
  b[p + 4] = n >>> 24;
  w.pos = p + 5 + n;
}

function writeNumber(w: ByteWriter, v: number): void {
  if (Number.isInteger(v) && !Object.is(v, -0)) {
    if (v >= -128 && v <= 127) {
      w.u8(3 << 2);
      w.u8(v & 0xff);
      return;
    }
    if (v >= -32768 && v <= 32767) {
      w.u8(4 << 2);
      w.u8(v & 0xff);
      w.u8((v >> 8) & 0xff);
      return;
    }
    if (v >= -2147483648 && v <= 2147483647) {
      w.u8(5 << 2);
      w.i32le(v);
      return;
    }
    if (Number.isSafeInteger(v)) {
      w.u8(6 << 2);
      writeSafeInt64(w, v);
      return;
    }
  }
  w.u8(7 << 2);
  w.f64(v);
}

function writeValue(w: ByteWriter, v: unknown, ctx: WriteCtx, path: PathStack): void {
  switch (typeof v) {
    case 'boolean':
      w.u8((v ? 1 : 2) << 2);
      return;
    case 'number':
      writeNumber(w, v);
      return;
    case 'bigint':
      if (v < INT64_MIN || v > INT64_MAX) throw unrepresentable(`bigint ${v} outside int64`, path);
      w.u8(6 << 2);
      writeInt64(w, v);
      return;
    case 'string':
      writeString(w, v);
      return;
    case 'object':
      break;
    default:
      throw unrepresentable(`a value of type ${typeof v}`, path);
  }
  if (v === null) {
    w.u8(0);
    return;
  }
  if (v instanceof Uint8Array) {
    w.u8(15 << 2);
    w.i32le(v.length);
    w.bytes(v);
    return;
  }
  if (Array.isArray(v)) {
    writeArray(w, v, ctx, path);
    return;
  }
  const t = asTagged(v);
  if (t !== undefined) {
    switch (t.type) {
      case 'date':
        if (t.days < -2147483648 || t.days > 2147483647) throw unrepresentable(`date ${t.days} outside int32`, path);
        w.u8(11 << 2);
        w.i32le(t.days);
        return;
      case 'timestamp':
        if (t.value < INT64_MIN || t.value > INT64_MAX) throw unrepresentable(`timestamp ${t.value} outside int64`, path);
        w.u8((t.unit === 'us' ? (t.utc ? 12 : 13) : t.utc ? 18 : 19) << 2);
        writeInt64(w, t.value);
        return;
      case 'time':
        if (t.value < INT64_MIN || t.value > INT64_MAX) throw unrepresentable(`time ${t.value} outside int64`, path);
        w.u8(17 << 2);
        writeInt64(w, t.value);
        return;
      case 'uuid': {
        w.u8(20 << 2);
        const hex = t.value.replace(/-/g, '');
        for (let i = 0; i < 32; i += 2) w.u8(parseInt(hex.slice(i, i + 2), 16));
        return;
      }
      case 'decimal':
        writeDecimal(w, t.value, path);
        return;
    }
  }
  if (!isPlainObject(v)) {
    if (isVariantTyped(v)) {
      const tag = (v as { type?: unknown }).type;
      throw unrepresentable(`a typed Variant value (${typeof tag === 'string' ? tag : 'no type'}) whose fields do not fit its type`, path);
    }
    throw unrepresentable('a non-plain object', path);
  }
  writeObject(w, v, ctx, path);
}

function writeArray(w: ByteWriter, v: readonly unknown[], ctx: WriteCtx, path: PathStack): void {
  if (path.length >= ctx.maxDepth) throw unrepresentable(`nesting deeper than ${ctx.maxDepth} (a cycle?)`, path);
  const n = v.length;
  const start = w.pos;
  const offsets = new Array<number>(n + 1);
  path.push(0);
  for (let i = 0; i < n; i++) {
    offsets[i] = w.pos - start;
    path[path.length - 1] = i;
    writeValue(w, v[i], ctx, path);
  }
  path.pop();
  finishContainer(w, start, offsets, undefined);
}

function writeObject(w: ByteWriter, v: Record<string, unknown>, ctx: WriteCtx, path: PathStack): void {
  if (path.length >= ctx.maxDepth) throw unrepresentable(`nesting deeper than ${ctx.maxDepth} (a cycle?)`, path);
  const keys = Object.keys(v);
  if (keys.length > 1) keys.sort(compareUtf8);
  const n = keys.length;
  const fieldIds = new Array<number>(n);
  const start = w.pos;
  const offsets = new Array<number>(n + 1);
  path.push('');
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    const id = ctx.ids.get(k);
    path[path.length - 1] = k;
    if (id === undefined) throw unrepresentable(`key ${JSON.stringify(k)}: not in the metadata dictionary`, path);
    fieldIds[i] = id;
    offsets[i] = w.pos - start;
    writeValue(w, v[k], ctx, path);
  }
  path.pop();
  finishContainer(w, start, offsets, fieldIds);
}

/**
 * Completes an array (`fieldIds` undefined) or object whose children were written at `start`: they
 * are shifted right to make room for the header, whose offset width depends on their total size.
 */
function finishContainer(w: ByteWriter, start: number, offsets: number[], fieldIds: number[] | undefined): void {
  const n = offsets.length - 1;
  const total = w.pos - start;
  offsets[n] = total;
  const offSize = sizeFor(total);
  const large = n > 255;
  const nSize = large ? 4 : 1;
  let idSize = 0;
  if (fieldIds !== undefined) {
    let maxId = 0;
    for (const id of fieldIds) if (id > maxId) maxId = id;
    idSize = sizeFor(maxId);
  }
  const headerLen = 1 + nSize + n * idSize + (n + 1) * offSize;
  w.ensureSpare(headerLen);
  const b = w.buf;
  b.copyWithin(start + headerLen, start, start + total);
  let p = start;
  b[p++] =
    fieldIds !== undefined
      ? 2 | ((((large ? 0x10 : 0) | ((idSize - 1) << 2) | (offSize - 1)) << 2) & 0xff)
      : 3 | ((((large ? 4 : 0) | (offSize - 1)) << 2) & 0xff);
  putUint(b, p, n, nSize);
  p += nSize;
  if (fieldIds !== undefined) {
    for (let i = 0; i < n; i++, p += idSize) putUint(b, p, fieldIds[i]!, idSize);
  }
  for (let i = 0; i <= n; i++, p += offSize) putUint(b, p, offsets[i]!, offSize);
  w.pos = start + headerLen + total;
}
