// Datasets into Arrow (src/dataset.ts): a dataset whose files disagree (columns missing from some, INT32 and INT64,
// FLOAT and DOUBLE, a null partition) read into one Arrow table with the types of the unified schema, every value equal
// to the dataset's own row read of it; DuckDB's partitioned output read with filters on partition and data columns,
// equal to DuckDB's queries over it, with the pruning in the scan statistics; batches bounded by batchSize.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { Bool, DateDay, Dictionary, Float64, Int32, Int64, Int8, LargeUtf8, List, Struct, Table, TimeUnit, Timestamp, Utf8, tableFromArrays, tableFromIPC, vectorFromArray, type DataType } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { memoryStore, openDataset, type DatasetScanStats } from '@parquetry/parquet-dataset';
import { directoryStore as localStore, openDataset as openLocal } from '@parquetry/parquet-dataset/node';
import type { Filter } from '@parquetry/parquet-reader';
import { field, writeParquet } from '@parquetry/parquet-writer';
import { allCodecs } from 'parquetry';
import { ARROW_SCHEMA_KEY, arrowSchemaOfDataset, decodeArrowSchema, readDatasetArrowBatches, readDatasetArrowTable, writeArrowDataset, writeArrowTable } from '../src/index.js';
import { columnsOf, describeSchema } from './compare.js';

const codecs = await allCodecs();

/** A value of an Arrow row or of a reader row as plain JSON-able data (bigints and numbers as decimal text). */
function plain(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint' || typeof v === 'number') return String(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Date) return String(v.getTime());
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object' && typeof (v as { toArray?: unknown }).toArray === 'function' && typeof (v as { length?: unknown }).length === 'number' && !('toJSON' in v && (v as { [Symbol.iterator]?: unknown })[Symbol.iterator] === undefined)) {
    return [...(v as Iterable<unknown>)].map(plain);
  }
  if (typeof v === 'object') {
    const o = typeof (v as { toJSON?: unknown }).toJSON === 'function' ? ((v as { toJSON(): Record<string, unknown> }).toJSON()) : (v as Record<string, unknown>);
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, plain(x)]));
  }
  return v;
}

const arrowRows = (t: Table): unknown[] => t.toArray().map((r) => plain(r));

