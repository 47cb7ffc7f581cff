/**
 * The column types of `parquetry convert --type col=TYPE`: short names (DuckDB and Arrow spellings) for the
 * writer's field specs, whose Parquet physical and logical types are those of
 * https://github.com/apache/parquet-format/blob/master/LogicalTypes.md. A TYPE starting with `{` is a field spec as
 * JSON (`{"type":"int","bitWidth":16,"signed":false}`).
 * @module
 */
import { field, schemaElements, type FieldSpec, type TimeUnitName } from '@parquetry/parquet-writer';
import { ParquetError } from '@parquetry/thrift-compact';

const SIMPLE: Readonly<Record<string, () => FieldSpec>> = {
  boolean: () => field.boolean(),
  bool: () => field.boolean(),
  int8: () => field.int(8, true),
  tinyint: () => field.int(8, true),
  int16: () => field.int(16, true),
  smallint: () => field.int(16, true),
  int32: () => field.int32(),
  int: () => field.int32(),
  integer: () => field.int32(),
  int64: () => field.int64(),
  bigint: () => field.int64(),
  long: () => field.int64(),
  uint8: () => field.int(8, false),
  utinyint: () => field.int(8, false),
  uint16: () => field.int(16, false),
  usmallint: () => field.int(16, false),
  uint32: () => field.int(32, false),
  uinteger: () => field.int(32, false),
  uint64: () => field.int(64, false),
  ubigint: () => field.int(64, false),
  float: () => field.float(),
  float32: () => field.float(),
  real: () => field.float(),
  double: () => field.double(),
  float64: () => field.double(),
  float16: () => field.float16(),
  halffloat: () => field.float16(),
  string: () => field.string(),
  varchar: () => field.string(),
  text: () => field.string(),
  utf8: () => field.string(),
  json: () => field.json(),
  enum: () => field.enum(),
  binary: () => field.binary(),
  blob: () => field.binary(),
  bytes: () => field.binary(),
  uuid: () => field.uuid(),
  date: () => field.date(),
  date32: () => field.date(),
};

const UNITS: Readonly<Record<string, TimeUnitName>> = {
  ms: 'millis', millis: 'millis', us: 'micros', micros: 'micros', ns: 'nanos', nanos: 'nanos',
};

/** The accepted TYPE forms, for messages and the usage text. */
export const TYPE_FORMS =
  'boolean, int8/16/32/64, uint8/16/32/64, float, double, float16, string, json, enum, binary, uuid, date, ' +
  'time[ms|us|ns], timestamp[ms|us|ns] (local), timestamp[us, tz=UTC] or timestamptz[ms|us|ns] (UTC), decimal(P,S), ' +
  'or a field spec as JSON';

function usage(message: string): ParquetError {
  return new ParquetError('USAGE', `parquetry: ${message}`);
}

/**
 * Parses a TYPE of `--type`.
 * @param text - the type text, e.g. `int64`, `timestamp[us]`, `decimal(10,2)`.
 * @param column - the column it is for (for messages).
 * @returns the field spec.
 * @throws ParquetError `USAGE` for an unknown or invalid type.
 */
export function parseType(text: string, column: string): FieldSpec {
  const t = text.trim();
  const bad = (why = `unknown type '${text}'`): ParquetError => usage(`--type ${column}=${text}: ${why} (types: ${TYPE_FORMS})`);
  let spec: FieldSpec | undefined;
  if (t.startsWith('{')) {
    try {
      spec = JSON.parse(t) as FieldSpec;
    } catch (e) {
      throw bad(`not valid JSON (${(e as Error).message})`);
    }
  } else {
    const lower = t.toLowerCase().replaceAll(' ', '');
    const simple = Object.prototype.hasOwnProperty.call(SIMPLE, lower) ? SIMPLE[lower] : undefined;
    if (simple) spec = simple();
    let m: RegExpMatchArray | null;
    if (!spec && (m = /^(decimal|numeric|decimal128)\((\d+)(?:,(\d+))?\)$/.exec(lower))) {
      spec = field.decimal(Number(m[2]), m[3] === undefined ? 0 : Number(m[3]));
    }
    if (!spec && (m = /^(timestamp|timestamptz|time|time32|time64)(?:\[([a-z]+)(?:,tz=([^\]]+))?\])?$/.exec(lower))) {
      const [, kind, unitText, tz] = m;
      const unit = unitText === undefined ? 'micros' : UNITS[unitText];
      if (unit === undefined) throw bad(`unknown unit '${unitText}' (ms, us or ns)`);
      if (kind === 'timestamp' || kind === 'timestamptz') spec = field.timestamp(unit, { utc: kind === 'timestamptz' || tz !== undefined });
      else if (tz === undefined) spec = field.time(unit);
    }
  }
  if (spec === undefined) throw bad();
  try {
    schemaElements({ [column]: spec });
  } catch (e) {
    throw bad(e instanceof Error ? e.message : String(e));
  }
  return spec;
}

/**
 * Parses a `--schema` file's text: a JSON object of field specs (a `SchemaSpec`).
 * @param text - the file's text.
 * @param path - the file's path (for messages).
 * @returns the specs by column name.
 * @throws ParquetError `USAGE` when it is not JSON, not an object, or not a valid schema spec.
 */
export function parseSchemaFile(text: string, path: string): Record<string, FieldSpec> {
  let spec: unknown;
  try {
    spec = JSON.parse(text);
  } catch (e) {
    throw usage(`--schema ${path}: not valid JSON (${(e as Error).message})`);
  }
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) throw usage(`--schema ${path}: expected a JSON object of field specs ({"id": {"type": "int64"}, …})`);
  try {
    schemaElements(spec as Record<string, FieldSpec>);
  } catch (e) {
    throw usage(`--schema ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const out: Record<string, FieldSpec> = {};
  for (const [k, v] of Object.entries(spec)) Object.defineProperty(out, k, { value: v as FieldSpec, enumerable: true, writable: true, configurable: true });
  return out;
}
