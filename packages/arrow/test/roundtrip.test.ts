// apache-arrow tables → writeArrowTable → openParquet → readArrowTable: the same schema and values, over random
// tables (fast-check) of every type that round-trips exactly, built straight from buffers (nulls, sliced and
// multi-batch tables included); plus the conversions checked against hand-computed values and the error paths.
import fc from 'fast-check';
import {
  Binary, Bool, type Data, type DataType, DateDay, Decimal, Dictionary, DurationNanosecond, Field, FixedSizeBinary, Float16, Float32, Float64, Int16, Int32,
  Int64, Int8, IntervalDayTime, IntervalMonthDayNano, IntervalYearMonth, LargeUtf8, List, Map_, RecordBatch, Schema, Struct, Table, TimeMicrosecond, TimeMillisecond, Timestamp, TimeUnit,
  Uint16, Uint32, Uint64, Uint8, Utf8, makeData, makeVector, tableFromArrays,
} from 'apache-arrow';
import { describe, expect, test } from 'vitest';
import { openParquet as openWith } from '@parquetry/parquet-reader';
import { allCodecs } from 'parquetry';
import { isParquetError } from '@parquetry/thrift-compact';
import { decodeArrowSchema, encodeArrowSchema, parquetSchemaOf, readArrowTable, writeArrowTable } from '../src/index.js';
import { toHalfBits } from '../src/to-arrow.js';
import { columnsOf, describeSchema } from './compare.js';

const enc = new TextEncoder();
const codecs = await allCodecs();
const openParquet = (bytes: Uint8Array) => openWith(bytes, { codecs });

/** An LSB-first bitmap of `valid`, and the null count. */
function bitmap(valid: readonly boolean[]): { nullBitmap: Uint8Array; nullCount: number } {
  const b = new Uint8Array((valid.length + 7) >> 3);
  let nulls = 0;
  valid.forEach((v, i) => (v ? (b[i >> 3]! |= 1 << (i & 7)) : nulls++));
  return { nullBitmap: b, nullCount: nulls };
}

/** Binary offsets and bytes of strings / byte arrays. */
function binary(values: readonly (string | Uint8Array)[]): { valueOffsets: Int32Array; data: Uint8Array } {
  const parts = values.map((v) => (typeof v === 'string' ? enc.encode(v) : v));
  const valueOffsets = new Int32Array(parts.length + 1);
  parts.forEach((p, i) => (valueOffsets[i + 1] = valueOffsets[i]! + p.length));
  const data = new Uint8Array(valueOffsets[parts.length]!);
  parts.forEach((p, i) => data.set(p, valueOffsets[i]!));
  return { valueOffsets, data };
}

/** Little-endian 32-bit words of a two's-complement bigint. */
function words(v: bigint, n: number): number[] {
  const u = BigInt.asUintN(32 * n, v);
  return Array.from({ length: n }, (_, k) => Number((u >> BigInt(32 * k)) & 0xffffffffn));
}

type Column = { field: Field; make: (n: number) => fc.Arbitrary<Data> };

const validity = (n: number, nullable: boolean) => (nullable ? fc.array(fc.boolean(), { minLength: n, maxLength: n }) : fc.constant(new Array<boolean>(n).fill(true)));

/** A fixed-width column from an arbitrary of one value per slot. */
function fixed<T>(name: string, type: DataType, value: fc.Arbitrary<T>, toData: (vals: T[]) => unknown, nullable = true): Column {
  return {
    field: new Field(name, type, nullable),
    make: (n) => fc.tuple(fc.array(value, { minLength: n, maxLength: n }), validity(n, nullable)).map(([vals, valid]) => makeData({ type, length: n, ...bitmap(valid), data: toData(vals) } as never)),
  };
}

const i64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const text = fc.string({ unit: 'binary', maxLength: 12 });
const halfBits = fc.integer({ min: 0, max: 0xffff }).filter((b) => (b & 0x7c00) !== 0x7c00 || (b & 0x3ff) === 0);

