/**
 * Write-side statistics against a naive model: for each physical type and sort order, random values split into
 * random pages (each with its own builder, merged into the chunk's) give the min/max a plain sort finds (BigInt and
 * byte-wise comparisons written out here, independent of the builder's word and in-place comparisons), with the
 * NaN/±0 rules, null and NaN counts, the deprecated fields, truncation, and the read side's decoding of the result.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { buildSchemaTree, type ColumnDescriptor } from '@parquetry/parquet-levels';
import type { ColumnValues } from '@parquetry/parquet-encodings';
import { ConvertedType, FieldRepetitionType, Type, type ColumnMetaData, type FileMetaData, type LogicalType, type SchemaElement, type Statistics } from '@parquetry/thrift-compact';
import { StatisticsBuilder, truncateLowerBound, truncateUpperBound } from '../src/statistics-builder.js';
import { columnOrderOf, sortOrderOf, type SortOrder } from '../src/sort-order.js';
import { columnStatistics } from '../src/statistics.js';
import { convertValues } from '../src/convert.js';
import { typedError } from './helpers.js';

function leaf(type: Type, extra: Partial<SchemaElement> = {}): ColumnDescriptor {
  const tree = buildSchemaTree([
    { name: 'root', num_children: 1 },
    { name: 'v', type, repetition_type: FieldRepetitionType.OPTIONAL, ...extra },
  ]);
  return tree.columns[0]!;
}
const logical = (type: Type, logicalType: LogicalType, extra: Partial<SchemaElement> = {}) => leaf(type, { logicalType, ...extra });

// ---------- naive models ----------

/** Byte-wise unsigned comparison, the plain way. */
function bytesCmp(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
/** Big-endian two's complement → BigInt. */
function beSigned(b: Uint8Array): bigint {
  let x = 0n;
  for (const v of b) x = (x << 8n) | BigInt(v);
  if (b.length > 0 && b[0]! & 0x80) x -= 1n << BigInt(8 * b.length);
  return x;
}
/** IEEE half (bits) → number, from the formula. */
function halfValue(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return sign * f * 2 ** -24;
  if (e === 31) return f ? NaN : sign * Infinity;
  return sign * (1 + f / 1024) * 2 ** (e - 15);
}
const cmpNum = (a: number | bigint, b: number | bigint) => (a < b ? -1 : a > b ? 1 : 0);
const le = (n: number, f: (v: DataView) => void) => {
  const out = new Uint8Array(n);
  f(new DataView(out.buffer));
  return out;
};

/** One column kind of the model: how to generate values, lay them out, order them and encode a bound. */
interface Case<T> {
  name: string;
  column: ColumnDescriptor;
  order: SortOrder;
  arb: fc.Arbitrary<T>;
  /** The values with `lead` junk values in front (so that `start` is not 0, and byte offsets do not start at 0). */
  form(values: T[], lead: number): ColumnValues;
  /** Numeric/byte key of the model order (NaN for values that are no bound). */
  key(v: T): number | bigint | Uint8Array;
  /** Expected PLAIN bytes of a bound. */
  encode(v: T): Uint8Array;
  float?: boolean;
  /** Whether the deprecated min/max are written. */
  legacy: boolean;
}

function keyCmp(a: number | bigint | Uint8Array, b: number | bigint | Uint8Array): number {
  return a instanceof Uint8Array ? bytesCmp(a, b as Uint8Array) : cmpNum(a, b as number | bigint);
}
const isNaNKey = (k: number | bigint | Uint8Array) => typeof k === 'number' && Number.isNaN(k);

const i32 = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(-(2 ** 31), 2 ** 31 - 1, -1, 0, 1));
const i64 = fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n, -1n, 0n, 1n, 2n ** 32n, -(2n ** 32n), 2n ** 32n - 1n));
const f32 = fc.oneof(fc.float(), fc.constantFrom(NaN, -0, 0, Infinity, -Infinity));
const f64 = fc.oneof(fc.double(), fc.constantFrom(NaN, -0, 0, Infinity, -Infinity));
const half = fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x3c00, 0xbc00, 0x0001, 0x8001));
const smallBytes = fc.oneof(
  fc.uint8Array({ maxLength: 6 }),
  fc.array(fc.constantFrom(0, 1, 0x7f, 0x80, 0xfe, 0xff), { maxLength: 5 }).map((a) => Uint8Array.from(a)),
);
const enc = new TextEncoder();
const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ unit: fc.constantFrom('a', 'b', '\u007f', '\u0080', 'é', '\ud7ff', '\ue000', '\uffff', '😀', '\u{10ffff}'), maxLength: 6 }));

