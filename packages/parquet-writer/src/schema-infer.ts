/**
 * Schema inference from rows: the {@link SchemaSpec} that writes a set of JavaScript rows so that
 * `@parquetry/parquet-reader` reads the same values back where the value mapping allows it (the reader's mapping is
 * the contract: `@parquetry/parquet-column`, `to-js.ts`). Types are chosen per
 * https://github.com/apache/parquet-format/blob/master/LogicalTypes.md and nested values become the standard 3-level
 * LIST and MAP layouts (LogicalTypes.md, "Nested Types").
 *
 * Rules, per column (a column is a top-level key, a struct member, a list element, a map key or a map value):
 *
 * | values | inferred | why |
 * | --- | --- | --- |
 * | `boolean` | BOOLEAN | |
 * | `number`, all integers in int32 range (and no `-0`) | INT32 | reads back as the same `number` |
 * | `number`, otherwise | DOUBLE | holds every JS number exactly (INT64 would read back as `bigint`) |
 * | `bigint` in int64 range | INT64 | the reader returns INT64 as `bigint` |
 * | `bigint`, some above 2^63-1, none negative, all below 2^64 | INTEGER(64, unsigned) | read back as unsigned `bigint` |
 * | `string` | STRING | |
 * | `Uint8Array` (and `Buffer`) | BYTE_ARRAY | |
 * | `Date` | TIMESTAMP(MILLIS, isAdjustedToUTC) | a `Date` is a UTC instant in whole milliseconds |
 * | array | LIST of the elements' type | |
 * | `Map` | MAP of the keys' and values' types | |
 * | plain object | STRUCT of the union of keys, in first-seen order | |
 * | only `null`/`undefined`/missing, or only empty arrays/maps | STRING | nothing to go by; every value reads back the same |
 *
 * Every field is OPTIONAL (null and missing values need no special case), including list elements and map values;
 * map keys are REQUIRED as the spec demands, so a `null` map key is an error.
 *
 * Dates: TIMESTAMP(MILLIS) is the default because it is exactly what a `Date` holds; the design note observes that
 * old Spark (before 2.2) and Hive read only MICROS (and INT96), so `timestampUnit: 'micros'` writes MICROS instead —
 * still exact, since every `Date` fits in int64 microseconds. Read back with `timestamps: 'date'` both give the same
 * `Date`; with the reader's default they give the count in the column's unit as a `bigint`.
 *
 * Values the reader returns that infer to a different type (override them to write the original type): DATE
 * (`number` of days → INT32), TIMESTAMP/TIME(MICROS, NANOS)/INT96 (`bigint` → INT64), DECIMAL and UUID (`string` →
 * STRING), FLOAT, FLOAT16 and DOUBLE (`number` → DOUBLE, or INT32 when every value is an int32 integer — the same
 * numbers read back), JSON/ENUM (`string` → STRING), BSON/GEOMETRY/GEOGRAPHY
 * (`Uint8Array` → BYTE_ARRAY), INTERVAL (`{ months, days, millis }` → a STRUCT of three INT32s), maps read with
 * `maps: 'object'` (plain objects → STRUCT), and VARIANT values (whatever JS shape they decode to).
 *
 * Rows past the sample: a schema inferred from the first rows cannot hold a key first seen later, and the writer
 * would drop its values. {@link inferRowSchema} gives the check of later rows ({@link InferredSchema.checkKeys}):
 * such a key, at any struct depth (map keys are data, not fields), is `UNKNOWN_COLUMN` naming its path and row.
 *
 * @module
 */
import { ParquetError, type OptionRules } from '@parquetry/thrift-compact';
import { checkOptions, nearestName } from '@parquetry/thrift-compact/check-options';
import { field, schemaElements, type FieldSpec, type SchemaSpec } from './schema.js';

