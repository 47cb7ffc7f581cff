/**
 * A filter's column as a path array (QA finding F5): in a file with both a top-level field named `a.b` and a field
 * `b` of a struct `a`, the dotted string `'a.b'` is AMBIGUOUS_COLUMN, and before this a filter had no other way to
 * name either column. `['a.b']` names the top-level field and `['a', 'b']` the struct's field; each filter is checked
 * against DuckDB (`WHERE "a.b" = …` / `WHERE a.b = …`) under each pruning stage alone and none, in readRows and in
 * batches (rows and columns). The two columns hold disjoint values (0–39 against 1000–1039, the other way round), so
 * a stage that took one column's statistics, page index or bloom filter for the other would drop matching rows.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { openParquet, type ColumnStatistics, type Filter, type ParquetFile, type PruneOptions, type ScanStats } from '../src/index.js';
import { checkFilter, matchRow, statisticsPruner } from '../src/filters.js';
import { rowsOf } from './batch-helpers.js';
import { typedError } from './helpers.js';

const N = 40;
const rows = Array.from({ length: N }, (_, i) => ({
  id: i,
  'a.b': i % 9 === 4 ? null : BigInt(i),
  a: i % 11 === 6 ? null : { b: BigInt(1039 - i) },
}));

const ONLY = (stage: keyof PruneOptions): PruneOptions => ({ statistics: false, dictionary: false, bloom: false, pageIndex: false, [stage]: true });
const STAGES: [string, false | PruneOptions][] = [
  ['none', false],
  ['statistics', ONLY('statistics')],
  ['page index', ONLY('pageIndex')],
  ['bloom filter', ONLY('bloom')],
  ['dictionary', ONLY('dictionary')],
];

let dir = '';
let con: DuckDBConnection;
let bytes: Uint8Array;
let file = '';
let f: ParquetFile;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-filter-path-'));
  // 4 row groups of 10 rows, pages of 2 rows (a page index with bounds), a bloom filter on every column
  bytes = await writeParquet(rows, {
    schema: { id: field.int32({ required: true }), 'a.b': field.int64(), a: field.struct({ b: field.int64() }) },
    rowGroupRows: 10,
    pageRows: 2,
    bloomFilter: true,
    compression: 'UNCOMPRESSED',
  });
  file = path.join(dir, 'dotted.parquet');
  fs.writeFileSync(file, bytes);
  f = await openParquet(bytes);
  con = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => {
  con?.closeSync();
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

async function duckIds(where: string): Promise<number[]> {
  return (await con.runAndReadAll(`SELECT id FROM read_parquet('${file}') WHERE ${where} ORDER BY id`)).getRows().map((r) => Number(r[0]));
}

const TOP = ['a.b'] as const;
const NESTED = ['a', 'b'] as const;

/** [name, filter, DuckDB WHERE, the stages that must skip a row group (or, for the page index, rows)] */
const cases: [string, Filter, string, boolean][] = [
  ['["a.b"] = 5', { column: TOP, op: '=', value: 5n }, `"a.b" = 5`, true],
  ['["a","b"] = 1005', { column: NESTED, op: '=', value: 1005n }, `a.b = 1005`, true],
  ['["a.b"] = 1005 (a value of the other column)', { column: TOP, op: '=', value: 1005n }, `"a.b" = 1005`, true],
  ['["a","b"] = 5 (a value of the other column)', { column: NESTED, op: '=', value: 5n }, `a.b = 5`, true],
  ['["a.b"] in (3, 17, 1003)', { column: TOP, op: 'in', values: [3n, 17n, 1003n] }, `"a.b" IN (3, 17, 1003)`, true],
  ['["a","b"] in (3, 1017)', { column: NESTED, op: 'in', values: [3n, 1017n] }, `a.b IN (3, 1017)`, true],
  ['["a.b"] >= 10 and ["a","b"] < 1020', { and: [{ column: TOP, op: '>=', value: 10n }, { column: NESTED, op: '<', value: 1020n }] }, `"a.b" >= 10 AND a.b < 1020`, false],
  ['["a.b"] = 1005 or ["a","b"] = 5', { or: [{ column: TOP, op: '=', value: 1005n }, { column: NESTED, op: '=', value: 5n }] }, `"a.b" = 1005 OR a.b = 5`, true],
  ['["a","b"] is null', { column: NESTED, op: 'is null' }, `a.b IS NULL`, false],
  ['["a.b"] is null', { column: TOP, op: 'is null' }, `"a.b" IS NULL`, false],
  ['not ["a.b"] < 30', { not: { column: TOP, op: '<', value: 30n } }, `NOT ("a.b" < 30)`, false],
  ['["a.b"] != 7 and ["a","b"] <= 1032', { and: [{ column: TOP, op: '!=', value: 7n }, { column: NESTED, op: '<=', value: 1032n }] }, `"a.b" <> 7 AND a.b <= 1032`, false],
];