const COLUMNS: Column[] = [
  {
    field: new Field('bool', new Bool(), true),
    make: (n) => fc.tuple(fc.array(fc.boolean(), { minLength: n, maxLength: n }), validity(n, true)).map(([v, valid]) => makeData({ type: new Bool(), length: n, ...bitmap(valid), data: bitmap(v).nullBitmap })),
  },
  fixed('int8', new Int8(), fc.integer({ min: -128, max: 127 }), (v) => Int8Array.from(v)),
  fixed('int16', new Int16(), fc.integer({ min: -32768, max: 32767 }), (v) => Int16Array.from(v)),
  fixed('int32', new Int32(), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (v) => Int32Array.from(v)),
  fixed('int32_required', new Int32(), fc.integer(), (v) => Int32Array.from(v), false),
  fixed('int64', new Int64(), i64, (v) => BigInt64Array.from(v)),
  fixed('uint8', new Uint8(), fc.integer({ min: 0, max: 255 }), (v) => Uint8Array.from(v)),
  fixed('uint16', new Uint16(), fc.integer({ min: 0, max: 65535 }), (v) => Uint16Array.from(v)),
  fixed('uint32', new Uint32(), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (v) => Uint32Array.from(v)),
  fixed('uint64', new Uint64(), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (v) => BigUint64Array.from(v)),
  fixed('float16', new Float16(), halfBits, (v) => Uint16Array.from(v)),
  fixed('float32', new Float32(), fc.float(), (v) => Float32Array.from(v)),
  fixed('float64', new Float64(), fc.double(), (v) => Float64Array.from(v)),
  fixed('date32', new DateDay(), fc.integer({ min: -1e6, max: 1e6 }), (v) => Int32Array.from(v)),
  fixed('time32_ms', new TimeMillisecond(), fc.integer({ min: 0, max: 86399999 }), (v) => Int32Array.from(v)),
  fixed('time64_us', new TimeMicrosecond(), fc.bigInt({ min: 0n, max: 86399999999n }), (v) => BigInt64Array.from(v)),
  fixed('ts_us', new Timestamp(TimeUnit.MICROSECOND, null), i64, (v) => BigInt64Array.from(v)),
  fixed('ts_ns_paris', new Timestamp(TimeUnit.NANOSECOND, 'Europe/Paris'), i64, (v) => BigInt64Array.from(v)),
  fixed('ts_ms_utc', new Timestamp(TimeUnit.MILLISECOND, 'UTC'), i64, (v) => BigInt64Array.from(v)),
  fixed('duration_ns', new DurationNanosecond(), i64, (v) => BigInt64Array.from(v)),
  fixed('interval_ym', new IntervalYearMonth(), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (v) => Int32Array.from(v)),
  fixed('interval_dt', new IntervalDayTime(), fc.tuple(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })), (v) => Int32Array.from(v.flat())),
  fixed('fsb4', new FixedSizeBinary(4), fc.uint8Array({ minLength: 4, maxLength: 4 }), (v) => Uint8Array.from(v.flatMap((b) => [...b]))),
  fixed('dec_9_2', new Decimal(2, 9, 128), fc.bigInt({ min: -(10n ** 9n) + 1n, max: 10n ** 9n - 1n }), (v) => Uint32Array.from(v.flatMap((x) => words(x, 4)))),
  fixed('dec_38_5', new Decimal(5, 38, 128), fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n }), (v) => Uint32Array.from(v.flatMap((x) => words(x, 4)))),
  fixed('dec_50_0', new Decimal(0, 50, 256), fc.bigInt({ min: -(10n ** 50n) + 1n, max: 10n ** 50n - 1n }), (v) => Uint32Array.from(v.flatMap((x) => words(x, 8)))),
  {
    field: new Field('utf8', new Utf8(), true),
    make: (n) => fc.tuple(fc.array(text, { minLength: n, maxLength: n }), validity(n, true)).map(([v, valid]) => makeData({ type: new Utf8(), length: n, ...bitmap(valid), ...binary(v) })),
  },
  {
    field: new Field('large_utf8', new LargeUtf8(), true),
    make: (n) => fc.tuple(fc.array(text, { minLength: n, maxLength: n }), validity(n, true)).map(([v, valid]) => {
      const b = binary(v);
      return makeData({ type: new LargeUtf8(), length: n, ...bitmap(valid), data: b.data, valueOffsets: BigInt64Array.from(b.valueOffsets, (x) => BigInt(x)) });
    }),
  },
  {
    field: new Field('binary', new Binary(), true),
    make: (n) => fc.tuple(fc.array(fc.uint8Array({ maxLength: 9 }), { minLength: n, maxLength: n }), validity(n, true)).map(([v, valid]) => makeData({ type: new Binary(), length: n, ...bitmap(valid), ...binary(v) })),
  },
  (() => {
    const type = new Dictionary(new Utf8(), new Int32());
    return {
      field: new Field('dict', type, true),
      make: (n: number) => fc.tuple(fc.uniqueArray(text, { minLength: 1, maxLength: 5 }), validity(n, true)).chain(([dict, valid]) =>
        fc.array(fc.integer({ min: 0, max: dict.length - 1 }), { minLength: n, maxLength: n }).map((idx) =>
          makeData({ type, length: n, ...bitmap(valid), data: Int32Array.from(idx), dictionary: makeVector(makeData({ type: new Utf8(), length: dict.length, nullCount: 0, ...binary(dict) })) }))),
    };
  })(),
  (() => {
    const type = new List(new Field('element', new Int32(), true));
    return {
      field: new Field('list', type, true),
      make: (n: number) => fc.tuple(fc.array(fc.array(fc.option(fc.integer({ min: -9, max: 9 })), { maxLength: 4 }), { minLength: n, maxLength: n }), validity(n, true)).map(([lists, valid]) => {
        const flat = lists.flatMap((l, i) => (valid[i] ? l : []));
        const valueOffsets = new Int32Array(n + 1);
        lists.forEach((l, i) => (valueOffsets[i + 1] = valueOffsets[i]! + (valid[i] ? l.length : 0)));
        const child = makeData({ type: new Int32(), length: flat.length, ...bitmap(flat.map((x) => x !== null)), data: Int32Array.from(flat, (x) => x ?? 0) });
        return makeData({ type, length: n, ...bitmap(valid), valueOffsets, child });
      }),
    };
  })(),
  (() => {
    const type = new Struct([new Field('a', new Int32(), true), new Field('b', new Utf8(), false)]);
    return {
      field: new Field('struct', type, true),
      make: (n: number) => fc.tuple(fc.array(fc.option(fc.integer()), { minLength: n, maxLength: n }), fc.array(text, { minLength: n, maxLength: n }), validity(n, true)).map(([a, b, valid]) =>
        makeData({
          type, length: n, ...bitmap(valid), children: [
            makeData({ type: new Int32(), length: n, ...bitmap(a.map((x) => x !== null)), data: Int32Array.from(a, (x) => x ?? 0) }),
            makeData({ type: new Utf8(), length: n, nullCount: 0, ...binary(b) }),
          ],
        })),
    };
  })(),
  (() => {
    const entries = new Field('entries', new Struct([new Field('key', new Utf8(), false), new Field('value', new Int64(), true)]), false);
    const type = new Map_(entries as never, false);
    return {
      field: new Field('map', type, true),
      make: (n: number) => fc.tuple(fc.array(fc.array(fc.tuple(text, fc.option(i64)), { maxLength: 3 }), { minLength: n, maxLength: n }), validity(n, true)).map(([maps, valid]) => {
        const flat = maps.flatMap((m, i) => (valid[i] ? m : []));
        const valueOffsets = new Int32Array(n + 1);
        maps.forEach((m, i) => (valueOffsets[i + 1] = valueOffsets[i]! + (valid[i] ? m.length : 0)));
        const keys = makeData({ type: new Utf8(), length: flat.length, nullCount: 0, ...binary(flat.map(([k]) => k)) });
        const values = makeData({ type: new Int64(), length: flat.length, ...bitmap(flat.map(([, v]) => v !== null)), data: BigInt64Array.from(flat, ([, v]) => v ?? 0n) });
        const child = makeData({ type: entries.type, length: flat.length, nullCount: 0, children: [keys, values] });
        return makeData({ type, length: n, ...bitmap(valid), valueOffsets, child });
      }),
    };
  })(),
];

