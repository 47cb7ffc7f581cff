// The benchmark tables in the form each writer takes, all derived from the plain columns of data.mjs:
//   - parquetry: a schema spec, row objects (the reader's row shape: int64 and timestamps as bigint) and columnar
//     vectors (the reader's `readRowGroupColumns` shapes: LeafVector of typed arrays, BinaryVector of UTF-8, ListVector);
//   - hyparquet-writer: `columnData` (typed arrays / JS arrays) plus an explicit schema, and the same row objects;
//   (parquet-wasm's Arrow tables and the DuckDB table: peer-forms.mjs, kept apart so that the peak-RSS script loads
//   neither apache-arrow nor DuckDB.)
// Preparing a form is never part of a writer's timed write, except where the benchmark says so (Arrow build,
// DuckDB load are timed apart).
import { buildSchemaTree } from '@parquetry/parquet-levels';
import { field, schemaElements } from '@parquetry/parquet-writer';

// ---------------------------------------------------------------- parquetry

/** The mixed table's parquetry schema spec. */
export const MIXED_SPEC = {
  id: field.int64({ required: true }),
  ts: field.timestamp('micros', { required: true }),
  i32: field.int32({ required: true }),
  f64: field.double({ required: true }),
  low_card: field.string({ required: true }),
  high_card: field.string({ required: true }),
  flag: field.boolean({ required: true }),
  nullable_i32: field.int32(),
  tags: field.list(field.string({ required: true })),
};

/** The numeric table's parquetry schema spec. */
export const NUMERIC_SPEC = {
  id: field.int64({ required: true }),
  a: field.int32({ required: true }),
  b: field.int64({ required: true }),
  c: field.double({ required: true }),
  d: field.double({ required: true }),
};

/**
 * Row objects of the mixed table, in the reader's row shape.
 * @param {ReturnType<typeof import('./data.mjs').mixedColumns>} m
 */
export function mixedRows(m) {
  const rows = new Array(m.n);
  for (let i = 0; i < m.n; i++) {
    rows[i] = {
      id: m.id[i],
      ts: m.ts[i],
      i32: m.i32[i],
      f64: m.f64[i],
      low_card: m.lowCard[i],
      high_card: m.highCard[i],
      flag: m.flag[i] === 1,
      nullable_i32: m.nullableValid[i] === 1 ? m.nullableI32[i] : null,
      tags: m.tagValues.slice(m.tagOffsets[i], m.tagOffsets[i + 1]),
    };
  }
  return rows;
}

/**
 * UTF-8 offsets and bytes of strings (Arrow's Utf8 layout), with an ASCII fast path.
 * @param {readonly string[]} strings
 * @returns {{ offsets: Int32Array, data: Uint8Array }}
 */
export function utf8Column(strings) {
  const offsets = new Int32Array(strings.length + 1);
  let cap = 0;
  for (let i = 0; i < strings.length; i++) cap += strings[i].length * 3;
  const data = new Uint8Array(cap);
  const enc = new TextEncoder();
  let at = 0;
  for (let i = 0; i < strings.length; i++) {
    const s = strings[i];
    let ascii = true;
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      if (c > 0x7f) {
        ascii = false;
        break;
      }
      data[at + k] = c;
    }
    if (ascii) at += s.length;
    else at += enc.encodeInto(s, data.subarray(at)).written;
    offsets[i + 1] = at;
  }
  return { offsets, data: data.subarray(0, at) };
}

/**
 * The mixed table as parquetry columnar vectors (one per top-level field, in schema order).
 * @param {ReturnType<typeof import('./data.mjs').mixedColumns>} m
 * @param {{ low: ReturnType<typeof utf8Column>, high: ReturnType<typeof utf8Column>, tags: ReturnType<typeof utf8Column> }} u utf8 columns
 */
