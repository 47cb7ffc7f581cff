/**
 * VARIANT columns: after row assembly a Variant group is `{ metadata, value?, typed_value? }`; this turns it into
 * the variant's JavaScript value, merging shredded `typed_value` back as VariantShredding.md specifies
 * (mapping: `@parquetry/parquet-variant`).
 * @module
 */
import './file.js';
import { mergeShredded, variantColumnLayout, type VariantSchemaNode } from '@parquetry/parquet-variant';
import type { Field, SchemaNode, SchemaTree } from '@parquetry/parquet-levels';

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

type Transform = (v: unknown) => unknown;

function hasVariant(f: Field): boolean {
  if (f.node.logicalType?.VARIANT) return true;
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

function transformOf(f: Field): Transform | undefined {
  if (!hasVariant(f)) return undefined;
  if (f.node.logicalType?.VARIANT) {
    const layout = variantColumnLayout(toVariantNode(f.node));
    return (v) => {
      if (v === null || v === undefined) return null;
      const g = v as { metadata: Uint8Array; value?: Uint8Array | null; typed_value?: unknown };
      return mergeShredded(g.metadata, g.value ?? null, g.typed_value ?? null, layout.typed);
    };
  }
  switch (f.kind) {
    case 'struct': {
      const parts = f.fields.map((c) => [c.name, transformOf(c)] as const).filter(([, t]) => t !== undefined) as [string, Transform][];
      return (v) => {
        if (v === null || v === undefined) return v;
        const o = v as Record<string, unknown>;
        for (const [name, t] of parts) if (name in o) o[name] = t(o[name]);
        return o;
      };
    }
    case 'list': {
      const t = transformOf(f.element)!;
      return (v) => (Array.isArray(v) ? v.map(t) : v);
    }
    case 'map': {
      const tk = transformOf(f.key);
      const tv = f.value ? transformOf(f.value) : undefined;
      return (v) => {
        if (v instanceof Map) return new Map([...v].map(([k, x]) => [tk ? tk(k) : k, tv ? tv(x) : x]));
        if (v && typeof v === 'object' && tv) for (const k of Object.keys(v)) (v as Record<string, unknown>)[k] = tv((v as Record<string, unknown>)[k]);
        return v;
      };
    }
    default:
      return undefined;
  }
}

/**
 * Builds an in-place row transform that decodes every VARIANT field, or undefined when the schema has none.
 * @param schema - the schema tree.
 * @returns the transform.
 */
export function variantRowTransform(schema: SchemaTree): ((rows: Record<string, unknown>[]) => void) | undefined {
  const t = transformOf(schema.field);
  return t ? (rows) => rows.forEach((r) => t(r)) : undefined;
}
