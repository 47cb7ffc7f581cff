/**
 * VARIANT columns on the write side: every decoded Variant value of a row (the JavaScript mapping of
 * `@parquetry/parquet-variant`, as the reader returns it) becomes its stored group `{ metadata, value, typed_value }`
 * before the rows are shredded into columns. Implements
 * https://github.com/apache/parquet-format/blob/master/VariantEncoding.md (metadata and value binaries) and
 * https://github.com/apache/parquet-format/blob/master/VariantShredding.md ("Value Shredding", "Shredded Value
 * Types", "Arrays", "Objects", "Nesting"): the inverse of the reader's `mergeShredded`.
 *
 * Shredding rules (per `{ value, typed_value }` group, recursively):
 * - a value that the `typed_value` type represents exactly goes to `typed_value` (`value` null);
 * - an object shredded as an object: `typed_value` holds one group per shredded field (a field the object lacks is
 *   missing: both null); the other fields go to `value` as an object, or `value` is null when there are none;
 * - an array shredded as an array: `typed_value` holds one group per element (a null element is a Variant null in
 *   `value`), `value` is null;
 * - anything else, Variant null included, goes to `value` (`typed_value` null).
 *
 * "Represents exactly" is judged on the decoded value, which does not keep every Variant type (int8…int64 and
 * float/double all read as `number`): a value matches when the reader gives back the same JavaScript value, e.g. an
 * integer `number` fits int8/int16/int32 in range, int64 when safe, float when `Math.fround` keeps it, and double
 * always; a `bigint` fits the integer types in range; a decimal needs the column's scale exactly and at most its
 * precision; a timestamp needs the column's unit and UTC flag.
 *
 * @module
 */
import type { Field, SchemaNode, SchemaTree } from '@parquetry/parquet-levels';
import {
  asTagged,
  encodeMetadata,
  encodeVariantValue,
  variantColumnLayout,
  variantKeys,
  type ShreddedPrimitiveShape,
  type ShreddedShape,
  type ShreddedSlot,
  type VariantSchemaNode,
  type VariantValue,
} from '@parquetry/parquet-variant';
import { ParquetError, isParquetError } from '@parquetry/thrift-compact';

// ---------------------------------------------------------------------------------------------------------------
// compiled layout

/** A `{ value, typed_value }` group of the layout. */
interface Slot {
  readonly hasValue: boolean;
  readonly typed: Typed | null;
}

interface ObjectPlan {
  readonly kind: 'object';
  readonly fields: readonly { readonly name: string; readonly slot: Slot }[];
  readonly names: ReadonlySet<string>;
}

interface ArrayPlan {
  readonly kind: 'array';
  readonly element: Slot;
}

type Typed = ShreddedPrimitiveShape | ObjectPlan | ArrayPlan;

function compileShape(s: ShreddedShape): Typed {
  switch (s.kind) {
    case 'object':
      return { kind: 'object', fields: s.fields.map((f) => ({ name: f.name, slot: compileSlot(f) })), names: new Set(s.fields.map((f) => f.name)) };
    case 'array':
      return { kind: 'array', element: compileSlot(s.element) };
    default:
      return s;
  }
}

function compileSlot(s: ShreddedSlot): Slot {
  return { hasValue: s.hasValue, typed: s.typed === null ? null : compileShape(s.typed) };
}

function toVariantNode(n: SchemaNode): VariantSchemaNode {
  return {
    name: n.name,
    physicalType: n.element.type,
    typeLength: n.element.type_length,
    repetition: n.repetition,
    logicalType: n.logicalType,
    children: n.element.type === undefined ? n.children.map(toVariantNode) : undefined,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// values

/** The metadata of a Variant without object keys (version 1, sorted, offset size 1, no strings). */
const EMPTY_METADATA = /*#__PURE__*/ Uint8Array.of(0x11, 0, 0);
/** Variant null: basic type 0, primitive type 0. */
const VARIANT_NULL = /*#__PURE__*/ Uint8Array.of(0);
/** "No typed value": the value does not match the shredded type. */
const NO: unique symbol = Symbol('no typed value');

const I8 = 0x80;
const I16 = 0x8000;
const I32 = 0x80000000;
const I8N = 0x80n;
const I16N = 0x8000n;
const I32N = 0x80000000n;
const I64N = 1n << 63n;
const MICROS_PER_DAY = 86_400_000_000n;

function describe(v: unknown): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'bigint':
      return `${v}n`;
    case 'string':
      return v.length > 40 ? `a string of ${v.length} characters` : JSON.stringify(v);
    case 'number':
    case 'boolean':
      return Object.is(v, -0) ? '-0' : String(v);
    case 'object': {
      if (Array.isArray(v)) return `an array of ${v.length}`;
      if (v instanceof Uint8Array) return `a binary of ${v.length} bytes`;
      const t = asTagged(v);
      if (t !== undefined) return `a ${t.type}`;
      return 'an object';
    }
    default:
      return `a ${typeof v}`;
  }
}

function isVariantObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && asTagged(v) === undefined;
}

/** Whether a decimal text has exactly `scale` fractional digits and at most `precision` significant digits (zero counts one). */
function decimalFits(text: string, precision: number, scale: number): boolean {
  const dot = text.indexOf('.');
  const s = dot < 0 ? 0 : text.length - dot - 1;
  if (s !== scale) return false;
  let digits = 0;
  let leading = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) continue;
    if (leading && c === 48) continue;
    leading = false;
    digits++;
  }
  return Math.max(digits, 1) <= precision;
}

/** The `typed_value` of `v` for a shredded primitive type (in the form the writer takes for that column), or NO. */
function typedLeaf(v: unknown, t: ShreddedPrimitiveShape): unknown {
  switch (t.kind) {
    case 'boolean':
      return typeof v === 'boolean' ? v : NO;
    case 'int8':
    case 'int16':
    case 'int32': {
      if (typeof v === 'number') {
        const lim = t.kind === 'int8' ? I8 : t.kind === 'int16' ? I16 : I32;
        return Number.isInteger(v) && v >= -lim && v < lim && !Object.is(v, -0) ? v : NO;
      }
      if (typeof v === 'bigint') {
        const lim = t.kind === 'int8' ? I8N : t.kind === 'int16' ? I16N : I32N;
        return v >= -lim && v < lim ? Number(v) : NO;
      }
      return NO;
    }
    case 'int64':
      if (typeof v === 'number') return Number.isSafeInteger(v) && !Object.is(v, -0) ? v : NO;
      if (typeof v === 'bigint') return v >= -I64N && v < I64N ? v : NO;
      return NO;
    case 'float':
      return typeof v === 'number' && (Math.fround(v) === v || v !== v) ? v : NO;
    case 'double':
      return typeof v === 'number' ? v : NO;
    case 'binary':
      return v instanceof Uint8Array ? v : NO;
    case 'string':
      return typeof v === 'string' ? v : NO;
    default:
      break;
  }
  if (typeof v !== 'object' || v === null) return NO;
  const g = asTagged(v);
  if (g === undefined) return NO;
  switch (t.kind) {
    case 'decimal':
      return g.type === 'decimal' && decimalFits(g.value, t.precision, t.scale) ? g.value : NO;
    case 'date':
      return g.type === 'date' && g.days >= -I32 && g.days < I32 ? g.days : NO;
    case 'time':
      // a typed_value TIME(MICROS) holds a time of day, [0, 24 h); any other time stays in the value binary
      return g.type === 'time' && g.value >= 0n && g.value < MICROS_PER_DAY ? g.value : NO;
    case 'timestamp':
      return g.type === 'timestamp' && g.unit === t.unit && g.utc === t.utc && g.value >= -I64N && g.value < I64N ? g.value : NO;
    case 'uuid':
      return g.type === 'uuid' ? g.value : NO;
    default:
      return NO;
  }
}

