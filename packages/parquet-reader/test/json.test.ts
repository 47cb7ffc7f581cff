/**
 * `values: 'json'` in every read method, against values written out by hand: INT64 at the safe-integer edge, ISO-8601
 * timestamps per unit and zone, base64 binary, maps as objects (string and integer keys) or `{ key, value }` arrays
 * (boolean keys), VARIANT values (int64, binary, dates, timestamps, decimals, NaN, nested objects and arrays), raw VARIANT
 * groups, columnar vectors with null slots; the same rows from readRows, iterateRowGroups and iterateBatches.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet, type LeafVector, type ParquetFile, type StructVector } from '@parquetry/parquet-reader';
// the writer by path: a devDependency on it would make a cycle in turbo's build graph (the writer's tests read)
import { field, variantDate, variantDecimal, variantTimestamp, writeParquet } from '../../parquet-writer/src/index.js';

const codecs = builtinCodecs();
const big = 2n ** 53n;
const bin = Uint8Array.of(0xfb, 0xff, 0x00, 0x61);

const rows = [
  {
    id: 1n,
    n: big - 1n,
    ts: 1709209845123456n,
    local: 1709209845123n,
    b: bin,
    m: new Map([['a', 1], ['b', null]]),
    mi: new Map([[big, 'x'], [-1n, 'y']]),
    md: new Map([[true, 't'], [false, 'f']]),
    st: { d: 19782, xs: [1.5, NaN] },
    v: { a: 1n, big: big + 1n, bytes: bin, day: variantDate(19782), at: variantTimestamp(1709209845123456789n, 'ns', false), price: variantDecimal('-12.340'), look: { type: 'decimal', value: '1.5' }, nan: NaN, list: [true, null, 'x'] },
  },
  { id: 2n, n: -big, ts: -1n, local: null, b: null, m: null, mi: new Map(), md: null, st: null, v: null },
];

const schema = {
  id: field.int64({ required: true }),
  n: field.int64(),
  ts: field.timestamp('micros'),
  local: field.timestamp('millis', { utc: false }),
  b: field.binary(),
  m: field.map(field.string(), field.int32()),
  mi: field.map(field.int64(), field.string()),
  md: field.map(field.boolean(), field.string()),
  st: field.struct({ d: field.date(), xs: field.list(field.double()) }),
  v: field.variant(),
};

const expected = [
  {
    id: 1,
    n: 9007199254740991,
    ts: '2024-02-29T12:30:45.123456Z',
    local: '2024-02-29T12:30:45.123',
    b: '+/8AYQ==',
    m: { a: 1, b: null },
    mi: { '9007199254740992': 'x', '-1': 'y' },
    md: [
      { key: true, value: 't' },
      { key: false, value: 'f' },
    ],
    st: { d: '2024-02-29', xs: [1.5, 'NaN'] },
    v: { a: 1, at: '2024-02-29T12:30:45.123456789', big: '9007199254740993', bytes: '+/8AYQ==', day: '2024-02-29', list: [true, null, 'x'], look: { type: 'decimal', value: '1.5' }, nan: 'NaN', price: '-12.340' },
  },
  { id: 2, n: '-9007199254740992', ts: '1969-12-31T23:59:59.999999Z', local: null, b: null, m: null, mi: {}, md: null, st: null, v: null },
];

let file: ParquetFile;
beforeAll(async () => {
  file = await openParquet(await writeParquet(rows as unknown as Record<string, unknown>[], { schema, compression: 'UNCOMPRESSED' }), { codecs });
});

describe("values: 'json'", () => {
  test('rows: every type as written out by hand; JSON.stringify does not throw', async () => {
    const got = await file.readRows({ values: 'json' });
    expect(got).toEqual(expected);
    expect(() => JSON.stringify(got)).not.toThrow();
    // the default mapping is untouched by the option's existence, and JSON.stringify throws on it (INT64 bigints)
    const native = await file.readRows();
    expect(native[0]!.id).toBe(1n);
    expect(() => JSON.stringify(native)).toThrow(TypeError);
  });

  test('the other options do not change it; iterateRowGroups and batches give the same rows', async () => {
    expect(await file.readRows({ values: 'json', maps: 'object', int64: 'number', timestamps: 'date', dates: 'date', strings: 'bytes' })).toEqual(expected);
    const groups: unknown[] = [];
    for await (const g of file.iterateRowGroups({ values: 'json' })) groups.push(...g.rows);
    expect(groups).toEqual(expected);
    const batches: unknown[] = [];
    for await (const b of file.iterateBatches({ values: 'json', batchSize: 1 })) batches.push(...b.rows);
    expect(batches).toEqual(expected);
    // a projection and a filter (on native values; the JSON form of a timestamp is accepted as a filter value too)
    expect(await file.readRows({ values: 'json', columns: ['id', 'ts'], filter: { column: 'ts', op: '<', value: '1970-01-01T00:00:00Z' } })).toEqual([{ id: 2, ts: '1969-12-31T23:59:59.999999Z' }]);
  });

  test('raw VARIANT groups convert field by field (binaries as base64)', async () => {
    const [r] = await file.readRows({ values: 'json', variants: 'raw', columns: ['v'] });
    const v = r!.v as { metadata: string; value: string };
    expect(typeof v.metadata).toBe('string');
    expect(Buffer.from(v.value, 'base64')[0]! & 3).toBe(2); // an object's basic type
  });

  test('columns: leaf vectors converted, null slots null; batches of columns the same', async () => {
    const check = (cols: StructVector) => {
      const leaf = (name: string) => cols.children[cols.field.kind === 'struct' ? cols.field.fields.findIndex((f) => f.name === name) : -1] as LeafVector;
      expect(Array.from(leaf('id').values)).toEqual([1, 2]);
      expect(Array.from(leaf('n').values)).toEqual([9007199254740991, '-9007199254740992']);
      expect(Array.from(leaf('ts').values)).toEqual(['2024-02-29T12:30:45.123456Z', '1969-12-31T23:59:59.999999Z']);
      expect(Array.from(leaf('local').values)).toEqual(['2024-02-29T12:30:45.123', null]);
      expect(() => JSON.stringify(Array.from(leaf('local').values))).not.toThrow();
    };
    check(await file.readRowGroupColumns(0, { values: 'json', binary: 'values' }));
    for await (const b of file.iterateBatches({ values: 'json', form: 'columns', binary: 'values' })) check(b.columns);
    // the statistics of a column come in the same mapping
    expect(await file.statistics(0, 'ts', { values: 'json' })).toMatchObject({ min: '1969-12-31T23:59:59.999999Z', max: '2024-02-29T12:30:45.123456Z' });
  });
});
