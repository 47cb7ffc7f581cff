/**
 * GEOMETRY and GEOGRAPHY columns have no sort order (Geospatial.md: min/max must not be written; the bounding box
 * goes into GeospatialStatistics), but their null count is as meaningful as any column's: the chunk's Statistics
 * hold `null_count` only, as for INTERVAL. Before, geospatial columns got no Statistics at all. (Arrow C++ 25 also
 * writes none for its own geometry columns; it reads ours as a null count without min/max.)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { PageReader } from '@parquetry/parquet-column';
import { openParquet } from '@parquetry/parquet-reader';
import { PageType } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { field, writeParquet } from '../src/index.js';

/** A WKB point. */
function point(x: number, y: number): Uint8Array {
  const b = new Uint8Array(21);
  const v = new DataView(b.buffer);
  b[0] = 1;
  v.setUint32(1, 1, true);
  v.setFloat64(5, x, true);
  v.setFloat64(13, y, true);
  return b;
}

const schema = { g: field.geometry(), h: field.geography(), iv: field.interval() };
const rows = [
  { g: point(1, 2), h: point(170, 10), iv: null },
  { g: null, h: null, iv: null },
  { g: point(3, 4), h: null, iv: { months: 1, days: 2, millis: 3 } },
];

describe('GEOMETRY/GEOGRAPHY statistics', () => {
  test('the chunk Statistics hold null_count only; GeospatialStatistics keep the box; no ColumnIndex', async () => {
    const bytes = await writeParquet(rows, { schema, pageStatistics: true });
    const f = await openParquet(bytes, { codecs: builtinCodecs() });
    const [g, h, iv] = f.metadata.row_groups[0]!.columns.map((c) => c.meta_data!);
    expect(g!.statistics).toEqual({ null_count: 1 });
    expect(h!.statistics).toEqual({ null_count: 2 });
    expect(iv!.statistics).toEqual({ null_count: 2 }); // the same as another column without an order
    expect(g!.geospatial_statistics?.bbox).toMatchObject({ xmin: 1, xmax: 3, ymin: 2, ymax: 4 });
    for (const c of f.metadata.row_groups[0]!.columns) expect(c.column_index_offset).toBeUndefined();
    // page headers too (pageStatistics): null_count only
    const cc = f.metadata.row_groups[0]!.columns[0]!;
    const md = cc.meta_data!;
    const start = md.dictionary_page_offset ?? md.data_page_offset;
    const pages = new PageReader(bytes.subarray(start, start + md.total_compressed_size), { rowGroup: 0, path: 'g', offset: start }, { codec: md.codec, codecs: builtinCodecs(), hasDictionaryPage: md.dictionary_page_offset !== undefined });
    let data = 0;
    for (let p = await pages.next(); p; p = await pages.next()) {
      if (p.header.type !== PageType.DATA_PAGE) continue;
      data++;
      expect(p.header.data_page_header!.statistics).toEqual({ null_count: 1 });
    }
    expect(data).toBe(1);
  });

  test('statistics: false still writes none', async () => {
    const f = await openParquet(await writeParquet(rows, { schema, statistics: false }), { codecs: builtinCodecs() });
    for (const c of f.metadata.row_groups[0]!.columns) {
      expect(c.meta_data!.statistics).toBeUndefined();
      expect(c.meta_data!.geospatial_statistics).toBeUndefined();
    }
  });

  const PYTHON = process.env.PARQUETRY_PYTHON;
  test.skipIf(PYTHON === undefined)('pyarrow reads the null counts, without min/max, and the values', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'geo-stats-'));
    try {
      const file = path.join(dir, 'g.parquet');
      fs.writeFileSync(file, await writeParquet(rows, { schema }));
      const out = execFileSync(PYTHON!, ['-c', `
import pyarrow.parquet as pq, json, sys
f = pq.ParquetFile(sys.argv[1])
rg = f.metadata.row_group(0)
cols = []
for i in range(2):
    s = rg.column(i).statistics
    cols.append({"set": rg.column(i).is_stats_set, "nulls": s.null_count, "has_null_count": s.has_null_count, "minmax": s.has_min_max})
t = f.read()
print(json.dumps({"cols": cols, "g_nulls": t.column("g").null_count, "rows": t.num_rows}))
`, file], { encoding: 'utf8' });
      expect(JSON.parse(out)).toEqual({
        cols: [{ set: true, nulls: 1, has_null_count: true, minmax: false }, { set: true, nulls: 2, has_null_count: true, minmax: false }],
        g_nulls: 1,
        rows: 3,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