function setKey(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** The `{ value, typed_value }` group of a slot, with only the fields its layout has. */
function group(slot: Slot, value: Uint8Array | null, typed: unknown): Record<string, unknown> {
  if (!slot.hasValue) return { typed_value: typed };
  return slot.typed === null ? { value } : { value, typed_value: typed };
}

/** Per Variant column: where errors point and the metadata dictionary of the value being encoded. */
class VariantColumn {
  readonly layout: Slot;
  /** The current row (set by the row loop). */
  row = 0;
  /** Location inside the Variant value being encoded (for messages). */
  readonly at: (string | number)[] = [];
  ids: ReadonlyMap<string, number> = new Map();
  metadata: Uint8Array = EMPTY_METADATA;
  private keys: readonly string[] = [];
  /** Results of {@link VariantColumn.shred}. */
  value: Uint8Array | null = null;
  typed: unknown = null;

  constructor(
    readonly path: string,
    readonly nullable: boolean,
    layout: ShreddedSlot,
    /** `'raw'`: every value is already its stored group (the writer's `variants` option). */
    readonly raw: boolean,
  ) {
    this.layout = compileSlot(layout);
  }

  fail(what: string, cause?: unknown): ParquetError {
    let at = '$';
    for (const p of this.at) at += typeof p === 'number' ? `[${p}]` : `.${p}`;
    const where = this.at.length === 0 ? '' : ` at ${at}`;
    return new ParquetError(
      'INVALID_VALUE',
      `parquet-writer: column '${this.path}': row ${this.row}: ${what}${where}`,
      undefined,
      cause === undefined ? undefined : { cause },
    );
  }

  /** Chooses the metadata dictionary for a value (reused while consecutive values use the same keys). */
  private useKeys(keys: readonly string[]): void {
    const prev = this.keys;
    let same = keys.length === prev.length;
    for (let i = 0; same && i < keys.length; i++) same = keys[i] === prev[i];
    if (same) return;
    this.keys = keys;
    this.metadata = encodeMetadata(keys);
    const ids = new Map<string, number>();
    for (let i = 0; i < keys.length; i++) ids.set(keys[i]!, i);
    this.ids = ids;
  }

  /** The stored group of one value of this column (the top-level Variant group). */
  encode(v: unknown): unknown {
    if (v === null || v === undefined) {
      if (this.nullable) return v;
      v = null; // a required Variant: Variant null
    } else if (this.raw) {
      if (isStored(v)) return v;
      throw this.fail(`with the option variants: 'raw' each value is its stored group { metadata, value, typed_value } (as the reader's variants: 'raw' returns it), got ${describe(v)}`);
    }
    this.at.length = 0;
    try {
      this.useKeys(v === null ? [] : variantKeys(v as VariantValue));
      this.shred(v, this.layout);
    } catch (e) {
      if (isParquetError(e) && e.code !== 'INVALID_VALUE') throw this.fail(`not representable as a Variant (${e.message})`, e);
      throw e;
    }
    return this.withMetadata(this.metadata, this.value, this.typed);
  }

  private withMetadata(metadata: Uint8Array, value: Uint8Array | null, typed: unknown): Record<string, unknown> {
    const slot = this.layout;
    if (!slot.hasValue) return { metadata, typed_value: typed };
    return slot.typed === null ? { metadata, value } : { metadata, value, typed_value: typed };
  }

  private residual(v: unknown, slot: Slot): Uint8Array {
    if (!slot.hasValue) {
      throw this.fail(`${describe(v)} does not fit the shredded type ${slot.typed?.kind ?? '?'} and the group has no \`value\` field`);
    }
    return v === null ? VARIANT_NULL : encodeVariantValue(v as VariantValue, this.ids);
  }

  /** Splits `v` for one `{ value, typed_value }` group into `this.value` and `this.typed`. */
  shred(v: unknown, slot: Slot): void {
    const t = slot.typed;
    if (t !== null) {
      if (t.kind === 'object') {
        if (isVariantObject(v)) {
          this.shredObject(v, slot, t);
          return;
        }
      } else if (t.kind === 'array') {
        if (Array.isArray(v)) {
          this.shredArray(v, t);
          return;
        }
      } else {
        const x = typedLeaf(v, t);
        if (x !== NO) {
          this.value = null;
          this.typed = x;
          return;
        }
      }
    }
    this.value = this.residual(v, slot);
    this.typed = null;
  }

  private shredObject(v: Record<string, unknown>, slot: Slot, t: ObjectPlan): void {
    const typed: Record<string, unknown> = {};
    const at = this.at;
    at.push('');
    for (const f of t.fields) {
      const name = f.name;
      if (Object.hasOwn(v, name)) {
        at[at.length - 1] = name;
        this.shred(v[name], f.slot);
        setKey(typed, name, group(f.slot, this.value, this.typed));
      } else {
        setKey(typed, name, group(f.slot, null, null)); // missing field
      }
    }
    at.pop();
    let rest: Record<string, unknown> | undefined;
    for (const k of Object.keys(v)) {
      if (t.names.has(k)) continue;
      rest ??= Object.create(null) as Record<string, unknown>;
      rest[k] = v[k];
    }
    if (rest !== undefined && !slot.hasValue) {
      throw this.fail(`object fields ${Object.keys(rest).map((k) => JSON.stringify(k)).join(', ')} are not shredded and the group has no \`value\` field`);
    }
    this.value = rest === undefined ? null : encodeVariantValue(rest as VariantValue, this.ids);
    this.typed = typed;
  }

  private shredArray(v: readonly unknown[], t: ArrayPlan): void {
    const n = v.length;
    const out = new Array<Record<string, unknown>>(n);
    const el = t.element;
    const at = this.at;
    at.push(0);
    for (let i = 0; i < n; i++) {
      at[at.length - 1] = i;
      this.shred(v[i], el);
      out[i] = group(el, this.value, this.typed);
    }
    at.pop();
    this.value = null;
    this.typed = out;
  }
}

/**
 * A value already in stored form: an object whose `metadata` is binary, whose `value` (if any) is binary or null,
 * and which has no other keys than `metadata`, `value` and `typed_value`.
 */
function isStored(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array) return false;
  const o = v as Record<string, unknown>;
  if (!(o['metadata'] instanceof Uint8Array)) return false;
  for (const k of Object.keys(o)) if (k !== 'metadata' && k !== 'value' && k !== 'typed_value') return false;
  const value = o['value'];
  return value === undefined || value === null || value instanceof Uint8Array;
}

