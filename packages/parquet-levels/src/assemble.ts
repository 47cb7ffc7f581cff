/**
 * What both assemblers share (column preparation and checks, structural errors), and the records of flat reads
 * (top-level leaves only). Nested records are assembled by records.ts, apart so that a reader of flat files
 * never loads it.
 *
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';
import type { Field, SchemaTree, StructField } from './schema.js';
import { pruneStruct } from './prune.js';
import { isBinaryValues, isBooleanBits, levelCount, unpackBooleans, validateLevels, validateRowCounts, valuesLength } from './validate.js';
import type { BinaryValues, BooleanBits, ByteLevelCounter, ColumnData } from './validate.js';

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
 * @param count - counts byte levels for the checks in one pass (columnar assembly's, from its own lazy module; the
 *   generic loops otherwise).
 * @returns the prepared state.
 * @throws ParquetError `INVALID_LEVELS` / `ROW_COUNT_MISMATCH` from validation, `MISSING_COLUMN` from pruning.
 */
export function prepareColumns(schema: SchemaTree, columns: readonly (ColumnData | undefined)[], options?: AssembleOptions, keepBinary = false, fillDefs = true, deferFlat = false, count?: ByteLevelCounter): PreparedColumns {
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
  const filled = new Map<number, Uint8Array | Int32Array>();
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
      rowCounts.push(flat ? n : validateLevels(desc, data, count));
      descs.push(desc);
    }
    if (zeros === undefined || zeros.length < n) zeros = new Uint8Array(n);
    if (data.def !== undefined || desc.maxDef === 0) defs[c] = data.def ?? zeros;
    else if (!fillDefs) allDefined[c] = true;
    else {
      let f = filled.get(desc.maxDef);
      // (bytes, as a reader's decoded levels are, so that the level loops see one array kind)
      if (f === undefined || f.length < n) filled.set(desc.maxDef, (f = (desc.maxDef <= 255 ? new Uint8Array(n) : new Int32Array(n)).fill(desc.maxDef)));
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

/**
 * Assembles the records of a read whose present columns are all top-level leaves (no struct, list or map, no
 * repeated field): the same records and errors as `assembleRecords` (`@parquetry/parquet-levels`, or the
 * `/records` entry), without the nested assembly, so that a reader of flat files need not load it.
 * @param schema - the schema tree.
 * @param columns - levels and non-null values per column index; `undefined` for columns not read.
 * @param options - map representation, validation.
 * @returns one object per row; undefined when the read is not flat, or `validate` is false (then use
 *   `assembleRecords`).
 * @throws ParquetError `INVALID_LEVELS` / `ROW_COUNT_MISMATCH` as `assembleRecords`; `LIMIT_EXCEEDED` for more rows
 *   than JavaScript can hold.
 */
export function assembleFlatRecords(schema: SchemaTree, columns: readonly (ColumnData | undefined)[], options?: AssembleOptions): Record<string, unknown>[] | undefined {
  if (options?.validate === false) return undefined;
  // the fields the pruned root keeps (those with a present column) must all be top-level leaves
  for (const f of schema.field.fields) {
    if ((f.kind !== 'leaf' || f.repDepth !== 0) && f.leaves.some((c) => columns[c] !== undefined)) return undefined;
  }
  return withinEngineLimits('records', () => {
    const prepared = prepareColumns(schema, columns, options);
    if (prepared.root.leaves[0] === undefined) return [];
    return flatRecords(prepared.root, prepared, prepared.vals as ArrayLike<unknown>[]);
  });
}

/**
 * Rows of top-level leaves only (no struct, list or map): every object is cloned from a template of the keys, then
 * filled column by column, so each loop reads one kind of array and stores one property. Levels were validated by
 * {@link prepareColumns}: every column has `rows` level entries and one value per level at its max.
 * @param root - the pruned root, whose fields are all top-level leaves.
 * @param prepared - the prepared columns.
 * @param vals - the values per column.
 * @returns the rows.
 * @throws ParquetError `INVALID_LEVELS` when a column's level count is not the row count.
 */
export function flatRecords(root: StructField, prepared: PreparedColumns, vals: ArrayLike<unknown>[]): Record<string, unknown>[] {
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
