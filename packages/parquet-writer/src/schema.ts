/**
 * The writer's schema: plain, serialisable field specs ({@link FieldSpec}, built with {@link field} or written as
 * object literals), their translation into the footer's flat `SchemaElement` list ({@link schemaElements}), and the
 * copy of an existing file's schema ({@link schemaFromElements}).
 *
 * Implements:
 * - https://github.com/apache/parquet-format/blob/master/README.md#metadata (the depth-first `SchemaElement` list,
 *   `num_children`, repetition);
 * - https://github.com/apache/parquet-format/blob/master/LogicalTypes.md — every annotation is written as a
 *   `LogicalType` *and*, where one exists, as the matching legacy `ConvertedType` ("Compatibility": writers "must
 *   also write the corresponding ConvertedType"), including `TIMESTAMP_*`/`TIME_*` for local (`isAdjustedToUTC =
 *   false`) values, which the "Forward compatibility" tables require too; DECIMAL scale/precision also go into the
 *   element; lists are the 3-level `LIST` form ("Lists") and maps the `MAP`/`key_value` form ("Maps");
 * - https://github.com/apache/parquet-format/blob/master/VariantShredding.md — the Variant group and its shredded
 *   `typed_value` ("Shredded Value Types", "Arrays", "Objects"), in the layout `@parquetry/parquet-variant`
 *   (`shreddedShapeFromSchema`) reads.
 *
 * Every field is OPTIONAL unless its spec says `required: true` (as in Arrow and DuckDB). Paths in messages are the
 * column paths of the file (`path_in_schema` joined with `.`): a list element is `<list>.list.element`, a map key
 * and value `<map>.key_value.key` / `<map>.key_value.value`.
 *
 * @module
 */
import { ConvertedType, EdgeInterpolationAlgorithm, FieldRepetitionType, FieldRepetitionTypeNames, ParquetError, Type, TypeNames } from '@parquetry/thrift-compact';
import type { LogicalType, SchemaElement } from '@parquetry/thrift-compact';
import { MAX_SCHEMA_DEPTH, buildSchemaTree, checkDecimals, convertedFromLogicalType, logicalTypeFromConverted } from '@parquetry/parquet-levels';
import type { SchemaNode, SchemaTree } from '@parquetry/parquet-levels';

// ---------------------------------------------------------------------------------------------------------------
// Field specs

/** What every field spec may carry. */
export interface FieldOptions {
  /** `true` for a REQUIRED field (never null); default OPTIONAL. Ignored for a map key, which is always REQUIRED. */
  readonly required?: boolean;
  /** `SchemaElement.field_id` (an int32, e.g. an Iceberg field id); omitted by default. */
  readonly fieldId?: number;
}

/** The field types that take no parameters. */
export type SimpleType =
  | 'boolean' | 'int32' | 'int64' | 'float' | 'double' | 'string' | 'binary' | 'json' | 'bson' | 'enum'
  | 'uuid' | 'float16' | 'date' | 'interval' | 'int96';

/**
 * A field without parameters. Physical type and annotation:
 * `boolean` BOOLEAN; `int32` INT32; `int64` INT64; `float` FLOAT; `double` DOUBLE; `string` BYTE_ARRAY STRING (UTF8);
 * `binary` BYTE_ARRAY; `json` BYTE_ARRAY JSON; `bson` BYTE_ARRAY BSON; `enum` BYTE_ARRAY ENUM; `uuid`
 * FIXED_LEN_BYTE_ARRAY(16) UUID; `float16` FIXED_LEN_BYTE_ARRAY(2) FLOAT16; `date` INT32 DATE; `interval`
 * FIXED_LEN_BYTE_ARRAY(12) with ConvertedType INTERVAL (it has no LogicalType); `int96` INT96 (the deprecated
 * timestamp of Impala/old Spark, unannotated).
 */
export interface SimpleFieldSpec extends FieldOptions {
  /** The type. */
  readonly type: SimpleType;
}

/** An integer with an explicit width and sign: INT32 for 8/16/32 bits, INT64 for 64; `INTEGER` + `INT_n`/`UINT_n`. */
export interface IntFieldSpec extends FieldOptions {
  /** Discriminant. */
  readonly type: 'int';
  /** Bit width. */
  readonly bitWidth: 8 | 16 | 32 | 64;
  /** Signed (`INT_n`) or unsigned (`UINT_n`). */
  readonly signed: boolean;
}

/** The physical type under a DECIMAL: INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY. */
export type DecimalPhysical = 'int32' | 'int64' | 'fixed' | 'binary';

/**
 * A DECIMAL(precision, scale). Without `physical`, the smallest type that holds the precision is used, as
 * parquet-java and Arrow do: INT32 up to precision 9, INT64 up to 18, else FIXED_LEN_BYTE_ARRAY of the fewest bytes.
 */
export interface DecimalFieldSpec extends FieldOptions {
  /** Discriminant. */
  readonly type: 'decimal';
  /** Total digits, 1..9 on INT32, 1..18 on INT64, up to what `byteLength` bytes hold on FIXED, at most {@link MAX_DECIMAL_PRECISION}. */
  readonly precision: number;
  /** Digits after the point, 0..precision. */
  readonly scale: number;
  /** Physical type (default: by precision, see above). */
  readonly physical?: DecimalPhysical;
  /** FIXED_LEN_BYTE_ARRAY length (only with `physical: 'fixed'` or a default FIXED); default the fewest bytes. */
  readonly byteLength?: number;
}

/** A time unit of TIMESTAMP and TIME. */
export type TimeUnitName = 'millis' | 'micros' | 'nanos';

/** A TIMESTAMP: INT64 count of `unit`s since the epoch; ConvertedType `TIMESTAMP_MILLIS`/`_MICROS` (none for nanos). */
export interface TimestampFieldSpec extends FieldOptions {
  /** Discriminant. */
  readonly type: 'timestamp';
  /** Unit. */
  readonly unit: TimeUnitName;
  /** `isAdjustedToUTC`: true for instants (UTC-normalised), false for local date-times. */
  readonly utc: boolean;
}

/** A TIME of day: INT32 for millis, INT64 for micros/nanos; ConvertedType `TIME_MILLIS`/`_MICROS` (none for nanos). */
export interface TimeFieldSpec extends FieldOptions {
  /** Discriminant. */
  readonly type: 'time';
  /** Unit. */
  readonly unit: TimeUnitName;
  /** `isAdjustedToUTC`. */
  readonly utc: boolean;
}

/** An unannotated FIXED_LEN_BYTE_ARRAY. */
export interface FixedFieldSpec extends FieldOptions {
  /** Discriminant. */
  readonly type: 'fixed';
  /** Bytes per value, 1..2^31-1. */
  readonly length: number;
}

/** A GEOMETRY (WKB in a BYTE_ARRAY, planar edges). */
export interface GeometryFieldSpec extends FieldOptions {
  /** Discriminant. */
  readonly type: 'geometry';
  /** Coordinate reference system; readers assume `OGC:CRS84` when absent. */
  readonly crs?: string;
}

