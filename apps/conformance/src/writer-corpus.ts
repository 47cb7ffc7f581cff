/**
 * The writer interop corpus: Parquet files written by `@parquetry/parquet-writer` that cover every leaf type of the
 * schema builder × nesting × encoding × codec × data page version, plus the structural cases (several row groups
 * and pages, dictionary fallback in the middle of a chunk, page cuts by bytes, a file of zero rows), each with the
 * canonical rows (tools/peers/canon.mjs form) of the values written, computed from the generator's own numbers
 * (unscaled decimals, epoch counts, bytes) with canon.mjs's formatters, not through the writer or the reader.
 *
 * Design (not the full cross product; every pair of dimensions is covered, see {@link coveragePairs}):
 * - Matrix files: the 9 nestings in 3 groups × V1/V2 = 6 files. Each holds one column per (leaf type, nesting of
 *   its group); the column's encoding rotates over the ones its physical type takes and its codec over the codecs,
 *   so that every type meets every nesting, encoding, codec and page version, and every nesting, encoding, codec
 *   and version meet each other. Page layout rotates by file: one page per chunk; 5-row pages and 16-row row
 *   groups; 7-row pages, 25-row row groups and a 64-byte dictionary limit (dictionary fallback).
 * - What some peer cannot read without failing the whole file is kept apart: ALP (FLOAT/DOUBLE in every nesting),
 *   BSON (every nesting and encoding), LZO (every other type, encodings and nestings rotating); V1 and V2 each.
 * - `dict-fallback-v1/v2`: the dictionary pays on the first pages (repeating values), then distinct values pass the
 *   dictionary page limit, so each chunk holds dictionary pages followed by pages in the fallback encoding.
 * - `pages-by-bytes-v2`: 3,000 rows in small byte-limited pages and several row groups.
 * - `zero-rows`: every leaf type but BSON at the top level and in one nesting, no rows.
 *
 * Every nesting puts nulls at each optional level and, for lists and maps, empty and null containers.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/LogicalTypes.md (the value each annotation denotes),
 * https://github.com/apache/parquet-format/blob/master/Encodings.md (the encodings) and
 * https://github.com/apache/parquet-format/blob/master/README.md (nested encoding, pages, row groups).
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CodecMap } from '@parquetry/parquet-codecs';
import { writeParquet, type ColumnOptions, type CompressionName, type EncodingName, type FieldSpec, type WriterOptions } from '@parquetry/parquet-writer';
import { ParquetError } from '@parquetry/thrift-compact';
// @ts-expect-error: plain ESM with JSDoc types
import * as canonModule from '../../../tools/peers/canon.mjs';

type Unit = 'millis' | 'micros' | 'nanos';
interface Canon {
  canonNumber(x: number): number | string;
  canonInt(x: bigint | number): number | string;
  canonBinary(b: Uint8Array): string;
  formatDecimal(unscaled: bigint, scale: number): string;
  formatDate(days: number | bigint): string;
  formatTime(count: bigint | number, unit: Unit): string;
  formatTimestamp(count: bigint | number, unit: Unit, utc: boolean): string;
  formatUuid(v: Uint8Array | bigint): string;
}
const C = canonModule as unknown as Canon;

// ---------------------------------------------------------------------------------------------------------------
// Leaf types

/** Physical type names, as parquet.thrift spells them. */
export type PhysicalName = 'BOOLEAN' | 'INT32' | 'INT64' | 'INT96' | 'FLOAT' | 'DOUBLE' | 'BYTE_ARRAY' | 'FIXED_LEN_BYTE_ARRAY';

/** How a column's values are encoded: `dict` (dictionary first, PLAIN on fallback) or a value encoding alone. */
export type CorpusEncoding = 'dict' | 'PLAIN' | 'RLE' | 'DELTA_BINARY_PACKED' | 'DELTA_LENGTH_BYTE_ARRAY' | 'DELTA_BYTE_ARRAY' | 'BYTE_STREAM_SPLIT' | 'ALP';

/** The encodings each physical type takes (Encodings.md), dictionary first. */
export const ENCODINGS_BY_PHYSICAL: Readonly<Record<PhysicalName, readonly CorpusEncoding[]>> = {
  BOOLEAN: ['PLAIN', 'RLE'],
  INT32: ['dict', 'PLAIN', 'DELTA_BINARY_PACKED', 'BYTE_STREAM_SPLIT'],
  INT64: ['dict', 'PLAIN', 'DELTA_BINARY_PACKED', 'BYTE_STREAM_SPLIT'],
  INT96: ['dict', 'PLAIN'],
  FLOAT: ['dict', 'PLAIN', 'BYTE_STREAM_SPLIT', 'ALP'],
  DOUBLE: ['dict', 'PLAIN', 'BYTE_STREAM_SPLIT', 'ALP'],
  BYTE_ARRAY: ['dict', 'PLAIN', 'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY'],
  FIXED_LEN_BYTE_ARRAY: ['dict', 'PLAIN', 'BYTE_STREAM_SPLIT', 'DELTA_BYTE_ARRAY'],
};

/** Every compression codec of parquet.thrift. */
export const CODECS: readonly CompressionName[] = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'ZSTD', 'BROTLI', 'LZ4_RAW', 'LZ4', 'LZO'];

const ENC_SHORT: Readonly<Record<CorpusEncoding, string>> = {
  dict: 'dict',
  PLAIN: 'plain',
  RLE: 'rle',
  DELTA_BINARY_PACKED: 'dbp',
  DELTA_LENGTH_BYTE_ARRAY: 'dlba',
  DELTA_BYTE_ARRAY: 'dba',
  BYTE_STREAM_SPLIT: 'bss',
  ALP: 'alp',
};

/** One value: what is handed to the writer and its canonical form. */
export interface Cell {
  /** The JavaScript value given to the writer (`null` for a null). */
  js: unknown;
  /** Its canonical form (tools/peers/canon.mjs), computed from the generator's numbers. */
  canon: unknown;
}

/** A leaf type of the schema builder with its values (edge values first). */
export interface LeafType {
  /** Short name, used in column names (`i32`, `dec38_10_fixed`, `ts_ns_utc`, …). */
  name: string;
  /** The builder's field spec (OPTIONAL; a nesting may make it REQUIRED). */
  spec: FieldSpec;
  /** Its physical type. */
  physical: PhysicalName;
  /** Its values, edges first; a column takes them in order, cycling. */
  values: Cell[];
}

