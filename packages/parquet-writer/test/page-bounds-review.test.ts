// Review of the dictionary page-statistics shortcut (a page that already uses every older dictionary entry records
// only the entries just created) and of the byte-array prefix shortcut, where they matter: each page's ColumnIndex
// min/max must be exactly the extremes of that page's values (a wrong page bound makes readers skip pages that hold
// matching rows). Random rows of a string column over a small alphabet (shared prefixes, empty strings, bytes ≥ 0x80,
// nulls) with random page row limits and dictionary limits (pages using all, some or none of the older entries;
// fallback to PLAIN mid-chunk), written from row objects (strings interned as JavaScript strings) and from binary
// vectors (byte arrays put into the dictionary): the bounds of every page are compared with a naive byte-wise
// min/max of the rows the OffsetIndex says the page holds, and the chunk statistics with those of the whole column.
import { openParquet } from '@parquetry/parquet-reader';
import { Encoding, decodeThrift, readColumnIndex, readOffsetIndex } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createWriter, field, memorySink, writeParquet } from '../src/index.js';

const enc = new TextEncoder();
const schema = { s: field.string(), n: field.int32({ required: true }) };

function bytesCmp(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length - b.length;
}

// long enough (with the suffix) that a dictionary of a few entries pays for itself and stays on for the chunk
const SUFFIX = '~'.repeat(40);
const ALPHABET = ['', 'a', 'ab', 'abc', 'abcd', 'abcde', 'abcdefghij', 'abcdefghik', 'abcdefghijkl', 'b', 'é', 'éa', '\u00ff\u00ff', 'zzzz', 'zzzzz', '\u4e00x', 'A', 'aaaaaaaa', 'aaaaaaab'];
const caseArb = fc.record({
  // a few distinct values per case (so the dictionary pays for itself and stays on), the later ones first seen in
  // later pages
  values: fc
    .shuffledSubarray([...ALPHABET, ...ALPHABET.map((x) => x + SUFFIX)], { minLength: 1, maxLength: 10 })
    .chain((words) => fc.array(fc.option(fc.integer({ min: 0, max: words.length - 1 }), { nil: null, freq: 6 }), { minLength: 1, maxLength: 400, size: 'max' }).map((ix) => ix.map((i, k) => (i === null ? null : words[Math.min(i, Math.floor((k * words.length) / 100))]!)))),
  // runs that reuse a few entries, so later pages use only some older entries
  pageRows: fc.integer({ min: 5, max: 150 }),
  dictionaryPageSize: fc.constantFrom(200, 600, 1 << 20),
  pageVersion: fc.constantFrom(1 as const, 2 as const),
  columnar: fc.boolean(),
  cuts: fc.array(fc.nat({ max: 400 }), { maxLength: 40, size: 'max' }),
});

describe('page bounds of a dictionary-encoded string column', () => {
  test('property: every page min/max is the naive extreme of its rows, the chunk bounds those of the column', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const rows = c.values.map((s, n) => ({ s, n }));
        const opts = { schema, pageRows: c.pageRows, dictionaryPageSize: c.dictionaryPageSize, pageVersion: c.pageVersion, pageIndex: true, compression: 'UNCOMPRESSED' as const };
        // the rows reach the column writer in small batches, so one page takes several (the shortcut applies to a
        // batch after the first of its page)
        const points = [...new Set([0, ...c.cuts.map((x) => x % (rows.length + 1)), rows.length])].sort((x, y) => x - y);
        const sink = memorySink();
        const w = createWriter(sink, opts);
        if (c.columnar) {
          // one source row group per batch: each writeColumns call is one batch
          const srcSink = memorySink();
          const sw = createWriter(srcSink, { schema, compression: 'UNCOMPRESSED' });
          for (let k = 1; k < points.length; k++) {
            await sw.write(rows.slice(points[k - 1]!, points[k]!));
            await sw.flushRowGroup();
          }
          await sw.close();
          const src = await openParquet(srcSink.bytes());
          for (let g = 0; g < src.metadata.row_groups.length; g++) await w.writeColumns(await src.readRowGroupColumns(g, { binary: 'vector' }));
        } else {
          for (let k = 1; k < points.length; k++) await w.write(rows.slice(points[k - 1]!, points[k]!));
        }
        await w.close();
        const bytes = sink.bytes();
        const f = await openParquet(bytes);
        expect(f.metadata.row_groups.length).toBe(1);
        const cc = f.metadata.row_groups[0]!.columns[0]!;
        const oi = decodeThrift(readOffsetIndex, bytes, cc.offset_index_offset!, cc.offset_index_offset! + cc.offset_index_length!).value;
        const ci = decodeThrift(readColumnIndex, bytes, cc.column_index_offset!, cc.column_index_offset! + cc.column_index_length!).value;
        const pages = oi.page_locations;
        for (let k = 0; k < pages.length; k++) {
          const from = pages[k]!.first_row_index;
          const to = k + 1 < pages.length ? pages[k + 1]!.first_row_index : rows.length;
          const vals = c.values.slice(from, to).filter((v): v is string => v !== null).map((v) => enc.encode(v)).sort(bytesCmp);
          const where = `page ${k} (rows ${from}-${to})`;
          expect(ci.null_counts![k], where).toBe(to - from - vals.length);
          expect(ci.null_pages[k], where).toBe(vals.length === 0);
          if (vals.length > 0) {
            expect(Array.from(ci.min_values[k]!), where).toEqual(Array.from(vals[0]!));
            expect(Array.from(ci.max_values[k]!), where).toEqual(Array.from(vals[vals.length - 1]!));
          }
        }
        const all = c.values.filter((v): v is string => v !== null).map((v) => enc.encode(v)).sort(bytesCmp);
        const st = cc.meta_data!.statistics!;
        expect(st.null_count).toBe(c.values.length - all.length);
        if (all.length > 0) {
          expect(Array.from(st.min_value!)).toEqual(Array.from(all[0]!));
          expect(Array.from(st.max_value!)).toEqual(Array.from(all[all.length - 1]!));
        }
        expect(await f.readRows()).toEqual(rows);
      }),
      { numRuns: 250 },
    );
  }, 120_000);

  test('a page that uses only some older entries, after a page whose second batch took the shortcut', async () => {
    // page 1 (8 rows): batches [a b a b] then [c d c d] (the page uses every older entry: only c, d recorded);
    // page 2: [b b b b] then [z z b b]: it uses b and z only — its bounds are b..z, not a..z
    const v = (x: string) => x + SUFFIX;
    const sink = memorySink();
    const w = createWriter(sink, { schema, pageRows: 8, pageIndex: true });
    let n = 0;
    for (const batch of [['a', 'b', 'a', 'b'], ['c', 'd', 'c', 'd'], ['b', 'b', 'b', 'b'], ['z', 'z', 'b', 'b']]) await w.write(batch.map((x) => ({ s: v(x), n: n++ })));
    await w.close();
    const bytes = sink.bytes();
    const f = await openParquet(bytes);
    const cc = f.metadata.row_groups[0]!.columns[0]!;
    expect(cc.meta_data!.encoding_stats!.find((e) => e.encoding === Encoding.RLE_DICTIONARY)?.count).toBe(2);
    const ci = decodeThrift(readColumnIndex, bytes, cc.column_index_offset!, cc.column_index_offset! + cc.column_index_length!).value;
    const dec = new TextDecoder();
    expect(ci.min_values.map((b) => dec.decode(b))).toEqual([v('a'), v('b')]);
    expect(ci.max_values.map((b) => dec.decode(b))).toEqual([v('d'), v('z')]);
  });
});