/** An edge interpolation algorithm of GEOGRAPHY (parquet.thrift `EdgeInterpolationAlgorithm`, lower-case). */
export type EdgeAlgorithmName = 'spherical' | 'vincenty' | 'thomas' | 'andoyer' | 'karney';

/** A GEOGRAPHY (WKB in a BYTE_ARRAY, non-planar edges). */
export interface GeographyFieldSpec extends FieldOptions {
  /** Discriminant. */
  readonly type: 'geography';
  /** Geographic coordinate reference system; readers assume `OGC:CRS84` when absent. */
  readonly crs?: string;
  /** Edge interpolation; readers assume `spherical` when absent. */
  readonly algorithm?: EdgeAlgorithmName;
}

/**
 * A VARIANT group `{ required binary metadata; binary value; [typed_value] }` (LogicalType VARIANT, specification
 * version 1). Unshredded, `value` is REQUIRED; with `shredding`, `value` is OPTIONAL and an OPTIONAL `typed_value`
 * follows, built from the shredding spec as VariantShredding.md says: a primitive becomes the `typed_value` leaf;
 * a `list` becomes a 3-level LIST whose element is a REQUIRED group `{ optional binary value; typed_value }`; a
 * `struct` becomes a group with one REQUIRED group `{ optional binary value; typed_value }` per field. Every shredded
 * group keeps its `value`, so values of any type can be written. Shreddable types: boolean, int32, int64, `int`
 * (signed 8/16/32/64), float, double, decimal (precision ≤ 38), date, time (micros, local), timestamp (micros or
 * nanos), binary, string, uuid, list, struct. Repetitions inside are fixed by the spec, so shredding specs take no
 * `required`/`fieldId`.
 */
export interface VariantFieldSpec extends FieldOptions {
  /** Discriminant. */
  readonly type: 'variant';
  /** The shredded type of the Variant's values, or absent for an unshredded Variant. */
  readonly shredding?: FieldSpec;
}

/** A list: `<name> (LIST) { repeated group list { <element> element } }` (the element is OPTIONAL unless required). */
export interface ListFieldSpec extends FieldOptions {
  /** Discriminant. */
  readonly type: 'list';
  /** The element type. */
  readonly element: FieldSpec;
}

/**
 * A map: `<name> (MAP) { repeated group key_value { required <key> key; <value> value } }`. The key is always
 * REQUIRED; `required: false` on it is an error. Without `value` the map is a set of keys.
 */
export interface MapFieldSpec extends FieldOptions {
  /** Discriminant. */
  readonly type: 'map';
  /** The key type. */
  readonly key: FieldSpec;
  /** The value type; absent for a key-only map. */
  readonly value?: FieldSpec;
}

/** A struct: an unannotated group with one child per field, in key order. */
export interface StructFieldSpec extends FieldOptions {
  /** Discriminant. */
  readonly type: 'struct';
  /** The fields, in key order; at least one. */
  readonly fields: SchemaSpec;
}

/** A field of a schema: a plain object discriminated on `type` (serialisable with `JSON.stringify`). */
export type FieldSpec =
  | SimpleFieldSpec | IntFieldSpec | DecimalFieldSpec | TimestampFieldSpec | TimeFieldSpec | FixedFieldSpec
  | GeometryFieldSpec | GeographyFieldSpec | VariantFieldSpec | ListFieldSpec | MapFieldSpec | StructFieldSpec;

/** The top-level fields of a file, in key order. */
export type SchemaSpec = Readonly<Record<string, FieldSpec>>;

/** Largest DECIMAL precision accepted (on FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY); PostgreSQL's NUMERIC has the same limit. */
export const MAX_DECIMAL_PRECISION = 1000;

/** Options of {@link field.decimal}. */
export interface DecimalOptions extends FieldOptions {
  /** Physical type (default: the smallest that holds the precision). */
  readonly physical?: DecimalPhysical;
  /** FIXED_LEN_BYTE_ARRAY length (default: the fewest bytes). */
  readonly byteLength?: number;
}

/** Options of {@link field.timestamp} and {@link field.time}. */
export interface TemporalOptions extends FieldOptions {
  /** `isAdjustedToUTC` (default: `true` for timestamps, `false` for times). */
  readonly utc?: boolean;
}

/** Options of {@link field.geometry}. */
export interface GeometryOptions extends FieldOptions {
  /** Coordinate reference system. */
  readonly crs?: string;
}

/** Options of {@link field.geography}. */
export interface GeographyOptions extends FieldOptions {
  /** Geographic coordinate reference system. */
  readonly crs?: string;
  /** Edge interpolation algorithm. */
  readonly algorithm?: EdgeAlgorithmName;
}

/** Options of {@link field.variant}. */
export interface VariantOptions extends FieldOptions {
  /** The shredded type (see {@link VariantFieldSpec}). */
  readonly shredding?: FieldSpec;
}

function withOptions<T extends object>(spec: T, options: FieldOptions | undefined): T & FieldOptions {
  const out: T & { required?: boolean; fieldId?: number } = spec;
  if (options?.required !== undefined) out.required = options.required;
  if (options?.fieldId !== undefined) out.fieldId = options.fieldId;
  return out;
}

const simple = (type: SimpleType) => (options?: FieldOptions): SimpleFieldSpec => withOptions({ type }, options);

/**
 * Builders of {@link FieldSpec}s. Each returns a plain object (the same object one could write by hand); options
 * objects, not chained methods, carry `required` and `fieldId`, so specs stay plain data that can be stored as JSON
 * and compared with `toEqual`.
 *
 * @example
 * ```ts
 * const spec = {
 *   id: field.int64({ required: true }),
 *   name: field.string(),
 *   price: field.decimal(12, 2),
 *   tags: field.list(field.string({ required: true })),
 *   attrs: field.map(field.string(), field.json()),
 *   seen: field.timestamp('micros'),
 * };
 * const elements = schemaElements(spec);
 * ```
 */