describe('filters naming a column by its path array, against DuckDB', () => {
  test('the file: a top-level a.b and a struct a{b}, with different values', async () => {
    expect(f.schema.columns.map((c) => c.path)).toEqual([['id'], ['a.b'], ['a', 'b']]);
    expect((await con.runAndReadAll(`SELECT "a.b", a.b FROM read_parquet('${file}') WHERE id = 1`)).getRows()).toEqual([[1n, 1038n]]);
  });

  test.each(cases)('%s: readRows and batches (rows and columns) under each pruning stage', async (_name, filter, where, prunes) => {
    const want = await duckIds(where);
    for (const [stage, prune] of STAGES) {
      let stats: ScanStats | undefined;
      const got = await f.readRows({ filter, prune, onScan: (s) => (stats = s) });
      expect([stage, got.map((r) => r.id)]).toEqual([stage, want]);
      // the rows are whole: each column as the file holds it
      for (const r of got) expect(r).toEqual(rows[r.id as number]);
      if (prunes && stage !== 'none' && stage !== 'dictionary') {
        const skipped = stats!.rowGroups.skipped;
        const n = stage === 'statistics' ? skipped.statistics : stage === 'bloom filter' ? skipped.bloom : skipped.pageIndex;
        expect([stage, n >= 2]).toEqual([stage, true]);
      }
      const batched: number[] = [];
      for await (const b of f.iterateBatches({ filter, prune, batchSize: 3 })) for (const r of b.rows) batched.push(r.id as number);
      expect([stage, 'rows batches', batched]).toEqual([stage, 'rows batches', want]);
      const columnar: number[] = [];
      for await (const b of f.iterateBatches({ filter, prune, batchSize: 3, form: 'columns', columns: ['id'] })) {
        for (const r of rowsOf(b.columns)) columnar.push((r as { id: number }).id);
      }
      expect([stage, 'column batches', columnar]).toEqual([stage, 'column batches', want]);
      const projected = await f.readRows({ filter, prune, columns: [['a.b']] });
      expect([stage, 'projected', projected]).toEqual([stage, 'projected', want.map((id) => ({ 'a.b': rows[id]!['a.b'] }))]);
    }
  });

  test('a row group of the columnar read, with a path-array filter', async () => {
    const v = await f.readRowGroupColumns(0, { filter: { column: NESTED, op: '>=', value: 1035n }, columns: ['id'] });
    expect(rowsOf(v)).toEqual((await duckIds('a.b >= 1035 AND id < 10')).map((id) => ({ id })));
  });
});