/** Options of {@link inferSchema}. */
export interface InferOptions {
  /**
   * Specs that replace the inferred ones, by column path: a top-level name, `a.b` for a struct member,
   * `a.list.element` for a list element, `m.key_value.key` / `m.key_value.value` for a map's key and value (the
   * file's column paths). Values under an overridden path are not inspected, so an override also settles a column
   * with mixed types. An override must name a column the inspected rows have (a key present in some row, even only
   * with nulls): one that names no column is an `UNKNOWN_COLUMN` error naming the nearest column path, not an
   * all-null column added silently (a misspelt name). To add a column no row has, add it to the returned spec (or
   * override its parent struct as a whole). With no rows to inspect (an empty input), there is nothing to check
   * against: top-level overrides are then the schema.
   */
  readonly overrides?: Readonly<Record<string, FieldSpec>>;
  /** Rows inspected, from the first (default: all). A one-shot iterator is consumed that far. */
  readonly sampleSize?: number;
  /** Unit of TIMESTAMP columns inferred from `Date`s: `'millis'` (default) or `'micros'`. */
  readonly timestampUnit?: 'millis' | 'micros';
}

/** The options of schema inference (`inferSchema`, the writer's `infer`); the values are checked by inferSchema. */
export const INFER_RULES: OptionRules = { overrides: 'object', sampleSize: 'any', timestampUnit: 'any' };

type Kind = 'boolean' | 'number' | 'bigint' | 'string' | 'binary' | 'date' | 'list' | 'map' | 'struct';

/** What was seen in one column so far. */
interface Column {
  readonly path: string;
  /** Override for this path: nothing below is inspected. */
  readonly override: FieldSpec | undefined;
  kind: Kind | undefined;
  /** Row where `kind` was first seen (for messages). */
  row: number;
  /** number: every value so far an int32 (and not -0). */
  int32: boolean;
  /** bigint: some value above 2^63-1 / below -2^63 / below 0. */
  aboveInt64: boolean;
  belowInt64: boolean;
  negative: boolean;
  /** list element, map key, map value. */
  element: Column | undefined;
  key: Column | undefined;
  value: Column | undefined;
  /** struct members in first-seen order. */
  fields: Map<string, Column> | undefined;
}

const INT64_MAX = 0x7fffffffffffffffn;
const INT64_MIN = -0x8000000000000000n;
const UINT64_MAX = 0xffffffffffffffffn;

function inferError(message: string): ParquetError {
  return new ParquetError('SCHEMA_INFERENCE', `parquet-writer: ${message}`);
}

const KIND_HINT: Readonly<Record<Kind, string>> = {
  boolean: 'field.boolean()', number: 'field.double()', bigint: 'field.int64()', string: 'field.string()', binary: 'field.binary()',
  date: "field.timestamp('millis')", list: 'field.list(…)', map: 'field.map(…)', struct: 'field.struct({…})',
};

const KIND_NAME: Readonly<Record<Kind, string>> = {
  boolean: 'boolean', number: 'number', bigint: 'bigint', string: 'string', binary: 'Uint8Array', date: 'Date', list: 'array', map: 'Map',
  struct: 'object',
};

/** The kind of a non-null value, or a description of why it has none. */
function kindOf(v: unknown): Kind | string {
  switch (typeof v) {
    case 'boolean': return 'boolean';
    case 'number': return 'number';
    case 'bigint': return 'bigint';
    case 'string': return 'string';
    case 'object': {
      if (v === null) return 'null';
      if (v instanceof Uint8Array) return 'binary';
      if (v instanceof Date) return 'date';
      if (Array.isArray(v)) return 'list';
      if (v instanceof Map) return 'map';
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto === Object.prototype || proto === null) return 'struct';
      const ctor = (proto as { constructor?: { name?: unknown } } | null)?.constructor?.name;
      return `a ${typeof ctor === 'string' && ctor !== '' ? ctor : 'class instance'}`;
    }
    default:
      return `a ${typeof v}`;
  }
}

/** `null`, `an array`, `a number`, `a Set`, … for messages. */
function valueName(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  const k = kindOf(v);
  if (k === 'list') return 'an array';
  return Object.prototype.hasOwnProperty.call(KIND_NAME, k) ? `a ${KIND_NAME[k as Kind]}` : k;
}

