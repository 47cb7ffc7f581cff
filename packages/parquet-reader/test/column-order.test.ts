/**
 * `columns` sets the output order of the top-level fields, as pyarrow's `ParquetFile.read(columns=[…])` and SQL's
 * `SELECT s, id` do (QA helper-80 F7: the reader kept schema order): rows' keys, row and column batches, and
 * `readRowGroupColumns`' children follow each field's first mention; a nested path places its top-level field, whose
 * own fields keep their schema order; a repeated path counts once. Compared with pyarrow when PARQUETRY_PYTHON names
 * a Python with pyarrow, and with the order pyarrow 25 gives, written out, otherwise.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
// the writer by path: a devDependency on it would make a cycle in turbo's build graph (the writer's tests read)
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { openParquet, type ParquetFile, type ReadOptions, type StructVector } from '@parquetry/parquet-reader';
import { rowShape, vectorShape } from './shapes.js';

const codecs = builtinCodecs();
const PYTHON = process.env.PARQUETRY_PYTHON;

const n = 10;
const rows = Array.from({ length: n }, (_, i) => ({ id: BigInt(i), s: { a: i * 10, b: `b${i}` }, g: i + 0.5, l: [i, i + 1] }));
const schema = { id: field.int64({ required: true }), s: field.struct({ a: field.int32(), b: field.string() }), g: field.double(), l: field.list(field.int32()) };

/** The cases: `columns`, and the order pyarrow 25's `ParquetFile.read(columns=…)` gives (`s{…}`: a struct's fields). */
const CASES: { columns: ReadOptions['columns']; pyarrow: string[] }[] = [
  { columns: ['s', 'id'], pyarrow: ['s{a,b}', 'id'] },
  { columns: ['g', 's', 'id'], pyarrow: ['g', 's{a,b}', 'id'] },
  { columns: ['l', 'g'], pyarrow: ['l', 'g'] },
  { columns: ['s.b', 'id', 's.a'], pyarrow: ['s{a,b}', 'id'] },
  { columns: ['id', 's.b'], pyarrow: ['id', 's{b}'] },
  { columns: ['s.b', 'id'], pyarrow: ['s{b}', 'id'] },
  { columns: [['s', 'b'], 'g'], pyarrow: ['s{b}', 'g'] },
  { columns: ['g', 'id', 'g'], pyarrow: ['g', 'id'] },
  { columns: ['id', 'id'], pyarrow: ['id'] },
  { columns: ['id', 's', 'g'], pyarrow: ['id', 's{a,b}', 'g'] },
  { columns: undefined, pyarrow: ['id', 's{a,b}', 'g', 'l'] },
];

/** Every read surface's order for one `columns` (each must be the same). */
async function shapes(file: ParquetFile, extra: ReadOptions): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  out.readRows = rowShape((await file.readRows(extra))[0]!);
  for await (const { rows } of file.iterateRowGroups(extra)) {
    out.iterateRowGroups = rowShape(rows[0]!);
    break;
  }
  for await (const b of file.iterateBatches({ ...extra, batchSize: 3 })) {
    out.rowBatches = rowShape(b.rows[0]!);
    break;
  }
  for await (const b of file.iterateBatches({ ...extra, batchSize: 3, form: 'columns' })) {
    out.columnBatches = vectorShape(b.columns);
    break;
  }
  out.readRowGroupColumns = vectorShape(await file.readRowGroupColumns(0, extra));
  return out;
}