const same = (v: unknown): Cell => ({ js: v, canon: v });
const int = (v: number | bigint): Cell => ({ js: v, canon: C.canonInt(v) });
const num = (v: number): Cell => ({ js: v, canon: C.canonNumber(v) });
const bin = (b: Uint8Array): Cell => ({ js: b, canon: C.canonBinary(b) });
const bytes = (...b: number[]) => Uint8Array.from(b);

/** A small deterministic generator (xorshift32), so the corpus is the same on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** 40 values: the edges, then generated ones. */
const GEN = 40;
function withGen(edges: Cell[], gen: (i: number) => Cell): Cell[] {
  return [...edges, ...range(Math.max(0, GEN - edges.length)).map(gen)];
}

function decimal(name: string, precision: number, scale: number, physical: 'int32' | 'int64' | 'fixed' | 'binary', byteLength?: number): LeafType {
  const max = 10n ** BigInt(precision) - 1n;
  const r = rng(precision * 131 + scale);
  const cell = (u: bigint): Cell => ({ js: C.formatDecimal(u, scale), canon: C.formatDecimal(u, scale) });
  const edges = [cell(-max), cell(max), cell(0n), cell(1n), cell(-1n)];
  // a bigint is the decimal value itself (not the unscaled integer): 7 → 7 × 10^scale unscaled
  if (precision - scale >= 1) edges.push({ js: 7n, canon: C.formatDecimal(7n * 10n ** BigInt(scale), scale) });
  const gen = (i: number): Cell => {
    let u = (BigInt(r()) * 4294967296n + BigInt(r())) * 4294967296n * 4294967296n + BigInt(r()) * BigInt(r());
    u %= max + 1n;
    if (i % 3 === 0) u %= 1000n;
    return cell(i % 2 === 0 ? -u : u);
  };
  const spec = byteLength === undefined ? { type: 'decimal' as const, precision, scale, physical } : { type: 'decimal' as const, precision, scale, physical, byteLength };
  const phys: PhysicalName = physical === 'int32' ? 'INT32' : physical === 'int64' ? 'INT64' : physical === 'fixed' ? 'FIXED_LEN_BYTE_ARRAY' : 'BYTE_ARRAY';
  return { name, spec, physical: phys, values: withGen(edges, gen) };
}

function intType(name: string, bitWidth: 8 | 16 | 32 | 64, signed: boolean): LeafType {
  const lo = signed ? -(2n ** BigInt(bitWidth - 1)) : 0n;
  const hi = signed ? 2n ** BigInt(bitWidth - 1) - 1n : 2n ** BigInt(bitWidth) - 1n;
  const r = rng(bitWidth * 7 + (signed ? 1 : 0));
  const mk = (v: bigint): Cell => (bitWidth === 64 ? { js: v, canon: C.canonInt(v) } : int(Number(v)));
  const edges = [mk(lo), mk(hi), mk(0n), mk(signed ? -1n : 1n), mk(signed ? 0n : 2n ** BigInt(bitWidth - 1))];
  const span = hi - lo + 1n;
  const gen = (i: number): Cell => {
    const raw = (BigInt(r()) << 32n) | BigInt(r());
    const v = lo + (i % 4 === 0 ? raw % 17n : raw % span);
    return mk(v);
  };
  return { name, spec: { type: 'int', bitWidth, signed }, physical: bitWidth === 64 ? 'INT64' : 'INT32', values: withGen(edges, gen) };
}

const UNIT_PER_MS: Readonly<Record<Unit, bigint>> = { millis: 1n, micros: 1000n, nanos: 1000000n };
const UNIT_SHORT: Readonly<Record<Unit, string>> = { millis: 'ms', micros: 'us', nanos: 'ns' };
const I64_MAX = 2n ** 63n - 1n;

function timestampType(unit: Unit, utc: boolean): LeafType {
  const per = UNIT_PER_MS[unit];
  const ts = (count: bigint): Cell => ({ js: count, canon: C.formatTimestamp(count, unit, utc) });
  const date = (ms: number): Cell => ({ js: new Date(ms), canon: C.formatTimestamp(BigInt(ms) * per, unit, utc) });
  const edges = [
    ts(-I64_MAX), // int64 extremes (years ±292 million for millis, 1677/2262 for nanos)
    ts(I64_MAX),
    ts(0n),
    ts(-1n),
    date(951782400123), // 2000-02-29T00:00:00.123 as a Date
  ];
  // 0001-01-01 and 9999-12-31T23:59:59.999…, outside the int64 range in nanoseconds
  if (unit !== 'nanos') edges.push(ts(-62135596800000n * per), ts(253402300799999n * per + per - 1n));
  const r = rng(unit.length * 3 + (utc ? 1 : 0));
  // milliseconds within ±127 years of the epoch, plus a sub-millisecond part
  const gen = (): Cell => ts((BigInt(r()) * 1000n + BigInt(r() % 1000) - 2147483648000n) * per + BigInt(r()) % per);
  return { name: `ts_${UNIT_SHORT[unit]}_${utc ? 'utc' : 'local'}`, spec: { type: 'timestamp', unit, utc }, physical: 'INT64', values: withGen(edges, gen) };
}

function timeType(unit: Unit, utc: boolean): LeafType {
  const perDay = 86400000n * UNIT_PER_MS[unit];
  const t = (count: bigint): Cell => ({ js: unit === 'millis' ? Number(count) : count, canon: C.formatTime(count, unit) });
  const edges = [t(0n), t(perDay - 1n), t(perDay / 2n), t(1n)];
  const r = rng(unit.length * 5 + (utc ? 1 : 0));
  const gen = (): Cell => t(((BigInt(r()) << 20n) ^ BigInt(r())) % perDay);
  return { name: `time_${UNIT_SHORT[unit]}_${utc ? 'utc' : 'local'}`, spec: { type: 'time', unit, utc }, physical: unit === 'millis' ? 'INT32' : 'INT64', values: withGen(edges, gen) };
}

