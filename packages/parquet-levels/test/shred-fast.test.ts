// shredRecords' fast path against the generic recursive walk it replaced (kept as shredRecordsGeneric): random
// schemas (every list/map rule) × random records, made untidy (absent properties, undefined for null, typed arrays
// and plain objects for lists and maps) and sometimes broken (a value of the wrong kind anywhere): the same levels and
// values, or the same error. Plus hand-checked levels of the benchmark's flat table shape and `omitTrivialLevels`.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { isParquetError } from '@parquetry/thrift-compact';
import { assembleRecords, buildSchemaTree, shredRecords } from '../src/index.js';
import type { ShreddedColumn, ShreddedLeaf } from '../src/index.js';
import { shredRecordsGeneric } from '../src/shred.js';
import { ConvertedType, Type, flatten, g, p } from './helpers.js';
import { ALL_LEAVES, caseArbitrary, schemaOf } from './arbitraries.js';

const STR = [Type.BYTE_ARRAY, ConvertedType.UTF8] as const;

type Outcome = { ok: true; cols: unknown } | { ok: false; code: string; message: string };
function outcome(run: () => (ShreddedColumn | ShreddedLeaf)[]): Outcome {
  try {
    const cols = run().map((c) => ({
      def: c.def && { length: c.def.length, levels: Array.from(c.def) },
      rep: c.rep && { length: c.rep.length, levels: Array.from(c.rep) },
      numLevels: c.numLevels,
      values: c.values,
    }));
    return { ok: true, cols };
  } catch (e) {
    if (!isParquetError(e)) throw e;
    return { ok: false, code: e.code, message: e.message };
  }
}

const JUNK: readonly unknown[] = [null, undefined, 5, 'x', true, [], {}, new Map(), new Int32Array(1), 7n, new Date(0)];

/** Every place a value sits in a record tree: [container, key]. */
function slots(v: unknown, out: [Record<string | number, unknown> | Map<unknown, unknown>, unknown][] = []): typeof out {
  if (v instanceof Map) {
    for (const [k, x] of v) {
      out.push([v, k]);
      slots(x, out);
    }
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => {
      out.push([v as unknown as Record<number, unknown>, i]);
      slots(x, out);
    });
  } else if (v && typeof v === 'object' && !ArrayBuffer.isView(v) && !(v instanceof Date)) {
    for (const [k, x] of Object.entries(v)) {
      out.push([v as Record<string, unknown>, k]);
      slots(x, out);
    }
  }
  return out;
}

/** Untidy but equivalent forms of canonical values. */
function untidy(v: unknown, choice: number): unknown {
  if (v instanceof Map) {
    const keysAreStrings = [...v.keys()].every((k) => typeof k === 'string');
    const m = new Map([...v].map(([k, x]) => [k, untidy(x, choice)]));
    return keysAreStrings && choice % 3 === 0 ? Object.fromEntries(m) : m;
  }
  if (Array.isArray(v)) {
    if (choice % 2 === 1 && v.length > 0 && v.every((x) => typeof x === 'number' && Object.is(x, x | 0))) return Int32Array.from(v as number[]);
    return v.map((x) => untidy(x, choice));
  }
  if (v && typeof v === 'object' && !ArrayBuffer.isView(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (x === null && choice % 4 === 1) continue; // absent property
      out[k] = x === null && choice % 4 === 2 ? undefined : untidy(x, choice);
    }
    return out;
  }
  return v;
}