class Inferrer {
  readonly overrides: ReadonlyMap<string, FieldSpec>;
  readonly used = new Set<string>();
  /** Struct columns by path ('' for the root), for overrides that add members. */
  readonly structs = new Map<string, Column>();
  /** Paths whose values were not inspected because an override replaced them. */
  readonly overridden = new Set<string>();
  /** Every column seen in the rows by path, in first-seen order (for the message of an unknown override). */
  readonly seen = new Map<string, Column>();
  row = 0;

  constructor(overrides: ReadonlyMap<string, FieldSpec>) {
    this.overrides = overrides;
  }

  column(path: string): Column {
    const override = this.overrides.get(path);
    if (override !== undefined) {
      this.used.add(path);
      this.overridden.add(path);
    }
    const c: Column = {
      path, override, kind: undefined, row: -1, int32: true, aboveInt64: false, belowInt64: false, negative: false,
      element: undefined, key: undefined, value: undefined, fields: undefined,
    };
    if (path !== '') this.seen.set(path, c);
    return c;
  }

  /** Records one value of column `c`. */
  visit(c: Column, v: unknown, depth: number): void {
    if (v === null || v === undefined || c.override !== undefined) return;
    if (depth > MAX_DEPTH) throw inferError(`column '${c.path}' (row ${this.row}): values nested deeper than ${MAX_DEPTH} (a cyclic value?)`);
    const k = kindOf(v);
    if (!Object.prototype.hasOwnProperty.call(KIND_NAME, k)) {
      throw inferError(`column '${c.path}' (row ${this.row}): cannot infer a type for ${k}; convert it (e.g. to a Uint8Array, an array or a plain object) or give the column a type with overrides: { '${c.path}': field.… }`);
    }
    const kind = k as Kind;
    if (c.kind === undefined) {
      c.kind = kind;
      c.row = this.row;
    } else if (c.kind !== kind) {
      throw inferError(`column '${c.path}' has mixed types: ${KIND_NAME[c.kind]} (row ${c.row}) and ${KIND_NAME[kind]} (row ${this.row}); ` +
        `give it one type with overrides: { '${c.path}': ${KIND_HINT[c.kind]} }`);
    }
    switch (kind) {
      case 'number': {
        const n = v as number;
        if (c.int32 && ((n | 0) !== n || Object.is(n, -0))) c.int32 = false;
        return;
      }
      case 'bigint': {
        const b = v as bigint;
        if (b > INT64_MAX) c.aboveInt64 = true;
        if (b < INT64_MIN) c.belowInt64 = true;
        if (b < 0n) c.negative = true;
        if (b > UINT64_MAX || c.belowInt64 || (c.aboveInt64 && c.negative)) {
          throw inferError(`column '${c.path}' (row ${this.row}): bigint values do not fit INT64 or unsigned INT64 (${b} seen${c.negative && c.aboveInt64 ? ', with negatives and values above 2^63-1' : ''}); ` +
            `give the column a type with overrides, e.g. { '${c.path}': field.decimal(38, 0, { physical: 'binary' }) }`);
        }
        return;
      }
      case 'list': {
        c.element ??= this.column(`${c.path}.list.element`);
        const a = v as readonly unknown[];
        for (let i = 0; i < a.length; i++) this.visit(c.element, a[i], depth + 1);
        return;
      }
      case 'map': {
        c.key ??= this.column(`${c.path}.key_value.key`);
        c.value ??= this.column(`${c.path}.key_value.value`);
        for (const [mk, mv] of v as Map<unknown, unknown>) {
          if (mk === null || mk === undefined) throw inferError(`column '${c.key.path}' (row ${this.row}): a map key is ${String(mk)}; map keys are required`);
          this.visit(c.key, mk, depth + 1);
          this.visit(c.value, mv, depth + 1);
        }
        return;
      }
      case 'struct':
        this.visitStruct(c, v as Record<string, unknown>, depth);
        return;
      default:
        return;
    }
  }

