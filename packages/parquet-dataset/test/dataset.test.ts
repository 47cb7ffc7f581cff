/**
 * Datasets in memory: write → read round trips over random rows, partitions and file limits (fast-check), filters
 * mixing partition and data columns against `matchRow` over every row, schema evolution (missing columns, widening,
 * mismatches), summary files planning a read in one request (counted at the store), and columnar batches against
 * rows.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { field, writeParquet } from '@parquetry/parquet-writer';
import { openParquet, type Filter } from '@parquetry/parquet-reader';
import { matchRow } from '@parquetry/parquet-reader/filters';
import type { ColumnarVector } from '@parquetry/parquet-levels';
import { memoryStore, openDataset, writeDataset, type DatasetStore, type MemoryStore } from '../src/index.js';

const codecs = builtinCodecs();

/** A store that counts requests and bytes (reads and whole-file gets) as a server would see them. */
function counted(store: MemoryStore): DatasetStore & { requests: number; bytes: number; opened: Set<string> } {
  const c = {
    location: store.location,
    requests: 0,
    bytes: 0,
    opened: new Set<string>(),
    list: () => store.list(),
    async get(path: string) {
      const b = await store.get(path);
      c.requests++;
      c.bytes += b?.length ?? 0;
      return b;
    },
    async open(path: string, size?: number) {
      const s = await store.open(path, size);
      return {
        byteLength: s.byteLength,
        read: (a: number, b: number) => {
          c.requests++;
          c.bytes += b - a;
          c.opened.add(path);
          return s.read(a, b);
        },
      };
    },
  };
  return c;
}

const key = (r: Record<string, unknown>) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
const sorted = (rows: Record<string, unknown>[]) => rows.map(key).sort();

const rowArb = fc.record({
  id: fc.integer({ min: 0, max: 1_000_000 }),
  g: fc.option(fc.constantFrom('a', 'b', 'c/d', 'é', ''), { nil: null }),
  n: fc.option(fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n }), { nil: null }),
  day: fc.option(fc.integer({ min: 18000, max: 18004 }), { nil: null }),
  x: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
});
const schema = { id: field.int32({ required: true }), g: field.string(), n: field.int64(), day: field.date(), x: field.double() };

