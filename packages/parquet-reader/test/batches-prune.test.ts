/**
 * Batch iteration through the pruning pipeline: a filtered (or row-ranged) `iterateBatches` returns exactly what
 * `readRows` returns with the same options, in the same order, over random tables, filters, row ranges, stage sets,
 * projections, batch sizes and both forms; its scan statistics (one `onScan` per iteration, also when left early or
 * failed) agree with `readRows`' — the same bytes and requests by kind, row groups, pages skipped and rows returned,
 * and no more pages, rows or values decoded. The textbook case of issue 13 read in batches: only the fourth row
 * group, 3 pages per column with the page index, 100 without. Offset indexes that do not match their pages.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { decodeThrift, encodeThrift, readOffsetIndex, writeOffsetIndex, type OffsetIndex } from '@parquetry/thrift-compact';
// the writer by path: a devDependency on it would make a cycle in turbo's build graph (the writer's tests read)
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { matchRow } from '@parquetry/parquet-reader/filters';
import { openParquet, type ColumnBatch, type Filter, type ParquetFile, type PruneOptions, type ReadOptions, type RowBatch, type ScanStats } from '@parquetry/parquet-reader';
import { codecs, filterArb, rowOf, schema, stageSets, tableArb, writeOptionsArb } from './prune-arbitraries.js';
import { typedError } from './helpers.js';
import { agree } from './batch-helpers.js';

type BatchRead = ReadOptions & { batchSize: number; form: 'rows' | 'columns' };

/** Every row of a batch iteration (columnar batches turned back into rows), and its one report. */
async function batches(file: ParquetFile, options: BatchRead): Promise<{ rows: unknown[]; stats: ScanStats; sizes: number[] }> {
  const reports: ScanStats[] = [];
  const rows: unknown[] = [];
  const sizes: number[] = [];
  const it = file.iterateBatches({ ...options, onScan: (s: ScanStats) => reports.push(s) } as never) as AsyncGenerator<RowBatch | ColumnBatch>;
  for await (const b of it) {
    const n = 'rows' in b ? b.rows.length : b.columns.length;
    // a batch holds only rows it covers, and never an empty batch
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThanOrEqual(Math.min(options.batchSize, b.rowEnd - b.rowStart));
    sizes.push(n);
    if ('rows' in b) rows.push(...b.rows);
    else for (let i = 0; i < b.columns.length; i++) rows.push(rowOf(b.columns, i));
  }
  expect(reports.length).toBe(1);
  return { rows, stats: reports[0]!, sizes };
}

async function whole(file: ParquetFile, options: ReadOptions): Promise<{ rows: Record<string, unknown>[]; stats: ScanStats }> {
  let stats: ScanStats | undefined;
  const rows = await file.readRows({ ...options, onScan: (s) => (stats = s) });
  return { rows, stats: stats! };
}

const pageIndexOn = (p: boolean | PruneOptions) => p === true || (p !== false && p.pageIndex !== false);

describe('batches through the pruning pipeline equal readRows', () => {
  test('random tables × filters × row ranges × stages × projections × batch sizes, rows and columns', async () => {
    const seen = { pagesSkipped: 0, skippedGroups: 0, twoPass: 0, runs: 0 };
    await fc.assert(
      fc.asyncProperty(
        tableArb,
        writeOptionsArb,
        fc.option(filterArb, { freq: 5 }),
        fc.option(fc.tuple(fc.nat(600), fc.nat(600))),
        fc.constantFrom(...stageSets),
        fc.oneof(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 8, max: 700 })),
        fc.constantFrom('rows' as const, 'columns' as const),
        fc.constantFrom<(string[] | undefined)[]>(undefined, ['tags', 'm'], ['k', 'st'], ['id']),
        async ({ rows: table }, wopts, filter, range, prune, batchSize, form, columns) => {
          const bytes = await writeParquet(table as never, { schema, ...wopts, columns: wopts.bloomFilter ? { k: { bloomFilter: false } } : {} });
          const file = await openParquet(bytes, { codecs });
          const r = range ? { rowStart: Math.min(...range), rowEnd: Math.max(...range) } : {};
          const read: ReadOptions = { ...r, prune, ...(filter ? { filter } : {}), ...(columns ? { columns } : {}), ...(form === 'columns' ? { binary: 'values' as const } : {}) };
          const want = await whole(file, read);
          // readRows itself against an independent reference: every row read unpruned, filtered in the test
          if (filter && !columns) {
            const all = await file.readRows({ prune: false });
            expect(want.rows).toEqual((range ? all.slice(r.rowStart, r.rowEnd) : all).filter((row) => matchRow(filter, row)));
          }
          const got = await batches(file, { ...read, batchSize, form });
          expect(got.rows).toEqual(want.rows);
          agree(got.stats, want.stats, pageIndexOn(prune));
          seen.runs++;
          seen.pagesSkipped += got.stats.pages.skipped;
          seen.skippedGroups += got.stats.rowGroups.total - got.stats.rowGroups.read;
          if (filter && columns && !columns.includes('id') && got.stats.rowsReturned > 0) seen.twoPass++;
        },
      ),
      { numRuns: Number(process.env.PRUNE_RUNS ?? 150) },
    );
    // not vacuous: pages and row groups were skipped, and batches were read in two passes
    console.log('batches through the pipeline:', JSON.stringify(seen));
    expect(seen.pagesSkipped).toBeGreaterThan(0);
    expect(seen.skippedGroups).toBeGreaterThan(0);
    expect(seen.twoPass).toBeGreaterThan(0);
  }, 300_000);
});