/** A random table: some columns, some rows, cut into batches, maybe sliced. */
const tables = fc
  .record({
    cols: fc.uniqueArray(fc.integer({ min: 0, max: COLUMNS.length - 1 }), { minLength: 1, maxLength: 8 }),
    n: fc.integer({ min: 0, max: 60 }),
    cut: fc.integer({ min: 1, max: 3 }),
    slice: fc.option(fc.tuple(fc.nat(), fc.nat())),
  })
  .chain(({ cols, n, cut, slice }) => {
    const picked = cols.map((c) => COLUMNS[c]!);
    const schema = new Schema(picked.map((c) => c.field));
    const sizes = Array.from({ length: cut }, (_, k) => Math.floor((n * (k + 1)) / cut) - Math.floor((n * k) / cut));
    return fc.tuple(...sizes.map((m) => fc.tuple(...picked.map((c) => c.make(m))))).map((batches) => {
      let t = new Table(schema, batches.map((children, k) => new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: sizes[k]!, nullCount: 0, children }))));
      if (slice && n > 0) {
        const a = slice[0] % n;
        t = t.slice(a, a + (slice[1] % (n - a + 1)));
      }
      return t;
    });
  });

describe('apache-arrow → writer → reader → Arrow', () => {
  test('random tables of every exactly round-tripping type come back equal (schema, nulls, values)', async () => {
    await fc.assert(
      fc.asyncProperty(tables, fc.integer({ min: 1, max: 40 }), async (table, rowGroupRows) => {
        const bytes = await writeArrowTable(table, { rowGroupRows, pageRows: 7 });
        const back = await readArrowTable(await openParquet(bytes));
        expect(describeSchema(back.schema)).toEqual(describeSchema(table.schema));
        expect(back.numRows).toBe(table.numRows);
        expect(columnsOf(back)).toEqual(columnsOf(table));
      }),
      { numRuns: 150 },
    );
  });

  test('an empty table and an empty stream with a schema write a file without rows that reads back with the schema', async () => {
    const schema = new Schema([new Field('a', new Int32(), true), new Field('s', new Utf8(), false)]);
    for (const input of [new Table(schema), (async function* () {})()]) {
      const bytes = await writeArrowTable(input, { schema });
      const file = await openParquet(bytes);
      expect(file.numRows).toBe(0);
      const back = await readArrowTable(file);
      expect(back.numRows).toBe(0);
      expect(describeSchema(back.schema)).toEqual(describeSchema(schema));
    }
  });
});

