/**
 * Parquet schema → Arrow schema, as Arrow C++ (pyarrow) and arrow-rs map it: the physical and logical types of
 * https://github.com/apache/parquet-format/blob/master/LogicalTypes.md to Arrow types, the nested types of
 * https://github.com/apache/parquet-format/blob/master/LogicalTypes.md#nested-types (lists with every
 * backward-compatibility rule, maps, structs) to Arrow `List`/`Map`/`Struct`, and the original Arrow types restored
 * from the `ARROW:schema` key/value metadata where Parquet cannot express them (time zones, large and view
 * binaries, dictionaries, durations, decimal widths, extension types, field metadata).
 *
 * | Parquet | Arrow |
 * | --- | --- |
 * | BOOLEAN | Bool |
 * | INT32 / INT64 (no annotation, signed INTEGER) | Int8/Int16/Int32/Int64 by bit width |
 * | INTEGER unsigned | Uint8/Uint16/Uint32/Uint64 |
 * | DECIMAL (any physical type) | Decimal128 up to precision 38, Decimal256 above |
 * | DATE | Date32 (DateDay) |
 * | TIME(MILLIS) / TIME(MICROS, NANOS) | Time32(ms) / Time64(us, ns) |
 * | TIMESTAMP(unit, isAdjustedToUTC) | Timestamp(unit, `'UTC'` when adjusted to UTC, else no zone) |
 * | INT96 | Timestamp(ns), no zone |
 * | FLOAT / DOUBLE / FLOAT16 | Float32 / Float64 / Float16 |
 * | STRING | Utf8 |
 * | JSON | Utf8 with extension `arrow.json` (as field metadata) |
 * | ENUM, BSON, GEOMETRY, GEOGRAPHY, no annotation (BYTE_ARRAY) | Binary |
 * | UUID | FixedSizeBinary(16) with extension `arrow.uuid` |
 * | INTERVAL, no annotation (FIXED_LEN_BYTE_ARRAY) | FixedSizeBinary(n) (Interval(YEAR_MONTH/DAY_TIME) when `ARROW:schema` says so) |
 * | UNKNOWN (always null) | Null |
 * | LIST / legacy lists / repeated fields | List (element named after the Parquet element node) |
 * | MAP | Map (a map without values: a List of its keys) |
 * | group | Struct |
 * | VARIANT | Struct of its stored `metadata`/`value` (and shredded) fields |
 *
 * A `field_id` becomes the field metadata `PARQUET:field_id`.
 *
 * @module
 */
import {
  Binary, BinaryView, Bool, DataType, DateDay, Decimal, Dictionary, Duration, Field as ArrowField, FixedSizeBinary, FixedSizeList, Float16, Float32, Float64, Interval, IntervalUnit,
  Int16, Int32, Int64, Int8, LargeBinary, LargeList, LargeUtf8, List, Map_, Null, Schema, Struct, Time, TimeUnit, Timestamp, Type as ArrowType, Uint16,
  Uint32, Uint64, Uint8, Utf8, Utf8View,
} from 'apache-arrow';
import type { ColumnDescriptor, Field, SchemaTree, StructField } from '@parquetry/parquet-levels';
import { pruneStruct } from '@parquetry/parquet-levels';
import { ParquetError, Type, type FileMetaData, type LogicalType, type TimeUnit as ParquetTimeUnit } from '@parquetry/thrift-compact';
import { ARROW_SCHEMA_KEY, decodeArrowSchema } from './ipc-schema.js';

/** Field metadata key of a Parquet `field_id` (as Arrow C++ and arrow-rs name it). */
export const FIELD_ID_KEY = 'PARQUET:field_id';
/** Field metadata key naming an Arrow extension type. */
export const EXTENSION_NAME_KEY = 'ARROW:extension:name';
/** Field metadata key of an Arrow extension type's parameters. */
export const EXTENSION_METADATA_KEY = 'ARROW:extension:metadata';

