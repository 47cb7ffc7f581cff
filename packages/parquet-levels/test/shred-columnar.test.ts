// shredColumnar: Arrow-style vectors → levels + dense values, the inverse of assembleColumnar.
// - hand-written vectors of every kind with the levels worked out by hand from the spec's nested encoding,
// - the Dremel paper's Document example through the columnar form (the paper's exact column tables),
// - real level streams of the nested/legacy corpus files (written by other implementations) survive
//   assembleColumnar → shredColumnar unchanged,
// - property: random schemas × random records (every list/map rule), values as a reader decodes them (typed arrays,
//   bytes + offsets) or as JS values, with and without definition levels, whole or a random row slice:
//   shredColumnar(assembleColumnar(shredRecords(records))) gives shredRecords' levels and values back,
// - every error on hand-made bad vectors, and random corruption throws only ParquetError.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { isParquetError } from '@parquetry/thrift-compact';
import {
  assembleColumnar, buildSchemaTree, shredColumnar, shredRecords, isBinaryValues, isBooleanBits, unpackBooleans, ShredScratch,
} from '../src/index.js';
import type {
  BinaryValues, ColumnData, ColumnarVector, SchemaTree, ShreddedColumn, ShreddedLeaf, StructVector,
} from '../src/index.js';
import { ConvertedType, Type, flatten, g, p } from './helpers.js';
import { ALL_LEAVES, caseArbitrary, schemaOf } from './arbitraries.js';
import { HAVE_CORPUS, footer } from './corpus.js';
import { readChunk } from './page-harness.js';

const STR = [Type.BYTE_ARRAY, ConvertedType.UTF8] as const;
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

// Vector constructors for hand-made inputs (shredColumnar reads the schema's fields, not `field`).
const F = buildSchemaTree(flatten('x', [p('x', 'required', Type.INT32)])).field;
const leafV = (values: ArrayLike<unknown>, validity: Uint8Array | null = null): ColumnarVector =>
  ({ kind: 'leaf', field: F, length: values.length, validity, values });
const binV = (offsets: number[], data: Uint8Array, validity: Uint8Array | null = null): ColumnarVector =>
  ({ kind: 'binary', field: F, length: offsets.length - 1, validity, offsets: Int32Array.from(offsets), data, utf8: true });
const listV = (offsets: number[], element: ColumnarVector, validity: Uint8Array | null = null): ColumnarVector =>
  ({ kind: 'list', field: F, length: offsets.length - 1, validity, offsets: Int32Array.from(offsets), element });
const structV = (length: number, children: ColumnarVector[], validity: Uint8Array | null = null): StructVector =>
  ({ kind: 'struct', field: F, length, validity, children });
const mapV = (offsets: number[], keys: ColumnarVector, values: ColumnarVector | undefined, validity: Uint8Array | null = null): ColumnarVector =>
  ({ kind: 'map', field: F, length: offsets.length - 1, validity, offsets: Int32Array.from(offsets), keys, values });
const u8 = (...b: number[]): Uint8Array => Uint8Array.from(b);

const levels = (s: ShreddedLeaf): { def: number[] | undefined; rep: number[] | undefined; n: number } => ({
  def: s.def && Array.from(s.def), rep: s.rep && Array.from(s.rep), n: s.numLevels,
});
/** Byte values as their bytes, typed values as their raw bytes (bit-exact), other values as they are. */
function valuesOf(v: ColumnData['values']): unknown {
  if (isBooleanBits(v)) return unpackBooleans(v);
  if (isBinaryValues(v)) {
    const out: number[][] = [];
    for (let i = 0; i + 1 < v.offsets.length; i++) out.push(Array.from(v.data.subarray(v.offsets[i]!, v.offsets[i + 1]!)));
    return out;
  }
  if (ArrayBuffer.isView(v)) return { type: v.constructor.name, bytes: Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) };
  return Array.from(v);
}