describe('write → read', () => {
  test('random rows, partitions and file limits read back equal (values, partition types, file count)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowArb, { maxLength: 120 }),
        fc.subarray(['g', 'day'] as const),
        fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
        fc.boolean(),
        async (rows, partitionBy, maxRowsPerFile, summary) => {
          const store = memoryStore();
          const res = await writeDataset(rows, store, { schema, partitionBy, ...(maxRowsPerFile ? { maxRowsPerFile } : {}), summary });
          expect(res.rows).toBe(rows.length);
          expect(res.files.reduce((a, f) => a + f.rows, 0)).toBe(rows.length);
          if (maxRowsPerFile) for (const f of res.files) expect(f.rows).toBeLessThanOrEqual(maxRowsPerFile);
          const ds = await openDataset(store, { codecs });
          expect(ds.summary).toBe(summary ? (rows.length > 0 ? 'metadata' : 'common') : undefined);
          expect(ds.files.length).toBe(res.files.length);
          const got = await ds.readRows({ dates: 'number' });
          // partition columns come last; a string column of numbers-only values would infer int64: compare as text
          const expected = rows.map((r) => {
            const o: Record<string, unknown> = {};
            for (const k of ['id', 'g', 'n', 'day', 'x'] as const) if (!partitionBy.includes(k as 'g')) o[k] = r[k];
            for (const k of partitionBy) o[k] = r[k];
            return o;
          });
          const norm = (rs: Record<string, unknown>[]) => sorted(rs.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, partitionBy.includes(k as 'g') && v !== null ? String(v) : v]))));
          expect(norm(got)).toEqual(norm(expected));
          expect(Object.keys(got[0] ?? expected[0] ?? {})).toEqual(Object.keys(expected[0] ?? got[0] ?? {}));
        },
      ),
      { numRuns: 40 },
    );
  });

  test('filters on partition and data columns equal matchRow over every row; pruned files are never fetched', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => ({ id: i, g: ['a', 'b', 'c', null][i % 4]!, n: BigInt(i * 3), day: 18000 + (i % 5), x: i / 7 }));
    const store = memoryStore();
    await writeDataset(rows, store, { schema, partitionBy: ['g', 'day'], maxRowsPerFile: 10 });
    const full = await (await openDataset(store, { codecs })).readRows();
    const filterArb: fc.Arbitrary<Filter> = fc.letrec<{ f: Filter }>((tie) => ({
      f: fc.oneof(
        { depthSize: 'small' },
        fc.record({ column: fc.constant('g'), op: fc.constantFrom('=', '!=', '<'), value: fc.constantFrom('a', 'b', 'c') }) as fc.Arbitrary<Filter>,
        fc.record({ column: fc.constant('day'), op: fc.constantFrom('=', '>=', '<'), value: fc.integer({ min: 17999, max: 18005 }) }) as fc.Arbitrary<Filter>,
        fc.record({ column: fc.constant('id'), op: fc.constantFrom('<', '>=', '='), value: fc.integer({ min: 0, max: 400 }) }) as fc.Arbitrary<Filter>,
        fc.record({ column: fc.constantFrom('g', 'id'), op: fc.constantFrom('is null' as const, 'is not null' as const) }) as fc.Arbitrary<Filter>,
        fc.record({ and: fc.array(tie('f'), { minLength: 1, maxLength: 3 }) }),
        fc.record({ or: fc.array(tie('f'), { minLength: 1, maxLength: 3 }) }),
        fc.record({ not: tie('f') }),
      ),
    })).f;
    const store2 = counted(store);
    const ds = await openDataset(store2, { codecs, schema: 'first' });
    await fc.assert(
      fc.asyncProperty(filterArb, async (filter) => {
        let stats: import('../src/index.js').DatasetScanStats | undefined;
        const before = new Set(store2.opened);
        const got = await ds.readRows({ filter, onScan: (s) => (stats = s) });
        expect(sorted(got)).toEqual(sorted(full.filter((r) => matchRow(filter, r))));
        const s = stats!;
        expect(s.files.skipped.partition + s.files.skipped.statistics + s.files.read).toBe(ds.files.length);
        expect(s.rowsReturned).toBe(got.length);
        // a file skipped by its partition values is never opened by this read
        const opened = [...store2.opened].filter((p) => !before.has(p)).length;
        expect(opened).toBeLessThanOrEqual(ds.files.length - s.files.skipped.partition);
      }),
      { numRuns: 60 },
    );
  });

  test('partition and statistics pruning counted: a filter on the partition column reads only its files', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ id: i, g: ['a', 'b', 'c'][i % 3]!, n: BigInt(i), day: 18000, x: 0 }));
    const store = memoryStore();
    await writeDataset(rows, store, { schema, partitionBy: ['g'], maxRowsPerFile: 25 });
    const c = counted(store);
    const ds = await openDataset(c, { codecs, schema: 'first' });
    const afterOpen = c.requests;
    expect(afterOpen).toBe(1); // the first file's footer
    let s: import('../src/index.js').DatasetScanStats | undefined;
    const got = await ds.readRows({ filter: { column: 'g', op: '=', value: 'b' }, onScan: (x) => (s = x) });
    expect(got.length).toBe(100);
    expect(s!.files).toEqual({ total: 12, opened: 4, read: 4, skipped: { partition: 8, statistics: 0 } });
    expect([...c.opened].every((p) => p.startsWith('g=b/') || p === ds.files[0]!.path)).toBe(true);
    // statistics: ids ascend within each partition (ids 0-72, 75-147, … in its files of 25), so `id < 30` leaves
    // the first file of each partition
    const got2 = await ds.readRows({ filter: { column: 'id', op: '<', value: 30 }, onScan: (x) => (s = x) });
    expect(got2.length).toBe(30);
    expect(s!.files.skipped.statistics).toBe(12 - 3);
    expect(s!.files.read).toBe(3);
    expect(s!.reads.requests.data).toBeGreaterThan(0);
  });
});