function byteArrays(values: Uint8Array[], lead: number): ColumnValues {
  const all = [...Array.from({ length: lead }, (_, i) => Uint8Array.of(0xff, i)), ...values];
  const offsets = new Int32Array(all.length + 1);
  const data = new Uint8Array(3 + all.reduce((a, v) => a + v.length, 0));
  let at = 3; // offsets need not start at 0
  offsets[0] = at;
  all.forEach((v, i) => {
    data.set(v, at);
    at += v.length;
    offsets[i + 1] = at;
  });
  return { offsets, data };
}
function fixed(values: Uint8Array[], lead: number, width: number): ColumnValues {
  const data = new Uint8Array((values.length + lead) * width).fill(0x5a);
  values.forEach((v, i) => data.set(v, (lead + i) * width));
  return { width, data };
}
const pad = <T>(values: T[], lead: number, junk: T) => [...Array.from({ length: lead }, () => junk), ...values];

const int32Case = (name: string, column: ColumnDescriptor, unsigned: boolean): Case<number> => ({
  name,
  column,
  order: unsigned ? 'unsigned' : 'signed',
  arb: i32,
  form: (v, lead) => Int32Array.from(pad(v, lead, 12345)),
  key: (v) => (unsigned ? BigInt(v >>> 0) : BigInt(v)),
  encode: (v) => le(4, (d) => d.setInt32(0, v, true)),
  legacy: !unsigned,
});
const int64Case = (name: string, column: ColumnDescriptor, unsigned: boolean): Case<bigint> => ({
  name,
  column,
  order: unsigned ? 'unsigned' : 'signed',
  arb: i64,
  form: (v, lead) => BigInt64Array.from(pad(v, lead, 77n)),
  key: (v) => (unsigned ? BigInt.asUintN(64, v) : v),
  encode: (v) => le(8, (d) => d.setBigInt64(0, v, true)),
  legacy: !unsigned,
});