describe('a dataset whose files disagree', () => {
  async function dataset() {
    const store = memoryStore();
    // p=1: every column; ids INT32, f FLOAT
    store.files.set(
      'p=1/a.parquet',
      await writeParquet(
        Array.from({ length: 30 }, (_, i) => ({ id: i, flag: i % 3 === 0 ? null : i % 2 === 0, small: i % 5 === 0 ? null : i - 15, f: i % 4 === 0 ? null : i / 4, s: `a${i}`, l: i % 6 === 0 ? null : [i, i + 1], st: i % 7 === 0 ? null : { x: i, y: i % 2 ? `y${i}` : null } })),
        { schema: { id: field.int32(), flag: field.boolean(), small: field.int(8, true), f: field.float(), s: field.string(), l: field.list(field.int32()), st: field.struct({ x: field.int32(), y: field.string() }) }, rowGroupRows: 12 },
      ),
    );
    // p=2: ids INT64, f DOUBLE, no flag, small, l or st
    store.files.set('p=2/b.parquet', await writeParquet(Array.from({ length: 20 }, (_, i) => ({ id: 1000n + BigInt(i), f: i * 1.5, s: i % 3 ? `b${i}` : null })), { schema: { id: field.int64(), f: field.double(), s: field.string() } }));
    // the null partition, every column but s
    store.files.set(
      'p=__HIVE_DEFAULT_PARTITION__/c.parquet',
      await writeParquet(Array.from({ length: 9 }, (_, i) => ({ id: 2000 + i, flag: true, small: -i, f: 0.5, l: [], st: { x: -i, y: 'c' } })), { schema: { id: field.int32(), flag: field.boolean(), small: field.int(8, true), f: field.float(), l: field.list(field.int32()), st: field.struct({ x: field.int32(), y: field.string() }) } }),
    );
    return openDataset(store, { codecs });
  }

  test('one table with the unified schema\'s Arrow types, equal to the dataset\'s rows', async () => {
    const ds = await dataset();
    const schema = await arrowSchemaOfDataset(ds);
    const types = Object.fromEntries(schema.fields.map((f) => [f.name, f.type]));
    expect(Object.keys(types)).toEqual(['id', 'flag', 'small', 'f', 's', 'l', 'st', 'p']);
    expect(types['id']).toBeInstanceOf(Int64);
    expect(types['flag']).toBeInstanceOf(Bool);
    expect(types['small']).toBeInstanceOf(Int8);
    expect(types['f']).toBeInstanceOf(Float64);
    expect(types['s']).toBeInstanceOf(Utf8);
    expect(types['l']).toBeInstanceOf(List);
    expect(types['st']).toBeInstanceOf(Struct);
    expect(types['p']).toBeInstanceOf(Int64);
    const table = await readDatasetArrowTable(ds);
    expect(table.schema.fields.map((f) => String(f.type))).toEqual(schema.fields.map((f) => String(f.type)));
    expect(table.numRows).toBe(59);
    // one batch per row group: 3 + 1 + 1
    expect(table.batches.map((b) => b.numRows)).toEqual([12, 12, 6, 20, 9]);
    const rows = await ds.readRows();
    expect(arrowRows(table)).toEqual(rows.map((r) => plain(r)));
    // the columns a file lacks are null there, the partition of the default partition too
    const b = table.batches[3]!;
    for (const c of ['flag', 'small', 'l', 'st']) expect(b.getChild(c)!.nullCount).toBe(20);
    expect(table.batches[4]!.getChild('p')!.nullCount).toBe(9);
    expect(table.batches[4]!.getChild('s')!.nullCount).toBe(9);
  });

  test('a projection (a struct child, a partition column) and a filter on the partition', async () => {
    const ds = await dataset();
    let s: DatasetScanStats | undefined;
    const table = await readDatasetArrowTable(ds, { columns: ['id', 'st.y', 'p'], filter: { column: 'p', op: '=', value: 1n }, onScan: (x) => (s = x) });
    expect(table.schema.fields.map((f) => `${f.name}: ${String(f.type)}`)).toEqual(['id: Int64', 'st: Struct<{y:Utf8}>', 'p: Int64']);
    const rows = await ds.readRows({ columns: ['id', 'st.y', 'p'], filter: { column: 'p', op: '=', value: 1n } });
    expect(rows.length).toBe(30);
    expect(arrowRows(table)).toEqual(rows.map((r) => plain(r)));
    expect(s!.files.skipped.partition).toBe(2);
  });

  test('batches of at most batchSize rows, each with the table\'s schema, the rows in order', async () => {
    const ds = await dataset();
    const schema = await arrowSchemaOfDataset(ds, { dictionary: ['s'] });
    const sizes: number[] = [];
    const got: unknown[] = [];
    for await (const b of readDatasetArrowBatches(ds, { batchSize: 7, dictionary: ['s'] })) {
      expect(b.schema.fields.map((f) => String(f.type))).toEqual(schema.fields.map((f) => String(f.type)));
      sizes.push(b.numRows);
      for (let i = 0; i < b.numRows; i++) got.push(plain(b.get(i)));
    }
    expect(String(schema.fields[4]!.type)).toBe('Dictionary<Int32, Utf8>');
    expect(Math.max(...sizes)).toBe(7);
    expect(sizes.reduce((a, x) => a + x, 0)).toBe(59);
    expect(got).toEqual((await ds.readRows()).map((r) => plain(r)));
  });
});

