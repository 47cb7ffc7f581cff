/**
 * The pruning pipeline never changes a result: random tables (sorted and unsorted, nulls, NaN and signed zeros,
 * nested outputs, dictionary and plain pages, bloom filters, V1 and V2 pages, small pages and row groups) written
 * by our writer with its page index, random filters, random row ranges, and every pruning stage on, off, or alone.
 * The reference is independent of the pipeline: every row read without a filter, then filtered in the test with
 * `matchRow` on the assembled rows. Rows and columnar reads are both checked.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
// the writer by path: a devDependency on it would make a cycle in turbo's build graph (the writer's tests read)
import { writeParquet } from '../../parquet-writer/src/index.js';
import { openParquet, type ScanStats } from '@parquetry/parquet-reader';
import { matchRow } from '@parquetry/parquet-reader/filters';
import { codecs, filterArb, rowOf, schema, stageSets, tableArb, writeOptionsArb } from './prune-arbitraries.js';

describe('pruned reads equal unpruned reads', () => {
  test('random tables × random filters × row ranges × stages, rows and columns', async () => {
    const seen = { pagesSkipped: 0, statistics: 0, dictionary: 0, bloom: 0, pageIndex: 0, rowGroups: 0 };
    await fc.assert(
      fc.asyncProperty(tableArb, writeOptionsArb, filterArb, fc.option(fc.tuple(fc.nat(600), fc.nat(600))), fc.nat(), async ({ rows }, wopts, filter, range, pick) => {
        const bytes = await writeParquet(rows as never, { schema, ...wopts, columns: wopts.bloomFilter ? { k: { bloomFilter: false } } : {} });
        const file = await openParquet(bytes, { codecs });
        const all = await file.readRows();
        const r = range ? { rowStart: Math.min(...range), rowEnd: Math.max(...range) } : {};
        const inRange = range ? all.slice(r.rowStart, r.rowEnd) : all;
        const want = inRange.filter((row) => matchRow(filter, row));
        for (const prune of [stageSets[pick % stageSets.length]!, true]) {
          let stats: ScanStats | undefined;
          const got = await file.readRows({ ...r, filter, prune, onScan: (s) => (stats = s) });
          expect(got).toEqual(want);
          expect(stats!.rowsReturned).toBe(want.length);
          if (prune === true) {
            seen.pagesSkipped += stats!.pages.skipped;
            seen.rowGroups += stats!.rowGroups.total;
            for (const k of ['statistics', 'dictionary', 'bloom', 'pageIndex'] as const) seen[k] += stats!.rowGroups.skipped[k];
          }
          // a projection that leaves the filter columns out
          const proj = await file.readRows({ ...r, filter, prune, columns: ['tags', 'm'] });
          expect(proj).toEqual(want.map((w) => ({ tags: w.tags, m: w.m })));
        }
        // columnar, one row group at a time, with the stages of this run
        const got: unknown[] = [];
        for (let g = 0; g < file.metadata.row_groups.length; g++) {
          const v = await file.readRowGroupColumns(g, { ...r, filter, prune: stageSets[(pick >> 3) % stageSets.length]!, binary: 'values' });
          for (let i = 0; i < v.length; i++) got.push(rowOf(v, i));
        }
        expect(got).toEqual(want);
      }),
      { numRuns: Number(process.env.PRUNE_RUNS ?? 150) },
    );
    // the property is not vacuous: every stage pruned somewhere
    console.log('pruned over the runs:', JSON.stringify(seen));
    expect(seen.pagesSkipped).toBeGreaterThan(0);
    expect(seen.statistics).toBeGreaterThan(0);
    expect(seen.pageIndex + seen.dictionary + seen.bloom).toBeGreaterThan(0);
  }, 300_000);
});
