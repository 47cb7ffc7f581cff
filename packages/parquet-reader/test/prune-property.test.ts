/**
 * The pruning pipeline never changes a result: random tables (sorted and unsorted, nulls, NaN and signed zeros,
 * nested outputs, dictionary and plain pages, bloom filters, V1 and V2 pages, small pages and row groups) written
 * by our writer with its page index, random filters, random row ranges, and every pruning stage on, off, or alone.
 * The reference is independent of the pipeline: every row read without a filter, then filtered in the test with
 * `matchRow` on the assembled rows. Rows and columnar reads are both checked.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
// the writer by path: a devDependency on it would make a cycle in turbo's build graph (the writer's tests read)
import { field, writeParquet, type WriterOptions } from '../../parquet-writer/src/index.js';
import { matchRow, openParquet, type ColumnarVector, type Filter, type PruneOptions, type ScanStats } from '@parquetry/parquet-reader';

const codecs = builtinCodecs();

const schema = {
  id: field.int64({ required: true }),
  k: field.int32(),
  s: field.string(),
  x: field.double(),
  st: field.struct({ a: field.int32(), b: field.string() }),
  tags: field.list(field.string()),
  m: field.map(field.string(), field.int32()),
};

interface Row {
  id: bigint;
  k: number | null;
  s: string | null;
  x: number | null;
  st: { a: number | null; b: string | null } | null;
  tags: (string | null)[] | null;
  m: Map<string, number | null> | null;
}

const doubles = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -50, max: 50 }).map((v) => v / 4) },
  { weight: 1, arbitrary: fc.constantFrom(Number.NaN, -0, 0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY) },
);
const nullable = <T>(a: fc.Arbitrary<T>, nulls: number): fc.Arbitrary<T | null> => fc.oneof({ weight: nulls, arbitrary: fc.constant(null) }, { weight: 10, arbitrary: a });

/** A table: n rows of bounded domains (so filters hit and miss), sorted by id or not. */
const tableArb = fc
  .record({
    n: fc.integer({ min: 0, max: 500 }),
    sorted: fc.boolean(),
    kCard: fc.integer({ min: 1, max: 12 }),
    sCard: fc.integer({ min: 1, max: 400 }),
    nulls: fc.integer({ min: 0, max: 6 }),
    seed: fc.integer(),
  })
  .chain(({ n, sorted, kCard, sCard, nulls, seed }) =>
    fc
      .tuple(
        fc.array(nullable(fc.integer({ min: 0, max: kCard - 1 }), nulls), { minLength: n, maxLength: n }),
        fc.array(nullable(fc.integer({ min: 0, max: sCard - 1 }).map((v) => `s${v}`), nulls), { minLength: n, maxLength: n }),
        fc.array(nullable(doubles, nulls), { minLength: n, maxLength: n }),
        fc.array(nullable(fc.record({ a: nullable(fc.integer({ min: -5, max: 5 }), nulls), b: nullable(fc.constantFrom('p', 'q', 'é'), nulls) }), nulls), { minLength: n, maxLength: n }),
        fc.array(nullable(fc.array(nullable(fc.constantFrom('t0', 't1', 't2'), 1), { maxLength: 3 }), nulls), { minLength: n, maxLength: n }),
        fc.array(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { minLength: n, maxLength: n }),
      )
      .map(([k, s, x, st, tags, order]) => {
        const ids = Array.from({ length: n }, (_, i) => BigInt(i * 3 + (seed & 3)));
        if (!sorted) ids.sort((a, b) => (order[Number(a) % n]! - order[Number(b) % n]!) || Number(a - b));
        if (sorted) {
          // sorted tables are sorted on k and s too, so that page bounds are narrow
          k.sort((a, b) => (a ?? -1) - (b ?? -1));
          s.sort((a, b) => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0));
        }
        const rows: Row[] = ids.map((id, i) => ({
          id,
          k: k[i]!,
          s: s[i]!,
          x: x[i]!,
          st: st[i]!,
          tags: tags[i]!,
          m: i % 4 === 3 ? null : new Map(Array.from({ length: i % 3 }, (_, j) => [`k${j}`, j % 2 === 0 ? j : null] as [string, number | null])),
        }));
        return { rows, sorted };
      }),
  );

const writeOptionsArb: fc.Arbitrary<WriterOptions> = fc.record({
  rowGroupRows: fc.integer({ min: 20, max: 300 }),
  pageRows: fc.integer({ min: 3, max: 60 }),
  pageVersion: fc.constantFrom(1 as const, 2 as const),
  dictionary: fc.boolean(),
  compression: fc.constantFrom('UNCOMPRESSED' as const, 'SNAPPY' as const),
  bloomFilter: fc.boolean(),
});

type Leaf = { column: 'id' | 'k' | 's' | 'x' | 'st.a'; values: fc.Arbitrary<unknown> };
const leaves: Leaf[] = [
  { column: 'id', values: fc.oneof(fc.bigInt({ min: -3n, max: 1600n }), fc.integer({ min: -3, max: 1600 })) },
  { column: 'k', values: fc.integer({ min: -1, max: 13 }) },
  { column: 's', values: fc.integer({ min: 0, max: 420 }).map((v) => `s${v}`) },
  { column: 'x', values: doubles },
  { column: 'st.a', values: fc.integer({ min: -6, max: 6 }) },
];
const ops = ['=', '!=', '<', '<=', '>', '>='] as const;
const leafArb: fc.Arbitrary<Filter> = fc.constantFrom(...leaves).chain((l) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...ops), l.values).map(([op, value]) => ({ column: l.column, op, value }) as Filter) },
    { weight: 3, arbitrary: fc.array(l.values, { minLength: 1, maxLength: 4 }).map((values) => ({ column: l.column, op: 'in', values }) as Filter) },
    { weight: 1, arbitrary: fc.constantFrom('is null' as const, 'is not null' as const).map((op) => ({ column: l.column, op }) as Filter) },
  ),
);
const filterArb: fc.Arbitrary<Filter> = fc.letrec<{ f: Filter }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: leafArb },
    { weight: 2, arbitrary: fc.array(tie('f'), { minLength: 1, maxLength: 3 }).map((and) => ({ and })) },
    { weight: 2, arbitrary: fc.array(tie('f'), { minLength: 1, maxLength: 3 }).map((or) => ({ or })) },
    { weight: 1, arbitrary: tie('f').map((not) => ({ not })) },
  ),
})).f;

const stageSets: (boolean | PruneOptions)[] = [
  true,
  false,
  { pageIndex: false },
  { bloom: false, dictionary: false },
  { statistics: false, pageIndex: false },
  { statistics: false, dictionary: false, bloom: false },
];

/** Slot `i` of a vector as readRows returns the value. */
function rowOf(v: ColumnarVector, i: number): unknown {
  if (v.validity && v.validity[i] === 0) return null;
  switch (v.kind) {
    case 'leaf':
      return v.values[i];
    case 'binary':
      return v.data.subarray(v.offsets[i]!, v.offsets[i + 1]!);
    case 'struct':
      return Object.fromEntries(v.children.map((c) => [c.field.name, rowOf(c, i)]));
    case 'list':
      return Array.from({ length: v.offsets[i + 1]! - v.offsets[i]! }, (_, k) => rowOf(v.element, v.offsets[i]! + k));
    case 'map':
      return new Map(Array.from({ length: v.offsets[i + 1]! - v.offsets[i]! }, (_, k) => [rowOf(v.keys, v.offsets[i]! + k), v.values ? rowOf(v.values, v.offsets[i]! + k) : null]));
  }
}

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