const CASES: Case<any>[] = [
  {
    name: 'BOOLEAN',
    column: leaf(Type.BOOLEAN),
    order: 'boolean',
    arb: fc.constantFrom(0, 1),
    form: (v: number[], lead) => Uint8Array.from(pad(v, lead, 1)),
    key: (v: number) => v,
    encode: (v: number) => Uint8Array.of(v),
    legacy: true,
  } satisfies Case<number>,
  int32Case('INT32', leaf(Type.INT32), false),
  int32Case('INT32 DATE', logical(Type.INT32, { DATE: {} }), false),
  int32Case('INT32 DECIMAL(9,2)', logical(Type.INT32, { DECIMAL: { scale: 2, precision: 9 } }, { scale: 2, precision: 9 }), false),
  int32Case('INT32 UINT_32', leaf(Type.INT32, { converted_type: ConvertedType.UINT_32 }), true),
  int32Case('INT32 INTEGER(8, unsigned)', logical(Type.INT32, { INTEGER: { bitWidth: 32, isSigned: false } }), true),
  int64Case('INT64', leaf(Type.INT64), false),
  int64Case('INT64 TIMESTAMP', logical(Type.INT64, { TIMESTAMP: { isAdjustedToUTC: true, unit: { MICROS: {} } } }), false),
  int64Case('INT64 UINT_64', leaf(Type.INT64, { converted_type: ConvertedType.UINT_64 }), true),
  {
    name: 'FLOAT',
    column: leaf(Type.FLOAT),
    order: 'float',
    arb: f32,
    form: (v: number[], lead) => Float32Array.from(pad(v, lead, NaN)),
    key: (v: number) => v,
    encode: (v: number) => le(4, (d) => d.setFloat32(0, v, true)),
    float: true,
    legacy: true,
  } satisfies Case<number>,
  {
    name: 'DOUBLE',
    column: leaf(Type.DOUBLE),
    order: 'float',
    arb: f64,
    form: (v: number[], lead) => Float64Array.from(pad(v, lead, -Infinity)),
    key: (v: number) => v,
    encode: (v: number) => le(8, (d) => d.setFloat64(0, v, true)),
    float: true,
    legacy: true,
  } satisfies Case<number>,
  {
    name: 'FLOAT16',
    column: logical(Type.FIXED_LEN_BYTE_ARRAY, { FLOAT16: {} }, { type_length: 2 }),
    order: 'float16',
    arb: half,
    form: (v: number[], lead) => fixed(v.map((h) => Uint8Array.of(h & 0xff, h >> 8)), lead, 2),
    key: (h: number) => halfValue(h),
    encode: (h: number) => Uint8Array.of(h & 0xff, h >> 8),
    float: true,
    legacy: false,
  } satisfies Case<number>,
  {
    name: 'BYTE_ARRAY',
    column: leaf(Type.BYTE_ARRAY),
    order: 'unsigned',
    arb: smallBytes,
    form: (v: Uint8Array[], lead) => byteArrays(v, lead),
    key: (v: Uint8Array) => v,
    encode: (v: Uint8Array) => v,
    legacy: false,
  } satisfies Case<Uint8Array>,
  {
    name: 'BYTE_ARRAY STRING',
    column: logical(Type.BYTE_ARRAY, { STRING: {} }),
    order: 'unsigned',
    arb: text.map((s) => enc.encode(s)),
    form: (v: Uint8Array[], lead) => byteArrays(v, lead),
    key: (v: Uint8Array) => v,
    encode: (v: Uint8Array) => v,
    legacy: false,
  } satisfies Case<Uint8Array>,
  {
    name: 'BYTE_ARRAY DECIMAL',
    column: logical(Type.BYTE_ARRAY, { DECIMAL: { scale: 3, precision: 20 } }, { scale: 3, precision: 20 }),
    order: 'decimal-bytes',
    arb: fc.oneof(fc.uint8Array({ minLength: 1, maxLength: 5 }), fc.constantFrom(Uint8Array.of(0), Uint8Array.of(0xff), Uint8Array.of(0xff, 0xff), Uint8Array.of(0, 0x80), Uint8Array.of(0x80), Uint8Array.of(0x7f, 0xff))),
    form: (v: Uint8Array[], lead) => byteArrays(v, lead),
    key: (v: Uint8Array) => beSigned(v),
    encode: (v: Uint8Array) => v,
    legacy: false,
  } satisfies Case<Uint8Array>,
  {
    name: 'FIXED_LEN_BYTE_ARRAY(3)',
    column: leaf(Type.FIXED_LEN_BYTE_ARRAY, { type_length: 3 }),
    order: 'unsigned',
    arb: fc.uint8Array({ minLength: 3, maxLength: 3 }),
    form: (v: Uint8Array[], lead) => fixed(v, lead, 3),
    key: (v: Uint8Array) => v,
    encode: (v: Uint8Array) => v,
    legacy: false,
  } satisfies Case<Uint8Array>,
  {
    name: 'FIXED_LEN_BYTE_ARRAY(4) DECIMAL',
    column: logical(Type.FIXED_LEN_BYTE_ARRAY, { DECIMAL: { scale: 0, precision: 9 } }, { type_length: 4, scale: 0, precision: 9 }),
    order: 'decimal-bytes',
    arb: fc.uint8Array({ minLength: 4, maxLength: 4 }),
    form: (v: Uint8Array[], lead) => fixed(v, lead, 4),
    key: (v: Uint8Array) => beSigned(v),
    encode: (v: Uint8Array) => v,
    legacy: false,
  } satisfies Case<Uint8Array>,
];