/** Float32 values (exact in binary32, so the canonical value is the number written). */
const F32_MAX = 3.4028234663852886e38;
/** Binary16 values. */
const F16_MAX = 65504;

function wkbPoint(x: number, y: number): Uint8Array {
  const b = new Uint8Array(21);
  const dv = new DataView(b.buffer);
  b[0] = 1;
  dv.setUint32(1, 1, true);
  dv.setFloat64(5, x, true);
  dv.setFloat64(13, y, true);
  return b;
}

function wkbLine(points: [number, number][]): Uint8Array {
  const b = new Uint8Array(9 + 16 * points.length);
  const dv = new DataView(b.buffer);
  b[0] = 1;
  dv.setUint32(1, 2, true);
  dv.setUint32(5, points.length, true);
  points.forEach(([x, y], i) => {
    dv.setFloat64(9 + 16 * i, x, true);
    dv.setFloat64(17 + 16 * i, y, true);
  });
  return b;
}

/** BSON document `{ i: <int32> }` (bsonspec.org: int32 length, element 0x10 "i\0" int32, terminator). */
function bsonDoc(i: number): Uint8Array {
  const b = new Uint8Array(12);
  const dv = new DataView(b.buffer);
  dv.setInt32(0, 12, true);
  b[4] = 0x10;
  b[5] = 0x69;
  b[6] = 0;
  dv.setInt32(7, i, true);
  b[11] = 0;
  return b;
}

function uuidBytes(r: () => number): Uint8Array {
  const b = new Uint8Array(16);
  const dv = new DataView(b.buffer);
  for (let k = 0; k < 4; k++) dv.setUint32(4 * k, r());
  return b;
}

function buildLeafTypes(): LeafType[] {
  const r = rng(12345);
  const out: LeafType[] = [];
  out.push({ name: 'bool', spec: { type: 'boolean' }, physical: 'BOOLEAN', values: withGen([same(true), same(false)], (i) => same(i % 3 === 0 || r() % 5 === 0)) });
  out.push(intType('i8', 8, true), intType('i16', 16, true), intType('i32', 32, true), intType('i64', 64, true));
  out.push(intType('u8', 8, false), intType('u16', 16, false), intType('u32', 32, false), intType('u64', 64, false));
  out.push({
    name: 'int32',
    spec: { type: 'int32' },
    physical: 'INT32',
    values: withGen([int(-2147483648), int(2147483647), int(0)], (i) => int((r() | 0) >> (i % 24))),
  });
  out.push({
    name: 'int64',
    spec: { type: 'int64' },
    physical: 'INT64',
    values: withGen([int(-(2n ** 63n)), int(I64_MAX), int(0n), { js: 9007199254740991, canon: 9007199254740991 }], (i) => int(BigInt.asIntN(64, (BigInt(r()) << 32n) | BigInt(r())) >> BigInt(i % 60))),
  });
  const f32 = (x: number) => num(Math.fround(x));
  out.push({
    name: 'float',
    spec: { type: 'float' },
    physical: 'FLOAT',
    values: withGen(
      [num(NaN), num(-Infinity), num(Infinity), num(-0), num(0), num(2 ** -149), num(2 ** -126), num(F32_MAX), num(-F32_MAX), num(1), f32(0.1)],
      (i) => f32((i % 17) / 8 - 1 + (r() % 1000) / 1024),
    ),
  });
  out.push({
    name: 'double',
    spec: { type: 'double' },
    physical: 'DOUBLE',
    values: withGen(
      [num(NaN), num(-Infinity), num(Infinity), num(-0), num(0), num(5e-324), num(2.2250738585072014e-308), num(Number.MAX_VALUE), num(-Number.MAX_VALUE), num(0.1), num(-1e-300)],
      (i) => num(i % 5 === 0 ? i : (r() / 4294967296 - 0.5) * 10 ** (i % 12)),
    ),
  });
  out.push({
    name: 'f16',
    spec: { type: 'float16' },
    physical: 'FIXED_LEN_BYTE_ARRAY',
    values: withGen(
      [num(NaN), num(-Infinity), num(Infinity), num(-0), num(0), num(2 ** -24), num(2 ** -14), num(F16_MAX), num(-F16_MAX), num(1), num(-2.5)],
      (i) => num(((r() % 2048) - 1024) / 2 ** (i % 8)),
    ),
  });
  out.push(
    decimal('dec1_0_i32', 1, 0, 'int32'),
    decimal('dec9_9_i32', 9, 9, 'int32'),
    decimal('dec9_2_i32', 9, 2, 'int32'),
    decimal('dec10_0_i64', 10, 0, 'int64'),
    decimal('dec18_3_i64', 18, 3, 'int64'),
    decimal('dec4_2_fixed', 4, 2, 'fixed'),
    decimal('dec19_4_fixed', 19, 4, 'fixed'),
    decimal('dec38_10_fixed', 38, 10, 'fixed'),
    decimal('dec20_20_fixed20', 20, 20, 'fixed', 20),
    decimal('dec1_0_bin', 1, 0, 'binary'),
    decimal('dec38_38_bin', 38, 38, 'binary'),
    decimal('dec60_12_bin', 60, 12, 'binary'),
  );
  const long = 'long '.repeat(30) + 'é';
  out.push({
    name: 'str',
    spec: { type: 'string' },
    physical: 'BYTE_ARRAY',
    values: withGen([same(''), same('a'), same('é✓😀'), same('\u0000nul'), same(long), same('𝄞 astral 🎉')], (i) => same(i % 4 === 0 ? `s${i % 5}` : `str-${r().toString(36)}${i % 3 === 0 ? 'ü😀' : ''}`)),
  });
  out.push({
    name: 'bin',
    spec: { type: 'binary' },
    physical: 'BYTE_ARRAY',
    values: withGen([bin(bytes()), bin(bytes(0)), bin(bytes(0xff, 0, 1)), bin(new Uint8Array(100).fill(0xab))], (i) => bin(Uint8Array.from(range(i % 9), () => r() & 0xff))),
  });
  out.push({
    name: 'json',
    spec: { type: 'json' },
    physical: 'BYTE_ARRAY',
    values: withGen([same('{}'), same('[]'), same('null'), same('{"k":"é😀","n":[1,2.5,null]}')], (i) => same(`{"i":${i},"r":${r() % 1000}}`)),
  });
  out.push({
    name: 'bson',
    spec: { type: 'bson' },
    physical: 'BYTE_ARRAY',
    values: withGen([bin(bytes(5, 0, 0, 0, 0)), bin(bsonDoc(-1))], (i) => bin(bsonDoc(i * 1000 + (r() % 1000)))),
  });
  out.push({
    name: 'enum',
    spec: { type: 'enum' },
    physical: 'BYTE_ARRAY',
    values: withGen([same('red'), same('green'), same('blue'), same('')], (i) => same(['red', 'green', 'blue', 'ünïcode'][(i + r()) % 4]!)),
  });
  const uuid = (b: Uint8Array): Cell => ({ js: b, canon: C.formatUuid(b) });
  const uuidStr = (s: string): Cell => ({ js: s, canon: s.toLowerCase() });
  out.push({
    name: 'uuid',
    spec: { type: 'uuid' },
    physical: 'FIXED_LEN_BYTE_ARRAY',
    values: withGen(
      [uuidStr('00000000-0000-0000-0000-000000000000'), uuidStr('FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'), uuidStr('80000000-0000-4000-8000-000000000001')],
      (i) => (i % 2 === 0 ? uuid(uuidBytes(r)) : uuidStr(C.formatUuid(uuidBytes(r)).toUpperCase())),
    ),
  });
  const day = (d: number): Cell => ({ js: d, canon: C.formatDate(d) });
  out.push({
    name: 'date',
    spec: { type: 'date' },
    physical: 'INT32',
    values: withGen([day(-719162), day(2932896), day(0), day(-1), { js: new Date(Date.UTC(2024, 1, 29, 13, 5)), canon: '2024-02-29' }], (i) => day((r() % 200000) - 100000 + i)),
  });
  for (const unit of ['millis', 'micros', 'nanos'] as const) for (const utc of [false, true]) out.push(timeType(unit, utc));
  for (const unit of ['millis', 'micros', 'nanos'] as const) for (const utc of [false, true]) out.push(timestampType(unit, utc));
  const iv = (months: number, days: number, millis: number): Cell => ({ js: { months, days, millis }, canon: { months, days, millis } });
  out.push({
    name: 'interval',
    spec: { type: 'interval' },
    physical: 'FIXED_LEN_BYTE_ARRAY',
    values: withGen([iv(0, 0, 0), iv(1, 2, 3), iv(2147483647, 2147483647, 2147483647), iv(4294967295, 4294967295, 4294967295)], () => iv(r() % 1200, r() % 400, r() % 86400000)),
  });
  const NS_DAY = 86400000000000n;
  const i96 = (ns: bigint): Cell => ({ js: ns, canon: C.formatTimestamp(ns, 'nanos', false) });
  out.push({
    name: 'int96',
    spec: { type: 'int96' },
    physical: 'INT96',
    values: withGen(
      [i96(0n), i96(-1n), i96(946684800123456789n), i96(-62135596800000000000n), i96(253402300799999999999n), i96(-NS_DAY * 2440588n), i96(-NS_DAY * 2440588n + 43200000000001n)],
      (i) => i96((BigInt(r()) * 1000000000n + BigInt(r())) * BigInt(i % 3 === 0 ? -1 : 1)),
    ),
  });
  out.push({
    name: 'fixed3',
    spec: { type: 'fixed', length: 3 },
    physical: 'FIXED_LEN_BYTE_ARRAY',
    values: withGen([bin(bytes(0, 0, 0)), bin(bytes(0xff, 0xff, 0xff)), bin(bytes(0x80, 0, 1))], (i) => bin(bytes(i % 4, r() & 0xff, r() & 0xff))),
  });
  out.push({
    name: 'geometry',
    spec: { type: 'geometry' },
    physical: 'BYTE_ARRAY',
    values: withGen([bin(wkbPoint(0, 0)), bin(wkbPoint(-180.5, 1e6)), bin(wkbLine([[1, 2], [3, 4], [-5, 6.25]]))], (i) => bin(i % 2 === 0 ? wkbPoint(i, -i / 2) : wkbLine([[i, 0], [0, i]]))),
  });
  out.push({
    name: 'geography',
    spec: { type: 'geography' },
    physical: 'BYTE_ARRAY',
    values: withGen([bin(wkbPoint(0, 0)), bin(wkbPoint(-180, -90)), bin(wkbPoint(180, 90)), bin(wkbLine([[10, 20], [30, 40]]))], (i) => bin(wkbPoint((i * 7) % 360 - 180, (i * 3) % 180 - 90))),
  });
  return out;
}