  visitStruct(c: Column, o: Record<string, unknown>, depth: number): void {
    if (c.fields === undefined) {
      c.fields = new Map();
      this.structs.set(c.path, c);
    }
    const prefix = c.path === '' ? '' : `${c.path}.`;
    for (const key of Object.keys(o)) {
      let f = c.fields.get(key);
      if (f === undefined) {
        if (key === '') throw inferError(`column '${c.path || '(row)'}' (row ${this.row}): an empty property name; Parquet field names are non-empty`);
        f = this.column(prefix + key);
        c.fields.set(key, f);
      }
      this.visit(f, o[key], depth + 1);
    }
  }
}

const MAX_DEPTH = 256;

/** Names in a message: all of them when few, else the first ones and a count. */
function nameList(names: readonly string[]): string {
  const max = 20;
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')}, … (${names.length} in all)`;
}

/** The error of an override naming no column of the inspected rows, with the nearest column path. */
function unknownOverride(path: string, inf: Inferrer, sampled: number): ParquetError {
  let near = nearestName(path, [...inf.seen.keys()]);
  const dot = path.lastIndexOf('.');
  const parentPath = dot < 0 ? '' : path.slice(0, dot);
  const parent = parentPath === '' ? inf.structs.get('') : inf.seen.get(parentPath);
  const rows = sampled === 1 ? 'the row inspected' : `the ${sampled} rows inspected`;
  let what: string;
  if (sampled === 0) {
    what = 'there are no rows to inspect, so only top-level names can be given (they are the schema)';
  } else if (parent === undefined) {
    what = `no column '${parentPath}' in ${rows}`;
  } else if (parent.override !== undefined) {
    what = `'${parentPath}' is itself overridden`; // (reported before as lying under an override)
  } else {
    switch (parent.kind) {
      case 'struct': {
        const names = [...parent.fields!.keys()];
        const list = names.length === 0 ? 'none' : nameList(names);
        const sibling = nearestName(path.slice(dot + 1), names);
        near = sibling === undefined ? undefined : parentPath === '' ? sibling : `${parentPath}.${sibling}`;
        what = parentPath === ''
          ? `${sampled === 1 ? 'the row inspected has no' : `none of the ${sampled} rows inspected has the`} key '${path}' (columns: ${list})`
          : `struct '${parentPath}' has no field '${path.slice(dot + 1)}' in ${rows} (its fields: ${list}; to add fields, override '${parentPath}' as a whole)`;
        break;
      }
      case 'list':
        what = `'${parentPath}' is a list; its element is '${parentPath}.list.element'`;
        break;
      case 'map':
        what = `'${parentPath}' is a map; its key and value are '${parentPath}.key_value.key' and '${parentPath}.key_value.value'`;
        break;
      case undefined:
        what = `'${parentPath}' holds only nulls in ${rows}, no struct`;
        break;
      default:
        what = `'${parentPath}' holds ${KIND_NAME[parent.kind]} values, not structs`;
    }
  }
  return new ParquetError(
    'UNKNOWN_COLUMN',
    `parquet-writer: schema inference: override '${path}' names no column: ${what}${near === undefined ? '' : `; did you mean '${near}'?`}`,
  );
}

/** `o[k] = v` as an own property even for `__proto__` (a key JSON.parse can produce). */
function setOwn(o: Record<string, FieldSpec>, k: string, v: FieldSpec): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function toSpec(c: Column, unit: 'millis' | 'micros'): FieldSpec {
  if (c.override !== undefined) return c.override;
  switch (c.kind) {
    case undefined: return field.string();
    case 'boolean': return field.boolean();
    case 'number': return c.int32 ? field.int32() : field.double();
    case 'bigint': return c.aboveInt64 ? field.int(64, false) : field.int64();
    case 'string': return field.string();
    case 'binary': return field.binary();
    case 'date': return field.timestamp(unit, { utc: true });
    case 'list': return field.list(toSpec(c.element!, unit));
    case 'map': return field.map(toSpec(c.key!, unit), toSpec(c.value!, unit));
    case 'struct': {
      const fields: Record<string, FieldSpec> = {};
      for (const [k, f] of c.fields!) setOwn(fields, k, toSpec(f, unit));
      if (Object.keys(fields).length === 0) {
        throw inferError(`column '${c.path}' (row ${c.row}): only empty objects seen, and Parquet has no empty groups; ` +
          `give it a type with overrides: { '${c.path}': field.struct({ … }) }`);
      }
      return field.struct(fields);
    }
  }
}

