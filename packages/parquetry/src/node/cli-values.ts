/**
 * How the command line prints values. By default rows are read with the reader's JSON-safe mapping (`values:
 * 'json'`: INT64 as a number when safe else a decimal string, timestamps as ISO-8601 with the column's full precision,
 * dates, times, binary as base64, maps as objects where the keys allow); `--raw` reads the reader's exact default
 * mapping (bigints printed as digits, timestamps as counts of their unit, dates as day numbers, maps as `{ key, value
 * }` pairs), `--dates` turns timestamps and dates of `--raw` into ISO-8601 instants (millisecond precision), and
 * `--binary hex|base64|utf8` chooses how binary values print.
 *
 * The value types are those of https://github.com/apache/parquet-format/blob/master/LogicalTypes.md.
 * @module
 */
import type { ReadOptions } from '@parquetry/parquet-reader';
import type { ColumnDescriptor, Field, SchemaTree } from '@parquetry/parquet-levels';
import { Type } from '@parquetry/thrift-compact';
import { has, one, usageError, type Parsed } from './cli-args.js';

/** How binary values print. */
export type BinaryForm = 'base64' | 'hex' | 'utf8';

/** The value mapping the options chose. */
export interface ValueMode {
  /** `--raw`: the reader's exact default mapping. */
  readonly raw: boolean;
  /** `--dates`: timestamps and dates of `--raw` as ISO-8601 instants. */
  readonly dates: boolean;
  /** `--binary`. */
  readonly binary: BinaryForm;
}

const BINARY_FORMS: readonly BinaryForm[] = ['base64', 'hex', 'utf8'];

/**
 * The value mapping of a command's options.
 * @param p - parsed arguments.
 * @returns the mode.
 * @throws ParquetError `USAGE` for an unknown `--binary` form, or `--dates` without `--raw`.
 */
export function valueMode(p: Parsed): ValueMode {
  const b = one(p, '--binary');
  if (b !== undefined && !BINARY_FORMS.includes(b as BinaryForm)) throw usageError(`--binary is base64, hex or utf8, not '${b}'`);
  const raw = has(p, '--raw');
  const dates = has(p, '--dates');
  if (dates && !raw) throw usageError('--dates changes what --raw prints (without --raw, timestamps and dates already print as ISO-8601 at full precision)');
  return { raw, dates, binary: (b as BinaryForm | undefined) ?? 'base64' };
}

/**
 * The reader's value options for a mode.
 * @param mode - the value mode.
 * @returns the options to read with.
 */
export function readValueOptions(mode: ValueMode): Pick<ReadOptions, 'values' | 'maps' | 'timestamps' | 'dates'> {
  if (!mode.raw) return { values: 'json' };
  return mode.dates ? { maps: 'map', timestamps: 'date', dates: 'date' } : { maps: 'map' };
}

/**
 * Whether a leaf holds bytes that print in the `--binary` form: BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY without a text,
 * decimal, UUID, FLOAT16 or INTERVAL reading.
 * @param col - a leaf column.
 * @returns true for binary leaves.
 */
export function isBinaryColumn(col: ColumnDescriptor): boolean {
  if (col.type !== Type.BYTE_ARRAY && col.type !== Type.FIXED_LEN_BYTE_ARRAY) return false;
  const lt = col.node.logicalType;
  if (lt?.STRING || lt?.ENUM || lt?.JSON || lt?.DECIMAL) return false;
  if (lt?.UUID && col.typeLength === 16) return false;
  if (lt?.FLOAT16 && col.typeLength === 2) return false;
  return !(col.node.element.converted_type === 21 && col.typeLength === 12);
}

type Transform = (v: unknown) => unknown;

const hexOf = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const utf8Of = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
const base64Of = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');

/**
 * Bytes in a `--binary` form.
 * @param b - the bytes.
 * @param form - base64, hex or utf8 (invalid UTF-8 becomes U+FFFD).
 * @returns the text.
 */
export function binaryText(b: Uint8Array, form: BinaryForm): string {
  return form === 'hex' ? hexOf(b) : form === 'utf8' ? utf8Of(b) : base64Of(b);
}