/** Every leaf type of the schema builder, with its values. */
export const LEAF_TYPES: readonly LeafType[] = buildLeafTypes();

// ---------------------------------------------------------------------------------------------------------------
// Nestings

/** Hands out a column's values in order, cycling; each `repeat` times in a row (so that a dictionary pays). */
export class Supply {
  private i = 0;
  /**
   * @param values - the values, in order.
   * @param repeat - how many times in a row each value is handed out.
   */
  constructor(
    private readonly values: readonly Cell[],
    private readonly repeat = 1,
  ) {}
  /**
   * The next value.
   * @returns it.
   */
  next(): Cell {
    const c = this.values[Math.floor(this.i / this.repeat) % this.values.length]!;
    this.i++;
    return c;
  }
}

const NULL: Cell = { js: null, canon: null };

/** A nesting of a leaf: its schema, its leaf path (under the column name), and the value of row `r`. */
export interface Nesting {
  /** Name, used in column names. */
  name: string;
  /**
   * The column's field spec around the leaf's.
   * @param leaf - the leaf's spec.
   * @returns the column's spec.
   */
  spec(leaf: FieldSpec): FieldSpec;
  /** Path of the leaf under the column, with its leading dot ('' at the top level). */
  leafPath: string;
  /**
   * The column's value in row `r`, taking leaf values from `s` (nulls and empty containers by the row number).
   * @param r - the row.
   * @param s - the leaf values.
   * @returns the value and its canonical form.
   */
  value(r: number, s: Supply): Cell;
}

