// Columnar assembly of flat optional columns (max definition level 1, no repetition), whose levels the flat loop
// checks while it builds the validity, and of packed booleans (BooleanBits). Expected vectors are built here from
// the levels by the definition of the format: slot i is present when def[i] = 1, present slots take the values in
// order, null slots hold 0 (typed arrays) / null (arrays) / an empty byte range / a 0 bit.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { isParquetError } from '@parquetry/thrift-compact';
import {
  assembleColumnar, assembleRecords, buildSchemaTree, validateColumnLevels, unpackBooleans,
  type BooleanBits, type ColumnData, type LeafVector, type BinaryVector, type ListVector, type StructVector,
} from '../src/index.js';
import { flatten, g, p, ConvertedType, Type } from './helpers.js';

const schema = buildSchemaTree(flatten('schema', [
  p('i', 'optional', Type.INT32),
  p('d', 'optional', Type.DOUBLE),
  p('b', 'optional', Type.BOOLEAN),
  p('s', 'optional', Type.BYTE_ARRAY, ConvertedType.UTF8),
  p('r', 'required', Type.INT32),
  g('l', 'optional', [g('list', 'repeated', [p('element', 'optional', Type.BOOLEAN)])], ConvertedType.LIST),
]));

/** Booleans packed LSB first, written bit by bit (the definition of Arrow's layout). */
function pack(bools: readonly boolean[]): BooleanBits {
  const bits = new Uint8Array(Math.ceil(bools.length / 8));
  bools.forEach((v, i) => {
    if (v) bits[Math.floor(i / 8)]! += 2 ** (i % 8);
  });
  return { bits, count: bools.length };
}

function err(f: () => unknown): Error & { code: string } {
  try {
    f();
  } catch (e) {
    expect(isParquetError(e)).toBe(true);
    return e as Error & { code: string };
  }
  throw new Error('expected a ParquetError');
}

const rowArb = fc.record({
  i: fc.option(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })),
  d: fc.option(fc.double({ noNaN: true })),
  b: fc.option(fc.boolean()),
  s: fc.option(fc.string({ maxLength: 5 })),
  r: fc.integer({ min: -100, max: 100 }),
});

