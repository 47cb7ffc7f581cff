/**
 * pyarrow interop (PARQUETRY_PYTHON names a Python with pyarrow; CI installs one): `pyarrow.dataset.write_dataset`
 * with hive partitioning over two writes with different schemas, read by us with results equal to DuckDB's
 * `union_by_name` query over the same files; pyarrow's `_metadata` / `_common_metadata` (`pq.write_metadata` with a
 * metadata collector) planning our read; and pyarrow reading what we write: `pyarrow.dataset` over our partitioned
 * files, and `pq.read_metadata` / `ds.parquet_dataset` over our `_metadata`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { field } from '@parquetry/parquet-writer';
import { openDataset, writeDataset, directoryStore } from '../src/node.js';
import type { DatasetScanStats, DatasetStore } from '../src/index.js';

const PYTHON = process.env.PARQUETRY_PYTHON;
const codecs = builtinCodecs();
let dir = '';
let con: DuckDBConnection;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-dataset-pa-'));
  con = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function py(script: string, ...args: string[]): string {
  return execFileSync(PYTHON!, ['-c', script, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
}

function text(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v);
}
const canon = (rows: readonly Record<string, unknown>[], cols: readonly string[]) => rows.map((r) => JSON.stringify(cols.map((c) => text(r[c])))).sort();

/** A directory store that counts requests and bytes. */
function counted(root: string): DatasetStore & { requests: number; bytes: number } {
  const s = directoryStore(root);
  const c = {
    location: s.location,
    requests: 0,
    bytes: 0,
    list: () => s.list(),
    async get(p: string) {
      const b = await s.get(p);
      c.requests++;
      c.bytes += b?.length ?? 0;
      return b;
    },
    async open(p: string, size?: number) {
      const src = await s.open(p, size);
      return {
        byteLength: src.byteLength,
        read: (a: number, b: number) => {
          c.requests++;
          c.bytes += b - a;
          return src.read(a, b);
        },
      };
    },
  };
  return c;
}

const WRITE_EVOLVED = `
import sys, datetime, pyarrow as pa, pyarrow.dataset as ds
root = sys.argv[1]
n = 600
t1 = pa.table({
  'id': pa.array(range(n), pa.int32()),
  'v': pa.array([i * 0.5 for i in range(n)], pa.float32()),
  's': pa.array([None if i % 7 == 0 else 's%d' % i for i in range(n)], pa.string()),
  'k': pa.array([None if i % 10 == 0 else i % 3 for i in range(n)], pa.int64()),
  'd': pa.array([datetime.date(2024, 3, 1 + i % 2) for i in range(n)], pa.date32()),
})
ds.write_dataset(t1, root, format='parquet', partitioning=['k', 'd'], partitioning_flavor='hive', basename_template='a-{i}.parquet', max_rows_per_group=64)
t2 = pa.table({
  'id': pa.array(range(10000, 10300), pa.int64()),
  'v': pa.array([i / 3 for i in range(300)], pa.float64()),
  't': pa.array([i % 2 == 0 for i in range(300)], pa.bool_()),
  'k': pa.array([5] * 300, pa.int64()),
  'd': pa.array([datetime.date(2024, 3, 1)] * 300, pa.date32()),
})
ds.write_dataset(t2, root, format='parquet', partitioning=['k', 'd'], partitioning_flavor='hive', basename_template='b-{i}.parquet', existing_data_behavior='overwrite_or_ignore', max_rows_per_group=64)
`;

const WRITE_SUMMARY = `
import sys, os, pyarrow as pa, pyarrow.dataset as ds, pyarrow.parquet as pq
root = sys.argv[1]
n = 1000
t = pa.table({'id': pa.array(range(n), pa.int64()), 'name': ['n%d' % i for i in range(n)], 'g': pa.array([['x', 'y', 'z'][i % 3] for i in range(n)])})
collected = []
def visit(f):
  md = f.metadata
  md.set_file_path(os.path.relpath(f.path, root))
  collected.append(md)
ds.write_dataset(t, root, format='parquet', partitioning=['g'], partitioning_flavor='hive', file_visitor=visit, max_rows_per_file=200, max_rows_per_group=200)
schema = t.schema.remove(t.schema.get_field_index('g'))
pq.write_metadata(schema, os.path.join(root, '_common_metadata'))
pq.write_metadata(schema, os.path.join(root, '_metadata'), metadata_collector=collected)
`;