describe('schema evolution', () => {
  async function evolved(): Promise<MemoryStore> {
    const a = await writeParquet([{ id: 1, v: 1.5, s: 'x' }], { schema: { id: field.int32({ required: true }), v: field.float(), s: field.string() } });
    const b = await writeParquet([{ id: 2n, v: 2.25, t: true }], { schema: { id: field.int64(), v: field.double(), t: field.boolean() } });
    return memoryStore({ 'k=1/a.parquet': a, 'k=2/b.parquet': b });
  }

  test('union: missing columns null, INT32→INT64 and FLOAT→DOUBLE widened, nullability relaxed', async () => {
    const ds = await openDataset(await evolved(), { codecs });
    expect(ds.schema.field.fields.map((f) => f.name)).toEqual(['id', 'v', 's', 't', 'k']);
    expect(ds.schema.columns[0]!.type).toBe(2 /* INT64 */);
    expect(ds.schema.columns[0]!.node.repetition).toBe(1 /* OPTIONAL */);
    expect(await ds.readRows()).toEqual([
      { id: 1n, v: 1.5, s: 'x', t: null, k: 1n },
      { id: 2n, v: 2.25, s: null, t: true, k: 2n },
    ]);
    expect(await ds.readRows({ int64: 'number', columns: ['t', 'id'] })).toEqual([
      { id: 1, t: null },
      { id: 2, t: true },
    ]);
    // a filter on a column one file lacks: null there (comparisons false, is null true)
    expect(await ds.readRows({ filter: { column: 's', op: 'is null' }, columns: ['id'] })).toEqual([{ id: 2n }]);
    expect(await ds.readRows({ filter: { column: 't', op: '=', value: true }, columns: ['id'] })).toEqual([{ id: 2n }]);
  });

  test('columnar batches: widened typed arrays, all-null vectors for missing columns, constant partition vectors', async () => {
    const ds = await openDataset(await evolved(), { codecs });
    const batches = [];
    for await (const b of ds.iterateBatches({ form: 'columns' })) batches.push(b);
    expect(batches.length).toBe(2);
    const [a] = batches;
    const byName = (v: readonly ColumnarVector[], n: string) => v.find((c) => c.field.name === n)!;
    const id = byName(a!.columns.children, 'id');
    expect(id.kind === 'leaf' && id.values).toEqual(BigInt64Array.of(1n));
    const v = byName(a!.columns.children, 'v');
    expect(v.kind === 'leaf' && v.values instanceof Float64Array).toBe(true);
    const t = byName(a!.columns.children, 't');
    expect(t.validity).toEqual(Uint8Array.of(0));
    const k = byName(a!.columns.children, 'k');
    expect(k.kind === 'leaf' && k.values).toEqual(BigInt64Array.of(1n));
  });

  test('first: the first file decides; later files conform or fail', async () => {
    const ds = await openDataset(await evolved(), { codecs, schema: 'first' });
    expect(ds.schema.field.fields.map((f) => f.name)).toEqual(['id', 'v', 's', 'k']);
    // INT64 into the first file's INT32 is a narrowing: refused, naming the column and the file
    await expect(ds.readRows()).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH', message: expect.stringMatching(/'id'.*k=2\/b\.parquet/) });
  });

  test('incompatible types are a SCHEMA_MISMATCH naming both files and types', async () => {
    const a = await writeParquet([{ c: 1 }], { schema: { c: field.int32() } });
    const b = await writeParquet([{ c: 'x' }], { schema: { c: field.string() } });
    await expect(openDataset(memoryStore({ 'a.parquet': a, 'b.parquet': b }), { codecs })).rejects.toMatchObject({
      code: 'SCHEMA_MISMATCH',
      message: expect.stringMatching(/'c' is INT32 in 'a\.parquet' but BYTE_ARRAY .*STRING.* in 'b\.parquet'/),
    });
  });

  test('a partition key that is also a file column is refused', async () => {
    const a = await writeParquet([{ k: 1 }], { schema: { k: field.int32() } });
    await expect(openDataset(memoryStore({ 'k=1/a.parquet': a }), { codecs })).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH' });
    expect(await (await openDataset(memoryStore({ 'k=1/a.parquet': a }), { codecs, partitioning: false })).readRows()).toEqual([{ k: 1 }]);
  });
});