describe('conversions against hand-computed values', () => {
  test('toHalfBits inverts the IEEE 754 half value of every non-NaN bit pattern, and rounds to nearest even', () => {
    const value = (b: number) => {
      const e = (b >> 10) & 31;
      const f = b & 1023;
      const s = b & 0x8000 ? -1 : 1;
      return e === 0 ? s * f * 2 ** -24 : e === 31 ? s * Infinity : s * (1 + f / 1024) * 2 ** (e - 15);
    };
    for (let b = 0; b < 0x10000; b++) if ((b & 0x7c00) !== 0x7c00 || (b & 0x3ff) === 0) expect(toHalfBits(value(b))).toBe(b);
    expect(toHalfBits(NaN) & 0x7e00).toBe(0x7e00);
    expect(toHalfBits(1 + 2 ** -11)).toBe(0x3c00); // halfway between 1 and the next half: to even
    expect(toHalfBits(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(toHalfBits(65520)).toBe(0x7c00); // rounds past the largest half
  });

  test('decimals: the reader\'s strings become two\'s-complement little-endian words (Decimal128 of DECIMAL(38, 2))', async () => {
    const schema = new Schema([new Field('d', new Decimal(2, 38, 128), true)]);
    const vals = [-1n, 100n, -(10n ** 38n) + 1n, 2n ** 64n, 0n, -(2n ** 32n), -(2n ** 52n) - 1n];
    const data = makeData({ type: schema.fields[0]!.type, length: vals.length, nullCount: 0, data: Uint32Array.from(vals.flatMap((v) => words(v, 4))) });
    const t = new Table(schema, [new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: vals.length, nullCount: 0, children: [data] }))]);
    const back = await readArrowTable(await openParquet(await writeArrowTable(t)));
    const got = back.batches[0]!.data.children[0]!.values as Uint32Array;
    expect(Array.from(got.subarray(0, 8))).toEqual([0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 100, 0, 0, 0]);
    expect(Array.from(got.subarray(12, 16))).toEqual([0, 0, 1, 0]);
    expect(Array.from(got.subarray(20, 24))).toEqual([0, 0xffffffff, 0xffffffff, 0xffffffff]);
    expect(Array.from(got.subarray(24, 28))).toEqual([0xffffffff, 0xffefffff, 0xffffffff, 0xffffffff]);
    expect(columnsOf(back)).toEqual(columnsOf(t));
  });

  test('ARROW:schema round-trips through base64 IPC and the writer stores it with the schema metadata', async () => {
    const schema = new Schema([new Field('t', new Timestamp(TimeUnit.SECOND, 'Asia/Tokyo'), true, new Map([['k', 'v']]))], new Map([['owner', 'me']]));
    const text = encodeArrowSchema(schema);
    expect(text).toMatch(/^\/\/\/\/\/[A-Za-z0-9+/]+=*$/); // continuation token 0xFFFFFFFF first
    expect(describeSchema(decodeArrowSchema(text))).toEqual(describeSchema(schema));
    const file = await openParquet(await writeArrowTable(new Table(schema), { schema }));
    const kv = Object.fromEntries((file.metadata.key_value_metadata ?? []).map((e) => [e.key, e.value]));
    expect(kv).toEqual({ owner: 'me', 'ARROW:schema': text });
    // seconds are stored as milliseconds (the Parquet unit), the zone comes back from ARROW:schema
    expect(describeSchema((await readArrowTable(file)).schema)).toEqual(['t?: Timestamp(1, Asia/Tokyo) {k=v}', 'metadata {owner=me}']);
  });

  test('timestamp[s], time32[s] and date64 are scaled to the Parquet units (as pyarrow writes them)', async () => {
    const schema = new Schema([
      new Field('ts', new Timestamp(TimeUnit.SECOND, null), true),
      new Field('tm', new (await import('apache-arrow')).TimeSecond(), true),
      new Field('d', new (await import('apache-arrow')).DateMillisecond(), true),
    ]);
    const n = 3;
    const kids = [
      makeData({ type: schema.fields[0]!.type, length: n, nullCount: 0, data: BigInt64Array.of(-1n, 2n ** 40n, 0n) }),
      makeData({ type: schema.fields[1]!.type, length: n, nullCount: 0, data: Int32Array.of(0, 1, 86399) }),
      makeData({ type: schema.fields[2]!.type, length: n, nullCount: 0, data: BigInt64Array.of(-1n, 86400000n * 3n + 5n, -86400000n) }),
    ];
    const table = new Table(schema, [new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children: kids }))]);
    const back = columnsOf(await readArrowTable(await openParquet(await writeArrowTable(table))));
    expect(back).toEqual({ ts: [-1000n, 2n ** 40n * 1000n, 0n], tm: [0, 1000, 86399000], d: [-1, 3, -1] });
  });
});

