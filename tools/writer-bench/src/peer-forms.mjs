// The benchmark tables for parquet-wasm (an apache-arrow Table, non-nullable fields where the column is required,
// → IPC stream) and DuckDB (a table loaded through the appender in 2048-row data chunks), derived from the plain
// columns of data.mjs. Building them is timed apart from the writers.
import {
  Bool,
  Field,
  Float64,
  Int32,
  Int64,
  List,
  RecordBatch,
  Schema,
  Struct,
  Table,
  TimestampMicrosecond,
  Utf8,
  makeData,
  tableToIPC,
} from 'apache-arrow';
import { DuckDBDataChunk, listValue, timestampTZValue } from '@duckdb/node-api';
import { utf8Column } from './forms.mjs';

// ---------------------------------------------------------------- Arrow (parquet-wasm)

/** @param {Uint8Array} bytes one byte per slot (0/1) @returns {Uint8Array} LSB-first bits */
function packBits(bytes) {
  const out = new Uint8Array((bytes.length + 7) >> 3);
  for (let i = 0; i < bytes.length; i++) if (bytes[i]) out[i >> 3] |= 1 << (i & 7);
  return out;
}

/** @param {Uint8Array} validity */
function nulls(validity) {
  let k = 0;
  for (let i = 0; i < validity.length; i++) if (validity[i] === 0) k++;
  return k;
}

/**
 * The mixed table as an apache-arrow Table, built from the plain columns (UTF-8 encoding of the strings included:
 * this is the whole "JS arrays → Arrow" step, timed apart from parquet-wasm's write).
 * @param {ReturnType<typeof import('./data.mjs').mixedColumns>} m
 */
export function mixedArrowTable(m) {
  const n = m.n;
  const low = utf8Column(m.lowCard);
  const high = utf8Column(m.highCard);
  const tags = utf8Column(m.tagValues);
  const elementField = new Field('element', new Utf8(), false);
  const fields = [
    new Field('id', new Int64(), false),
    new Field('ts', new TimestampMicrosecond('UTC'), false),
    new Field('i32', new Int32(), false),
    new Field('f64', new Float64(), false),
    new Field('low_card', new Utf8(), false),
    new Field('high_card', new Utf8(), false),
    new Field('flag', new Bool(), false),
    new Field('nullable_i32', new Int32(), true),
    new Field('tags', new List(elementField), true),
  ];
  const nc = nulls(m.nullableValid);
  const children = [
    makeData({ type: fields[0].type, length: n, nullCount: 0, data: m.id }),
    makeData({ type: fields[1].type, length: n, nullCount: 0, data: m.ts }),
    makeData({ type: fields[2].type, length: n, nullCount: 0, data: m.i32 }),
    makeData({ type: fields[3].type, length: n, nullCount: 0, data: m.f64 }),
    makeData({ type: fields[4].type, length: n, nullCount: 0, valueOffsets: low.offsets, data: low.data }),
    makeData({ type: fields[5].type, length: n, nullCount: 0, valueOffsets: high.offsets, data: high.data }),
    makeData({ type: fields[6].type, length: n, nullCount: 0, data: packBits(m.flag) }),
    makeData({ type: fields[7].type, length: n, nullCount: nc, nullBitmap: packBits(m.nullableValid), data: m.nullableI32 }),
    makeData({
      type: fields[8].type,
      length: n,
      nullCount: 0,
      valueOffsets: m.tagOffsets,
      child: makeData({ type: elementField.type, length: m.tagValues.length, nullCount: 0, valueOffsets: tags.offsets, data: tags.data }),
    }),
  ];
  return arrowTable(fields, children, n);
}

/**
 * The numeric table as an apache-arrow Table (zero-copy over the typed arrays).
 * @param {ReturnType<typeof import('./data.mjs').numericColumns>} t
 */
export function numericArrowTable(t) {
  const fields = [
    new Field('id', new Int64(), false),
    new Field('a', new Int32(), false),
    new Field('b', new Int64(), false),
    new Field('c', new Float64(), false),
    new Field('d', new Float64(), false),
  ];
  const cols = [t.id, t.a, t.b, t.c, t.d];
  return arrowTable(
    fields,
    fields.map((f, i) => makeData({ type: f.type, length: t.n, nullCount: 0, data: cols[i] })),
    t.n,
  );
}