/** The re-encoding of base64 text (the JSON mapping's binary) into another form. */
function fromBase64(form: BinaryForm): Transform {
  return (v) => (typeof v === 'string' ? binaryText(Buffer.from(v, 'base64'), form) : v);
}

/**
 * Whether a leaf is a TIME adjusted to UTC: its JSON-mapped value (`HH:MM:SS.ffffff`) prints with ISO-8601's `Z`, as a
 * UTC-adjusted timestamp's does (DuckDB reads such a column as TIMETZ and prints `12:34:56+00`).
 * @param col - a leaf column.
 * @returns true for TIME with isAdjustedToUTC.
 */
export function isUtcTime(col: ColumnDescriptor): boolean {
  return col.node.logicalType?.TIME?.isAdjustedToUTC === true;
}

const utcTime: Transform = (v) => (typeof v === 'string' ? `${v}Z` : v);

/**
 * The change a value of the JSON-safe mapping (a row's leaf, or a statistics bound) needs before it prints: binary
 * re-encoded from base64 into the `--binary` form, a UTC-adjusted TIME given its `Z`. `--raw` values print as read.
 * @param col - the leaf column.
 * @param mode - the value mode.
 * @returns the change, or undefined when the value prints as read.
 */
export function leafTransform(col: ColumnDescriptor, mode: ValueMode): ((v: unknown) => unknown) | undefined {
  if (mode.raw) return undefined;
  if (isBinaryColumn(col)) return mode.binary === 'base64' ? undefined : fromBase64(mode.binary);
  return isUtcTime(col) ? utcTime : undefined;
}

function transformOf(f: Field, schema: SchemaTree, mode: ValueMode): Transform | undefined {
  if (f.node.logicalType?.VARIANT) return undefined;
  switch (f.kind) {
    case 'leaf':
      return leafTransform(schema.columns[f.column]!, mode);
    case 'struct': {
      const parts = f.fields.map((c) => [c.name, transformOf(c, schema, mode)] as const).filter((x): x is readonly [string, Transform] => x[1] !== undefined);
      if (parts.length === 0) return undefined;
      return (v) => {
        if (v === null || typeof v !== 'object') return v;
        const o = v as Record<string, unknown>;
        for (const [name, t] of parts) if (Object.hasOwn(o, name)) o[name] = t(o[name]);
        return o;
      };
    }
    case 'list': {
      const t = transformOf(f.element, schema, mode);
      if (!t) return undefined;
      return (v) => {
        if (Array.isArray(v)) for (let i = 0; i < v.length; i++) v[i] = t(v[i]);
        return v;
      };
    }
    case 'map': {
      const tk = transformOf(f.key, schema, mode);
      const tv = f.value ? transformOf(f.value, schema, mode) : undefined;
      if (!tk && !tv) return undefined;
      return (v) => {
        if (Array.isArray(v)) {
          // the JSON mapping's { key, value } entries (keys that cannot be object keys)
          for (const e of v as { key: unknown; value: unknown }[]) {
            if (tk) e.key = tk(e.key);
            if (tv) e.value = tv(e.value);
          }
        } else if (v !== null && typeof v === 'object' && tv) {
          const o = v as Record<string, unknown>;
          for (const k of Object.keys(o)) o[k] = tv(o[k]);
        }
        return v;
      };
    }
  }
}

/**
 * The in-place change rows of the JSON-safe mapping need (see {@link leafTransform}): binary values (base64) in the
 * `--binary` form, UTC-adjusted TIME values with their `Z`.
 * @param schema - the file's schema.
 * @param mode - the value mode.
 * @returns the change, or undefined when the rows print as read.
 */
export function rowTransform(schema: SchemaTree, mode: ValueMode): ((row: Record<string, unknown>) => void) | undefined {
  if (mode.raw) return undefined;
  const t = transformOf(schema.field, schema, mode);
  return t && ((row) => void t(row));
}

/**
 * A number as text: JavaScript's shortest round-trip digits, and `-0` for negative zero (`String(-0)` is `0`; a FLOAT
 * or DOUBLE -0 is a value of its own, which DuckDB prints as `-0.0`, and Parquet's statistics order it before +0).
 * @param n - the number.
 * @returns the text (`NaN`, `Infinity`, `-Infinity` as `String` gives them).
 */
