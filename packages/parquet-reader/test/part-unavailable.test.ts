// A part of the reader loaded with import() that cannot be loaded (a chunk the browser could not fetch) fails the
// read with ParquetError PART_UNAVAILABLE naming the part, its cause the load's error, never the raw import error;
// reads that do not need the part are unaffected.
import fs from 'node:fs';
import { expect, test, vi } from 'vitest';
import { snappyCodec } from '@parquetry/parquet-codecs';
import { openParquet } from '../src/index.js';
import { SAMPLE, typedError } from './helpers.js';

vi.mock('../src/columnar-part.js', () => {
  throw new TypeError('Failed to fetch dynamically imported module: columnar-part.js');
});
vi.mock('../src/pruned-scan.js', () => {
  throw new TypeError('Failed to fetch dynamically imported module: pruned-scan.js');
});

const codecs = { [snappyCodec.codec]: snappyCodec };

test('readRowGroupColumns without its columnar part, a filtered read without the pruning stages: PART_UNAVAILABLE, every time; readRows still reads', async () => {
  const file = await openParquet(new Uint8Array(fs.readFileSync(SAMPLE)), { codecs });
  for (let i = 0; i < 2; i++) {
    const e = await typedError(() => file.readRowGroupColumns(0));
    expect(e.code).toBe('PART_UNAVAILABLE');
    // (vitest reports a mock factory's throw as its own error, with the factory's as its cause)
    expect(e.message).toMatch(/^parquet-reader: cannot load columnar assembly \(columnar-part\) \(a later read tries again\): \S/);
    expect(e.cause).toBeInstanceOf(Error);
    const f = await typedError(() => file.readRows({ filter: { column: 'id', op: '>', value: 1n } }));
    expect(f.code).toBe('PART_UNAVAILABLE');
    expect(f.message).toContain('the pruning stages (pruned-scan)');
  }
  const rows = await file.readRows();
  expect(rows.length).toBe(file.metadata.num_rows);
});
