// Random tables, write options, filters and pruning stages for the property tests of the pruning pipeline
// (prune-property.test.ts: pruned reads; batches-prune.test.ts: batch iteration through the pipeline).
import fc from 'fast-check';
import { builtinCodecs } from '@parquetry/parquet-codecs';
// the writer by path: a devDependency on it would make a cycle in turbo's build graph (the writer's tests read)
import { field, type WriterOptions } from '../../parquet-writer/src/index.js';
import type { ColumnarVector, Filter, PruneOptions } from '@parquetry/parquet-reader';

export const codecs = builtinCodecs();

/** The table's schema: flat, struct, list and map columns. */
export const schema = {
  id: field.int64({ required: true }),
  k: field.int32(),
  s: field.string(),
  x: field.double(),
  st: field.struct({ a: field.int32(), b: field.string() }),
  tags: field.list(field.string()),
  m: field.map(field.string(), field.int32()),
};

/** A row of the table. */
export interface Row {
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
export const tableArb = fc
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

export const writeOptionsArb: fc.Arbitrary<WriterOptions> = fc.record({
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
export const filterArb: fc.Arbitrary<Filter> = fc.letrec<{ f: Filter }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: leafArb },
    { weight: 2, arbitrary: fc.array(tie('f'), { minLength: 1, maxLength: 3 }).map((and) => ({ and })) },
    { weight: 2, arbitrary: fc.array(tie('f'), { minLength: 1, maxLength: 3 }).map((or) => ({ or })) },
    { weight: 1, arbitrary: tie('f').map((not) => ({ not })) },
  ),
})).f;

/** Pruning stages: all, none, and some on or off. */
export const stageSets: (boolean | PruneOptions)[] = [
  true,
  false,
  { pageIndex: false },
  { bloom: false, dictionary: false },
  { statistics: false, pageIndex: false },
  { statistics: false, dictionary: false, bloom: false },
];

/** Slot `i` of a vector as readRows returns the value. */
export function rowOf(v: ColumnarVector, i: number): unknown {
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

