/**
 * Reads that keep few rows of a row group (at most one in eight) gather the kept rows' values by position, and
 * numeric dictionary columns keep their indices until then (select.ts `gatherRows`, the chunk decoder's
 * `keepIndices`). The reference is independent of that path: every row read without a row range or filter, then
 * sliced or filtered in the test.
 */
import { CompressionCodec, builtinCodecs, type CodecMap } from '@parquetry/parquet-codecs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
// the writer by path: a devDependency on it would make a cycle in turbo's build graph (the writer's tests read)
import { writeParquet, type Row, type SchemaSpec } from '../../parquet-writer/src/index.js';
import { optionsArb, rowsArb, schemaArb } from '../../parquet-writer/test/arbitraries.js';
import { openParquet } from '../src/index.js';
import { matchRow } from '../src/filters.js';
import { rowOf } from './prune-arbitraries.js';
import { createGzipCodec } from '../../codec-gzip/src/index.js';

const codecs: CodecMap = { ...builtinCodecs(), [CompressionCodec.GZIP]: createGzipCodec() };

describe('sparse row selections', () => {
  test('random schemas and writer options: a short row range equals the slice of a full read', async () => {
    const caseArb = schemaArb.chain((schema) => fc.record({ schema: fc.constant(schema), rows: rowsArb(schema, 64), options: optionsArb(schema), at: fc.nat(), len: fc.integer({ min: 1, max: 8 }) }));
    let sparse = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ schema, rows, options, at, len }) => {
        // one row group: no byte limit either
        const { rowGroupBytes: _bytes, ...one } = options;
        const bytes = await writeParquet(rows, { ...one, schema, codecs, rowGroupRows: rows.length });
        const file = await openParquet(bytes, { codecs });
        // one row group: the selection is a few of its rows
        expect(file.metadata.row_groups.length).toBe(1);
        const all = await file.readRows();
        const n = all.length;
        const start = at % (n - len + 1);
        // at most one row in eight: the positional gather
        if (len * 8 <= n) sparse++;
        expect(await file.readRows({ rowStart: start, rowEnd: start + len })).toEqual(all.slice(start, start + len));
        // columnar: the row group's vector holds the same rows
        const v = await file.readRowGroupColumns(0, { rowStart: start, rowEnd: start + len, binary: 'values' });
        const whole = await file.readRowGroupColumns(0, { binary: 'values' });
        expect(v.length).toBe(len);
        expect(Array.from({ length: len }, (_, i) => rowOf(v, i))).toEqual(Array.from({ length: len }, (_, i) => rowOf(whole, start + i)));
      }),
      { numRuns: Number(process.env.SPARSE_RUNS ?? 60) },
    );
    expect(sparse).toBeGreaterThan(0);
  }, 120_000);

  test('every flat physical type, plain and dictionary, required and optional: a filter keeping scattered rows', async () => {
    const n = 3000;
    const schema: SchemaSpec = {
      k: { type: 'int32', required: true },
      b: { type: 'boolean', required: true },
      i32: { type: 'int32', required: true },
      i32d: { type: 'int32' },
      i64: { type: 'int64', required: true },
      i64d: { type: 'int64' },
      f32: { type: 'float', required: true },
      f64d: { type: 'double', required: true },
      s: { type: 'string', required: true },
      sd: { type: 'string' },
      u: { type: 'uuid', required: true },
      dec: { type: 'decimal', precision: 20, scale: 2, required: true },
      t96: { type: 'int96' },
      ts: { type: 'timestamp', unit: 'micros', utc: true, required: true },
    };
    const hex = (i: number) => (i * 2654435761 >>> 0).toString(16).padStart(8, '0');
    const rows: Row[] = [];
    for (let i = 0; i < n; i++) {
      rows.push({
        k: i,
        b: i % 3 === 0,
        i32: i * 7919 - 1_000_000,
        i32d: i % 5 === 0 ? null : i % 11,
        i64: BigInt(i) * 1_000_000_007n - 5n,
        i64d: i % 4 === 0 ? null : BigInt(i % 13) << 40n,
        f32: Math.fround(i / 3),
        f64d: (i % 9) / 4,
        s: `row-${i}-${'x'.repeat(i % 40)}`,
        sd: i % 6 === 0 ? null : `cat-${i % 7}`,
        u: `${hex(i)}-0000-4000-8000-${hex(i * 3)}0000`,
        dec: `${i}.${String(i % 100).padStart(2, '0')}`,
        t96: i % 10 === 0 ? null : new Date(Date.UTC(2020, 0, 1) + i * 1000),
        ts: new Date(Date.UTC(2021, 5, 1) + i * 60_000),
      });
    }
    for (const dictionary of [true, false]) {
      const bytes = await writeParquet(rows, { schema, dictionary, rowGroupRows: n, pageRows: 700 } as never);
      const file = await openParquet(bytes, { codecs });
      const all = await file.readRows();
      expect(all.length).toBe(n);
      for (const values of [[3, 700, 701, 1499, 2999], Array.from({ length: 30 }, (_, j) => j * 97 + 5), [0]]) {
        const filter = { column: 'k', op: 'in' as const, values };
        const want = all.filter((r) => matchRow(filter, r));
        expect(want.length).toBe(values.length);
        expect(await file.readRows({ filter })).toEqual(want);
        // the filter column left out of the output
        expect(await file.readRows({ filter, columns: ['i64d', 'f64d', 'sd'] })).toEqual(want.map((r) => ({ i64d: r['i64d'], f64d: r['f64d'], sd: r['sd'] })));
      }
    }
  }, 60_000);
});