describe('columnar batches', () => {
  test('a column has one form in every batch: the raw forms asked for (packed booleans, typed integers) also where a file lacks the column, and for partition columns', async () => {
    const store = memoryStore();
    store.files.set('b=true/x.parquet', await writeParquet([{ id: 1, flag: true, small: -3 }, { id: 2, flag: null, small: 7 }], { schema: { id: field.int32(), flag: field.boolean(), small: field.int(8, true) } }));
    store.files.set('b=false/y.parquet', await writeParquet([{ id: 3 }, { id: 4 }, { id: 5 }], { schema: { id: field.int32() } }));
    const ds = await openDataset(store, { codecs, partitioning: { types: { b: 'boolean' } } });
    const forms = new Map<string, Set<string>>();
    const bits: Record<string, number[]> = {};
    for await (const batch of ds.iterateBatches({ form: 'columns', booleans: 'bits', integers: 'typed' })) {
      for (const c of batch.columns.children as ColumnarVector[]) {
        if (c.kind !== 'leaf') continue;
        const form = `${c.values.constructor.name}${c.packed ? ' packed' : ''}`;
        forms.set(c.field.name, (forms.get(c.field.name) ?? new Set()).add(form));
        if (c.packed) (bits[c.field.name] ??= []).push(...Array.from({ length: c.length }, (_, i) => ((c.values as Uint8Array)[i >> 3]! >> (i & 7)) & 1));
      }
    }
    // before: y.parquet's missing flag came as a plain array of nulls and small as an Int32Array; the partition b as
    // booleans
    expect(Object.fromEntries([...forms].map(([k, v]) => [k, [...v]]))).toEqual({ id: ['Int32Array'], flag: ['Uint8Array packed'], small: ['Int8Array'], b: ['Uint8Array packed'] });
    // files in path order: b=false (3 rows) then b=true (2 rows)
    expect(bits).toEqual({ flag: [0, 0, 0, 1, 0], b: [0, 0, 0, 1, 1] });
  });

  test("under values: 'json' the raw forms are not taken (the reader's JSON conversion starts from the value mapping), also where a file lacks the column", async () => {
    const store = memoryStore();
    store.files.set('b=true/x.parquet', await writeParquet([{ id: 1, flag: true, small: -3 }, { id: 2, flag: null, small: 7 }], { schema: { id: field.int32(), flag: field.boolean(), small: field.int(8, true) } }));
    store.files.set('b=false/y.parquet', await writeParquet([{ id: 3 }, { id: 4 }, { id: 5 }], { schema: { id: field.int32() } }));
    const ds = await openDataset(store, { codecs, partitioning: { types: { b: 'boolean' } } });
    const forms = new Map<string, Set<string>>();
    const values: Record<string, unknown[]> = {};
    for await (const batch of ds.iterateBatches({ form: 'columns', booleans: 'bits', integers: 'typed', values: 'json' })) {
      for (const c of batch.columns.children as ColumnarVector[]) {
        if (c.kind !== 'leaf') continue;
        forms.set(c.field.name, (forms.get(c.field.name) ?? new Set()).add(`${c.values.constructor.name}${c.packed ? ' packed' : ''}`));
        (values[c.field.name] ??= []).push(...Array.from(c.values));
      }
    }
    // before: y.parquet's missing flag and small came packed / as an Int8Array (the raw forms), x.parquet's as arrays
    expect(Object.fromEntries([...forms].map(([k, v]) => [k, [...v]]))).toEqual({ id: ['Int32Array'], flag: ['Array'], small: ['Int32Array'], b: ['Array'] });
    expect(values).toEqual({ id: [3, 4, 5, 1, 2], flag: [null, null, null, true, null], small: [0, 0, 0, -3, 7], b: [false, false, false, true, true] });
  });
});

describe('the JSON mapping', () => {
  test("values: 'json' maps partition values as the reader maps columns (int64 as numbers, strings past 2^53; dates as YYYY-MM-DD) and keeps widened INT32 as numbers: JSON.stringify takes the rows", async () => {
    const store = memoryStore();
    store.files.set('k=7/day=2024-01-02/a.parquet', await writeParquet([{ id: 1 }, { id: 2 }], { schema: { id: field.int32() } }));
    store.files.set('k=1152921504606846976/day=1999-12-31/b.parquet', await writeParquet([{ id: 3n }], { schema: { id: field.int64() } }));
    const ds = await openDataset(store, { codecs });
    const rows = await ds.readRows({ values: 'json' });
    expect(JSON.stringify(rows)).toBe('[{"id":3,"k":"1152921504606846976","day":"1999-12-31"},{"id":1,"k":7,"day":"2024-01-02"},{"id":2,"k":7,"day":"2024-01-02"}]');
    // the native mapping is unchanged: bigints and day numbers
    expect((await ds.readRows())[1]).toEqual({ id: 1n, k: 7n, day: 19724 });
    // a filter still compares in the native mapping
    expect((await ds.readRows({ values: 'json', filter: { column: 'day', op: '>', value: '2000-01-01' } })).map((r) => r['id'])).toEqual([1, 2]);
  });

  test("columnar batches under values: 'json' give partition vectors the values the rows give (not bigints, not day numbers)", async () => {
    const store = memoryStore();
    store.files.set('k=7/day=2024-01-02/a.parquet', await writeParquet([{ id: 1n, big: 5n }, { id: 2n, big: 1152921504606846977n }], { schema: { id: field.int64(), big: field.int64() } }));
    store.files.set('k=1152921504606846976/day=1999-12-31/b.parquet', await writeParquet([{ id: 3n, big: null }], { schema: { id: field.int64(), big: field.int64() } }));
    const ds = await openDataset(store, { codecs });
    const rows = await ds.readRows({ values: 'json' });
    const columns: Record<string, unknown[]> = {};
    for await (const batch of ds.iterateBatches({ form: 'columns', values: 'json' })) {
      for (const c of batch.columns.children as ColumnarVector[]) {
        if (c.kind !== 'leaf') continue;
        const vals = Array.from(c.values as ArrayLike<unknown>);
        (columns[c.field.name] ??= []).push(...vals.map((v, i) => (c.validity && !(c.validity[i >> 3]! & (1 << (i & 7))) ? null : v)));
      }
    }
    for (const name of ['id', 'big', 'k', 'day']) expect(columns[name], name).toEqual(rows.map((r) => r[name]));
    expect(JSON.stringify(columns)).toBe('{"id":[3,1,2],"big":[null,5,"1152921504606846977"],"k":["1152921504606846976",7,7],"day":["1999-12-31","2024-01-02","2024-01-02"]}');
  });
});

