/**
 * `@parquetry/parquet-levels/records` — record assembly (the "record assembly" half of Dremel,
 * https://github.com/apache/parquet-format/blob/master/README.md#nested-encoding and
 * Melnik et al., VLDB 2010, §4.3): per-leaf definition/repetition levels and values →
 * nested JavaScript records. Structs become objects, lists arrays, maps `Map`s (or
 * objects), and absent optional values `null`. Also in the package's main entry; a subpath of its own so that a
 * reader loads it with `import()` on the first read of nested columns (flat reads use `assembleFlatRecords`).
 *
 * @packageDocumentation
 */
import type { Field, SchemaTree } from './schema.js';
import { flatRecords, prepareColumns, structureError, withinEngineLimits, type AssembleOptions } from './assemble.js';
import type { ColumnData } from './validate.js';

/**
 * Assembles records from per-column levels and values.
 *
 * Columns may be a subset (projection): pass `undefined` for columns not read, and the
 * records contain only fields with at least one column present.
 *
 * @param schema - the schema tree.
 * @param columns - levels and non-null values per column index.
 * @param options - map representation, validation.
 * @returns one object per row.
 * @throws ParquetError `INVALID_LEVELS` (column path and level index) when levels are out of range, do not start
 *   a row, disagree between columns of one struct/list, or do not match the number of values;
 *   `ROW_COUNT_MISMATCH` when columns disagree on the row count; `LIMIT_EXCEEDED` when the records are more than
 *   JavaScript can hold (an array longer than the engine allows, nesting deeper than its stack).
 */
export function assembleRecords(
  schema: SchemaTree,
  columns: readonly (ColumnData | undefined)[],
  options?: AssembleOptions,
): Record<string, unknown>[] {
  return withinEngineLimits('records', () => assembleRecordsOf(schema, columns, options));
}