describe('hand-made vectors, levels from the spec', () => {
  const flat = buildSchemaTree(flatten('r', [p('id', 'required', Type.INT64), p('x', 'optional', Type.DOUBLE), p('s', 'optional', ...STR)]));
  const ids = BigInt64Array.from([1n, 2n, 3n, 4n]);
  const xs = Float64Array.from([1.5, 0, -0, NaN]);
  const data = bytes('..abcde');
  const flatVectors = (): ColumnarVector[] => [leafV(ids), leafV(xs, u8(1, 0, 1, 1)), binV([2, 3, 3, 5, 6], data, u8(1, 0, 1, 1))];

  test('flat leaves: no levels and the same array without nulls; compacted typed values; binary offsets over the same bytes', () => {
    const [id, x, s] = shredColumnar(flat, flatVectors());
    expect(levels(id!)).toEqual({ def: undefined, rep: undefined, n: 4 });
    expect(id!.values).toBe(ids);
    expect(levels(x!)).toEqual({ def: [1, 0, 1, 1], rep: undefined, n: 4 });
    expect(x!.values).toBeInstanceOf(Float64Array);
    expect(valuesOf(x!.values)).toEqual(valuesOf(Float64Array.from([1.5, -0, NaN])));
    expect(Object.is((x!.values as Float64Array)[1], -0)).toBe(true);
    expect(levels(s!)).toEqual({ def: [1, 0, 1, 1], rep: undefined, n: 4 });
    const sv = s!.values as BinaryValues;
    expect(sv.data).toBe(data);
    expect(Array.from(sv.offsets)).toEqual([2, 3, 5, 6]);
    expect(valuesOf(sv)).toEqual([[97], [98, 99], [100]]);
  });

  test('a row slice: subarrays sharing the buffers', () => {
    const [id, x, s] = shredColumnar(flat, structV(4, flatVectors()), 1, 3);
    expect(levels(id!)).toEqual({ def: undefined, rep: undefined, n: 2 });
    expect(Array.from(id!.values as BigInt64Array)).toEqual([2n, 3n]);
    expect((id!.values as BigInt64Array).buffer).toBe(ids.buffer);
    expect(levels(x!)).toEqual({ def: [0, 1], rep: undefined, n: 2 });
    expect(Object.is((x!.values as Float64Array)[0], -0)).toBe(true);
    expect(levels(s!)).toEqual({ def: [0, 1], rep: undefined, n: 2 });
    expect(Array.from((s!.values as BinaryValues).offsets)).toEqual([3, 5]);
    expect((s!.values as BinaryValues).data).toBe(data);
    // an empty slice
    expect(shredColumnar(flat, flatVectors(), 2, 2).map(levels)).toEqual([0, 0, 0].map((n) => ({ def: undefined, rep: undefined, n })));
  });

  test('binary nulls whose slots hold bytes: the kept bytes are copied', () => {
    const d = bytes('aXXbc');
    const [, , s] = shredColumnar(flat, [leafV(ids.subarray(0, 3)), leafV(xs.subarray(0, 3)), binV([0, 1, 3, 5], d, u8(1, 0, 1))]);
    const sv = s!.values as BinaryValues;
    expect(sv.data).not.toBe(d);
    expect(valuesOf(sv)).toEqual([[97], [98, 99]]);
    expect(Array.from(sv.offsets)).toEqual([0, 1, 3]);
  });

  test('typed values of every width keep their bits when compacted', () => {
    const sch = buildSchemaTree(flatten('r', [
      p('a', 'optional', Type.INT64), p('b', 'optional', Type.FLOAT), p('c', 'optional', Type.INT32, ConvertedType.INT_16), p('d', 'optional', Type.BOOLEAN),
    ]));
    const v = u8(0, 1, 0, 1);
    const nan = new Float32Array(new Uint32Array([0x7fc00001]).buffer)[0]!; // a NaN with a payload
    const out = shredColumnar(sch, [
      leafV(BigInt64Array.from([0n, -(2n ** 63n), 5n, 2n ** 63n - 1n]), v),
      leafV(Float32Array.from([1, nan, 2, -0]), v),
      leafV(Int16Array.from([1, -32768, 2, 32767]), v),
      leafV(Uint8Array.from([1, 0, 1, 1]), v),
    ]);
    expect(out.map((o) => levels(o).def)).toEqual([[0, 1, 0, 1], [0, 1, 0, 1], [0, 1, 0, 1], [0, 1, 0, 1]]);
    expect(Array.from(out[0]!.values as BigInt64Array)).toEqual([-(2n ** 63n), 2n ** 63n - 1n]);
    expect(Array.from(new Uint32Array((out[1]!.values as Float32Array).buffer))).toEqual([0x7fc00001, 0x80000000]);
    expect(out[2]!.values).toEqual(Int16Array.from([-32768, 32767]));
    expect(out[3]!.values).toEqual(Uint8Array.from([0, 1]));
  });

  test('list<string?>?: null list, empty list, null element; slices pick the element ranges', () => {
    const sch = buildSchemaTree(flatten('r', [g('tags', 'optional', [g('list', 'repeated', [p('element', 'optional', ...STR)])], ConvertedType.LIST)]));
    // rows: ['a', null], null, [], ['bc']
    const d = bytes('abc');
    const vec = [listV([0, 2, 2, 2, 3], binV([0, 1, 1, 3], d, u8(1, 0, 1)), u8(1, 0, 1, 1))];
    const [t] = shredColumnar(sch, vec);
    expect(levels(t!)).toEqual({ def: [3, 2, 0, 1, 3], rep: [0, 1, 0, 0, 0], n: 5 });
    expect(valuesOf(t!.values)).toEqual([[97], [98, 99]]);
    expect((t!.values as BinaryValues).data).toBe(d);
    const [t2] = shredColumnar(sch, vec, 1, 4);
    expect(levels(t2!)).toEqual({ def: [0, 1, 3], rep: [0, 0, 0], n: 3 });
    expect(Array.from((t2!.values as BinaryValues).offsets)).toEqual([1, 3]);
    const [t3] = shredColumnar(sch, vec, 0, 1);
    expect(levels(t3!)).toEqual({ def: [3, 2], rep: [0, 1], n: 2 });
    expect(valuesOf(t3!.values)).toEqual([[97]]);
  });

  test('nullable struct: a required leaf\'s slots under a null struct are skipped; 2-level repeated-primitive list', () => {
    const sch = buildSchemaTree(flatten('r', [
      g('s', 'optional', [p('a', 'required', Type.INT32), g('l', 'optional', [p('element', 'repeated', Type.INT32)], ConvertedType.LIST)]),
    ]));
    // rows: {a: 7, l: [5, 6]}, null, {a: 9, l: null}
    const el = Int32Array.from([5, 6]);
    const vec = structV(3, [structV(3, [leafV(Int32Array.from([7, 99, 9])), listV([0, 2, 2, 2], leafV(el), u8(1, 0, 0))], u8(1, 0, 1))]);
    const [a, l] = shredColumnar(sch, vec);
    expect(levels(a!)).toEqual({ def: [1, 0, 1], rep: undefined, n: 3 });
    expect(a!.values).toEqual(Int32Array.from([7, 9]));
    expect(levels(l!)).toEqual({ def: [3, 3, 0, 1], rep: [0, 1, 0, 0], n: 4 });
    expect(l!.values).toBe(el);
  });

  test('maps: with nullable values, and key-only; unannotated repeated field', () => {
    const sch = buildSchemaTree(flatten('r', [
      g('m', 'optional', [g('key_value', 'repeated', [p('key', 'required', ...STR), p('value', 'optional', Type.INT32)])], ConvertedType.MAP),
      g('k', 'required', [g('key_value', 'repeated', [p('key', 'required', Type.INT32)])], ConvertedType.MAP),
      p('nums', 'repeated', Type.INT32),
    ]));
    // rows: {m: {a: 1, b: null}, k: {1, 2}, nums: [4, 5]}, {m: null, k: {}, nums: []}, {m: {}, k: {3}, nums: [6]}
    const vec = [
      mapV([0, 2, 2, 2], binV([0, 1, 2], bytes('ab')), leafV(Int32Array.from([1, 0]), u8(1, 0)), u8(1, 0, 1)),
      mapV([0, 2, 2, 3], leafV(Int32Array.from([1, 2, 3])), undefined),
      listV([0, 2, 2, 3], leafV([4, 5, 6])),
    ];
    const [key, value, k, nums] = shredColumnar(sch, vec);
    expect(levels(key!)).toEqual({ def: [2, 2, 0, 1], rep: [0, 1, 0, 0], n: 4 });
    expect(levels(value!)).toEqual({ def: [3, 2, 0, 1], rep: [0, 1, 0, 0], n: 4 });
    expect(valuesOf(value!.values)).toEqual(valuesOf(Int32Array.from([1])));
    expect(levels(k!)).toEqual({ def: [1, 1, 0, 1], rep: [0, 1, 0, 0], n: 4 });
    expect(levels(nums!)).toEqual({ def: [1, 1, 0, 1], rep: [0, 1, 0, 0], n: 4 });
    expect(nums!.values).toEqual([4, 5, 6]);
    // rows 1..3 only
    const s = shredColumnar(sch, vec, 1);
    expect(s.map(levels)).toEqual([
      { def: [0, 1], rep: [0, 0], n: 2 }, { def: [0, 1], rep: [0, 0], n: 2 }, { def: [0, 1], rep: [0, 0], n: 2 }, { def: [0, 1], rep: [0, 0], n: 2 },
    ]);
    expect(s[2]!.values).toEqual(Int32Array.from([3]));
    expect(s[3]!.values).toEqual([6]);
  });

  test('a null unannotated repeated field is an empty one, as when shredding records', () => {
    const sch = buildSchemaTree(flatten('r', [p('nums', 'repeated', Type.INT32)]));
    const [nums] = shredColumnar(sch, [listV([0, 1, 1], leafV([4]), u8(1, 0))]);
    expect(levels(nums!)).toEqual({ def: [1, 0], rep: [0, 0], n: 2 });
    expect(levels(shredRecords(sch, [{ nums: [4] }, { nums: null }])[0]! as ShreddedLeaf)).toEqual({ def: [1, 0], rep: [0, 0], n: 2 });
  });

  test('elements of a null list that covers a range (allowed by Arrow) are skipped', () => {
    const sch = buildSchemaTree(flatten('r', [g('l', 'optional', [g('list', 'repeated', [p('element', 'required', Type.INT32)])], ConvertedType.LIST)]));
    const [l] = shredColumnar(sch, [listV([0, 1, 3, 4], leafV(Int32Array.from([1, 2, 3, 4])), u8(1, 0, 1))]);
    expect(levels(l!)).toEqual({ def: [2, 0, 2], rep: [0, 0, 0], n: 3 });
    expect(l!.values).toEqual(Int32Array.from([1, 4]));
  });
  test('list<string> with required elements: levels only in the element loop; a null list over a range, an empty list, a row slice', () => {
    const sch = buildSchemaTree(flatten('r', [g('l', 'optional', [g('list', 'repeated', [p('element', 'required', ...STR)])], ConvertedType.LIST)]));
    // rows: ["a","bc"], null (spanning "d"), [], ["ef","g","h"]; max def 2, empty list def 1, null list def 0
    const data = bytes('abcdefgh');
    const vec = (): ColumnarVector => listV([0, 2, 3, 3, 6], binV([0, 1, 3, 4, 6, 7, 8], data), u8(1, 0, 1, 1));
    const [l] = shredColumnar(sch, [vec()]);
    expect(levels(l!)).toEqual({ def: [2, 2, 0, 1, 2, 2, 2], rep: [0, 1, 0, 0, 0, 1, 1], n: 7 });
    expect(valuesOf(l!.values)).toEqual(['a', 'bc', 'ef', 'g', 'h'].map((x) => Array.from(bytes(x))));
    // rows 2–3 ([], ["ef","g","h"]): nothing skipped, the offsets are a view of the vector's
    const [t] = shredColumnar(sch, [vec()], 2, 4);
    expect(levels(t!)).toEqual({ def: [1, 2, 2, 2], rep: [0, 0, 1, 1], n: 4 });
    expect(valuesOf(t!.values)).toEqual(['ef', 'g', 'h'].map((x) => Array.from(bytes(x))));
    // no nulls and no empty lists: no definition levels at all
    const [d] = shredColumnar(sch, [listV([0, 2, 3], binV([0, 1, 3, 4], data))]);
    expect(levels(d!)).toEqual({ def: undefined, rep: [0, 1, 0], n: 3 });
  });
});