export const field = {
  /**
   * BOOLEAN.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  boolean: simple('boolean'),
  /**
   * INT32.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  int32: simple('int32'),
  /**
   * INT64.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  int64: simple('int64'),
  /**
   * FLOAT.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  float: simple('float'),
  /**
   * DOUBLE.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  double: simple('double'),
  /**
   * BYTE_ARRAY STRING.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  string: simple('string'),
  /**
   * BYTE_ARRAY without annotation.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  binary: simple('binary'),
  /**
   * BYTE_ARRAY JSON: each value is one JSON document (RFC 8259) as UTF-8 text, a `string` such as `JSON.stringify`
   * gives or its bytes. The writer checks the UTF-8, as for STRING, not the JSON syntax: parsing every value would add
   * about half again to the time of writing such a column (measured: `JSON.parse` of 200,000 small documents 110–200
   * ms, writing them 210–470 ms), and callers usually hold text `JSON.stringify` produced. Text that is not JSON makes
   * a file other readers refuse whole (DuckDB does), so check text from elsewhere before writing it; the `parquetry`
   * command line's `convert --type COL=json` checks each value and writes nothing when one is not JSON.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  json: simple('json'),
  /**
   * BYTE_ARRAY BSON.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  bson: simple('bson'),
  /**
   * BYTE_ARRAY ENUM.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  enum: simple('enum'),
  /**
   * FIXED_LEN_BYTE_ARRAY(16) UUID.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  uuid: simple('uuid'),
  /**
   * FIXED_LEN_BYTE_ARRAY(2) FLOAT16.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  float16: simple('float16'),
  /**
   * INT32 DATE (days since 1970-01-01).
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  date: simple('date'),
  /**
   * FIXED_LEN_BYTE_ARRAY(12) INTERVAL (months, days, milliseconds).
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  interval: simple('interval'),
  /**
   * INT96 (legacy timestamps).
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  int96: simple('int96'),
  /**
   * An integer of a given width and sign (`INTEGER(bitWidth, signed)`).
   * @param bitWidth - 8, 16, 32 or 64.
   * @param signed - signed or unsigned.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  int: (bitWidth: 8 | 16 | 32 | 64, signed: boolean, options?: FieldOptions): IntFieldSpec =>
    withOptions({ type: 'int', bitWidth, signed }, options),
  /**
   * DECIMAL(precision, scale).
   * @param precision - total digits.
   * @param scale - digits after the point (default 0).
   * @param options - `physical`, `byteLength`, `required`, `fieldId`.
   * @returns the spec.
   */
  decimal: (precision: number, scale = 0, options?: DecimalOptions): DecimalFieldSpec => {
    const spec: { type: 'decimal'; precision: number; scale: number; physical?: DecimalPhysical; byteLength?: number } =
      { type: 'decimal', precision, scale };
    if (options?.physical !== undefined) spec.physical = options.physical;
    if (options?.byteLength !== undefined) spec.byteLength = options.byteLength;
    return withOptions(spec, options);
  },
  /**
   * TIMESTAMP(unit, utc).
   * @param unit - `'millis'`, `'micros'` or `'nanos'`.
   * @param options - `utc` (default `true`: instants, as JavaScript `Date`s are), `required`, `fieldId`.
   * @returns the spec.
   */
  timestamp: (unit: TimeUnitName, options?: TemporalOptions): TimestampFieldSpec =>
    withOptions({ type: 'timestamp', unit, utc: options?.utc ?? true }, options),
  /**
   * TIME(unit, utc).
   * @param unit - `'millis'`, `'micros'` or `'nanos'`.
   * @param options - `utc` (default `false`: local time of day, as SQL `TIME` and Variant `time` are), `required`, `fieldId`.
   * @returns the spec.
   */
  time: (unit: TimeUnitName, options?: TemporalOptions): TimeFieldSpec =>
    withOptions({ type: 'time', unit, utc: options?.utc ?? false }, options),
  /**
   * Unannotated FIXED_LEN_BYTE_ARRAY.
   * @param length - bytes per value.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  fixed: (length: number, options?: FieldOptions): FixedFieldSpec => withOptions({ type: 'fixed', length }, options),
  /**
   * GEOMETRY.
   * @param options - `crs`, `required`, `fieldId`.
   * @returns the spec.
   */
  geometry: (options?: GeometryOptions): GeometryFieldSpec => {
    const spec: { type: 'geometry'; crs?: string } = { type: 'geometry' };
    if (options?.crs !== undefined) spec.crs = options.crs;
    return withOptions(spec, options);
  },
  /**
   * GEOGRAPHY.
   * @param options - `crs`, `algorithm`, `required`, `fieldId`.
   * @returns the spec.
   */
  geography: (options?: GeographyOptions): GeographyFieldSpec => {
    const spec: { type: 'geography'; crs?: string; algorithm?: EdgeAlgorithmName } = { type: 'geography' };
    if (options?.crs !== undefined) spec.crs = options.crs;
    if (options?.algorithm !== undefined) spec.algorithm = options.algorithm;
    return withOptions(spec, options);
  },
  /**
   * VARIANT, optionally shredded.
   * @param options - `shredding`, `required`, `fieldId`.
   * @returns the spec.
   */
  variant: (options?: VariantOptions): VariantFieldSpec => {
    const spec: { type: 'variant'; shredding?: FieldSpec } = { type: 'variant' };
    if (options?.shredding !== undefined) spec.shredding = options.shredding;
    return withOptions(spec, options);
  },
  /**
   * A 3-level LIST.
   * @param element - the element spec (OPTIONAL elements unless it says `required: true`).
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  list: (element: FieldSpec, options?: FieldOptions): ListFieldSpec => withOptions({ type: 'list', element }, options),
  /**
   * A MAP.
   * @param key - the key spec (always REQUIRED).
   * @param value - the value spec, or `undefined` for a key-only map.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  map: (key: FieldSpec, value?: FieldSpec, options?: FieldOptions): MapFieldSpec => {
    const spec: { type: 'map'; key: FieldSpec; value?: FieldSpec } = { type: 'map', key };
    if (value !== undefined) spec.value = value;
    return withOptions(spec, options);
  },
  /**
   * A struct (group).
   * @param fields - the fields, in key order.
   * @param options - `required`, `fieldId`.
   * @returns the spec.
   */
  struct: (fields: SchemaSpec, options?: FieldOptions): StructFieldSpec => withOptions({ type: 'struct', fields }, options),
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Decimal widths

/**
 * Most decimal digits a FIXED_LEN_BYTE_ARRAY of `n` bytes holds: `floor(log10(2^(8n-1) - 1))` (LogicalTypes.md,
 * DECIMAL). Computed exactly with BigInt (n is small: at most the bytes of {@link MAX_DECIMAL_PRECISION} digits).
 */
function maxDigitsOfBytes(n: number): number {
  if (n <= 0) return 0;
  // floor(log10(m)) is m's digit count minus one (m >= 1)
  return ((1n << BigInt(8 * n - 1)) - 1n).toString().length - 1;
}

/** Fewest bytes whose signed range holds every unscaled value of `precision` digits. */
function decimalBytes(precision: number): number {
  // 10^p - 1 <= 2^(8n-1) - 1  <=>  8n - 1 >= p * log2(10); start from the estimate, then correct exactly
  let n = Math.max(1, Math.ceil((precision * Math.log2(10) + 1) / 8) - 1);
  while (maxDigitsOfBytes(n) < precision) n++;
  return n;
}

// ---------------------------------------------------------------------------------------------------------------
// SchemaElement generation

/** The error of a spec nested past {@link MAX_SCHEMA_DEPTH} levels, its path shortened to its two ends. */
function tooDeep(path: string): ParquetError {
  const shown = path.length > 160 ? `${path.slice(0, 60)}…${path.slice(-60)}` : path;
  return specError(shown, `nesting deeper than ${MAX_SCHEMA_DEPTH} schema levels (a list or map takes two: its group and its element or key_value; or a cyclic spec)`);
}

function specError(path: string, what: string): ParquetError {
  return new ParquetError('INVALID_SCHEMA', `parquet-writer: field '${path}': ${what}`);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `'${v}'`;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return `${String(v)} (${typeof v})`;
  return typeof v;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const COMMON_KEYS = ['type', 'required', 'fieldId'] as const;
const KEYS: Readonly<Record<string, readonly string[]>> = {
  int: ['bitWidth', 'signed'],
  decimal: ['precision', 'scale', 'physical', 'byteLength'],
  timestamp: ['unit', 'utc'],
  time: ['unit', 'utc'],
  fixed: ['length'],
  geometry: ['crs'],
  geography: ['crs', 'algorithm'],
  variant: ['shredding'],
  list: ['element'],
  map: ['key', 'value'],
  struct: ['fields'],
};

const SIMPLE: Readonly<Record<SimpleType, { type: Type; length?: number; logical?: LogicalType; converted?: ConvertedType }>> = {
  boolean: { type: Type.BOOLEAN },
  int32: { type: Type.INT32 },
  int64: { type: Type.INT64 },
  float: { type: Type.FLOAT },
  double: { type: Type.DOUBLE },
  int96: { type: Type.INT96 },
  string: { type: Type.BYTE_ARRAY, logical: { STRING: {} } },
  binary: { type: Type.BYTE_ARRAY },
  json: { type: Type.BYTE_ARRAY, logical: { JSON: {} } },
  bson: { type: Type.BYTE_ARRAY, logical: { BSON: {} } },
  enum: { type: Type.BYTE_ARRAY, logical: { ENUM: {} } },
  uuid: { type: Type.FIXED_LEN_BYTE_ARRAY, length: 16, logical: { UUID: {} } },
  float16: { type: Type.FIXED_LEN_BYTE_ARRAY, length: 2, logical: { FLOAT16: {} } },
  date: { type: Type.INT32, logical: { DATE: {} } },
  interval: { type: Type.FIXED_LEN_BYTE_ARRAY, length: 12, converted: ConvertedType.INTERVAL },
};

const ALGORITHMS: Readonly<Record<EdgeAlgorithmName, EdgeInterpolationAlgorithm>> = {
  spherical: EdgeInterpolationAlgorithm.SPHERICAL,
  vincenty: EdgeInterpolationAlgorithm.VINCENTY,
  thomas: EdgeInterpolationAlgorithm.THOMAS,
  andoyer: EdgeInterpolationAlgorithm.ANDOYER,
  karney: EdgeInterpolationAlgorithm.KARNEY,
};

const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** One element in thrift field order; the ConvertedType (and DECIMAL scale/precision) derived from the LogicalType. */
function element(
  name: string, repetition: FieldRepetitionType | undefined, fieldId: number | undefined,
  props: { type?: Type; length?: number; children?: number; logical?: LogicalType; converted?: ConvertedType },
): SchemaElement {
  // parquet.thrift field order, so printed schemas read naturally
  const out = {} as SchemaElement;
  if (props.type !== undefined) out.type = props.type;
  if (props.length !== undefined) out.type_length = props.length;
  if (repetition !== undefined) out.repetition_type = repetition;
  out.name = name;
  if (props.children !== undefined) out.num_children = props.children;
  const conv = props.logical === undefined ? undefined : convertedFromLogicalType(props.logical);
  const converted = props.converted ?? conv?.converted_type;
  if (converted !== undefined) out.converted_type = converted;
  if (conv?.scale !== undefined) out.scale = conv.scale;
  if (conv?.precision !== undefined) out.precision = conv.precision;
  if (fieldId !== undefined) out.field_id = fieldId;
  // a fresh object per element: callers may edit the list, and SIMPLE's annotations are shared constants
  if (props.logical !== undefined) out.logicalType = structuredClone(props.logical);
  return out;
}

const unitOf = (u: TimeUnitName): { MILLIS: Record<string, never> } | { MICROS: Record<string, never> } | { NANOS: Record<string, never> } =>
  u === 'millis' ? { MILLIS: {} } : u === 'micros' ? { MICROS: {} } : { NANOS: {} };

const MAX_I32 = 0x7fffffff;

function checkName(name: string, path: string): void {
  if (name.length === 0) throw specError(path, 'empty field name, expected a non-empty name');
}

function checkSpecObject(spec: unknown, path: string): asserts spec is Record<string, unknown> & { type: string } {
  if (!isObject(spec)) throw specError(path, `expected a field spec object, got ${describe(spec)}`);
  if (typeof spec.type !== 'string') throw specError(path, `expected a string 'type', got ${describe(spec.type)}`);
  const allowed = own(SIMPLE, spec.type) ? [] : own(KEYS, spec.type) ? KEYS[spec.type] : undefined;
  if (allowed === undefined) throw specError(path, `unknown type ${describe(spec.type)}`);
  for (const k of Object.keys(spec)) {
    if (!(COMMON_KEYS as readonly string[]).includes(k) && !allowed.includes(k)) {
      throw specError(path, `unknown property '${k}' for type '${spec.type}', expected one of ${[...COMMON_KEYS, ...allowed].join(', ')}`);
    }
  }
}

function repetitionOf(spec: Record<string, unknown>, path: string): FieldRepetitionType {
  const r = spec.required;
  if (r !== undefined && typeof r !== 'boolean') throw specError(path, `'required' must be a boolean, got ${describe(r)}`);
  return r === true ? FieldRepetitionType.REQUIRED : FieldRepetitionType.OPTIONAL;
}

function fieldIdOf(spec: Record<string, unknown>, path: string): number | undefined {
  const id = spec.fieldId;
  if (id === undefined) return undefined;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < -0x80000000 || id > MAX_I32) {
    throw specError(path, `'fieldId' must be an int32, got ${describe(id)}`);
  }
  return id;
}

function intIn(v: unknown, lo: number, hi: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
}

function timeUnit(spec: Record<string, unknown>, path: string): TimeUnitName {
  const u = spec.unit;
  if (u !== 'millis' && u !== 'micros' && u !== 'nanos') throw specError(path, `'unit' must be 'millis', 'micros' or 'nanos', got ${describe(u)}`);
  if (typeof spec.utc !== 'boolean') throw specError(path, `'utc' must be a boolean, got ${describe(spec.utc)}`);
  return u;
}

/** Physical type, length and logical type of a DECIMAL spec, validated. */
function decimalLayout(spec: Record<string, unknown>, path: string, maxPrecision: number): { type: Type; length?: number; logical: LogicalType } {
  const { precision, scale } = spec;
  if (!intIn(precision, 1, maxPrecision)) throw specError(path, `decimal precision must be an integer in 1..${maxPrecision}, got ${describe(precision)}`);
  if (!intIn(scale, 0, precision)) throw specError(path, `decimal scale must be an integer in 0..precision (${precision}), got ${describe(scale)}`);
  const physical = spec.physical ?? (precision <= 9 ? 'int32' : precision <= 18 ? 'int64' : 'fixed');
  const logical: LogicalType = { DECIMAL: { scale, precision } };
  if (spec.byteLength !== undefined && physical !== 'fixed') {
    throw specError(path, `'byteLength' applies to physical 'fixed' only, got physical ${describe(physical)}`);
  }
  switch (physical) {
    case 'int32':
      if (precision > 9) throw specError(path, `decimal precision ${precision} does not fit INT32 (at most 9 digits); use physical 'int64', 'fixed' or 'binary'`);
      return { type: Type.INT32, logical };
    case 'int64':
      if (precision > 18) throw specError(path, `decimal precision ${precision} does not fit INT64 (at most 18 digits); use physical 'fixed' or 'binary'`);
      return { type: Type.INT64, logical };
    case 'binary':
      return { type: Type.BYTE_ARRAY, logical };
    case 'fixed': {
      const min = decimalBytes(precision);
      const length = spec.byteLength ?? min;
      if (!intIn(length, 1, MAX_I32)) throw specError(path, `'byteLength' must be a positive int32, got ${describe(length)}`);
      if (length < min) {
        throw specError(path, `decimal precision ${precision} needs at least ${min} bytes, got byteLength ${length} (holds ${maxDigitsOfBytes(length)} digits)`);
      }
      return { type: Type.FIXED_LEN_BYTE_ARRAY, length, logical };
    }
    default:
      throw specError(path, `decimal 'physical' must be 'int32', 'int64', 'fixed' or 'binary', got ${describe(physical)}`);
  }
}

function emitField(out: SchemaElement[], name: string, raw: unknown, path: string, depth: number, forced?: FieldRepetitionType): void {
  if (depth > MAX_SCHEMA_DEPTH) throw tooDeep(path);
  checkName(name, path);
  checkSpecObject(raw, path);
  const spec = raw;
  const declared = repetitionOf(spec, path);
  const repetition = forced ?? declared;
  const id = fieldIdOf(spec, path);
  const t = spec.type;
  if (own(SIMPLE, t)) {
    out.push(element(name, repetition, id, SIMPLE[t as SimpleType]));
    return;
  }
  switch (t) {
    case 'int': {
      const { bitWidth, signed } = spec;
      if (bitWidth !== 8 && bitWidth !== 16 && bitWidth !== 32 && bitWidth !== 64) throw specError(path, `int 'bitWidth' must be 8, 16, 32 or 64, got ${describe(bitWidth)}`);
      if (typeof signed !== 'boolean') throw specError(path, `int 'signed' must be a boolean, got ${describe(signed)}`);
      out.push(element(name, repetition, id, { type: bitWidth === 64 ? Type.INT64 : Type.INT32, logical: { INTEGER: { bitWidth, isSigned: signed } } }));
      return;
    }
    case 'decimal': {
      const d = decimalLayout(spec, path, MAX_DECIMAL_PRECISION);
      out.push(element(name, repetition, id, d));
      return;
    }
    case 'timestamp': {
      const unit = timeUnit(spec, path);
      out.push(element(name, repetition, id, { type: Type.INT64, logical: { TIMESTAMP: { isAdjustedToUTC: spec.utc as boolean, unit: unitOf(unit) } } }));
      return;
    }
    case 'time': {
      const unit = timeUnit(spec, path);
      out.push(element(name, repetition, id, { type: unit === 'millis' ? Type.INT32 : Type.INT64, logical: { TIME: { isAdjustedToUTC: spec.utc as boolean, unit: unitOf(unit) } } }));
      return;
    }
    case 'fixed': {
      if (!intIn(spec.length, 1, MAX_I32)) throw specError(path, `fixed 'length' must be a positive int32, got ${describe(spec.length)}`);
      out.push(element(name, repetition, id, { type: Type.FIXED_LEN_BYTE_ARRAY, length: spec.length }));
      return;
    }
    case 'geometry': {
      const crs = crsOf(spec, path);
      out.push(element(name, repetition, id, { type: Type.BYTE_ARRAY, logical: { GEOMETRY: crs === undefined ? {} : { crs } } }));
      return;
    }
    case 'geography': {
      const crs = crsOf(spec, path);
      const a = spec.algorithm;
      if (a !== undefined && (typeof a !== 'string' || !own(ALGORITHMS, a))) {
        throw specError(path, `geography 'algorithm' must be one of ${Object.keys(ALGORITHMS).join(', ')}, got ${describe(a)}`);
      }
      const g: { crs?: string; algorithm?: EdgeInterpolationAlgorithm } = {};
      if (crs !== undefined) g.crs = crs;
      if (a !== undefined) g.algorithm = ALGORITHMS[a as EdgeAlgorithmName];
      out.push(element(name, repetition, id, { type: Type.BYTE_ARRAY, logical: { GEOGRAPHY: g } }));
      return;
    }
    case 'variant': {
      const shredding = spec.shredding;
      out.push(element(name, repetition, id, { children: shredding === undefined ? 2 : 3, logical: { VARIANT: { specification_version: 1 } } }));
      out.push(element('metadata', FieldRepetitionType.REQUIRED, undefined, { type: Type.BYTE_ARRAY }));
      out.push(element('value', shredding === undefined ? FieldRepetitionType.REQUIRED : FieldRepetitionType.OPTIONAL, undefined, { type: Type.BYTE_ARRAY }));
      if (shredding !== undefined) emitShredded(out, shredding, `${path}.typed_value`, depth + 1);
      return;
    }
    case 'list': {
      out.push(element(name, repetition, id, { children: 1, logical: { LIST: {} } }));
      out.push(element('list', FieldRepetitionType.REPEATED, undefined, { children: 1 }));
      emitField(out, 'element', spec.element, `${path}.list.element`, depth + 2);
      return;
    }
    case 'map': {
      const hasValue = spec.value !== undefined;
      out.push(element(name, repetition, id, { children: 1, logical: { MAP: {} } }));
      out.push(element('key_value', FieldRepetitionType.REPEATED, undefined, { children: hasValue ? 2 : 1 }));
      const keyPath = `${path}.key_value.key`;
      if (isObject(spec.key) && spec.key.required === false) throw specError(keyPath, 'a map key is always required, got required: false');
      emitField(out, 'key', spec.key, keyPath, depth + 2, FieldRepetitionType.REQUIRED);
      if (hasValue) emitField(out, 'value', spec.value, `${path}.key_value.value`, depth + 2);
      return;
    }
    case 'struct': {
      const fields = spec.fields;
      if (!isObject(fields)) throw specError(path, `struct 'fields' must be an object of field specs, got ${describe(fields)}`);
      const names = Object.keys(fields);
      if (names.length === 0) throw specError(path, 'a struct needs at least one field (Parquet has no empty groups)');
      out.push(element(name, repetition, id, { children: names.length }));
      for (const n of names) emitField(out, n, fields[n], `${path}.${n}`, depth + 1);
      return;
    }
  }
  throw specError(path, `unknown type ${describe(t)}`); // unreachable: checkSpecObject knows every type
}

function crsOf(spec: Record<string, unknown>, path: string): string | undefined {
  const crs = spec.crs;
  if (crs !== undefined && typeof crs !== 'string') throw specError(path, `'crs' must be a string, got ${describe(crs)}`);
  return crs;
}

const SHREDDABLE = 'boolean, int32, int64, int (signed), float, double, decimal (precision <= 38), date, time (micros, utc: false), ' +
  'timestamp (micros or nanos), binary, string, uuid, list, struct';

/** A shredded Variant `typed_value` (OPTIONAL) for `raw`, limited to the types VariantShredding.md allows. */
function emitShredded(out: SchemaElement[], raw: unknown, path: string, depth: number): void {
  if (depth > MAX_SCHEMA_DEPTH) throw tooDeep(path);
  checkSpecObject(raw, path);
  const spec = raw;
  if (spec.required !== undefined || spec.fieldId !== undefined) {
    throw specError(path, "a shredded Variant type takes no 'required' or 'fieldId': VariantShredding.md fixes its repetitions");
  }
  const bad = (why: string): ParquetError => specError(path, `cannot shred a Variant as ${why}; shreddable types are ${SHREDDABLE}`);
  switch (spec.type) {
    case 'boolean': case 'int32': case 'int64': case 'float': case 'double': case 'date': case 'binary': case 'string': case 'uuid':
      emitField(out, 'typed_value', spec, path, depth, FieldRepetitionType.OPTIONAL);
      return;
    case 'int':
      if (spec.signed === false) throw bad(`an unsigned int (${describe(spec.bitWidth)} bits)`);
      emitField(out, 'typed_value', spec, path, depth, FieldRepetitionType.OPTIONAL);
      return;
    case 'decimal': {
      const d = decimalLayout(spec, path, 38);
      out.push(element('typed_value', FieldRepetitionType.OPTIONAL, undefined, d));
      return;
    }
    case 'time':
      timeUnit(spec, path);
      if (spec.unit !== 'micros' || spec.utc !== false) throw bad(`time(${String(spec.unit)}, utc: ${String(spec.utc)}) (only time(micros, utc: false))`);
      emitField(out, 'typed_value', spec, path, depth, FieldRepetitionType.OPTIONAL);
      return;
    case 'timestamp':
      timeUnit(spec, path);
      if (spec.unit === 'millis') throw bad('timestamp(millis) (only micros or nanos)');
      emitField(out, 'typed_value', spec, path, depth, FieldRepetitionType.OPTIONAL);
      return;
    case 'list':
      out.push(element('typed_value', FieldRepetitionType.OPTIONAL, undefined, { children: 1, logical: { LIST: {} } }));
      out.push(element('list', FieldRepetitionType.REPEATED, undefined, { children: 1 }));
      emitSlot(out, 'element', spec.element, `${path}.list.element`, depth + 2);
      return;
    case 'struct': {
      const fields = spec.fields;
      if (!isObject(fields)) throw specError(path, `struct 'fields' must be an object of field specs, got ${describe(fields)}`);
      const names = Object.keys(fields);
      if (names.length === 0) throw specError(path, 'a shredded object needs at least one field (Parquet has no empty groups)');
      out.push(element('typed_value', FieldRepetitionType.OPTIONAL, undefined, { children: names.length }));
      for (const n of names) {
        checkName(n, `${path}.${n}`);
        emitSlot(out, n, fields[n], `${path}.${n}`, depth + 1);
      }
      return;
    }
    default:
      throw bad(`'${spec.type}'`);
  }
}

/** A REQUIRED `{ optional binary value; typed_value }` group: a shredded array element or object field. */
function emitSlot(out: SchemaElement[], name: string, raw: unknown, path: string, depth: number): void {
  out.push(element(name, FieldRepetitionType.REQUIRED, undefined, { children: 2 }));
  out.push(element('value', FieldRepetitionType.OPTIONAL, undefined, { type: Type.BYTE_ARRAY }));
  emitShredded(out, raw, `${path}.typed_value`, depth + 1);
}

/**
 * Translates a schema spec into the footer's `SchemaElement` list: the root (named `schema`, no repetition) first,
 * then each field depth-first, with repetition, LogicalType, ConvertedType, DECIMAL scale/precision and `field_id`
 * as the module header describes.
 *
 * @param spec - the top-level fields, in key order (at least one).
 * @returns a new element list, ready for `buildSchemaTree` and `FileMetaData.schema`.
 * @throws ParquetError `INVALID_SCHEMA` (message `parquet-writer: field '<path>': …`) for an empty schema or struct, an
 *   empty name, an unknown type or property, a non-boolean `required`, a `fieldId` that is not an int32, a DECIMAL
 *   precision outside 1..9 (INT32), 1..18 (INT64), what `byteLength` bytes hold (FIXED) or 1..{@link MAX_DECIMAL_PRECISION},
 *   a scale outside 0..precision, a FIXED length that is not a positive int32, a bad time unit, int width, `crs` or
 *   geography algorithm, `required: false` on a map key, a Variant shredded as a type VariantShredding.md does not
 *   allow, or nesting deeper than `MAX_SCHEMA_DEPTH` (256; also what a cyclic spec gives).
 */
export function schemaElements(spec: SchemaSpec): SchemaElement[] {
  if (!isObject(spec)) throw new ParquetError('INVALID_SCHEMA', `parquet-writer: schema: expected an object of field specs, got ${describe(spec)}`);
  const names = Object.keys(spec);
  if (names.length === 0) throw new ParquetError('INVALID_SCHEMA', 'parquet-writer: schema: no fields, expected at least one');
  const out: SchemaElement[] = [{ name: 'schema', num_children: names.length }];
  for (const n of names) emitField(out, n, spec[n], n, 1);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Copying a file's schema

const TYPE_MAX = Type.FIXED_LEN_BYTE_ARRAY;

function copyError(index: number, what: string): ParquetError {
  return new ParquetError('INVALID_SCHEMA', `parquet-writer: schema element ${index}: ${what}`);
}

const MAX_COPY_DEPTH = 16;

/** Deep copy of a thrift union/struct value made of plain objects, numbers, strings and booleans. */
function copyPlain(v: unknown, index: number, depth: number): unknown {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'function' || typeof v === 'symbol') throw copyError(index, `logicalType holds a ${typeof v}`);
    return v;
  }
  if (depth > MAX_COPY_DEPTH) throw copyError(index, `logicalType nested deeper than ${MAX_COPY_DEPTH}`);
  if (Array.isArray(v)) return v.map((x) => copyPlain(x, index, depth + 1));
  const o: Record<string, unknown> = {};
  for (const k of Object.keys(v)) o[k] = copyPlain((v as Record<string, unknown>)[k], index, depth + 1);
  return o;
}