describe('summary files', () => {
  test('_metadata plans the read: one request opens the dataset, pruned files are never touched, footers never fetched', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({ id: i, g: ['a', 'b'][i % 2]!, n: BigInt(i), day: 18000, x: i }));
    const store = memoryStore();
    const res = await writeDataset(rows, store, { schema, partitionBy: ['g'], maxRowsPerFile: 20, summary: true });
    expect(store.files.has('_metadata') && store.files.has('_common_metadata')).toBe(true);
    // the summary holds every file's row groups with file_path
    expect(res.summary!.row_groups.map((rg) => rg.columns[0]!.file_path)).toEqual(res.files.map((f) => f.path));
    const c = counted(store);
    const ds = await openDataset(c, { codecs });
    expect(c.requests).toBe(1);
    expect(ds.summary).toBe('metadata');
    let s: import('../src/index.js').DatasetScanStats | undefined;
    const got = await ds.readRows({ filter: { and: [{ column: 'g', op: '=', value: 'a' }, { column: 'id', op: '<', value: 50 }] }, onScan: (x) => (s = x) });
    expect(got.map((r) => r.id)).toEqual(rows.filter((r) => r.g === 'a' && r.id < 50).map((r) => r.id));
    // partition a's files of 20 rows hold ids 0-38, 40-78, …: `id < 50` keeps its first two
    expect(s!.files).toEqual({ total: 10, opened: 0, read: 2, skipped: { partition: 5, statistics: 3 } });
    expect(s!.footers).toEqual({ requests: 0, bytes: 0 });
    // only the two files read were touched, by the reader's own requests (page index, filter column, the rest)
    expect([...c.opened].sort()).toEqual(['g=a/part-0.parquet', 'g=a/part-1.parquet']);
    expect(c.requests - 1).toBe(s!.reads.requests.total);
    expect(s!.reads.requests.footer).toBe(0);
    expect(s!.requests).toBe(s!.reads.requests.total);
    // the same rows without the summary
    const plain = await openDataset(store, { codecs, summary: false });
    expect(await plain.readRows({ filter: { and: [{ column: 'g', op: '=', value: 'a' }, { column: 'id', op: '<', value: 50 }] } })).toEqual(got);
  });

  test('a _metadata that disagrees with the listing is ignored: files added, deleted, rewritten smaller', async () => {
    const rows = Array.from({ length: 4000 }, (_, i) => ({ id: i, g: ['a', 'b'][i % 2]!, n: BigInt(i) * 7919n, day: 18000, x: Math.sin(i) }));
    const fresh = async () => {
      const store = memoryStore();
      await writeDataset(rows, store, { schema, partitionBy: ['g'], maxRowsPerFile: 600, summary: true });
      return store;
    };
    const { g: _g, ...fileSchema } = schema;
    const extra = await writeParquet([{ id: 1000, n: 1n, day: 18000, x: 0 }], { schema: fileSchema });
    const cases: [string, (s: MemoryStore) => void, number, string][] = [
      ['added', (s) => s.files.set('g=c/new.parquet', extra), 4001, 'files differ'],
      ['deleted', (s) => s.files.delete([...s.files.keys()].sort().find((k) => k.startsWith('g=a/'))!), 3400, 'files differ'],
      ['rewritten', (s) => s.files.set([...s.files.keys()].sort().filter((k) => k.startsWith('g=b/'))[1]!, extra), 3401, 'sizes differ'],
    ];
    for (const [what, change, count, reason] of cases) {
      const store = await fresh();
      change(store);
      const ds = await openDataset(store, { codecs });
      expect({ what, reason: ds.summaryIgnored?.reason, summary: ds.summary }).toEqual({ what, reason, summary: 'common' });
      expect(ds.summaryIgnored!.message).toMatch(/^_metadata is stale: /);
      const got = await ds.readRows();
      expect(got.length).toBe(count);
      expect(ds.files.length).toBe(store.files.size - 2);
    }
    // without _common_metadata either: the footers' union
    const store = await fresh();
    store.files.delete('_common_metadata');
    store.files.set('g=c/new.parquet', extra);
    const ds = await openDataset(store, { codecs });
    expect([ds.summary, ds.summaryIgnored?.reason]).toEqual([undefined, 'files differ']);
    expect((await ds.readRows()).length).toBe(4001);
    // the fresh summary keeps the one-request plan
    const c = counted(await fresh());
    const ok = await openDataset(c, { codecs });
    expect([ok.summary, ok.summaryIgnored, c.requests]).toEqual(['metadata', undefined, 1]);
  });

  test('_common_metadata alone gives the schema: no footer is fetched at open', async () => {
    const store = memoryStore();
    await writeDataset([{ id: 1, g: 'a', n: 1n, day: 1, x: 1 }], store, { schema, partitionBy: ['g'], summary: true });
    store.files.delete('_metadata');
    const c = counted(store);
    const ds = await openDataset(c, { codecs });
    expect(ds.summary).toBe('common');
    expect(c.requests).toBe(1);
    expect(await ds.readRows({ dates: 'number' })).toEqual([{ id: 1, n: 1n, day: 1, x: 1, g: 'a' }]);
  });
});