export function mixedVectors(m, u) {
  const tree = buildSchemaTree(schemaElements(MIXED_SPEC));
  const f = tree.field.fields;
  const n = m.n;
  const leaf = (i, values, validity = null) => ({ kind: 'leaf', field: f[i], length: n, validity, values });
  const bin = (fld, col, length) => ({ kind: 'binary', field: fld, length, validity: null, offsets: col.offsets, data: col.data, utf8: true });
  const tagsField = f[8];
  return {
    id: leaf(0, m.id),
    ts: leaf(1, m.ts),
    i32: leaf(2, m.i32),
    f64: leaf(3, m.f64),
    low_card: bin(f[4], u.low, n),
    high_card: bin(f[5], u.high, n),
    flag: leaf(6, m.flag),
    nullable_i32: leaf(7, m.nullableI32, m.nullableValid),
    tags: { kind: 'list', field: tagsField, length: n, validity: null, offsets: m.tagOffsets, element: bin(tagsField.element, u.tags, m.tagValues.length) },
  };
}

/**
 * The numeric table as parquetry columnar vectors.
 * @param {ReturnType<typeof import('./data.mjs').numericColumns>} t
 */
export function numericVectors(t) {
  const tree = buildSchemaTree(schemaElements(NUMERIC_SPEC));
  const f = tree.field.fields;
  const leaf = (i, values) => ({ kind: 'leaf', field: f[i], length: t.n, validity: null, values });
  return { id: leaf(0, t.id), a: leaf(1, t.a), b: leaf(2, t.b), c: leaf(3, t.c), d: leaf(4, t.d) };
}

// ---------------------------------------------------------------- hyparquet-writer

/** hyparquet-writer's schema of the mixed table (the same physical and logical types as parquetry's). */
export const MIXED_HYP_SCHEMA = [
  { name: 'root', num_children: 9 },
  { name: 'id', type: 'INT64', repetition_type: 'REQUIRED' },
  { name: 'ts', type: 'INT64', repetition_type: 'REQUIRED', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } },
  { name: 'i32', type: 'INT32', repetition_type: 'REQUIRED' },
  { name: 'f64', type: 'DOUBLE', repetition_type: 'REQUIRED' },
  { name: 'low_card', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  { name: 'high_card', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  { name: 'flag', type: 'BOOLEAN', repetition_type: 'REQUIRED' },
  { name: 'nullable_i32', type: 'INT32', repetition_type: 'OPTIONAL' },
  { name: 'tags', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
];

/** hyparquet-writer's schema of the numeric table. */
export const NUMERIC_HYP_SCHEMA = [
  { name: 'root', num_children: 5 },
  { name: 'id', type: 'INT64', repetition_type: 'REQUIRED' },
  { name: 'a', type: 'INT32', repetition_type: 'REQUIRED' },
  { name: 'b', type: 'INT64', repetition_type: 'REQUIRED' },
  { name: 'c', type: 'DOUBLE', repetition_type: 'REQUIRED' },
  { name: 'd', type: 'DOUBLE', repetition_type: 'REQUIRED' },
];

/**
 * hyparquet-writer `columnData` of the mixed table (typed arrays where it takes them, JS arrays otherwise).
 * @param {ReturnType<typeof import('./data.mjs').mixedColumns>} m
 */
export function mixedHypColumns(m) {
  const flag = new Array(m.n);
  const nullable = new Array(m.n);
  const tags = new Array(m.n);
  for (let i = 0; i < m.n; i++) {
    flag[i] = m.flag[i] === 1;
    nullable[i] = m.nullableValid[i] === 1 ? m.nullableI32[i] : null;
    tags[i] = m.tagValues.slice(m.tagOffsets[i], m.tagOffsets[i + 1]);
  }
  return [
    { name: 'id', data: m.id },
    { name: 'ts', data: m.ts },
    { name: 'i32', data: m.i32 },
    { name: 'f64', data: m.f64 },
    { name: 'low_card', data: m.lowCard },
    { name: 'high_card', data: m.highCard },
    { name: 'flag', data: flag },
    { name: 'nullable_i32', data: nullable },
    { name: 'tags', data: tags },
  ];
}

/**
 * hyparquet-writer `columnData` of the numeric table.
 * @param {ReturnType<typeof import('./data.mjs').numericColumns>} t
 */
export function numericHypColumns(t) {
  return [
    { name: 'id', data: t.id },
    { name: 'a', data: t.a },
    { name: 'b', data: t.b },
    { name: 'c', data: t.c },
    { name: 'd', data: t.d },
  ];
}

/** The column list `parquetWriteRows` wants (names in schema order). */
export const MIXED_HYP_ROW_COLUMNS = MIXED_HYP_SCHEMA.slice(1, 10).map((e) => ({ name: e.name }));