/**
 * Infers a schema spec from rows (plain objects), by the rules of the module header. Pass the result, possibly
 * edited, to `schemaElements`.
 *
 * @param rows - the rows: an array, or any iterable (a one-shot iterator is consumed as far as the sample goes).
 * @param options - `overrides` by column path, `sampleSize`, `timestampUnit`.
 * @returns the top-level fields in first-seen order (with no rows inspected: the top-level overrides).
 * @throws ParquetError `SCHEMA_INFERENCE` when a row is not a plain object, a column has values of two kinds (naming
 *   the column, both kinds and their rows), a value has no inferable type (a class instance, function, symbol,
 *   typed array other than `Uint8Array`, …), a bigint column fits neither INT64 nor unsigned INT64, a map key is
 *   null, a property name is empty, a column only ever holds empty objects, values nest deeper than 256, or an
 *   override lies under another override.
 * @throws ParquetError `UNKNOWN_COLUMN` when an override names no column of the inspected rows (a top-level key no
 *   row has, a field its struct does not have, a path through a non-struct), naming the struct's fields and the
 *   nearest column path.
 * @throws ParquetError `INVALID_SCHEMA` when an override is not a valid field spec (see `schemaElements`).
 * @throws ParquetError `INVALID_ARGUMENT` when `rows` is not iterable, an option is unknown, `sampleSize` is not a positive integer (or
 *   `Infinity`), or `timestampUnit` is neither `'millis'` nor `'micros'`.
 */
export function inferSchema(rows: Iterable<Record<string, unknown>>, options: InferOptions = {}): SchemaSpec {
  return infer(rows, options).spec;
}

