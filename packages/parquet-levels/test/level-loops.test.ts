// The unrolled, branch-free level loops of columnar assembly (slots3, slots2, listLeaf) against the general loop
// (slotsAny) on random level streams: random chains (non-decreasing slot thresholds, which depths record validity,
// offsets and clamps) and random levels, not only the ones a writer would give. Every array must come out the same,
// past the depths' lengths too (the branch-free loops write at a depth's next slot before knowing whether it is one).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { countPresent, lastSlots, listLeaf, slots1, slots2, slots3, slotsAny } from '../src/columnar.js';

interface Chain {
  m: number;
  thrDef: Int32Array;
  thrRep: Int32Array;
  presentDef: Int32Array;
  /** Per depth: records validity, offsets (not the leaf), clamps (not the leaf). */
  hv: boolean[];
  ho: boolean[];
  hc: boolean[];
  def: Uint8Array;
  rep: Uint8Array;
}

const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);

const chainArb = (m: number, rootHead: boolean): fc.Arbitrary<Chain> =>
  fc.record({ maxDef: fc.integer({ min: 0, max: 7 }), maxRep: fc.integer({ min: 0, max: 3 }) }).chain(({ maxDef, maxRep }) =>
    fc.record({
      thr: fc.array(fc.integer({ min: 0, max: maxDef }), { minLength: m, maxLength: m }).map(sorted),
      reps: fc.array(fc.integer({ min: 0, max: maxRep }), { minLength: m, maxLength: m }).map(sorted),
      extra: fc.array(fc.integer({ min: 0, max: maxDef }), { minLength: m, maxLength: m }),
      hv: fc.array(fc.boolean(), { minLength: m, maxLength: m }),
      ho: fc.array(fc.boolean(), { minLength: m, maxLength: m }),
      hc: fc.array(fc.boolean(), { minLength: m, maxLength: m }),
      levels: fc.array(fc.tuple(fc.integer({ min: 0, max: maxDef }), fc.integer({ min: 0, max: maxRep })), { maxLength: 300 }),
      // runs of one level (long lists, long runs of nulls) as well as mixed ones
      runs: fc.boolean(),
    }).map(({ thr, reps, extra, hv, ho, hc, levels, runs }) => {
      const lv = runs ? levels.flatMap((l, i) => Array.from({ length: 1 + (i % 5) * 7 }, () => l)) : levels;
      const thrDef = Int32Array.from(thr);
      const thrRep = Int32Array.from(reps);
      // a depth's value is present at or past its slot threshold
      const presentDef = Int32Array.from(thr.map((t, k) => Math.max(t, extra[k]!)));
      if (rootHead) {
        // the root: no validity, offsets or clamps, the thresholds of the next depth
        thrDef[0] = thrDef[1]!;
        thrRep[0] = thrRep[1]!;
        hv[0] = ho[0] = hc[0] = false;
      }
      ho[m - 1] = hc[m - 1] = false;
      return { m, thrDef, thrRep, presentDef, hv, ho, hc, def: Uint8Array.from(lv.map((l) => l[0])), rep: Uint8Array.from(lv.map((l) => l[1])) };
    }),
  );

interface Out {
  validity: Uint8Array[];
  offsets: Int32Array[];
  clamps: Int32Array[];
  count: Int32Array;
}

const E8 = new Uint8Array(0);
const E32 = new Int32Array(0);

function arrays(c: Chain, hv = c.hv, ho = c.ho, hc = c.hc): Out {
  const n = c.def.length;
  return {
    validity: hv.map((h) => (h ? new Uint8Array(n) : E8)),
    offsets: ho.map((h) => (h ? new Int32Array(n + 1) : E32)),
    clamps: hc.map((h) => (h ? new Int32Array(n) : E32)),
    count: new Int32Array(c.m + 1),
  };
}

/** The offsets' end, as buildChain writes it after any loop. */
function finish(c: Chain, o: Out): Out {
  for (let k = 0; k < c.m; k++) if (o.offsets[k]!.length > 0) o.offsets[k]![o.count[k]!] = o.count[k + 1]!;
  return o;
}

function general(c: Chain): Out {
  const o = arrays(c);
  slotsAny(c.def, c.rep, c.def.length, c.m, c.thrDef, c.thrRep, c.presentDef, o.validity, o.offsets, o.clamps, o.count);
  return finish(c, o);
}

function same(c: Chain, got: Out, present: number, want: Out): void {
  expect(got.count).toEqual(want.count);
  expect(got.validity).toEqual(want.validity);
  expect(got.offsets).toEqual(want.offsets);
  expect(got.clamps).toEqual(want.clamps);
  const leaf = want.validity[c.m - 1]!;
  if (present >= 0 && leaf.length > 0) expect(present).toBe(countPresent(leaf, want.count[c.m - 1]!));
}

