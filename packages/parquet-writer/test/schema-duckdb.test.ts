/**
 * Peer check: for SQL types DuckDB writes (`COPY (SELECT …) TO 'x.parquet'`), the SchemaElements of the
 * equivalent field specs have the same physical types, repetitions, ConvertedTypes, DECIMAL scale/precision and
 * (resolved) logical types as what DuckDB's `parquet_schema()` reports and its footer holds.
 *
 * Two documented differences: DuckDB annotates plain INTEGER/BIGINT with INT_32/INT_64, which LogicalTypes.md says
 * are implied by INT32/INT64 (we write none, as parquet-java and Arrow do); and DuckDB stores every DECIMAL above
 * precision 18 in 16 bytes where we use the fewest bytes (as parquet-java and Arrow do).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { ConvertedType, FieldRepetitionType, Type, decodeThrift, readFileMetaData, type LogicalType, type SchemaElement } from '@parquetry/thrift-compact';
import { resolveLogicalType } from '@parquetry/parquet-levels';
import { field, schemaElements, type SchemaSpec } from '../src/schema.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquet-writer-schema-duckdb-'));
let conn: DuckDBConnection;
beforeAll(async () => {
  conn = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => {
  conn?.closeSync();
  fs.rmSync(dir, { recursive: true, force: true });
});

const nameOf = (o: Readonly<Record<string, number>>, v: number | undefined): string | null =>
  v === undefined ? null : Object.keys(o).find((k) => o[k] === v) ?? String(v);

interface Row {
  name: string; type: string | null; type_length: number | null; repetition_type: string | null; num_children: number | null;
  converted_type: string | null; scale: number | null; precision: number | null;
}

async function duckSchema(select: string): Promise<{ rows: Row[]; elements: SchemaElement[] }> {
  const file = path.join(dir, `t${Math.random().toString(36).slice(2)}.parquet`);
  await conn.run(`COPY (SELECT ${select}) TO '${file}' (FORMAT parquet)`);
  const r = await conn.runAndReadAll(`SELECT name, type, type_length, repetition_type, num_children, converted_type, scale, precision FROM parquet_schema('${file}')`);
  const rows = r.getRowObjectsJS().map((o) => {
    const n = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
    const s = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
    return {
      name: String(o.name), type: s(o.type), type_length: n(o.type_length), repetition_type: s(o.repetition_type), num_children: n(o.num_children),
      converted_type: s(o.converted_type), scale: n(o.scale), precision: n(o.precision),
    };
  });
  const bytes = new Uint8Array(fs.readFileSync(file));
  const len = new DataView(bytes.buffer, bytes.byteOffset).getInt32(bytes.length - 8, true);
  return { rows, elements: decodeThrift(readFileMetaData, bytes, bytes.length - 8 - len, bytes.length - 8).value.schema };
}

/** INTEGER(32/64, signed) on INT32/INT64 is implied by the physical type (LogicalTypes.md, "Signed Integers"). */
function normalisedLogical(e: SchemaElement): LogicalType | undefined {
  const lt = resolveLogicalType(e);
  const i = lt?.INTEGER;
  if (i?.isSigned && ((i.bitWidth === 32 && e.type === Type.INT32) || (i.bitWidth === 64 && e.type === Type.INT64))) return undefined;
  return lt;
}
const impliedConverted = (e: SchemaElement, c: string | null): string | null =>
  (c === 'INT_32' && e.type === Type.INT32) || (c === 'INT_64' && e.type === Type.INT64) ? null : c;

