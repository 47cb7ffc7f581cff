// `columns` sets the order of an Arrow read's fields, as pyarrow's `pq.read_table(columns=[…])`,
// `pq.ParquetFile.read(columns=[…])` and `pyarrow.dataset`'s `to_table(columns=[…])` do (QA helper-80 F7:
// `readArrowTable(f, { columns: ['s', 'id'] })` and `readDatasetArrowTable` gave `[id, s]`): each top-level field at
// its first mention (partition columns too), a nested path placing its top-level field with the struct's fields in
// schema order (as `ParquetFile.read`), a field named twice read once. Every read path (whole row groups, batches,
// filtered, ranged, with onScan) and the schema functions agree; the values are those of the schema-order read.
// Compared with pyarrow when PARQUETRY_PYTHON names a Python with pyarrow.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Table, type Schema } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { memoryStore, openDataset, type Dataset } from '@parquetry/parquet-dataset';
import { directoryStore } from '@parquetry/parquet-dataset/node';
import { openParquet, type ParquetFile } from '@parquetry/parquet-reader';
import { field, writeParquet } from '@parquetry/parquet-writer';
import { allCodecs } from 'parquetry';
import { arrowSchemaOf, arrowSchemaOfDataset, readArrowBatches, readArrowTable, readDatasetArrowBatches, readDatasetArrowTable, type ArrowReadOptions } from '../src/index.js';

const codecs = await allCodecs();
const PYTHON = process.env.PARQUETRY_PYTHON;

/** A schema's field order, a struct's fields inside braces. */
function shape(s: Schema): string[] {
  return s.fields.map((f) => (f.type.children?.length && String(f.type).startsWith('Struct') ? `${f.name}{${f.type.children.map((c: { name: string }) => c.name).join(',')}}` : f.name));
}

const FILE_CASES: { columns: ArrowReadOptions['columns']; expected: string[] }[] = [
  { columns: ['s', 'id'], expected: ['s{a,b}', 'id'] },
  { columns: ['g', 's', 'id'], expected: ['g', 's{a,b}', 'id'] },
  { columns: ['l', 'id'], expected: ['l', 'id'] },
  { columns: ['s.b', 'id', 's.a'], expected: ['s{a,b}', 'id'] },
  { columns: ['g', ['s', 'b']], expected: ['g', 's{b}'] },
  { columns: ['g', 'id', 'g'], expected: ['g', 'id'] },
  { columns: ['id', 's', 'g'], expected: ['id', 's{a,b}', 'g'] },
  { columns: undefined, expected: ['id', 's{a,b}', 'g', 'l'] },
];

const n = 10;
const rows = Array.from({ length: n }, (_, i) => ({ id: BigInt(i), s: { a: i * 10, b: `b${i}` }, g: i + 0.5, l: [i, i + 1] }));
const schema = { id: field.int64({ required: true }), s: field.struct({ a: field.int32(), b: field.string() }), g: field.double(), l: field.list(field.int32()) };

/** Every file read path's schema and table for one `columns`: all must have `expected`, the values of the plain read. */
async function checkFile(file: ParquetFile, columns: ArrowReadOptions['columns'], expected: string[]): Promise<void> {
  const base: ArrowReadOptions = columns === undefined ? {} : { columns };
  const label = JSON.stringify(columns);
  expect(shape(arrowSchemaOf(file, base)), `${label} arrowSchemaOf`).toEqual(expected);
  // the same columns in schema order: the values each field must hold
  const inSchemaOrder = await readArrowTable(file, columns === undefined ? {} : { columns: [...columns].sort((x, y) => order(x) - order(y)) });
  const reads: [string, ArrowReadOptions][] = [
    ['whole', base],
    ['batches', { ...base, batchSize: 3 }],
    ['filtered', { ...base, filter: { column: 'g', op: '>', value: 2 } }],
    ['ranged', { ...base, rowStart: 1, rowEnd: 8 }],
    ['onScan', { ...base, onScan: () => undefined }],
  ];
  for (const [name, o] of reads) {
    const t = await readArrowTable(file, o);
    expect(shape(t.schema), `${label} ${name}`).toEqual(expected);
    for (const b of t.batches) expect(shape(b.schema), `${label} ${name} batch`).toEqual(expected);
    const bs: Table['batches'] = [];
    for await (const b of readArrowBatches(file, o)) bs.push(b);
    for (const b of bs) expect(shape(b.schema), `${label} ${name} readArrowBatches`).toEqual(expected);
    if (name === 'whole') {
      for (const f of t.schema.fields) expect(JSON.stringify(t.getChild(f.name)!.toJSON(), big), `${label} ${f.name}`).toBe(JSON.stringify(inSchemaOrder.getChild(f.name)!.toJSON(), big));
    }
  }
}

const big = (_: string, v: unknown) => (typeof v === 'bigint' ? String(v) : v);
const order = (c: string | readonly string[]) => ['id', 's', 'g', 'l'].indexOf(typeof c === 'string' ? c.split('.')[0]! : c[0]!);

const DATASET_CASES: { columns: string[] | undefined; expected: string[] }[] = [
  { columns: ['g', 's', 'id'], expected: ['g', 's{a,b}', 'id'] },
  { columns: ['p', 'id'], expected: ['p', 'id'] },
  { columns: ['q', 'g', 'p', 'id'], expected: ['q', 'g', 'p', 'id'] },
  { columns: ['id', 'p', 's'], expected: ['id', 'p', 's{a,b}'] },
  { columns: undefined, expected: ['id', 's{a,b}', 'g', 'p', 'q'] },
];

