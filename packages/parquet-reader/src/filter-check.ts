/**
 * Filter validation, before anything is read: a filter that cannot mean what it says is a `FILTER_INVALID` error
 * naming the column, its type and the value, never a read that silently returns no rows. Operators, shapes and
 * columns are checked, and every value is converted to the JavaScript type the column's values have under the read's
 * value mapping (LogicalTypes.md, https://github.com/apache/parquet-format/blob/master/LogicalTypes.md), accepting
 * only conversions that are exact:
 *
 * | column | accepted besides the column's own type |
 * | --- | --- |
 * | INT64, INTEGER(64) | a `number` that is a safe integer (a `bigint` when `int64: 'number'`, if exactly a double) |
 * | INT32, FLOAT, DOUBLE, FLOAT16 | a `bigint` that is exactly a double |
 * | TIMESTAMP (any unit), INT96 | a `Date`; an ISO-8601 string (`2024-01-02`, `2024-01-02T03:04:05.123456789`, with `Z` or `±HH:MM` on a UTC column only; a string without a zone is read in the column's own zone); a `number`/`bigint` count of the column's unit (`timestamps: 'date'`: only whole milliseconds) |
 * | DATE | a `Date` at UTC midnight; `YYYY-MM-DD`; a day number |
 * | TIME (any unit) | `HH:MM:SS.fff…`; a count of the column's unit |
 * | DECIMAL | decimal strings, `bigint`s, finite numbers (compared exactly) |
 * | UUID | a UUID string in any case, with or without dashes; 16 bytes |
 * | STRING, ENUM, JSON | valid UTF-8 bytes (a `string` under `strings: 'bytes'`) |
 * | other binary | a `string` (its UTF-8 bytes) |
 *
 * A fraction finer than the column's unit, a time zone on a local timestamp, a value out of range, a string on a
 * numeric column and the like are refused rather than rounded.
 * @module
 */
// bundle layout only (no value used): see optional.ts, `Chunk grouping`
import './file.js';
import { ParquetError, Type } from '@parquetry/thrift-compact';
import { daysFromCivil, type ValueOptions } from '@parquetry/parquet-column/read';
import type { ColumnDescriptor, Field, SchemaTree } from '@parquetry/parquet-levels';
import { columnKey, filterColumns, leafKey, type CompareOp, type Filter, type FilterColumn } from './filter.js';
// the message of a wrong option (read-options.ts): loaded with this part, only when an option is wrong
export { optionsError } from '@parquetry/thrift-compact/check-options';
import type { File, ReadOptions } from './file.js';

const COMPARE_OPS: readonly string[] = ['=', '!=', '<', '<=', '>', '>='];
const ALL_OPS: readonly string[] = [...COMPARE_OPS, 'in', 'is null', 'is not null'];
/** Deepest AND/OR/NOT nesting accepted (deeper, or a cycle, is refused rather than overflowing the stack). */
const MAX_DEPTH = 1000;

/** How a column's values look in JavaScript under the read's value mapping. */
type Kind =
  | { readonly k: 'boolean' }
  | { readonly k: 'number' }
  | { readonly k: 'bigint' }
  | { readonly k: 'decimal'; readonly asNumber: boolean }
  | { readonly k: 'timestamp'; readonly unit: Unit; readonly utc: boolean; readonly asDate: boolean; readonly int96: boolean }
  | { readonly k: 'date'; readonly asDate: boolean }
  | { readonly k: 'time'; readonly unit: Unit }
  | { readonly k: 'string'; readonly bytes: boolean }
  | { readonly k: 'bytes' }
  | { readonly k: 'uuid' }
  | { readonly k: 'interval' };

type Unit = 'ms' | 'us' | 'ns';
const NANOS: Record<Unit, bigint> = { ms: 1000000n, us: 1000n, ns: 1n };
const UNIT_NAME: Record<Unit, string> = { ms: 'milliseconds', us: 'microseconds', ns: 'nanoseconds' };

const unitOf = (u: { MILLIS?: object; MICROS?: object }): Unit => (u.MILLIS ? 'ms' : u.MICROS ? 'us' : 'ns');