/** Options deciding the Arrow schema of a read. */
export interface ArrowSchemaOptions {
  /**
   * Columns to read, as dotted paths or path arrays; a group path selects every leaf under it (default: all). As in
   * the reader, a struct keeps only the children selected.
   *
   * The list also sets the order of the schema's top-level fields, as pyarrow's `pq.read_table(columns=[…])` does:
   * each at its first mention. A nested path (`s.b`) places its top-level field `s`, whose fields keep their schema
   * order (as `pq.ParquetFile.read` does; `pq.read_table` returns a flattened column `b` instead); a field mentioned
   * again is read once. Without `columns`, schema order.
   */
  columns?: readonly (string | readonly string[])[];
  /**
   * Read BYTE_ARRAY (Utf8/Binary) leaves as Arrow `Dictionary<Int32, …>` (Arrow C++'s `read_dictionary`): `true`
   * for every such leaf, or the dotted paths of the columns (a group path covers the leaves under it). Columns whose
   * `ARROW:schema` type is a dictionary are read as dictionaries anyway.
   */
  dictionary?: boolean | readonly (string | readonly string[])[];
  /**
   * Apply the `ARROW:schema` key/value metadata when the file has it (default true): the types the writer started
   * from come back (time zones, `large_string`, dictionaries, durations, decimal widths, extension metadata).
   */
  arrowSchema?: boolean;
}

/** The Arrow schema of a read and the Parquet fields it reads. */
export interface ArrowReadPlan {
  /** The Arrow schema of the read's table and batches. */
  readonly schema: Schema;
  /** The (projected) Parquet root field: its fields are parallel to `schema.fields`. */
  readonly root: StructField;
  /** Leaf columns read, by column index. */
  readonly selected: readonly boolean[];
}

function typeError(where: string, message: string): ParquetError {
  return new ParquetError('UNSUPPORTED_TYPE', `arrow: column '${where}': ${message}`);
}

const pathOf = (f: Field): string => f.node.path.join('.') || '<root>';

function unitOf(u: ParquetTimeUnit): TimeUnit {
  return u.MILLIS ? TimeUnit.MILLISECOND : u.MICROS ? TimeUnit.MICROSECOND : TimeUnit.NANOSECOND;
}

function decimalType(lt: NonNullable<LogicalType['DECIMAL']>, where: string): Decimal {
  const { precision, scale } = lt;
  if (!(precision >= 1 && precision <= 76)) throw typeError(where, `DECIMAL precision ${precision} is outside 1..76 (Decimal256 holds at most 76 digits)`);
  return new Decimal(scale, precision, precision <= 38 ? 128 : 256);
}

function extension(name: string): Map<string, string> {
  return new Map([[EXTENSION_METADATA_KEY, ''], [EXTENSION_NAME_KEY, name]]);
}

/** The Arrow type of a leaf column (and the field metadata an extension type brings). */
export function leafType(col: ColumnDescriptor): { type: DataType; metadata?: Map<string, string> } {
  const lt = col.node.logicalType;
  const where = col.pathString;
  if (lt?.UNKNOWN) return { type: new Null() };
  if (lt?.DECIMAL) return { type: decimalType(lt.DECIMAL, where) };
  switch (col.type) {
    case Type.BOOLEAN:
      return { type: new Bool() };
    case Type.INT32: {
      if (lt?.DATE) return { type: new DateDay() };
      if (lt?.TIME && lt.TIME.unit.MILLIS) return { type: new Time(TimeUnit.MILLISECOND, 32) };
      const int = lt?.INTEGER;
      if (int && int.bitWidth <= 32) {
        switch (int.bitWidth) {
          case 8: return { type: int.isSigned ? new Int8() : new Uint8() };
          case 16: return { type: int.isSigned ? new Int16() : new Uint16() };
          case 32: return { type: int.isSigned ? new Int32() : new Uint32() };
        }
      }
      return { type: new Int32() };
    }
    case Type.INT64: {
      if (lt?.TIMESTAMP) return { type: new Timestamp(unitOf(lt.TIMESTAMP.unit), lt.TIMESTAMP.isAdjustedToUTC ? 'UTC' : null) };
      if (lt?.TIME && !lt.TIME.unit.MILLIS) return { type: new Time(unitOf(lt.TIME.unit), 64) };
      if (lt?.INTEGER && lt.INTEGER.bitWidth === 64 && !lt.INTEGER.isSigned) return { type: new Uint64() };
      return { type: new Int64() };
    }
    case Type.INT96:
      return { type: new Timestamp(TimeUnit.NANOSECOND, null) };
    case Type.FLOAT:
      return { type: new Float32() };
    case Type.DOUBLE:
      return { type: new Float64() };
    case Type.BYTE_ARRAY:
      if (lt?.STRING) return { type: new Utf8() };
      if (lt?.JSON) return { type: new Utf8(), metadata: extension('arrow.json') };
      return { type: new Binary() };
    case Type.FIXED_LEN_BYTE_ARRAY: {
      const width = col.typeLength ?? 0;
      if (!(width > 0)) throw typeError(where, `FIXED_LEN_BYTE_ARRAY without a positive type_length (${String(col.typeLength)})`);
      if (lt?.FLOAT16 && width === 2) return { type: new Float16() };
      if (lt?.UUID && width === 16) return { type: new FixedSizeBinary(16), metadata: extension('arrow.uuid') };
      return { type: new FixedSizeBinary(width) };
    }
    default:
      throw typeError(where, `unknown physical type ${String(col.type)}`);
  }
}