describe('intervals (as arrow-rs maps them)', () => {
  test('Interval(YEAR_MONTH) and Interval(DAY_TIME) are written as INTERVAL (three little-endian uint32 words) and read back as intervals from ARROW:schema, as FixedSizeBinary(12) without it', async () => {
    const schema = new Schema([new Field('ym', new IntervalYearMonth(), true), new Field('dt', new IntervalDayTime(), false)]);
    const n = 3;
    const kids = [
      makeData({ type: new IntervalYearMonth(), length: n, ...bitmap([true, false, true]), data: Int32Array.of(14, 99, -1) }),
      makeData({ type: new IntervalDayTime(), length: n, nullCount: 0, data: Int32Array.of(3, 86399999, 0, -1, -2, 5) }),
    ];
    const table = new Table(schema, [new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children: kids }))]);
    const file = await openParquet(await writeArrowTable(table));
    // the Parquet schema: FIXED_LEN_BYTE_ARRAY(12), ConvertedType INTERVAL (21), no LogicalType
    expect(file.metadata.schema.slice(1).map((e) => [e.name, e.type, e.type_length, e.converted_type, e.logicalType])).toEqual([
      ['ym', 7, 12, 21, undefined],
      ['dt', 7, 12, 21, undefined],
    ]);
    // the reader's own view of the bytes: months, days, milliseconds as unsigned words
    expect(await file.readRows()).toEqual([
      { ym: { months: 14, days: 0, millis: 0 }, dt: { months: 0, days: 3, millis: 86399999 } },
      { ym: null, dt: { months: 0, days: 0, millis: 4294967295 } },
      { ym: { months: 4294967295, days: 0, millis: 0 }, dt: { months: 0, days: 4294967294, millis: 5 } },
    ]);
    const back = await readArrowTable(file);
    expect(describeSchema(back.schema).slice(0, 2)).toEqual(['ym?: Interval(0)', 'dt: Interval(1)']);
    expect(columnsOf(back)).toEqual(columnsOf(table));
    const raw = await readArrowTable(file, { arrowSchema: false });
    expect(raw.schema.fields.map((f) => String(f.type))).toEqual(['FixedSizeBinary[12]', 'FixedSizeBinary[12]']);
    const words = (b: Uint8Array) => Array.from(new Uint32Array(b.buffer, b.byteOffset, 3));
    expect(words(raw.getChild('dt')!.get(1) as Uint8Array)).toEqual([0, 0, 4294967295]);
    expect(words(raw.getChild('ym')!.get(2) as Uint8Array)).toEqual([4294967295, 0, 0]);
  });
});