function kindOf(col: ColumnDescriptor, o: ValueOptions): Kind {
  const lt = col.node.logicalType;
  if (lt?.DECIMAL) return { k: 'decimal', asNumber: o.decimals === 'number' };
  switch (col.type) {
    case Type.BOOLEAN:
      return { k: 'boolean' };
    case Type.INT32:
      if (lt?.DATE) return { k: 'date', asDate: o.dates === 'date' };
      if (lt?.TIME) return { k: 'time', unit: unitOf(lt.TIME.unit) };
      return { k: 'number' };
    case Type.INT64:
      if (lt?.TIMESTAMP) return { k: 'timestamp', unit: unitOf(lt.TIMESTAMP.unit), utc: lt.TIMESTAMP.isAdjustedToUTC, asDate: o.timestamps === 'date', int96: false };
      if (lt?.TIME) return { k: 'time', unit: unitOf(lt.TIME.unit) };
      return o.int64 === 'number' ? { k: 'number' } : { k: 'bigint' };
    case Type.INT96:
      // INT96 reads as a bigint of nanoseconds of any range (a day number and 64 bits of nanoseconds)
      return { k: 'timestamp', unit: 'ns', utc: false, asDate: o.timestamps === 'date', int96: true };
    case Type.FLOAT:
    case Type.DOUBLE:
      return { k: 'number' };
    case Type.BYTE_ARRAY:
      return lt?.STRING || lt?.ENUM || lt?.JSON ? { k: 'string', bytes: o.strings === 'bytes' } : { k: 'bytes' };
    case Type.FIXED_LEN_BYTE_ARRAY:
      if (lt?.UUID && col.typeLength === 16) return { k: 'uuid' };
      if (lt?.FLOAT16 && col.typeLength === 2) return { k: 'number' };
      if (col.node.element.converted_type === 21 /* INTERVAL */ && col.typeLength === 12) return { k: 'interval' };
      if (lt?.STRING || lt?.ENUM || lt?.JSON) return { k: 'string', bytes: false };
      return { k: 'bytes' };
    default:
      return { k: 'bytes' };
  }
}

const TYPE_NAMES: Record<number, string> = { 0: 'BOOLEAN', 1: 'INT32', 2: 'INT64', 3: 'INT96', 4: 'FLOAT', 5: 'DOUBLE', 6: 'BYTE_ARRAY', 7: 'FIXED_LEN_BYTE_ARRAY' };

/**
 * A column's type for messages: physical type and logical annotation, e.g. `INT64 TIMESTAMP(MICROS, UTC)`.
 * @param col - the leaf column.
 * @returns the description.
 */
export function describeColumnType(col: ColumnDescriptor): string {
  const lt = col.node.logicalType;
  let s = TYPE_NAMES[col.type] ?? `type ${col.type}`;
  if (col.type === Type.FIXED_LEN_BYTE_ARRAY) s += `(${col.typeLength ?? '?'})`;
  if (!lt) return col.node.element.converted_type === 21 ? `${s} INTERVAL` : s;
  if (lt.DECIMAL) return `${s} DECIMAL(${lt.DECIMAL.precision}, ${lt.DECIMAL.scale})`;
  if (lt.TIMESTAMP) return `${s} TIMESTAMP(${UNIT_NAME[unitOf(lt.TIMESTAMP.unit)]}, ${lt.TIMESTAMP.isAdjustedToUTC ? 'UTC' : 'local'})`;
  if (lt.TIME) return `${s} TIME(${UNIT_NAME[unitOf(lt.TIME.unit)]})`;
  if (lt.INTEGER) return `${s} INTEGER(${lt.INTEGER.bitWidth}, ${lt.INTEGER.isSigned ? 'signed' : 'unsigned'})`;
  const name = Object.keys(lt).find((k) => (lt as Record<string, unknown>)[k] !== undefined);
  return name ? `${s} ${name}` : s;
}

/**
 * A value as a message shows it: strings quoted, bigints with `n`, dates in ISO, byte arrays by length.
 * @param v - any value.
 * @returns its text.
 */
export function showValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 80 ? `${v.slice(0, 77)}...` : v);
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'an invalid Date' : `Date ${v.toISOString()}`;
  if (v instanceof Uint8Array) return `Uint8Array(${v.length})`;
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (v === null) return 'null';
  if (typeof v === 'object') return 'an object';
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : typeof v;
}

