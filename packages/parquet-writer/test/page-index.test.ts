// The page index the writer lays out after the row groups: every OffsetIndex points at the data page headers with
// their sizes and first rows, every ColumnIndex holds each page's bounds, null pages, null counts, histograms and the
// boundary order — checked against the pages themselves (read back with the page reader and our reader's rows) and
// decoded independently by hyparquet's index readers; none where the spec forbids one.
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { PageReader } from '@parquetry/parquet-column';
import { openParquet, type ParquetFile } from '@parquetry/parquet-reader';
import { BoundaryOrder, PageType, decodeThrift, readColumnIndex, readOffsetIndex, readPageHeader, type ColumnIndex, type OffsetIndex } from '@parquetry/thrift-compact';
import { parquetMetadata, readColumnIndex as hypColumnIndex, readOffsetIndex as hypOffsetIndex } from 'hyparquet';
import { describe, expect, test } from 'vitest';
import { field, writeParquet, type SchemaSpec, type WriterOptions } from '../src/index.js';

const codecs = builtinCodecs();

async function indexes(bytes: Uint8Array, f: ParquetFile, rg: number, col: number): Promise<{ ci: ColumnIndex | undefined; oi: OffsetIndex }> {
  const cc = f.metadata.row_groups[rg]!.columns[col]!;
  const oi = decodeThrift(readOffsetIndex, bytes, cc.offset_index_offset!, cc.offset_index_offset! + cc.offset_index_length!).value;
  const ci = cc.column_index_offset === undefined ? undefined : decodeThrift(readColumnIndex, bytes, cc.column_index_offset, cc.column_index_offset + cc.column_index_length!).value;
  return { ci, oi };
}

async function write(rows: Record<string, unknown>[], schema: SchemaSpec, opts: WriterOptions = {}) {
  const bytes = await writeParquet(rows, { schema, ...opts });
  return { bytes, f: await openParquet(bytes, { codecs }) };
}

describe('offset index', () => {
  test('page locations are the data page headers, sizes include the header, first rows count top-level rows; the indexes sit after the row groups, before the footer', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ id: i, s: i % 9 === 0 ? null : `v${i}`, l: Array.from({ length: i % 4 }, (_, j) => j) }));
    const { bytes, f } = await write(rows, { id: field.int32({ required: true }), s: field.string(), l: field.list(field.int32()) }, { pageRows: 300, rowGroupRows: 2000, dictionary: false });
    const lastChunkEnd = Math.max(...f.metadata.row_groups.flatMap((g) => g.columns.map((c) => (c.meta_data!.dictionary_page_offset ?? c.meta_data!.data_page_offset) + c.meta_data!.total_compressed_size)));
    const footerStart = bytes.length - 8 - new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
    for (const [g, rg] of f.metadata.row_groups.entries()) {
      for (let c = 0; c < rg.columns.length; c++) {
        const cc = rg.columns[c]!;
        expect(cc.offset_index_offset!).toBeGreaterThanOrEqual(lastChunkEnd);
        expect(cc.offset_index_offset! + cc.offset_index_length!).toBeLessThanOrEqual(footerStart);
        const { oi } = await indexes(bytes, f, g, c);
        const md = cc.meta_data!;
        const r = new PageReader(bytes.subarray(md.data_page_offset, md.data_page_offset + md.total_compressed_size), { rowGroup: g, path: '', offset: md.data_page_offset }, { codec: md.codec, codecs });
        let rowsBefore = 0;
        for (const loc of oi.page_locations) {
          const page = (await r.next())!;
          expect(md.data_page_offset + page.at).toBe(loc.offset);
          expect(page.header.type).toBe(PageType.DATA_PAGE);
          const header = decodeThrift(readPageHeader, bytes, loc.offset, bytes.length);
          expect(header.end - loc.offset + header.value.compressed_page_size).toBe(loc.compressed_page_size);
          expect(loc.first_row_index).toBe(rowsBefore);
          // rows of the page: its repetition levels at 0 (every level for flat columns)
          rowsBefore += page.header.data_page_header!.num_values === 0 ? 0 : countRows(c === 2, page);
        }
        expect(await r.next()).toBeUndefined();
        expect(rowsBefore).toBe(rg.num_rows);
        // hyparquet decodes the same offset index
        const hyp = hypOffsetIndex({ view: new DataView(bytes.buffer, bytes.byteOffset + cc.offset_index_offset!, cc.offset_index_length!), offset: 0 });
        expect(hyp.page_locations.map((l) => [Number(l.offset), l.compressed_page_size, Number(l.first_row_index)])).toEqual(oi.page_locations.map((l) => [l.offset, l.compressed_page_size, l.first_row_index]));
        if (c === 1) expect(oi.unencoded_byte_array_data_bytes!.reduce((a, b) => a + b, 0)).toBe(md.size_statistics!.unencoded_byte_array_data_bytes);
      }
    }
  });
});

