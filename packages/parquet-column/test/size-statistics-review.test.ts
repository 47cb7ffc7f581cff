/**
 * Review of the level-histogram counting the column writer now takes its page value and row counts from:
 * SizeStatisticsBuilder.addLevels returns the levels at the max definition level and repetitionZeros the levels at
 * repetition level 0, the histograms counted by sums for max levels up to 3 (and Int32Array levels range-checked once
 * per call). Against naive counts, for columns of max definition level 0-5 and max repetition level 0-3, Int32Array and
 * plain-array levels, random ranges cut into several calls; out-of-range levels anywhere in a call are INVALID_LEVELS
 * naming their index, for both level kinds.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { buildSchemaTree, type ColumnDescriptor } from '@parquetry/parquet-levels';
import { FieldRepetitionType, Type, type SchemaElement } from '@parquetry/thrift-compact';
import { SizeStatisticsBuilder } from '../src/size-statistics.js';
import { typedError } from './helpers.js';

const { OPTIONAL, REPEATED, REQUIRED } = FieldRepetitionType;

/** A leaf under groups of the given repetitions (the last one the leaf's own). */
function column(reps: FieldRepetitionType[]): ColumnDescriptor {
  const els: SchemaElement[] = [{ name: 'root', num_children: 1 }];
  reps.forEach((r, i) => {
    const leaf = i === reps.length - 1;
    els.push(leaf ? { name: `f${i}`, repetition_type: r, type: Type.INT32 } : { name: `f${i}`, repetition_type: r, num_children: 1 });
  });
  return buildSchemaTree(els).columns[0]!;
}

const repsArb = fc.array(fc.constantFrom(OPTIONAL, REPEATED, REQUIRED), { minLength: 1, maxLength: 6 }).filter((r) => r.filter((x) => x === REPEATED).length <= 3 && r.filter((x) => x !== REQUIRED).length <= 5);

const caseArb = repsArb.chain((reps) => {
  const col = column(reps);
  return fc.record({
    reps: fc.constant(reps),
    def: fc.array(fc.integer({ min: 0, max: col.maxDef }), { minLength: 0, maxLength: 200, size: 'max' }),
    rep: fc.array(fc.integer({ min: 0, max: col.maxRep }), { minLength: 200, maxLength: 200 }),
    typed: fc.boolean(),
    noDef: fc.boolean(),
    cuts: fc.array(fc.nat({ max: 200 }), { maxLength: 5 }),
    lead: fc.nat({ max: 200 }),
  });
});

describe('SizeStatisticsBuilder.addLevels counts', () => {
  test('property: returned value counts, repetitionZeros and both histograms equal naive counts', () => {
    fc.assert(
      fc.property(caseArb, ({ reps, def, rep, typed, noDef, cuts, lead }) => {
        const col = column(reps);
        const n = def.length;
        const start = Math.min(lead, n);
        const r = rep.slice(0, n);
        const defs = noDef ? undefined : typed ? Int32Array.from(def) : def;
        const repsIn = col.maxRep === 0 ? undefined : typed ? Int32Array.from(r) : r;
        const b = new SizeStatisticsBuilder(col);
        const points = [...new Set([start, ...cuts.map((c) => start + (c % (n - start + 1))), n])].sort((x, y) => x - y);
        let values = 0;
        const zeros0 = b.repetitionZeros;
        for (let k = 1; k < points.length; k++) values += b.addLevels(defs, repsIn, points[k - 1]!, points[k]!);
        const dIn = noDef ? new Array<number>(n).fill(col.maxDef) : def;
        const rIn = col.maxRep === 0 ? new Array<number>(n).fill(0) : r;
        const range = (a: number[]) => a.slice(start, n);
        expect(values).toBe(range(dIn).filter((d) => d === col.maxDef).length);
        expect(b.repetitionZeros - zeros0).toBe(range(rIn).filter((x) => x === 0).length);
        const hist = (a: number[], max: number) => Array.from({ length: max + 1 }, (_, l) => a.filter((x) => x === l).length);
        const t = b.toThrift();
        if (col.maxDef > 0) expect(t.definition_level_histogram).toEqual(hist(range(dIn), col.maxDef));
        if (col.maxRep > 0) expect(t.repetition_level_histogram).toEqual(hist(range(rIn), col.maxRep));
      }),
      { numRuns: 1500 },
    );
  });

  test('an out-of-range level anywhere in a call is INVALID_LEVELS naming its index (Int32Array and plain arrays)', async () => {
    for (const reps of [[OPTIONAL], [OPTIONAL, OPTIONAL], [OPTIONAL, REPEATED, OPTIONAL], [REPEATED, REPEATED, OPTIONAL, OPTIONAL], [OPTIONAL, OPTIONAL, OPTIONAL, OPTIONAL, OPTIONAL]]) {
      const col = column(reps);
      for (const kind of ['def', 'rep'] as const) {
        const max = kind === 'def' ? col.maxDef : col.maxRep;
        if (max === 0) continue;
        for (const bad of [max + 1, -1, 1 << 30, -(1 << 30)]) {
          for (const at of [0, 3, 17, 40]) {
            for (const typed of [true, false]) {
              const good = new Array<number>(41).fill(0);
              const levels = good.slice();
              levels[at] = bad;
              const arr = typed ? Int32Array.from(levels) : levels;
              const b = new SizeStatisticsBuilder(col);
              const ok = col.maxRep > 0 ? good : undefined;
              const err = await typedError(() => (kind === 'def' ? b.addLevels(arr, ok, 0, 41) : b.addLevels(good, arr, 0, 41)));
              expect(err.code, `${kind} ${bad} at ${at} ${typed}`).toBe('INVALID_LEVELS');
              expect(err.message).toContain(String(at));
            }
          }
        }
      }
    }
  });
});
