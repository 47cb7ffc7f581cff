/**
 * Shredded Variants (https://github.com/apache/parquet-format/blob/master/VariantShredding.md):
 * the shape of a `typed_value` subtree ("Shredded Value Types", "Arrays", "Objects"), built from a
 * Parquet schema subtree, and the reconstruction of a Variant value from the row-assembled `value`
 * and `typed_value` pieces ("Reconstructing a Shredded Variant"), with the spec's invalid
 * combinations rejected.
 *
 * @module
 */
import { FieldRepetitionType, ParquetError, Type } from '@parquetry/thrift-compact';
import type { LogicalType } from '@parquetry/thrift-compact';
import { DEFAULT_MAX_VARIANT_DEPTH, VariantMetadata, decodeVariant, parseMetadataCached, type DecodeVariantOptions } from './variant-decode.js';
import { compareUtf8, formatDecimal, makeDate, makeDecimal, makeTime, makeTimestamp, makeUuid, type VariantObject, type VariantValue } from './variant-value.js';

/** A shredded primitive `typed_value` (VariantShredding.md, "Shredded Value Types"). */
export type ShreddedPrimitiveShape =
  | { readonly kind: 'boolean' }
  | { readonly kind: 'int8' }
  | { readonly kind: 'int16' }
  | { readonly kind: 'int32' }
  | { readonly kind: 'int64' }
  | { readonly kind: 'float' }
  | { readonly kind: 'double' }
  | { readonly kind: 'decimal'; readonly precision: number; readonly scale: number }
  | { readonly kind: 'date' }
  | { readonly kind: 'time' }
  | { readonly kind: 'timestamp'; readonly unit: 'us' | 'ns'; readonly utc: boolean }
  | { readonly kind: 'binary' }
  | { readonly kind: 'string' }
  | { readonly kind: 'uuid' };

/** A `{ value, typed_value }` group: an object field, an array element, or the Variant column itself. */
export interface ShreddedSlot {
  /** Whether the group has a `value` (binary) field. */
  readonly hasValue: boolean;
  /** The `typed_value` shape, or null when the group has no `typed_value`. */
  readonly typed: ShreddedShape | null;
}

/** A shredded object field: its name and its `{ value, typed_value }` group. */
export interface ShreddedField extends ShreddedSlot {
  /** Field name (the Parquet group name). */
  readonly name: string;
}

/** A shredded object `typed_value`: a group of field groups. */
export interface ShreddedObjectShape {
  /** Tag. */
  readonly kind: 'object';
  /** The shredded fields, in schema order. */
  readonly fields: readonly ShreddedField[];
}

/** A shredded array `typed_value`: a 3-level LIST whose element is a `{ value, typed_value }` group. */
export interface ShreddedArrayShape {
  /** Tag. */
  readonly kind: 'array';
  /** The element group. */
  readonly element: ShreddedSlot;
}

/** The shape of a `typed_value` subtree. */
export type ShreddedShape = ShreddedPrimitiveShape | ShreddedObjectShape | ShreddedArrayShape;

/**
 * A simplified Parquet schema node, enough to describe a Variant column. A reader's schema node maps
 * onto it directly (name, `SchemaElement.type`, `type_length`, repetition, logical type, children).
 */
export interface VariantSchemaNode {
  /** Field name. */
  readonly name: string;
  /** Physical type: parquet.thrift `Type` (number) or its name (`'INT64'`); absent for groups. */
  readonly physicalType?: Type | keyof typeof Type | undefined;
  /** FIXED_LEN_BYTE_ARRAY length. */
  readonly typeLength?: number | undefined;
  /** Repetition (REQUIRED when absent). */
  readonly repetition?: FieldRepetitionType | undefined;
  /** Logical type (resolved from `converted_type` by the caller for old files). */
  readonly logicalType?: LogicalType | undefined;
  /** Children of a group. */
  readonly children?: readonly VariantSchemaNode[] | undefined;
}

function unsupported(what: string, path: string): ParquetError {
  return new ParquetError('VARIANT_SHREDDING_UNSUPPORTED', `parquet-variant: unsupported shredded type at ${path}: ${what}`);
}

/** Path segments of the value being merged (turned into text only for an error message). */
type PathStack = (string | number)[];