/** The model's statistics of `values` with `nulls` nulls. */
function model<T>(c: Case<T>, values: T[], nulls: number): { stats: Statistics; min?: T; max?: T } {
  const stats: Statistics = { null_count: nulls };
  const keyed = values.map((v) => ({ v, k: c.key(v) }));
  const nans = keyed.filter((x) => isNaNKey(x.k)).length;
  if (c.float) stats.nan_count = nans;
  const sorted = keyed.filter((x) => !isNaNKey(x.k)).sort((a, b) => keyCmp(a.k, b.k));
  if (sorted.length === 0) return { stats };
  let min = sorted[0]!.v;
  let max = sorted[sorted.length - 1]!.v;
  // zero rule: a zero min is -0, a zero max is +0
  if (c.float && c.key(min) === 0) min = (c.order === 'float16' ? 0x8000 : -0) as T;
  if (c.float && c.key(max) === 0) max = 0 as T;
  stats.max_value = c.encode(max);
  stats.min_value = c.encode(min);
  stats.is_max_value_exact = true;
  stats.is_min_value_exact = true;
  if (c.legacy) {
    stats.max = stats.max_value;
    stats.min = stats.min_value;
  }
  return { stats, min, max };
}

/** Compares builder output with the model; decimals compare by value (equal values may have several encodings). */
function expectStats<T>(c: Case<T>, got: Statistics, want: Statistics): void {
  if (c.order === 'decimal-bytes' && want.min_value && want.max_value && got.min_value && got.max_value) {
    expect(beSigned(got.min_value)).toBe(beSigned(want.min_value));
    expect(beSigned(got.max_value)).toBe(beSigned(want.max_value));
    got = { ...got, min_value: want.min_value, max_value: want.max_value };
  }
  expect(got).toEqual(want);
}

const fileMeta = (column: ColumnDescriptor): FileMetaData => ({ version: 2, schema: [], num_rows: 0, row_groups: [], column_orders: [columnOrderOf(column)] });
const chunkMeta = (column: ColumnDescriptor, statistics: Statistics, numValues: number): ColumnMetaData => ({
  type: column.type,
  encodings: [],
  path_in_schema: [...column.path],
  codec: 0,
  num_values: numValues,
  total_uncompressed_size: 0,
  total_compressed_size: 0,
  data_page_offset: 0,
  statistics,
});

describe('StatisticsBuilder against the naive model', () => {
  for (const c of CASES) {
    test(`${c.name}: random pages merged = one sort of all values; read side agrees`, () => {
      expect(sortOrderOf(c.column)).toBe(c.order);
      const page = new StatisticsBuilder(c.column, { truncateLength: Infinity });
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.array(c.arb, { maxLength: 12 }), fc.nat(3), fc.nat(2)), { maxLength: 5 }),
          (pages) => {
            const chunk = new StatisticsBuilder(c.column, { truncateLength: Infinity });
            const all: unknown[] = [];
            let nulls = 0;
            for (const [values, n, lead] of pages) {
              page.reset();
              page.update(c.form(values, lead), lead, lead + values.length);
              page.addNulls(n);
              // each page on its own matches the model
              expectStats(c, page.toThrift(), model(c, values, n).stats);
              chunk.merge(page);
              all.push(...values);
              nulls += n;
            }
            const m = model(c, all as never[], nulls);
            const got = chunk.toThrift();
            expectStats(c, got, m.stats);
            expect(chunk.nullCount).toBe(nulls);
            expect(chunk.valueCount).toBe(all.length);
            // the read side decodes the same bounds the model finds
            const read = columnStatistics(fileMeta(c.column), c.column, chunkMeta(c.column, got, all.length + nulls));
            if (m.min === undefined) {
              expect(read?.min).toBeUndefined();
              expect(read?.max).toBeUndefined();
            } else {
              expect(read?.min).toEqual(convertValues(c.form([m.min, m.max!], 0), c.column)[0]);
              expect(read?.max).toEqual(convertValues(c.form([m.min, m.max!], 0), c.column)[1]);
              expect(read?.minExact && read.maxExact).toBe(true);
            }
            expect(read?.nullCount).toBe(nulls);
          },
        ),
        { numRuns: 150 },
      );
    });
  }
});