describe('property: the fast path gives exactly the generic walk\'s output or error', () => {
  test('random schemas × untidy and broken records', () => {
    fc.assert(
      fc.property(caseArbitrary(ALL_LEAVES, 8), fc.nat(), fc.nat(), fc.nat(), fc.boolean(), fc.boolean(), ({ top, records }, choice, pick, junk, breakIt, omit) => {
        const schema = schemaOf(top);
        const recs = records.map((r) => untidy(r, choice)) as unknown[];
        if (breakIt) {
          const s = slots(recs);
          const j = JUNK[junk % JUNK.length];
          if (s.length > 0) {
            const [container, key] = s[pick % s.length]!;
            if (container instanceof Map) container.set(key, j);
            else container[key as string] = j;
          } else if (recs.length > 0) recs[pick % recs.length] = j;
        }
        const opts = { omitTrivialLevels: omit };
        const want = outcome(() => shredRecordsGeneric(schema, recs, opts));
        expect(outcome(() => shredRecords(schema, recs, opts))).toEqual(want);
        // any iterable, not only arrays
        expect(outcome(() => shredRecords(schema, (function* () { yield* recs; })(), opts))).toEqual(want);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('hand-checked', () => {
  const schema = buildSchemaTree(flatten('r', [
    p('id', 'required', Type.INT64), p('x', 'optional', Type.DOUBLE), p('s', 'required', ...STR),
    g('tags', 'optional', [g('list', 'repeated', [p('element', 'optional', ...STR)])], ConvertedType.LIST),
    g('st', 'optional', [g('l', 'optional', [g('list', 'repeated', [p('element', 'optional', ...STR)])], ConvertedType.LIST)]),
  ]));
  const rows = [
    { id: 1n, x: 1.5, s: 'a', tags: ['p', null], st: { l: ['q'] } },
    { id: 2n, x: null, s: 'b', tags: null, st: null },
    { id: 3n, s: 'c', tags: [], st: { l: null } },
    { id: 4n, x: 2.5, s: 'd', tags: ['r'], st: { l: [] } },
  ];
  test('levels from the spec, arrays exactly numLevels long', () => {
    const cols = shredRecords(schema, rows);
    const lv = cols.map((c) => [Array.from(c.def), Array.from(c.rep), c.values, c.numLevels, c.def.length, c.rep.length]);
    expect(lv).toEqual([
      [[0, 0, 0, 0], [0, 0, 0, 0], [1n, 2n, 3n, 4n], 4, 4, 4],
      [[1, 0, 0, 1], [0, 0, 0, 0], [1.5, 2.5], 4, 4, 4],
      [[0, 0, 0, 0], [0, 0, 0, 0], ['a', 'b', 'c', 'd'], 4, 4, 4],
      // tags: list def 1, element slot def 2, value def 3
      [[3, 2, 0, 1, 3], [0, 1, 0, 0, 0], ['p', 'r'], 5, 5, 5],
      // st: struct def 1, list def 2, element slot 3, value 4
      [[4, 0, 1, 2], [0, 0, 0, 0], ['q'], 4, 4, 4],
    ]);
    expect(assembleRecords(schema, cols)).toEqual(rows.map((r) => ({ x: null, ...r })));
  });

  test('omitTrivialLevels: def only with a level below the max, rep only when repeated', () => {
    const cols = shredRecords(schema, rows, { omitTrivialLevels: true });
    expect(cols.map((c) => [c.def && Array.from(c.def), c.rep && Array.from(c.rep)])).toEqual([
      [undefined, undefined],
      [[1, 0, 0, 1], undefined],
      [undefined, undefined],
      [[3, 2, 0, 1, 3], [0, 1, 0, 0, 0]],
      [[4, 0, 1, 2], [0, 0, 0, 0]],
    ]);
    const full = shredRecords(schema, [rows[0]!, rows[3]!].map((r) => ({ ...r, tags: ['z'], st: { l: ['y'] } })), { omitTrivialLevels: true });
    expect(full.map((c) => c.def === undefined)).toEqual([true, true, true, true, true]);
    expect(full[3]!.rep).toEqual(Int32Array.from([0, 0]));
  });

  test('the first bad record is reported, whichever column it is in', () => {
    const bad = [rows[0], rows[1], { ...rows[2], tags: 5 }, { ...rows[3], id: null }];
    const e = (() => {
      try {
        shredRecords(schema, bad);
      } catch (x) {
        return x as Error & { code: string };
      }
      throw new Error('no error');
    })();
    expect(e.code).toBe('INVALID_RECORD');
    expect(e.message).toBe("parquet-levels: list value is not an array (number), at field 'tags' of record 2");
    expect(() => shredRecords(schema, [rows[0], null])).toThrow(/struct value is not an object \(null\), at field '<root>' of record 1/);
  });

  test('level buffers grow by projection but not past what the rows need when a huge list comes first', () => {
    const sch = buildSchemaTree(flatten('r', [p('nums', 'repeated', Type.INT32)]));
    const rows: { nums: number[] }[] = [{ nums: Array.from({ length: 100_000 }, (_, i) => i) }];
    for (let i = 0; i < 100_000; i++) rows.push({ nums: [] });
    const [c] = shredRecords(sch, rows);
    expect(c!.numLevels).toBe(200_000);
    expect(c!.def.length).toBe(200_000);
    expect(c!.def.buffer.byteLength).toBeLessThanOrEqual(4 * 400_000);
    expect(c!.values.length).toBe(100_000);
    // a steady 3 levels per row: about one growth to the projected size
    const steady = Array.from({ length: 200_000 }, () => ({ nums: [1, 2, 3] }));
    const [d] = shredRecords(sch, steady);
    expect(d!.rep.length).toBe(600_000);
    expect(d!.rep.buffer.byteLength).toBeLessThanOrEqual(4 * 600_000 * 1.2);
  });
});