const EXPECTED: Record<Kind['k'], (k: Kind) => string> = {
  boolean: () => 'a boolean',
  number: () => 'a number (or a bigint that is exactly a double)',
  bigint: () => 'a bigint, or a number that is a safe integer',
  decimal: (k) => ((k as { asNumber: boolean }).asNumber ? 'a number, a decimal string or a bigint' : 'a decimal string (e.g. "12.34"), a bigint or a finite number'),
  timestamp: (k) => `a Date, an ISO-8601 string, or a ${(k as { asDate: boolean }).asDate ? 'whole-millisecond ' : ''}count of ${UNIT_NAME[(k as { unit: Unit }).unit]} as a bigint or safe integer`,
  date: () => 'a Date at UTC midnight, a "YYYY-MM-DD" string, or a day number (days since 1970-01-01)',
  time: (k) => `an "HH:MM:SS.fff" string or a count of ${UNIT_NAME[(k as { unit: Unit }).unit]} since midnight`,
  string: (k) => ((k as { bytes: boolean }).bytes ? 'a Uint8Array or a string' : 'a string (or UTF-8 bytes)'),
  bytes: () => 'a Uint8Array or a string (its UTF-8 bytes)',
  uuid: () => 'a UUID string (8-4-4-4-12 hex digits, any case) or 16 bytes',
  interval: () => 'nothing: INTERVAL values have no order; only is null / is not null apply',
};

/** A refused value: thrown by the converters, turned into the FILTER_INVALID message by the caller. */
class Refused {
  constructor(readonly why: string) {}
}

const refuse = (why = ''): never => {
  throw new Refused(why);
};

const isSafeBig = (b: bigint) => b >= -9007199254740991n && b <= 9007199254740991n;
/** A bigint as a number when the number is exactly it. */
function exactNumber(b: bigint): number {
  const n = Number(b);
  if (!Number.isFinite(n) || BigInt(n) !== b) refuse(`${b}n is not exactly a double`);
  return n;
}

/** A count (bigint or safe integer) as a bigint. */
function count(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) refuse(Number.isInteger(v) ? `${v} is not a safe integer: give it as a bigint` : `${v} is not an integer`);
    return BigInt(v);
  }
  return undefined;
}

const ISO_RE = /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** An ISO-8601 date or date-time: nanoseconds since the epoch of its wall-clock time, and its zone offset. */
function parseIso(s: string): { nanos: bigint; offsetMinutes: number | undefined; hasTime: boolean } {
  const m = ISO_RE.exec(s.trim());
  if (!m) refuse(`${JSON.stringify(s)} is not an ISO-8601 date or date-time (YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS.fff, optionally Z or ±HH:MM)`);
  const [, ys, mos, ds, hs, mis, ss, fs, zs] = m!;
  const y = Number(ys);
  const mo = Number(mos);
  const d = Number(ds);
  if (ys === '-000000') refuse(`year -000000 is not a valid ISO-8601 year`);
  const dim = mo === 2 ? ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31;
  if (mo < 1 || mo > 12 || d < 1 || d > dim) refuse(`${JSON.stringify(s)} is not a calendar date`);
  const h = Number(hs ?? 0);
  const mi = Number(mis ?? 0);
  const sec = Number(ss ?? 0);
  if (h > 23 || mi > 59 || sec > 59) refuse(`${JSON.stringify(s)} is not a valid time of day`);
  const frac = fs ?? '';
  if (frac.length > 9 && /[^0]/.test(frac.slice(9))) refuse(`${JSON.stringify(s)} is more precise than nanoseconds`);
  let offsetMinutes: number | undefined;
  if (zs !== undefined) {
    if (zs === 'Z' || zs === 'z') offsetMinutes = 0;
    else {
      const oh = Number(zs.slice(1, 3));
      const om = Number(zs.slice(-2).replace(/^[+-]/, '')) * (zs.length > 3 ? 1 : 0);
      if (oh > 23 || om > 59) refuse(`${JSON.stringify(s)} has an invalid zone offset`);
      offsetMinutes = (zs[0] === '-' ? -1 : 1) * (oh * 60 + om);
    }
  }
  const sod = h * 3600 + mi * 60 + sec;
  const nanos = (BigInt(daysFromCivil(y, mo, d)) * 86400n + BigInt(sod) - BigInt((offsetMinutes ?? 0) * 60)) * 1000000000n + BigInt(frac.slice(0, 9).padEnd(9, '0'));
  return { nanos, offsetMinutes, hasTime: hs !== undefined };
}

