/**
 * The JSON-safe mapping of whole rows and vectors (`values: 'json'`): leaves as `@parquetry/parquet-column`'s
 * `jsonValues` converts them, maps (LogicalTypes.md, https://github.com/apache/parquet-format/blob/master/LogicalTypes.md#maps)
 * as plain objects when every key is a string or a number and no two keys print alike (else as an array of
 * `{ key, value }`), and VARIANT values (https://github.com/apache/parquet-format/blob/master/VariantEncoding.md) as
 * JSON values: int64 as a number when safe else a decimal string, decimals as exact strings, dates, times and
 * timestamps as ISO-8601 strings, binary as base64, UUIDs as strings, NaN/±Infinity as strings.
 * Rows are read with the default mapping (so filters compare native values) and converted here, in place.
 * @module
 */
// bundle layout only (no value used): see optional.ts, `Chunk grouping`
import './file.js';
import { formatDate, formatTime, formatTimestamp, jsonConverter, jsonValues, toBase64 } from '@parquetry/parquet-column/read';
import type { ColumnarVector, Field, SchemaTree, StructVector } from '@parquetry/parquet-levels';
import { asTagged } from '@parquetry/parquet-variant';

type Transform = (v: unknown) => unknown;

/**
 * A VARIANT value as a JSON value.
 * @param v - a decoded variant (`@parquetry/parquet-variant`'s mapping).
 * @returns the JSON-safe value.
 */
export function variantJson(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean':
    case 'string':
      return v;
    case 'number':
      return Number.isFinite(v) ? v : String(v);
    case 'bigint': {
      const n = Number(v);
      return Number.isSafeInteger(n) ? n : String(v);
    }
    default:
      break;
  }
  if (v instanceof Uint8Array) return toBase64(v);
  if (Array.isArray(v)) return v.map(variantJson);
  const t = asTagged(v);
  if (t) {
    switch (t.type) {
      case 'date':
        return formatDate(t.days);
      case 'timestamp':
        return formatTimestamp(t.value, t.unit, t.utc);
      case 'time':
        return formatTime(t.value, t.unit);
      case 'uuid':
      case 'decimal':
        return t.value;
    }
  }
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, variantJson(x)]));
}

/** A map's entries as an object when the keys allow it, else as `{ key, value }` pairs. */
function mapJson(m: Map<unknown, unknown>, tk: Transform | undefined, tv: Transform | undefined): unknown {
  const entries: [unknown, unknown][] = [];
  const seen = new Set<string>();
  let plain = true;
  for (const [k0, v0] of m) {
    const k = k0 === null || k0 === undefined || tk === undefined ? (k0 ?? null) : tk(k0);
    const v = v0 === null || v0 === undefined || tv === undefined ? (v0 ?? null) : tv(v0);
    if (plain) {
      if (typeof k === 'string' || typeof k === 'number') {
        const name = String(k);
        if (seen.has(name)) plain = false;
        seen.add(name);
      } else plain = false;
    }
    entries.push([k, v]);
  }
  return plain ? Object.fromEntries(entries) : entries.map(([key, value]) => ({ key, value }));
}

/** The transform of one field's values, or undefined when they are JSON-safe as read. */
function transformOf(f: Field, schema: SchemaTree, variants: boolean): Transform | undefined {
  if (variants && f.node.logicalType?.VARIANT) return variantJson;
  switch (f.kind) {
    case 'leaf': {
      const conv = jsonConverter(schema.columns[f.column]!);
      return conv && ((v) => (v === null || v === undefined ? v : conv(v)));
    }
    case 'struct': {
      const parts = f.fields.map((c) => [c.name, transformOf(c, schema, variants)] as const).filter(([, t]) => t !== undefined) as [string, Transform][];
      if (parts.length === 0) return undefined;
      return (v) => {
        if (v === null || v === undefined) return v;
        const o = v as Record<string, unknown>;
        for (const [name, t] of parts) if (Object.hasOwn(o, name)) o[name] = t(o[name]);
        return o;
      };
    }
    case 'list': {
      const t = transformOf(f.element, schema, variants);
      if (t === undefined) return undefined;
      return (v) => {
        if (!Array.isArray(v)) return v;
        for (let i = 0; i < v.length; i++) v[i] = t(v[i]);
        return v;
      };
    }
    case 'map': {
      const tk = transformOf(f.key, schema, variants);
      const tv = f.value ? transformOf(f.value, schema, variants) : undefined;
      return (v) => (v instanceof Map ? mapJson(v, tk, tv) : v);
    }
  }
}

/**
 * Builds the in-place JSON-safe conversion of rows read with the default mapping (maps as `Map`).
 * @param schema - the file's schema.
 * @param variants - whether VARIANT values were decoded (else their stored groups are converted field by field).
 * @returns the conversion, or undefined when rows of this schema are JSON-safe as read.
 */
export function jsonRowTransform(schema: SchemaTree, variants: boolean): ((rows: Record<string, unknown>[]) => void) | undefined {
  const t = transformOf(schema.field, schema, variants);
  return t && ((rows) => {
    for (let i = 0; i < rows.length; i++) t(rows[i]);
  });
}

/** A vector with its leaf values JSON-safe (null slots hold null). */
function vectorJson(v: ColumnarVector, schema: SchemaTree): ColumnarVector {
  switch (v.kind) {
    case 'leaf': {
      if (v.field.kind !== 'leaf') return v;
      const out = jsonValues(v.values, schema.columns[v.field.column]!);
      if (out === v.values) return v;
      const validity = v.validity;
      if (validity) for (let i = 0; i < validity.length; i++) if (validity[i] === 0) (out as unknown[])[i] = null;
      return { ...v, values: out };
    }
    case 'binary':
      return v;
    case 'struct':
      return { ...v, children: v.children.map((c) => vectorJson(c, schema)) };
    case 'list':
      return { ...v, element: vectorJson(v.element, schema) };
    case 'map':
      return { ...v, keys: vectorJson(v.keys, schema), values: v.values && vectorJson(v.values, schema) };
  }
}

/**
 * The JSON-safe form of a columnar read: leaf vectors' values converted (byte arrays kept as binary vectors stay).
 * @param v - the root struct vector, read with the default mapping.
 * @param schema - the file's schema.
 * @returns a struct vector sharing every unchanged child.
 */
export function jsonVector(v: StructVector, schema: SchemaTree): StructVector {
  return vectorJson(v, schema) as StructVector;
}