describe('StatisticsBuilder: NaN and signed zeros (TYPE_ORDER rules)', () => {
  const dbl = leaf(Type.DOUBLE);
  const f = (v: Uint8Array | undefined) => (v ? new DataView(v.buffer, v.byteOffset).getFloat64(0, true) : undefined);
  test('NaN is counted, never a bound; zeros become -0 (min) and +0 (max)', () => {
    const b = new StatisticsBuilder(dbl);
    b.update(Float64Array.of(NaN, 3, -0, NaN, 0), 0, 5);
    const s = b.toThrift();
    expect(s.nan_count).toBe(2);
    expect(Object.is(f(s.min_value), -0)).toBe(true);
    expect(f(s.max_value)).toBe(3);
    b.reset();
    b.update(Float64Array.of(0), 0, 1); // only +0: min written as -0
    expect(Object.is(f(b.toThrift().min_value), -0)).toBe(true);
    expect(Object.is(f(b.toThrift().max_value), 0)).toBe(true);
    b.reset();
    b.update(Float64Array.of(-0, -5), 0, 2); // max -0 written as +0
    expect(Object.is(f(b.maxBytes()), 0)).toBe(true);
    expect(f(b.minBytes())).toBe(-5);
  });
  test('an all-NaN page has no bounds, and does not hide the bounds of other pages', () => {
    const page = new StatisticsBuilder(dbl);
    page.update(Float64Array.of(NaN, NaN), 0, 2);
    page.addNulls(1);
    expect(page.allNaN).toBe(true);
    expect(page.toThrift()).toEqual({ null_count: 1, nan_count: 2 });
    expect(page.minBytes()).toBeUndefined();
    const chunk = new StatisticsBuilder(dbl);
    chunk.merge(page);
    const other = new StatisticsBuilder(dbl);
    other.update(Float64Array.of(Infinity, -Infinity), 0, 2);
    chunk.merge(other);
    expect(chunk.allNaN).toBe(false);
    const s = chunk.toThrift();
    expect([f(s.min_value), f(s.max_value), s.nan_count, s.null_count]).toEqual([-Infinity, Infinity, 2, 1]);
  });
  test('all-null pages: null_count (and nan_count 0 for floats) only', () => {
    for (const t of [Type.DOUBLE, Type.FLOAT, Type.INT32, Type.BYTE_ARRAY, Type.INT96]) {
      const b = new StatisticsBuilder(leaf(t));
      b.addNulls(7);
      expect(b.toThrift()).toEqual(t === Type.DOUBLE || t === Type.FLOAT ? { null_count: 7, nan_count: 0 } : { null_count: 7 });
      expect(b.allNaN).toBe(false);
    }
  });
  test('FLOAT16: NaN of any payload skipped, zeros normalised, infinities kept', () => {
    const b = new StatisticsBuilder(logical(Type.FIXED_LEN_BYTE_ARRAY, { FLOAT16: {} }, { type_length: 2 }));
    const halves = [0x7e00, 0x0000, 0xfe01, 0x3c00]; // NaN, +0, -NaN, 1
    b.update({ width: 2, data: Uint8Array.from(halves.flatMap((h) => [h & 0xff, h >> 8])) }, 0, 4);
    expect(b.toThrift()).toEqual({ null_count: 0, nan_count: 2, min_value: Uint8Array.of(0x00, 0x80), max_value: Uint8Array.of(0x00, 0x3c), is_min_value_exact: true, is_max_value_exact: true });
    b.reset();
    b.update({ width: 2, data: Uint8Array.of(0x00, 0xfc, 0x00, 0x80) }, 0, 2); // -Inf, -0
    expect([b.minBytes(), b.maxBytes()]).toEqual([Uint8Array.of(0x00, 0xfc), Uint8Array.of(0x00, 0x00)]);
  });
});

describe('StatisticsBuilder: columns without an order', () => {
  test('INT96, INTERVAL, GEOMETRY, UNKNOWN, VARIANT-like annotations: no min/max, counts only', () => {
    const cols = [
      leaf(Type.INT96),
      leaf(Type.FIXED_LEN_BYTE_ARRAY, { type_length: 12, converted_type: ConvertedType.INTERVAL }),
      logical(Type.BYTE_ARRAY, { GEOMETRY: {} }),
      logical(Type.BYTE_ARRAY, { GEOGRAPHY: {} }),
      logical(Type.INT32, { UNKNOWN: {} }),
      logical(Type.INT32, { STRING: {} }), // not allowed on INT32
    ];
    for (const col of cols) {
      expect(sortOrderOf(col)).toBe('undefined');
      const b = new StatisticsBuilder(col);
      const values: ColumnValues = col.type === Type.INT32 ? Int32Array.of(1, 2) : col.type === Type.BYTE_ARRAY ? { offsets: Int32Array.of(0, 1, 2), data: Uint8Array.of(1, 2) } : { width: 12, data: new Uint8Array(24) };
      b.update(values, 0, 2);
      b.addNulls(1);
      expect(b.toThrift()).toEqual({ null_count: 1 });
      expect(b.valueCount).toBe(2);
      expect(b.minBytes()).toBeUndefined();
    }
  });
});

