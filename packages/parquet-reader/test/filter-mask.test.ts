/**
 * Column-wise filter evaluation (typed-array loops, INT64 as 32-bit words) against row-by-row `matchWith` on the
 * same values: random columns of every typed kind with nulls and edge values, random filter trees and bounds.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { matchWith, type Filter } from '../src/filter.js';
import { filterMask, type MaskColumn } from '../src/filter-mask.js';

const I64 = [0n, 1n, -1n, 2n ** 31n, -(2n ** 31n), 2n ** 32n, 2n ** 32n + 1n, -(2n ** 32n), 2n ** 53n, 2n ** 63n - 1n, -(2n ** 63n), 4294967295n, 123456789012n];
const U64 = [0n, 1n, 2n ** 31n, 2n ** 32n, 2n ** 63n, 2n ** 64n - 1n, 4294967295n, 123456789012n];
const NUMS = [0, -0, 1, -1, 2.5, -2.5, NaN, Infinity, -Infinity, 2 ** 31 - 1, -(2 ** 31), 2 ** 53, 1e-300, 3.4028234663852886e38];
const BOUNDS: unknown[] = [...NUMS, ...I64, 2n ** 64n, -(2n ** 64n), 2n ** 64n - 1n, 2 ** 70, 0.5, 'x', null];

type Kind = 'i32' | 'f32' | 'f64' | 'i64' | 'u64';
const kinds: Kind[] = ['i32', 'f32', 'f64', 'i64', 'u64'];

function column(kind: Kind, picks: number[], nulls: boolean[]): MaskColumn {
  const present = picks.filter((_, i) => !nulls[i]);
  const values =
    kind === 'i32' ? Int32Array.from(present, (p) => [0, 1, -1, 2147483647, -2147483648, 7, -7][p % 7]!)
    : kind === 'f32' ? Float32Array.from(present, (p) => NUMS[p % NUMS.length]!)
    : kind === 'f64' ? Float64Array.from(present, (p) => NUMS[p % NUMS.length]!)
    : kind === 'i64' ? BigInt64Array.from(present, (p) => I64[p % I64.length]!)
    : BigUint64Array.from(present, (p) => U64[p % U64.length]!);
  const any = nulls.some(Boolean);
  return { values, def: any ? Uint8Array.from(nulls, (x) => (x ? 0 : 1)) : undefined, maxDef: 1 };
}

const leaf = (cols: string[]): fc.Arbitrary<Filter> =>
  fc.oneof(
    fc.record({ column: fc.constantFrom(...cols), op: fc.constantFrom('=', '!=', '<', '<=', '>', '>=' as const), value: fc.constantFrom(...BOUNDS) }) as fc.Arbitrary<Filter>,
    fc.record({ column: fc.constantFrom(...cols), op: fc.constantFrom('is null', 'is not null' as const) }) as fc.Arbitrary<Filter>,
    fc.record({ column: fc.constantFrom(...cols), op: fc.constant('in' as const), values: fc.array(fc.constantFrom(...BOUNDS), { maxLength: 3 }) }) as fc.Arbitrary<Filter>,
  );
const tree = (cols: string[]): fc.Arbitrary<Filter> =>
  fc.letrec<{ f: Filter }>((tie) => ({
    f: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf(cols),
      fc.record({ and: fc.array(tie('f'), { minLength: 1, maxLength: 3 }) }) as fc.Arbitrary<Filter>,
      fc.record({ or: fc.array(tie('f'), { minLength: 1, maxLength: 3 }) }) as fc.Arbitrary<Filter>,
      fc.record({ not: tie('f') }) as fc.Arbitrary<Filter>,
    ),
  })).f;

describe('filterMask', () => {
  test('equals row-by-row matchWith for every typed kind, with nulls and edge values', () => {
    const names = ['a', 'b'];
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.constantFrom(...kinds),
        fc.array(fc.tuple(fc.nat(100), fc.nat(100), fc.boolean(), fc.boolean()), { maxLength: 40 }),
        tree(names),
        (ka, kb, rows, filter) => {
          const n = rows.length;
          const cols = new Map<string, MaskColumn>([
            ['a', column(ka, rows.map((r) => r[0]), rows.map((r) => r[2]))],
            ['b', column(kb, rows.map((r) => r[1]), rows.map((r) => r[3]))],
          ]);
          const mask = filterMask(filter, cols, n, new Set());
          // the reference: each row's values, then matchWith
          const slot = new Map([...cols].map(([k, c]) => {
            let vi = 0;
            return [k, Array.from({ length: n }, (_, r) => (c.def === undefined || c.def[r] === c.maxDef ? c.values[vi++] : null))];
          }));
          for (let r = 0; r < n; r++) expect(mask[r], `row ${r}`).toBe(matchWith(filter, (c) => slot.get(c as string)![r], new Set()) ? 1 : 0);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe("'in' as a set lookup (QA helper-86 F6: a list of n values cost n comparisons per row)", () => {
  // the reference is independent of the set: the list compared value by value with compareValues / compareDecimals
  const POOL: unknown[] = [
    ...NUMS, ...I64, 2n ** 64n, 2 ** 60, 2n ** 60n, 2n ** 60n + 1n, 2 ** 53 + 2, 2n ** 53n + 2n, 9007199254740991, 9007199254740991n, -9007199254740992n,
    5, 5n, 0n, -0, 'x', 'y', '5', '', true, false, Uint8Array.of(1, 2), Uint8Array.of(1, 2), Uint8Array.of(), new Date(5), new Date(5), new Date(7),
  ];
  test('member() equals comparing with every listed value, for values and lists of every kind', async () => {
    const { compareValues } = await import('@parquetry/parquet-column/filter-values');
    fc.assert(
      fc.property(fc.constantFrom(...POOL), fc.array(fc.constantFrom(...POOL), { maxLength: 8 }), (v, values) => {
        const f = { column: 'a', op: 'in' as const, values };
        const want = values.some((x) => compareValues(v, x) === 0) ? 1 : 0;
        expect(matchWith(f, () => v, new Set()) ? 1 : 0).toBe(want);
        const col = { values: [v], def: undefined, maxDef: 0 };
        expect(filterMask(f, new Map([['a', col]]), 1, new Set())[0]).toBe(want);
      }),
      { numRuns: 5000 },
    );
  });

  test('DECIMAL columns compare as decimals ("1.50" in ["1.5"])', () => {
    const f = { column: 'd', op: 'in' as const, values: ['1.5', '-0.0', 7n] };
    const col = { values: ['1.50', '0', '7.00', '7.01', '2'], def: undefined, maxDef: 0 };
    expect([...filterMask(f, new Map([['d', col]]), 5, new Set(['d']))]).toEqual([1, 1, 1, 0, 0]);
  });

  test('20,000 listed values over 20,000 rows: every row found (a sanity check of the lookup, not a timing)', () => {
    const values = Array.from({ length: 20_000 }, (_, i) => BigInt(i * 3));
    const col = { values: BigInt64Array.from({ length: 20_000 }, (_, i) => BigInt(i)), def: undefined, maxDef: 0 };
    const m = filterMask({ column: 'a', op: 'in', values }, new Map([['a', col]]), 20_000, new Set());
    for (let i = 0; i < 20_000; i++) if (m[i] !== (i % 3 === 0 ? 1 : 0)) expect(m[i], `row ${i}`).toBe(i % 3 === 0 ? 1 : 0);
  });
});