describe('the Dremel paper example through the columnar form', () => {
  // Melnik et al., "Dremel: Interactive Analysis of Web-Scale Datasets" (VLDB 2010), Figures 2 and 3.
  const schema = buildSchemaTree(flatten('Document', [
    p('DocId', 'required', Type.INT64),
    g('Links', 'optional', [p('Backward', 'repeated', Type.INT64), p('Forward', 'repeated', Type.INT64)]),
    g('Name', 'repeated', [
      g('Language', 'repeated', [p('Code', 'required', ...STR), p('Country', 'optional', ...STR)]),
      p('Url', 'optional', ...STR),
    ]),
  ]));
  const r1 = {
    DocId: 10,
    Links: { Forward: [20, 40, 60] },
    Name: [{ Language: [{ Code: 'en-us', Country: 'us' }, { Code: 'en' }], Url: 'http://A' }, { Url: 'http://B' }, { Language: [{ Code: 'en-gb', Country: 'gb' }] }],
  };
  const r2 = { DocId: 20, Links: { Backward: [10, 30], Forward: [80] }, Name: [{ Url: 'http://C' }] };
  const paper: [unknown, number, number][][] = [
    [[10, 0, 0], [20, 0, 0]],
    [[null, 0, 1], [10, 0, 2], [30, 1, 2]],
    [[20, 0, 2], [40, 1, 2], [60, 1, 2], [80, 0, 2]],
    [['en-us', 0, 2], ['en', 2, 2], [null, 1, 1], ['en-gb', 1, 2], [null, 0, 1]],
    [['us', 0, 3], [null, 2, 2], [null, 1, 1], ['gb', 1, 3], [null, 0, 1]],
    [['http://A', 0, 2], ['http://B', 1, 2], [null, 1, 1], ['http://C', 0, 2]],
  ];
  test('gives the paper\'s column tables', () => {
    const out = shredColumnar(schema, assembleColumnar(schema, shredRecords(schema, [r1, r2])));
    const tables = out.map((s, c) => {
      const max = schema.columns[c]!.maxDef;
      const vals = s.values as ArrayLike<unknown>;
      const rows: [unknown, number, number][] = [];
      let vi = 0;
      for (let i = 0; i < s.numLevels; i++) {
        const d = s.def ? s.def[i]! : max;
        rows.push([d === max ? vals[vi++] : null, s.rep ? s.rep[i]! : 0, d]);
      }
      return rows;
    });
    expect(tables).toEqual(paper);
    expect(out[0]!.def).toBeUndefined();
    expect(out[2]!.def).toBeUndefined(); // Links.Forward: every level at the max
  });
});