const list = (cells: Cell[]): Cell => ({ js: cells.map((c) => c.js), canon: cells.map((c) => c.canon) });
const struct = (fields: Record<string, Cell>): Cell => ({
  js: Object.fromEntries(Object.entries(fields).map(([k, c]) => [k, c.js])),
  canon: Object.fromEntries(Object.entries(fields).map(([k, c]) => [k, c.canon])),
});
const map = (entries: [Cell, Cell][]): Cell => ({
  js: new Map(entries.map(([k, v]) => [k.js, v.js])),
  canon: entries.map(([k, v]) => ({ key: k.canon, value: v.canon })),
});
const key = (k: string | number): Cell => ({ js: k, canon: k });

/** The nestings, each with nulls at every optional level and empty / null containers. */
export const NESTINGS: readonly Nesting[] = [
  {
    name: 'required',
    spec: (leaf) => ({ ...leaf, required: true }),
    leafPath: '',
    value: (_r, s) => s.next(),
  },
  {
    name: 'optional',
    spec: (leaf) => leaf,
    leafPath: '',
    value: (r, s) => (r % 6 === 3 ? NULL : s.next()),
  },
  {
    name: 'struct',
    spec: (leaf) => ({ type: 'struct', fields: { v: leaf, n: { type: 'int32', required: true } } }),
    leafPath: '.v',
    value: (r, s) => (r % 6 === 3 ? NULL : struct({ v: r % 6 === 4 ? NULL : s.next(), n: key(r) })),
  },
  {
    name: 'list',
    spec: (leaf) => ({ type: 'list', element: leaf }),
    leafPath: '.list.element',
    value: (r, s) => {
      switch (r % 7) {
        case 3:
          return NULL;
        case 4:
          return list([]);
        case 5:
          return list([NULL]);
        case 0:
          return list([s.next()]);
        case 1:
          return list([s.next(), NULL, s.next()]);
        default:
          return list([s.next(), s.next(), s.next()]);
      }
    },
  },
  {
    name: 'list_struct',
    spec: (leaf) => ({ type: 'list', element: { type: 'struct', fields: { v: leaf } } }),
    leafPath: '.list.element.v',
    value: (r, s) => {
      switch (r % 6) {
        case 3:
          return NULL;
        case 4:
          return list([]);
        case 5:
          return list([NULL, struct({ v: NULL }), struct({ v: s.next() })]);
        default:
          return list([struct({ v: s.next() }), struct({ v: s.next() })]);
      }
    },
  },
  {
    name: 'map_string',
    spec: (leaf) => ({ type: 'map', key: { type: 'string' }, value: leaf }),
    leafPath: '.key_value.value',
    value: (r, s) => {
      switch (r % 6) {
        case 3:
          return NULL;
        case 4:
          return map([]);
        case 5:
          return map([[key(`k${r}`), NULL]]);
        default:
          return map([
            [key(`a${r}`), s.next()],
            [key(`é${r}`), s.next()],
          ]);
      }
    },
  },
  {
    name: 'map_int_list',
    spec: (leaf) => ({ type: 'map', key: { type: 'int32' }, value: { type: 'list', element: leaf } }),
    leafPath: '.key_value.value.list.element',
    value: (r, s) => {
      switch (r % 6) {
        case 3:
          return NULL;
        case 4:
          return map([]);
        case 5:
          return map([
            [key(r), NULL],
            [key(-r), list([])],
          ]);
        default:
          // keys not in ascending order: file order must survive
          return map([
            [key(1000 + r), list([s.next(), NULL])],
            [key(r), list([s.next()])],
          ]);
      }
    },
  },
  {
    name: 'struct_list_map',
    spec: (leaf) => ({ type: 'struct', fields: { l: { type: 'list', element: { type: 'map', key: { type: 'string' }, value: leaf } } } }),
    leafPath: '.l.list.element.key_value.value',
    value: (r, s) => {
      switch (r % 7) {
        case 2:
          return NULL;
        case 3:
          return struct({ l: NULL });
        case 4:
          return struct({ l: list([]) });
        case 5:
          return struct({ l: list([NULL, map([])]) });
        default:
          return struct({
            l: list([
              map([
                [key('x'), s.next()],
                [key('y'), NULL],
              ]),
              map([[key('z'), s.next()]]),
            ]),
          });
      }
    },
  },
  {
    name: 'list_list_required',
    spec: (leaf) => ({ type: 'list', element: { type: 'list', element: { ...leaf, required: true } } }),
    leafPath: '.list.element.list.element',
    value: (r, s) => {
      switch (r % 6) {
        case 3:
          return NULL;
        case 4:
          return list([]);
        case 5:
          return list([NULL, list([])]);
        default:
          return list([list([s.next(), s.next()]), list([s.next()])]);
      }
    },
  },
];

// ---------------------------------------------------------------------------------------------------------------
// Files

/** One top-level column of a corpus file. */
export interface CorpusColumn {
  /** Top-level column name. */
  name: string;
  /** Leaf type (a name of {@link LEAF_TYPES}). */
  type: string;
  /** Physical type of the leaf. */
  physical: PhysicalName;
  /** Nesting (a name of {@link NESTINGS}). */
  nesting: string;
  /** How the leaf is encoded. */
  encoding: CorpusEncoding;
  /** Compression of every leaf of the column. */
  codec: CompressionName;
  /** Dotted path of the leaf of `type` (map keys and struct siblings are other leaves of the column). */
  leafPath: string;
}

/** One corpus file: where it is, what it covers, and the canonical rows written. */
export interface CorpusFile {
  /** File name (without directory). */
  name: string;
  /** Absolute path. */
  file: string;
  /** What the file is for. */
  covers: string;
  /** Data page version. */
  pageVersion: 1 | 2;
  /** Rows written. */
  rows: number;
  /** Writer options besides the schema and the per-column options (page and row-group sizes, dictionary limit). */
  layout: Pick<WriterOptions, 'pageRows' | 'pageSize' | 'rowGroupRows' | 'dictionaryPageSize'>;
  /** The columns. */
  columns: CorpusColumn[];
  /** Canonical rows (tools/peers/canon.mjs form) of the values written, in column order. */
  expected: Record<string, unknown>[];
}

/** The corpus as written: one entry per file. */
export interface WriterCorpus {
  /** Directory holding the files and `manifest.json`. */
  dir: string;
  /** The files. */
  files: CorpusFile[];
}

