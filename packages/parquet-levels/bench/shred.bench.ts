// Shredding of 1,000,000 rows: records → levels + values (shredRecords) and Arrow-shaped vectors → levels + values
// (shredColumnar), on a flat mixed table (int64 bigint id, double, string, boolean, a 30%-null double, a Date and an
// optional list<string> of 0–5 items) and on an optional struct<list<string>>.
import { bench, describe } from 'vitest';
import { ConvertedType, FieldRepetitionType, Type } from '@parquetry/thrift-compact';
import type { SchemaElement } from '@parquetry/thrift-compact';
import { assembleColumnar, buildSchemaTree, shredColumnar, shredRecords } from '../src/index.js';
import type { BinaryValues, ColumnData, SchemaTree } from '../src/index.js';
import { shredRecordsGeneric } from '../src/shred.js';

const ROWS = 1_000_000;
const REQ = FieldRepetitionType.REQUIRED;
const OPT = FieldRepetitionType.OPTIONAL;
const REP = FieldRepetitionType.REPEATED;

let seed = 7;
const rnd = (): number => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return seed / 4294967296;
};
const pool = Array.from({ length: 1000 }, (_, i) => `str-${i}`);
const strings = (): (string | null)[] | null => {
  if (rnd() < 0.05) return null;
  const n = Math.floor(rnd() * 6);
  const out: (string | null)[] = [];
  for (let j = 0; j < n; j++) out.push(rnd() < 0.1 ? null : pool[Math.floor(rnd() * 1000)]!);
  return out;
};

const flatSchema = buildSchemaTree([
  { name: 'root', num_children: 7 },
  { name: 'id', repetition_type: REQ, type: Type.INT64 },
  { name: 'x', repetition_type: REQ, type: Type.DOUBLE },
  { name: 's', repetition_type: REQ, type: Type.BYTE_ARRAY, converted_type: ConvertedType.UTF8 },
  { name: 'b', repetition_type: REQ, type: Type.BOOLEAN },
  { name: 'n', repetition_type: OPT, type: Type.DOUBLE },
  { name: 't', repetition_type: REQ, type: Type.INT64, converted_type: ConvertedType.TIMESTAMP_MILLIS },
  { name: 'tags', repetition_type: OPT, num_children: 1, converted_type: ConvertedType.LIST },
  { name: 'list', repetition_type: REP, num_children: 1 },
  { name: 'element', repetition_type: OPT, type: Type.BYTE_ARRAY, converted_type: ConvertedType.UTF8 },
] satisfies SchemaElement[]);
const flatRows = Array.from({ length: ROWS }, (_, i) => ({
  id: BigInt(i),
  x: rnd() * 1000,
  s: pool[i % 1000]!,
  b: rnd() < 0.5,
  n: rnd() < 0.3 ? null : rnd(),
  t: new Date(1_600_000_000_000 + i * 1000),
  tags: strings(),
}));

const structSchema = buildSchemaTree([
  { name: 'root', num_children: 1 },
  { name: 's', repetition_type: OPT, num_children: 1 },
  { name: 'l', repetition_type: OPT, num_children: 1, converted_type: ConvertedType.LIST },
  { name: 'list', repetition_type: REP, num_children: 1 },
  { name: 'element', repetition_type: OPT, type: Type.BYTE_ARRAY, converted_type: ConvertedType.UTF8 },
] satisfies SchemaElement[]);
const structRows = Array.from({ length: ROWS }, () => ({ s: rnd() < 0.05 ? null : { l: strings() } }));

/** The values as a reader decodes them: typed arrays for numbers, bytes + offsets for strings. */
function asDecoded(schema: SchemaTree, cols: ColumnData[]): ColumnData[] {
  const enc = new TextEncoder();
  return cols.map((c, i) => {
    const vals = c.values as unknown[];
    const d = schema.columns[i]!;
    let values: ArrayLike<unknown> | BinaryValues = vals;
    if (d.type === Type.BYTE_ARRAY) {
      const parts = vals.map((x) => enc.encode(x as string));
      const offsets = new Int32Array(parts.length + 1);
      const data = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
      parts.forEach((p, k) => { data.set(p, offsets[k]!); offsets[k + 1] = offsets[k]! + p.length; });
      values = { offsets, data };
    } else if (d.type === Type.DOUBLE) values = Float64Array.from(vals as number[]);
    else if (d.type === Type.INT64) values = BigInt64Array.from(vals, (x) => (x instanceof Date ? BigInt(x.getTime()) : (x as bigint)));
    return { ...c, values };
  });
}
const flatVectors = assembleColumnar(flatSchema, asDecoded(flatSchema, shredRecords(flatSchema, flatRows)));
const structVectors = assembleColumnar(structSchema, asDecoded(structSchema, shredRecords(structSchema, structRows)));

const opts = { time: 0, iterations: 5, warmupIterations: 2 };

describe(`flat mixed table, ${ROWS} rows`, () => {
  bench('shredRecords', () => {
    shredRecords(flatSchema, flatRows);
  }, opts);
  bench('shredRecords, omitTrivialLevels', () => {
    shredRecords(flatSchema, flatRows, { omitTrivialLevels: true });
  }, opts);
  bench('generic recursive walk (the shredRecords before)', () => {
    shredRecordsGeneric(flatSchema, flatRows);
  }, opts);
  bench('shredColumnar (decoded vectors)', () => {
    shredColumnar(flatSchema, flatVectors);
  }, opts);
});

describe(`struct<list<string>>, ${ROWS} rows`, () => {
  bench('shredRecords', () => {
    shredRecords(structSchema, structRows);
  }, opts);
  bench('generic recursive walk (the shredRecords before)', () => {
    shredRecordsGeneric(structSchema, structRows);
  }, opts);
  bench('shredColumnar (decoded vectors)', () => {
    shredColumnar(structSchema, structVectors);
  }, opts);
});
