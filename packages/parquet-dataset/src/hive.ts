/**
 * Hive-style partitioning: `key=value/` directories above a dataset's files, as Hive, Spark, DuckDB
 * (`PARTITION_BY`, `hive_partitioning = true`) and pyarrow (`partitioning='hive'`) lay them out. Keys and values are
 * URL-encoded (`%2F` for `/`, …); a null value is the directory `key=__HIVE_DEFAULT_PARTITION__`.
 *
 * Parquet itself has no partitioning: the values live only in the paths, and the files leave those columns out
 * (https://github.com/apache/parquet-format/blob/master/README.md describes one file; `file_path` in a `ColumnChunk`
 * is how a summary file points at the others).
 * @module
 */
import { ParquetError, Type, type SchemaElement } from '@parquetry/thrift-compact';
import { formatTime, formatTimestamp, type TimeUnit, type ValueOptions } from '@parquetry/parquet-column';
import type { SchemaNode } from '@parquetry/parquet-levels';
import { field, schemaElements } from '@parquetry/parquet-writer';

/** The directory name Hive writes for a null partition value. */
export const HIVE_NULL = '__HIVE_DEFAULT_PARTITION__';

/**
 * The type of a partition column: `int32`/`int64` (decimal integers), `double`, `boolean` (`true`/`false`), `date`
 * (`YYYY-MM-DD`, read as days since the epoch or a `Date` as the reader's `dates` option says) or `string`.
 */
export type PartitionType = 'int32' | 'int64' | 'double' | 'boolean' | 'date' | 'string';

/** One `key=value` segment of a path, decoded. */
export interface PartitionSegment {
  /** The key (URL-decoded). */
  key: string;
  /** The value as written in the path (URL-decoded), or `null` for {@link HIVE_NULL}. */
  value: string | null;
}

/** A partition column of a dataset. */
export interface PartitionField {
  /** The column name (the key). */
  name: string;
  /** Its type, inferred from the values or as given. */
  type: PartitionType;
}

function decode(text: string, path: string): string {
  try {
    return decodeURIComponent(text);
  } catch (e) {
    throw new ParquetError('INVALID_PARTITION', `parquet-dataset: path '${path}': segment text '${text}' is not valid URL encoding`, undefined, { cause: e });
  }
}

/**
 * Parses the `key=value` directories of a file's path (the last segment, the file name, is not a directory).
 * @param path - a `/`-separated path relative to the dataset root (a URL's path works too).
 * @returns the segments in path order.
 * @throws ParquetError `INVALID_PARTITION` for bad URL encoding, an empty key, or a key given twice.
 */
export function parseHivePath(path: string): PartitionSegment[] {
  const parts = path.split('/');
  const out: PartitionSegment[] = [];
  for (let i = 0; i < parts.length - 1; i++) {
    const seg = parts[i]!;
    const eq = seg.indexOf('=');
    if (eq < 0) continue;
    const key = decode(seg.slice(0, eq), path);
    if (key === '') throw new ParquetError('INVALID_PARTITION', `parquet-dataset: path '${path}': segment '${seg}' has an empty key`);
    if (out.some((s) => s.key === key)) throw new ParquetError('INVALID_PARTITION', `parquet-dataset: path '${path}': key '${key}' appears twice`);
    const raw = seg.slice(eq + 1);
    out.push({ key, value: raw === HIVE_NULL ? null : decode(raw, path) });
  }
  return out;
}

const INT_RE = /^[+-]?\d+$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Days since 1970-01-01 of a valid `YYYY-MM-DD`, else undefined. */
function parseDate(text: string): number | undefined {
  const m = DATE_RE.exec(text);
  if (!m) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  // Date.UTC maps years 0-99 to 1900-1999: set the full year explicitly
  back.setUTCFullYear(y, mo - 1, d);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  return Math.round(back.getTime() / 86400000);
}

/**
 * A partition value of the native mapping ({@link partitionValue}) as the reader's `values: 'json'` mapping gives a
 * column's: an int64 as a number when safe, else a decimal string; a date as `YYYY-MM-DD`; NaN and ±Infinity as
 * strings; the others as they are.
 * @param v - the value (null for the null partition).
 * @param type - the partition column's type.
 * @returns the JSON-safe value.
 */
export function jsonPartitionValue(v: unknown, type: PartitionType): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : String(v);
  if (type === 'date') return formatDate(v instanceof Date ? Math.round(v.getTime() / 86400000) : (v as number));
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return v;
}

/**
 * Formats days since the epoch as `YYYY-MM-DD`.
 * @param days - days since 1970-01-01.
 * @returns the date text.
 */