describe('unrolled level loops against slotsAny', () => {
  test('slots3: any chain of three depths', () => {
    fc.assert(
      fc.property(fc.oneof(chainArb(3, false), chainArb(3, true)), (c) => {
        const o = arrays(c);
        const present = slots3(c.def, c.rep, c.def.length, c.thrDef, c.thrRep, c.presentDef, o.validity, o.offsets, o.clamps, o.count);
        same(c, finish(c, o), present, general(c));
      }),
      { numRuns: 500 },
    );
  });

  test('slots2: any chain of two depths', () => {
    fc.assert(
      fc.property(chainArb(2, false), (c) => {
        const o = arrays(c);
        const present = slots2(c.def, c.rep, c.def.length, c.thrDef, c.thrRep, c.presentDef, o.validity, o.offsets, o.clamps, o.count);
        same(c, finish(c, o), present, general(c));
      }),
      { numRuns: 500 },
    );
  });

  test('listLeaf: a list/map > leaf chain, alone (k = 0) or under the root (k = 1)', () => {
    fc.assert(
      fc.property(fc.oneof(chainArb(2, false), chainArb(3, true)), (c) => {
        const k = c.m - 2;
        // the list: offsets, no clamp
        c.ho[k] = true;
        c.hc[k] = false;
        const want = general(c);
        const o = arrays(c);
        const present = listLeaf(c.def, c.rep, c.def.length, k, c.thrDef, c.thrRep, c.presentDef, o.validity, o.offsets, o.count);
        // buildChain gives the root the list's slots
        if (k === 1) o.count[0] = o.count[1]!;
        same(c, finish(c, o), present, want);
      }),
      { numRuns: 500 },
    );
  });

  test('slots1: the leaf alone (its validity recorded or not)', () => {
    fc.assert(
      fc.property(chainArb(1, false), (c) => {
        const want = general(c);
        const o = arrays(c);
        const v0 = o.validity[0]!;
        const present = slots1(c.def, c.rep, c.def.length, c.thrDef[0]!, c.thrRep[0]!, c.presentDef[0]!, v0.length > 0 ? v0 : new Uint8Array(c.def.length));
        // buildChain reads the slots from their module variable, and clears the byte past them
        o.count[0] = lastSlots();
        if (v0.length > o.count[0]!) v0[o.count[0]!] = 0;
        same(c, o, present, want);
      }),
      { numRuns: 500 },
    );
  });

  test('slots3 on depths 1-3 of a four-depth chain under the root (the root takes the slots of the next depth)', () => {
    fc.assert(
      fc.property(chainArb(4, true), (c) => {
        const want = general(c);
        const o = arrays(c);
        const from = (x: Int32Array): Int32Array => x.subarray(1);
        const present = slots3(c.def, c.rep, c.def.length, from(c.thrDef), from(c.thrRep), from(c.presentDef), o.validity.slice(1), o.offsets.slice(1), o.clamps.slice(1), o.count.subarray(1));
        o.count[0] = o.count[1]!;
        same(c, finish(c, o), present, want);
      }),
      { numRuns: 500 },
    );
  });

  test('listLeaf: long streams whose first null comes late (blocks of levels without nulls, then the full loop)', () => {
    // a prefix of levels at the max definition level (no null at any depth) of any length, over several of
    // listLeaf's blocks of 4096 levels, then random levels
    fc.assert(
      fc.property(fc.oneof(chainArb(2, false), chainArb(3, true)), fc.integer({ min: 0, max: 13000 }), fc.integer({ min: 0, max: 3 }), (c, prefix, seed) => {
        const k = c.m - 2;
        c.ho[k] = true;
        c.hc[k] = false;
        const maxDef = Math.max(...c.presentDef, ...c.def);
        const maxRep = Math.max(...c.thrRep, ...c.rep);
        const head = Array.from({ length: prefix }, (_, i) => ((i * 2654435761 + seed) >>> 7) % (maxRep + 1));
        c.def = Uint8Array.from([...head.map(() => maxDef), ...c.def]);
        c.rep = Uint8Array.from([...head, ...c.rep]);
        const want = general(c);
        const o = arrays(c);
        const present = listLeaf(c.def, c.rep, c.def.length, k, c.thrDef, c.thrRep, c.presentDef, o.validity, o.offsets, o.count);
        if (k === 1) o.count[0] = o.count[1]!;
        same(c, finish(c, o), present, want);
      }),
      { numRuns: 150 },
    );
  });

  test('a top-level optional list of optional values, as a reader decodes it', () => {
    // root > list (slot at 0, present at 1) > leaf (slot at 2, present at 3); levels of whole rows
    const def: number[] = [];
    const rep: number[] = [];
    for (let row = 0; row < 2000; row++) {
      const kind = (row * 7919) % 5;
      if (kind < 2) {
        def.push(kind);
        rep.push(0);
      } else {
        for (let e = 0; e < kind; e++) {
          def.push((row + e) % 3 === 0 ? 2 : 3);
          rep.push(e === 0 ? 0 : 1);
        }
      }
    }
    const c: Chain = {
      m: 3, thrDef: Int32Array.of(0, 0, 2), thrRep: Int32Array.of(0, 0, 1), presentDef: Int32Array.of(0, 1, 3),
      hv: [false, true, true], ho: [false, true, false], hc: [false, false, false], def: Uint8Array.from(def), rep: Uint8Array.from(rep),
    };
    const want = general(c);
    expect(want.count[0]).toBe(2000);
    const o = arrays(c);
    const present = listLeaf(c.def, c.rep, c.def.length, 1, c.thrDef, c.thrRep, c.presentDef, o.validity, o.offsets, o.count);
    o.count[0] = o.count[1]!;
    same(c, finish(c, o), present, want);
  });
});