const INT_FIELDS = ['type_length', 'num_children', 'scale', 'precision', 'field_id'] as const;

function copyElement(raw: unknown, index: number): SchemaElement {
  if (!isObject(raw)) throw copyError(index, `expected a SchemaElement object, got ${describe(raw)}`);
  if (typeof raw.name !== 'string') throw copyError(index, `'name' must be a string, got ${describe(raw.name)}`);
  const e: SchemaElement = {} as SchemaElement;
  const type = raw.type;
  if (type !== undefined) {
    if (!intIn(type, 0, TYPE_MAX)) throw copyError(index, `('${raw.name}') unknown physical type ${describe(type)}`);
    e.type = type as Type;
  }
  for (const k of INT_FIELDS) {
    const v = raw[k];
    if (v !== undefined && !intIn(v, -0x80000000, MAX_I32)) throw copyError(index, `('${raw.name}') '${k}' must be an int32, got ${describe(v)}`);
  }
  if (raw.type_length !== undefined) e.type_length = raw.type_length as number;
  if (raw.repetition_type !== undefined) {
    if (!intIn(raw.repetition_type, 0, 2)) throw copyError(index, `('${raw.name}') unknown repetition_type ${describe(raw.repetition_type)}`);
    e.repetition_type = raw.repetition_type as FieldRepetitionType;
  }
  e.name = raw.name;
  if (raw.num_children !== undefined) e.num_children = raw.num_children as number;
  if (raw.converted_type !== undefined) {
    if (!intIn(raw.converted_type, 0, MAX_I32)) throw copyError(index, `('${raw.name}') converted_type must be an enum value, got ${describe(raw.converted_type)}`);
    e.converted_type = raw.converted_type as ConvertedType;
  }
  if (raw.scale !== undefined) e.scale = raw.scale as number;
  if (raw.precision !== undefined) e.precision = raw.precision as number;
  if (raw.field_id !== undefined) e.field_id = raw.field_id as number;
  if (raw.logicalType !== undefined) {
    if (!isObject(raw.logicalType)) throw copyError(index, `('${raw.name}') logicalType must be an object, got ${describe(raw.logicalType)}`);
    e.logicalType = copyPlain(raw.logicalType, index, 0) as LogicalType;
  }
  if (type === Type.FIXED_LEN_BYTE_ARRAY && !(typeof e.type_length === 'number' && e.type_length > 0)) {
    throw copyError(index, `('${raw.name}') FIXED_LEN_BYTE_ARRAY needs a positive type_length, got ${describe(raw.type_length)}`);
  }
  return e;
}