describe.skipIf(!HAVE_CORPUS)('corpus level streams survive assembleColumnar → shredColumnar', () => {
  const files = ['old_list_structure', 'repeated_no_annotation', 'repeated_primitive_no_list', 'incorrect_map_schema', 'nested_lists.snappy', 'nested_maps.snappy', 'nullable.impala', 'nonnullable.impala', 'null_list', 'list_columns', 'map_no_value'];
  test.each(files)('%s', (f) => {
    const { bytes: b, meta } = footer(`data/${f}.parquet`);
    const schema = buildSchemaTree(meta.schema);
    for (const rg of meta.row_groups) {
      const cols = schema.columns.map((c) => readChunk(b, rg.columns[c.index]!, c));
      const vec = assembleColumnar(schema, cols, { numRows: rg.num_rows });
      const out = shredColumnar(schema, vec);
      expectSame(schema, out, cols);
      // and a slice of the rows: the same as shredding those rows' records
      const rows = Number(rg.num_rows);
      if (rows > 1) expectSame(schema, shredColumnar(schema, vec, 1, rows - 1), shredColumnar(schema, assembleColumnar(schema, cols, { numRows: rg.num_rows }), 1, rows - 1));
    }
  });
});

/** `got` has `want`'s levels (def omitted exactly when all at the max, rep when maxRep is 0) and values. */
function expectSame(schema: SchemaTree, got: ShreddedLeaf[], want: readonly (ColumnData & { numLevels: number })[]): void {
  expect(got.length).toBe(want.length);
  for (const c of schema.columns) {
    const g1 = got[c.index]!;
    const w = want[c.index]!;
    const n = w.numLevels;
    const where = `column ${c.pathString}`;
    expect(g1.numLevels, where).toBe(n);
    const wantDef = w.def ? Array.from(w.def).slice(0, n) : new Array<number>(n).fill(c.maxDef);
    if (g1.def === undefined) expect(wantDef.every((d) => d === c.maxDef), where).toBe(true);
    else {
      expect(g1.def.length, where).toBe(n);
      expect(Array.from(g1.def), where).toEqual(wantDef);
      expect(wantDef.some((d) => d !== c.maxDef), `${where}: def given although all at the max`).toBe(true);
    }
    if (c.maxRep === 0) expect(g1.rep, where).toBeUndefined();
    else {
      expect(g1.rep!.length, where).toBe(n);
      expect(Array.from(g1.rep!), where).toEqual(Array.from(w.rep!).slice(0, n));
    }
    expect(valuesOf(g1.values), where).toEqual(valuesOf(w.values));
  }
}