/** Rows in a V1 page: for the list column, repetition levels at 0 (decoded here by hand: 1-bit RLE runs). */
function countRows(nested: boolean, page: { data: Uint8Array; header: { data_page_header?: { num_values: number } } }): number {
  const n = page.header.data_page_header!.num_values;
  if (!nested) return n;
  // [4-byte length][RLE/bit-packed hybrid of 1-bit repetition levels]
  const d = page.data;
  const len = d[0]! | (d[1]! << 8) | (d[2]! << 16) | (d[3]! << 24);
  let p = 4;
  let seen = 0;
  let zeros = 0;
  while (p < 4 + len && seen < n) {
    let h = 0;
    let shift = 0;
    for (;;) {
      const b = d[p++]!;
      h |= (b & 0x7f) << shift;
      if (b < 0x80) break;
      shift += 7;
    }
    if (h & 1) {
      const count = (h >>> 1) * 8;
      for (let i = 0; i < count && seen < n; i++, seen++) if (((d[p + (i >> 3)]! >> (i & 7)) & 1) === 0) zeros++;
      p += h >>> 1;
    } else {
      const count = h >>> 1;
      const v = d[p++]!;
      const take = Math.min(count, n - seen);
      if (v === 0) zeros += take;
      seen += take;
    }
  }
  return zeros;
}