async function compare(select: string, spec: SchemaSpec): Promise<void> {
  const ours = schemaElements(spec).slice(1);
  const { rows, elements } = await duckSchema(select);
  const duck = rows.slice(1);
  const theirs = elements.slice(1);
  expect(ours.map((e) => e.name)).toStrictEqual(duck.map((r) => r.name));
  ours.forEach((e, i) => {
    const d = duck[i]!;
    const where = `${select} → ${e.name} (element ${i + 1})`;
    expect(nameOf(Type, e.type), where).toBe(d.type);
    expect(nameOf(FieldRepetitionType, e.repetition_type), where).toBe(d.repetition_type);
    expect(e.num_children ?? null, where).toBe(d.num_children);
    expect(nameOf(ConvertedType, e.converted_type), where).toBe(impliedConverted(e, d.converted_type));
    expect(e.scale ?? null, where).toBe(d.scale);
    expect(e.precision ?? null, where).toBe(d.precision);
    expect(normalisedLogical(e), where).toStrictEqual(normalisedLogical(theirs[i]!));
    if (e.logicalType?.DECIMAL !== undefined && e.type === Type.FIXED_LEN_BYTE_ARRAY) {
      expect(d.type_length, where).toBe(16); // DuckDB: always 16 bytes; ours: the fewest, never more than 16 up to 38 digits
      expect(e.type_length!, where).toBeLessThanOrEqual(16);
    } else {
      expect(e.type_length ?? null, where).toBe(d.type_length);
    }
  });
}

describe('DuckDB writes the same schema for the same SQL types', () => {
  test('INT32, INT64, DOUBLE, VARCHAR, BOOLEAN, DATE, TIMESTAMP, TIMESTAMPTZ, UUID', () =>
    compare(`1::INTEGER i, 2::BIGINT l, 1.5::DOUBLE d, 'x'::VARCHAR s, true b, DATE '2020-01-01' dt, TIMESTAMP '2020-01-01 01:02:03' ts,
      TIMESTAMPTZ '2020-01-01 01:02:03+00' tz, uuid() u`, {
      i: field.int32(), l: field.int64(), d: field.double(), s: field.string(), b: field.boolean(), dt: field.date(),
      ts: field.timestamp('micros', { utc: false }), tz: field.timestamp('micros', { utc: true }), u: field.uuid(),
    }));

  test('DECIMAL at the physical size boundaries (4, 9, 10, 18, 19, 38)', () =>
    compare(`1::DECIMAL(4,1) a, 1::DECIMAL(9,2) b, 1::DECIMAL(10,0) c, 0.5::DECIMAL(18,18) d, 1::DECIMAL(19,3) e, 1::DECIMAL(38,10) f`, {
      a: field.decimal(4, 1), b: field.decimal(9, 2), c: field.decimal(10, 0), d: field.decimal(18, 18), e: field.decimal(19, 3), f: field.decimal(38, 10),
    }));

  test('other scalars: TINYINT, USMALLINT, UBIGINT, FLOAT, BLOB, TIME, TIMESTAMP_MS, TIMESTAMP_NS, INTERVAL, JSON', async () => {
    await conn.run('INSTALL json; LOAD json;').catch(() => undefined); // JSON is built into recent DuckDB
    await compare(`1::TINYINT a, 1::USMALLINT b, 1::UBIGINT c, 1::FLOAT d, 'x'::BLOB e, TIME '01:02:03' f, TIMESTAMP_MS '2020-01-01' g,
      TIMESTAMP_NS '2020-01-01' h, INTERVAL 1 DAY i, '{}'::JSON j`, {
      a: field.int(8, true), b: field.int(16, false), c: field.int(64, false), d: field.float(), e: field.binary(), f: field.time('micros'),
      g: field.timestamp('millis', { utc: false }), h: field.timestamp('nanos', { utc: false }), i: field.interval(), j: field.json(),
    });
  });

  test('LIST, MAP, STRUCT and their nesting', () =>
    compare(`[1, 2]::INTEGER[] l, MAP {'a': 1} m, {'x': 1, 'y': 'z'} st, [{'k': [MAP {1: 'v'}]}] n`, {
      l: field.list(field.int32()),
      m: field.map(field.string(), field.int32()),
      st: field.struct({ x: field.int32(), y: field.string() }),
      n: field.list(field.struct({ k: field.list(field.map(field.int32(), field.string())) })),
    }));
});