/** The inference itself: the spec, the columns seen (for {@link inferRowSchema}'s key check) and the rows inspected. */
function infer(rows: Iterable<Record<string, unknown>>, options: InferOptions): { spec: SchemaSpec; root: Column; sampled: number } {
  checkOptions(options, INFER_RULES, 'parquet-writer: inferSchema options');
  const sampleSize = options.sampleSize ?? Infinity;
  if (typeof sampleSize !== 'number' || !(sampleSize === Infinity || (Number.isInteger(sampleSize) && sampleSize > 0))) {
    throw new ParquetError('INVALID_ARGUMENT', `parquet-writer: inferSchema: sampleSize must be a positive integer or Infinity, got ${String(sampleSize)}`);
  }
  const unit = options.timestampUnit ?? 'millis';
  if (unit !== 'millis' && unit !== 'micros') {
    throw new ParquetError('INVALID_ARGUMENT', `parquet-writer: inferSchema: timestampUnit must be 'millis' or 'micros', got ${String(unit)}`);
  }
  const overrides = new Map<string, FieldSpec>();
  const given: unknown = options.overrides ?? {};
  if (typeof given !== 'object' || given === null) {
    throw new ParquetError('INVALID_ARGUMENT', `parquet-writer: inferSchema: overrides must be an object of field specs, got ${String(given)}`);
  }
  for (const [path, spec] of Object.entries(given)) {
    try {
      schemaElements({ [path]: spec as FieldSpec }); // validates the spec, with the path in the message
    } catch (e) {
      if (e instanceof ParquetError) throw new ParquetError(e.code, `${e.message} (in inferSchema overrides)`, undefined, { cause: e });
      throw e;
    }
    overrides.set(path, spec as FieldSpec);
  }
  const isIterable = rows !== null && rows !== undefined && typeof (rows as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
  if (!isIterable) throw new ParquetError('INVALID_ARGUMENT', `parquet-writer: inferSchema: rows must be an array or an iterable of objects, got ${rows === null ? 'null' : typeof rows}`);

  const inf = new Inferrer(overrides);
  const root = inf.column('');
  root.kind = 'struct';
  root.fields = new Map();
  inf.structs.set('', root);
  const visitRow = (row: unknown): void => {
    if (kindOf(row) !== 'struct') throw inferError(`row ${inf.row} is ${valueName(row)}, expected a plain object`);
    inf.visitStruct(root, row as Record<string, unknown>, 0);
  };
  let sampled = 0;
  if (Array.isArray(rows)) {
    const n = Math.min(rows.length, sampleSize);
    for (let i = 0; i < n; i++) {
      inf.row = i;
      visitRow(rows[i]);
    }
    sampled = n;
  } else {
    let i = 0;
    for (const row of rows) {
      inf.row = i++;
      visitRow(row);
      if (i >= sampleSize) break; // before pulling a row that would not be inspected
    }
    sampled = i;
  }

  // overrides that matched no column of the rows: a misspelt name, unless there were no rows to look at
  for (const path of overrides.keys()) {
    if (inf.used.has(path)) continue;
    for (const o of inf.overridden) {
      if (path.startsWith(`${o}.`)) throw inferError(`override '${path}' lies under override '${o}', which replaces everything below it`);
    }
    if (sampled === 0 && !path.includes('.')) {
      root.fields.set(path, inf.column(path)); // an empty input: the overrides are the schema
      continue;
    }
    throw unknownOverride(path, inf, sampled);
  }
  const out: Record<string, FieldSpec> = {};
  for (const [k, f] of root.fields) setOwn(out, k, toSpec(f, unit));
  return { spec: out, root, sampled };
}

// ---------------------------------------------------------------------------------------------------------------
// keys the inferred schema lacks

/** A schema inferred from the first rows of a write, with the check of later rows against it. */
export interface InferredSchema {
  /** The inferred spec (as {@link inferSchema} returns it). */
  readonly spec: SchemaSpec;
  /** Rows inspected, from the first. */
  readonly sampled: number;
  /**
   * Checks rows `[start, end)` of `rows` for keys the inferred schema lacks, which the writer would otherwise drop
   * without a word. Rows numbered below {@link InferredSchema.sampled} were inspected and are skipped. Struct members
   * are checked at every depth (in lists and map values too); map keys are data, not fields, and keys under an
   * override are not checked (the override is the caller's schema, whose extra keys are ignored as with the `schema`
   * option). A key whose value is `undefined` is as good as absent.
   * @param rows - the rows of one write.
   * @param start - first row to check.
   * @param end - end of the rows to check (exclusive).
   * @param firstRow - the row number of `rows[start]` in the file (for the message; rows before the sample end are skipped).
   * @throws ParquetError `UNKNOWN_COLUMN` naming the key's path and row, the rows the schema was inferred from and how
   *   to give every column.
   */
  readonly checkKeys: (rows: readonly unknown[], start: number, end: number, firstRow: number) => void;
}

/** The members of one struct column of an inferred schema, and the columns below it that hold structs. */
interface KeyNode {
  /** Column path ('' for the row). */
  readonly path: string;
  /** Struct: member names in schema order (`undefined`: not a struct). */
  readonly names: readonly string[] | undefined;
  readonly known: ReadonlySet<string> | undefined;
  /** Struct members whose values hold structs, to descend into (names and their nodes). */
  readonly nestedNames: readonly string[];
  readonly nested: readonly KeyNode[];
  /** List element / map key / map value holding structs. */
  readonly element: KeyNode | undefined;
  readonly mapKey: KeyNode | undefined;
  readonly mapValue: KeyNode | undefined;
}

/** The check tree of an inferred column, or undefined when no struct lies at or below it (nothing to check). */
function keyNode(c: Column | undefined): KeyNode | undefined {
  if (c === undefined || c.override !== undefined) return undefined;
  const node = (n: Partial<KeyNode>): KeyNode => ({
    path: c.path, names: undefined, known: undefined, nestedNames: [], nested: [], element: undefined, mapKey: undefined, mapValue: undefined, ...n,
  });
  switch (c.kind) {
    case 'struct': {
      const names = [...c.fields!.keys()];
      const nestedNames: string[] = [];
      const nested: KeyNode[] = [];
      for (const [k, f] of c.fields!) {
        const n = keyNode(f);
        if (n) {
          nestedNames.push(k);
          nested.push(n);
        }
      }
      return node({ names, known: new Set(names), nestedNames, nested });
    }
    case 'list': {
      const element = keyNode(c.element);
      return element && node({ element });
    }
    case 'map': {
      const mapKey = keyNode(c.key);
      const mapValue = keyNode(c.value);
      return mapKey || mapValue ? node({ mapKey, mapValue }) : undefined;
    }
    default:
      return undefined;
  }
}

/** What the shredder takes as a struct value (parquet-levels `isStructValue`). */
function isStructValue(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v) && !(v instanceof Map);
}

