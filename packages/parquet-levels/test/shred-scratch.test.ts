// shredRecords with a ShredScratch (a writer's slice after slice): each call's output equals a call without it, while
// the nested columns' arrays are reused from one call to the next (larger and smaller batches, errors in between).
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { isParquetError } from '@parquetry/thrift-compact';
import { ShredScratch, shredRecords } from '../src/index.js';
import type { ShreddedLeaf } from '../src/index.js';
import { ALL_LEAVES, caseArbitrary, schemaOf } from './arbitraries.js';

function snapshot(run: () => ShreddedLeaf[]): unknown {
  try {
    return run().map((c) => ({
      def: c.def && Array.from(c.def),
      rep: c.rep && Array.from(c.rep),
      numLevels: c.numLevels,
      values: Array.from(c.values as ArrayLike<unknown>),
    }));
  } catch (e) {
    if (!isParquetError(e)) throw e;
    return { code: e.code, message: e.message };
  }
}

describe('shredRecords with a scratch', () => {
  test('random schemas: batch after batch equal to fresh calls', () => {
    fc.assert(
      fc.property(caseArbitrary(ALL_LEAVES, 12), fc.array(fc.nat(12), { minLength: 1, maxLength: 6 }), fc.boolean(), ({ top, records }, cuts, breakOne) => {
        const schema = schemaOf(top);
        const scratch = new ShredScratch();
        let at = 0;
        for (let b = 0; b < cuts.length; b++) {
          const n = Math.min(cuts[b]!, records.length - at);
          let batch: unknown[] = records.slice(at, at + n);
          at = at + n >= records.length ? 0 : at + n;
          // a record the fast path does not take (the generic walk's error) between good batches
          if (breakOne && b === 1) batch = [...batch, 42];
          const fresh = snapshot(() => shredRecords(schema, batch, { omitTrivialLevels: true }));
          const reused = snapshot(() => shredRecords(schema, batch, { omitTrivialLevels: true, scratch }));
          expect(reused).toEqual(fresh);
        }
      }),
      { numRuns: 300 },
    );
  });
});
