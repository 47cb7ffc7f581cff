/**
 * Shared by the CLI tests: running `main`, DuckDB as the peer reader, and a comparison of the CLI's printed values
 * with DuckDB's (its JSON text forms) typed by DuckDB's column types, so that neither side's formatting decides
 * equality: integers as BigInt, timestamps as nanoseconds since the epoch, binary as bytes, decimals without trailing
 * zeros, maps as key/value lists.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance, DuckDBTypeId, type DuckDBConnection, type DuckDBType } from '@duckdb/node-api';
import { expect } from 'vitest';
import { main, type MainIO } from '../src/node.js';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const corpus = path.resolve(repo, '../shared/parquet-testing/data');
export const sample = path.join(repo, 'fixtures/sample/sample.parquet');

/** One run of the command line: exit code, output lines, error lines, progress text. */
export interface Run {
  code: number;
  out: string[];
  err: string[];
  progress: string[];
}

/**
 * Runs the command line with captured streams.
 * @param argv - the arguments.
 * @param io - extra hooks (terminal flags, a signal).
 */
export async function runWith(argv: readonly string[], io: MainIO = {}): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const progress: string[] = [];
  const code = await main(argv, (l) => out.push(l), { error: (l) => err.push(l), progress: (t) => progress.push(t), ...io });
  return { code, out, err, progress };
}

/** {@link runWith} without extra hooks. */
export const run = (...argv: string[]): Promise<Run> => runWith(argv);

let connection: Promise<DuckDBConnection> | undefined;

/** A shared in-memory DuckDB connection. */
export function duckdb(): Promise<DuckDBConnection> {
  connection ??= DuckDBInstance.create(':memory:').then((db) => db.connect());
  return connection;
}

/** Rows as DuckDB's JSON text forms, with the column types. */
export async function duckRows(sql: string): Promise<{ names: string[]; types: DuckDBType[]; rows: Record<string, unknown>[] }> {
  const r = await (await duckdb()).runAndReadAll(sql);
  return { names: r.columnNames(), types: r.columnTypes(), rows: r.getRowObjectsJson() as Record<string, unknown>[] };
}

/** SQL string literal of a path. */
export const lit = (s: string): string => `'${s.replaceAll("'", "''")}'`;

/** Nanoseconds since the epoch of `YYYY-MM-DD[T ]HH:MM:SS[.f…][Z|±HH[:MM]]` (a date alone is midnight). */
export function instant(text: string): bigint {
  const m = /^([+-]?\d{4,6})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?)?(Z|[+-]\d\d(?::?\d\d)?)?$/.exec(text);
  if (!m) throw new Error(`not a timestamp: ${text}`);
  const [, y, mo, d, h = '0', mi = '0', s = '0', f = '', z] = m;
  const ms = Date.UTC(0, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const base = new Date(ms);
  base.setUTCFullYear(Number(y));
  let ns = BigInt(base.getTime()) * 1000000n + BigInt(f.padEnd(9, '0'));
  if (z && z !== 'Z') {
    const zm = /^([+-])(\d\d):?(\d\d)?$/.exec(z)!;
    const off = (Number(zm[2]) * 3600 + Number(zm[3] ?? 0) * 60) * (zm[1] === '-' ? -1 : 1);
    ns -= BigInt(off) * 1000000000n;
  }
  return ns;
}

/** Nanoseconds since midnight of `HH:MM:SS[.f…]`. */
export function clock(text: string): bigint {
  const m = /^(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?$/.exec(text);
  if (!m) throw new Error(`not a time: ${text}`);
  return (BigInt(Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1000000000n) + BigInt((m[4] ?? '').padEnd(9, '0'));
}

/** The bytes of DuckDB's BLOB text (`\xHH` escapes for bytes outside printable ASCII). */
export function duckBlob(text: string): Buffer {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && text[i + 1] === 'x') {
      out.push(parseInt(text.slice(i + 2, i + 4), 16));
      i += 3;
    } else out.push(text.charCodeAt(i));
  }
  return Buffer.from(out);
}