describe('sortOrderOf / columnOrderOf', () => {
  test('every logical type on its physical types', () => {
    const table: [ColumnDescriptor, SortOrder][] = [
      [leaf(Type.BOOLEAN), 'boolean'],
      [leaf(Type.INT32, { converted_type: ConvertedType.INT_8 }), 'signed'],
      [leaf(Type.INT32, { converted_type: ConvertedType.UINT_8 }), 'unsigned'],
      [leaf(Type.INT64, { converted_type: ConvertedType.TIMESTAMP_MILLIS }), 'signed'],
      [logical(Type.INT64, { TIME: { isAdjustedToUTC: false, unit: { NANOS: {} } } }), 'signed'],
      [logical(Type.INT64, { DECIMAL: { scale: 2, precision: 18 } }), 'signed'],
      [leaf(Type.FIXED_LEN_BYTE_ARRAY, { type_length: 8, converted_type: ConvertedType.DECIMAL, precision: 10, scale: 2 }), 'decimal-bytes'],
      [leaf(Type.BYTE_ARRAY, { converted_type: ConvertedType.DECIMAL }), 'decimal-bytes'], // precision missing: still a decimal
      [leaf(Type.BYTE_ARRAY, { converted_type: ConvertedType.UTF8 }), 'unsigned'],
      [logical(Type.BYTE_ARRAY, { ENUM: {} }), 'unsigned'],
      [logical(Type.BYTE_ARRAY, { JSON: {} }), 'unsigned'],
      [logical(Type.BYTE_ARRAY, { BSON: {} }), 'unsigned'],
      [logical(Type.FIXED_LEN_BYTE_ARRAY, { UUID: {} }, { type_length: 16 }), 'unsigned'],
      [logical(Type.FIXED_LEN_BYTE_ARRAY, { FLOAT16: {} }, { type_length: 2 }), 'float16'],
      [logical(Type.FIXED_LEN_BYTE_ARRAY, { FLOAT16: {} }, { type_length: 4 }), 'undefined'],
      [leaf(Type.FLOAT), 'float'],
      [leaf(Type.DOUBLE), 'float'],
      [leaf(Type.INT96), 'undefined'],
      [logical(Type.BYTE_ARRAY, { VARIANT: {} } as LogicalType), 'undefined'],
    ];
    for (const [col, order] of table) expect([col.node.element, sortOrderOf(col)]).toEqual([col.node.element, order]);
  });
  test('TYPE_ORDER for every column', () => {
    expect(columnOrderOf(leaf(Type.DOUBLE))).toEqual({ TYPE_ORDER: {} });
    expect(columnOrderOf(leaf(Type.INT96))).toEqual({ TYPE_ORDER: {} });
  });
});

// ---------- truncation ----------

const str = logical(Type.BYTE_ARRAY, { STRING: {} });
const bin = leaf(Type.BYTE_ARRAY);
function statsOf(column: ColumnDescriptor, values: Uint8Array[], truncateLength?: number): Statistics {
  const b = new StatisticsBuilder(column, truncateLength === undefined ? {} : { truncateLength });
  b.update(byteArrays(values, 0), 0, values.length);
  return b.toThrift();
}
const utf8 = new TextDecoder('utf-8', { fatal: true });
const u = (s: string) => enc.encode(s);