describe('flat optional columns', () => {
  test('property: validity is the definition levels, values spread over the present slots (equal to row assembly)', () => {
    // levels as bytes (a reader's decoded levels: the validity may be those bytes themselves) or as Int32Array
    fc.assert(fc.property(fc.array(rowArb, { maxLength: 70 }), fc.boolean(), fc.boolean(), (rows, asBits, asBytes) => {
      const n = rows.length;
      const col = <T>(k: 'i' | 'd' | 'b' | 's'): { def: Int32Array | Uint8Array; present: T[] } => {
        const def = asBytes ? new Uint8Array(n) : new Int32Array(n);
        const present: T[] = [];
        rows.forEach((r, j) => {
          if (r[k] !== null) {
            def[j] = 1;
            present.push(r[k] as T);
          }
        });
        return { def, present };
      };
      const ci = col<number>('i');
      const cd = col<number>('d');
      const cb = col<boolean>('b');
      const cs = col<string>('s');
      const enc = new TextEncoder();
      const sBytes = cs.present.map((s) => enc.encode(s));
      const offsets = new Int32Array(sBytes.length + 1);
      sBytes.forEach((b, j) => (offsets[j + 1] = offsets[j]! + b.length));
      const data = new Uint8Array(offsets[sBytes.length]!);
      sBytes.forEach((b, j) => data.set(b, offsets[j]!));
      const cols: (ColumnData | undefined)[] = [
        { def: ci.def, values: Int32Array.from(ci.present), numLevels: n },
        { def: cd.def, values: Float64Array.from(cd.present), numLevels: n },
        { def: cb.def, values: asBits ? pack(cb.present) : cb.present, numLevels: n },
        { def: cs.def, values: { offsets, data }, numLevels: n },
        { values: Int32Array.from(rows.map((r) => r.r)), numLevels: n },
        undefined,
      ];
      for (const validate of [true, false]) {
        const v = assembleColumnar(schema, cols, { validate });
        expect(v.length).toBe(n);
        const [vi, vd, vb, vs, vr] = v.children as [LeafVector, LeafVector, LeafVector, BinaryVector, LeafVector];
        const validityOf = (k: 'i' | 'd' | 'b' | 's'): number[] => rows.map((r) => (r[k] === null ? 0 : 1));
        const expectValidity = (got: Uint8Array | null, k: 'i' | 'd' | 'b' | 's'): void => {
          const want = validityOf(k);
          if (want.every((x) => x === 1)) expect(got === null || Array.from(got).every((x) => x === 1)).toBe(true);
          else expect(Array.from(got!)).toEqual(want);
        };
        expectValidity(vi.validity, 'i');
        expectValidity(vd.validity, 'd');
        expectValidity(vb.validity, 'b');
        expectValidity(vs.validity, 's');
        expect(vr.validity).toBeNull();
        expect(Array.from(vi.values as Int32Array)).toEqual(rows.map((r) => r.i ?? 0));
        expect(vi.values).toBeInstanceOf(Int32Array);
        expect(Array.from(vd.values as Float64Array)).toEqual(rows.map((r) => r.d ?? 0));
        if (asBits) {
          expect(vb.packed).toBe(true);
          expect(Array.from((vb.values as Uint8Array).subarray(0, Math.ceil(n / 8)))).toEqual(Array.from(pack(rows.map((r) => r.b === true)).bits));
        } else {
          expect(vb.packed).toBeUndefined();
          expect(Array.from(vb.values)).toEqual(rows.map((r) => r.b));
        }
        const dec = new TextDecoder();
        expect(rows.map((_, j) => dec.decode(vs.data.subarray(vs.offsets[j]!, vs.offsets[j + 1]!)))).toEqual(rows.map((r) => r.s ?? ''));
        expect(Array.from(vr.values as Int32Array)).toEqual(rows.map((r) => r.r));
      }
      // the levels are left as they were
      for (const [c, k] of [[ci, 'i'], [cd, 'd'], [cb, 'b'], [cs, 's']] as const) expect(Array.from(c.def)).toEqual(rows.map((r) => (r[k] === null ? 0 : 1)));
      // row assembly of the same columns (booleans unpacked) gives the rows back
      const records = assembleRecords(schema, cols);
      expect(records.map((r) => ({ ...r, s: r.s === null ? null : dec(r.s) }))).toEqual(rows.map((r) => ({ ...r, s: r.s })));
    }), { numRuns: 200 });
  });

  const dec = (v: unknown): string => new TextDecoder().decode(v as Uint8Array);

  test('bad definition levels: the same INVALID_LEVELS as validateColumnLevels, naming the column and level index', () => {
    const col = schema.columns[0]!;
    for (const bad of [2, -1, NaN, 7]) {
      const def = new Int32Array([1, 0, 1, 0, 0]);
      const levels: number[] = Array.from(def);
      levels[3] = bad;
      const data: ColumnData = { def: levels, values: new Int32Array([5, 6]), numLevels: 5 };
      const e = err(() => assembleColumnar(schema, [data]));
      expect(e.code).toBe('INVALID_LEVELS');
      expect(e.message).toBe(`parquet-levels: column 'i': definition level ${bad} at level index 3 is outside 0..1`);
      expect(e.message).toBe(err(() => validateColumnLevels(col, data)).message);
    }
    // levels as bytes: the level past the max is found after the range check of the whole column fails
    for (const bad of [2, 255]) {
      const def = Uint8Array.from([1, 0, 1, bad, 0, 1]);
      const data: ColumnData = { def, values: new Int32Array([5, 6, 7]), numLevels: 6 };
      const e = err(() => assembleColumnar(schema, [data]));
      expect(e.code).toBe('INVALID_LEVELS');
      expect(e.message).toBe(`parquet-levels: column 'i': definition level ${bad} at level index 3 is outside 0..1`);
      expect(Array.from(def)).toEqual([1, 0, 1, bad, 0, 1]);
    }
  });

  test('levels and values that disagree in number: the same INVALID_LEVELS as validateColumnLevels', () => {
    const col = schema.columns[0]!;
    const cases: [number[], number[], RegExp][] = [
      [[1, 0, 1], [1], /column 'i': fewer values than levels: 1 values for 2 levels at max definition level 1/],
      [[1, 0, 1], [1, 2, 3], /column 'i': fewer levels than values: 2 levels at max definition level 1 for 3 values/],
      [[0, 0, 0], [9], /fewer levels than values: 0 levels/],
    ];
    for (const [def, values, re] of cases) {
      const data: ColumnData = { def: Int32Array.from(def), values: Int32Array.from(values) };
      const e = err(() => assembleColumnar(schema, [data]));
      expect(e.code).toBe('INVALID_LEVELS');
      expect(e.message).toMatch(re);
      expect(e.message).toBe(err(() => validateColumnLevels(col, data)).message);
    }
    // booleans as bits: their count is the number of values
    const e = err(() => assembleColumnar(schema, [undefined, undefined, { def: Int32Array.from([1, 1, 0]), values: pack([true]) }]));
    expect(e.message).toMatch(/column 'b': fewer values than levels: 1 values for 2 levels/);
  });

  test('row counts are still checked against the other columns and numRows before assembly', () => {
    const a: ColumnData = { def: Int32Array.from([1, 0, 1]), values: Int32Array.from([1, 2]) };
    const b: ColumnData = { values: Int32Array.from([1, 2]) };
    expect(err(() => assembleColumnar(schema, [a, undefined, undefined, undefined, b])).code).toBe('ROW_COUNT_MISMATCH');
    expect(err(() => assembleColumnar(schema, [a], { numRows: 4 })).code).toBe('ROW_COUNT_MISMATCH');
    expect(assembleColumnar(schema, [a], { numRows: 3 }).length).toBe(3);
  });

  test('validate: false takes the levels as given (a level past the max counts as present, as before)', () => {
    const v = assembleColumnar(schema, [{ def: [1, 0, 2], values: Int32Array.from([4, 5]) }], { validate: false });
    expect(Array.from((v.children[0] as LeafVector).values as Int32Array)).toEqual([4, 0, 5]);
  });
});