// ---------------------------------------------------------------------------------------------------------------
// rows

type Transform = (v: unknown) => unknown;

function hasVariant(f: Field): boolean {
  if (f.node.logicalType?.VARIANT !== undefined) return true;
  switch (f.kind) {
    case 'leaf':
      return false;
    case 'struct':
      return f.fields.some(hasVariant);
    case 'list':
      return hasVariant(f.element);
    case 'map':
      return hasVariant(f.key) || (f.value !== undefined && hasVariant(f.value));
  }
}

function isStruct(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v) && !(v instanceof Map);
}

function transformOf(f: Field, columns: VariantColumn[], raw: boolean): Transform | undefined {
  if (!hasVariant(f)) return undefined;
  if (f.node.logicalType?.VARIANT !== undefined) {
    const path = f.node.path.join('.');
    let layout: ShreddedSlot;
    try {
      layout = variantColumnLayout(toVariantNode(f.node));
    } catch (e) {
      throw new ParquetError('INVALID_SCHEMA', `parquet-writer: column '${path}': not a writable Variant group (${e instanceof Error ? e.message : String(e)})`, undefined, { cause: e });
    }
    const c = new VariantColumn(path, f.nullable, layout, raw);
    columns.push(c);
    return (v) => c.encode(v);
  }
  switch (f.kind) {
    case 'struct':
      return structTransform(f.fields, columns, raw);
    case 'list': {
      const t = transformOf(f.element, columns, raw)!;
      return (v) => {
        if (!Array.isArray(v)) return v; // not a list: the shredder reports it
        const n = v.length;
        const out = new Array<unknown>(n);
        for (let i = 0; i < n; i++) out[i] = t(v[i]);
        return out;
      };
    }
    case 'map': {
      const tk = transformOf(f.key, columns, raw);
      const tv = f.value === undefined ? undefined : transformOf(f.value, columns, raw);
      return (v) => {
        if (v instanceof Map) {
          const out = new Map<unknown, unknown>();
          for (const [k, x] of v) out.set(tk === undefined ? k : tk(k), tv === undefined ? x : tv(x));
          return out;
        }
        if (!isStruct(v) || tv === undefined) return v;
        const out: Record<string, unknown> = {};
        for (const k of Object.keys(v)) setKey(out, k, tv(v[k]));
        return out;
      };
    }
    default:
      return undefined;
  }
}

