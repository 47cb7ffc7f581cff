// Assembly of 1,000,000-row nested columns from decoded levels + values, side by side with hyparquet's
// own assembly (assembleLists per column, then assembleNested for the top-level group), same levels and
// values. hyparquet gets its native inputs (number[] levels, as its level decoder returns); parquetry
// gets Int32Array levels (what its level decoder returns). parquetry validates the levels first (default).
import { bench, describe } from 'vitest';
import { assembleLists, assembleNested } from 'hyparquet/src/assemble.js';
import { getSchemaPath } from 'hyparquet/src/schema.js';
import { FieldRepetitionType, Type, ConvertedType } from '@parquetry/thrift-compact';
import type { SchemaElement } from '@parquetry/thrift-compact';
import { assembleColumnar, assembleRecords, buildSchemaTree } from '../src/index.js';

const ROWS = 1_000_000;
const OPT = FieldRepetitionType.OPTIONAL;
const REP = FieldRepetitionType.REPEATED;

let seed = 42;
const rnd = (): number => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return seed / 4294967296;
};

/** Levels for rows of an optional list of optional elements whose list is present at `listDef`. */
function genLevels(listDef: number): { def: Int32Array; rep: Int32Array; present: number } {
  const def: number[] = [];
  const rep: number[] = [];
  let present = 0;
  for (let i = 0; i < ROWS; i++) {
    const u = rnd();
    if (u < 0.05) { def.push(listDef - 1); rep.push(0); continue; } // null list (or null parent)
    const n = Math.floor(rnd() * 7); // 0..6 elements
    if (n === 0) { def.push(listDef); rep.push(0); continue; }
    for (let j = 0; j < n; j++) {
      const nul = rnd() < 0.1;
      def.push(nul ? listDef + 1 : listDef + 2);
      rep.push(j === 0 ? 0 : 1);
      if (!nul) present++;
    }
  }
  return { def: Int32Array.from(def), rep: Int32Array.from(rep), present };
}

// --- list<int32>: optional group a (LIST) { repeated group list { optional int32 element } }
const listSchema: SchemaElement[] = [
  { name: 'root', num_children: 1 },
  { name: 'a', repetition_type: OPT, num_children: 1, converted_type: ConvertedType.LIST },
  { name: 'list', repetition_type: REP, num_children: 1 },
  { name: 'element', repetition_type: OPT, type: Type.INT32 },
];
const L = genLevels(1);
const listValues = new Int32Array(L.present).map((_, i) => i * 7);
const listTree = buildSchemaTree(listSchema);

// --- struct<list<string>>: optional group s { optional group l (LIST) { repeated group list { optional binary element (UTF8) } } }
const structSchema: SchemaElement[] = [
  { name: 'root', num_children: 1 },
  { name: 's', repetition_type: OPT, num_children: 1 },
  { name: 'l', repetition_type: OPT, num_children: 1, converted_type: ConvertedType.LIST },
  { name: 'list', repetition_type: REP, num_children: 1 },
  { name: 'element', repetition_type: OPT, type: Type.BYTE_ARRAY, converted_type: ConvertedType.UTF8 },
];
const S = genLevels(2);
const pool = Array.from({ length: 1000 }, (_, i) => `str-${i}`);
const structValues = Array.from({ length: S.present }, (_, i) => pool[i % 1000]!);
const structTree = buildSchemaTree(structSchema);

// hyparquet's schema model: string enums, as its metadata parser produces.
const REPS = ['REQUIRED', 'OPTIONAL', 'REPEATED'] as const;
const hyp = (els: SchemaElement[]): unknown[] =>
  els.map((e) => ({
    name: e.name,
    num_children: e.num_children,
    repetition_type: e.repetition_type === undefined ? undefined : REPS[e.repetition_type],
    type: e.type === Type.INT32 ? 'INT32' : e.type === Type.BYTE_ARRAY ? 'BYTE_ARRAY' : undefined,
    converted_type: e.converted_type === ConvertedType.LIST ? 'LIST' : e.converted_type === ConvertedType.UTF8 ? 'UTF8' : undefined,
  }));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
function hyparquetAssemble(els: SchemaElement[], leafPath: string[], def: number[], rep: number[], values: ArrayLike<unknown>): unknown {
  const schema = hyp(els) as Any;
  const path = getSchemaPath(schema, leafPath);
  const data = assembleLists([], def, rep, values as Any, path);
  const top = getSchemaPath(schema, [leafPath[0]!])[1]!;
  const sub = new Map<string, Any>([[leafPath.join('.'), data]]);
  assembleNested(sub, top, {} as Any);
  return sub.get(leafPath[0]!);
}
const Ldef = Array.from(L.def), Lrep = Array.from(L.rep);
const Sdef = Array.from(S.def), Srep = Array.from(S.rep);

// Sanity: both produce the same rows (checked once, outside the timings).
{
  const h = hyparquetAssemble(listSchema, ['a', 'list', 'element'], Ldef, Lrep, listValues) as unknown[];
  const ours = assembleRecords(listTree, [{ def: L.def, rep: L.rep, values: listValues }]);
  for (const i of [0, 1, 2, 3, 500_000, ROWS - 1]) {
    if (JSON.stringify(h[i]) !== JSON.stringify(ours[i]!.a)) throw new Error(`list<int32> row ${i} differs: ${JSON.stringify(h[i])} vs ${JSON.stringify(ours[i]!.a)}`);
  }
  const hs = hyparquetAssemble(structSchema, ['s', 'l', 'list', 'element'], Sdef, Srep, structValues) as unknown[];
  const os = assembleRecords(structTree, [{ def: S.def, rep: S.rep, values: structValues }]);
  for (const i of [0, 1, 2, 3, 500_000, ROWS - 1]) {
    if (JSON.stringify(hs[i]) !== JSON.stringify(os[i]!.s)) throw new Error(`struct<list<string>> row ${i} differs: ${JSON.stringify(hs[i])} vs ${JSON.stringify(os[i]!.s)}`);
  }
}

const opts = { time: 0, iterations: 3, warmupIterations: 1 };

describe(`list<int32>, ${ROWS} rows, ${L.def.length} levels`, () => {
  bench('hyparquet assembleLists + assembleNested', () => {
    hyparquetAssemble(listSchema, ['a', 'list', 'element'], Ldef, Lrep, listValues);
  }, opts);
  bench('parquetry assembleRecords (rows)', () => {
    assembleRecords(listTree, [{ def: L.def, rep: L.rep, values: listValues }]);
  }, opts);
  bench('parquetry assembleColumnar (offsets + validity)', () => {
    assembleColumnar(listTree, [{ def: L.def, rep: L.rep, values: listValues }]);
  }, opts);
});

describe(`struct<list<string>>, ${ROWS} rows, ${S.def.length} levels`, () => {
  bench('hyparquet assembleLists + assembleNested', () => {
    hyparquetAssemble(structSchema, ['s', 'l', 'list', 'element'], Sdef, Srep, structValues);
  }, opts);
  bench('parquetry assembleRecords (rows)', () => {
    assembleRecords(structTree, [{ def: S.def, rep: S.rep, values: structValues }]);
  }, opts);
  bench('parquetry assembleColumnar (offsets + validity)', () => {
    assembleColumnar(structTree, [{ def: S.def, rep: S.rep, values: structValues }]);
  }, opts);
});