/**
 * Accepts an existing file's schema as is, so a file read with `@parquetry/parquet-reader` can be written back with
 * the same schema (`schemaFromElements(file.metadata.schema)` or `schemaFromElements(file.schema)`). Returns a deep
 * copy (later changes to the input do not reach the writer) after validating it the way the reader does
 * (`buildSchemaTree`: `num_children` consistent, primitives childless, known repetitions, bounded depth), plus what
 * a writer needs: known physical types, int32 numbers, and a positive `type_length` on every FIXED_LEN_BYTE_ARRAY;
 * and every annotation (`logicalType`, and the legacy `converted_type` alike) on what LogicalTypes.md allows for it:
 * STRING, ENUM, JSON, BSON, GEOMETRY and GEOGRAPHY on BYTE_ARRAY; UUID on FIXED_LEN_BYTE_ARRAY(16); FLOAT16 on
 * FIXED_LEN_BYTE_ARRAY(2); INTERVAL on FIXED_LEN_BYTE_ARRAY(12); DATE and TIME(MILLIS) on INT32; TIME(MICROS/NANOS)
 * and TIMESTAMP on INT64; INTEGER(8/16/32) on INT32 and INTEGER(64) on INT64; DECIMAL as `checkDecimals` of
 * `@parquetry/parquet-levels` says; LIST, MAP and VARIANT on groups of the spec's structure (a MAP key REQUIRED,
 * except in a legacy `MAP_KEY_VALUE` key_value group); no group without children. Unknown LogicalType members and
 * the spec's backward-compatible layouts (2-level lists, `MAP_KEY_VALUE`) are kept unchanged.
 *
 * @param schema - `FileMetaData.schema`, or the reader's `SchemaTree` (its `elements` are used).
 * @returns a copy of the element list, deep-equal to the input.
 * @throws ParquetError `INVALID_SCHEMA` when the input is not an element list or schema tree, an element is not an
 *   object with a string `name`, a number field is not an int32, the physical type or repetition is unknown, a
 *   FIXED_LEN_BYTE_ARRAY has no positive `type_length`, the tree does not build (see `buildSchemaTree`), or an
 *   annotation breaks the rules above (the message names the field path and the schema element).
 */
