/**
 * Record assembly (the "record assembly" half of Dremel,
 * https://github.com/apache/parquet-format/blob/master/README.md#nested-encoding and
 * Melnik et al., VLDB 2010, §4.3): per-leaf definition/repetition levels and values →
 * nested JavaScript records. Structs become objects, lists arrays, maps `Map`s (or
 * objects), and absent optional values `null`.
 *
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';
import type { Field, SchemaTree, StructField } from './schema.js';
import { pruneStruct } from './prune.js';
import { isBinaryValues, isBooleanBits, levelCount, unpackBooleans, validateColumnLevels, validateRowCounts, valuesLength } from './validate.js';
import type { BinaryValues, BooleanBits, ColumnData } from './validate.js';

/** Options of {@link assembleRecords} and {@link assembleColumnar}. */
export interface AssembleOptions {
  /** How maps are returned: `'map'` (default) as `Map`, `'object'` as plain objects (keys stringified). */
  maps?: 'map' | 'object';
  /** Validate the untrusted levels first (default true). Assembly stays memory-safe either way. */
  validate?: boolean;
  /** Expected row count (the row group's `num_rows`), checked when validating. */
  numRows?: number;
}

/** Per-column state shared by both assemblers. */
export interface PreparedColumns {
  /** Pruned root. */
  readonly root: StructField;
  /**
   * Definition levels per column (zero-filled when the max is 0; when the column omitted them, filled with the max,
   * or undefined if `prepareColumns` was asked not to fill them).
   */
  readonly defs: (ArrayLike<number> | undefined)[];
  /** Per column: whether every level is at the max definition level (the column gave no definition levels). */
  readonly allDefined: boolean[];
  /** Repetition levels per column (zero-filled when the max is 0). */
  readonly reps: ArrayLike<number>[];
  /** Values per column ({@link BinaryValues} and {@link BooleanBits} kept as given only when `prepareColumns` was asked to). */
  readonly vals: (ArrayLike<unknown> | BinaryValues | BooleanBits)[];
  /**
   * Per column: whether its definition levels are still to be checked (range, and their count at the max against
   * the values) by the assembler — a flat optional top-level column under `deferFlat`, whose assembly reads each
   * level once anyway.
   */
  readonly deferred: boolean[];
  /** Level count per column. */
  readonly counts: Int32Array;
  /** Row count (from the first present column). */
  readonly rows: number;
}

/** One `Uint8Array` view per value. */
function binaryViews(v: BinaryValues): Uint8Array[] {
  const n = valuesLength(v);
  const out = new Array<Uint8Array>(n);
  const { offsets, data } = v;
  for (let i = 0; i < n; i++) out[i] = data.subarray(offsets[i]!, offsets[i + 1]!);
  return out;
}

/**
 * Checks the columns and prepares per-column arrays; shared by both assemblers.
 * @param schema - the schema tree.
 * @param columns - data per column index; `undefined` for columns not read.
 * @param options - assembly options.
 * @param keepBinary - keep {@link BinaryValues} and {@link BooleanBits} as they are (columnar assembly); otherwise
 *   they become one `Uint8Array` view / `boolean` per value.
 * @param fillDefs - give columns that omitted their definition levels an array filled with the max (default);
 *   false leaves them undefined (see `allDefined`).
 * @param deferFlat - leave the definition levels of flat optional top-level columns (max definition level 1, no
 *   repetition) unchecked, for an assembler that checks them as it reads them (see `deferred`); their row count is
 *   their level count.
 * @returns the prepared state.
 * @throws ParquetError `INVALID_LEVELS` / `ROW_COUNT_MISMATCH` from validation, `MISSING_COLUMN` from pruning.
 */