/** Field metadata from the Parquet node (`PARQUET:field_id`), merged with `extra`. */
function fieldMetadata(f: Field, extra?: Map<string, string>): Map<string, string> {
  const m = new Map<string, string>();
  const id = f.node.element.field_id;
  if (id !== undefined && id >= 0) m.set(FIELD_ID_KEY, String(id));
  if (extra) for (const [k, v] of extra) m.set(k, v);
  return m;
}

/** The Arrow field of a Parquet field (already projected), `origin` the matching `ARROW:schema` field if any. */
function toArrowField(f: Field, name: string, nullable: boolean, schema: SchemaTree, ctx: Context, origin: ArrowField | undefined): ArrowField {
  let type: DataType;
  let meta: Map<string, string> | undefined;
  switch (f.kind) {
    case 'leaf': {
      const col = schema.columns[f.column]!;
      const t = leafType(col);
      type = t.type;
      meta = t.metadata;
      if (ctx.dictionary(col) && isDictionaryValue(type)) type = new Dictionary(type, new Int32());
      break;
    }
    case 'struct': {
      const originKids = origin && origin.type.typeId === ArrowType.Struct && origin.type.children.length === f.node.children.length ? (origin.type.children as ArrowField[]) : undefined;
      const kids = f.fields.map((c) => toArrowField(c, c.node.name, c.nullable, schema, ctx, originKids?.[f.node.children.indexOf(c.node)]));
      type = new Struct(kids);
      break;
    }
    case 'list': {
      const o = origin && (origin.type.typeId === ArrowType.List || origin.type.typeId === ArrowType.LargeList) ? (origin.type.children[0] as ArrowField | undefined) : undefined;
      const el = toArrowField(f.element, f.element.node.name, f.element.nullable, schema, ctx, o);
      type = new List(el);
      break;
    }
    case 'map': {
      if (f.key.nullable) throw typeError(pathOf(f), `map key '${f.key.node.name}' is optional; Arrow map keys must be required (as Arrow C++ requires)`);
      if (f.value === undefined) {
        // Arrow C++: a map without values is a list of its keys
        const o = origin && origin.type.typeId === ArrowType.List ? (origin.type.children[0] as ArrowField | undefined) : undefined;
        type = new List(toArrowField(f.key, f.key.node.name, false, schema, ctx, o));
        break;
      }
      const entries = origin && origin.type.typeId === ArrowType.Map ? (origin.type.children[0] as ArrowField | undefined) : undefined;
      const ek = entries?.type.children as ArrowField[] | undefined;
      const key = toArrowField(f.key, f.key.node.name, false, schema, ctx, ek?.[0]);
      const value = toArrowField(f.value, f.value.node.name, f.value.nullable, schema, ctx, ek?.[1]);
      type = new Map_(new ArrowField(f.node.name, new Struct([key, value] as ArrowField[]) as Struct, false) as never, false);
      break;
    }
  }
  let field = new ArrowField(name, type, nullable, fieldMetadata(f, meta));
  if (origin) field = applyOrigin(field, origin);
  return field;
}

/** Whether Arrow C++ reads a Parquet column of this type as a dictionary directly (binary-like values). */
function isDictionaryValue(t: DataType): boolean {
  const id = t.typeId;
  return id === ArrowType.Utf8 || id === ArrowType.Binary || id === ArrowType.LargeUtf8 || id === ArrowType.LargeBinary || id === ArrowType.Utf8View || id === ArrowType.BinaryView;
}