describe('the textbook case in batches: 4 row groups by date, 100 pages each, dates 10-11', () => {
  const PAGE = 100;
  const GROUP = 100 * PAGE;
  let file: ParquetFile;
  // the last group: date 10 on rows 0-119, 11 on 120-249, 12 after; the others three dates each
  const dateOf = (i: number): number => {
    const g = Math.floor(i / GROUP);
    const r = i % GROUP;
    if (g < 3) return 3 * g + 1 + Math.floor((3 * r) / GROUP);
    return r < 120 ? 10 : r < 250 ? 11 : 12;
  };
  const query: Filter = { and: [{ column: 'date', op: '>=', value: 10 }, { column: 'date', op: '<=', value: 11 }] };
  beforeAll(async () => {
    const rows = Array.from({ length: 4 * GROUP }, (_, i) => ({ id: BigInt(i), date: dateOf(i), value: i / 4, name: `name-${i % 500}` }));
    const bytes = await writeParquet(rows, {
      schema: { id: field.int64({ required: true }), date: field.date({ required: true }), value: field.double({ required: true }), name: field.string({ required: true }) },
      rowGroupRows: GROUP,
      pageRows: PAGE,
      compression: 'UNCOMPRESSED',
    });
    file = await openParquet(bytes, { codecs });
  });

  test('with the page index: only the fourth row group, 3 pages per column; batches of the kept rows', async () => {
    const got = await batches(file, { filter: query, batchSize: 100, form: 'rows' });
    // independent of the reader: rows 30,000-30,249
    expect(got.rows).toEqual(Array.from({ length: 250 }, (_, k) => ({ id: BigInt(3 * GROUP + k), date: dateOf(3 * GROUP + k), value: (3 * GROUP + k) / 4, name: `name-${(3 * GROUP + k) % 500}` })));
    // batches of 100 kept rows: the three kept pages (rows 0-299 of the group), the last holding 50 matches
    expect(got.sizes).toEqual([100, 100, 50]);
    const s = got.stats;
    expect(s.rowGroups).toEqual({ total: 4, read: 1, skipped: { rowRange: 0, statistics: 3, dictionary: 0, bloom: 0, pageIndex: 0 } });
    for (const c of ['id', 'date', 'value', 'name']) expect(s.columns[c], c).toEqual({ pagesRead: 3, pagesSkipped: 97, chunks: 1 });
    expect(s.pages).toEqual({ read: 12, skipped: 388 });
    expect(s.rowsDecoded).toBe(300);
    expect(s.rowsReturned).toBe(250);
    agree(s, (await whole(file, { filter: query })).stats, true);
    const starts: number[] = [];
    for await (const b of file.iterateBatches({ filter: query, batchSize: 100 })) starts.push(b.rowStart, b.rowEnd);
    expect(starts).toEqual([30_000, 30_100, 30_100, 30_200, 30_200, 30_300]);
  });

  test('without the page index: the same rows, all 100 pages of each column of the fourth row group', async () => {
    const on = await batches(file, { filter: query, batchSize: 1000, form: 'columns' });
    const off = await batches(file, { filter: query, batchSize: 1000, form: 'columns', prune: { pageIndex: false } });
    expect(off.rows).toEqual(on.rows);
    expect(off.stats.rowGroups.skipped.statistics).toBe(3);
    // the filter column: all 100 pages; the others only up to the end of the last batch holding a match (the first
    // 1,000 rows: 10 pages), where readRows decodes their whole chunks
    expect(off.stats.columns.date).toEqual({ pagesRead: 100, pagesSkipped: 0, chunks: 1 });
    for (const c of ['id', 'value', 'name']) expect(off.stats.columns[c], c).toEqual({ pagesRead: 10, pagesSkipped: 0, chunks: 1 });
    expect(off.stats.bytes.index).toBe(0);
    expect(on.stats.bytes.data + on.stats.bytes.dictionary).toBeLessThan(off.stats.bytes.data / 20);
    const wholeOff = await whole(file, { filter: query, prune: { pageIndex: false } });
    expect(wholeOff.stats.pages.read).toBe(400);
    agree(off.stats, wholeOff.stats, false);
  });

  test('a row range without a filter: only the pages holding it, batches from its first row', async () => {
    const range = { rowStart: 15_050, rowEnd: 15_260, columns: ['id', 'name'] };
    const got = await batches(file, { ...range, batchSize: 100, form: 'rows' });
    expect(got.rows.map((r) => (r as { id: bigint }).id)).toEqual(Array.from({ length: 210 }, (_, k) => BigInt(15_050 + k)));
    expect(got.sizes).toEqual([100, 100, 10]);
    expect(got.stats.columns.id).toEqual({ pagesRead: 3, pagesSkipped: 97, chunks: 1 });
    agree(got.stats, (await whole(file, range)).stats, true);
  });

  test('onScan once when the iteration is left early: what was fetched and returned until then', async () => {
    const reports: ScanStats[] = [];
    const before = file.scanStats();
    for await (const b of file.iterateBatches({ batchSize: 1000, columns: ['id'], onScan: (s) => reports.push(s) })) {
      expect(b.rows.length).toBe(1000);
      break;
    }
    expect(reports.length).toBe(1);
    const s = reports[0]!;
    expect(s.rowGroups).toMatchObject({ total: 1, read: 1 });
    expect(s.rowsReturned).toBe(1000);
    // the first 1,000 rows: 10 pages of 100 decoded, not the row group's 100
    expect(s.columns.id).toEqual({ pagesRead: 10, pagesSkipped: 0, chunks: 1 });
    expect(s.rowsDecoded).toBe(1000);
    // the chunk was fetched whole (one request), and the file's totals include it
    expect(s.requests.data).toBe(1);
    expect(s.bytes.data).toBe(file.metadata.row_groups[0]!.columns[0]!.meta_data!.total_compressed_size);
    expect(file.scanStats().bytes.data - before.bytes.data).toBe(s.bytes.data);
  });

  test('onScan once when the iteration fails', async () => {
    const reports: ScanStats[] = [];
    const err = await typedError(async () => {
      for await (const _ of file.iterateBatches({ rowGroups: [0, 9], onScan: (s) => reports.push(s) })) void _;
    });
    expect(err.code).toBe('OUT_OF_RANGE');
    expect(reports.length).toBe(1);
    expect(reports[0]!.rowsReturned).toBe(GROUP);
  });
});