export function prepareColumns(schema: SchemaTree, columns: readonly (ColumnData | undefined)[], options?: AssembleOptions, keepBinary = false, fillDefs = true, deferFlat = false): PreparedColumns {
  const nCols = schema.columns.length;
  const present: boolean[] = new Array(nCols);
  const defs: (ArrayLike<number> | undefined)[] = new Array(nCols);
  const reps: ArrayLike<number>[] = new Array(nCols);
  const vals: (ArrayLike<unknown> | BinaryValues | BooleanBits)[] = new Array(nCols);
  const deferred: boolean[] = new Array(nCols).fill(false);
  const counts = new Int32Array(nCols);
  const validate = options?.validate ?? true;
  const rowCounts: number[] = [];
  const descs = [];
  let zeros: Uint8Array | undefined;
  const allDefined: boolean[] = new Array(nCols).fill(false);
  // level arrays filled with one max definition level, shared by the columns that omitted theirs
  const filled = new Map<number, Int32Array>();
  for (let c = 0; c < nCols; c++) {
    const data = columns[c];
    present[c] = data !== undefined;
    if (data === undefined) continue;
    const desc = schema.columns[c]!;
    const n = levelCount(desc, data);
    counts[c] = n;
    if (validate) {
      const flat = deferFlat && desc.maxDef === 1 && desc.maxRep === 0 && desc.path.length === 1 && data.def !== undefined && data.rep === undefined;
      deferred[c] = flat;
      rowCounts.push(flat ? n : validateColumnLevels(desc, data));
      descs.push(desc);
    }
    if (zeros === undefined || zeros.length < n) zeros = new Uint8Array(n);
    if (data.def !== undefined || desc.maxDef === 0) defs[c] = data.def ?? zeros;
    else if (!fillDefs) allDefined[c] = true;
    else {
      let f = filled.get(desc.maxDef);
      if (f === undefined || f.length < n) filled.set(desc.maxDef, (f = new Int32Array(n).fill(desc.maxDef)));
      defs[c] = f;
      allDefined[c] = true;
    }
    reps[c] = data.rep ?? zeros;
    const v = data.values;
    vals[c] = keepBinary ? v : isBinaryValues(v) ? binaryViews(v) : isBooleanBits(v) ? unpackBooleans(v) : v;
  }
  const root = pruneStruct(schema.field, present);
  const c0 = root.leaves[0];
  let rows = 0;
  if (validate) {
    rows = validateRowCounts(descs, rowCounts, options?.numRows);
  } else if (c0 !== undefined) {
    const rep = reps[c0]!;
    const n = counts[c0]!;
    for (let i = 0; i < n; i++) if (rep[i] === 0) rows++;
  }
  return { root, defs, allDefined, reps, vals, counts, rows, deferred };
}

/**
 * A structural `INVALID_LEVELS` error naming the field path, column index and level index.
 * @param f - the field being assembled.
 * @param c - column index.
 * @param pos - level index.
 * @param message - what is wrong.
 * @returns the error.
 */
export function structureError(f: Field, c: number, pos: number, message: string): ParquetError {
  return new ParquetError(
    'INVALID_LEVELS',
    `parquet-levels: column ${c} under '${f.node.path.join('.') || '<root>'}': ${message} at level index ${pos}`,
  );
}

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

/**
 * Runs an assembly, turning the engine's RangeError (an array past its length limit, a stack overflow) into a typed
 * `LIMIT_EXCEEDED`: levels from an untrusted file may describe more than JavaScript can build.
 * @param what - what is assembled, for the message.
 * @param f - the assembly.
 * @returns its result.
 * @throws ParquetError `LIMIT_EXCEEDED` for a RangeError; other errors as they are.
 */
export function withinEngineLimits<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof RangeError) {
      throw new ParquetError('LIMIT_EXCEEDED', `parquet-levels: the ${what} are more than JavaScript can hold: ${e.message}`, undefined, { cause: e });
    }
    throw e;
  }
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

/**
 * Rows of top-level leaves only (no struct, list or map): every object is cloned from a template of the keys, then
 * filled column by column, so each loop reads one kind of array and stores one property. Levels were validated by
 * {@link prepareColumns}: every column has `rows` level entries and one value per level at its max.
 */
function flatRecords(root: StructField, prepared: PreparedColumns, vals: ArrayLike<unknown>[]): Record<string, unknown>[] {
  const rows = prepared.rows;
  const template: Record<string, unknown> = {};
  for (const f of root.fields) Object.defineProperty(template, f.name, { value: null, enumerable: true, writable: true, configurable: true });
  const out = new Array<Record<string, unknown>>(rows);
  for (let r = 0; r < rows; r++) out[r] = { ...template };
  for (const f of root.fields) {
    const c = f.leaves[0]!;
    if (prepared.counts[c] !== rows) throw structureError(f, c, 0, `column has ${prepared.counts[c]} levels for ${rows} rows`);
    fillColumn(out, f.name, vals[c]!, prepared.allDefined[c] ? undefined : prepared.defs[c]!, f.def, rows);
  }
  return out;
}

function fillColumn(out: Record<string, unknown>[], name: string, val: ArrayLike<unknown>, def: ArrayLike<number> | undefined, maxDef: number, rows: number): void {
  if (def === undefined || maxDef === 0) {
    for (let r = 0; r < rows; r++) out[r]![name] = val[r];
    return;
  }
  let vp = 0;
  for (let r = 0; r < rows; r++) if (def[r] === maxDef) out[r]![name] = val[vp++];
}
