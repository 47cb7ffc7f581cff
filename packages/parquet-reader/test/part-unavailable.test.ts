// A part of the reader loaded with import() that cannot be loaded (a chunk the browser could not fetch) fails the
// read with ParquetError PART_UNAVAILABLE naming the part, its cause the load's error, never the raw import error;
// reads that do not need the part are unaffected.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, vi } from 'vitest';
import { snappyCodec } from '@parquetry/parquet-codecs';
import { isParquetError } from '@parquetry/thrift-compact';
import { openParquet } from '../src/index.js';

vi.mock('../src/columnar-part.js', () => {
  throw new TypeError('Failed to fetch dynamically imported module: columnar-part.js');
});
vi.mock('../src/pruned-scan.js', () => {
  throw new TypeError('Failed to fetch dynamically imported module: pruned-scan.js');
});

const SAMPLE = fileURLToPath(new URL('../../../fixtures/sample/sample.parquet', import.meta.url));
const codecs = { [snappyCodec.codec]: snappyCodec };

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

test('readRowGroupColumns without its columnar part, a filtered read without the pruning stages: PART_UNAVAILABLE, every time; readRows still reads', async () => {
  const file = await openParquet(new Uint8Array(fs.readFileSync(SAMPLE)), { codecs });
  for (let i = 0; i < 2; i++) {
    const e = await rejection(file.readRowGroupColumns(0));
    expect(isParquetError(e)).toBe(true);
    expect(e).toMatchObject({ code: 'PART_UNAVAILABLE' });
    // (vitest reports a mock factory's throw as its own error, with the factory's as its cause)
    expect((e as Error).message).toMatch(/^parquet-reader: cannot load columnar assembly \(columnar-part\) \(a later read tries again\): \S/);
    expect((e as Error).cause).toBeInstanceOf(Error);
    const f = await rejection(file.readRows({ filter: { column: 'id', op: '>', value: 1n } }));
    expect(f).toMatchObject({ name: 'ParquetError', code: 'PART_UNAVAILABLE' });
    expect((f as Error).message).toContain('the pruning stages (pruned-scan)');
  }
  const rows = await file.readRows();
  expect(rows.length).toBe(file.metadata.num_rows);
});