describe('DuckDB\'s partitioned output', () => {
  let dir = '';
  let root = '';
  let con: DuckDBConnection;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-arrow-dataset-'));
    root = path.join(dir, 'sales');
    con = await (await DuckDBInstance.create(':memory:')).connect();
    await con.run(`COPY (SELECT i::INTEGER AS id, (i * 1.25)::DOUBLE AS amount, CASE WHEN i % 11 = 0 THEN NULL ELSE 'n' || (i % 7) END AS note,
        CASE WHEN i % 9 = 0 THEN NULL ELSE 'r' || (i % 4) END AS region, DATE '2024-01-01' + (i % 3)::INTEGER AS day
      FROM range(0, 1500) t(i)) TO '${root}' (FORMAT parquet, PARTITION_BY (region, day), ROW_GROUP_SIZE 100)`);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const duck = async (sql: string) => (await con.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  /** DuckDB's JSON rows and ours as sorted JSON lines (dates as days since the epoch). */
  const canon = (rows: readonly Record<string, unknown>[]) =>
    rows.map((r) => JSON.stringify(['id', 'amount', 'note', 'region', 'day'].map((c) => {
      const v = r[c];
      if (v === null || v === undefined) return null;
      if (c === 'day') return typeof v === 'string' ? String(Date.parse(`${v}T00:00:00Z`) / 86_400_000) : String(v);
      return String(v);
    }))).sort();

  const cases: [string, Filter | undefined, string][] = [
    ['everything', undefined, 'true'],
    ['a partition value', { column: 'region', op: '=', value: 'r2' }, `region = 'r2'`],
    ['the null partition', { column: 'region', op: 'is null' }, 'region IS NULL'],
    ['a date partition and a data column', { and: [{ column: 'day', op: '>=', value: new Date(Date.UTC(2024, 0, 2)) }, { column: 'id', op: '<', value: 300 }] }, `day >= DATE '2024-01-02' AND id < 300`],
  ];
  for (const [name, filter, where] of cases) {
    test(`${name}: equal to DuckDB's rows, the partitions pruned`, async () => {
      const ds = await openLocal(root, { codecs });
      let s: DatasetScanStats | undefined;
      const table = await readDatasetArrowTable(ds, { ...(filter ? { filter } : {}), onScan: (x) => (s = x) });
      expect(table.schema.fields.map((f) => `${f.name}: ${String(f.type)}`)).toEqual(['id: Int32', 'amount: Float64', 'note: Utf8', 'region: Utf8', 'day: Date32<DAY>']);
      expect(table.schema.fields[4]!.type).toBeInstanceOf(DateDay);
      const ours = table.toArray().map((r) => {
        const o = r.toJSON() as Record<string, unknown>;
        // Date32 values come out as milliseconds since the epoch
        return { ...o, day: o['day'] === null ? null : Number(o['day']) / 86_400_000 };
      });
      const theirs = await duck(`SELECT id, amount, note, region, day FROM read_parquet('${root}/**/*.parquet', hive_partitioning = true) WHERE ${where}`);
      expect(ours.length).toBe(theirs.length);
      expect(canon(ours)).toEqual(canon(theirs));
      if (name.includes('partition value') || name.includes('null partition')) expect(s!.files.skipped.partition).toBeGreaterThan(0);
      expect(s!.rowsReturned).toBe(theirs.length);
    });
  }
});

describe('writing a dataset from Arrow', () => {
  /** 300 rows in 3 batches: id, amount, tags (list of strings, some null), ts (UTC), and the partition columns year and city. */
  function source(): Table {
    const n = 300;
    const t = tableFromArrays({
      id: Int32Array.from({ length: n }, (_, i) => i),
      amount: Float64Array.from({ length: n }, (_, i) => i * 1.5),
      year: Int32Array.from({ length: n }, (_, i) => 2022 + (i % 3)),
      city: Array.from({ length: n }, (_, i) => (i % 10 === 0 ? null : ['oslo', 'lima', 'pune'][Math.floor(i / 7) % 3]!)),
    });
    const batches = [t.slice(0, 120), t.slice(120, 200), t.slice(200)].flatMap((s) => s.batches);
    return new Table(batches);
  }

  test('partitioned by year and city, rolled at 40 rows: every partition\'s rows of all batches in its own files, read back equal (year as Int64), ARROW:schema without the partitions', async () => {
    const table = source();
    expect(table.batches.length).toBe(3);
    const store = memoryStore();
    const written = await writeArrowDataset(table, store, { partitionBy: ['year', 'city'], maxRowsPerFile: 40 });
    expect(written.rows).toBe(300);
    // the rows of each partition, and the files that hold them: ceil(rows / 40) each
    const count = new Map<string, number>();
    for (let i = 0; i < 300; i++) {
      const city = table.getChild('city')!.get(i) as string | null;
      const key = `year=${2022 + (i % 3)}/city=${city ?? '__HIVE_DEFAULT_PARTITION__'}/`;
      count.set(key, (count.get(key) ?? 0) + 1);
    }
    const files = new Map<string, number>();
    for (const f of written.files) {
      const dir = f.path.slice(0, f.path.lastIndexOf('/') + 1);
      files.set(dir, (files.get(dir) ?? 0) + 1);
      expect(f.rows).toBeLessThanOrEqual(40);
    }
    expect(Object.fromEntries(files)).toEqual(Object.fromEntries([...count].map(([k, v]) => [k, Math.ceil(v / 40)])));
    // each file stores the Arrow schema without the partition columns
    const f0 = written.files[0]!.metadata;
    const stored = decodeArrowSchema(f0.key_value_metadata!.find((e) => e.key === ARROW_SCHEMA_KEY)!.value!);
    expect(stored.fields.map((f) => `${f.name}: ${String(f.type)}`)).toEqual(['id: Int32', 'amount: Float64']);
    // read back: the same rows
    const back = await readDatasetArrowTable(await openDataset(store, { codecs }));
    expect(back.schema.fields.map((f) => `${f.name}: ${String(f.type)}`)).toEqual(['id: Int32', 'amount: Float64', 'year: Int64', 'city: Utf8']);
    const rows = (t: Table) => t.toArray().map((r) => plain(r) as Record<string, unknown>).sort((a, b) => Number(a['id']) - Number(b['id']));
    expect(rows(back)).toEqual(rows(table));
  });

  test("the first file's ARROW:schema comes back by name (a time zone, large_string, a dictionary), as pyarrow.dataset reads it; arrowSchema: false gives the Parquet types", async () => {
    const n = 60;
    const table = new Table({
      ts: vectorFromArray(Array.from({ length: n }, (_, i) => 1.7e12 + i * 1000), new Timestamp(TimeUnit.MILLISECOND, 'America/New_York')),
      big: vectorFromArray(Array.from({ length: n }, (_, i) => `v${i}`), new LargeUtf8()),
      cat: vectorFromArray(Array.from({ length: n }, (_, i) => ['a', 'b'][i % 2]!), new Dictionary(new Utf8(), new Int32())),
      part: vectorFromArray(Array.from({ length: n }, (_, i) => i % 3), new Int32()),
    });
    const store = memoryStore();
    await writeArrowDataset(table, store, { partitionBy: ['part'] });
    const ds = await openDataset(store, { codecs });
    const back = await readDatasetArrowTable(ds);
    const [ts, big, cat, part] = back.schema.fields.map((f) => f.type as DataType);
    expect([(ts as Timestamp).unit, (ts as Timestamp).timezone]).toEqual([TimeUnit.MILLISECOND, 'America/New_York']);
    expect(big).toBeInstanceOf(LargeUtf8);
    expect(cat).toBeInstanceOf(Dictionary);
    expect(part).toBeInstanceOf(Int64);
    const rows = (t: Table) => t.toArray().map((r) => plain(r) as Record<string, unknown>).sort((a, b) => String(a['big']).localeCompare(String(b['big'])));
    expect(rows(back).map(({ part: _p, ...r }) => r)).toEqual(rows(table).map(({ part: _p, ...r }) => r));
    const plainTypes = (await arrowSchemaOfDataset(ds, { arrowSchema: false })).fields.map((f) => f.type as DataType);
    expect([(plainTypes[0] as Timestamp).timezone, plainTypes[1]!.constructor, plainTypes[2]!.constructor]).toEqual(['UTC', Utf8, Utf8]);
  });

  test('a stream of record batches, DuckDB reads the directory with hive_partitioning as the same rows; a batch of another schema is SCHEMA_MISMATCH', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-arrow-write-ds-'));
    try {
      const table = source();
      async function* stream() {
        yield* table.batches;
      }
      const written = await writeArrowDataset(stream(), localStore(dir), { partitionBy: ['city'], compression: 'ZSTD', codecs });
      expect(written.files.map((f) => f.path.split('/')[0]).sort()).toEqual(['city=__HIVE_DEFAULT_PARTITION__', 'city=lima', 'city=oslo', 'city=pune']);
      const con = await (await DuckDBInstance.create(':memory:')).connect();
      const theirs = (await con.runAndReadAll(`SELECT id, amount, year, city FROM read_parquet('${dir}/**/*.parquet', hive_partitioning = true) ORDER BY id`)).getRowObjectsJson();
      expect(theirs.length).toBe(300);
      expect(theirs.map((r) => [Number(r['id']), Number(r['amount']), Number(r['year']), r['city'] ?? null])).toEqual(
        Array.from({ length: 300 }, (_, i) => [i, i * 1.5, 2022 + (i % 3), table.getChild('city')!.get(i) ?? null]),
      );
      const other = tableFromArrays({ id: Int32Array.of(1), city: ['x'] });
      await expect(writeArrowDataset([...table.batches, ...other.batches], memoryStore(), { partitionBy: ['city'] })).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('files that store different Arrow schemas (a dataset that gained columns)', () => {
  const n = 5;
  /** Part 0: id alone. */
  const part0 = () => new Table({ id: vectorFromArray(Array.from({ length: n }, (_, i) => i), new Int32()) });
  /** Part 1: id, and the columns it adds: a timestamp in Tokyo time, a dictionary of strings, a large_string. */
  const part1 = (tz = 'Asia/Tokyo', big: DataType = new LargeUtf8()) =>
    new Table({
      id: vectorFromArray(Array.from({ length: n }, (_, i) => n + i), new Int32()),
      ts: vectorFromArray(Array.from({ length: n }, (_, i) => (i === 2 ? null : 1.7e12 + i * 1000)), new Timestamp(TimeUnit.MILLISECOND, tz)),
      cat: vectorFromArray(Array.from({ length: n }, (_, i) => (i === 3 ? null : ['red', 'green'][i % 2]!)), new Dictionary(new Utf8(), new Int32())),
      big: vectorFromArray(Array.from({ length: n }, (_, i) => `b${i}`), big),
    });
  const types = (t: { fields: { name: string; type: unknown }[] }) => t.fields.map((f) => `${f.name}: ${String(f.type)}`);

  test("each column takes its type from the first file storing one: part 1's time zone, dictionary and large_string come back, part 0's rows null in them; the footers are the ones the open kept", async () => {
    const store = memoryStore();
    store.files.set('part-0.parquet', await writeArrowTable(part0()));
    store.files.set('part-1.parquet', await writeArrowTable(part1()));
    const ds = await openDataset(store, { codecs });
    const before = ds.scanStats().footers.requests;
    expect(before).toBe(2); // the union schema: both footers fetched at open
    const back = await readDatasetArrowTable(ds);
    // before: ts came as Timestamp<MILLISECOND, UTC> (the Parquet type), cat and big as Utf8
    expect(types(back.schema)).toEqual(['id: Int32', 'ts: Timestamp<MILLISECOND, Asia/Tokyo>', 'cat: Dictionary<Int32, Utf8>', 'big: LargeUtf8']);
    expect(arrowRows(back)).toEqual([
      ...Array.from({ length: n }, (_, i) => ({ id: String(i), ts: null, cat: null, big: null })),
      ...Array.from({ length: n }, (_, i) => ({ id: String(n + i), ts: i === 2 ? null : String(1.7e12 + i * 1000), cat: i === 3 ? null : ['red', 'green'][i % 2], big: `b${i}` })),
    ]);
    // batches carry the same schema; no footer fetched again
    for await (const b of readDatasetArrowBatches(ds, { batchSize: 3 })) expect(types(b.schema)).toEqual(types(back.schema));
    expect(ds.scanStats().footers.requests).toBe(before);
    expect(types(await arrowSchemaOfDataset(ds, { arrowSchema: false }))).toEqual(['id: Int32', 'ts: Timestamp<MILLISECOND, UTC>', 'cat: Utf8', 'big: Utf8']);
  });

  test('two files storing different types for a column the first lacks: the first of them wins, nothing thrown (pa.unify_schemas raises ArrowTypeError)', async () => {
    const store = memoryStore();
    store.files.set('part-0.parquet', await writeArrowTable(part0()));
    store.files.set('part-1.parquet', await writeArrowTable(part1('Asia/Tokyo', new LargeUtf8())));
    store.files.set('part-2.parquet', await writeArrowTable(part1('Europe/Paris', new Utf8())));
    const ds = await openDataset(store, { codecs });
    const back = await readDatasetArrowTable(ds);
    expect(types(back.schema)).toEqual(['id: Int32', 'ts: Timestamp<MILLISECOND, Asia/Tokyo>', 'cat: Dictionary<Int32, Utf8>', 'big: LargeUtf8']);
    expect(back.numRows).toBe(3 * n);
    // part 2 holds part 1's rows (its instants in another zone, its strings as utf8): read under part 1's types, equal
    const rows = arrowRows(back);
    expect(rows.slice(2 * n)).toEqual(rows.slice(n, 2 * n));
  });

  test('with the schema given (footers not kept at open), the footers are fetched in order only up to the file that adds the columns, once', async () => {
    const store = memoryStore();
    store.files.set('part-0.parquet', await writeArrowTable(part0()));
    store.files.set('part-1.parquet', await writeArrowTable(part1()));
    store.files.set('part-2.parquet', await writeArrowTable(part1('Europe/Paris')));
    const schema = (await openDataset(store, { codecs })).schema;
    const ds = await openDataset(store, { codecs, schema });
    expect(ds.scanStats().footers.requests).toBe(0);
    const s = await arrowSchemaOfDataset(ds);
    expect(types(s)).toEqual(['id: Int32', 'ts: Timestamp<MILLISECOND, Asia/Tokyo>', 'cat: Dictionary<Int32, Utf8>', 'big: LargeUtf8']);
    // part 0 (the first) and part 1 (which adds every new column): part 2's footer is left for the read
    expect(ds.scanStats().footers.requests).toBe(2);
    const back = await readDatasetArrowTable(ds);
    expect(types(back.schema)).toEqual(types(s));
    // the read fetched part 2's footer only: the two kept ones are reused
    expect(ds.scanStats().footers.requests).toBe(3);
    // schema: 'first' keeps the first file's columns alone (as pyarrow.dataset's default does), so no other footer
    const first = await openDataset(store, { codecs, schema: 'first' });
    expect(types(await arrowSchemaOfDataset(first))).toEqual(['id: Int32']);
    expect(first.scanStats().footers.requests).toBe(1);
  });
});

describe.skipIf(process.env.PARQUETRY_PYTHON === undefined)('files that store different Arrow schemas, against pyarrow', () => {
  test('our table equals pyarrow.dataset\'s read with pa.unify_schemas of the files\' schemas (types and values); pyarrow\'s default schema is the first file\'s', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-arrow-unify-'));
    try {
      const n = 40;
      const a = new Table({ id: vectorFromArray(Array.from({ length: n }, (_, i) => i), new Int32()), v: vectorFromArray(Array.from({ length: n }, (_, i) => i * 0.5), new Float64()) });
      const b = new Table({
        id: vectorFromArray(Array.from({ length: n }, (_, i) => n + i), new Int32()),
        ts: vectorFromArray(Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : 1.7e12 + i * 60_000)), new Timestamp(TimeUnit.MILLISECOND, 'America/New_York')),
        cat: vectorFromArray(Array.from({ length: n }, (_, i) => (i % 5 === 0 ? null : ['x', 'y', 'z'][i % 3]!)), new Dictionary(new Utf8(), new Int32())),
        big: vectorFromArray(Array.from({ length: n }, (_, i) => `s${i}`), new LargeUtf8()),
      });
      fs.mkdirSync(path.join(dir, 'ds'));
      const files = [path.join(dir, 'ds', 'part-0.parquet'), path.join(dir, 'ds', 'part-1.parquet')];
      fs.writeFileSync(files[0]!, await writeArrowTable(a));
      fs.writeFileSync(files[1]!, await writeArrowTable(b));
      const out = path.join(dir, 'unified.arrows');
      const peer = fileURLToPath(new URL('./peers/pyarrow_peer.py', import.meta.url));
      const r = JSON.parse(execFileSync(process.env.PARQUETRY_PYTHON!, [peer, 'unify-files', out, ...files], { encoding: 'utf8', timeout: 120_000 })) as { unified: string[]; default: string[] };
      expect(r.default).toEqual(['id: int32', 'v: double']);
      expect(r.unified).toEqual(['id: int32', 'v: double', 'ts: timestamp[ms, tz=America/New_York]', 'cat: dictionary<values=string, indices=int32, ordered=0>', 'big: large_string']);
      const theirs = tableFromIPC(fs.readFileSync(out));
      const ours = await readDatasetArrowTable(await openLocal(path.join(dir, 'ds'), { codecs }));
      expect(describeSchema(ours.schema)).toEqual(describeSchema(theirs.schema));
      expect(ours.numRows).toBe(theirs.numRows);
      const mine = columnsOf(ours);
      const peer2 = columnsOf(theirs);
      for (const name of Object.keys(peer2)) expect(mine[name], name).toEqual(peer2[name]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