function decimal(text: string): string {
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(String(text));
  if (!m) return `not a decimal: ${text}`;
  const int = (m[2] ?? '').replace(/^0+/, '') || '0';
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const zero = int === '0' && frac === '';
  return `${m[1] && !zero ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

function float(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  const n = typeof v === 'string' ? (/^-?inf/i.test(v) ? (v.startsWith('-') ? -Infinity : Infinity) : Number(v)) : Number(v);
  return Object.is(n, -0) ? '0' : String(n);
}

/** How the CLI printed binary values. */
export type BinaryForm = 'base64' | 'hex' | 'utf8';

/**
 * A value in a canonical text, given DuckDB's type, so that the CLI's value and DuckDB's compare equal exactly when
 * they are the same value.
 * @param v - a value (the CLI's JSON value, or DuckDB's JSON text form).
 * @param t - DuckDB's type of the column.
 * @param side - whose value it is (their text forms differ for binary, intervals, maps).
 * @param binary - how the CLI printed binary values.
 */
export function canon(v: unknown, t: DuckDBType, side: 'ours' | 'duck', binary: BinaryForm = 'base64'): string {
  if (v === null || v === undefined) return 'null';
  switch (t.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return String(v);
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.UHUGEINT:
      return BigInt(String(v)).toString();
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return float(v);
    case DuckDBTypeId.DECIMAL:
      return decimal(String(v));
    case DuckDBTypeId.DATE:
      return String(v);
    case DuckDBTypeId.TIME:
    case DuckDBTypeId.TIME_NS:
      return clock(String(v)).toString();
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
      // DuckDB's TIMESTAMP is microseconds (an INT96 or nanosecond value is cut to them)
      return (side === 'ours' ? instant(String(v)) / 1000n : instant(String(v)) / 1000n).toString();
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
      return instant(String(v)).toString();
    case DuckDBTypeId.BLOB: {
      if (side === 'duck') return duckBlob(String(v)).toString('hex');
      const s = String(v);
      return (binary === 'hex' ? Buffer.from(s, 'hex') : binary === 'utf8' ? Buffer.from(s, 'utf8') : Buffer.from(s, 'base64')).toString('hex');
    }
    case DuckDBTypeId.UUID:
    case DuckDBTypeId.VARCHAR:
    case DuckDBTypeId.ENUM:
      return String(v);
    case DuckDBTypeId.INTERVAL: {
      const o = v as { months: number; days: number; millis?: number; micros?: string };
      const micros = side === 'ours' ? BigInt(o.millis ?? 0) * 1000n : BigInt(o.micros ?? '0');
      return `${o.months}m ${o.days}d ${micros}us`;
    }
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY: {
      const et = (t as unknown as { valueType: DuckDBType }).valueType;
      return `[${(v as unknown[]).map((x) => canon(x, et, side, binary)).join(', ')}]`;
    }
    case DuckDBTypeId.STRUCT: {
      const st = t as unknown as { entryNames: readonly string[]; entryTypes: readonly DuckDBType[] };
      const o = v as Record<string, unknown>;
      return `{${st.entryNames.map((n, i) => `${n}: ${canon(o[n], st.entryTypes[i]!, side, binary)}`).join(', ')}}`;
    }
    case DuckDBTypeId.MAP: {
      const mt = t as unknown as { keyType: DuckDBType; valueType: DuckDBType };
      const entries = Array.isArray(v) ? (v as { key: unknown; value: unknown }[]) : Object.entries(v as object).map(([key, value]) => ({ key, value }));
      // entries sorted by key: an object's integer-like keys iterate in numeric order, not the file's
      const texts = entries.map((e) => [canon(e.key, mt.keyType, side, binary), canon(e.value, mt.valueType, side, binary)] as const);
      texts.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      return `map{${texts.map(([k, x]) => `${k} => ${x}`).join(', ')}}`;
    }
    default:
      return `${side}:${JSON.stringify(v)}`;
  }
}

/** A minimal RFC 4180 reader (quoted fields, doubled quotes, line breaks inside quotes): rows of fields, or null for an unquoted empty field. */
export function parseCsv(text: string): (string | null)[][] {
  const rows: (string | null)[][] = [];
  let row: (string | null)[] = [];
  let i = 0;
  while (i < text.length) {
    let field: string | null;
    if (text[i] === '"') {
      let s = '';
      i++;
      for (;;) {
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            s += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        s += text[i];
        i++;
      }
      field = s;
    } else {
      let j = i;
      while (j < text.length && text[j] !== ',' && text[j] !== '\n' && text[j] !== '\r') j++;
      field = j === i ? null : text.slice(i, j);
      i = j;
    }
    row.push(field);
    if (text[i] === ',') i++;
    else {
      if (text[i] === '\r') i++;
      if (text[i] === '\n') i++;
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

/**
 * The ids DuckDB selects from a file with a WHERE clause, in file order (its scan is parallel: without the ORDER BY,
 * rows of later row groups came first in a CI run).
 */
export async function duckIds(file: string, where: string): Promise<number[]> {
  const r = await (await duckdb()).runAndReadAll(`SELECT id FROM read_parquet(${lit(file)}, file_row_number = true) WHERE ${where} ORDER BY file_row_number`);
  return r.getRows().map((row) => Number(row[0]));
}

/** The ids `cat --where` prints (ndjson) from a file, checking the command succeeds and `count --where` agrees. */
export async function ourIds(file: string, where: string): Promise<number[]> {
  const r = await run('cat', file, '--columns', 'id', '--where', where);
  expect(r.err, where).toEqual([]);
  expect(r.code, where).toBe(0);
  const ids = r.out.map((l) => (JSON.parse(l) as { id: number }).id);
  const c = await run('count', file, '--where', where);
  expect(c.out, `count --where ${where}`).toEqual([String(ids.length)]);
  return ids;
}