function invalid(what: string, path: PathStack): ParquetError {
  let at = '$';
  for (const p of path) at += typeof p === 'number' ? `[${p}]` : `.${p}`;
  return new ParquetError('VARIANT_SHREDDING_INVALID', `parquet-variant: invalid shredded variant at ${at}: ${what}`);
}

const MAX_SHAPE_DEPTH = 256;

/**
 * Reads the layout of a Variant column group (`metadata`, optional `value`, optional `typed_value`).
 * @param group - the Variant group node (annotated VARIANT).
 * @returns whether it has `value`, and the `typed_value` shape (null when unshredded).
 * @throws ParquetError `VARIANT_SHREDDING_UNSUPPORTED` when `metadata` is missing or not binary, `value`
 *   is not binary, neither `value` nor `typed_value` exists, or `typed_value` is not a shreddable type.
 */
export function variantColumnLayout(group: VariantSchemaNode): ShreddedSlot {
  const md = group.children?.find((c) => c.name === 'metadata');
  if (md === undefined || physical(md) !== Type.BYTE_ARRAY || md.children !== undefined && md.children.length > 0) {
    throw unsupported('a Variant group needs a binary `metadata` field', group.name);
  }
  return slotOf(group, group.name, 0);
}

/**
 * Builds the shape of a `typed_value` schema subtree.
 * @param typedValue - the `typed_value` node.
 * @param path - dotted path for messages.
 * @returns its shape.
 * @throws ParquetError `VARIANT_SHREDDING_UNSUPPORTED` for a type the spec does not allow (unsigned or
 *   8/16-bit-less integers, TIME other than (false, MICROS), millisecond timestamps, INT96, a
 *   FIXED_LEN_BYTE_ARRAY that is not UUID(16) or DECIMAL, a non-LIST annotated group, a malformed LIST,
 *   an object field that is not a group).
 */
export function shreddedShapeFromSchema(typedValue: VariantSchemaNode, path: string = typedValue.name): ShreddedShape {
  return shapeOf(typedValue, path, 0);
}

function physical(n: VariantSchemaNode | undefined): Type | undefined {
  const t = n?.physicalType;
  return typeof t === 'string' ? Type[t] : t;
}

function slotOf(group: VariantSchemaNode, path: string, depth: number): ShreddedSlot {
  if (group.physicalType !== undefined || group.children === undefined) throw unsupported('expected a group with `value`/`typed_value`', path);
  const value = group.children.find((c) => c.name === 'value');
  const typed = group.children.find((c) => c.name === 'typed_value');
  if (value !== undefined && physical(value) !== Type.BYTE_ARRAY) throw unsupported('`value` must be binary', `${path}.value`);
  if (value === undefined && typed === undefined) throw unsupported('a shredded group needs `value` or `typed_value`', path);
  return { hasValue: value !== undefined, typed: typed === undefined ? null : shapeOf(typed, `${path}.typed_value`, depth + 1) };
}