/** Checks one non-null object value of column `n` (values of another shape are the shredder's to reject). */
function checkValue(n: KeyNode, v: object, fail: (path: string) => never): void {
  const names = n.names;
  if (names !== undefined) {
    // the row's keys in its own order: mostly the schema's (inference takes the first-seen order), so a key costs one
    // identity comparison with the member at its position, and the set is asked only for a key out of place; whether
    // the value is a struct at all (not an array, a Map, …) only once a key is unknown
    const o = v as Record<string, unknown>;
    let i = 0;
    for (const k in o) {
      if (k !== names[i] && !n.known!.has(k)) {
        if (!isStructValue(o)) return;
        if (Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined) fail(n.path === '' ? k : `${n.path}.${k}`);
      }
      i++;
    }
    const nested = n.nested;
    for (let j = 0; j < nested.length; j++) {
      const c = o[n.nestedNames[j]!];
      if (c !== null && typeof c === 'object') checkValue(nested[j]!, c, fail);
    }
    return;
  }
  const element = n.element;
  if (element !== undefined) {
    if (!Array.isArray(v)) return;
    for (let j = 0; j < v.length; j++) {
      const e: unknown = v[j];
      if (e !== null && typeof e === 'object') checkValue(element, e, fail);
    }
    return;
  }
  // a map: a Map or a plain object of entries, whose keys are data
  const entries: Iterable<[unknown, unknown]> = v instanceof Map ? (v as Map<unknown, unknown>) : isStructValue(v) ? Object.entries(v) : [];
  for (const [mk, mv] of entries) {
    if (n.mapKey && mk !== null && typeof mk === 'object') checkValue(n.mapKey, mk, fail);
    if (n.mapValue && mv !== null && typeof mv === 'object') checkValue(n.mapValue, mv, fail);
  }
}

/**
 * Infers the schema of a write from its first rows, as {@link inferSchema}, and gives the check of later rows: a key
 * the schema lacks is an error instead of a column silently dropped (the writer does this when no `schema` is
 * given).
 * @param rows - the rows (of the first write).
 * @param options - as {@link inferSchema}.
 * @returns the spec, the rows inspected and the check.
 * @throws ParquetError as {@link inferSchema}.
 * @internal
 */
export function inferRowSchema(rows: Iterable<Record<string, unknown>>, options: InferOptions = {}): InferredSchema {
  const { spec, root, sampled } = infer(rows, options);
  const top = keyNode(root)!;
  const checkKeys = (batch: readonly unknown[], start: number, end: number, firstRow: number): void => {
    // rows the inference saw need no check (the first write's first `sampled` rows)
    const from = Math.max(start, start + sampled - firstRow);
    let row = 0;
    const fail = (path: string): never => {
      throw new ParquetError(
        'UNKNOWN_COLUMN',
        `parquet-writer: row ${row}: key '${path}' is not a column of the schema inferred from the first ${sampled} row${sampled === 1 ? '' : 's'} ` +
          `(no schema option was given), so its values would be dropped; give the schema option (field specs, or inferSchema(rows) over rows that ` +
          `have every key), or a larger infer.sampleSize (default: every row of the first write)`,
      );
    };
    for (let i = from; i < end; i++) {
      const r = batch[i];
      if (r === null || typeof r !== 'object') continue; // the shredder's to reject
      row = firstRow + (i - start);
      checkValue(top, r, fail);
    }
  };
  return { spec, sampled, checkKeys };
}