export function schemaFromElements(schema: readonly SchemaElement[] | SchemaTree): SchemaElement[] {
  const list: unknown = Array.isArray(schema) ? schema : isObject(schema) && Array.isArray(schema.elements) ? schema.elements : undefined;
  if (!Array.isArray(list)) {
    throw new ParquetError('INVALID_SCHEMA', `parquet-writer: schema: expected a SchemaElement list or a SchemaTree, got ${describe(schema)}`);
  }
  const copy = list.map((e: unknown, i: number) => copyElement(e, i));
  let tree: SchemaTree;
  try {
    tree = buildSchemaTree(copy);
    checkDecimals(tree);
  } catch (e) {
    if (e instanceof ParquetError) {
      throw new ParquetError('INVALID_SCHEMA', `parquet-writer: schema: ${e.message}`, undefined, { cause: e });
    }
    throw new ParquetError('INVALID_SCHEMA', `parquet-writer: schema: the tree does not build: ${String(e)}`, undefined, { cause: e });
  }
  for (const c of tree.root.children) checkAnnotations(c, undefined);
  return copy;
}

// ---------------------------------------------------------------------------------------------------------------
// Annotations against physical types (LogicalTypes.md)

function annotationError(node: SchemaNode, what: string): ParquetError {
  return new ParquetError('INVALID_SCHEMA', `parquet-writer: schema: field '${node.path.join('.')}' (schema element ${node.elementIndex}): ${what}`);
}

