/**
 * The pruning pipeline on files written by our writer: the textbook case of issue 13 (4 row groups by date, 100 pages
 * each, 3 of them overlapping the query), dictionary and bloom pruning, row ranges through the page index, refused
 * filters, and the scan statistics that prove what was skipped. Page locations are decoded independently with
 * hyparquet's `readOffsetIndex`.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { readOffsetIndex as hypOffsetIndex } from 'hyparquet';
import { builtinCodecs } from '@parquetry/parquet-codecs';
// the writer by path: a devDependency on it would make a cycle in turbo's build graph (the writer's tests read)
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { bufferSource, openParquet, type ByteSource, type Filter, type ParquetFile, type ScanStats } from '@parquetry/parquet-reader';

const codecs = builtinCodecs();

/** A source that records every request. */
function recording(bytes: Uint8Array): { source: ByteSource; reads: [number, number][] } {
  const base = bufferSource(bytes);
  const reads: [number, number][] = [];
  return { source: { byteLength: base.byteLength, read: (s, e) => (reads.push([s, e]), base.read(s, e)) }, reads };
}

/** Page locations of a chunk, decoded by hyparquet (an independent Thrift decoder). */
function pageLocations(bytes: Uint8Array, file: ParquetFile, g: number, c: number): { offset: number; size: number; firstRow: number }[] {
  const cc = file.metadata.row_groups[g]!.columns[c]!;
  const view = new DataView(bytes.buffer, bytes.byteOffset + cc.offset_index_offset!, cc.offset_index_length!);
  const oi = hypOffsetIndex({ view, offset: 0 });
  return oi.page_locations.map((l) => ({ offset: Number(l.offset), size: l.compressed_page_size, firstRow: Number(l.first_row_index) }));
}

async function read(file: ParquetFile, filter: Filter | undefined, extra: Parameters<ParquetFile['readRows']>[0] = {}): Promise<{ rows: Record<string, unknown>[]; stats: ScanStats }> {
  let stats: ScanStats | undefined;
  const rows = await file.readRows({ ...extra, ...(filter ? { filter } : {}), onScan: (s) => (stats = s) });
  return { rows, stats: stats! };
}

