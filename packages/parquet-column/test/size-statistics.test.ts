/**
 * SizeStatistics: level histograms counted by hand from the spec's nesting rules (the hand example's levels also
 * checked against parquet-levels' shredder), and, over random nested records, the facts the histograms must agree
 * with (def[maxDef] = non-null values, def[0] = null lists, rep[0] = rows, …, unencoded bytes = UTF-8 length of the
 * strings), across random page splits and merges.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { buildSchemaTree, shredRecords } from '@parquetry/parquet-levels';
import { ConvertedType, FieldRepetitionType, Type, type SchemaElement } from '@parquetry/thrift-compact';
import { SizeStatisticsBuilder } from '../src/size-statistics.js';
import { typedError } from './helpers.js';

const { OPTIONAL, REPEATED, REQUIRED } = FieldRepetitionType;
// optional group xs (LIST) { repeated group list { optional binary element (STRING) } }: maxDef 3, maxRep 1
const listSchema: SchemaElement[] = [
  { name: 'root', num_children: 1 },
  { name: 'xs', repetition_type: OPTIONAL, num_children: 1, converted_type: ConvertedType.LIST, logicalType: { LIST: {} } },
  { name: 'list', repetition_type: REPEATED, num_children: 1 },
  { name: 'element', repetition_type: OPTIONAL, type: Type.BYTE_ARRAY, logicalType: { STRING: {} }, converted_type: ConvertedType.UTF8 },
];
const listTree = buildSchemaTree(listSchema);
const listColumn = listTree.columns[0]!;
const enc = new TextEncoder();

describe('SizeStatisticsBuilder', () => {
  test('hand example: [["ab", null], null, [], ["c"]] in a nullable list of nullable strings', () => {
    expect([listColumn.maxDef, listColumn.maxRep]).toEqual([3, 1]);
    // levels (rep, def): ("ab": 0,3) (null: 1,2) | (null list: 0,0) | (empty: 0,1) | ("c": 0,3)
    const def = Int32Array.of(3, 2, 0, 1, 3);
    const rep = Int32Array.of(0, 1, 0, 0, 0);
    const [shredded] = shredRecords(listTree, [{ xs: ['ab', null] }, { xs: null }, { xs: [] }, { xs: ['c'] }]);
    expect(shredded!.def.subarray(0, shredded!.numLevels)).toEqual(def);
    expect(shredded!.rep.subarray(0, shredded!.numLevels)).toEqual(rep);
    const b = new SizeStatisticsBuilder(listColumn);
    b.addLevels(def, rep, 0, 5);
    b.addByteArrayBytes(3);
    expect(b.toThrift()).toEqual({ unencoded_byte_array_data_bytes: 3, repetition_level_histogram: [4, 1], definition_level_histogram: [1, 1, 1, 2] });
  });
  test('histograms only for levels the column has; byte count only for BYTE_ARRAY', () => {
    const tree = buildSchemaTree([
      { name: 'root', num_children: 3 },
      { name: 'req', repetition_type: REQUIRED, type: Type.INT32 },
      { name: 'opt', repetition_type: OPTIONAL, type: Type.BYTE_ARRAY },
      { name: 'rep', repetition_type: REPEATED, type: Type.DOUBLE },
    ]);
    const [req, opt, rep] = tree.columns as [never, never, never];
    const a = new SizeStatisticsBuilder(req);
    a.addLevels(undefined, undefined, 0, 10);
    expect(a.toThrift()).toEqual({});
    const b = new SizeStatisticsBuilder(opt);
    b.addLevels(Uint8Array.of(1, 0, 1), undefined, 0, 3);
    b.addLevels(undefined, undefined, 0, 2); // no nulls in this page: all at maxDef
    b.addByteArrayBytes(0);
    expect(b.toThrift()).toEqual({ unencoded_byte_array_data_bytes: 0, definition_level_histogram: [1, 4] });
    const c = new SizeStatisticsBuilder(rep); // repeated primitive: maxDef 1, maxRep 1
    c.addLevels([1, 1, 0, 1], [0, 1, 0, 0], 1, 4);
    expect(c.toThrift()).toEqual({ repetition_level_histogram: [2, 1], definition_level_histogram: [1, 2] });
  });
  test('property: random records, levels per the nesting rules, split into pages, merged — histograms agree with the records', () => {
    const record = fc.record({ xs: fc.option(fc.array(fc.option(fc.string({ unit: 'binary', maxLength: 4 }), { nil: null }), { maxLength: 4 }), { nil: null }) });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 4 }), (records, cuts) => {
        // levels of `optional group xs (LIST) { repeated group list { optional binary element } }`, written out:
        // null list (0, 0); empty list (0, 1); element j: rep 0 for the first, 1 after; def 2 null, 3 present
        const def: number[] = [];
        const rep: number[] = [];
        const present: string[] = [];
        for (const r of records) {
          if (r.xs === null) def.push(0), rep.push(0);
          else if (r.xs.length === 0) def.push(1), rep.push(0);
          else
            r.xs.forEach((x, j) => {
              rep.push(j === 0 ? 0 : 1);
              def.push(x === null ? 2 : 3);
              if (x !== null) present.push(x);
            });
        }
        const n = def.length;
        const bounds = [0, ...cuts.map((c) => c % (n + 1)).sort((x, y) => x - y), n];
        const chunk = new SizeStatisticsBuilder(listColumn);
        const page = new SizeStatisticsBuilder(listColumn);
        let v = 0;
        for (let p = 0; p + 1 < bounds.length; p++) {
          page.reset();
          page.addLevels(Int16Array.from(def), rep, bounds[p]!, bounds[p + 1]!);
          let bytes = 0;
          for (let i = bounds[p]!; i < bounds[p + 1]!; i++) if (def[i] === 3) bytes += enc.encode(present[v++]).length;
          page.addByteArrayBytes(bytes);
          chunk.merge(page);
        }
        const t = chunk.toThrift();
        expect(t.definition_level_histogram![3]).toBe(present.length);
        expect(t.definition_level_histogram![2]).toBe(records.flatMap((r) => r.xs ?? []).filter((x) => x === null).length);
        expect(t.definition_level_histogram![1]).toBe(records.filter((r) => r.xs?.length === 0).length);
        expect(t.definition_level_histogram![0]).toBe(records.filter((r) => r.xs === null).length);
        expect(t.repetition_level_histogram![0]).toBe(records.length);
        expect(t.repetition_level_histogram![1]).toBe(records.reduce((a, r) => a + Math.max(0, (r.xs?.length ?? 0) - 1), 0));
        expect(t.unencoded_byte_array_data_bytes).toBe(present.reduce((a, x) => a + enc.encode(x).length, 0));
      }),
      { numRuns: 300 },
    );
  });
  test('bad levels, ranges and misuse are ParquetErrors', async () => {
    const b = new SizeStatisticsBuilder(listColumn);
    expect(await typedError(() => b.addLevels([0, 4], undefined, 0, 2))).toMatchObject({ code: 'INVALID_LEVELS', message: expect.stringMatching(/column 'xs.list.element': definition level 4 at value 1 is outside \[0, 3\]/) });
    expect((await typedError(() => b.addLevels([0], [-1], 0, 1))).code).toBe('INVALID_LEVELS');
    expect((await typedError(() => b.addLevels([0.5], undefined, 0, 1))).code).toBe('INVALID_LEVELS');
    // Int32Array levels (the writer's: the range is checked once per call): the first bad level is still the one named
    expect(await typedError(() => b.addLevels(Int32Array.of(3, 1, 4, 2), Int32Array.of(0, 1, 0, 1), 0, 4))).toMatchObject({ code: 'INVALID_LEVELS', message: expect.stringMatching(/definition level 4 at value 2 is outside \[0, 3\]/) });
    expect(await typedError(() => b.addLevels(Int32Array.of(3, 3), Int32Array.of(0, -1), 0, 2))).toMatchObject({ code: 'INVALID_LEVELS', message: expect.stringMatching(/repetition level -1 at value 1 is outside \[0, 1\]/) });
    expect((await typedError(() => b.addLevels([0], undefined, 0, 2))).code).toBe('OUT_OF_RANGE');
    expect((await typedError(() => b.addByteArrayBytes(-1))).code).toBe('INVALID_ARGUMENT');
    const tree = buildSchemaTree([{ name: 'root', num_children: 1 }, { name: 'x', repetition_type: REQUIRED, type: Type.INT64 }]);
    const x = new SizeStatisticsBuilder(tree.columns[0]!);
    expect((await typedError(() => x.addByteArrayBytes(1))).code).toBe('INVALID_ARGUMENT');
    expect((await typedError(() => x.addLevels(undefined, [1], 0, 1))).code).toBe('INVALID_LEVELS');
    expect((await typedError(() => x.merge(b))).code).toBe('INVALID_ARGUMENT');
  });
});