/** Nanoseconds as a count of `unit`, refused when not a whole count. */
function toUnit(nanos: bigint, unit: Unit, what: string): bigint {
  const per = NANOS[unit];
  if (nanos % per !== 0n) refuse(`${what} is more precise than the column's unit (${UNIT_NAME[unit]})`);
  return nanos / per;
}

const MAX_DATE_MS = 8.64e15;

function timestamp(v: unknown, k: Extract<Kind, { k: 'timestamp' }>): unknown {
  let c: bigint;
  if (v instanceof Date) {
    const ms = v.getTime();
    if (Number.isNaN(ms)) refuse('the Date is invalid');
    c = (BigInt(ms) * NANOS.ms) / NANOS[k.unit];
  } else if (typeof v === 'string') {
    const p = parseIso(v);
    if (p.offsetMinutes !== undefined && !k.utc) {
      refuse(`the column holds local date-times (isAdjustedToUTC = false): write ${JSON.stringify(v)} without a zone`);
    }
    c = toUnit(p.nanos, k.unit, JSON.stringify(v));
  } else {
    const n = count(v);
    if (n === undefined) return refuse();
    c = n;
  }
  if (!k.int96 && (c < -(1n << 63n) || c >= 1n << 63n)) refuse('it is outside the range of a 64-bit count');
  if (!k.asDate) return c;
  // timestamps: 'date' reads Dates of whole milliseconds
  const ms = toUnit(c * NANOS[k.unit], 'ms', showValue(v));
  if (ms > MAX_DATE_MS || ms < -MAX_DATE_MS) refuse('it is outside the range of a Date');
  return new Date(Number(ms));
}

function date(v: unknown, k: Extract<Kind, { k: 'date' }>): unknown {
  let days: number;
  if (v instanceof Date) {
    const ms = v.getTime();
    if (Number.isNaN(ms)) refuse('the Date is invalid');
    if (ms % 86400000 !== 0) refuse(`${v.toISOString()} is not at UTC midnight (make it with Date.UTC, or give "YYYY-MM-DD")`);
    days = ms / 86400000;
  } else if (typeof v === 'string') {
    const p = parseIso(v);
    const day = p.nanos / 86400000000000n;
    if (p.nanos % 86400000000000n !== 0n || (p.offsetMinutes ?? 0) !== 0) refuse(`${JSON.stringify(v)} is not a date (it has a time of day or a zone)`);
    days = Number(day);
  } else {
    const n = count(v);
    if (n === undefined) return refuse();
    if (!isSafeBig(n)) refuse();
    days = Number(n);
  }
  if (days < -(2 ** 31) || days >= 2 ** 31) refuse('it is outside the range of a 32-bit day number');
  if (!k.asDate) return days;
  if (Math.abs(days) > 1e8) refuse('it is outside the range of a Date');
  return new Date(days * 86400000);
}

const TIME_RE = /^(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?$/;

function time(v: unknown, k: Extract<Kind, { k: 'time' }>): unknown {
  let c: bigint;
  if (typeof v === 'string') {
    const m = TIME_RE.exec(v.trim());
    if (!m) refuse(`${JSON.stringify(v)} is not a time of day (HH:MM:SS.fff)`);
    const [, hs, ms, ss, fs] = m!;
    if (Number(hs) > 23 || Number(ms) > 59 || Number(ss ?? 0) > 59) refuse(`${JSON.stringify(v)} is not a valid time of day`);
    const frac = fs ?? '';
    if (frac.length > 9 && /[^0]/.test(frac.slice(9))) refuse(`${JSON.stringify(v)} is more precise than nanoseconds`);
    const nanos = BigInt(Number(hs) * 3600 + Number(ms) * 60 + Number(ss ?? 0)) * 1000000000n + BigInt(frac.slice(0, 9).padEnd(9, '0'));
    c = toUnit(nanos, k.unit, JSON.stringify(v));
  } else {
    const n = count(v);
    if (n === undefined) return refuse();
    c = n;
  }
  // TIME(MILLIS) is INT32, read as a number; the others are INT64, read as a bigint
  if (k.unit === 'ms') {
    if (c < -(2n ** 31n) || c >= 2n ** 31n) refuse('it is outside the range of a 32-bit count');
    return Number(c);
  }
  return c;
}

const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const DECIMAL_RE = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const strictUtf8 = /*#__PURE__*/ new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }); // a leading U+FEFF is part of the value
const utf8Encoder = /*#__PURE__*/ new TextEncoder();