function shapeOf(node: VariantSchemaNode, path: string, depth: number): ShreddedShape {
  if (depth > MAX_SHAPE_DEPTH) throw unsupported(`nesting deeper than ${MAX_SHAPE_DEPTH}`, path);
  const lt = node.logicalType;
  if (node.physicalType === undefined) {
    const children = node.children ?? [];
    if (lt?.LIST !== undefined) {
      const rep = children[0];
      if (children.length !== 1 || rep === undefined || rep.repetition !== FieldRepetitionType.REPEATED || rep.children?.length !== 1) {
        throw unsupported('a shredded array must be a 3-level LIST', path);
      }
      const element = rep.children[0]!;
      return { kind: 'array', element: slotOf(element, `${path}.${rep.name}.${element.name}`, depth + 1) };
    }
    if (lt !== undefined && Object.keys(lt).length > 0) throw unsupported(`group annotated ${Object.keys(lt).join(',')}`, path);
    const fields: ShreddedField[] = [];
    for (const c of children) fields.push({ name: c.name, ...slotOf(c, `${path}.${c.name}`, depth + 1) });
    return { kind: 'object', fields };
  }
  const t = physical(node)!;
  const ann = lt === undefined || Object.keys(lt).length === 0 ? undefined : lt;
  const name = (): string => `${['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'][t] ?? t}` +
    (ann === undefined ? '' : ` (${JSON.stringify(ann)})`);
  if (ann?.DECIMAL !== undefined) {
    const { precision, scale } = ann.DECIMAL;
    const ok = t === Type.INT32 || t === Type.INT64 || t === Type.BYTE_ARRAY || t === Type.FIXED_LEN_BYTE_ARRAY;
    if (!ok || scale < 0 || scale > 38 || precision < 1 || precision > 38) throw unsupported(name(), path);
    return { kind: 'decimal', precision, scale };
  }
  switch (t) {
    case Type.BOOLEAN:
      if (ann === undefined) return { kind: 'boolean' };
      break;
    case Type.INT32:
      if (ann === undefined) return { kind: 'int32' };
      if (ann.INTEGER?.isSigned === true) {
        const w = ann.INTEGER.bitWidth;
        if (w === 8) return { kind: 'int8' };
        if (w === 16) return { kind: 'int16' };
        if (w === 32) return { kind: 'int32' };
      }
      if (ann.DATE !== undefined) return { kind: 'date' };
      break;
    case Type.INT64:
      if (ann === undefined || (ann.INTEGER?.isSigned === true && ann.INTEGER.bitWidth === 64)) return { kind: 'int64' };
      if (ann.TIME !== undefined && !ann.TIME.isAdjustedToUTC && ann.TIME.unit.MICROS !== undefined) return { kind: 'time' };
      if (ann.TIMESTAMP !== undefined) {
        const u = ann.TIMESTAMP.unit;
        if (u.MICROS !== undefined) return { kind: 'timestamp', unit: 'us', utc: ann.TIMESTAMP.isAdjustedToUTC };
        if (u.NANOS !== undefined) return { kind: 'timestamp', unit: 'ns', utc: ann.TIMESTAMP.isAdjustedToUTC };
      }
      break;
    case Type.FLOAT:
      if (ann === undefined) return { kind: 'float' };
      break;
    case Type.DOUBLE:
      if (ann === undefined) return { kind: 'double' };
      break;
    case Type.BYTE_ARRAY:
      if (ann === undefined) return { kind: 'binary' };
      if (ann.STRING !== undefined) return { kind: 'string' };
      break;
    case Type.FIXED_LEN_BYTE_ARRAY:
      if (ann?.UUID !== undefined && node.typeLength === 16) return { kind: 'uuid' };
      break;
  }
  throw unsupported(name(), path);
}

/** Marker for "missing" (both `value` and `typed_value` null). */
const MISSING: unique symbol = Symbol('missing');

interface MergeCtx {
  readonly md: VariantMetadata;
  readonly options: DecodeVariantOptions;
  readonly maxDepth: number;
  readonly path: PathStack;
}

/** Per object shape: fields in UTF-8 key order and the set of shredded names (computed once per shape). */
interface ObjectPlan {
  readonly sorted: readonly ShreddedField[];
  readonly names: ReadonlySet<string>;
}
const plans = /*#__PURE__*/ new WeakMap<ShreddedObjectShape, ObjectPlan>();

function planOf(shape: ShreddedObjectShape): ObjectPlan {
  let plan = plans.get(shape);
  if (plan === undefined) {
    plan = { sorted: [...shape.fields].sort((a, b) => compareUtf8(a.name, b.name)), names: new Set(shape.fields.map((f) => f.name)) };
    plans.set(shape, plan);
  }
  return plan;
}