function arrowTable(fields, children, n) {
  const schema = new Schema(fields);
  const root = makeData({ type: new Struct(fields), length: n, nullCount: 0, children });
  return new Table([new RecordBatch(schema, root)]);
}

/**
 * An Arrow table as an IPC stream (what parquet-wasm's `Table.fromIPCStream` reads).
 * @param {Table} table
 */
export function arrowIpc(table) {
  return tableToIPC(table, 'stream');
}

// ---------------------------------------------------------------- DuckDB

/** DuckDB DDL of the two tables (NOT NULL where the column is required). */
export const MIXED_DDL = `CREATE OR REPLACE TABLE mixed (id BIGINT NOT NULL, ts TIMESTAMPTZ NOT NULL, i32 INTEGER NOT NULL,
  f64 DOUBLE NOT NULL, low_card VARCHAR NOT NULL, high_card VARCHAR NOT NULL, flag BOOLEAN NOT NULL,
  nullable_i32 INTEGER, tags VARCHAR[])`;
export const NUMERIC_DDL = `CREATE OR REPLACE TABLE numeric (id BIGINT NOT NULL, a INTEGER NOT NULL, b BIGINT NOT NULL,
  c DOUBLE NOT NULL, d DOUBLE NOT NULL)`;

const CHUNK = 2048;

/**
 * Loads a table into DuckDB through the appender, one 2048-row data chunk at a time.
 * @param {import('@duckdb/node-api').DuckDBConnection} conn
 * @param {string} table
 * @param {number} n rows
 * @param {((start: number, end: number) => unknown[])[]} columns per column: the DuckDB values of rows [start, end)
 */
async function appendChunks(conn, table, n, columns) {
  const appender = await conn.createAppender(table);
  const types = [];
  for (let c = 0; c < appender.columnCount; c++) types.push(appender.columnType(c));
  for (let start = 0; start < n; start += CHUNK) {
    const end = Math.min(n, start + CHUNK);
    const chunk = DuckDBDataChunk.create(types, end - start);
    for (let c = 0; c < columns.length; c++) chunk.setColumnValues(c, columns[c](start, end));
    appender.appendDataChunk(chunk);
  }
  appender.flushSync();
  appender.closeSync();
}

/**
 * Loads the mixed table into DuckDB (table `mixed`).
 * @param {import('@duckdb/node-api').DuckDBConnection} conn
 * @param {ReturnType<typeof import('./data.mjs').mixedColumns>} m
 */
export async function loadMixedIntoDuckDB(conn, m) {
  await conn.run(MIXED_DDL);
  const slice = (arr) => (s, e) => Array.prototype.slice.call(arr, s, e);
  await appendChunks(conn, 'mixed', m.n, [
    slice(m.id),
    (s, e) => {
      const out = new Array(e - s);
      for (let i = s; i < e; i++) out[i - s] = timestampTZValue(m.ts[i]);
      return out;
    },
    slice(m.i32),
    slice(m.f64),
    (s, e) => m.lowCard.slice(s, e),
    (s, e) => m.highCard.slice(s, e),
    (s, e) => {
      const out = new Array(e - s);
      for (let i = s; i < e; i++) out[i - s] = m.flag[i] === 1;
      return out;
    },
    (s, e) => {
      const out = new Array(e - s);
      for (let i = s; i < e; i++) out[i - s] = m.nullableValid[i] === 1 ? m.nullableI32[i] : null;
      return out;
    },
    (s, e) => {
      const out = new Array(e - s);
      for (let i = s; i < e; i++) out[i - s] = listValue(m.tagValues.slice(m.tagOffsets[i], m.tagOffsets[i + 1]));
      return out;
    },
  ]);
}

/**
 * Loads the numeric table into DuckDB (table `numeric`).
 * @param {import('@duckdb/node-api').DuckDBConnection} conn
 * @param {ReturnType<typeof import('./data.mjs').numericColumns>} t
 */
export async function loadNumericIntoDuckDB(conn, t) {
  await conn.run(NUMERIC_DDL);
  const slice = (arr) => (s, e) => Array.prototype.slice.call(arr, s, e);
  await appendChunks(conn, 'numeric', t.n, [slice(t.id), slice(t.a), slice(t.b), slice(t.c), slice(t.d)]);
}