const LAYOUTS: readonly CorpusFile['layout'][] = [
  {},
  { pageRows: 5, rowGroupRows: 16 },
  { pageRows: 7, rowGroupRows: 25, dictionaryPageSize: 64 },
];

/** Rows of each matrix file. */
export const MATRIX_ROWS = 40;

interface Plan {
  name: string;
  covers: string;
  pageVersion: 1 | 2;
  rows: number;
  layout: CorpusFile['layout'];
  columns: (CorpusColumn & { leaf: LeafType; nest: Nesting; supply: Supply })[];
}

function columnOf(leaf: LeafType, nest: Nesting, encoding: CorpusEncoding, codec: CompressionName, name: string) {
  // dictionary columns repeat each value three times: with distinct values only, the writer would (rightly) drop
  // a dictionary that does not pay, and the dictionary path would go untested
  const supply = new Supply(leaf.values, encoding === 'dict' ? 3 : 1);
  return { name, type: leaf.name, physical: leaf.physical, nesting: nest.name, encoding, codec, leafPath: `${name}${nest.leafPath}`, leaf, nest, supply };
}

/**
 * What the matrix files leave out, because a peer that meets it cannot read the rest of the file (see
 * {@link isolatedPlans}): ALP (DuckDB and parquet-wasm reject the footer's unknown encoding number), LZO
 * (parquet-wasm fails the whole file; no peer reads it) and BSON (DuckDB rejects the schema's converted type).
 */
const ISOLATED_ENCODINGS: readonly CorpusEncoding[] = ['ALP'];
const ISOLATED_TYPES: readonly string[] = ['bson'];
/** The codecs of the matrix files: every codec but LZO. */
const MATRIX_CODECS: readonly CompressionName[] = CODECS.filter((c) => c !== 'LZO');

/** The nestings of each matrix file (three per file, so that every nesting meets V1 and V2 in two files of each). */
const MATRIX_GROUPS: readonly (readonly number[])[] = [
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
];

function matrixPlans(): Plan[] {
  const plans: Plan[] = [];
  MATRIX_GROUPS.forEach((group, g) => {
    for (const v of [1, 2] as const) {
      const columns: Plan['columns'] = [];
      for (const n of group) {
        const nest = NESTINGS[n]!;
        LEAF_TYPES.forEach((leaf, t) => {
          if (ISOLATED_TYPES.includes(leaf.name)) return;
          const encs = ENCODINGS_BY_PHYSICAL[leaf.physical].filter((e) => !ISOLATED_ENCODINGS.includes(e));
          const e = (t + n + v - 1) % encs.length;
          const enc = encs[e]!;
          const codec = MATRIX_CODECS[(t + 2 * n + e + 3 * (v - 1)) % MATRIX_CODECS.length]!;
          columns.push(columnOf(leaf, nest, enc, codec, `${leaf.name}_${ENC_SHORT[enc]}_${nest.name}`));
        });
      }
      const names = group.map((n) => NESTINGS[n]!.name);
      plans.push({
        name: `matrix-${g + 1}-v${v}.parquet`,
        covers: `every leaf type (but BSON) nested as ${names.join(', ')}; data page V${v}; encodings (but ALP) and codecs (but LZO) rotating over the columns`,
        pageVersion: v,
        rows: MATRIX_ROWS,
        layout: LAYOUTS[(2 * g + v - 1) % LAYOUTS.length]!,
        columns,
      });
    }
  });
  return plans;
}

/**
 * Files of their own for what a peer cannot read without failing the whole file: ALP columns (FLOAT and DOUBLE)
 * and BSON columns, in every nesting, V1 and V2, with rotating codecs (V1 without LZO, V2 with it, so that ALP and
 * BSON meet LZO too); and LZO files where every other type meets LZO (encodings and nestings rotating).
 */
function isolatedPlans(): Plan[] {
  const plans: Plan[] = [];
  const codecsOf = (v: 1 | 2) => (v === 1 ? MATRIX_CODECS : CODECS);
  for (const v of [1, 2] as const) {
    const columns: Plan['columns'] = [];
    ['float', 'double'].forEach((name, t) => {
      NESTINGS.forEach((nest, n) => columns.push(columnOf(leafNamed(name), nest, 'ALP', codecsOf(v)[(t + n) % codecsOf(v).length]!, `${name}_${nest.name}`)));
    });
    plans.push({ name: `alp-v${v}.parquet`, covers: `ALP: FLOAT and DOUBLE in every nesting, data page V${v}, codecs rotating${v === 1 ? ' (but LZO)' : ''}`, pageVersion: v, rows: MATRIX_ROWS, layout: LAYOUTS[v]!, columns });
  }
  for (const v of [1, 2] as const) {
    const columns: Plan['columns'] = [];
    const bson = leafNamed('bson');
    NESTINGS.forEach((nest, n) => {
      const encs = ENCODINGS_BY_PHYSICAL[bson.physical];
      const e = (n + v - 1) % encs.length;
      columns.push(columnOf(bson, nest, encs[e]!, codecsOf(v)[(e + n) % codecsOf(v).length]!, `bson_${ENC_SHORT[encs[e]!]}_${nest.name}`));
    });
    plans.push({ name: `bson-v${v}.parquet`, covers: `BSON in every nesting, data page V${v}, encodings and codecs${v === 1 ? ' (but LZO)' : ''} rotating`, pageVersion: v, rows: MATRIX_ROWS, layout: LAYOUTS[v - 1]!, columns });
  }
  for (const v of [1, 2] as const) {
    const columns: Plan['columns'] = [];
    LEAF_TYPES.forEach((leaf, t) => {
      if (ISOLATED_TYPES.includes(leaf.name)) return;
      const encs = ENCODINGS_BY_PHYSICAL[leaf.physical].filter((e) => !ISOLATED_ENCODINGS.includes(e));
      const enc = encs[(t + v) % encs.length]!;
      const nest = NESTINGS[(t + 4 * v) % NESTINGS.length]!;
      columns.push(columnOf(leaf, nest, enc, 'LZO', `${leaf.name}_${ENC_SHORT[enc]}_${nest.name}`));
    });
    plans.push({ name: `lzo-v${v}.parquet`, covers: `LZO: every leaf type but BSON, encodings (but ALP) and nestings rotating, data page V${v}`, pageVersion: v, rows: MATRIX_ROWS, layout: LAYOUTS[v]!, columns });
  }
  return plans;
}