export function numberString(n: number): string {
  return n === 0 && 1 / n < 0 ? '-0' : String(n);
}

function numberText(n: number): string {
  return Number.isFinite(n) ? numberString(n) : JSON.stringify(String(n));
}

/** Whether a JSON-shaped value holds a negative zero anywhere (arrays and plain objects are looked into). */
function holdsNegativeZero(v: unknown): boolean {
  if (typeof v === 'number') return v === 0 && 1 / v < 0;
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (holdsNegativeZero(v[i])) return true;
    return false;
  }
  for (const k in v) if (holdsNegativeZero((v as Record<string, unknown>)[k])) return true;
  return false;
}

// What a negative zero stands as while JSON.stringify runs: a lone surrogate, which no text read from a file holds
// (UTF-8 decoding turns an unpaired surrogate into U+FFFD), so its escaped form "\udfff-0" can only be this marker.
const NEGATIVE_ZERO = '\udfff-0';
const NEGATIVE_ZERO_JSON = JSON.stringify(NEGATIVE_ZERO);

/**
 * `JSON.stringify` of JSON-shaped values (strings, finite numbers, booleans, null, arrays, plain objects), with a
 * negative zero written `-0` where `JSON.stringify` writes `0`: RFC 8259's grammar allows `-0`, `JSON.parse('-0')` gives
 * -0 back, and DuckDB writes `-0.0`, so a FLOAT or DOUBLE -0 keeps its sign in every format. The common case (no -0)
 * is one walk of the value and the native `JSON.stringify`.
 * @param v - the value.
 * @param space - indentation, as `JSON.stringify`'s.
 * @returns the JSON text.
 */
export function jsonStringify(v: unknown, space?: number): string {
  if (!holdsNegativeZero(v)) return JSON.stringify(v, null, space);
  const marked = JSON.stringify(v, (_k, x: unknown) => (x === 0 && 1 / x < 0 ? NEGATIVE_ZERO : x), space);
  return marked.replaceAll(NEGATIVE_ZERO_JSON, '-0');
}

function writeJson(v: unknown, binary: BinaryForm, out: string[]): void {
  if (v === null || v === undefined) {
    out.push('null');
    return;
  }
  switch (typeof v) {
    case 'string':
      out.push(JSON.stringify(v));
      return;
    case 'number':
      out.push(numberText(v));
      return;
    case 'bigint':
      out.push(v.toString());
      return;
    case 'boolean':
      out.push(v ? 'true' : 'false');
      return;
    default:
      break;
  }
  if (v instanceof Uint8Array) {
    out.push(JSON.stringify(binaryText(v, binary)));
    return;
  }
  if (v instanceof Date) {
    out.push(Number.isNaN(v.getTime()) ? 'null' : JSON.stringify(v.toISOString()));
    return;
  }
  if (Array.isArray(v) || ArrayBuffer.isView(v)) {
    const a = v as ArrayLike<unknown>;
    out.push('[');
    for (let i = 0; i < a.length; i++) {
      if (i > 0) out.push(',');
      writeJson(a[i], binary, out);
    }
    out.push(']');
    return;
  }
  if (v instanceof Map) {
    out.push('[');
    let first = true;
    for (const [k, x] of v) {
      out.push(first ? '{"key":' : ',{"key":');
      first = false;
      writeJson(k, binary, out);
      out.push(',"value":');
      writeJson(x, binary, out);
      out.push('}');
    }
    out.push(']');
    return;
  }
  out.push('{');
  let first = true;
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    if (x === undefined) continue;
    out.push(first ? '' : ',', JSON.stringify(k), ':');
    first = false;
    writeJson(x, binary, out);
  }
  out.push('}');
}

/**
 * JSON text of any value the reader returns: bigints as digits, binary in the `--binary` form, `Date`s as ISO-8601,
 * maps as `{ key, value }` pairs, -0 as `-0`, NaN and ±Infinity as strings (JSON has no such numbers).
 * @param v - the value.
 * @param binary - how binary values print.
 * @returns the JSON text.
 */
