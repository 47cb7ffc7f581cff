/**
 * `columns` sets a dataset read's output order, as `pyarrow.dataset`'s `to_table(columns=[…])` and SQL's
 * `SELECT p, s, id` do (QA helper-80 F7: `ds.readRows({ columns: ['g', 's', 'id'] })` gave keys `id, s, g`, partition
 * columns always last): rows' keys (readRows, iterateRowGroups, row batches) and column batches' children follow each
 * top-level field's first mention, partition columns included; a nested path places its top-level field, whose own
 * fields keep their schema order; a field mentioned again is read once. Compared with pyarrow.dataset when
 * PARQUETRY_PYTHON names a Python with pyarrow.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { field, writeParquet } from '@parquetry/parquet-writer';
import { memoryStore, openDataset, type Dataset, type DatasetReadOptions } from '../src/index.js';
import { directoryStore } from '../src/node.js';
import { rowShape, vectorShape } from '../../parquet-reader/test/shapes.js';

const codecs = builtinCodecs();
const PYTHON = process.env.PARQUETRY_PYTHON;

/** Every read surface's order for one read (first row of each; every surface must agree). */
async function checkOrder(ds: Dataset, o: DatasetReadOptions, expected: string[]): Promise<void> {
  const label = JSON.stringify(o);
  const rows = await ds.readRows(o);
  expect(rows.length, label).toBeGreaterThan(0);
  // every row, also those of a file that lacks a column (null there)
  for (const r of rows) expect(rowShape(r).map((k) => k.replace(/\{.*\}$/, '')), label).toEqual(expected.map((k) => k.replace(/\{.*\}$/, '')));
  expect(rowShape(rows.find((r) => r.s !== null && r.s !== undefined) ?? rows[0]!), `${label} readRows`).toEqual(expected);
  for await (const { rows: rg } of ds.iterateRowGroups(o)) {
    expect(rowShape(rg[0]!).map((k) => k.replace(/\{.*\}$/, '')), `${label} iterateRowGroups`).toEqual(expected.map((k) => k.replace(/\{.*\}$/, '')));
  }
  for await (const b of ds.iterateBatches({ ...o, batchSize: 2 })) {
    expect(rowShape(b.rows[0]!).map((k) => k.replace(/\{.*\}$/, '')), `${label} row batches`).toEqual(expected.map((k) => k.replace(/\{.*\}$/, '')));
  }
  for await (const b of ds.iterateBatches({ ...o, batchSize: 2, form: 'columns' })) {
    expect(vectorShape(b.columns), `${label} column batches`).toEqual(expected);
  }
}

/** The cases: `columns`, and the order pyarrow.dataset gives for top-level names (nested paths: see the test). */
const CASES: { columns: DatasetReadOptions['columns']; expected: string[] }[] = [
  { columns: ['g', 's', 'id'], expected: ['g', 's{a,b}', 'id'] },
  { columns: ['s', 'id'], expected: ['s{a,b}', 'id'] },
  { columns: ['p', 'id'], expected: ['p', 'id'] },
  { columns: ['q', 'g', 'p', 'id'], expected: ['q', 'g', 'p', 'id'] },
  { columns: ['id', 'p', 'g'], expected: ['id', 'p', 'g'] },
  { columns: ['p'], expected: ['p'] },
  { columns: ['id', 'g', 'p', 'q'], expected: ['id', 'g', 'p', 'q'] },
  { columns: undefined, expected: ['id', 's{a,b}', 'g', 'p', 'q'] },
];

/** Nested paths and repeats (pyarrow.dataset flattens `s.b` into a column `b` and repeats a column named twice). */
const OWN_CASES: { columns: DatasetReadOptions['columns']; expected: string[] }[] = [
  { columns: ['s.b', 'p', 'id', 's.a'], expected: ['s{a,b}', 'p', 'id'] },
  { columns: ['g', ['s', 'b']], expected: ['g', 's{b}'] },
  { columns: ['g', 'id', 'g', 'p', 'p'], expected: ['g', 'id', 'p'] },
];

describe('dataset columns set the output order', () => {
  let ds: Dataset;
  beforeAll(async () => {
    const schema = { id: field.int64({ required: true }), s: field.struct({ a: field.int32(), b: field.string() }), g: field.double() };
    const rows = (k: number) => Array.from({ length: 5 }, (_, i) => ({ id: BigInt(k * 10 + i), s: { a: i, b: `b${i}` }, g: i + 0.5 }));
    // the second file lacks `g` (read as null)
    const lacking = { id: field.int64({ required: true }), s: field.struct({ a: field.int32(), b: field.string() }) };
    ds = await openDataset(
      memoryStore({
        'p=1/q=x/a.parquet': await writeParquet(rows(1), { schema, rowGroupRows: 3 }),
        'p=2/q=y/b.parquet': await writeParquet(rows(2).map(({ g: _g, ...r }) => r), { schema: lacking, rowGroupRows: 3 }),
      }),
      { codecs },
    );
  });

  for (const { columns, expected } of [...CASES, ...OWN_CASES]) {
    test(`${JSON.stringify(columns)}: ${expected.join(', ')}`, async () => {
      const o: DatasetReadOptions = columns === undefined ? {} : { columns };
      await checkOrder(ds, o, expected);
      await checkOrder(ds, { ...o, values: 'json' }, expected);
      // a filter on columns the read may not return (they stay out), partition and data
      await checkOrder(ds, { ...o, filter: { and: [{ column: 'q', op: '!=', value: 'z' }, { column: 's.a', op: '<', value: 4 }] } }, expected);
      await checkOrder(ds, { ...o, rowStart: 2, rowEnd: 8 }, expected);
    });
  }
});

describe.skipIf(!PYTHON)('dataset columns set the output order: pyarrow.dataset to_table(columns=…)', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-dataset-order-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('every top-level case, on a hive dataset pyarrow wrote', async () => {
    const script = `
import sys, json, pyarrow as pa, pyarrow.dataset as ds
root = sys.argv[1]
n = 8
t = pa.table({'id': pa.array(range(n), pa.int64()), 's': pa.array([{'a': i, 'b': 'b%d' % i} for i in range(n)], pa.struct([('a', pa.int32()), ('b', pa.string())])),
  'g': [i + 0.5 for i in range(n)], 'p': pa.array([1 + i % 2 for i in range(n)], pa.int64()), 'q': ['x' if i % 2 else 'y' for i in range(n)]})
ds.write_dataset(t, root, format='parquet', partitioning=['p', 'q'], partitioning_flavor='hive')
d = ds.dataset(root, partitioning='hive')
def shape(s):
  return [x.name + '{' + ','.join(c.name for c in x.type) + '}' if pa.types.is_struct(x.type) else x.name for x in s]
print(json.dumps([shape(d.to_table(columns=c).schema) for c in json.loads(sys.argv[2])]))
`;
    const cases = CASES.map((c) => (c.columns === undefined ? null : c.columns));
    const got = JSON.parse(execFileSync(PYTHON!, ['-c', script, dir, JSON.stringify(cases)], { encoding: 'utf8' })) as string[][];
    const ds = await openDataset(directoryStore(dir), { codecs });
    for (let k = 0; k < CASES.length; k++) {
      expect(got[k], JSON.stringify(CASES[k]!.columns)).toEqual(CASES[k]!.expected);
      await checkOrder(ds, CASES[k]!.columns === undefined ? {} : { columns: CASES[k]!.columns! }, got[k]!);
    }
  });
});