/**
 * Reconstructs a Variant value from the row-assembled pieces of a shredded Variant column
 * (VariantShredding.md, "Reconstructing a Shredded Variant").
 *
 * `typedValue` follows the reader's row mapping: INT32/INTEGER → number, INT64 → bigint (a safe
 * integer number is accepted too), DECIMAL → exact decimal string, DATE → number of days, TIMESTAMP
 * and TIME → bigint in their unit, FLOAT/DOUBLE → number, STRING → string, BYTE_ARRAY → Uint8Array,
 * UUID → string, BOOLEAN → boolean, a shredded object → plain object of `{ value, typed_value }` per
 * field name, a shredded array → array of `{ value, typed_value }`, null → null.
 *
 * Both `value` and `typed_value` null means a missing field inside an object, and a Variant null at the
 * top level and for an array element (where a value is required). A partially shredded object merges the typed fields with the fields of `value`, keys in
 * UTF-8 order.
 *
 * @param metadata - the column's `metadata` (shared by all nested `value`s); consecutive calls with identical
 *   bytes reuse one parsed {@link VariantMetadata}.
 * @param value - the column's `value`, or null/undefined.
 * @param typedValue - the column's `typed_value` as assembled by the reader, or null/undefined.
 * @param shape - the `typed_value` shape ({@link shreddedShapeFromSchema}), or null when not shredded.
 * @param options - nesting limit for decoding `value`s.
 * @returns the Variant value in the {@link VariantValue} mapping.
 * @throws ParquetError `VARIANT_SHREDDING_INVALID` when `value` and `typed_value` are both set for a
 *   non-object, a partially shredded `value` is not an object or repeats a shredded field, an object
 *   `value` has no `typed_value` while shredded as an object, or a typed value does not match its shape;
 *   `VARIANT_CORRUPT` from decoding a `value` or the metadata.
 */