describe('the textbook case: 4 row groups by date, 100 pages each, a query on dates 10-11', () => {
  const PAGE = 1000;
  const GROUP = 100 * PAGE;
  let bytes: Uint8Array;
  let file: ParquetFile;
  let reads: [number, number][];
  const dateOf = (i: number): number => {
    const g = Math.floor(i / GROUP);
    const r = i % GROUP;
    if (g < 3) return 3 * g + 1 + Math.floor((3 * r) / GROUP); // three dates spread evenly
    // the last group: date 10 on rows 0-1199, 11 on 1200-2499, 12 on the rest
    return r < 1200 ? 10 : r < 2500 ? 11 : 12;
  };
  beforeAll(async () => {
    const n = 4 * GROUP;
    const id = new BigInt64Array(n);
    const date = new Int32Array(n);
    const value = new Float64Array(n);
    const name: string[] = new Array(n);
    for (let i = 0; i < n; i++) {
      id[i] = BigInt(i);
      date[i] = dateOf(i);
      value[i] = i / 4;
      name[i] = `name-${i % 5000}`;
    }
    bytes = await writeParquet(
      { id: { kind: 'leaf', length: n, validity: null, values: id }, date: { kind: 'leaf', length: n, validity: null, values: date }, value: { kind: 'leaf', length: n, validity: null, values: value }, name: { kind: 'leaf', length: n, validity: null, values: name } } as never,
      { schema: { id: field.int64({ required: true }), date: field.date({ required: true }), value: field.double({ required: true }), name: field.string({ required: true }) }, rowGroupRows: GROUP, pageRows: PAGE, compression: 'UNCOMPRESSED' },
    );
    const rec = recording(bytes);
    reads = rec.reads;
    // a tail guess of 8 bytes: the footer is read alone (two requests), so the indexes are fetched on demand (a
    // larger tail usually holds them: see the HTTP test)
    file = await openParquet(rec.source, { codecs, tailGuess: 8 });
  });

  test('the file: 4 row groups, each column 100 pages of 1,000 rows, with a page index', async () => {
    expect(file.metadata.row_groups.length).toBe(4);
    for (let g = 0; g < 4; g++) {
      expect(await file.statistics(g, 'date')).toMatchObject({ min: 3 * g + 1, max: 3 * g + 3 });
      for (let c = 0; c < 4; c++) {
        const locs = pageLocations(bytes, file, g, c);
        expect(locs.length).toBe(100);
        expect(locs.map((l) => l.firstRow)).toEqual(Array.from({ length: 100 }, (_, p) => p * PAGE));
      }
    }
  });

  const query: Filter = { and: [{ column: 'date', op: '>=', value: 10 }, { column: 'date', op: '<=', value: 11 }] };

  test('with the page index: only the fourth row group, 3 pages per column, exactly their bytes', async () => {
    const mark = reads.length;
    const { rows, stats } = await read(file, query);
    // the rows: independent of the reader
    expect(rows.length).toBe(2500);
    expect(rows[0]).toEqual({ id: 300000n, date: 10, value: 75000, name: 'name-0' });
    expect(rows.every((r, k) => r.id === BigInt(3 * GROUP + k) && r.date === dateOf(3 * GROUP + k))).toBe(true);
    expect(stats.rowGroups).toEqual({ total: 4, read: 1, skipped: { rowRange: 0, statistics: 3, dictionary: 0, bloom: 0, pageIndex: 0 } });
    for (const c of ['id', 'date', 'value', 'name']) expect(stats.columns[c], c).toEqual({ pagesRead: 3, pagesSkipped: 97, chunks: 1 });
    expect(stats.pages).toEqual({ read: 12, skipped: 388 });
    expect(stats.rowsDecoded).toBe(3000);
    expect(stats.rowsReturned).toBe(2500);
    // bytes: per column, its dictionary page (if any: the bytes before the first data page) and its first 3 pages
    let want = 0;
    for (let c = 0; c < 4; c++) {
      const md = file.metadata.row_groups[3]!.columns[c]!.meta_data!;
      const locs = pageLocations(bytes, file, 3, c);
      const chunkStart = md.dictionary_page_offset ?? md.data_page_offset;
      want += locs[0]!.offset - chunkStart + locs[0]!.size + locs[1]!.size + locs[2]!.size;
    }
    expect(stats.bytes.data + stats.bytes.dictionary).toBe(want);
    // the request log agrees with the statistics
    const mine = reads.slice(mark);
    expect(mine.reduce((n, [s, e]) => n + e - s, 0)).toBe(stats.bytes.total);
    expect(mine.length).toBe(stats.requests.total);
    // one request for the indexes, one for the filter column's pages, one per other column
    expect(stats.requests.index).toBe(1);
    expect(stats.requests.data + stats.requests.dictionary).toBe(4);
    expect(stats.bytes.footer).toBe(0); // the footer was read by openParquet
  });

  test('without the page index: the same rows, all 100 pages of each column of the fourth row group', async () => {
    const on = await read(file, query);
    const off = await read(file, query, { prune: { pageIndex: false } });
    expect(off.rows).toEqual(on.rows);
    expect(off.stats.rowGroups.skipped.statistics).toBe(3);
    for (const c of ['id', 'date', 'value', 'name']) expect(off.stats.columns[c], c).toEqual({ pagesRead: 100, pagesSkipped: 0, chunks: 1 });
    expect(off.stats.bytes.index).toBe(0);
    const rg = file.metadata.row_groups[3]!;
    // every chunk of the group, the filter column's fetched first, then the others in one request that spans it again
    const sizes = rg.columns.map((cc) => cc.meta_data!.total_compressed_size);
    expect(off.stats.bytes.data).toBe(sizes[0]! + 2 * sizes[1]! + sizes[2]! + sizes[3]!);
    expect(off.stats.requests.data).toBe(2);
    expect(on.stats.bytes.data + on.stats.bytes.dictionary).toBeLessThan(off.stats.bytes.data / 20);
    // and with no pruning at all, every row group is read
    const none = await read(file, query, { prune: false });
    expect(none.rows).toEqual(on.rows);
    expect(none.stats.rowGroups).toMatchObject({ total: 4, read: 4 });
    // the filter column's 100 pages in each group; the other columns only where a row matched (the fourth group)
    expect(none.stats.pages.read).toBe(4 * 100 + 3 * 100);
    expect(none.stats.columns.date!.pagesRead).toBe(400);
  });

  test('a row range alone uses the offset index too; scanStats() totals every read and the footer', async () => {
    const { rows, stats } = await read(file, undefined, { rowStart: 150_500, rowEnd: 150_600, columns: ['id', 'name'] });
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 100 }, (_, k) => BigInt(150_500 + k)));
    expect(stats.rowGroups).toMatchObject({ total: 4, read: 1, skipped: { rowRange: 3 } });
    expect(stats.columns.id).toEqual({ pagesRead: 1, pagesSkipped: 99, chunks: 1 });
    const total = file.scanStats();
    expect(total.requests.footer).toBe(2);
    expect(total.bytes.footer).toBeGreaterThan(0);
    expect(total.bytes.total).toBe(reads.reduce((n, [s, e]) => n + e - s, 0));
  });

  test('iterateRowGroups reports once, also when the iteration is left early', async () => {
    const seen: ScanStats[] = [];
    for await (const { rows } of file.iterateRowGroups({ columns: ['id'], onScan: (s) => seen.push(s) })) {
      expect(rows.length).toBe(GROUP);
      break;
    }
    expect(seen.length).toBe(1);
    expect(seen[0]!.rowGroups).toMatchObject({ total: 1, read: 1 });
    expect(seen[0]!.rowsReturned).toBe(GROUP);
  });

  test('columnar reads of the fourth row group: the same rows and the same pages', async () => {
    let stats: ScanStats | undefined;
    const v = await file.readRowGroupColumns(3, { filter: query, onScan: (s) => (stats = s) });
    expect(v.length).toBe(2500);
    expect(stats!.columns.value).toEqual({ pagesRead: 3, pagesSkipped: 97, chunks: 1 });
    let none: ScanStats | undefined;
    const empty = await file.readRowGroupColumns(0, { filter: query, onScan: (s) => (none = s) });
    expect(empty.length).toBe(0);
    expect(none!.rowGroups.skipped.statistics).toBe(1);
    expect(none!.bytes.total).toBe(0);
  });
});