/** The physical type of a leaf for messages, e.g. `FIXED_LEN_BYTE_ARRAY(8)`. */
function physicalName(e: SchemaElement): string {
  if (e.type === undefined) return 'a group';
  const name = TypeNames[e.type] ?? String(e.type);
  return e.type === Type.FIXED_LEN_BYTE_ARRAY ? `${name}(${String(e.type_length)})` : name;
}

/** The annotation's name for messages: the LogicalType member, or `converted_type NAME`. */
function annotationName(lt: LogicalType, converted: boolean): string {
  const key = Object.keys(lt)[0] ?? '';
  let name = key;
  if (lt.INTEGER) name = `INTEGER(${lt.INTEGER.bitWidth}, ${lt.INTEGER.isSigned ? 'signed' : 'unsigned'})`;
  else if (lt.TIME || lt.TIMESTAMP) name = `${key}(${Object.keys((lt.TIME ?? lt.TIMESTAMP)!.unit ?? {})[0] ?? 'no unit'})`;
  return converted ? `converted_type ${name}` : name;
}

const GROUP_ANNOTATIONS = ['LIST', 'MAP', 'VARIANT', 'FILE'] as const;

/**
 * What a leaf annotation requires of the physical type, or '' when `e` satisfies it. Members this library does not
 * know (and UNKNOWN, which annotates any always-null column) require nothing. DECIMAL is {@link checkDecimals}'.
 */