export function mergeShredded(
  metadata: Uint8Array | VariantMetadata,
  value: Uint8Array | null | undefined,
  typedValue: unknown,
  shape: ShreddedShape | null,
  options: DecodeVariantOptions = {},
): VariantValue {
  if (!(metadata instanceof VariantMetadata) && !(metadata instanceof Uint8Array)) {
    throw new ParquetError('VARIANT_CORRUPT', 'parquet-variant: the Variant `metadata` is missing or not binary');
  }
  const md = metadata instanceof VariantMetadata ? metadata : parseMetadataCached(metadata);
  const ctx: MergeCtx = { md, options, maxDepth: options.maxDepth ?? DEFAULT_MAX_VARIANT_DEPTH, path: [] };
  const r = construct(ctx, value, typedValue, shape, 0);
  return r === MISSING ? null : r;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

function setKey(o: VariantObject, k: string, v: VariantValue): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

function construct(ctx: MergeCtx, value: unknown, typed: unknown, shape: ShreddedShape | null, depth: number): VariantValue | typeof MISSING {
  const path = ctx.path;
  if (value !== null && value !== undefined && !(value instanceof Uint8Array)) throw invalid('`value` is not binary', path);
  const v = value ?? null;
  if (depth > ctx.maxDepth) throw invalid(`nesting deeper than ${ctx.maxDepth}`, path);
  if (typed === null || typed === undefined) {
    if (v === null) return MISSING;
    if (shape?.kind === 'object' && v.length > 0 && (v[0]! & 3) === 2) {
      throw invalid('an object `value` with a null `typed_value` although the field is shredded as an object', path);
    }
    return decodeVariant(ctx.md, v, ctx.options);
  }
  if (shape === null) throw invalid('a `typed_value` without a shredded type', path);
  switch (shape.kind) {
    case 'object': {
      if (!isRecord(typed)) throw invalid('`typed_value` of a shredded object is not an object', path);
      const plan = planOf(shape);
      let rest: VariantObject | undefined;
      if (v !== null) {
        if (v.length === 0 || (v[0]! & 3) !== 2) throw invalid('non-object `value` with shredded fields', path);
        rest = decodeVariant(ctx.md, v, ctx.options) as VariantObject;
        for (const k of Object.keys(rest)) {
          if (plan.names.has(k)) throw invalid(`field ${JSON.stringify(k)} is both shredded and in \`value\``, path);
        }
      }
      const out: VariantObject = {};
      path.push('');
      // Fields come out in UTF-8 key order: the shredded ones are pre-sorted; merged ones need a sort.
      const entries: [string, VariantValue][] | undefined = rest === undefined ? undefined : [];
      for (const f of plan.sorted) {
        const g = typed[f.name];
        if (g === null || g === undefined) continue; // an optional field group that is null: missing
        path[path.length - 1] = f.name;
        if (!isRecord(g)) throw invalid('field group is not an object', path);
        const r = construct(ctx, g['value'], g['typed_value'], f.typed, depth + 1);
        if (r === MISSING) continue;
        if (entries === undefined) setKey(out, f.name, r);
        else entries.push([f.name, r]);
      }
      path.pop();
      if (entries === undefined || rest === undefined) return out;
      for (const k of Object.keys(rest)) entries.push([k, rest[k]!]);
      entries.sort((a, b) => compareUtf8(a[0], b[0]));
      for (const [k, x] of entries) setKey(out, k, x);
      return out;
    }
    case 'array': {
      if (v !== null) throw invalid('conflicting `value` and `typed_value` for a shredded array', path);
      if (!Array.isArray(typed)) throw invalid('`typed_value` of a shredded array is not an array', path);
      const out: VariantValue[] = new Array<VariantValue>(typed.length);
      path.push(0);
      for (let i = 0; i < typed.length; i++) {
        path[path.length - 1] = i;
        const g: unknown = typed[i];
        if (!isRecord(g)) throw invalid('array element is not a { value, typed_value } group', path);
        const r = construct(ctx, g['value'], g['typed_value'], shape.element.typed, depth + 1);
        // A missing element where a value is required reads as Variant null (spec, "Value Shredding").
        out[i] = r === MISSING ? null : r;
      }
      path.pop();
      return out;
    }
    default:
      if (v !== null) throw invalid('conflicting `value` and `typed_value` (both non-null for a non-object)', path);
      return primitive(typed, shape, path);
  }
}

const DEC_RE = /^(-?)(\d+)(?:\.(\d+))?$/;

function primitive(t: unknown, shape: ShreddedPrimitiveShape, path: PathStack): VariantValue {
  const bad = (): ParquetError => invalid(`typed value ${typeof t === 'bigint' ? `${t}n` : String(t)} does not match the shredded type ${shape.kind}`, path);
  switch (shape.kind) {
    case 'boolean':
      if (typeof t !== 'boolean') throw bad();
      return t;
    case 'int8':
    case 'int16':
    case 'int32': {
      const lim = shape.kind === 'int8' ? 0x80 : shape.kind === 'int16' ? 0x8000 : 0x80000000;
      if (typeof t !== 'number' || !Number.isInteger(t) || t < -lim || t >= lim) throw bad();
      return t;
    }
    case 'int64':
      if (typeof t === 'bigint') {
        if (t < -(1n << 63n) || t >= 1n << 63n) throw bad();
        const n = Number(t);
        return Number.isSafeInteger(n) ? n : t;
      }
      if (typeof t !== 'number' || !Number.isSafeInteger(t)) throw bad();
      return t;
    case 'float':
    case 'double':
      if (typeof t !== 'number') throw bad();
      return t;
    case 'decimal': {
      if (typeof t !== 'string') throw bad();
      const m = DEC_RE.exec(t);
      if (m === null) throw bad();
      let frac = m[3] ?? '';
      // Re-express with exactly `scale` fractional digits; only zeros may be dropped.
      if (frac.length > shape.scale) {
        if (!/^0*$/.test(frac.slice(shape.scale))) throw bad();
        frac = frac.slice(0, shape.scale);
      }
      frac = frac.padEnd(shape.scale, '0');
      const unscaled = BigInt((m[1] ?? '') + m[2]! + frac);
      return makeDecimal(formatDecimal(unscaled, shape.scale));
    }
    case 'date':
      if (typeof t !== 'number' || !Number.isInteger(t)) throw bad();
      return makeDate(t);
    case 'time':
    case 'timestamp': {
      let x: bigint;
      if (typeof t === 'bigint') x = t;
      else if (typeof t === 'number' && Number.isSafeInteger(t)) x = BigInt(t);
      else throw bad();
      return shape.kind === 'time' ? makeTime(x) : makeTimestamp(shape.unit, shape.utc, x);
    }
    case 'binary':
      if (!(t instanceof Uint8Array)) throw bad();
      return t;
    case 'string':
      if (typeof t !== 'string') throw bad();
      return t;
    case 'uuid': {
      if (t instanceof Uint8Array && t.length === 16) {
        let s = '';
        for (let i = 0; i < 16; i++) s += (i === 4 || i === 6 || i === 8 || i === 10 ? '-' : '') + t[i]!.toString(16).padStart(2, '0');
        return makeUuid(s);
      }
      if (typeof t !== 'string' || !/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(t)) throw bad();
      return makeUuid(t.toLowerCase());
    }
  }
}