/**
 * The values as a reader decodes them: typed arrays by physical type (INT_16 as Int16Array, BOOLEAN as 0/1 bytes),
 * strings as bytes + offsets starting past 0; definition levels dropped when all at the max.
 */
function decoded(schema: SchemaTree, cols: readonly ShreddedColumn[], dropDefs: boolean): (ColumnData & { numLevels: number })[] {
  return cols.map((s, i) => {
    const c = schema.columns[i]!;
    const vals = s.values;
    let values: ArrayLike<unknown> | BinaryValues;
    switch (c.type) {
      case Type.BYTE_ARRAY: {
        const parts = vals.map((x) => bytes(x as string));
        const offsets = new Int32Array(parts.length + 1);
        const data = new Uint8Array(parts.reduce((a, q) => a + q.length, 0) + 2);
        offsets[0] = 2;
        parts.forEach((q, k) => { data.set(q, offsets[k]!); offsets[k + 1] = offsets[k]! + q.length; });
        values = { offsets, data };
        break;
      }
      case Type.INT32: values = c.node.element.converted_type === ConvertedType.INT_16 ? Int16Array.from(vals as number[]) : Int32Array.from(vals as number[]); break;
      case Type.INT64: values = BigInt64Array.from(vals as bigint[]); break;
      case Type.FLOAT: values = Float32Array.from(vals as number[]); break;
      case Type.DOUBLE: values = Float64Array.from(vals as number[]); break;
      case Type.BOOLEAN: values = Uint8Array.from(vals as boolean[], (x) => (x ? 1 : 0)); break;
      default: values = vals;
    }
    let allMax = true;
    for (let k = 0; k < s.numLevels; k++) if (s.def[k] !== c.maxDef) allMax = false;
    const def = dropDefs && allMax ? undefined : s.def;
    return { def, rep: s.rep, values, numLevels: s.numLevels };
  });
}

/** Leaf vectors by column index. */
function leafVectors(v: ColumnarVector, out: ColumnarVector[] = []): ColumnarVector[] {
  switch (v.kind) {
    case 'leaf': case 'binary': out[v.field.leaves[0]!] = v; break;
    case 'struct': v.children.forEach((c) => leafVectors(c, out)); break;
    case 'list': leafVectors(v.element, out); break;
    case 'map': leafVectors(v.keys, out); if (v.values) leafVectors(v.values, out); break;
  }
  return out;
}