describe('writer options', () => {
  test('every writer option reaches the writer, from a table and from an async stream of batches', async () => {
    const n = 50;
    const table = tableFromArrays({ a: Int32Array.from({ length: n }, (_, i) => i), s: Array.from({ length: n }, (_, i) => `s${i % 5}`) });
    async function* stream() {
      for (let i = 0; i < n; i += 20) yield* table.slice(i, Math.min(n, i + 20)).batches;
    }
    for (const input of [table, stream()]) {
      const bytes = await writeArrowTable(input, {
        compression: 'ZSTD', codecs, rowGroupRows: 20, pageRows: 7, createdBy: 'arrow options test', keyValueMetadata: { k: 'v' }, pageIndex: true,
        checksum: true, columns: { a: { dictionary: false, encoding: 'DELTA_BINARY_PACKED', bloomFilter: true }, s: { statistics: false } },
        sortingColumns: [{ column: 'a' }],
      });
      const file = await openParquet(bytes);
      const md = file.metadata;
      expect(md.created_by).toBe('arrow options test');
      expect(md.row_groups.map((g) => g.num_rows)).toEqual([20, 20, 10]);
      const kv = Object.fromEntries((md.key_value_metadata ?? []).map((e) => [e.key, e.value]));
      expect(kv.k).toBe('v');
      expect(kv['ARROW:schema']).toBe(encodeArrowSchema(table.schema));
      for (const g of md.row_groups) {
        const [a, s] = g.columns;
        expect(a!.meta_data!.codec).toBe(6); // ZSTD
        expect(a!.meta_data!.encodings).toContain(5); // DELTA_BINARY_PACKED
        expect(a!.meta_data!.encodings).not.toContain(8); // no RLE_DICTIONARY
        expect(a!.meta_data!.bloom_filter_offset).toBeDefined();
        expect(a!.meta_data!.statistics?.min_value).toBeDefined();
        expect(s!.meta_data!.encodings).toContain(8);
        expect(s!.meta_data!.statistics?.min_value).toBeUndefined();
        expect(a!.column_index_offset).toBeDefined();
        expect(g.sorting_columns).toEqual([{ column_idx: 0, descending: false, nulls_first: false }]);
      }
      expect(columnsOf(await readArrowTable(file))).toEqual(columnsOf(table));
    }
  });
});