/** Types of the dictionary-fallback files: one per physical type that has dictionary encoding. */
const FALLBACK_TYPES = ['i32', 'int64', 'double', 'float', 'str', 'bin', 'dec38_10_fixed', 'uuid', 'int96', 'dec60_12_bin', 'ts_ns_utc'];

function leafNamed(name: string): LeafType {
  const l = LEAF_TYPES.find((x) => x.name === name);
  if (!l) throw new ParquetError('UNKNOWN_COLUMN', `writer-corpus: no leaf type named '${name}'`);
  return l;
}

/** Values that repeat for the first `repeated` values, then are all distinct (the dictionary pays, then overflows). */
class FallbackSupply extends Supply {
  private k = 0;
  constructor(
    private readonly distinct: readonly Cell[],
    private readonly repeated: number,
  ) {
    super(distinct);
  }
  override next(): Cell {
    const i = this.k++;
    return this.distinct[i < this.repeated ? i % 3 : i - this.repeated + 3]!;
  }
}

/** Distinct values of a leaf type, enough for `n` rows (the edges and generated values, then more from a mix). */
function distinctValues(leaf: LeafType, n: number): Cell[] {
  const seen = new Set<string>();
  const out: Cell[] = [];
  const add = (c: Cell) => {
    const k = JSON.stringify(c.canon);
    if (!seen.has(k) && k !== '"NaN"') {
      seen.add(k);
      out.push(c);
    }
  };
  for (const c of leaf.values) add(c);
  const r = rng(leaf.name.length * 977);
  for (let i = 0; out.length < n && i < n * 4; i++) add(extraValue(leaf, i, r));
  if (out.length < n) throw new ParquetError('INVALID_ARGUMENT', `writer-corpus: only ${out.length} distinct values of ${leaf.name}, ${n} needed`);
  return out;
}

/** More values of a leaf type (for the large files), computed like its generated values. */
function extraValue(leaf: LeafType, i: number, r: () => number): Cell {
  switch (leaf.name) {
    case 'i32':
    case 'int32':
      return int(r() | 0);
    case 'int64':
      return int(BigInt.asIntN(64, (BigInt(r()) << 32n) | BigInt(r())));
    case 'double':
      return num((r() / 4294967296 - 0.5) * 1e6 + i);
    case 'float':
      return num(Math.fround((r() % 100000) / 64 - 700));
    case 'str':
      return same(`fallback-${i}-${r().toString(36)}-é`);
    case 'bin':
      return bin(Uint8Array.from(range(4 + (i % 7)), () => r() & 0xff));
    case 'dec38_10_fixed': {
      const u = ((BigInt(r()) << 64n) | (BigInt(r()) << 32n) | BigInt(r())) * (i % 2 ? -1n : 1n);
      return { js: C.formatDecimal(u, 10), canon: C.formatDecimal(u, 10) };
    }
    case 'dec60_12_bin': {
      const u = ((BigInt(r()) << 96n) | (BigInt(r()) << 40n) | BigInt(r())) * (i % 2 ? -1n : 1n);
      return { js: C.formatDecimal(u, 12), canon: C.formatDecimal(u, 12) };
    }
    case 'uuid': {
      const b = uuidBytes(r);
      return { js: b, canon: C.formatUuid(b) };
    }
    case 'int96': {
      const ns = BigInt(r()) * 1000000000n + BigInt(i);
      return { js: ns, canon: C.formatTimestamp(ns, 'nanos', false) };
    }
    case 'ts_ns_utc': {
      const ns = BigInt(r()) * 1000000000n + BigInt(r());
      return { js: ns, canon: C.formatTimestamp(ns, 'nanos', true) };
    }
    default:
      throw new ParquetError('INVALID_ARGUMENT', `writer-corpus: no extra values for ${leaf.name}`);
  }
}

function structurePlans(): Plan[] {
  const plans: Plan[] = [];
  const top = NESTINGS.find((x) => x.name === 'optional')!;
  const listN = NESTINGS.find((x) => x.name === 'list')!;
  const FALLBACK_ROWS = 600;
  for (const v of [1, 2] as const) {
    const columns: Plan['columns'] = [];
    FALLBACK_TYPES.forEach((name, t) => {
      const leaf = leafNamed(name);
      [top, listN].forEach((nest, k) => {
        const c = columnOf(leaf, nest, 'dict', MATRIX_CODECS[(t + k + v) % MATRIX_CODECS.length]!, `${name}_${nest.name}`);
        columns.push({ ...c, supply: new FallbackSupply(distinctValues(leaf, FALLBACK_ROWS * 3), 150) });
      });
    });
    plans.push({
      name: `dict-fallback-v${v}.parquet`,
      covers: 'dictionary pages first (repeating values), then distinct values pass the 1 KiB dictionary limit: the chunk falls back to PLAIN mid-chunk',
      pageVersion: v,
      rows: FALLBACK_ROWS,
      layout: { pageRows: 50, dictionaryPageSize: 1024 },
      columns,
    });
  }
  {
    const names = ['i64', 'double', 'str', 'dec18_3_i64', 'ts_us_utc', 'bool', 'uuid'];
    const columns: Plan['columns'] = [];
    names.forEach((name, t) => {
      const leaf = leafNamed(name);
      const encs = ENCODINGS_BY_PHYSICAL[leaf.physical];
      [top, listN].forEach((nest, k) => columns.push(columnOf(leaf, nest, encs[(t + k) % encs.length]!, MATRIX_CODECS[(t + k) % MATRIX_CODECS.length]!, `${name}_${nest.name}`)));
    });
    plans.push({
      name: 'pages-by-bytes-v2.parquet',
      covers: '3,000 rows: pages cut by a 2 KiB byte limit, row groups of 1,000 rows, V2 pages',
      pageVersion: 2,
      rows: 3000,
      layout: { pageSize: 2048, rowGroupRows: 1000 },
      columns,
    });
  }
  {
    const columns: Plan['columns'] = [];
    LEAF_TYPES.forEach((leaf, t) => {
      if (ISOLATED_TYPES.includes(leaf.name)) return;
      columns.push(columnOf(leaf, top, ENCODINGS_BY_PHYSICAL[leaf.physical][0]!, MATRIX_CODECS[t % MATRIX_CODECS.length]!, leaf.name));
      const nest = NESTINGS[2 + (t % (NESTINGS.length - 2))]!;
      columns.push(columnOf(leaf, nest, ENCODINGS_BY_PHYSICAL[leaf.physical][1]!, MATRIX_CODECS[(t + 3) % MATRIX_CODECS.length]!, `${leaf.name}_${nest.name}`));
    });
    plans.push({ name: 'zero-rows.parquet', covers: 'a file of zero rows: every leaf type but BSON at the top level and in one nesting', pageVersion: 1, rows: 0, layout: {}, columns });
  }
  return plans;
}