/** The same order from every surface, under the plain read, a filtered one, a ranged one and `values: 'json'`. */
async function checkOrder(file: ParquetFile, columns: ReadOptions['columns'], expected: string[]): Promise<void> {
  const base: ReadOptions = columns === undefined ? {} : { columns };
  const variants: [string, ReadOptions][] = [
    ['plain', base],
    // a filter on a column the read does not return (it stays out)
    ['filtered', { ...base, filter: { column: 'g', op: '>', value: 2 } }],
    ['ranged', { ...base, rowStart: 1, rowEnd: 8 }],
    ['json', { ...base, values: 'json' }],
    ['json filtered', { ...base, values: 'json', filter: { column: 's.a', op: '<', value: 70 } }],
  ];
  for (const [name, o] of variants) {
    const got = await shapes(file, o);
    for (const [surface, shape] of Object.entries(got)) expect(shape, `${JSON.stringify(columns)}, ${name}, ${surface}`).toEqual(expected);
  }
}

describe('columns set the output order', () => {
  let file: ParquetFile;
  beforeAll(async () => {
    file = await openParquet(await writeParquet(rows, { schema, rowGroupRows: 4, pageRows: 2, codecs }), { codecs });
  });

  for (const { columns, pyarrow } of CASES) {
    test(`${JSON.stringify(columns)}: ${pyarrow.join(', ')}`, async () => {
      await checkOrder(file, columns, pyarrow);
    });
  }

  test('the values are those of the schema-order read, keyed the same', async () => {
    const asked = await file.readRows({ columns: ['g', 's.b', 'id'] });
    const plain = await file.readRows({ columns: ['id', 's.b', 'g'] });
    expect(asked).toEqual(plain);
    expect(Object.keys(plain[0]!)).toEqual(['id', 's', 'g']);
    expect(Object.keys(asked[0]!)).toEqual(['g', 's', 'id']);
    const v = await file.readRowGroupColumns(1, { columns: ['l', 'id'] });
    const w = await file.readRowGroupColumns(1, { columns: ['id', 'l'] });
    expect(v.children).toEqual([w.children[1], w.children[0]]);
  });

  test('nulls, lists, maps and nested structs first: the same values as the schema-order read, in every surface', async () => {
    const nested = {
      id: field.int32({ required: true }),
      v: field.string(),
      s: field.struct({ a: field.int32(), t: field.struct({ x: field.list(field.int32()), y: field.string() }) }),
      l: field.list(field.struct({ p: field.int32(), q: field.string() })),
      m: field.map(field.string(), field.int64()),
    };
    const data = Array.from({ length: 40 }, (_, i) => ({
      id: i,
      v: i % 3 === 0 ? null : `v${i}`,
      s: i % 5 === 0 ? null : { a: i % 4 === 0 ? null : i, t: i % 7 === 0 ? null : { x: i % 2 ? [i, null, i + 1] : [], y: `y${i}` } },
      l: i % 6 === 0 ? null : Array.from({ length: i % 4 }, (_, k) => ({ p: k, q: k % 2 ? null : `q${k}` })),
      m: i % 8 === 0 ? null : new Map(Array.from({ length: i % 3 }, (_, k) => [`k${k}`, BigInt(i * k)])),
    }));
    const f = await openParquet(await writeParquet(data, { schema: nested, rowGroupRows: 16, pageRows: 5, codecs }), { codecs });
    for (const columns of [['m', 'l', 's', 'id'], ['s.t.x', 'v', 'l.list.element.p', 's.a'], ['l', 'm'], ['v', 'id']] as string[][]) {
      const schemaOrder = [...columns].sort((x, y) => Object.keys(nested).indexOf(x.split('.')[0]!) - Object.keys(nested).indexOf(y.split('.')[0]!));
      const top = [...new Set(columns.map((c) => c.split('.')[0]!))];
      for (const extra of [{}, { filter: { column: 'id', op: '>=', value: 3 } }, { rowStart: 2, rowEnd: 35 }] as ReadOptions[]) {
        const label = `${JSON.stringify(columns)} ${JSON.stringify(extra)}`;
        const asked = await f.readRows({ ...extra, columns });
        expect(asked, label).toEqual(await f.readRows({ ...extra, columns: schemaOrder }));
        for (const r of asked) expect(Object.keys(r), label).toEqual(top);
        const batches: Record<string, unknown>[] = [];
        for await (const b of f.iterateBatches({ ...extra, columns, batchSize: 7 })) batches.push(...b.rows);
        expect(batches, label).toEqual(asked);
        for (const r of batches) expect(Object.keys(r), label).toEqual(top);
        for (let g = 0; g < f.metadata.row_groups.length; g++) {
          const v = await f.readRowGroupColumns(g, { ...extra, columns });
          const w = await f.readRowGroupColumns(g, { ...extra, columns: schemaOrder });
          expect(vectorShape(v).map((k) => k.replace(/\{.*\}$/, '')), label).toEqual(top);
          expect(v.length).toBe(w.length);
          for (const c of v.children) expect(c, `${label} ${c.field.name}`).toEqual(w.children.find((x) => x.field.name === c.field.name));
        }
        const vb: StructVector[] = [];
        for await (const b of f.iterateBatches({ ...extra, columns, batchSize: 7, form: 'columns' })) vb.push(b.columns);
        const wb: StructVector[] = [];
        for await (const b of f.iterateBatches({ ...extra, columns: schemaOrder, batchSize: 7, form: 'columns' })) wb.push(b.columns);
        expect(vb.length).toBe(wb.length);
        vb.forEach((v, k) => {
          expect(vectorShape(v).map((x) => x.replace(/\{.*\}$/, '')), label).toEqual(top);
          for (const c of v.children) expect(c, `${label} batch ${k} ${c.field.name}`).toEqual(wb[k]!.children.find((x) => x.field.name === c.field.name));
        });
      }
    }
  });

  test('a field named __proto__ moved ahead stays an own property', async () => {
    const f = await openParquet(await writeParquet([{ a: 1, ['__proto__']: 2 }].map((r) => Object.defineProperty({ a: r.a }, '__proto__', { value: 2, enumerable: true })), { schema: Object.defineProperty({ a: field.int32() }, '__proto__', { value: field.int32(), enumerable: true }), codecs }), { codecs });
    const [row] = await f.readRows({ columns: ['__proto__', 'a'] });
    expect(Object.keys(row!)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe(2);
  });
});

describe.skipIf(!PYTHON)('columns set the output order: pyarrow ParquetFile.read(columns=…)', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-column-order-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('every case, on a file pyarrow wrote', async () => {
    const at = path.join(dir, 'pa.parquet');
    const cases = CASES.map((c) => (c.columns === undefined ? null : c.columns.map((p) => (typeof p === 'string' ? p : p.join('.')))));
    const script = `
import sys, json, pyarrow as pa, pyarrow.parquet as pq
n = 10
t = pa.table({'id': pa.array(range(n), pa.int64()), 's': pa.array([{'a': i * 10, 'b': 'b%d' % i} for i in range(n)], pa.struct([('a', pa.int32()), ('b', pa.string())])),
  'g': [i + 0.5 for i in range(n)], 'l': pa.array([[i, i + 1] for i in range(n)], pa.list_(pa.int32()))})
pq.write_table(t, sys.argv[1], row_group_size=4)
f = pq.ParquetFile(sys.argv[1])
def shape(s):
  return [x.name + '{' + ','.join(c.name for c in x.type) + '}' if pa.types.is_struct(x.type) else x.name for x in s]
print(json.dumps([shape(f.read(columns=c).schema) for c in json.loads(sys.argv[2])]))
`;
    const got = JSON.parse(execFileSync(PYTHON!, ['-c', script, at, JSON.stringify(cases)], { encoding: 'utf8' })) as string[][];
    const file = await openParquet(fs.readFileSync(at), { codecs });
    for (let k = 0; k < CASES.length; k++) {
      // the order written out above is pyarrow's
      expect(got[k], JSON.stringify(CASES[k]!.columns)).toEqual(CASES[k]!.pyarrow);
      await checkOrder(file, CASES[k]!.columns, got[k]!);
    }
  });
});
