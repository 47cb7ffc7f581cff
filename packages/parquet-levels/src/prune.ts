/**
 * Projection of the logical field tree onto the columns actually read
 * (https://github.com/apache/parquet-format/blob/master/README.md#nested-encoding:
 * every leaf carries all levels of its ancestors, so any subset of leaves can be assembled).
 *
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';
import type { Field, StructField } from './schema.js';

/**
 * Restricts a field tree to the leaves in `present`.
 *
 * @param f - the field.
 * @param present - `present[c]` is true when column `c` is available.
 * @returns the pruned field, or `undefined` when none of its leaves is present.
 * @throws ParquetError `MISSING_COLUMN` when a map's value columns are present but its key columns are not.
 */
export function pruneField(f: Field, present: readonly boolean[]): Field | undefined {
  const leaves = f.leaves.filter((c) => present[c] === true);
  if (leaves.length === 0) return undefined;
  if (leaves.length === f.leaves.length) return f;
  switch (f.kind) {
    case 'leaf': return f;
    case 'struct': return pruneStruct(f, present);
    case 'list': {
      const element = pruneField(f.element, present)!;
      return { ...f, leaves, element };
    }
    case 'map': {
      const key = pruneField(f.key, present);
      if (key === undefined) {
        throw new ParquetError('MISSING_COLUMN', `parquet-levels: map '${f.node.path.join('.')}' needs its key column(s) to assemble its values`);
      }
      const value = f.value === undefined ? undefined : pruneField(f.value, present);
      return { ...f, leaves, key, value };
    }
  }
}

/**
 * Restricts a struct to the leaves in `present`; an empty struct stays (with no fields).
 * @param f - the struct field.
 * @param present - `present[c]` is true when column `c` is available.
 * @returns the pruned struct.
 * @throws ParquetError `MISSING_COLUMN` as {@link pruneField}.
 */
export function pruneStruct(f: StructField, present: readonly boolean[]): StructField {
  const fields: Field[] = [];
  for (const c of f.fields) {
    const p = pruneField(c, present);
    if (p !== undefined) fields.push(p);
  }
  return { ...f, fields, leaves: f.leaves.filter((c) => present[c] === true) };
}
