/**
 * Converts rows read by @parquetry/parquet-reader (default value mapping) into the canonical form of
 * tools/peers/canon.mjs, so they can be compared with the peers' and upstream expectations.
 */
import type { Field, SchemaTree } from '@parquetry/parquet-levels';
import { Type } from '@parquetry/thrift-compact';
// @ts-expect-error: plain ESM with JSDoc types
import * as canon from '../../../tools/peers/canon.mjs';

type Unit = 'millis' | 'micros' | 'nanos';
interface Canon {
  canonNumber(x: number): number | string;
  canonInt(x: bigint | number): number | string;
  canonBinary(b: Uint8Array): string;
  formatDate(days: number | bigint): string;
  formatTime(count: bigint | number, unit: Unit): string;
  formatTimestamp(count: bigint | number, unit: Unit, utc: boolean): string;
  canonRows(rows: unknown[]): string;
  formatUuid(v: Uint8Array | bigint): string;
  sortedObject(entries: [string, unknown][]): Record<string, unknown>;
  digest(rows: unknown[]): string;
}
const C = canon as unknown as Canon;
export const { canonRows, digest } = C;

function unitOf(u: { MILLIS?: object; MICROS?: object; NANOS?: object } | undefined): Unit {
  return u?.MILLIS ? 'millis' : u?.MICROS ? 'micros' : 'nanos';
}

/** Variant values need the variant decoder; the reader hands them over via this hook when available. */
export type VariantCanon = (value: unknown) => unknown;

function leaf(f: Extract<Field, { kind: 'leaf' }>, v: unknown): unknown {
  const el = f.node.element;
  const lt = f.node.logicalType;
  switch (el.type) {
    case Type.BOOLEAN:
      return v;
    case Type.INT32:
      if (lt?.DECIMAL) return v;
      if (lt?.DATE) return C.formatDate(v as number);
      if (lt?.TIME) return C.formatTime(v as number, unitOf(lt.TIME.unit));
      return C.canonInt(v as number);
    case Type.INT64:
      if (lt?.DECIMAL) return v;
      if (lt?.TIMESTAMP) return C.formatTimestamp(v as bigint, unitOf(lt.TIMESTAMP.unit), lt.TIMESTAMP.isAdjustedToUTC);
      if (lt?.TIME) return C.formatTime(v as bigint, unitOf(lt.TIME.unit));
      return C.canonInt(v as bigint);
    case Type.INT96:
      return C.formatTimestamp(v as bigint, 'nanos', false);
    case Type.FLOAT:
    case Type.DOUBLE:
      return C.canonNumber(v as number);
    default:
      if (typeof v === 'number') return C.canonNumber(v); // FLOAT16
      if (v instanceof Uint8Array) return C.canonBinary(v);
      return v; // strings, decimals, UUIDs, intervals
  }
}

/**
 * Canonical form of one field's value.
 * @param f - the field (schema tree node).
 * @param v - the value as the reader returned it.
 * @param variant - converts a VARIANT group's value.
 */
export function canonField(f: Field, v: unknown, variant?: VariantCanon): unknown {
  if (v === null || v === undefined) return null;
  if (f.node.logicalType?.VARIANT && variant) return variant(v);
  switch (f.kind) {
    case 'leaf':
      return leaf(f, v);
    case 'struct': {
      const o: Record<string, unknown> = {};
      for (const c of f.fields) o[c.name] = canonField(c, (v as Record<string, unknown>)[c.name], variant);
      return o;
    }
    case 'list':
      return (v as unknown[]).map((e) => canonField(f.element, e, variant));
    case 'map': {
      const out: { key: unknown; value?: unknown }[] = [];
      // a MAP without a value field (map_no_value) has entries with a key only
      for (const [k, x] of v as Map<unknown, unknown>) out.push(f.value ? { key: canonField(f.key, k, variant), value: canonField(f.value, x, variant) } : { key: canonField(f.key, k, variant) });
      return out;
    }
  }
}

/**
 * Canonical rows.
 * @param schema - the file's schema tree.
 * @param rows - rows from `readRows()` (default mapping, maps as `Map`).
 * @param variant - VARIANT conversion.
 */
export function canonParquetryRows(schema: SchemaTree, rows: Record<string, unknown>[], variant?: VariantCanon): Record<string, unknown>[] {
  const fields = schema.field.fields;
  return rows.map((r) => {
    const o: Record<string, unknown> = {};
    for (const f of fields) o[f.name] = canonField(f, r[f.name], variant);
    return o;
  });
}

/** The brand of `@parquetry/parquet-variant`'s typed values (its `VARIANT_TYPED`, a `Symbol.for` symbol). */
const TYPED = Symbol.for('@parquetry/parquet-variant.typed');

/**
 * Canonical form of a decoded VARIANT value (`@parquetry/parquet-variant` mapping): tagged dates, times,
 * timestamps, decimals and UUIDs become the canonical strings; objects get sorted keys.
 * @param v - the variant value.
 */
export function canonVariant(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return C.canonInt(v);
  if (typeof v === 'number') return C.canonNumber(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Uint8Array) return C.canonBinary(v);
  if (Array.isArray(v)) return v.map(canonVariant);
  const o = v as Record<string, unknown>;
  // typed values carry the brand of @parquetry/parquet-variant (VARIANT_TYPED); a plain object is an object whatever its keys
  switch ((o as { [TYPED]?: unknown })[TYPED] === true ? o.type : undefined) {
    case 'decimal':
      if (typeof o.value === 'string' && Object.keys(o).length === 2) return o.value;
      break;
    case 'date':
      if (typeof o.days === 'number' && Object.keys(o).length === 2) return C.formatDate(o.days);
      break;
    case 'timestamp':
      if (typeof o.value === 'bigint') return C.formatTimestamp(o.value, o.unit === 'ns' ? 'nanos' : 'micros', o.utc === true);
      break;
    case 'time':
      if (typeof o.value === 'bigint') return C.formatTime(o.value, o.unit === 'ns' ? 'nanos' : 'micros');
      break;
    case 'uuid':
      if (typeof o.value === 'string') return o.value;
      break;
  }
  return C.sortedObject(Object.entries(o).map(([k, x]) => [k, canonVariant(x)]));
}