function structTransform(fields: readonly Field[], columns: VariantColumn[], raw: boolean): Transform {
  const names: string[] = [];
  const ts: Transform[] = [];
  for (const c of fields) {
    const t = transformOf(c, columns, raw);
    if (t === undefined) continue;
    names.push(c.name);
    ts.push(t);
  }
  const n = names.length;
  return (v) => {
    if (!isStruct(v)) return v; // null, or not an object: the shredder reports it
    const out: Record<string, unknown> = { ...v };
    for (let i = 0; i < n; i++) {
      const name = names[i]!;
      const x = Object.hasOwn(v, name) ? v[name] : undefined;
      const y = ts[i]!(x);
      if (y !== x) setKey(out, name, y);
    }
    return out;
  };
}

/**
 * Builds the row transform that turns every decoded VARIANT value of a row into its stored group
 * `{ metadata, value, typed_value }` (see the module comment for the shredding rules), for the writer to call
 * before shredding rows into columns.
 *
 * - VARIANT fields may be anywhere: top level, in structs, list elements, map keys and values.
 * - The rows are not modified: the transform returns new row objects (and new structs, lists and maps on the way
 *   to each Variant; other values are shared).
 * - Dates, timestamps, times, UUIDs and decimals are written as those Variant types only when they are branded typed
 *   values (as the reader returns them, or made with `variantDate`, `variantTimestamp`, `variantTime`, `variantUuid`,
 *   `variantDecimal` of `@parquetry/parquet-variant`); every plain object is a Variant object, so JSON data such as
 *   `{ "type": "decimal", "value": "12.5" }` is written as an object of two keys.
 * - `null`/`undefined` for an optional Variant stays as it is (a null group); for a required Variant it becomes a
 *   Variant null. The decoded form cannot tell a Variant null inside an optional column from a null column, so such
 *   a value is written as a null column.
 * - With `raw` (the writer's `variants: 'raw'`), every value is already in stored form and passes through unchanged,
 *   so rows read with the reader's `variants: 'raw'` write back: an object whose `metadata` is a `Uint8Array`, whose
 *   `value` (if present) is a `Uint8Array` or null, and which has no keys besides `metadata`, `value` and
 *   `typed_value`; anything else is `INVALID_VALUE`. Such a group must match the column's layout; it is not
 *   re-shredded. Without `raw`, every value is a decoded Variant value, so a Variant object whose keys happen to be
 *   `metadata` and `value` with binary values is written as that object.
 * - All `value`s of one Variant share one metadata holding every object key of the value, sorted; consecutive
 *   values with the same keys share the same metadata bytes.
 *
 * @param schema - the file's schema tree.
 * @param raw - the values are stored groups already (the writer's `variants: 'raw'`; default false: decoded values).
 * @returns the transform (`firstRow`, default 0, is added to row indexes in error messages), or undefined when the
 *   schema has no VARIANT column (nothing to do per row).
 * @throws ParquetError `INVALID_SCHEMA` when a VARIANT group has a layout VariantShredding.md does not allow (no
 *   binary `metadata`, a `typed_value` of an unshreddable type…). The transform throws ParquetError
 *   `INVALID_VALUE` (`parquet-writer: column 'v': row N: …`) for a value that is not representable as a Variant
 *   (`undefined` inside a value, a function, a non-plain object, a bigint outside int64, a decimal over 38 digits,
 *   nesting deeper than 128 or a cycle), or that fits neither the shredded type nor a group without `value`.
 */
export function variantRowEncoder(
  schema: SchemaTree,
  raw = false,
): ((rows: readonly Record<string, unknown>[], firstRow?: number) => Record<string, unknown>[]) | undefined {
  const columns: VariantColumn[] = [];
  if (!hasVariant(schema.field)) return undefined;
  const t = structTransform(schema.field.fields, columns, raw);
  const nCols = columns.length;
  return (rows, firstRow = 0) => {
    const n = rows.length;
    const out = new Array<Record<string, unknown>>(n);
    for (let i = 0; i < n; i++) {
      const row = firstRow + i;
      for (let c = 0; c < nCols; c++) columns[c]!.row = row;
      out[i] = t(rows[i]) as Record<string, unknown>;
    }
    return out;
  };
}
