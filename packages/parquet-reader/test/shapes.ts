// The field order of read results, for the column-order tests of the reader and parquet-dataset.
import { expect } from 'vitest';
import type { ColumnarVector, StructField, StructVector } from '@parquetry/parquet-levels';

/** The order of a row's keys, a struct's keys inside braces. */
export function rowShape(row: Record<string, unknown>): string[] {
  return Object.keys(row).map((k) => {
    const v = row[k];
    return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map) ? `${k}{${Object.keys(v).join(',')}}` : k;
  });
}

/** The order of a root vector's children, a struct's children inside braces (and its field's `fields` checked). */
export function vectorShape(v: StructVector): string[] {
  expect((v.field as StructField).fields.map((f) => f.name)).toEqual(v.children.map((c) => c.field.name));
  return v.children.map((c: ColumnarVector) => (c.kind === 'struct' ? `${c.field.name}{${c.children.map((x) => x.field.name).join(',')}}` : c.field.name));
}