export function formatDate(days: number): string {
  const d = new Date(days * 86400000);
  const y = d.getUTCFullYear();
  const ys = y < 0 ? `-${String(-y).padStart(4, '0')}` : String(y).padStart(4, '0');
  return `${ys}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

function isInt64Text(t: string): boolean {
  if (!INT_RE.test(t) || t.length > 21) return false;
  const v = BigInt(t);
  return v >= INT64_MIN && v <= INT64_MAX;
}

/** A decimal integer as it prints: an optional `-`, no `+`, no leading zero (but `0` itself), not `-0`. */
const CANONICAL_INT_RE = /^(?:0|-?[1-9]\d*)$/;

/**
 * Whether a partition value infers as `int64`: the text of an integer within 64 bits exactly as it prints, so that
 * reading it as a number loses nothing (`007`, `00`, `+5`, `-0` and ` 5` stay strings: `007` and `7` are two
 * partitions, not one).
 */
function isInferredInt64(t: string): boolean {
  return CANONICAL_INT_RE.test(t) && isInt64Text(t);
}

/**
 * Infers a partition column's type from its values as DuckDB's `hive_types_autocast` does for the types it knows:
 * `int64` when every value is a decimal integer within 64 bits written as it prints (`-5`, `0`, `10`; not `007`,
 * `00`, `+5`), `date` when every value is a valid `YYYY-MM-DD`, else `string` (nulls do not count; a column of
 * nulls only is `string`). A value infers as a type only when its text is that value's text, so two different
 * folders never read as one value.
 *
 * DuckDB 1.5 agrees on `007`, `00`, `+5`, `1.5`, `1e3`, `true` (all VARCHAR) and on canonical integers and
 * `YYYY-MM-DD` dates. It types a few more forms whose text its cast changes, which stay strings here: `-0`, `-007`,
 * `0x10`, `0b1`, ` 5` (BIGINT 0, -7, 16, 1, 5), `2024-1-1`, `10000-01-01`, `infinity`, `epoch` (DATE), and
 * `2024-01-01 10:00:00` (TIMESTAMP, a type not inferred here). It also types the path's text before URL decoding
 * (`k=%37` is VARCHAR `'7'` there, int64 7 here; neither DuckDB nor this package's writer escapes digits or `-`).
 * pyarrow's `partitioning='hive'` infers int32 from any integer text and reads `007` as 7 (`007` and `7` then
 * collide); give the type (`partitioning: { types }`) to read a column that way on purpose.
 * @param values - the raw values of one key over the dataset's files.
 * @returns the type.
 */
export function inferPartitionType(values: Iterable<string | null>): PartitionType {
  let ints = true;
  let dates = true;
  let any = false;
  for (const v of values) {
    if (v === null) continue;
    any = true;
    if (ints && !isInferredInt64(v)) ints = false;
    if (dates && parseDate(v) === undefined) dates = false;
    if (!ints && !dates) return 'string';
  }
  if (!any) return 'string';
  return ints ? 'int64' : dates ? 'date' : 'string';
}

/**
 * Converts a raw partition value to its column's JavaScript value, in the reader's value mapping.
 * @param raw - the decoded path text, or null.
 * @param type - the column's type.
 * @param options - `int64: 'number'` for numbers instead of bigints, `dates: 'date'` for `Date`s instead of days.
 * @param where - the path and key, for messages.
 * @returns the value (null for null).
 * @throws ParquetError `INVALID_PARTITION` when the text is not a value of the type.
 */
export function partitionValue(raw: string | null, type: PartitionType, options: ValueOptions, where: string): unknown {
  if (raw === null) return null;
  const bad = (): never => {
    throw new ParquetError('INVALID_PARTITION', `parquet-dataset: ${where}: '${raw}' is not a ${type} value`);
  };
  switch (type) {
    case 'string':
      return raw;
    case 'int32': {
      if (!INT_RE.test(raw)) return bad();
      const n = Number(raw);
      return n >= -(2 ** 31) && n < 2 ** 31 ? n : bad();
    }
    case 'int64':
      if (!isInt64Text(raw)) return bad();
      return options.int64 === 'number' ? Number(raw) : BigInt(raw);
    case 'double': {
      const n = raw.trim() === '' ? NaN : Number(raw);
      return Number.isNaN(n) && raw !== 'NaN' ? bad() : n;
    }
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : bad();
    case 'date': {
      const days = parseDate(raw);
      if (days === undefined) return bad();
      return options.dates === 'date' ? new Date(days * 86400000) : days;
    }
  }
}

/**
 * What a partition column's values are, for writing them as directory names: from its logical type. Values of
 * columnar input and Arrow tables come as stored (a BOOLEAN as 1/0, a TIMESTAMP as a count of its unit): they are
 * written as the values they stand for, as pyarrow and DuckDB write them.
 */
export interface PartitionFormat {
  /** A DATE: numbers are days since the epoch. */
  readonly date?: boolean;
  /** A BOOLEAN: 1 and 0 are `true` and `false`. */
  readonly boolean?: boolean;
  /** A TIMESTAMP: numbers and bigints are counts of `unit` since the epoch (`utc`: adjusted to UTC). */
  readonly timestamp?: { readonly unit: TimeUnit; readonly utc: boolean };
  /** A TIME: numbers and bigints are counts of `unit` since midnight. */
  readonly time?: { readonly unit: TimeUnit };
}

const UNIT: Record<string, TimeUnit> = { MILLIS: 'ms', MICROS: 'us', NANOS: 'ns' };

/**
 * The {@link PartitionFormat} of a partition column.
 * @param node - the column's schema node.
 * @returns how its values are written.
 */
export function partitionFormatOf(node: SchemaNode): PartitionFormat {
  const lt = node.logicalType;
  if (lt?.DATE) return { date: true };
  if (lt?.TIMESTAMP) return { timestamp: { unit: UNIT[Object.keys(lt.TIMESTAMP.unit)[0]!] ?? 'us', utc: lt.TIMESTAMP.isAdjustedToUTC } };
  if (lt?.TIME) return { time: { unit: UNIT[Object.keys(lt.TIME.unit)[0]!] ?? 'us' } };
  if (node.element.type === Type.BOOLEAN) return { boolean: true };
  return {};
}

/** Longest directory name most file systems take (bytes). */
const MAX_SEGMENT = 255;

/**
 * Formats a value for a `key=value` directory: integers and doubles in decimal, booleans as `true`/`false`, dates
 * (days since the epoch or `Date`) as `YYYY-MM-DD`, timestamps as ISO 8601 with the unit's fractional digits (`Z` when
 * adjusted to UTC), times as `HH:MM:SS.fff…`, strings as they are; then URL-encoded, with null (and undefined) as
 * {@link HIVE_NULL}.
 * @param value - the row's value of the partition column.
 * @param format - what the column's values are ({@link partitionFormatOf}); `true`/`false`: whether it is a DATE.
 * @param where - the column and row, for messages.
 * @returns the directory's value text.
 * @throws ParquetError `INVALID_PARTITION` for a value with no text form (objects, arrays, bytes, NaN dates), or one
 *   whose encoded text is too long for a directory name (255 bytes with its key).
 */
export function formatPartitionValue(value: unknown, format: boolean | PartitionFormat, where: string): string {
  if (value === null || value === undefined) return HIVE_NULL;
  const f: PartitionFormat = typeof format === 'boolean' ? { date: format } : format;
  const count = typeof value === 'number' || typeof value === 'bigint';
  let text: string;
  if (f.date && (typeof value === 'number' || value instanceof Date)) {
    const days = typeof value === 'number' ? value : value.getTime() / 86400000;
    if (!Number.isInteger(days)) throw new ParquetError('INVALID_PARTITION', `parquet-dataset: ${where}: ${String(value)} is not a whole day`);
    text = formatDate(days);
  } else if (f.timestamp && (count || value instanceof Date)) {
    const { unit, utc } = f.timestamp;
    const v = value instanceof Date ? BigInt(value.getTime()) * (unit === 'ms' ? 1n : unit === 'us' ? 1000n : 1000000n) : (value as number | bigint);
    text = formatTimestamp(v, unit, utc);
  } else if (f.time && count) text = formatTime(value as number | bigint, f.time.unit);
  else if (f.boolean && (value === 1 || value === 0)) text = value === 1 ? 'true' : 'false';
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'bigint' || typeof value === 'boolean') text = String(value);
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else throw new ParquetError('INVALID_PARTITION', `parquet-dataset: ${where}: a ${value instanceof Uint8Array ? 'byte array' : typeof value} value cannot name a partition directory`);
  const encoded = encodeURIComponent(text);
  if (encoded.length > MAX_SEGMENT) {
    throw new ParquetError('INVALID_PARTITION', `parquet-dataset: ${where}: the value's directory name would be ${encoded.length} bytes URL-encoded, more than the ${MAX_SEGMENT} a directory name may have`);
  }
  return encoded;
}

/**
 * The SchemaElement of a partition column (OPTIONAL: a partition may be null).
 * @param f - the partition column.
 * @returns its element (no children).
 */
export function partitionElement(f: PartitionField): SchemaElement {
  const spec =
    f.type === 'int32'
      ? field.int32()
      : f.type === 'int64'
        ? field.int64()
        : f.type === 'double'
          ? field.double()
          : f.type === 'boolean'
            ? field.boolean()
            : f.type === 'date'
              ? field.date()
              : field.string();
  return schemaElements({ [f.name]: spec })[1]!;
}