describe('path-array filter columns: errors and the filters subpath', () => {
  test("the dotted string 'a.b' is AMBIGUOUS_COLUMN, and the message gives both path arrays", async () => {
    const e = await typedError(() => f.readRows({ filter: { column: 'a.b', op: '=', value: 1n } }));
    expect(e.code).toBe('AMBIGUOUS_COLUMN');
    expect(e.message).toBe(
      `parquet-reader: filter: 'a.b' names 2 columns: ["a.b"] (leaf 1), ["a","b"] (leaf 2); give the filter's column as a path array to say which (column: ["a.b"] or column: ["a","b"])`,
    );
    // inside and/or/not too, with the filter's place
    const e2 = await typedError(() => f.readRows({ filter: { and: [{ column: 'id', op: '=', value: 1 }, { not: { column: 'a.b', op: 'is null' } }] } }));
    expect(e2.code).toBe('AMBIGUOUS_COLUMN');
    expect(e2.message).toMatch(/^parquet-reader: filter\.and\[1\]\.not: 'a\.b' names 2 columns/);
    // `columns` says the same of a path given as a string
    expect((await typedError(() => f.readRows({ columns: ['a.b'] }))).message).toContain("in `columns` or a filter's `column` give the path as an array of names");
  });

  test('an unknown path array is FILTER_INVALID naming the path, as an unknown dotted path is', async () => {
    const dotted = await typedError(() => f.readRows({ filter: { column: 'a.c', op: '=', value: 1n } }));
    expect(dotted.code).toBe('FILTER_INVALID');
    expect(dotted.message).toBe(`parquet-reader: filter: no leaf column 'a.c' in the schema (leaf columns: id, a.b, a.b)`);
    const array = await typedError(() => f.readRows({ filter: { column: ['a', 'c'], op: '=', value: 1n } }));
    expect(array.code).toBe('FILTER_INVALID');
    expect(array.message).toBe(`parquet-reader: filter: no leaf column '["a","c"]' in the schema (leaf columns: id, a.b, a.b)`);
    // a path that splits a name is not the name
    expect((await typedError(() => f.readRows({ filter: { column: ['a', 'b', 'c'], op: '=', value: 1n } }))).code).toBe('FILTER_INVALID');
    expect((await typedError(() => f.readRows({ filter: { column: ['a'], op: '=', value: 1n } }))).message).toBe(
      `parquet-reader: filter: '["a"]' is a group, not a leaf column; filter on one of its leaves: ["a","b"]`,
    );
    for (const bad of [[], [1], ['a', 2]]) {
      const e = await typedError(() => f.readRows({ filter: { column: bad as unknown as string, op: 'is null' } }));
      expect(e.code).toBe('FILTER_INVALID');
      expect(e.message).toMatch(/column must be a dotted path string or a non-empty array of names, got an array of \d/);
    }
    // the value's message names the column as the filter does
    const v = await typedError(() => f.readRows({ filter: { column: TOP, op: '=', value: 'x' } }));
    expect(v.message).toMatch(/^parquet-reader: filter on column '\["a\.b"\]' \(INT64\): value "x" cannot be compared/);
  });

  test('a column inside a list is FILTER_UNSUPPORTED, named by its path array when a name has a dot', async () => {
    const g = await openParquet(await writeParquet([{ 'l.x': [1, 2] }], { schema: { 'l.x': field.list(field.int32()) } }));
    const leaf = g.schema.columns[0]!.path;
    const e = await typedError(() => g.readRows({ filter: { column: leaf, op: '=', value: 1 } }));
    expect(e.code).toBe('FILTER_UNSUPPORTED');
    expect(e.message).toBe(`parquet-reader: a read cannot filter on '${JSON.stringify(leaf)}': it is inside a list or map (more than one value per row)`);
  });

  test('checkFilter names each leaf by its dotted path, or by its path array when a name has a dot or its dotted path is ambiguous', () => {
    expect(checkFilter({ column: ['id'], op: '=', value: 1 }, f.schema, {})).toEqual({ column: 'id', op: '=', value: 1 });
    // ['a', 'b'] stays an array here: the dotted path 'a.b' would name the top-level a.b too
    expect(checkFilter({ column: NESTED, op: '=', value: 1 }, f.schema, {})).toEqual({ column: ['a', 'b'], op: '=', value: 1n });
    expect(checkFilter({ column: TOP, op: '=', value: 1 }, f.schema, {})).toEqual({ column: ['a.b'], op: '=', value: 1n });
  });

  test('matchRow and statisticsPruner take path arrays', () => {
    const row = { 'a.b': 1, a: { b: 2 } };
    expect(matchRow({ column: TOP, op: '=', value: 1 }, row)).toBe(true);
    expect(matchRow({ column: NESTED, op: '=', value: 2 }, row)).toBe(true);
    expect(matchRow({ column: NESTED, op: '=', value: 1 }, row)).toBe(false);
    // a dotted string is a path of nested objects, as before
    expect(matchRow({ column: 'a.b', op: '=', value: 2 }, row)).toBe(true);
    // an inherited property is no field of the row
    expect(matchRow({ column: ['a', 'constructor'], op: 'is null' }, row)).toBe(true);
    const stats = (c: unknown) => (JSON.stringify(c) === '["a.b"]' ? ({ min: 0, max: 9, minExact: true, maxExact: true, nullCount: 0, distinctCount: undefined, nanCount: 0, numValues: 10 } as ColumnStatistics) : undefined);
    expect(statisticsPruner({ column: TOP, op: '=', value: 20 }, stats)).toBe(false);
    expect(statisticsPruner({ column: NESTED, op: '=', value: 20 }, stats)).toBe(true);
  });
});