describe.skipIf(!PYTHON)('pyarrow writes, we read', () => {
  test('write_dataset (hive) over two schemas: equal to DuckDB union_by_name, with widening and nulls', async () => {
    const root = path.join(dir, 'pa-evolved');
    py(WRITE_EVOLVED, root);
    const ds = await openDataset(root, { codecs });
    expect(ds.partitions).toEqual([
      { name: 'k', type: 'int64' },
      { name: 'd', type: 'date' },
    ]);
    expect(ds.schema.field.fields.map((f) => f.name)).toEqual(['id', 'v', 's', 't', 'k', 'd']);
    const cols = ['id', 'v', 's', 't', 'k', 'd'];
    const ours = await ds.readRows({ dates: 'date' });
    const theirs = (await con.runAndReadAll(`SELECT ${cols.join(', ')} FROM read_parquet('${root}/**/*.parquet', hive_partitioning = true, union_by_name = true)`)).getRowObjectsJson();
    expect(ours.length).toBe(900);
    expect(canon(ours, cols)).toEqual(canon(theirs as Record<string, unknown>[], cols));
    // a filter on the null partition and on a column only the second write has
    let s: DatasetScanStats | undefined;
    const nulls = await ds.readRows({ filter: { column: 'k', op: 'is null' }, onScan: (x) => (s = x) });
    expect(nulls.length).toBe(60);
    expect(s!.files.skipped.partition).toBe(ds.files.length - ds.files.filter((f) => f.partition.k === null).length);
    const ts = await ds.readRows({ filter: { column: 't', op: '=', value: true }, columns: ['id'] });
    expect(ts.length).toBe(150);
  });

  test("pyarrow's _metadata plans our read in one request; rows equal DuckDB's", async () => {
    const root = path.join(dir, 'pa-summary');
    py(WRITE_SUMMARY, root);
    const store = counted(root);
    const ds = await openDataset(store, { codecs });
    expect(ds.summary).toBe('metadata');
    expect(store.requests).toBe(1);
    expect(ds.files.length).toBe(6); // 334 + 333 + 333 rows, files of at most 200
    let s: DatasetScanStats | undefined;
    const ours = await ds.readRows({ filter: { and: [{ column: 'g', op: '=', value: 'y' }, { column: 'id', op: '>=', value: 900 }] }, onScan: (x) => (s = x) });
    const theirs = (await con.runAndReadAll(`SELECT id, name, g FROM read_parquet('${root}/**/*.parquet', hive_partitioning = true) WHERE g = 'y' AND id >= 900`)).getRowObjectsJson();
    expect(canon(ours, ['id', 'name', 'g'])).toEqual(canon(theirs as Record<string, unknown>[], ['id', 'name', 'g']));
    // partition 'y' has two files; ids ascend, so only the second can hold ids >= 900
    expect(s!.files).toEqual({ total: 6, opened: 0, read: 1, skipped: { partition: 4, statistics: 1 } });
    expect(s!.footers.requests).toBe(0);
    expect(store.requests).toBe(1 + s!.reads.requests.total);
    // _common_metadata alone: the schema without a footer fetch
    fs.rmSync(path.join(root, '_metadata'));
    const common = counted(root);
    const ds2 = await openDataset(common, { codecs });
    expect(ds2.summary).toBe('common');
    expect(common.requests).toBe(1);
    expect((await ds2.readRows()).length).toBe(1000);
  });
});

describe.skipIf(!PYTHON)('we write, pyarrow reads', () => {
  test('pyarrow.dataset reads our partitioned dataset; pq.read_metadata and ds.parquet_dataset read our _metadata', async () => {
    const root = path.join(dir, 'ours');
    const rows = Array.from({ length: 1500 }, (_, i) => ({ id: BigInt(i), name: i % 9 === 0 ? null : `名前 ${i}`, x: i / 4, region: ['north', 'south east', null][i % 3]!, day: 19800 + (i % 2) }));
    const schema = { id: field.int64({ required: true }), name: field.string(), x: field.double(), region: field.string(), day: field.date() };
    const res = await writeDataset(rows, root, { schema, partitionBy: ['region', 'day'], maxRowsPerFile: 200, summary: true });
    const out = JSON.parse(
      py(
        `
import sys, json, pyarrow as pa, pyarrow.dataset as ds, pyarrow.parquet as pq
root = sys.argv[1]
# pyarrow infers integer and string partition types only: DATE partitions are declared
part = ds.partitioning(pa.schema([('region', pa.string()), ('day', pa.date32())]), flavor='hive')
d = ds.dataset(root, format='parquet', partitioning=part)
rows = [{k: (str(v) if v is not None else None) for k, v in r.items()} for r in d.to_table().to_pylist()]
md = pq.read_metadata(root + '/_metadata')
paths = [md.row_group(i).column(0).file_path for i in range(md.num_row_groups)]
pds = ds.parquet_dataset(root + '/_metadata', partitioning='hive')
sub = pds.to_table(filter=ds.field('region') == 'south east').num_rows
print(json.dumps({'rows': rows, 'num_rows': md.num_rows, 'paths': paths, 'sub': sub, 'schema': str(d.schema.field('day').type)}))
`,
        root,
      ),
    ) as { rows: Record<string, unknown>[]; num_rows: number; paths: string[]; sub: number; schema: string };
    const cols = ['id', 'name', 'x', 'region', 'day'];
    const expected = rows.map((r) => ({ ...r, day: new Date(r.day * 86400000), x: Number.isInteger(r.x) ? r.x.toFixed(1) : r.x }));
    expect(canon(out.rows, cols)).toEqual(canon(expected, cols));
    expect(out.num_rows).toBe(1500);
    expect(out.paths).toEqual(res.summary!.row_groups.map((rg) => rg.columns[0]!.file_path));
    expect(new Set(out.paths)).toEqual(new Set(res.files.map((f) => f.path)));
    expect(out.sub).toBe(500);
    expect(out.schema).toBe('date32[day]');
  });
});