function sameDecimal(a: DataType, b: DataType): boolean {
  return a.typeId === ArrowType.Decimal && b.typeId === ArrowType.Decimal && (a as Decimal).precision === (b as Decimal).precision && (a as Decimal).scale === (b as Decimal).scale;
}

/**
 * Restores what the original Arrow field had and Parquet could not keep, as Arrow C++ does
 * (`ApplyOriginalMetadata`): the time zone of a UTC timestamp, a duration stored as int64, large/view variants of
 * binary, string and list types, the decimal width, a dictionary of binary-like values, and the field metadata
 * (extension types included). Anything else keeps the type the Parquet schema gives.
 */
function applyOrigin(f: ArrowField, origin: ArrowField): ArrowField {
  const t = f.type as DataType;
  const o = origin.type as DataType;
  let type: DataType = t;
  if (t.typeId === ArrowType.Timestamp && o.typeId === ArrowType.Timestamp) {
    const tz = (o as Timestamp).timezone;
    if ((t as Timestamp).timezone === 'UTC' && tz) type = new Timestamp((t as Timestamp).unit, tz);
  } else if (t.typeId === ArrowType.Int && o.typeId === ArrowType.Duration && (t as Int64).bitWidth === 64 && (t as Int64).isSigned) {
    type = new Duration((o as Duration).unit);
  } else if (t.typeId === ArrowType.Utf8 && (o.typeId === ArrowType.LargeUtf8 || o.typeId === ArrowType.Utf8View)) {
    type = o.typeId === ArrowType.LargeUtf8 ? new LargeUtf8() : new Utf8View();
  } else if (t.typeId === ArrowType.Binary && (o.typeId === ArrowType.LargeBinary || o.typeId === ArrowType.BinaryView)) {
    type = o.typeId === ArrowType.LargeBinary ? new LargeBinary() : new BinaryView();
  } else if (t.typeId === ArrowType.List && o.typeId === ArrowType.LargeList) {
    type = new LargeList(t.children[0] as ArrowField);
  } else if (sameDecimal(t, o) && (o as Decimal).bitWidth !== (t as Decimal).bitWidth) {
    type = new Decimal((t as Decimal).scale, (t as Decimal).precision, (o as Decimal).bitWidth);
  } else if (t.typeId === ArrowType.List && o.typeId === ArrowType.FixedSizeList) {
    type = new FixedSizeList((o as FixedSizeList).listSize, t.children[0] as ArrowField);
  } else if (t.typeId === ArrowType.FixedSizeBinary && (t as FixedSizeBinary).byteWidth === 12 && o.typeId === ArrowType.Interval && (o as Interval).unit !== IntervalUnit.MONTH_DAY_NANO) {
    // an Arrow interval stored as INTERVAL (as arrow-rs writes Interval(YEAR_MONTH) and Interval(DAY_TIME)); without
    // the stored schema it reads as FixedSizeBinary(12), as Arrow C++ reads INTERVAL
    type = new Interval((o as Interval).unit);
  } else if (o.typeId === ArrowType.Dictionary && isDictionaryValue(t)) {
    // the values keep the type the Parquet column gives (a large_string dictionary reads as a string one)
    const od = o as Dictionary;
    type = new Dictionary(t, od.indices, null, od.isOrdered);
  }
  const metadata = new Map(f.metadata);
  for (const [k, v] of origin.metadata) metadata.set(k, v);
  return new ArrowField(f.name, type, f.nullable, metadata);
}

/** How a read decides which leaves become dictionaries. */
interface Context {
  dictionary(col: ColumnDescriptor): boolean;
}

function matches(paths: readonly (string | readonly string[])[], col: ColumnDescriptor): boolean {
  return paths.some((p) => {
    const w = typeof p === 'string' ? p.split('.') : p;
    return w.length <= col.path.length && w.every((s, i) => col.path[i] === s);
  });
}

/**
 * The leaves a projection selects, as the reader selects them.
 * @throws ParquetError `UNKNOWN_COLUMN` for a path that names no column.
 */