/** The value in the column's JavaScript type, or a thrown {@link Refused}. */
function convert(v: unknown, k: Kind): unknown {
  switch (k.k) {
    case 'boolean':
      return typeof v === 'boolean' ? v : refuse();
    case 'number':
      if (typeof v === 'number') return v;
      return typeof v === 'bigint' ? exactNumber(v) : refuse();
    case 'bigint':
      return count(v) ?? refuse();
    case 'decimal':
      if (typeof v === 'string') {
        if (!DECIMAL_RE.test(v)) refuse(`${JSON.stringify(v)} is not a decimal number (digits with an optional sign and point)`);
        return k.asNumber ? Number(v) : v;
      }
      if (typeof v === 'bigint') return k.asNumber ? exactNumber(v) : v;
      if (typeof v === 'number') return Number.isFinite(v) ? v : refuse(`${v} is not a finite number`);
      return refuse();
    case 'timestamp':
      return timestamp(v, k);
    case 'date':
      return date(v, k);
    case 'time':
      return time(v, k);
    case 'string':
      if (k.bytes) {
        if (v instanceof Uint8Array) return v;
        return typeof v === 'string' ? utf8Encoder.encode(v) : refuse();
      }
      if (typeof v === 'string') return v;
      if (v instanceof Uint8Array) {
        try {
          return strictUtf8.decode(v);
        } catch {
          return refuse('the bytes are not valid UTF-8');
        }
      }
      return refuse();
    case 'bytes':
      if (v instanceof Uint8Array) return v;
      return typeof v === 'string' ? utf8Encoder.encode(v) : refuse();
    case 'uuid':
      if (typeof v === 'string') {
        if (!UUID_RE.test(v)) refuse(`${JSON.stringify(v)} is not a UUID`);
        const h = v.replaceAll('-', '').toLowerCase();
        return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
      }
      if (v instanceof Uint8Array && v.length === 16) {
        let h = '';
        for (const b of v) h += b.toString(16).padStart(2, '0');
        return convert(h, k);
      }
      return refuse();
    case 'interval':
      return refuse();
  }
}

/**
 * Checks the `columns` read option: an array of dotted paths or path arrays.
 * @param columns - the option as given.
 * @throws ParquetError `INVALID_ARGUMENT` for anything else (e.g. a string where an array is expected).
 */
export function checkColumnsOption(columns: unknown): void {
  if (columns === undefined) return;
  if (!Array.isArray(columns)) {
    const hint = typeof columns === 'string' ? ` (did you mean columns: [${JSON.stringify(columns)}]?)` : '';
    throw new ParquetError('INVALID_ARGUMENT', `parquet-reader: the option columns must be an array of column paths, got ${showValue(columns)}${hint}`);
  }
  columns.forEach((c: unknown, i) => {
    if (typeof c === 'string') return;
    if (Array.isArray(c) && c.every((p) => typeof p === 'string')) return;
    throw new ParquetError('INVALID_ARGUMENT', `parquet-reader: columns[${i}] must be a dotted path or an array of names, got ${showValue(c)}`);
  });
}

/**
 * A filter column as messages show it: a dotted path as it is, a path array as JSON (`["a.b"]`).
 * @param column - the column as the filter names it.
 */
export function showColumn(column: FilterColumn): string {
  return typeof column === 'string' ? column : JSON.stringify(column);
}