describe('row ranges over the dataset', () => {
  // 5 files of unequal sizes (partition a: 3 files, b: 2), row groups of 300 rows, pages of 100 rows
  const rows = Array.from({ length: 5000 }, (_, i) => ({ id: i, g: i < 2600 ? 'a' : 'b', n: BigInt(i) * 7919n, day: 18000 + (i % 3), x: Math.sin(i) }));
  let store: MemoryStore;
  const open = async () => {
    if (!store) {
      store = memoryStore();
      await writeDataset(rows, store, { schema, partitionBy: ['g'], maxRowsPerFile: 1000, rowGroupRows: 300, pageRows: 100 });
    }
    return openDataset(store, { codecs });
  };

  test('readRows, iterateRowGroups and iterateBatches (rows and columns) over ranges across file boundaries equal slices of the whole read', async () => {
    const ds = await open();
    expect(ds.files.length).toBe(6);
    const whole = await ds.readRows();
    expect(whole.length).toBe(5000);
    const ranges: [number | undefined, number | undefined][] = [[0, 1], [999, 1001], [950, 2650], [4999, undefined], [undefined, 10], [1200, 1200], [4000, 9000], [6000, undefined], [2599, 2601]];
    for (const [a, b] of ranges) {
      const want = whole.slice(a ?? 0, b ?? whole.length);
      const o = { ...(a === undefined ? {} : { rowStart: a }), ...(b === undefined ? {} : { rowEnd: b }) };
      expect(await ds.readRows(o)).toEqual(want);
      const groups: Record<string, unknown>[] = [];
      for await (const g of ds.iterateRowGroups(o)) groups.push(...g.rows);
      expect(groups).toEqual(want);
      const batches: Record<string, unknown>[] = [];
      for await (const bt of ds.iterateBatches({ ...o, batchSize: 70 })) {
        expect(bt.rows.length).toBe(bt.rowEnd - bt.rowStart);
        batches.push(...bt.rows);
      }
      expect(batches).toEqual(want);
      const ids: number[] = [];
      for await (const bt of ds.iterateBatches({ ...o, form: 'columns', columns: ['id', 'g'] })) {
        const v = bt.columns.children[0]!;
        for (let i = 0; i < v.length; i++) ids.push((v as unknown as { values: Int32Array }).values[i]!);
      }
      expect(ids).toEqual(want.map((r) => r.id));
      // only partition columns: no data read, the counts still cut
      expect((await ds.readRows({ ...o, columns: ['g'] })).map((r) => r.g)).toEqual(want.map((r) => r.g));
    }
  });

  test('with a filter the range is taken before filtering; files outside are skipped, a bad bound is refused', async () => {
    const ds = await open();
    const whole = await ds.readRows({ dates: 'number' });
    const filter: Filter = { and: [{ column: 'g', op: '=', value: 'b' }, { column: 'day', op: '=', value: 18001 }] };
    let s: import('../src/index.js').DatasetScanStats | undefined;
    const got = await ds.readRows({ filter, rowStart: 2500, rowEnd: 3100, dates: 'number', onScan: (x) => (s = x) });
    expect(got).toEqual(whole.slice(2500, 3100).filter((r) => r.g === 'b' && r.day === 18001));
    expect(got.length).toBeGreaterThan(0);
    // files: a0 [0,1000) a1 [1000,2000) a2 [2000,2600) b0 [2600,3600) …: a2 and b0 hold rows of the range, a2 pruned by partition
    expect(s!.files.skipped).toEqual({ partition: 1, statistics: 0, range: 4 });
    expect(s!.files.read).toBe(1);
    await expect(ds.readRows({ rowStart: -1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(ds.readRows({ rowEnd: 1.5 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  test('a small range at the end reads a small part of the bytes: files before it untouched, the last file by its page index', async () => {
    const ds = await open();
    let all: import('../src/index.js').DatasetScanStats | undefined;
    await ds.readRows({ onScan: (x) => (all = x) });
    let tail: import('../src/index.js').DatasetScanStats | undefined;
    const c = counted(store);
    const cds = await openDataset(c, { codecs, schema: 'first' });
    const got = await cds.readRows({ rowStart: 4999, onScan: (x) => (tail = x) });
    expect(got.map((r) => r.id)).toEqual([4999]);
    expect(tail!.files.read).toBe(1);
    expect(tail!.reads.bytes.total * 20).toBeLessThan(all!.reads.bytes.total);
    // under schema 'first' the footers before the range were fetched for their row counts (and only those)
    expect(tail!.files.opened).toBe(5);
    expect(tail!.files.skipped.range).toBe(5);
    // opened with every footer: no footer fetched by the read
    let s: import('../src/index.js').DatasetScanStats | undefined;
    expect((await ds.readRows({ rowStart: 4990, rowEnd: 4995, onScan: (x) => (s = x) })).map((r) => r.id)).toEqual([4990, 4991, 4992, 4993, 4994]);
    expect([s!.footers.requests, s!.files.read]).toEqual([0, 1]);
    expect(s!.reads.bytes.total * 20).toBeLessThan(all!.reads.bytes.total);
  });
});

describe('writing', () => {
  test('maxBytesPerFile rolls files near the limit', async () => {
    const rows = Array.from({ length: 20000 }, (_, i) => ({ id: i, g: null, n: BigInt(i) * 7919n, day: i % 300, x: Math.sin(i) }));
    const store = memoryStore();
    const limit = 40000;
    const res = await writeDataset(rows, store, { schema, maxBytesPerFile: limit, compression: 'UNCOMPRESSED' });
    expect(res.files.length).toBeGreaterThan(3);
    for (const f of res.files.slice(0, -1)) {
      expect(f.bytes).toBeGreaterThanOrEqual(limit);
      // the row groups (an eighth of the limit each, now cut at that size) end within about two of them past the
      // limit; the footer comes on top (here about 5.8 KB: a dozen row groups of 5 columns with their page indexes)
      const b = store.files.get(f.path)!;
      const footer = new DataView(b.buffer, b.byteOffset, b.length).getUint32(b.length - 8, true);
      expect(f.bytes - footer - 8).toBeLessThan(limit * 1.3);
      expect(footer).toBeLessThan(limit * 0.2);
    }
    expect((await (await openDataset(store, { codecs })).readRows()).length).toBe(20000);
  });

  test('columnar input is split by partition exactly as rows are', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ id: i, g: ['a', 'b', null][i % 3]!, n: i % 4 ? BigInt(i) : null, day: 18000 + (i % 2), x: i / 3 }));
    const bytes = await writeParquet(rows, { schema });
    const file = await openParquet(bytes, { codecs });
    const cols = await file.readRowGroupColumns(0);
    const a = memoryStore();
    const b = memoryStore();
    await writeDataset(rows, a, { schema, partitionBy: ['g', 'day'], maxRowsPerFile: 17 });
    await writeDataset(cols, b, { partitionBy: ['g', 'day'], maxRowsPerFile: 17 });
    expect([...b.files.keys()].sort()).toEqual([...a.files.keys()].sort());
    const ra = await (await openDataset(a, { codecs })).readRows();
    const rb = await (await openDataset(b, { codecs })).readRows();
    expect(rb).toEqual(ra);
  });

  test('an existing dataset is not written over unless asked to add; add writes new names', async () => {
    const store = memoryStore();
    await writeDataset([{ id: 1, g: 'a', n: 1n, day: 1, x: 1 }], store, { schema });
    await expect(writeDataset([{ id: 2, g: 'a', n: 1n, day: 1, x: 1 }], store, { schema })).rejects.toMatchObject({ code: 'DATASET_EXISTS' });
    await writeDataset([{ id: 2, g: 'a', n: 1n, day: 1, x: 1 }], store, { schema, existing: 'add' });
    expect(store.files.size).toBe(2);
    expect((await (await openDataset(store, { codecs })).readRows({ columns: ['id'] })).map((r) => r.id).sort()).toEqual([1, 2]);
  });

  test('bad partition columns and limits are refused up front', async () => {
    await expect(writeDataset([{ a: [1] }], memoryStore(), { partitionBy: ['a'] })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await expect(writeDataset([{ a: 1 }], memoryStore(), { partitionBy: ['b'] })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await expect(writeDataset([{ a: 1 }], memoryStore(), { maxRowsPerFile: 0 })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await expect(writeDataset([{ a: 1 }], memoryStore(), { partitionBy: ['a'] })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  });
});

describe('reading errors', () => {
  test('unknown columns in the projection or the filter', async () => {
    const store = memoryStore();
    await writeDataset([{ id: 1, g: 'a', n: 1n, day: 1, x: 1 }], store, { schema, partitionBy: ['g'] });
    const ds = await openDataset(store, { codecs });
    await expect(ds.readRows({ columns: ['nope'] })).rejects.toMatchObject({ code: 'UNKNOWN_COLUMN' });
    // a filter is checked as a file read checks it: an unknown column is FILTER_INVALID, naming it
    await expect(ds.readRows({ filter: { column: 'nope', op: 'is null' } })).rejects.toMatchObject({ code: 'FILTER_INVALID', message: expect.stringContaining(`no leaf column 'nope'`) });
    await expect(ds.readRows({ columns: ['g.x'] })).rejects.toMatchObject({ code: 'UNKNOWN_COLUMN' });
    await expect(openDataset(memoryStore(), { codecs })).rejects.toMatchObject({ code: 'NO_FILES' });
  });

  test('filter values on partition columns are converted as on file columns: a Date, YYYY-MM-DD or day number on a date partition, a number or bigint on an integer one; anything else is FILTER_INVALID', async () => {
    const store = memoryStore();
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: i, day: 19723 + (i % 3), k: BigInt(i % 2) }));
    await writeDataset(rows, store, { schema: { id: field.int32(), day: field.date(), k: field.int64() }, partitionBy: ['day', 'k'] });
    const ds = await openDataset(store, { codecs });
    expect(ds.partitions).toEqual([
      { name: 'day', type: 'date' },
      { name: 'k', type: 'int64' },
    ]);
    const ids = async (filter: Filter, dates?: 'date') => (await ds.readRows({ filter, columns: ['id'], ...(dates ? { dates } : {}) })).map((r) => r['id'] as number).sort((a, b) => a - b);
    const from2 = rows.filter((r) => r.day >= 19724).map((r) => r.id);
    for (const value of [new Date(Date.UTC(2024, 0, 2)), '2024-01-02', 19724]) {
      // before the check, a Date (under the default day numbers) or a string matched no partition: no rows, no error
      expect(await ids({ column: 'day', op: '>=', value })).toEqual(from2);
      expect(await ids({ column: 'day', op: '>=', value }, 'date')).toEqual(from2);
    }
    expect(await ids({ column: 'k', op: '=', value: 1 })).toEqual(rows.filter((r) => r.k === 1n).map((r) => r.id));
    expect(await ids({ column: 'k', op: 'in', values: [0n] })).toEqual(rows.filter((r) => r.k === 0n).map((r) => r.id));
    await expect(ids({ column: 'k', op: '=', value: 'one' })).rejects.toMatchObject({ code: 'FILTER_INVALID', message: expect.stringContaining(`column 'k'`) });
    await expect(ids({ column: 'day', op: '=', value: '2024-13-01' })).rejects.toMatchObject({ code: 'FILTER_INVALID' });
    await expect(ids({ column: 'day', op: '==' as never, value: 19724 })).rejects.toMatchObject({ code: 'FILTER_INVALID', message: expect.stringContaining(`did you mean '='?`) });
  });
});