describe('property: shredColumnar inverts assembleColumnar', () => {
  const arb = fc.tuple(caseArbitrary(ALL_LEAVES, 8), fc.constantFrom('plain', 'decoded', 'decoded-nodef'), fc.nat(), fc.nat());
  test('levels and values come back, whole and for a random row slice; arrays are shared where nothing is skipped', () => {
    fc.assert(
      fc.property(arb, ([{ top, records }, mode, x, y]) => {
        const schema = schemaOf(top);
        const prepare = (recs: readonly unknown[]): (ColumnData & { numLevels: number })[] => {
          const cols = shredRecords(schema, recs);
          return mode === 'plain' ? cols : decoded(schema, cols, mode === 'decoded-nodef');
        };
        const cols = prepare(records);
        const vec = assembleColumnar(schema, cols);
        const out = shredColumnar(schema, vec);
        expectSame(schema, out, cols);
        // the top-level vectors instead of the root struct
        expectSame(schema, shredColumnar(schema, vec.children), cols);

        // no per-value work where none is needed
        const leaves = leafVectors(vec);
        for (const c of schema.columns) {
          const lv = leaves[c.index]!;
          const got = out[c.index]!.values;
          if (lv.kind === 'binary') {
            expect((got as BinaryValues).data).toBe(lv.data); // null slots of assembled vectors are empty: a view
            if (lv.length === (got as BinaryValues).offsets.length - 1) expect((got as BinaryValues).offsets).toBe(lv.offsets);
          } else if (lv.kind === 'leaf' && lv.values.length === (got as ArrayLike<unknown>).length) {
            expect(got).toBe(lv.values);
          }
        }

        // a random slice of the rows: the same as shredding those records alone
        const a = records.length === 0 ? 0 : x % (records.length + 1);
        const b = a + (records.length === a ? 0 : y % (records.length - a + 1));
        expectSame(schema, shredColumnar(schema, vec, a, b), prepare(records.slice(a, b)));
      }),
      { numRuns: 400 },
    );
  });
  test('one ShredScratch over consecutive slices: each call gives the leaves of fresh arrays, in reused memory', () => {
    fc.assert(
      fc.property(arb, ([{ top, records }, mode, x]) => {
        const schema = schemaOf(top);
        const prepare = (recs: readonly unknown[]): (ColumnData & { numLevels: number })[] => {
          const cols = shredRecords(schema, recs);
          return mode === 'plain' ? cols : decoded(schema, cols, mode === 'decoded-nodef');
        };
        const vec = assembleColumnar(schema, prepare(records));
        const scratch = new ShredScratch();
        // slices as a writer cuts them, then the whole range again (larger: the scratch grows), then the first again
        const step = 1 + (x % Math.max(1, records.length));
        const ranges: [number, number][] = [];
        for (let a = 0; a < records.length; a += step) ranges.push([a, Math.min(records.length, a + step)]);
        ranges.push([0, records.length]);
        if (ranges.length > 1) ranges.push(ranges[0]!);
        for (const [a, b] of ranges) expectSame(schema, shredColumnar(schema, vec, a, b, scratch), prepare(records.slice(a, b)));
      }),
      { numRuns: 300 },
    );
  });
  test('ShredScratch: a second call reuses the first call\'s level memory (and overwrites those levels)', () => {
    const schema = buildSchemaTree(flatten('r', [p('x', 'optional', Type.INT32)]));
    const vec = assembleColumnar(schema, shredRecords(schema, [{ x: 1 }, { x: null }, { x: 3 }, { x: null }]));
    const scratch = new ShredScratch();
    const first = shredColumnar(schema, vec, 0, 4, scratch)[0]!;
    expect(Array.from(first.def!)).toEqual([1, 0, 1, 0]);
    expect(Array.from(first.values as Int32Array)).toEqual([1, 3]);
    const second = shredColumnar(schema, vec, 1, 3, scratch)[0]!;
    expect(second.def!.buffer).toBe(first.def!.buffer);
    expect((second.values as Int32Array).buffer).toBe((first.values as Int32Array).buffer);
    expect(Array.from(second.def!)).toEqual([0, 1]);
    expect(Array.from(second.values as Int32Array)).toEqual([3]);
    expect(Array.from(first.def!.subarray(0, 2))).toEqual([0, 1]);
    // without a scratch every call has its own arrays
    const a = shredColumnar(schema, vec, 0, 4)[0]!;
    const b = shredColumnar(schema, vec, 0, 4)[0]!;
    expect(a.def!.buffer).not.toBe(b.def!.buffer);
  });
});