/**
 * The leaf a filter's column names: a dotted path string (the leaf whose names joined with dots are the string), or
 * a path array (the leaf at exactly that path).
 * @param schema - the schema.
 * @param byPath - its leaves by dotted path (two or more where names with dots make paths alike).
 * @param column - the filter's `column`, as given.
 * @param where - the filter's place, for messages.
 * @param fail - throws the `FILTER_INVALID` error for a message.
 * @returns the leaf.
 * @throws ParquetError `FILTER_INVALID` for a column that is not a string or an array of strings, an unknown column
 *   or a group; `AMBIGUOUS_COLUMN` for a dotted path naming two leaves (a field `a.b` beside field `b` of a struct `a`).
 */
function filterLeaf(schema: SchemaTree, byPath: ReadonlyMap<string, ColumnDescriptor[]>, column: unknown, where: string, fail: (where: string, what: string) => never): ColumnDescriptor {
  const cols = schema.columns;
  if (typeof column === 'string') {
    const found = byPath.get(column) ?? [];
    if (found.length > 1) {
      throw new ParquetError(
        'AMBIGUOUS_COLUMN',
        `parquet-reader: ${where}: '${column}' names ${found.length} columns: ${found.map((c) => `${JSON.stringify(c.path)} (leaf ${c.index})`).join(', ')}; give the filter's column as a path array to say which (${found.map((c) => `column: ${JSON.stringify(c.path)}`).join(' or ')})`,
      );
    }
    if (found[0]) return found[0];
  } else if (!Array.isArray(column) || column.length === 0 || !column.every((p) => typeof p === 'string')) {
    return fail(where, column === undefined ? `missing column (or and / or / not)` : `column must be a dotted path string or a non-empty array of names, got ${showValue(column)}`);
  } else {
    const path = column as readonly string[];
    const leaf = byPath.get(path.join('.'))?.find((c) => c.path.length === path.length && c.path.every((p, i) => p === path[i]));
    if (leaf) return leaf;
  }
  const path = typeof column === 'string' ? undefined : (column as readonly string[]);
  const name = showColumn(column as FilterColumn);
  const under = cols.filter((c) => (path ? c.path.length > path.length && path.every((p, i) => c.path[i] === p) : c.pathString.startsWith(`${column as string}.`)));
  const show = (c: ColumnDescriptor) => (path ? JSON.stringify(c.path) : c.pathString);
  if (under.length > 0) fail(where, `'${name}' is a group, not a leaf column; filter on one of its leaves: ${under.slice(0, 10).map(show).join(', ')}${under.length > 10 ? ', …' : ''}`);
  const all = cols.map((c) => c.pathString);
  return fail(where, `no leaf column '${name}' in the schema (leaf columns: ${all.slice(0, 20).join(', ')}${all.length > 20 ? `, … ${all.length} in all` : ''})`);
}

/**
 * Validates a filter against a schema and converts its values to the columns' JavaScript types under the read's
 * value mapping, exactly or not at all (see the module's table).
 * @param filter - the filter as the caller gave it.
 * @param schema - the file's schema.
 * @param options - the read's value mapping (the filter compares values as the read converts them).
 * @param unsupported - called with each column a comparison names, before its values are converted: throws
 *   `FILTER_UNSUPPORTED` for columns a filter cannot run on (inside a list, map or VARIANT).
 * @returns the same filter with every value in its column's type.
 * @throws ParquetError `FILTER_INVALID` for a filter that is not an object of a known shape, an unknown operator or
 *   a missing one, an unknown or group column, a missing value, `null` as a value, or a value of the wrong type for
 *   its column (the message names the column, its type, the value and what is accepted).
 */