/** Every dataset read path's schema for one `columns`. */
async function checkDataset(ds: Dataset, columns: string[] | undefined, expected: string[]): Promise<void> {
  const o = columns === undefined ? {} : { columns };
  const label = JSON.stringify(columns);
  expect(shape(await arrowSchemaOfDataset(ds, o)), `${label} arrowSchemaOfDataset`).toEqual(expected);
  for (const extra of [{}, { batchSize: 2 }, { filter: { column: 'q', op: '!=' as const, value: 'z' } }]) {
    const t = await readDatasetArrowTable(ds, { ...o, ...extra });
    expect(t.numRows).toBeGreaterThan(0);
    expect(shape(t.schema), `${label} readDatasetArrowTable`).toEqual(expected);
    for await (const b of readDatasetArrowBatches(ds, { ...o, ...extra })) expect(shape(b.schema), `${label} readDatasetArrowBatches`).toEqual(expected);
  }
}

describe('Arrow reads: columns set the field order', () => {
  let file: ParquetFile;
  let ds: Dataset;
  beforeAll(async () => {
    file = await openParquet(await writeParquet(rows, { schema, rowGroupRows: 4, pageRows: 2 }), { codecs });
    const dsSchema = { id: field.int64({ required: true }), s: field.struct({ a: field.int32(), b: field.string() }), g: field.double() };
    const part = (k: number) => rows.slice(k * 5, k * 5 + 5).map(({ l: _l, ...r }) => r);
    ds = await openDataset(
      memoryStore({ 'p=1/q=x/a.parquet': await writeParquet(part(0), { schema: dsSchema }), 'p=2/q=y/b.parquet': await writeParquet(part(1), { schema: dsSchema }) }),
      { codecs },
    );
  });

  for (const { columns, expected } of FILE_CASES) {
    test(`file ${JSON.stringify(columns)}: ${expected.join(', ')}`, async () => {
      await checkFile(file, columns, expected);
    });
  }
  for (const { columns, expected } of DATASET_CASES) {
    test(`dataset ${JSON.stringify(columns)}: ${expected.join(', ')}`, async () => {
      await checkDataset(ds, columns, expected);
    });
  }
});

describe.skipIf(!PYTHON)('Arrow reads: columns set the field order as pyarrow does', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-arrow-order-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('pq.ParquetFile.read / pq.read_table on a file, pyarrow.dataset on a hive dataset, both written by pyarrow', async () => {
    const script = `
import sys, json, pyarrow as pa, pyarrow.parquet as pq, pyarrow.dataset as ds
at, root = sys.argv[1], sys.argv[2]
n = 10
t = pa.table({'id': pa.array(range(n), pa.int64()), 's': pa.array([{'a': i * 10, 'b': 'b%d' % i} for i in range(n)], pa.struct([('a', pa.int32()), ('b', pa.string())])),
  'g': [i + 0.5 for i in range(n)], 'l': pa.array([[i, i + 1] for i in range(n)], pa.list_(pa.int32()))})
pq.write_table(t, at, row_group_size=4)
d = t.drop_columns(['l']).append_column('p', pa.array([1 + i // 5 for i in range(n)], pa.int64())).append_column('q', pa.array(['x' if i < 5 else 'y' for i in range(n)]))
ds.write_dataset(d, root, format='parquet', partitioning=['p', 'q'], partitioning_flavor='hive')
def shape(s):
  return [x.name + '{' + ','.join(c.name for c in x.type) + '}' if pa.types.is_struct(x.type) else x.name for x in s]
f = pq.ParquetFile(at)
files = [shape(f.read(columns=c).schema) for c in json.loads(sys.argv[3])]
# pq.read_table gives the same order for top-level names named once (it flattens a nested path, repeats a name named twice)
tops = [shape(pq.read_table(at, columns=c).schema) for c in json.loads(sys.argv[3]) if c is None or (all('.' not in x for x in c) and len(set(c)) == len(c))]
dsd = ds.dataset(root, partitioning='hive')
print(json.dumps({'files': files, 'tops': tops, 'datasets': [shape(dsd.to_table(columns=c).schema) for c in json.loads(sys.argv[4])]}))
`;
    const at = path.join(dir, 'pa.parquet');
    const root = path.join(dir, 'ds');
    const fileCases = FILE_CASES.map((c) => (c.columns === undefined ? null : c.columns.map((p) => (typeof p === 'string' ? p : p.join('.')))));
    const got = JSON.parse(execFileSync(PYTHON!, ['-c', script, at, root, JSON.stringify(fileCases), JSON.stringify(DATASET_CASES.map((c) => c.columns ?? null))], { encoding: 'utf8' })) as {
      files: string[][];
      tops: string[][];
      datasets: string[][];
    };
    const file = await openParquet(fs.readFileSync(at), { codecs });
    for (let k = 0; k < FILE_CASES.length; k++) {
      expect(got.files[k], JSON.stringify(FILE_CASES[k]!.columns)).toEqual(FILE_CASES[k]!.expected);
      await checkFile(file, FILE_CASES[k]!.columns, got.files[k]!);
    }
    const tops = FILE_CASES.filter((c) => c.columns === undefined || (c.columns.every((p) => typeof p === 'string' && !p.includes('.')) && new Set(c.columns).size === c.columns.length));
    expect(got.tops).toEqual(tops.map((c) => c.expected));
    const ds = await openDataset(directoryStore(root), { codecs });
    for (let k = 0; k < DATASET_CASES.length; k++) {
      expect(got.datasets[k], JSON.stringify(DATASET_CASES[k]!.columns)).toEqual(DATASET_CASES[k]!.expected);
      await checkDataset(ds, DATASET_CASES[k]!.columns, got.datasets[k]!);
    }
  });
});