describe('column index', () => {
  test('bounds, null pages and counts per page equal the values of the rows each page holds; ascending ids; hyparquet agrees', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: BigInt(i * 3), v: i >= 1000 && i < 1400 ? null : (i * 7919) % 1000, s: i % 5 === 0 ? null : `k${String(i % 97).padStart(3, '0')}` }));
    const { bytes, f } = await write(rows, { id: field.int64({ required: true }), v: field.int32(), s: field.string() }, { pageRows: 200, dictionary: false });
    const values = await f.readRows();
    const hypSchema = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer).schema;
    for (let c = 0; c < 3; c++) {
      const { ci, oi } = await indexes(bytes, f, 0, c);
      expect(ci).toBeDefined();
      const name = ['id', 'v', 's'][c]!;
      const pages = oi.page_locations.map((l, k) => values.slice(l.first_row_index, oi.page_locations[k + 1]?.first_row_index ?? values.length).map((r) => r[name]));
      const hyp = hypColumnIndex({ view: new DataView(bytes.buffer, bytes.byteOffset + f.metadata.row_groups[0]!.columns[c]!.column_index_offset!, f.metadata.row_groups[0]!.columns[c]!.column_index_length!), offset: 0 }, hypSchema[c + 1]!);
      pages.forEach((vals, k) => {
        const nn = vals.filter((x) => x !== null) as (bigint | number | string)[];
        expect(ci!.null_pages[k]).toBe(nn.length === 0);
        expect(ci!.null_counts![k]).toBe(vals.length - nn.length);
        if (nn.length > 0) {
          const sorted = [...nn].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          expect(hyp.min_values[k]).toEqual(sorted[0]);
          expect(hyp.max_values[k]).toEqual(sorted.at(-1));
        } else {
          expect(ci!.min_values[k]!.length).toBe(0);
          expect(ci!.max_values[k]!.length).toBe(0);
        }
      });
      expect(ci!.definition_level_histograms?.length ?? 0).toBe(c === 0 ? 0 : 2 * pages.length);
    }
    expect((await indexes(bytes, f, 0, 0)).ci!.boundary_order).toBe(BoundaryOrder.ASCENDING);
    expect((await indexes(bytes, f, 0, 1)).ci!.boundary_order).toBe(BoundaryOrder.UNORDERED);
    // a page of nulls in the middle: a null page
    expect((await indexes(bytes, f, 0, 1)).ci!.null_pages.filter(Boolean).length).toBe(2);
  });

  test('descending order, long strings truncated like statistics, nan_counts for floats', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ d: 1000 - i, s: `${'x'.repeat(100)}${String(i).padStart(4, '0')}`, f: i % 10 === 0 ? NaN : i / 2 }));
    const { bytes, f } = await write(rows, { d: field.int32(), s: field.string(), f: field.double() }, { pageRows: 100, dictionary: false });
    expect((await indexes(bytes, f, 0, 0)).ci!.boundary_order).toBe(BoundaryOrder.DESCENDING);
    const s = (await indexes(bytes, f, 0, 1)).ci!;
    for (let k = 0; k < s.min_values.length; k++) {
      expect(s.min_values[k]!.length).toBe(64);
      expect(s.max_values[k]!.length).toBeLessThanOrEqual(64);
    }
    const fl = (await indexes(bytes, f, 0, 2)).ci!;
    expect(fl.nan_counts).toEqual(Array(10).fill(10));
  });

  test('none where the spec forbids one (an all-NaN page; INT96 and INTERVAL have no order), but always an offset index; none at all with pageIndex: false', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ f: i < 100 ? NaN : i, t: BigInt(i) * 1000000000n, iv: { months: i, days: 1, millis: 2 } }));
    const { bytes, f } = await write(rows, { f: field.double(), t: field.int96(), iv: field.interval() }, { pageRows: 100, dictionary: false });
    for (let c = 0; c < 3; c++) {
      const cc = f.metadata.row_groups[0]!.columns[c]!;
      expect(cc.column_index_offset).toBeUndefined();
      expect((await indexes(bytes, f, 0, c)).oi.page_locations.length).toBe(3);
    }
    const off = await write(rows, { f: field.double(), t: field.int96(), iv: field.interval() }, { pageIndex: false });
    for (const cc of off.f.metadata.row_groups[0]!.columns) {
      expect(cc.offset_index_offset).toBeUndefined();
      expect(cc.column_index_offset).toBeUndefined();
    }
  });
});

const PYTHON = process.env.PARQUETRY_PYTHON;
if (PYTHON === undefined) console.warn('parquet-writer: PARQUETRY_PYTHON (a python with pyarrow) is not set, the pyarrow page-index check is skipped');

describe.skipIf(PYTHON === undefined)('peers', () => {
  test('pyarrow sees our column and offset indexes and reads the file', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { execFileSync } = await import('node:child_process');
    const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, s: `v${i}` }));
    const { bytes } = await write(rows, { id: field.int32({ required: true }), s: field.string() }, { pageRows: 100 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pi-'));
    try {
      const file = path.join(dir, 'a.parquet');
      fs.writeFileSync(file, bytes);
      const out = execFileSync(PYTHON!, ['-c', `
import pyarrow.parquet as pq, json, sys
f = pq.ParquetFile(sys.argv[1])
rg = f.metadata.row_group(0)
t = f.read()
print(json.dumps({"ci": [rg.column(i).has_column_index for i in range(2)], "oi": [rg.column(i).has_offset_index for i in range(2)], "n": t.num_rows, "sum": sum(t.column("id").to_pylist())}))
`, file], { encoding: 'utf8' });
      expect(JSON.parse(out)).toEqual({ ci: [true, true], oi: [true, true], n: 2000, sum: (1999 * 2000) / 2 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