export function jsonText(v: unknown, binary: BinaryForm): string {
  const out: string[] = [];
  writeJson(v, binary, out);
  return out.join('');
}

/**
 * A value as one cell of CSV or a table: strings as they are, numbers (-0 as `-0`), booleans and bigints as their digits, dates
 * in ISO-8601, binary in the `--binary` form, anything nested as JSON.
 * @param v - a non-null value.
 * @param binary - how binary values print.
 * @returns the text.
 */
export function cellText(v: unknown, binary: BinaryForm): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return numberString(v);
    case 'bigint':
    case 'boolean':
      return String(v);
    default:
      // binary and a date print as JSON strings inside nested values; a cell of one holds the text itself, not its
      // quotes (an empty binary is an empty cell)
      if (v instanceof Uint8Array || v instanceof Date) return JSON.parse(jsonText(v, binary)) as string;
      return jsonText(v, binary);
  }
}

const UNIT = (u: { MILLIS?: object; MICROS?: object } | undefined): string => (u?.MILLIS ? 'ms' : u?.MICROS ? 'us' : 'ns');

/**
 * A short type name for a table header: `int64`, `string`, `timestamp[us, UTC]`, `time[us, UTC]`, `decimal(10,2)`, `list<int32>`, …
 * @param f - a field.
 * @param schema - its schema.
 * @returns the name.
 */
export function typeLabel(f: Field, schema: SchemaTree): string {
  const lt = f.node.logicalType;
  if (lt?.VARIANT) return 'variant';
  switch (f.kind) {
    case 'struct':
      return 'struct';
    case 'list':
      return `list<${typeLabel(f.element, schema)}>`;
    case 'map':
      return `map<${typeLabel(f.key, schema)}, ${f.value ? typeLabel(f.value, schema) : 'none'}>`;
    case 'leaf':
      break;
  }
  const col = schema.columns[f.column]!;
  if (lt?.STRING) return 'string';
  if (lt?.ENUM) return 'enum';
  if (lt?.JSON) return 'json';
  if (lt?.BSON) return 'bson';
  if (lt?.UUID) return 'uuid';
  if (lt?.DECIMAL) return `decimal(${lt.DECIMAL.precision},${lt.DECIMAL.scale})`;
  if (lt?.DATE) return 'date';
  if (lt?.TIME) return `time[${UNIT(lt.TIME.unit)}${lt.TIME.isAdjustedToUTC ? ', UTC' : ''}]`;
  if (lt?.TIMESTAMP) return `timestamp[${UNIT(lt.TIMESTAMP.unit)}${lt.TIMESTAMP.isAdjustedToUTC ? ', UTC' : ''}]`;
  if (lt?.INTEGER) return `${lt.INTEGER.isSigned ? 'int' : 'uint'}${lt.INTEGER.bitWidth}`;
  if (lt?.FLOAT16) return 'float16';
  if (lt?.GEOMETRY) return 'geometry';
  if (lt?.GEOGRAPHY) return 'geography';
  if (col.node.element.converted_type === 21) return 'interval';
  switch (col.type) {
    case Type.BOOLEAN:
      return 'boolean';
    case Type.INT32:
      return 'int32';
    case Type.INT64:
      return 'int64';
    case Type.INT96:
      return 'int96';
    case Type.FLOAT:
      return 'float';
    case Type.DOUBLE:
      return 'double';
    case Type.FIXED_LEN_BYTE_ARRAY:
      return `fixed(${col.typeLength ?? '?'})`;
    default:
      return 'binary';
  }
}

/**
 * Whether a field's values are numbers (right-aligned in a table).
 * @param f - a field.
 * @param schema - its schema.
 * @returns true for integers, floats and decimals.
 */
export function isNumeric(f: Field, schema: SchemaTree): boolean {
  if (f.kind !== 'leaf') return false;
  const col = schema.columns[f.column]!;
  const lt = col.node.logicalType;
  if (lt?.DECIMAL || lt?.FLOAT16) return true;
  if (lt?.DATE || lt?.TIME || lt?.TIMESTAMP) return false;
  return col.type === Type.INT32 || col.type === Type.INT64 || col.type === Type.FLOAT || col.type === Type.DOUBLE;
}
