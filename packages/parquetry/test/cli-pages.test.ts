/**
 * `head -n N` and `tail -n N` read only the pages holding their rows: on a 100,000-row file of two row groups and
 * 1,000-row pages (with a page index), `--stats` reports one data page read per column in one row group, and the
 * data bytes fetched equal the sizes of exactly those pages in the file's offset index (decoded here from the file's
 * bytes with the Thrift reader, not through the Parquet reader). The rows printed are DuckDB's rows at the same
 * offsets.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeThrift, readFileMetaData, readOffsetIndex, type OffsetIndex } from '@parquetry/thrift-compact';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { field } from '../src/index.js';
import { writeFile } from '../src/node.js';
import { duckRows, lit, run } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-pages-'));
const file = path.join(dir, 'big.parquet');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const ROWS = 100_000;
const COLUMNS = ['id', 'name', 'v'];
/** Per row group, per column: the offset index. */
let index: OffsetIndex[][];

beforeAll(async () => {
  function* rows() {
    for (let i = 0; i < ROWS; i++) yield { id: BigInt(i), name: `name-${(i * 7919) % 100_003}`, v: i * 1.5 };
  }
  await writeFile(file, rows(), { schema: { id: field.int64({ required: true }), name: field.string(), v: field.double() }, pageRows: 1000, rowGroupRows: 50_000, dictionary: false });
  // the footer and offset indexes, read from the bytes
  const bytes = new Uint8Array(fs.readFileSync(file));
  const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
  const md = decodeThrift(readFileMetaData, bytes, bytes.length - 8 - len, bytes.length - 8).value;
  index = md.row_groups.map((rg) => rg.columns.map((cc) => decodeThrift(readOffsetIndex, bytes, cc.offset_index_offset!, cc.offset_index_offset! + cc.offset_index_length!).value));
});

interface Scan {
  dataBytes: number;
  rowGroups: string;
  columns: Record<string, { read: number; skipped: number; groups: number }>;
}

function scanOf(err: readonly string[]): Scan {
  const data = /data (\d+);/.exec(err[0]!);
  const columns: Scan['columns'] = {};
  for (const l of err) {
    const m = /^scan: column '(.+)': pages (\d+) read, (\d+) skipped, in (\d+) row groups?$/.exec(l);
    if (m) columns[m[1]!] = { read: Number(m[2]), skipped: Number(m[3]), groups: Number(m[4]) };
  }
  return { dataBytes: data ? Number(data[1]) : 0, rowGroups: /row groups (\d+ read of \d+)/.exec(err[1]!)![1]!, columns };
}

/** The compressed sizes of the pages of a row group holding rows [first, last] (row numbers within the group). */
function pageBytes(rg: number, first: number, last: number): { bytes: number; pages: number[] } {
  let bytes = 0;
  const pages: number[] = [];
  for (const oi of index[rg]!) {
    const locs = oi.page_locations;
    locs.forEach((loc, k) => {
      const end = k + 1 < locs.length ? Number(locs[k + 1]!.first_row_index) : 50_000;
      if (Number(loc.first_row_index) <= last && end > first) {
        bytes += loc.compressed_page_size;
        pages.push(k);
      }
    });
  }
  return { bytes, pages };
}

async function sameRows(out: readonly string[], offset: number, n: number): Promise<void> {
  const d = await duckRows(`SELECT id, name, v FROM ${lit(file)} LIMIT ${n} OFFSET ${offset}`);
  expect(out.map((l) => JSON.parse(l) as unknown)).toEqual(d.rows.map((r) => ({ id: Number(r['id']), name: r['name'], v: Number(r['v']) })));
}

describe('--stats of pages and bloom', () => {
  test('one line: the index bytes and requests (no row groups, pages or rows, which they do not read)', async () => {
    const r = await run('pages', file, 'id', '--stats');
    expect(r.code).toBe(0);
    expect(r.err).toEqual([expect.stringMatching(/^scan: \d+ bytes in \d+ requests \(bytes: .*\)$/)]);
  });
});

describe('head and tail read only the pages they need', () => {
  test('the file has two row groups of 50 pages per column', () => {
    expect(index.length).toBe(2);
    for (const rg of index) for (const oi of rg) expect(oi.page_locations.length).toBe(50);
  });

  test('head -n 3: the first page of each column of the first row group', async () => {
    const r = await run('head', file, '-n', '3', '--stats');
    expect(r.code).toBe(0);
    await sameRows(r.out, 0, 3);
    const s = scanOf(r.err);
    expect(s.rowGroups).toMatch(/^1 read of [12]$/);
    for (const c of COLUMNS) expect(s.columns[c]).toEqual({ read: 1, skipped: 49, groups: 1 });
    const want = pageBytes(0, 0, 2);
    expect(want.pages).toEqual([0, 0, 0]);
    expect(s.dataBytes).toBe(want.bytes);
  });

  test('tail -n 3: the last page of each column of the last row group', async () => {
    const r = await run('tail', file, '-n', '3', '--stats');
    expect(r.code).toBe(0);
    await sameRows(r.out, ROWS - 3, 3);
    const s = scanOf(r.err);
    expect(s.rowGroups).toMatch(/^1 read of [12]$/);
    for (const c of COLUMNS) expect(s.columns[c]).toEqual({ read: 1, skipped: 49, groups: 1 });
    const want = pageBytes(1, 49_997, 49_999);
    expect(want.pages).toEqual([49, 49, 49]);
    expect(s.dataBytes).toBe(want.bytes);
  });

  test('head -n 1500 --offset 60500: the two pages of the second row group holding those rows', async () => {
    const r = await run('head', file, '-n', '1500', '--offset', '60500', '--stats');
    await sameRows(r.out, 60_500, 1500);
    const s = scanOf(r.err);
    for (const c of COLUMNS) expect(s.columns[c]).toEqual({ read: 2, skipped: 48, groups: 1 });
    expect(s.dataBytes).toBe(pageBytes(1, 10_500, 11_999).bytes);
  });

  test('cat reads every page (the comparison point)', async () => {
    const r = await run('cat', file, '--columns', 'id', '--stats');
    expect(r.out.length).toBe(ROWS);
    expect(scanOf(r.err).columns['id']).toEqual({ read: 100, skipped: 0, groups: 2 });
  });
});