describe('errors', () => {
  const code = async (p: Promise<unknown>) => p.then(() => 'none', (e: unknown) => (isParquetError(e) ? e.code : `not a ParquetError: ${String(e)}`));

  test('an Arrow type without a Parquet type is UNSUPPORTED_TYPE, naming the field', () => {
    let err: unknown;
    try {
      parquetSchemaOf(new Schema([new Field('iv', new IntervalMonthDayNano(), true)]));
    } catch (e) {
      err = e;
    }
    expect(isParquetError(err) && err.code).toBe('UNSUPPORTED_TYPE');
    expect((err as Error).message).toMatch(/^arrow: field 'iv': Arrow Interval<MONTH_DAY_NANO> has no Parquet type/);
  });

  test('an unsupported type inside nested fields names its full path, before anything is written', async () => {
    const { DenseUnion } = await import('apache-arrow');
    const union = new DenseUnion([0], [new Field('x', new Int32(), true)]);
    const schema = new Schema([new Field('st', new Struct([new Field('ok', new Int32(), true), new Field('l', new List(new Field('item', union, true)), true)]), true)]);
    let wrote = 0;
    const err = await writeArrowTable(new Table(schema), { write() { wrote++; } }, { schema }).catch((e: unknown) => e);
    expect(isParquetError(err) && err.code).toBe('UNSUPPORTED_TYPE');
    expect((err as Error).message).toMatch(/^arrow: field 'st\.l\.list\.element': Arrow .*Union.* has no Parquet type/);
    expect(wrote).toBe(0);
  });

  test('batches of different schemas, no batches without a schema, and input that is not Arrow are refused; the sink is aborted', async () => {
    const a = tableFromArrays({ x: Int32Array.of(1) });
    const b = tableFromArrays({ x: Float64Array.of(1) });
    let aborted = 0;
    const sink = { write() {}, abort() { aborted++; } };
    expect(await code(writeArrowTable([...a.batches, ...b.batches], sink))).toBe('SCHEMA_MISMATCH');
    expect(await code(writeArrowTable([], sink))).toBe('SCHEMA_REQUIRED');
    expect(await code(writeArrowTable(42 as never, sink))).toBe('INVALID_ARGUMENT');
    expect(aborted).toBe(3);
  });

  test('a null in a non-nullable field is the writer\'s INVALID_RECORD naming the field and row', async () => {
    const schema = new Schema([new Field('x', new Int32(), false)]);
    const d = makeData({ type: new Int32(), length: 2, ...bitmap([true, false]), data: Int32Array.of(1, 2) });
    const t = new Table(schema, [new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: 2, nullCount: 0, children: [d] }))]);
    const err = await writeArrowTable(t).catch((e: unknown) => e);
    expect(isParquetError(err) && err.code).toBe('INVALID_RECORD');
    expect((err as Error).message).toMatch(/'x'.*row 1/);
  });

  test('an unknown projection column is UNKNOWN_COLUMN', async () => {
    const file = await openParquet(await writeArrowTable(tableFromArrays({ x: Int32Array.of(1) })));
    expect(await code(readArrowTable(file, { columns: ['y'] }))).toBe('UNKNOWN_COLUMN');
  });
});