export function checkFilter(filter: unknown, schema: SchemaTree, options: ValueOptions, unsupported?: (column: ColumnDescriptor) => void): Filter {
  const byPath = new Map<string, ColumnDescriptor[]>();
  for (const c of schema.columns) {
    const list = byPath.get(c.pathString);
    if (list) list.push(c);
    else byPath.set(c.pathString, [c]);
  }
  const fail = (where: string, what: string): never => {
    throw new ParquetError('FILTER_INVALID', `parquet-reader: ${where}: ${what}`);
  };
  const walk = (f: unknown, where: string, depth: number): Filter => {
    if (depth > MAX_DEPTH) fail(where, `nested more than ${MAX_DEPTH} deep (or refers to itself)`);
    if (typeof f !== 'object' || f === null || Array.isArray(f)) {
      return fail(where, `expected a filter object ({ column, op, value }, { column, op: 'in', values }, { column, op: 'is null' }, { and: [...] }, { or: [...] } or { not: filter }), got ${showValue(f)}`);
    }
    const o = f as Record<string, unknown>;
    const logical = ['and', 'or', 'not'].filter((k) => k in o);
    if (logical.length > 1 || (logical.length === 1 && ('column' in o || 'op' in o))) {
      fail(where, `a filter has exactly one of column, and, or, not; got ${Object.keys(o).join(', ')}`);
    }
    if ('and' in o || 'or' in o) {
      const key = 'and' in o ? 'and' : 'or';
      const parts = o[key];
      if (!Array.isArray(parts)) return fail(where, `${key} must be an array of filters, got ${showValue(parts)}`);
      const out = parts.map((g: unknown, i) => walk(g, `${where}.${key}[${i}]`, depth + 1));
      return key === 'and' ? { and: out } : { or: out };
    }
    if ('not' in o) return { not: walk(o['not'], `${where}.not`, depth + 1) };
    const col = filterLeaf(schema, byPath, o['column'], where, fail);
    // the column as checked filters name it: by its dotted path, or by its path array when a name has a dot or the
    // dotted path names another leaf too (so that the filter means the same leaf wherever it is checked again)
    const column: FilterColumn = leafKey(col.path) === col.pathString && byPath.get(col.pathString)!.length === 1 ? col.pathString : [...col.path];
    const name = showColumn(o['column'] as FilterColumn);
    const at = `${where} on column '${name}' (${describeColumnType(col)})`;
    const op = o['op'];
    if (op === undefined) fail(at, `missing op (one of ${ALL_OPS.map((x) => `'${x}'`).join(', ')})`);
    if (typeof op !== 'string' || !ALL_OPS.includes(op)) {
      const hint = op === '==' || op === '===' ? ` (did you mean '='?)` : op === '<>' || op === '!==' ? ` (did you mean '!='?)` : typeof op === 'string' && ALL_OPS.includes(op.toLowerCase()) ? ` (did you mean '${op.toLowerCase()}'?)` : '';
      fail(at, `unknown op ${showValue(op)}${hint}; expected one of ${ALL_OPS.map((x) => `'${x}'`).join(', ')}`);
    }
    unsupported?.(col);
    if (op === 'is null' || op === 'is not null') return { column, op };
    const kind = kindOf(col, options);
    const one = (v: unknown, what: string): unknown => {
      if (v === undefined) fail(at, `missing ${what}`);
      if (v === null) fail(at, `${what} is null, which no comparison matches; use op 'is null' or 'is not null'`);
      try {
        return convert(v, kind);
      } catch (e) {
        if (!(e instanceof Refused)) throw e;
        return fail(at, `${what} ${showValue(v)} cannot be compared${e.why ? `: ${e.why}` : ''}; expected ${EXPECTED[kind.k](kind)}`);
      }
    };
    if (op === 'in') {
      const values = o['values'];
      if (!Array.isArray(values)) {
        return fail(at, values === undefined ? `op 'in' needs values: [...]${'value' in o ? ' (not value)' : ''}` : `values must be an array, got ${showValue(values)}`);
      }
      return { column, op: 'in', values: values.map((v: unknown, i) => one(v, `values[${i}]`)) };
    }
    if (!('value' in o) && 'values' in o) fail(at, `op '${op}' compares with one value: give value, not values`);
    return { column, op: op as CompareOp, value: one(o['value'], 'value') };
  };
  return walk(filter, 'filter', 0);
}

/**
 * The filter's leaf columns and which of them compare as exact decimals (unless `decimals: 'number'`).
 * @param schema - the file's schema.
 * @param filter - the filter, checked ({@link checkFilter}: its columns name leaves as it names them).
 * @param options - the read's options.
 * @returns the leaf indexes, in the filter's order (each once), and the decimal columns' keys ({@link columnKey}).
 * @throws ParquetError `UNKNOWN_COLUMN` for a column naming no leaf; `AMBIGUOUS_COLUMN` for two leaves with one key.
 */
