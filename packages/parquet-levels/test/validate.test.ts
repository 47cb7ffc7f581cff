// Every validation error of untrusted levels: typed ParquetError naming the column path and position.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { isParquetError } from '@parquetry/thrift-compact';
import {
  assembleColumnar, assembleRecords, buildSchemaTree, shredRecords, validateColumnLevels, validateRowCounts,
} from '../src/index.js';
import type { ColumnData } from '../src/index.js';
import { ConvertedType, Type, flatten, g, p } from './helpers.js';
import { validateLevels } from '../src/validate.js';
import { countLevelBytes } from '../src/level-bytes.js';

// optional group a (LIST) { repeated group list { optional int32 element } }  -> maxDef 3, maxRep 1
// required int32 b
const schema = buildSchemaTree(flatten('s', [
  g('a', 'optional', [g('list', 'repeated', [p('element', 'optional', Type.INT32)])], ConvertedType.LIST),
  p('b', 'required', Type.INT32),
]));
const [A, B] = schema.columns as [typeof schema.columns[0], typeof schema.columns[0]];

function err(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (e) {
    if (isParquetError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected a ParquetError');
}
const col = (def: number[], rep: number[], values: unknown[]): ColumnData => ({ def: Int32Array.from(def), rep: Int32Array.from(rep), values });

describe('validateColumnLevels', () => {
  test('accepts valid levels and counts rows', () => {
    expect(validateColumnLevels(A, col([3, 3, 2, 0, 1], [0, 1, 1, 0, 0], [1, 2]))).toBe(3);
  });
  test('definition level above the max', () => {
    const e = err(() => validateColumnLevels(A, col([3, 4], [0, 1], [1, 2])));
    expect(e.code).toBe('INVALID_LEVELS');
    expect(e.message).toMatch(/'a\.list\.element'.*definition level 4 at level index 1 is outside 0\.\.3/);
  });
  test('negative definition level', () => {
    expect(err(() => validateColumnLevels(A, col([-1], [0], []))).message).toMatch(/definition level -1 at level index 0/);
  });
  test('first repetition level not 0', () => {
    const e = err(() => validateColumnLevels(A, col([3, 3], [1, 1], [1, 2])));
    expect(e.message).toMatch(/'a\.list\.element'.*first repetition level is 1, expected 0/);
  });
  test('repetition level above the max', () => {
    expect(err(() => validateColumnLevels(A, col([3, 3], [0, 2], [1, 2]))).message).toMatch(/repetition level 2 at level index 1 is outside 0\.\.1/);
  });
  test('repetition into a list that has no element', () => {
    // row 0 is an empty list (def 1), then rep 1 claims a second element of it
    expect(err(() => validateColumnLevels(A, col([1, 3], [0, 1], [1]))).message).toMatch(/repetition level 1 at level index 1 continues a list with no element/);
    // an element of a list, continued by an entry that is itself an empty list
    expect(err(() => validateColumnLevels(A, col([3, 1], [0, 1], [1]))).message).toMatch(/at level index 1 continues/);
  });
  test('fewer levels than values, and fewer values than levels', () => {
    expect(err(() => validateColumnLevels(A, col([3, 2], [0, 0], [1, 2]))).message).toMatch(/'a\.list\.element'.*fewer levels than values: 1 levels .* for 2 values/);
    expect(err(() => validateColumnLevels(A, col([3, 3], [0, 0], [1]))).message).toMatch(/fewer values than levels: 1 values for 2 levels/);
    expect(err(() => validateColumnLevels(B, { values: [1, 2], numLevels: 3 })).message).toMatch(/'b'.*fewer values than levels/);
  });
  test('missing or short level arrays, bad level count', () => {
    expect(err(() => validateColumnLevels(B, { values: [], numLevels: -1 })).message).toMatch(/'b': level count -1 is not a non-negative integer/);
    // omitted definition levels mean every level is at the max: one value per level is then required
    expect(err(() => validateColumnLevels(A, { values: [], rep: new Int32Array(1), numLevels: 1 })).message).toMatch(/'a\.list\.element'.*fewer values than levels: 0 values for 1 levels/);
    expect(validateColumnLevels(A, { values: [7, 8, 9], rep: new Int32Array([0, 1, 0]), numLevels: 3 })).toBe(2);
    expect(err(() => validateColumnLevels(A, { values: [1], numLevels: 1 })).message).toMatch(/'a\.list\.element'.*repetition levels missing/);
    expect(err(() => validateColumnLevels(A, { def: new Int32Array(1), values: [], numLevels: 2 })).message).toMatch(/definition levels shorter \(1\) than the level count 2/);
  });
});

describe('row counts', () => {
  test('columns of a row group disagreeing on the row count', () => {
    const e = err(() => validateRowCounts(schema.columns, [3, 2]));
    expect(e.code).toBe('ROW_COUNT_MISMATCH');
    expect(e.message).toMatch(/column 'b' \(index 1\) has 2 rows, column 'a\.list\.element' has 3/);
    expect(err(() => validateRowCounts(schema.columns, [3, 3], 4)).message).toMatch(/'a\.list\.element' \(index 0\) has 3 rows, row group num_rows has 4/);
    expect(validateRowCounts(schema.columns, [3, 3], 3)).toBe(3);
  });
  test('assembly rejects columns with different row counts', () => {
    const cols = [col([3, 3, 0], [0, 1, 0], [1, 2]), { values: [7] }];
    expect(err(() => assembleRecords(schema, cols)).code).toBe('ROW_COUNT_MISMATCH');
    expect(err(() => assembleColumnar(schema, cols)).code).toBe('ROW_COUNT_MISMATCH');
    expect(err(() => assembleRecords(schema, [col([3], [0], [1]), { values: [7] }], { numRows: 2 })).code).toBe('ROW_COUNT_MISMATCH');
  });
});

describe('assembly without validation stays safe', () => {
  const twoStruct = buildSchemaTree(flatten('s', [g('s', 'optional', [p('x', 'optional', Type.INT32), p('y', 'optional', Type.INT32)])]));
  test('columns of one struct disagreeing on its nulls', () => {
    // x says the struct is present in row 0, y says it is null
    const cols = [{ def: Int32Array.of(2), values: [1] }, { def: Int32Array.of(0), values: [] }];
    const e = err(() => assembleRecords(twoStruct, cols));
    expect(e.code).toBe('INVALID_LEVELS');
    expect(e.message).toMatch(/column 1 under 's\.y': definition level 0 says an enclosing value is null/);
    expect(err(() => assembleColumnar(twoStruct, cols)).message).toMatch(/column 1 under 's\.y': definition level 0 disagrees with column 0 on whether 's' or an enclosing value is null/);
  });
  test('row-count disagreement detected even with validate: false', () => {
    const cols = [col([3, 3, 0], [0, 1, 0], [1, 2]), { values: [7] }];
    expect(err(() => assembleRecords(schema, cols, { validate: false })).code).toBe('INVALID_LEVELS');
  });
  test('value shortage detected with validate: false', () => {
    const cols = [col([3, 3], [0, 1], [1]), { values: [7] }];
    expect(err(() => assembleRecords(schema, cols, { validate: false })).message).toMatch(/fewer values/);
    expect(err(() => assembleColumnar(schema, cols, { validate: false })).code).toBe('INVALID_LEVELS');
  });
});

describe('shredding bad records', () => {
  test('required value missing, wrong container types', () => {
    expect(err(() => shredRecords(schema, [{ a: [] }])).message).toMatch(/required leaf is undefined, at field 'b' of record 0/);
    expect(err(() => shredRecords(schema, [{ b: 1 }, { a: 5, b: 1 }])).message).toMatch(/list value is not an array \(number\), at field 'a' of record 1/);
    expect(err(() => shredRecords(schema, [null])).code).toBe('INVALID_RECORD');
  });
});

describe('byte levels (counted by columnar assembly in one branch-free pass) agree with the generic loops', () => {
  // list<list<int32>>: maxDef 5, maxRep 2 (repeatedDefs [2, 4])
  const nested = buildSchemaTree(flatten('s', [
    g('x', 'optional', [g('list', 'repeated', [g('element', 'optional', [g('list', 'repeated', [p('element', 'optional', Type.INT32)])], ConvertedType.LIST)])], ConvertedType.LIST),
  ]));
  const X = nested.columns[0]!;
  // list<struct<y: optional int32>>: maxDef 4 (not 2^k - 1), maxRep 1; struct<struct<z: optional int32>>: maxDef 3, no repetition
  // (counted by the generic loops)
  const more = buildSchemaTree(flatten('s', [
    g('l', 'optional', [g('list', 'repeated', [g('element', 'optional', [p('y', 'optional', Type.INT32)])])], ConvertedType.LIST),
    g('t', 'optional', [g('u', 'optional', [p('z', 'optional', Type.INT32)])]),
  ]));
  const [Y, Z] = more.columns as [typeof A, typeof A];
  /** The row count, or the error, of validateColumnLevels: with columnar assembly's byte counter for byte levels. */
  const outcome = (c: typeof A, data: ColumnData): unknown => {
    try {
      return data.def instanceof Uint8Array ? validateLevels(c, data, countLevelBytes) : validateColumnLevels(c, data);
    } catch (e) {
      if (isParquetError(e)) return `${e.code}: ${e.message}`;
      throw e;
    }
  };
  test.each([['a (maxRep 1)', A], ['x (maxRep 2)', X], ['y (maxDef 4, maxRep 1)', Y]] as const)('levels of %s: the same rows or the same error as Int32Array levels', (_, c) => {
    expect(c.maxRep).toBeGreaterThan(0);
    // mostly valid levels (drawn from the level pairs a record can have), with now and then any byte
    const level = fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 0, max: c.maxRep }).chain((r) => fc.tuple(fc.constant(r), fc.integer({ min: r === 0 ? 0 : c.repeatedDefs[r - 1]!, max: c.maxDef }))) },
      { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 })) },
    );
    fc.assert(
      fc.property(fc.array(level, { maxLength: 40 }), fc.integer({ min: -1, max: 1 }), fc.boolean(), (pairs, valueSkew, firstZero) => {
        if (firstZero && pairs.length > 0) pairs[0] = [0, pairs[0]![1]];
        const rep = pairs.map((x) => x[0]);
        const def = pairs.map((x) => x[1]);
        const present = def.filter((d) => d === c.maxDef).length;
        const values = new Array<number>(Math.max(0, present + valueSkew)).fill(1);
        const bytes = outcome(c, { def: Uint8Array.from(def), rep: Uint8Array.from(rep), values });
        expect(bytes).toEqual(outcome(c, { def: Int32Array.from(def), rep: Int32Array.from(rep), values }));
        // definition levels alone (a column without repetition, given as bytes)
        const flat = { def: Uint8Array.from(def), values };
        expect(outcome(c === A ? B : c, flat)).toEqual(outcome(c === A ? B : c, { def: Int32Array.from(def), values }));
        // and of a column whose max definition level is not 0
        expect(outcome(Z, flat)).toEqual(outcome(Z, { def: Int32Array.from(def), values }));
      }),
      { numRuns: 400 },
    );
  });
  test.each([['a (4 levels per word)', A], ['x', X], ['y', Y]] as const)('valid byte levels of %s, any count: counted by the byte counter itself (no fallback), as the generic loops count', (_, c) => {
    // a level pair a record can have; rows start at repetition level 0
    const level = fc.integer({ min: 0, max: c.maxRep }).chain((r) => fc.tuple(fc.constant(r), fc.integer({ min: r === 0 ? 0 : c.repeatedDefs[r - 1]!, max: c.maxDef })));
    fc.assert(
      fc.property(fc.array(level, { maxLength: 60 }), (pairs) => {
        // a repetition level r > 0 continues a list: the level before must reach it too (else the level starts a row)
        const valid = pairs.map((x, i) => (x[0] > 0 && (i === 0 || pairs[i - 1]![1] < c.repeatedDefs[x[0] - 1]!) ? [0, x[1]] : x));
        const rep = Uint8Array.from(valid.map((x) => x[0]));
        const def = Uint8Array.from(valid.map((x) => x[1]));
        const out = new Int32Array(2);
        const rows = validateColumnLevels(c, { def: Int32Array.from(def), rep: Int32Array.from(rep), values: new Array(def.filter((d) => d === c.maxDef).length).fill(1) });
        expect(countLevelBytes(rep, def, def.length, c, out)).toBe(true);
        expect(Array.from(out)).toEqual([rows, def.filter((d) => d === c.maxDef).length]);
      }),
      { numRuns: 300 },
    );
  });

  test.each([['a', A], ['y', Y]] as const)('a definition level of 128-255 anywhere in a word of %s fails (not only bits outside the max)', (_, c) => {
    for (const bad of [c.maxDef + 1, 127, 128, 129, 128 + c.maxDef, 255]) {
      for (let at = 0; at < 8; at++) {
        const def = new Uint8Array(8).fill(c.maxDef);
        const rep = new Uint8Array(8);
        def[at] = bad;
        expect(countLevelBytes(rep, def, 8, c, new Int32Array(2))).toBe(false);
        expect(outcome(c, { def, rep, values: new Array(7).fill(1) })).toMatch(/outside 0\.\./);
      }
    }
  });

  test('byte levels at any alignment of either array (4 levels per word when both align alike), longer runs', () => {
    const c = A;
    const level = fc.oneof(
      { weight: 30, arbitrary: fc.integer({ min: 0, max: 1 }).chain((r) => fc.tuple(fc.constant(r), fc.integer({ min: r === 0 ? 0 : 2, max: 3 }))) },
      { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 255 })) },
    );
    fc.assert(
      fc.property(fc.array(level, { maxLength: 140 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }), fc.boolean(), (pairs, sr, sd, skew) => {
        if (pairs.length > 0) pairs[0] = [0, pairs[0]![1]];
        const place = (xs: number[], shift: number): Uint8Array => {
          const b = new Uint8Array(xs.length + shift + 3).fill(0xee);
          b.set(xs, shift);
          return b.subarray(shift, shift + xs.length);
        };
        const rep = pairs.map((x) => x[0]);
        const def = pairs.map((x) => x[1]);
        const present = def.filter((d) => d === c.maxDef).length;
        const values = new Array<number>(present + (skew ? 1 : 0)).fill(1);
        expect(outcome(c, { def: place(def, sd), rep: place(rep, sr), values })).toEqual(outcome(c, { def: Int32Array.from(def), rep: Int32Array.from(rep), values }));
      }),
      { numRuns: 1500 },
    );
  });

  test('hand-made byte levels', () => {
    expect(validateLevels(A, { def: Uint8Array.of(3, 3, 2, 0, 1), rep: Uint8Array.of(0, 1, 1, 0, 0), values: [1, 2] }, countLevelBytes)).toBe(3);
    expect(err(() => validateLevels(A, { def: Uint8Array.of(1, 3), rep: Uint8Array.of(0, 1), values: [1] }, countLevelBytes)).message).toMatch(/repetition level 1 at level index 1 continues a list with no element/);
    expect(err(() => validateLevels(A, { def: Uint8Array.of(3, 4), rep: Uint8Array.of(0, 1), values: [1, 2] }, countLevelBytes)).message).toMatch(/definition level 4 at level index 1 is outside 0\.\.3/);
    expect(err(() => validateLevels(A, { def: Uint8Array.of(3, 3), rep: Uint8Array.of(0, 2), values: [1, 2] }, countLevelBytes)).message).toMatch(/repetition level 2 at level index 1 is outside 0\.\.1/);
    expect(err(() => validateLevels(A, { def: Uint8Array.of(3, 3), rep: Uint8Array.of(0, 0), values: [1] }, countLevelBytes)).message).toMatch(/fewer values than levels: 1 values for 2 levels/);
  });
});
