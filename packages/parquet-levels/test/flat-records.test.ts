// assembleFlatRecords (the flat-read half of row assembly, in the /read entry) against assembleRecords (the
// /records entry): on random schemas, records and projections it gives the same rows when every present column is a
// top-level leaf and undefined otherwise; on corrupted levels and counts, the same error.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { isParquetError } from '@parquetry/thrift-compact';
import { assembleFlatRecords, shredRecords, type ColumnData, type SchemaTree } from '../src/index.js';
import { assembleRecords } from '../src/records.js';
import { assembleFlatRecords as fromRead } from '../src/read.js';
import { ALL_LEAVES, caseArbitrary, schemaOf } from './arbitraries.js';

const caseArb = caseArbitrary(ALL_LEAVES);

function outcome(f: () => unknown): unknown {
  try {
    return { value: f() };
  } catch (e) {
    if (!isParquetError(e)) throw e;
    return { code: e.code, message: e.message };
  }
}

/** Whether the present columns are all top-level leaves (not repeated), computed from the column paths. */
function flatRead(schema: SchemaTree, cols: readonly (ColumnData | undefined)[]): boolean {
  return schema.columns.every((c, i) => cols[i] === undefined || (c.path.length === 1 && c.maxRep === 0));
}

describe('assembleFlatRecords = assembleRecords on flat reads', () => {
  test('the /read entry exports the same function', () => {
    expect(fromRead).toBe(assembleFlatRecords);
  });

  test('random schemas, records and projections', () => {
    let flat = 0;
    let nested = 0;
    fc.assert(
      fc.property(caseArb, fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }), fc.constantFrom<'map' | 'object'>('map', 'object'), ({ top, records }, keep, maps) => {
        const schema = schemaOf(top);
        const all = shredRecords(schema, records);
        const cols: (ColumnData | undefined)[] = all.map((c, i) => (keep[i % 64] ? c : undefined));
        const got = assembleFlatRecords(schema, cols, { maps });
        if (flatRead(schema, cols)) {
          flat++;
          expect(got).toEqual(assembleRecords(schema, cols, { maps }));
        } else {
          nested++;
          expect(got).toBeUndefined();
        }
        // validate: false is always left to assembleRecords
        expect(assembleFlatRecords(schema, cols, { validate: false })).toBeUndefined();
      }),
      { numRuns: 300 },
    );
    expect(flat).toBeGreaterThan(20);
    expect(nested).toBeGreaterThan(20);
  });

  test('corrupted levels and row counts: the same error', () => {
    let errors = 0;
    fc.assert(
      fc.property(caseArb, fc.nat(), fc.integer({ min: -1, max: 3 }), fc.integer({ min: 0, max: 2 }), (c, pick, delta, what) => {
        const schema = schemaOf(c.top);
        const cols = shredRecords(schema, c.records).map((s, i) => (schema.columns[i]!.path.length === 1 ? s : undefined));
        if (!flatRead(schema, cols) || cols.every((x) => x === undefined)) return;
        const i = pick % cols.length;
        const s = cols[i];
        if (s === undefined) return;
        const def = Int32Array.from(s.def);
        if (what === 0 && def.length > 0) def[pick % def.length] = (def[pick % def.length]! + delta + 1) | 0;
        const broken = { ...s, def, numLevels: what === 1 ? Math.max(0, s.numLevels + delta) : s.numLevels, values: what === 2 ? (s.values as unknown[]).slice(1) : s.values };
        const bad = cols.map((x, k) => (k === i ? broken : x));
        const want = outcome(() => assembleRecords(schema, bad));
        if (!('value' in (want as object))) errors++;
        expect(outcome(() => assembleFlatRecords(schema, bad))).toEqual(want);
        expect(outcome(() => assembleFlatRecords(schema, bad, { numRows: c.records.length + 1 }))).toEqual(outcome(() => assembleRecords(schema, bad, { numRows: c.records.length + 1 })));
      }),
      { numRuns: 300 },
    );
    expect(errors).toBeGreaterThan(20);
  });
});