export function filterPlan(schema: SchemaTree, filter: Filter, options: ReadOptions): { filterIdx: number[]; decimals: Set<string> } {
  const leaves = new Map<string, ColumnDescriptor[]>(); // every leaf by key
  for (const col of schema.columns) {
    const k = leafKey(col.path);
    const list = leaves.get(k);
    if (list) list.push(col);
    else leaves.set(k, [col]);
  }
  const byKey = new Map<string, number>();
  for (const c of filterColumns(filter)) {
    const key = columnKey(c);
    if (byKey.has(key)) continue;
    const found = leaves.get(key) ?? [];
    if (found.length === 0) throw new ParquetError('UNKNOWN_COLUMN', `parquet-reader: no leaf column '${showColumn(c)}' in the schema`);
    // only names made of dots and brackets could do this: refused rather than one of the two taken
    if (found.length > 1) throw new ParquetError('AMBIGUOUS_COLUMN', `parquet-reader: '${showColumn(c)}' names ${found.length} columns: ${found.map((col) => JSON.stringify(col.path)).join(', ')}`);
    byKey.set(key, found[0]!.index);
  }
  const decimals = new Set<string>();
  for (const [key, i] of byKey) if (schema.columns[i]!.node.logicalType?.DECIMAL && options.decimals !== 'number') decimals.add(key);
  return { filterIdx: [...byKey.values()], decimals };
}

/**
 * Refuses a filter on a column without one value per row: inside a list or map (which of its values would be
 * tested?), or inside a VARIANT (its leaves are the stored form, not the variant's value).
 * @param schema - the file's schema.
 * @param filterIdx - the filter's leaf columns.
 * @param what - the read, for the message (`a read`, `a columnar read`).
 * @throws ParquetError `FILTER_UNSUPPORTED` naming the column and why.
 */
export function checkFilterColumns(schema: SchemaTree, filterIdx: readonly number[], what: string): void {
  for (const i of filterIdx) {
    if (rowAligned(schema, i)) continue;
    const col = schema.columns[i]!;
    const why = col.maxRep > 0 ? 'it is inside a list or map (more than one value per row)' : 'it is part of a VARIANT column (its stored form, not the variant value)';
    throw new ParquetError('FILTER_UNSUPPORTED', `parquet-reader: ${what} cannot filter on '${leafKey(col.path)}': ${why}`);
  }
}

/** Whether a leaf has one level per row (no repetition, not inside a VARIANT), so a filter can run on its chunk. */
function rowAligned(schema: SchemaTree, i: number): boolean {
  const col = schema.columns[i]!;
  if (col.maxRep !== 0) return false;
  let f: Field | undefined = schema.field;
  for (const name of col.path) {
    if (f?.kind !== 'struct') return f?.kind === 'leaf';
    f = f.fields.find((c) => c.name === name);
    if (!f || f.node.logicalType?.VARIANT) return false;
  }
  return f?.kind === 'leaf';
}

/**
 * A read's filter, checked and converted ({@link checkFilter}), a column without one value per row refused
 * ({@link checkFilterColumns}).
 * @param filter - the read's filter.
 * @param schema - the file's schema.
 * @param options - the read's value mapping.
 * @param what - the read, for messages.
 * @returns the filter, its values converted to its columns' types.
 * @throws ParquetError `FILTER_INVALID`, `FILTER_UNSUPPORTED`.
 */
export function checkReadFilter(filter: unknown, schema: SchemaTree, options: ValueOptions, what: string): Filter {
  return checkFilter(filter, schema, options, (c) => checkFilterColumns(schema, [c.index], what));
}

/**
 * A file read's filter plan ({@link filterPlan}), after refusing a filter column without one value per row
 * ({@link checkFilterColumns}).
 * @param file - the file.
 * @param filter - the read's filter.
 * @param options - the read's options.
 * @param what - the read, for messages.
 * @returns the filter's leaf columns and its exactly compared decimal columns.
 * @throws ParquetError `UNKNOWN_COLUMN`, `AMBIGUOUS_COLUMN`, `FILTER_UNSUPPORTED`.
 */
export function readFilterPlan(file: File, filter: Filter, options: ReadOptions, what: string): { filterIdx: number[]; decimals: Set<string> } {
  const plan = filterPlan(file.schema, filter, options);
  checkFilterColumns(file.schema, plan.filterIdx, what);
  return plan;
}