function leafRule(lt: LogicalType, e: SchemaElement): string {
  const t = e.type;
  const flba = (n: number): boolean => t === Type.FIXED_LEN_BYTE_ARRAY && e.type_length === n;
  if (lt.STRING || lt.ENUM || lt.JSON || lt.BSON || lt.GEOMETRY || lt.GEOGRAPHY) return t === Type.BYTE_ARRAY ? '' : 'it annotates BYTE_ARRAY only';
  if (lt.UUID) return flba(16) ? '' : 'it annotates FIXED_LEN_BYTE_ARRAY(16) only';
  if (lt.FLOAT16) return flba(2) ? '' : 'it annotates FIXED_LEN_BYTE_ARRAY(2) only';
  if (lt.DATE) return t === Type.INT32 ? '' : 'it annotates INT32 only';
  if (lt.TIME) {
    const u = lt.TIME.unit;
    if (u?.MILLIS) return t === Type.INT32 ? '' : 'TIME(MILLIS) annotates INT32 only';
    if (u?.MICROS || u?.NANOS) return t === Type.INT64 ? '' : `TIME(${u.MICROS ? 'MICROS' : 'NANOS'}) annotates INT64 only`;
    return 'its unit is none of MILLIS, MICROS, NANOS';
  }
  if (lt.TIMESTAMP) {
    const u = lt.TIMESTAMP.unit;
    if (!(u?.MILLIS || u?.MICROS || u?.NANOS)) return 'its unit is none of MILLIS, MICROS, NANOS';
    return t === Type.INT64 ? '' : 'it annotates INT64 only';
  }
  if (lt.INTEGER) {
    const w = lt.INTEGER.bitWidth;
    if (w === 8 || w === 16 || w === 32) return t === Type.INT32 ? '' : `bit width ${w} annotates INT32 only`;
    if (w === 64) return t === Type.INT64 ? '' : 'bit width 64 annotates INT64 only';
    return `bit width ${String(w)} is none of 8, 16, 32, 64`;
  }
  for (const g of GROUP_ANNOTATIONS) if (lt[g] !== undefined) return 'it annotates a group, not a primitive';
  return '';
}

/** Whether `node` is the repeated level of a LIST-annotated group (where a 2-level LIST may itself be repeated). */
function isListLevel(node: SchemaNode, parent: SchemaNode | undefined): boolean {
  return parent !== undefined && isList(parent) && parent.children.length === 1 && parent.children[0] === node;
}

const isList = (n: SchemaNode): boolean => n.element.logicalType?.LIST !== undefined || n.element.converted_type === ConvertedType.LIST;

/** What a group annotation requires of the group's structure, or ''. */
function groupRule(lt: LogicalType, node: SchemaNode, parent: SchemaNode | undefined): string {
  const kids = node.children;
  const repeatedOnly = kids.length === 1 && kids[0]!.repetition === FieldRepetitionType.REPEATED;
  if (lt.LIST) {
    if (!repeatedOnly) return `a LIST group holds exactly one REPEATED field (the list level), got ${kids.length === 1 ? `a ${FieldRepetitionTypeNames[kids[0]!.repetition]} one` : `${kids.length} fields`}`;
    // a 2-level LIST may be repeated only as the element of another LIST (LogicalTypes.md, backward-compatibility rules)
    if (node.repetition === FieldRepetitionType.REPEATED && !isListLevel(node, parent)) return 'a LIST group is OPTIONAL or REQUIRED';
    return '';
  }
  if (lt.MAP) {
    if (!repeatedOnly) return `a MAP group holds exactly one REPEATED group (key_value), got ${kids.length === 1 ? `a ${FieldRepetitionTypeNames[kids[0]!.repetition]} field` : `${kids.length} fields`}`;
    if (node.repetition === FieldRepetitionType.REPEATED) return 'a MAP group is OPTIONAL or REQUIRED';
    const kv = kids[0]!;
    if (kv.element.type !== undefined) return 'its key_value level is a primitive, expected a group of a key and an optional value';
    if (kv.children.length !== 1 && kv.children.length !== 2) return `its key_value group holds a key and an optional value, got ${kv.children.length} fields`;
    // a legacy key_value group marked MAP_KEY_VALUE (Hive's layout, e.g. the corpus's incorrect_map_schema) is
    // copied as is, so that such files can be rewritten and appended to; a new MAP has a REQUIRED key
    if (kv.children[0]!.repetition !== FieldRepetitionType.REQUIRED && kv.element.converted_type !== ConvertedType.MAP_KEY_VALUE) return `the map key '${kv.children[0]!.path.join('.')}' is ${FieldRepetitionTypeNames[kv.children[0]!.repetition]}, a map key is always REQUIRED`;
    return '';
  }
  if (lt.VARIANT) {
    const metadata = kids.find((k) => k.name === 'metadata');
    const value = kids.find((k) => k.name === 'value');
    const typed = kids.find((k) => k.name === 'typed_value');
    if (!metadata || metadata.element.type !== Type.BYTE_ARRAY || metadata.repetition !== FieldRepetitionType.REQUIRED) return 'a VARIANT group holds a REQUIRED BYTE_ARRAY field named metadata';
    if (value ? value.element.type !== Type.BYTE_ARRAY || value.repetition === FieldRepetitionType.REPEATED : !typed) return 'a VARIANT group holds a BYTE_ARRAY field named value (REQUIRED, or OPTIONAL next to a typed_value)';
    return '';
  }
  if (lt.FILE !== undefined) return '';
  // a leaf annotation on a group; members this library does not know are kept
  return Object.keys(lt).some((k) => LEAF_ANNOTATIONS.has(k)) ? 'it annotates a primitive, not a group' : '';
}

const LEAF_ANNOTATIONS = new Set(['STRING', 'ENUM', 'JSON', 'BSON', 'GEOMETRY', 'GEOGRAPHY', 'UUID', 'FLOAT16', 'DATE', 'TIME', 'TIMESTAMP', 'INTEGER', 'DECIMAL', 'UNKNOWN']);

/**
 * Checks `node` and its descendants: every annotation on a physical type (or group structure) LogicalTypes.md
 * allows for it, from `logicalType` and from the legacy `converted_type` alike (readers take either), and no group
 * without children (which is also what an element without `type` and `num_children` reads as).
 */
function checkAnnotations(node: SchemaNode, parent: SchemaNode | undefined): void {
  const e = node.element;
  if (e.type === undefined && node.children.length === 0) {
    throw annotationError(node, e.num_children === undefined ? 'no physical type and no num_children: a primitive needs a type' : 'a group with no children (Parquet has no empty groups)');
  }
  const annotations: [LogicalType, boolean][] = [];
  if (e.logicalType && Object.keys(e.logicalType).length > 0) annotations.push([e.logicalType, false]);
  const ct = e.converted_type;
  if (ct !== undefined) {
    const lt = ct === ConvertedType.MAP_KEY_VALUE || ct === ConvertedType.INTERVAL ? undefined : logicalTypeFromConverted(ct, e.scale, e.precision);
    if (lt && lt.DECIMAL === undefined) annotations.push([lt, true]);
    if (ct === ConvertedType.MAP_KEY_VALUE && e.type !== undefined) throw annotationError(node, `converted_type MAP_KEY_VALUE on ${physicalName(e)}: it annotates a group, not a primitive`);
    if (ct === ConvertedType.INTERVAL && !(e.type === Type.FIXED_LEN_BYTE_ARRAY && e.type_length === 12)) throw annotationError(node, `converted_type INTERVAL on ${physicalName(e)}: it annotates FIXED_LEN_BYTE_ARRAY(12) only`);
  }
  for (const [lt, converted] of annotations) {
    const rule = e.type === undefined ? groupRule(lt, node, parent) : lt.DECIMAL ? '' : leafRule(lt, e);
    if (rule) throw annotationError(node, `${annotationName(lt, converted)} on ${physicalName(e)}: ${rule}`);
  }
  for (const c of node.children) checkAnnotations(c, node);
}