describe('errors', () => {
  const err = (f: () => unknown): { code: string; message: string } => {
    try {
      f();
    } catch (e) {
      if (isParquetError(e)) return { code: e.code, message: e.message };
      throw e;
    }
    throw new Error('no error');
  };
  const flat = buildSchemaTree(flatten('r', [p('id', 'required', Type.INT32), p('x', 'optional', Type.DOUBLE)]));
  const sch = buildSchemaTree(flatten('r', [
    g('s', 'optional', [p('a', 'required', Type.INT32), g('l', 'optional', [g('list', 'repeated', [p('element', 'required', ...STR)])], ConvertedType.LIST)]),
    g('m', 'optional', [g('key_value', 'repeated', [p('key', 'required', Type.INT32), p('value', 'optional', Type.INT32)])], ConvertedType.MAP),
    g('k', 'optional', [g('key_value', 'repeated', [p('key', 'required', Type.INT32)])], ConvertedType.MAP),
  ]));
  const good = (): ColumnarVector[] => [
    structV(2, [leafV(Int32Array.from([1, 2])), listV([0, 1, 3], binV([0, 1, 2, 3], bytes('abc')))]),
    mapV([0, 1, 1], leafV([1]), leafV([5])),
    mapV([0, 0, 2], leafV([1, 2]), undefined),
  ];

  test('the good input shreds', () => {
    expect(shredColumnar(sch, good()).map((s) => s.numLevels)).toEqual([2, 3, 2, 2, 3]);
  });

  test.each<[string, () => unknown, string, RegExp]>([
    ['vector kind', () => shredColumnar(flat, [listV([0], leafV([])), leafV([])]), 'INVALID_VECTOR', /field 'id': expected a 'leaf' or 'binary' vector, got a 'list' vector/],
    ['not a vector', () => shredColumnar(flat, [42 as unknown as ColumnarVector, leafV([])]), 'INVALID_VECTOR', /field 'id': expected a vector, got number/],
    ['missing vector', () => shredColumnar(flat, [leafV([])] as ColumnarVector[]), 'INVALID_VECTOR', /1 top-level vectors for 2 top-level fields/],
    ['root not a struct', () => shredColumnar(flat, leafV([]) as unknown as StructVector), 'INVALID_VECTOR', /expected the root struct vector/],
    ['top-level lengths', () => shredColumnar(flat, [leafV([1, 2]), leafV([1])]), 'INVALID_VECTOR', /field 'x': top-level vector has 1 slots for 2 rows/],
    ['values shorter', () => shredColumnar(flat, [{ ...leafV([1]), length: 2 } as ColumnarVector, leafV([1, 2])]), 'INVALID_VECTOR', /field 'id': 1 leaf values for 2 slots/],
    ['values not an array', () => shredColumnar(flat, [{ ...leafV([1]), values: 5 } as unknown as ColumnarVector, leafV([1])]), 'INVALID_VECTOR', /field 'id': leaf values are number/],
    ['validity short', () => shredColumnar(flat, [leafV([1, 2]), leafV([1, 2], u8(1))]), 'INVALID_VECTOR', /field 'x': validity has 1 bytes for 2 slots/],
    ['validity type', () => shredColumnar(flat, [leafV([1]), leafV([1], [1] as unknown as Uint8Array)]), 'INVALID_VECTOR', /field 'x': validity is .*expected a Uint8Array/],
    ['null in a required leaf', () => shredColumnar(flat, [leafV([1, 2, 3], u8(1, 1, 0)), leafV([1, 2, 3])]), 'INVALID_RECORD', /field 'id': null in a required leaf, at row 2/],
    ['null row', () => shredColumnar(flat, structV(2, [leafV([1, 2]), leafV([1, 2])], u8(1, 0))), 'INVALID_RECORD', /row is null .*at row 1/],
    ['row range', () => shredColumnar(flat, [leafV([1]), leafV([1])], 0, 2), 'INVALID_ARGUMENT', /row range \[0, 2\) is not within the 1 rows/],
    ['row range order', () => shredColumnar(flat, [leafV([1]), leafV([1])], 1, 0), 'INVALID_ARGUMENT', /row range/],
    ['row range not integer', () => shredColumnar(flat, [leafV([1]), leafV([1])], 0.5), 'INVALID_ARGUMENT', /row range/],
    ['struct children count', () => shredColumnar(sch, [structV(2, [leafV([1, 2])]), ...good().slice(1)]), 'INVALID_VECTOR', /field 's': struct vector has 1 children for 2 fields/],
    ['struct child length', () => shredColumnar(sch, [structV(2, [leafV([1]), good()[0]!.kind === 'struct' ? (good()[0] as StructVector).children[1]! : leafV([])]), ...good().slice(1)]), 'INVALID_VECTOR', /field 's\.a': struct child has 1 slots, its struct has 2/],
    ['offsets decrease', () => shredColumnar(sch, [structV(2, [leafV([1, 2]), listV([0, 3, 1], binV([0, 1, 2, 3], bytes('abc')))]), ...good().slice(1)]), 'INVALID_VECTOR', /field 's\.l': list offsets decrease \(1 after 3\) at slot 1, at row 1/],
    ['offsets past the end', () => shredColumnar(sch, [structV(2, [leafV([1, 2]), listV([0, 1, 4], binV([0, 1, 2, 3], bytes('abc')))]), ...good().slice(1)]), 'INVALID_VECTOR', /field 's\.l': list offset 4 is past the end \(3\) at slot 1, at row 1/],
    ['negative offset', () => shredColumnar(sch, [structV(2, [leafV([1, 2]), listV([-1, 1, 3], binV([0, 1, 2, 3], bytes('abc')))]), ...good().slice(1)]), 'INVALID_VECTOR', /list offset -1 is negative at slot 0, at row 0/],
    ['too few offsets', () => shredColumnar(sch, [structV(2, [leafV([1, 2]), { ...listV([0, 1, 3], leafV([])), offsets: Int32Array.from([0, 1]) } as ColumnarVector]), ...good().slice(1)]), 'INVALID_VECTOR', /2 list offsets for 2 slots, expected 3/],
    ['binary bytes past the end', () => shredColumnar(sch, [structV(2, [leafV([1, 2]), listV([0, 1, 3], binV([0, 1, 2, 9], bytes('abc')))]), ...good().slice(1)]), 'INVALID_VECTOR', /field 's\.l\.list\.element': binary offset 9 is past the end \(3\) at slot 2, at row 1/],
    ['binary offsets decrease inside a list', () => shredColumnar(sch, [structV(2, [leafV([1, 2]), listV([0, 1, 3], binV([0, 2, 1, 3], bytes('abc')))]), ...good().slice(1)]), 'INVALID_VECTOR', /binary offsets decrease \(1 after 2\) at slot 1, at row 1/],
    ['null element of a required list element', () => shredColumnar(sch, [structV(2, [leafV([1, 2]), listV([0, 1, 3], binV([0, 1, 2, 3], bytes('abc'), u8(1, 1, 0)))]), ...good().slice(1)]), 'INVALID_RECORD', /field 's\.l\.list\.element': null in a required leaf, at row 1/],
    ['map values length', () => shredColumnar(sch, [good()[0]!, mapV([0, 1, 1], leafV([1]), leafV([5, 6])), good()[2]!]), 'INVALID_VECTOR', /field 'm\.key_value\.value': map has 2 values for 1 keys/],
    ['map values missing', () => shredColumnar(sch, [good()[0]!, mapV([0, 1, 1], leafV([1]), undefined), good()[2]!]), 'INVALID_VECTOR', /field 'm\.key_value\.value': expected a vector, got undefined/],
    ['key-only map with values', () => shredColumnar(sch, [good()[0]!, good()[1]!, mapV([0, 0, 2], leafV([1, 2]), leafV([1, 2]))]), 'INVALID_VECTOR', /field 'k': map vector has values but the map has no value field/],
    ['list element missing', () => shredColumnar(sch, [structV(2, [leafV([1, 2]), { ...listV([0, 0, 0], leafV([])), element: null } as unknown as ColumnarVector]), ...good().slice(1)]), 'INVALID_VECTOR', /field 's\.l\.list\.element': expected a vector, got null/],
    ['offsets not Int32Array', () => shredColumnar(sch, [good()[0]!, { ...mapV([0, 1, 1], leafV([1]), leafV([5])), offsets: [0, 1, 1] } as unknown as ColumnarVector, good()[2]!]), 'INVALID_VECTOR', /field 'm': map offsets are .*expected an Int32Array/],
  ])('%s', (_name, run, code, message) => {
    const e = err(run);
    expect(e.code).toBe(code);
    expect(e.message).toMatch(/^parquet-levels: /);
    expect(e.message).toMatch(message);
  });

  test('a null in a required field under a null parent is not an error (those slots are not read)', () => {
    const out = shredColumnar(sch, [
      structV(2, [leafV(Int32Array.from([1, 2]), u8(1, 0)), listV([0, 1, 1], binV([0, 1], bytes('a')))], u8(1, 0)),
      ...good().slice(1),
    ]);
    expect(levels(out[0]!)).toEqual({ def: [1, 0], rep: undefined, n: 2 });
    expect(out[0]!.values).toEqual(Int32Array.from([1]));
  });

  test('property: corrupted vectors throw only ParquetError (or shred)', () => {
    fc.assert(
      fc.property(caseArbitrary(ALL_LEAVES, 5), fc.nat(), fc.nat(), fc.integer({ min: -3, max: 3 }), fc.constantFrom('offset', 'validity', 'length', 'values', 'junk', 'children'), ({ top, records }, pick, at, delta, how) => {
        const schema = schemaOf(top);
        const vec = assembleColumnar(schema, decoded(schema, shredRecords(schema, records), false));
        // every vector, mutable copies
        const all: Record<string, unknown>[] = [];
        const copy = (v: ColumnarVector): ColumnarVector => {
          const c: Record<string, unknown> = { ...v };
          all.push(c);
          if (v.kind === 'struct') c.children = v.children.map(copy);
          if (v.kind === 'list') c.element = copy(v.element);
          if (v.kind === 'map') { c.keys = copy(v.keys); if (v.values) c.values = copy(v.values); }
          if ('offsets' in v) c.offsets = v.offsets.slice();
          if (v.validity) c.validity = v.validity.slice();
          return c as unknown as ColumnarVector;
        };
        const root = copy(vec);
        const v = all[pick % all.length]!;
        const o = v.offsets as Int32Array | undefined;
        if (how === 'offset' && o && o.length > 0) o[at % o.length] = o[at % o.length]! + delta;
        else if (how === 'validity') v.validity = new Uint8Array(v.length as number).map((_, i) => (i === at % Math.max(1, v.length as number) ? 0 : 1));
        else if (how === 'length') v.length = (v.length as number) + delta;
        else if (how === 'values' && Array.isArray(v.values)) v.values = (v.values as unknown[]).slice(1);
        else if (how === 'junk') v.kind = ['leaf', 'binary', 'struct', 'list', 'map', 'other'][at % 6];
        else if (how === 'children' && Array.isArray(v.children)) v.children = (v.children as unknown[]).slice(1);
        try {
          shredColumnar(schema, root as unknown as StructVector, 0, Math.max(0, records.length - (at % 2)));
        } catch (e) {
          if (!isParquetError(e)) throw e;
        }
      }),
      { numRuns: 500 },
    );
  });
});