function columnOptions(c: CorpusColumn): Record<string, ColumnOptions> {
  const leaf: ColumnOptions = c.encoding === 'dict' ? { dictionary: true, encoding: 'PLAIN' } : { dictionary: false, encoding: c.encoding as EncodingName };
  if (c.leafPath === c.name) return { [c.name]: { compression: c.codec, ...leaf } };
  return { [c.name]: { compression: c.codec }, [c.leafPath]: leaf };
}

function materialise(p: Plan): Omit<CorpusFile, 'file'> & { rowsJs: Record<string, unknown>[]; options: WriterOptions } {
  const rowsJs: Record<string, unknown>[] = [];
  const expected: Record<string, unknown>[] = [];
  for (let r = 0; r < p.rows; r++) {
    const js: Record<string, unknown> = {};
    const canon: Record<string, unknown> = {};
    for (const c of p.columns) {
      const cell = c.nest.value(r, c.supply);
      js[c.name] = cell.js;
      canon[c.name] = cell.canon;
    }
    rowsJs.push(js);
    expected.push(canon);
  }
  const schema: Record<string, FieldSpec> = {};
  const columns: Record<string, ColumnOptions> = {};
  for (const c of p.columns) {
    schema[c.name] = c.nest.spec(c.leaf.spec);
    Object.assign(columns, columnOptions(c));
  }
  const options: WriterOptions = { schema, columns, pageVersion: p.pageVersion, ...p.layout };
  return {
    name: p.name,
    covers: p.covers,
    pageVersion: p.pageVersion,
    rows: p.rows,
    layout: p.layout,
    columns: p.columns.map(({ leaf: _l, nest: _n, supply: _s, ...c }) => c),
    expected,
    rowsJs,
    options,
  };
}

/**
 * Writes the corpus with Parquetry's writer into `dir` (created if needed), plus `manifest.json` (every file, what
 * it covers, its layout and its columns with type, nesting, encoding and codec; without the values).
 * @param dir - the output directory.
 * @param codecs - the codecs to write with (GZIP, ZSTD and BROTLI are not built in: pass `allCodecs()` of the
 *   `parquetry` package).
 * @returns the corpus: every file with its expected canonical rows.
 * @throws ParquetError from the writer (`INVALID_VALUE`, `INVALID_SCHEMA`, `CODEC_UNAVAILABLE`, …) when it rejects a
 *   planned file — which would be a writer bug, the plan being valid by construction.
 */
export async function generateWriterCorpus(dir: string, codecs: CodecMap): Promise<WriterCorpus> {
  fs.mkdirSync(dir, { recursive: true });
  const files: CorpusFile[] = [];
  for (const p of [...matrixPlans(), ...isolatedPlans(), ...structurePlans()]) {
    const m = materialise(p);
    const file = path.join(dir, m.name);
    const bytes = await writeParquet(m.rowsJs, { ...m.options, codecs });
    fs.writeFileSync(file, bytes);
    files.push({ name: m.name, file, covers: m.covers, pageVersion: m.pageVersion, rows: m.rows, layout: m.layout, columns: m.columns, expected: m.expected });
  }
  const manifest = files.map(({ expected: _e, file: _f, ...rest }) => rest);
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ files: manifest }, null, 1));
  return { dir, files };
}

/** The dimensions whose pairwise coverage {@link coveragePairs} reports. */
export type Dimension = 'type' | 'nesting' | 'encoding' | 'codec' | 'version';

/**
 * The pairs of values of two dimensions that the corpus holds in one column (e.g. type × codec: `i32|ZSTD`), and
 * the pairs it should hold (every combination, encodings restricted to the ones the type's physical type takes).
 * @param files - the corpus files (their columns).
 * @param a - first dimension.
 * @param b - second dimension.
 * @returns `present` and `required` pair sets (`"<a>|<b>"`).
 */
export function coveragePairs(files: readonly Pick<CorpusFile, 'columns' | 'pageVersion'>[], a: Dimension, b: Dimension): { present: Set<string>; required: Set<string> } {
  const valueOf = (c: CorpusColumn, v: 1 | 2, d: Dimension): string =>
    d === 'type' ? c.type : d === 'nesting' ? c.nesting : d === 'encoding' ? c.encoding : d === 'codec' ? c.codec : `V${v}`;
  const present = new Set<string>();
  for (const f of files) for (const c of f.columns) present.add(`${valueOf(c, f.pageVersion, a)}|${valueOf(c, f.pageVersion, b)}`);
  const all = (d: Dimension): string[] =>
    d === 'type'
      ? LEAF_TYPES.map((l) => l.name)
      : d === 'nesting'
        ? NESTINGS.map((x) => x.name)
        : d === 'encoding'
          ? [...new Set(Object.values(ENCODINGS_BY_PHYSICAL).flat())]
          : d === 'codec'
            ? [...CODECS]
            : ['V1', 'V2'];
  const required = new Set<string>();
  for (const x of all(a))
    for (const y of all(b)) {
      const t = a === 'type' ? x : b === 'type' ? y : undefined;
      const e = a === 'encoding' ? x : b === 'encoding' ? y : undefined;
      if (t !== undefined && e !== undefined && !ENCODINGS_BY_PHYSICAL[leafNamed(t).physical].includes(e as CorpusEncoding)) continue;
      required.add(`${x}|${y}`);
    }
  return { present, required };
}