describe('truncation of BYTE_ARRAY bounds (default 64 bytes)', () => {
  test('ASCII 100 bytes: min is its 64-byte prefix, max the prefix with its last byte incremented', () => {
    const v = u('a'.repeat(100));
    const s = statsOf(str, [v]);
    expect(utf8.decode(s.min_value)).toBe('a'.repeat(64));
    expect(utf8.decode(s.max_value)).toBe('a'.repeat(63) + 'b');
    expect([s.is_min_value_exact, s.is_max_value_exact]).toEqual([false, false]);
    expect(s.min).toBeUndefined(); // no deprecated fields for byte arrays
    // the untruncated bounds stay available for the page index
    const b = new StatisticsBuilder(str);
    b.update(byteArrays([v], 0), 0, 1);
    expect(b.minBytes()).toEqual(v);
  });
  test('a 4-byte character straddling byte 64 is never split', () => {
    const v = u('a'.repeat(62) + '😀z'); // 😀 occupies bytes 62..65
    const s = statsOf(str, [v]);
    expect(utf8.decode(s.min_value)).toBe('a'.repeat(62));
    expect(utf8.decode(s.max_value)).toBe('a'.repeat(61) + 'b');
  });
  test('max: a character may grow when the cut leaves room (U+007F → U+0080)', () => {
    const v = u('a'.repeat(62) + '\u007f😀'); // cut at 63; 62 + 2 bytes fit in 64
    expect(utf8.decode(statsOf(str, [v]).max_value)).toBe('a'.repeat(62) + '\u0080');
  });
  test('U+10FFFF at the cut cannot be incremented: the character before it is', () => {
    const v = u('a'.repeat(60) + '\u{10ffff}b');
    const s = statsOf(str, [v]);
    expect(utf8.decode(s.min_value)).toBe('a'.repeat(60) + '\u{10ffff}');
    expect(utf8.decode(s.max_value)).toBe('a'.repeat(59) + 'b');
  });
  test('U+D7FF steps over the surrogates to U+E000', () => {
    const v = u('a'.repeat(61) + '\ud7ffxyz');
    expect(utf8.decode(statsOf(str, [v]).max_value)).toBe('a'.repeat(61) + '\ue000');
  });
  test('binary max ending in 0xFF bytes: the 0xFF bytes are dropped and the byte before incremented', () => {
    const v = Uint8Array.from([...new Array(62).fill(0x41), ...new Array(8).fill(0xff)]);
    const s = statsOf(bin, [v]);
    expect(s.max_value).toEqual(Uint8Array.from([...new Array(61).fill(0x41), 0x42]));
    expect(s.min_value).toEqual(v.subarray(0, 64));
  });
  test('an all-0xFF max is kept exact (no shorter upper bound exists)', () => {
    const v = new Uint8Array(70).fill(0xff);
    const s = statsOf(bin, [v]);
    expect(s.max_value).toEqual(v);
    expect(s.is_max_value_exact).toBe(true);
    expect(s.min_value).toEqual(v.subarray(0, 64));
    expect(s.is_min_value_exact).toBe(false);
  });
  test('Infinity never truncates; FIXED_LEN_BYTE_ARRAY and DECIMAL bytes are never truncated', () => {
    const long = new Uint8Array(200).fill(0x61);
    expect(statsOf(str, [long], Infinity)).toMatchObject({ min_value: long, is_min_value_exact: true, is_max_value_exact: true });
    const dec = logical(Type.BYTE_ARRAY, { DECIMAL: { scale: 0, precision: 400 } }, { scale: 0, precision: 400 });
    expect(statsOf(dec, [long], 4)).toMatchObject({ min_value: long, max_value: long, is_min_value_exact: true });
    const flba = leaf(Type.FIXED_LEN_BYTE_ARRAY, { type_length: 200 });
    const b = new StatisticsBuilder(flba, { truncateLength: 4 });
    b.update({ width: 200, data: long }, 0, 1);
    expect(b.toThrift()).toMatchObject({ min_value: long, is_max_value_exact: true });
  });
  test('invalid UTF-8 in a STRING column falls back to byte truncation', () => {
    const v = Uint8Array.from([0x61, 0xc0, 0x80, 0x61, 0x62]);
    expect(truncateUpperBound(v, 3, true)).toEqual({ bytes: Uint8Array.of(0x61, 0xc0, 0x81), exact: false });
    expect(truncateLowerBound(v, 3, true)).toEqual({ bytes: Uint8Array.of(0x61, 0xc0, 0x80), exact: false });
  });
  test('property: truncated min <= every value <= truncated max, both within the length (unless exact) and valid UTF-8', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 12 }), (texts, length) => {
        const values = texts.map(u);
        const s = statsOf(str, values, length);
        const min = s.min_value!;
        const max = s.max_value!;
        for (const v of values) {
          expect(bytesCmp(min, v)).toBeLessThanOrEqual(0);
          expect(bytesCmp(v, max)).toBeLessThanOrEqual(0);
        }
        utf8.decode(min); // throws when not valid UTF-8
        utf8.decode(max);
        const exactMin = values.reduce((a, b) => (bytesCmp(a, b) <= 0 ? a : b));
        const exactMax = values.reduce((a, b) => (bytesCmp(a, b) >= 0 ? a : b));
        expect(s.is_min_value_exact).toBe(exactMin.length <= length);
        if (s.is_min_value_exact) expect(min).toEqual(exactMin);
        else expect(min.length).toBeLessThanOrEqual(length);
        if (s.is_max_value_exact) expect(max).toEqual(exactMax);
        else expect(max.length).toBeLessThanOrEqual(length);
        expect(s.is_max_value_exact === true).toBe(bytesCmp(max, exactMax) === 0);
      }),
      { numRuns: 500 },
    );
  });
  test('property (binary, 0xFF-heavy): truncated bounds still bound every value', () => {
    const bytes = fc.array(fc.constantFrom(0, 0x41, 0xfe, 0xff, 0xff), { maxLength: 10 }).map((a) => Uint8Array.from(a));
    fc.assert(
      fc.property(fc.array(bytes, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 6 }), (values, length) => {
        const s = statsOf(bin, values, length);
        for (const v of values) {
          expect(bytesCmp(s.min_value!, v)).toBeLessThanOrEqual(0);
          expect(bytesCmp(v, s.max_value!)).toBeLessThanOrEqual(0);
        }
        if (!s.is_max_value_exact) expect(s.max_value!.length).toBeLessThanOrEqual(length);
      }),
      { numRuns: 500 },
    );
  });
});

