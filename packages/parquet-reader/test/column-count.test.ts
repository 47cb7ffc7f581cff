// A row group must list one column chunk per leaf column of the schema (parquet.thrift RowGroup.columns). A footer
// that lists fewer or more is refused when the file is opened with CORRUPT_METADATA naming the row group and both
// counts, the way arrow-rs refuses it ("Column count mismatch") — so that no read method, pruned or not, meets a
// missing chunk. (27 of the 42 failed before: a plain readRows() said CORRUPT_METADATA, but a filtered read, a
// row-range read, filtered batches and readRowGroupColumns with a filter threw `TypeError: Cannot read properties of
// undefined (reading 'offset_index_offset')` from PrunedScan.planRowGroup, a filter on the missing column said
// MISSING_METADATA, statistics / bloomFilter / pageIndex / columnMetaData of the missing chunk answered or threw a
// TypeError, and the pruned reads read a row group with a chunk too many without a word.)
import { beforeAll, describe, expect, test } from 'vitest';
import type { FileMetaData } from '@parquetry/thrift-compact';
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { openParquet, type ParquetFile } from '../src/index.js';
import { typedError, withFooter } from './helpers.js';

const a = { column: 'a', op: '>', value: 0 } as const;
const b = { column: 'b', op: '=', value: 'x' } as const;

/** Every read method, the pruned ones (filter, row range, batches) included. */
const reads: [string, (f: ParquetFile) => Promise<unknown>][] = [
  ['readRows()', (f) => f.readRows()],
  ['readRows({ filter: a })', (f) => f.readRows({ filter: a })],
  ['readRows({ filter: b })', (f) => f.readRows({ filter: b })],
  ['readRows({ rowStart: 1 })', (f) => f.readRows({ rowStart: 1 })],
  ['readRows({ rowEnd: 3, prune: false })', (f) => f.readRows({ rowEnd: 3, prune: false })],
  ['iterateBatches({ filter })', async (f) => {
    for await (const _ of f.iterateBatches({ filter: a, batchSize: 2 }));
  }],
  ['iterateBatches({ rowStart })', async (f) => {
    for await (const _ of f.iterateBatches({ rowStart: 1, batchSize: 2, form: 'columns' }));
  }],
  ['iterateRowGroups({ filter })', async (f) => {
    for await (const _ of f.iterateRowGroups({ filter: b }));
  }],
  ['readRowGroupColumns(g, { filter })', (f) => f.readRowGroupColumns(1, { filter: a })],
  ['readColumnChunk(g, b)', (f) => f.readColumnChunk(1, 1)],
  ['statistics(g, b)', (f) => f.statistics(1, 'b')],
  ['bloomFilter(g, b)', (f) => f.bloomFilter(1, 'b')],
  ['pageIndex(g, b)', (f) => f.pageIndex(1, 'b')],
  ['columnMetaData(g, b)', async (f) => f.columnMetaData(1, 'b')],
];

describe('a row group whose column chunks are not one per leaf column', () => {
  let good: Uint8Array;
  beforeAll(async () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({ a: i + 1, b: i % 2 ? 'x' : 'y' }));
    // two row groups of two pages per column, with page indexes and bloom filters: every pruning stage has work
    good = await writeParquet(rows, { schema: { a: field.int32(), b: field.string() }, rowGroupRows: 4, pageRows: 2, bloomFilter: true, compression: 'UNCOMPRESSED' });
    const f = await openParquet(good);
    expect(await f.readRows({ filter: a })).toHaveLength(8);
    expect(await f.pageIndex(1, 'b')).toBeDefined();
    expect(await f.bloomFilter(1, 'b')).toBeDefined();
  });

  const cases: [string, (m: FileMetaData) => void, RegExp][] = [
    ['the second row group lacks the last chunk', (m) => void m.row_groups[1]!.columns.pop(), /^parquet-reader: row group 1 has 1 column chunks, the schema has 2 leaf columns$/],
    ['the first row group has no chunk at all', (m) => void (m.row_groups[0]!.columns = []), /^parquet-reader: row group 0 has 0 column chunks, the schema has 2 leaf columns$/],
    ['the second row group has a chunk too many', (m) => void m.row_groups[1]!.columns.push(m.row_groups[1]!.columns[0]!), /^parquet-reader: row group 1 has 3 column chunks, the schema has 2 leaf columns$/],
  ];
  for (const [what, edit, message] of cases) {
    test.each(reads)(`${what}: %s is CORRUPT_METADATA naming the row group and both counts`, async (_, read) => {
      const bad = withFooter(good, edit);
      const e = await typedError(async () => read(await openParquet(bad)));
      expect(e.code).toBe('CORRUPT_METADATA');
      expect(e.message).toMatch(message);
    });
  }
});