function assembleRecordsOf(
  schema: SchemaTree,
  columns: readonly (ColumnData | undefined)[],
  options?: AssembleOptions,
): Record<string, unknown>[] {
  const prepared = prepareColumns(schema, columns, options);
  const { root, reps, counts } = prepared;
  // filled levels: every present column has an array
  const defs = prepared.defs as ArrayLike<number>[];
  // without keepBinary every column's values are an array
  const vals = prepared.vals as ArrayLike<unknown>[];
  const asObject = options?.maps === 'object';
  const nCols = schema.columns.length;
  const lpos = new Int32Array(nCols);
  const vpos = new Int32Array(nCols);

  /** Consumes one level entry from every leaf of `f`, all of which must be below `below`. */
  const skip = (f: Field, below: number): void => {
    const leaves = f.leaves;
    for (let i = 0; i < leaves.length; i++) {
      const l = leaves[i]!;
      const p = lpos[l]!;
      if (p >= counts[l]!) throw structureError(f, l, p, 'column ended inside a row');
      if (defs[l]![p]! >= below) throw structureError(f, l, p, `definition level ${defs[l]![p]!} disagrees with the column that has a null/empty value here`);
      lpos[l] = p + 1;
    }
  };

  /**
   * Compiles a field into a reader closure with its constants captured, so that the per-value
   * work is monomorphic. A reader reads the value of its field whose parent is present at
   * definition level `parentDef`, consuming that value's level entries from every leaf under it.
   */
  type Reader = (parentDef: number) => unknown;
  const compile = (f: Field): Reader => {
    const c = f.leaves[0]!;
    const def = defs[c]!;
    const n = counts[c]!;
    const fdef = f.def;
    const nullable = f.nullable;
    /** Level entry of this value, after the null checks; -1 when the value is null (already skipped). */
    const enter = (parentDef: number): number => {
      const p = lpos[c]!;
      if (p >= n) throw structureError(f, c, p, 'column ended inside a row');
      const d = def[p]!;
      if (d >= fdef) return d;
      if (d < parentDef) throw structureError(f, c, p, `definition level ${d} says an enclosing value is null, but another column of it has it present (${parentDef})`);
      if (!nullable) throw structureError(f, c, p, `definition level ${d} is below ${fdef} for a required value`);
      skip(f, fdef);
      return -1;
    };
    switch (f.kind) {
      case 'leaf': {
        const val = vals[c]!;
        const nv = val.length;
        return (parentDef) => {
          if (enter(parentDef) < 0) return null;
          const vp = vpos[c]!;
          if (vp >= nv) throw structureError(f, c, lpos[c]!, `fewer values (${nv}) than levels at the max definition level`);
          vpos[c] = vp + 1;
          lpos[c]!++;
          return val[vp];
        };
      }
      case 'struct': {
        const names = f.fields.map((x) => x.name);
        const readers = f.fields.map(compile);
        const k = readers.length;
        // Cloning a template with every key already present gives each object its final shape at once
        // (in-object slots, no transitions or backing-store growth per property), without generating code.
        // (defineProperty, so that a field named `__proto__` is an own property, never the prototype)
        const template: Record<string, unknown> = {};
        for (const name of names) Object.defineProperty(template, name, { value: null, enumerable: true, writable: true, configurable: true });
        return (parentDef) => {
          if (enter(parentDef) < 0) return null;
          const obj: Record<string, unknown> = { ...template };
          for (let i = 0; i < k; i++) obj[names[i]!] = readers[i]!(fdef);
          return obj;
        };
      }
      case 'list': {
        const rep = reps[c]!;
        const e = f.element;
        const er = f.elementRep;
        const ed = f.elementDef;
        if (e.kind === 'leaf') {
          // Leaf elements inline: one pass over this column's levels, no call per element, and an
          // array of the exact length (no growth, no spare capacity).
          const val = vals[c]!;
          const nv = val.length;
          const vd = e.def;
          const enull = e.nullable;
          return (parentDef) => {
            const d = enter(parentDef);
            if (d < 0) return null;
            const p0 = lpos[c]!;
            if (d < ed) {
              skip(f, ed);
              return [];
            }
            let end = p0 + 1;
            while (end < n && rep[end] === er) end++;
            const out: unknown[] = new Array(end - p0);
            let vp = vpos[c]!;
            for (let p = p0; p < end; p++) {
              const dd = def[p]!;
              if (dd >= vd) {
                if (vp >= nv) throw structureError(e, c, p, `fewer values (${nv}) than levels at the max definition level`);
                out[p - p0] = val[vp++];
              } else if (dd >= ed && enull) {
                out[p - p0] = null;
              } else {
                throw structureError(e, c, p, `definition level ${dd} inside a list element that needs at least ${enull ? ed : vd}`);
              }
            }
            lpos[c] = end;
            vpos[c] = vp;
            return out;
          };
        }
        const readElement = compile(e);
        return (parentDef) => {
          const d = enter(parentDef);
          if (d < 0) return null;
          if (d < ed) {
            skip(f, ed);
            return [];
          }
          // Count the elements first (entries at exactly this repetition level) to size the array.
          const p0 = lpos[c]!;
          let k = 1;
          for (let q = p0 + 1; q < n; q++) {
            const r = rep[q]!;
            if (r < er) break;
            if (r === er) k++;
          }
          const out: unknown[] = new Array(k);
          for (let i = 0; i < k; i++) {
            if (i > 0 && (lpos[c]! >= n || rep[lpos[c]!] !== er)) throw structureError(f, c, lpos[c]!, "list element levels disagree with the list's repetition levels");
            out[i] = readElement(ed);
          }
          return out;
        };
      }
      case 'map': {
        const rep = reps[c]!;
        const er = f.elementRep;
        const ed = f.elementDef;
        const readKey = compile(f.key);
        const readValue = f.value === undefined ? undefined : compile(f.value);
        return (parentDef) => {
          const d = enter(parentDef);
          if (d < 0) return null;
          const m = asObject ? undefined : new Map<unknown, unknown>();
          const o: Record<string, unknown> | undefined = asObject ? {} : undefined;
          if (d < ed) {
            skip(f, ed);
            return m ?? o;
          }
          do {
            const key = readKey(ed);
            const value = readValue === undefined ? null : readValue(ed);
            if (m) m.set(key, value);
            else o![String(key)] = value;
          } while (lpos[c]! < n && rep[lpos[c]!] === er);
          return m ?? o;
        };
      }
    }
  };

  const out: Record<string, unknown>[] = [];
  const c0 = root.leaves[0];
  if (c0 === undefined) return out;
  if (prepared.rows >= 0 && (options?.validate ?? true) && root.fields.every((f) => f.kind === 'leaf' && f.repDepth === 0)) {
    return flatRecords(root, prepared, vals);
  }
  const rep0 = reps[c0]!;
  const n0 = counts[c0]!;
  const readRow = compile(root);
  while (lpos[c0]! < n0) {
    if (rep0[lpos[c0]!] !== 0) throw structureError(root, c0, lpos[c0]!, `repetition level ${rep0[lpos[c0]!]} where a row must start (0)`);
    out.push(readRow(0) as Record<string, unknown>);
  }
  for (const c of root.leaves) {
    if (lpos[c] !== counts[c]) throw structureError(root, c, lpos[c]!, `column has ${counts[c]} levels but its rows end here (columns disagree on structure)`);
    if (vpos[c] !== vals[c]!.length) throw structureError(root, c, lpos[c]!, `${vals[c]!.length - vpos[c]!} values left over after the last level`);
  }
  return out;
}