describe('StatisticsBuilder: bad input is a ParquetError', () => {
  test('wrong value form, range, offsets, options and merges', async () => {
    const b = new StatisticsBuilder(leaf(Type.INT64));
    expect(await typedError(() => b.update(Int32Array.of(1), 0, 1))).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/column 'v' \(INT64\): expected a BigInt64Array, got Int32Array/) });
    expect((await typedError(() => b.update(BigInt64Array.of(1n), 0, 2))).code).toBe('OUT_OF_RANGE');
    expect((await typedError(() => b.update(BigInt64Array.of(1n), -1, 1))).code).toBe('OUT_OF_RANGE');
    const s = new StatisticsBuilder(str);
    expect((await typedError(() => s.update({ offsets: Int32Array.of(0, 5, 2), data: new Uint8Array(9) }, 0, 2))).message).toMatch(/offsets decrease at value 1/);
    expect((await typedError(() => s.update({ offsets: Int32Array.of(0, 50), data: new Uint8Array(9) }, 0, 1))).code).toBe('INVALID_ARGUMENT');
    expect((await typedError(() => s.update({ width: 2, data: new Uint8Array(4) }, 0, 1))).code).toBe('INVALID_ARGUMENT');
    const f = new StatisticsBuilder(leaf(Type.FIXED_LEN_BYTE_ARRAY, { type_length: 4 }));
    expect((await typedError(() => f.update({ width: 3, data: new Uint8Array(6) }, 0, 1))).code).toBe('INVALID_ARGUMENT');
    expect((await typedError(() => new StatisticsBuilder(str, { truncateLength: 0 }))).code).toBe('INVALID_ARGUMENT');
    expect((await typedError(() => new StatisticsBuilder(str, { truncateLength: 2.5 }))).code).toBe('INVALID_ARGUMENT');
    expect((await typedError(() => b.merge(new StatisticsBuilder(leaf(Type.INT64, { converted_type: ConvertedType.UINT_64 }))))).code).toBe('INVALID_ARGUMENT');
    expect((await typedError(() => b.merge(b))).code).toBe('INVALID_ARGUMENT');
    expect((await typedError(() => b.addNulls(-1))).code).toBe('INVALID_ARGUMENT');
  });
});