describe('offset indexes that do not match their pages', () => {
  // one row group of 600 rows, pages of 20: a filter on `id` keeps rows 300-349 (pages 15-17 of each column)
  const n = 600;
  const rows = Array.from({ length: n }, (_, i) => ({ id: BigInt(i), name: `n${i % 13}-${'x'.repeat(i % 7)}`, tags: i % 5 === 0 ? null : Array.from({ length: i % 3 }, (_, k) => `t${k}`) }));
  const filter: Filter = { and: [{ column: 'id', op: '>=', value: 300n }, { column: 'id', op: '<', value: 350n }] };
  let good: Uint8Array;
  beforeAll(async () => {
    good = await writeParquet(rows, { schema: { id: field.int64({ required: true }), name: field.string(), tags: field.list(field.string()) }, rowGroupRows: n, pageRows: 20, compression: 'UNCOMPRESSED', dictionary: false });
  });

  /** The file with one column's OffsetIndex changed (to an encoding of the same length, written in place). */
  async function tampered(column: number, change: (oi: OffsetIndex) => void): Promise<ParquetFile> {
    const file = await openParquet(good, { codecs });
    const cc = file.metadata.row_groups[0]!.columns[column]!;
    const at = cc.offset_index_offset!;
    const oi = decodeThrift(readOffsetIndex, good, at, at + cc.offset_index_length!).value;
    change(oi);
    const enc = encodeThrift(writeOffsetIndex, oi);
    expect(enc.length).toBe(cc.offset_index_length);
    const bytes = good.slice();
    bytes.set(enc, at);
    return openParquet(bytes, { codecs });
  }

  const expected = rows.slice(300, 350);

  test('a run starting at a wrong byte (filter column, other columns, nested): its chunk is read whole, as by readRows', async () => {
    const paths = ['id', 'name', 'tags.list.element'];
    for (const column of [0, 1, 2]) {
      // page 15, the first kept one, located a byte late (and a byte shorter, so the locations stay disjoint)
      const file = await tampered(column, (oi) => {
        oi.page_locations[15]!.offset += 1;
        oi.page_locations[15]!.compressed_page_size -= 1;
      });
      for (const columns of [undefined, ['name', 'tags']]) {
        const want = await whole(file, { filter, ...(columns ? { columns } : {}) });
        expect(want.rows).toEqual(columns ? expected.map((r) => ({ name: r.name, tags: r.tags })) : expected);
        for (const batchSize of [7, 100]) {
          const got = await batches(file, { filter, batchSize, form: 'rows', ...(columns ? { columns } : {}) });
          expect(got.rows).toEqual(want.rows);
          expect(got.stats.bytes).toEqual(want.stats.bytes);
          expect(got.stats.requests).toEqual(want.stats.requests);
          // the broken column is read whole: no page skipped
          expect(got.stats.columns[paths[column]!]!.pagesSkipped).toBe(0);
          expect(got.stats.columns[paths[(column + 1) % 3]!]!.pagesSkipped).toBeGreaterThan(0);
        }
      }
    }
  });

  test('a filter column whose kept pages start a row early: found after rows were handed out, the row group starts again', async () => {
    // page 15 claims rows from 299 (it holds 300-319): the run of pages 15-17 claims 61 rows and holds 60, so the
    // rows handed out of it were one off; found when the run is left, the filter column is read again whole
    const file = await tampered(0, (oi) => {
      oi.page_locations[15]!.first_row_index -= 1;
    });
    const want = await whole(file, { filter, columns: ['name', 'tags'] });
    expect(want.rows).toEqual(expected.map((r) => ({ name: r.name, tags: r.tags })));
    for (const form of ['rows', 'columns'] as const) {
      expect((await batches(file, { filter, columns: ['name', 'tags'], batchSize: 7, form, binary: 'values' })).rows).toEqual(want.rows);
    }
    // returning only filter columns is one pass, which cannot start again: the count fails the read
    expect(await file.readRows({ filter, columns: ['id'] })).toEqual(expected.map((r) => ({ id: r.id })));
    const err = await typedError(async () => {
      for await (const _ of file.iterateBatches({ filter, columns: ['id'], batchSize: 7 })) void _;
    });
    expect(err.code).toBe('ROW_COUNT_MISMATCH');
    expect(err.message).toContain("column 'id': pages 15-17 do not hold rows 299-359");
  });

  test('another column whose kept pages start a row early, found after rows were returned: ROW_COUNT_MISMATCH naming it', async () => {
    const file = await tampered(1, (oi) => {
      oi.page_locations[15]!.first_row_index -= 1;
    });
    // readRows decodes the run before using it, and reads the chunk whole instead
    expect(await file.readRows({ filter })).toEqual(expected);
    const err = await typedError(async () => {
      for await (const _ of file.iterateBatches({ filter, batchSize: 7 })) void _;
    });
    expect(err.code).toBe('ROW_COUNT_MISMATCH');
    expect(err.message).toMatch(/^parquet-reader: row group 0, column 'name': pages 15-17 do not hold rows 299-359 as the offset index says/);
  });
});