function selectColumns(schema: SchemaTree, columns: ArrowSchemaOptions['columns']): boolean[] {
  if (!columns) return schema.columns.map(() => true);
  for (const c of columns) {
    if (!schema.columns.some((col) => matches([c], col))) {
      throw new ParquetError('UNKNOWN_COLUMN', `arrow: no column '${typeof c === 'string' ? c : c.join('.')}' in the schema`);
    }
  }
  return schema.columns.map((col) => matches(columns, col));
}

/**
 * The projected root with its fields in the order `columns` first mentions each (see
 * {@link ArrowSchemaOptions.columns}); the same root when there is no `columns` or it follows the schema's order.
 */
function inColumnOrder(root: StructField, schema: SchemaTree, columns: ArrowSchemaOptions['columns']): StructField {
  if (!columns) return root;
  const fields: Field[] = [];
  for (const c of columns) {
    for (const f of root.fields) {
      if (!fields.includes(f) && f.leaves.some((i) => matches([c], schema.columns[i]!))) fields.push(f);
    }
  }
  return fields.every((f, k) => f === root.fields[k]) ? root : { ...root, fields };
}

/**
 * The original Arrow schema stored in the file's `ARROW:schema` metadata, when it has one that decodes.
 * @param metadata - the file's footer.
 * @returns the schema, or `undefined` (no key, or a value that is not an IPC schema).
 */
export function storedArrowSchema(metadata: Pick<FileMetaData, 'key_value_metadata'>): Schema | undefined {
  const kv = metadata.key_value_metadata?.find((e) => e.key === ARROW_SCHEMA_KEY);
  if (kv?.value === undefined) return undefined;
  try {
    return decodeArrowSchema(kv.value);
  } catch {
    // as Arrow C++ does for an unreadable stored schema: read with the types the Parquet schema gives
    return undefined;
  }
}

/**
 * Plans the Arrow side of a read: the Arrow schema and the projected Parquet fields it reads.
 * @param schema - the file's schema tree.
 * @param metadata - the file's footer (key/value metadata for `ARROW:schema` and the schema's metadata).
 * @param options - projection, dictionary columns, whether to apply `ARROW:schema`.
 * @param stored - a dataset's stored Arrow schema (its files', merged by field name), applied by field name instead of the metadata's.
 * @returns the plan.
 * @throws ParquetError `UNKNOWN_COLUMN` for a projection path naming no column; `UNSUPPORTED_TYPE` for a column Arrow
 *   cannot hold (a map with optional keys, a DECIMAL over 76 digits, FIXED_LEN_BYTE_ARRAY without a length).
 */
export function planArrowRead(schema: SchemaTree, metadata: Pick<FileMetaData, 'key_value_metadata'>, options: ArrowSchemaOptions = {}, stored?: Schema): ArrowReadPlan {
  const selected = selectColumns(schema, options.columns);
  const root = inColumnOrder(pruneStruct(schema.field, selected), schema, options.columns);
  const dict = options.dictionary;
  const ctx: Context = {
    dictionary: (col) => (dict === true ? true : Array.isArray(dict) ? matches(dict, col) : false),
  };
  const origin = options.arrowSchema === false ? undefined : (stored ?? storedArrowSchema(metadata));
  // a file's stored schema applies only when it has one field per top-level Parquet field, as in Arrow C++; a
  // dataset's (`stored`: its files' merged by name, which may lack columns no file stores and has no partition columns)
  // applies by name
  const originFields = stored === undefined && origin && origin.fields.length === schema.field.node.children.length ? origin.fields : undefined;
  const originOf = (f: Field): ArrowField | undefined =>
    stored !== undefined ? origin?.fields.find((o) => o.name === f.node.name) : originFields?.[schema.field.node.children.indexOf(f.node)];
  const fields = root.fields.map((f) => toArrowField(f, f.node.name, f.nullable, schema, ctx, originOf(f)));
  // the schema's metadata: the stored schema's when there is one (as Arrow C++ reads it), else the file's key/value
  // metadata
  let md: Map<string, string> | null = null;
  const kv = metadata.key_value_metadata;
  if (origin) md = new Map(origin.metadata);
  else if (kv) {
    md = new Map();
    for (const e of kv) if (e.key !== ARROW_SCHEMA_KEY) md.set(e.key, e.value ?? '');
  }
  return { schema: new Schema(fields, md), root, selected };
}