describe('packed booleans (BooleanBits)', () => {
  test('property: a list of optional booleans as bits assembles to the bits of the slot-aligned booleans', () => {
    const listArb = fc.array(fc.option(fc.array(fc.option(fc.boolean()), { maxLength: 5 })), { maxLength: 40 });
    fc.assert(fc.property(listArb, (lists) => {
      // levels of l.list.element: def 0 null list, 1 empty list, 2 null element, 3 element; rep 1 continues a list
      const def: number[] = [];
      const rep: number[] = [];
      const present: boolean[] = [];
      for (const l of lists) {
        if (l === null) { def.push(0); rep.push(0); continue; }
        if (l.length === 0) { def.push(1); rep.push(0); continue; }
        l.forEach((x, k) => {
          rep.push(k === 0 ? 0 : 1);
          def.push(x === null ? 2 : 3);
          if (x !== null) present.push(x);
        });
      }
      const cols: (ColumnData | undefined)[] = [undefined, undefined, undefined, undefined, undefined, { def, rep, values: pack(present) }];
      const v = assembleColumnar(schema, cols);
      const lv = v.children[0] as ListVector;
      const el = lv.element as LeafVector;
      const slots = lists.flatMap((l) => l ?? []);
      expect(el.packed).toBe(true);
      expect(el.length).toBe(slots.length);
      expect(Array.from((el.values as Uint8Array).subarray(0, Math.ceil(slots.length / 8)))).toEqual(Array.from(pack(slots.map((x) => x === true)).bits));
      if (slots.some((x) => x === null)) expect(Array.from(el.validity!)).toEqual(slots.map((x) => (x === null ? 0 : 1)));
      // the same lists as booleans, by row assembly of the packed values
      const rows = assembleRecords(schema, cols);
      expect(rows.map((r) => r.l)).toEqual(lists);
    }), { numRuns: 200 });
  });

  test('unpackBooleans reads bit i of byte i >> 3, least significant first', () => {
    expect(unpackBooleans({ bits: Uint8Array.of(0b10000101, 0b1), count: 9 })).toEqual([true, false, true, false, false, false, false, true, true]);
    expect(unpackBooleans({ bits: Uint8Array.of(0xff), count: 3 })).toEqual([true, true, true]);
  });

  test('a struct of flat columns reads them through the first column (no deferral inside a struct)', () => {
    const nested = buildSchemaTree(flatten('schema', [g('t', 'optional', [p('x', 'optional', Type.INT32), p('y', 'optional', Type.BOOLEAN)])]));
    const v = assembleColumnar(nested, [
      { def: [2, 1, 0, 2], values: Int32Array.from([7, 8]) },
      { def: [1, 2, 0, 2], values: pack([true, false]) },
    ]);
    const t = v.children[0] as StructVector;
    expect(Array.from(t.validity!)).toEqual([1, 1, 0, 1]);
    const [x, y] = t.children as [LeafVector, LeafVector];
    expect(Array.from(x.values as Int32Array)).toEqual([7, 0, 0, 8]);
    expect(Array.from(x.validity!)).toEqual([1, 0, 0, 1]);
    expect(y.packed).toBe(true);
    expect((y.values as Uint8Array)[0]).toBe(0b0010);
    expect(Array.from(y.validity!)).toEqual([0, 1, 0, 1]);
    // a bad level inside the struct is still found (by validation, not the flat loop)
    expect(err(() => assembleColumnar(nested, [{ def: [3], values: Int32Array.from([1]) }])).message).toMatch(/definition level 3 at level index 0 is outside 0\.\.2/);
  });
});
