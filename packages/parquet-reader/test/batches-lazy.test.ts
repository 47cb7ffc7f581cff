// iterateBatches loads the pruning stages (pruned-scan.ts) and the filtered batches (batch-filter.ts) only for a read
// that uses them: with both unloadable (a chunk the browser could not fetch), a read without a filter or row range
// returns the same batches, rows and columns, as readRows / readRowGroupColumns, with the same scan statistics;
// a filtered or row-ranged read rejects with PART_UNAVAILABLE naming the part.
import fs from 'node:fs';
import { expect, test, vi } from 'vitest';
import { snappyCodec } from '@parquetry/parquet-codecs';
import { openParquet, type ScanStats } from '../src/index.js';
import { SAMPLE, typedError } from './helpers.js';

vi.mock('../src/pruned-scan.js', () => {
  throw new TypeError('Failed to fetch dynamically imported module: pruned-scan.js');
});
vi.mock('../src/batch-filter.js', () => {
  throw new TypeError('Failed to fetch dynamically imported module: batch-filter.js');
});

const codecs = { [snappyCodec.codec]: snappyCodec };

async function drain<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const b of it) out.push(b);
  return out;
}

test('iterateBatches without a filter or row range reads without the pruning stages and the filtered batches', async () => {
  const file = await openParquet(new Uint8Array(fs.readFileSync(SAMPLE)), { codecs });
  let stats: ScanStats | undefined;
  const batches = await drain(file.iterateBatches({ batchSize: 2, onScan: (s) => (stats = s) }));
  const rows = batches.flatMap((b) => b.rows);
  let wholeStats: ScanStats | undefined;
  expect(rows).toEqual(await file.readRows({ onScan: (s) => (wholeStats = s) }));
  expect(batches.every((b) => b.rows.length <= 2)).toBe(true);
  expect(stats).toBeDefined();
  expect(stats!.rowsReturned).toBe(file.metadata.num_rows);
  expect(stats!.rowGroups).toEqual(wholeStats!.rowGroups);
  expect(stats!.pages).toEqual(wholeStats!.pages);
  expect(stats!.rowsDecoded).toBe(wholeStats!.rowsDecoded);

  const columns = await drain(file.iterateBatches({ form: 'columns' }));
  expect(columns.reduce((n, b) => n + b.columns.length, 0)).toBe(file.metadata.num_rows);

  for (const options of [{ filter: { column: 'id', op: '>', value: 1n } as const }, { rowStart: 1 }, { rowEnd: 2 }]) {
    const e = await typedError(() => drain(file.iterateBatches(options)));
    expect(e.code, JSON.stringify(options, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).toBe('PART_UNAVAILABLE');
    expect(e.message).toMatch(/the pruning stages \(pruned-scan\)|the filtered batches \(batch-filter\)/);
  }
});
