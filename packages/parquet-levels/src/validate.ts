/**
 * Validation of untrusted definition/repetition levels against the schema
 * (https://github.com/apache/parquet-format/blob/master/README.md#nested-encoding):
 * every level within its maximum, each row starting at repetition level 0, repetition
 * only inside a list that has an element, exactly one value per level at the maximum
 * definition level, and one row count for all columns of a row group.
 *
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';
import type { ColumnDescriptor } from './schema.js';

/**
 * Variable-length byte values in Arrow's binary layout: value `i` is `data[offsets[i]]` to `data[offsets[i + 1]]`
 * (exclusive). Offsets are non-decreasing and within `data`; the first need not be 0.
 */
export interface BinaryValues {
  /** One more offset than values. */
  readonly offsets: Int32Array;
  /** The bytes of all values. */
  readonly data: Uint8Array;
}

/**
 * BOOLEAN values packed one bit per value, least significant bit first (Arrow's boolean layout): value `i` is bit
 * `i & 7` of `bits[i >> 3]`. Bits past `count` are 0.
 */
export interface BooleanBits {
  /** At least ⌈count / 8⌉ bytes. */
  readonly bits: Uint8Array;
  /** Number of values. */
  readonly count: number;
}

/** Column values in any of the forms {@link ColumnData} takes. */
export type ColumnValuesInput = ArrayLike<unknown> | BinaryValues | BooleanBits;

/**
 * Whether `v` is {@link BinaryValues} (rather than an array of values).
 * @param v - column values.
 * @returns true for an offsets + bytes pair.
 */
export function isBinaryValues(v: ColumnValuesInput): v is BinaryValues {
  return !Array.isArray(v) && !ArrayBuffer.isView(v) && (v as BinaryValues).offsets instanceof Int32Array && (v as BinaryValues).data instanceof Uint8Array;
}

/**
 * Whether `v` is {@link BooleanBits} (rather than an array of values).
 * @param v - column values.
 * @returns true for packed booleans.
 */
export function isBooleanBits(v: ColumnValuesInput): v is BooleanBits {
  return !Array.isArray(v) && !ArrayBuffer.isView(v) && (v as BooleanBits).bits instanceof Uint8Array && typeof (v as BooleanBits).count === 'number';
}

/**
 * Number of values in column values.
 * @param v - an array of values, {@link BinaryValues} or {@link BooleanBits}.
 * @returns the count.
 */
export function valuesLength(v: ColumnValuesInput): number {
  if (isBinaryValues(v)) return Math.max(0, v.offsets.length - 1);
  if (isBooleanBits(v)) return v.count;
  return v.length;
}

/**
 * Booleans packed as {@link BooleanBits}, one `boolean` per value.
 * @param v - the packed values.
 * @returns the booleans.
 */
export function unpackBooleans(v: BooleanBits): boolean[] {
  const out = new Array<boolean>(v.count);
  const b = v.bits;
  for (let i = 0; i < v.count; i++) out[i] = ((b[i >> 3]! >> (i & 7)) & 1) === 1;
  return out;
}

/** Levels and values of one column chunk (or page) as the decoder produced them. */
export interface ColumnData {
  /**
   * Definition levels; omitted when the column's max definition level is 0 or when every level is at the max
   * definition level (no nulls and no empty lists: a reader may drop such level arrays).
   */
  def?: ArrayLike<number> | undefined;
  /** Repetition levels; may be omitted when the column's max repetition level is 0. */
  rep?: ArrayLike<number> | undefined;
  /**
   * Non-null values, one per level equal to the max definition level: an array, {@link BinaryValues} for byte
   * values (row assembly then gives a `Uint8Array` view per value, columnar assembly a {@link BinaryVector}), or
   * {@link BooleanBits} for booleans (row assembly gives `boolean`s, columnar assembly a packed {@link LeafVector}).
   */
  values: ColumnValuesInput;
  /** Number of level entries used (default: the length of `def`, else `rep`, else `values`). */
  numLevels?: number | undefined;
}

/**
 * Number of level entries in `data`.
 * @param column - the column.
 * @param data - its levels and values.
 * @returns `numLevels`, or the length of the first level array present, else of the values.
 * @throws ParquetError `INVALID_LEVELS` when `numLevels` is negative or exceeds a level array's length, or the repetition levels
 *   of a repeated column are missing.
 */
export function levelCount(column: ColumnDescriptor, data: ColumnData): number {
  const n = data.numLevels ?? data.def?.length ?? data.rep?.length ?? valuesLength(data.values);
  if (!Number.isSafeInteger(n) || n < 0) throw levelsError(column, `level count ${n} is not a non-negative integer`);
  if (data.def !== undefined && data.def.length < n) {
    throw levelsError(column, `definition levels shorter (${data.def.length}) than the level count ${n}`);
  }
  if (column.maxRep > 0 && (data.rep === undefined || data.rep.length < n)) {
    throw levelsError(column, `repetition levels missing or shorter (${data.rep?.length ?? 0}) than the level count ${n}`);
  }
  return n;
}

function levelsError(column: ColumnDescriptor, message: string): ParquetError {
  return new ParquetError('INVALID_LEVELS', `parquet-levels: column '${column.pathString}': ${message}`);
}

/**
 * The levels equal to `maxDef` of the first `n`, or -(i + 1) for the first level `i` outside 0..maxDef.
 */
function countMaxDefs(def: ArrayLike<number>, n: number, maxDef: number): number {
  let present = 0;
  for (let i = 0; i < n; i++) {
    const d = def[i]!;
    if (d === maxDef) present++;
    else if (d > maxDef || d < 0 || d !== d) return -i - 1;
  }
  return present;
}

/**
 * The rows (repetition levels 0) of the first `n` levels, or -(i + 1) for the first level `i` whose repetition level
 * is outside 0..maxRep or continues a list with no element.
 */
function countRows(rep: ArrayLike<number>, def: ArrayLike<number> | undefined, n: number, maxRep: number, maxDef: number, rd: readonly number[]): number {
  let rows = 0;
  let prevDef = 0;
  for (let i = 0; i < n; i++) {
    const r = rep[i]!;
    const d = def ? def[i]! : maxDef;
    if (r === 0) rows++;
    else if (r > 0 && r <= maxRep) {
      const need = rd[r - 1]!;
      if (d < need || prevDef < need) return -i - 1;
    } else return -i - 1;
    prevDef = d;
  }
  return rows;
}

/**
 * Counts byte levels (what a reader decodes) in one pass: the rows into `out[0]` and the levels at the max definition
 * level into `out[1]`. `rep` is undefined for a column without repetition; otherwise it starts at 0 and holds `n`.
 * @returns false when it does not count such levels, or some level fails a check (the generic loops then count, or
 *   find which level fails and build the message).
 * Columnar assembly passes one (level-bytes.ts, kept out of the reader's initial load) to `prepareColumns`;
 * other callers leave it out.
 * @param rep - the repetition levels, or undefined.
 * @param def - the definition levels.
 * @param n - how many levels to count.
 * @param column - the column the levels are of.
 * @param out - where the two counts go.
 */
export type ByteLevelCounter = (rep: Uint8Array | undefined, def: Uint8Array, n: number, column: ColumnDescriptor, out: Int32Array) => boolean;

/** A {@link ByteLevelCounter}'s two counts (one array for every call: a level check runs to its end before the next). */
const counts = new Int32Array(2);

/**
 * Checks one column's untrusted levels and counts its rows.
 *
 * @param column - the column descriptor (max levels, repeated ancestors).
 * @param data - decoded levels and values.
 * @returns the number of rows (level entries with repetition level 0).
 * @throws ParquetError `INVALID_LEVELS` naming the column path and level index when a definition level is negative
 *   or above the max, a repetition level is above the max, the first repetition level is not 0, a repetition level
 *   continues a list that has no element, or the number of values differs from the number of levels at the max
 *   definition level (fewer levels than values, or the reverse).
 */
export function validateColumnLevels(column: ColumnDescriptor, data: ColumnData): number {
  return validateLevels(column, data);
}

/**
 * {@link validateColumnLevels}, counting byte levels with `count` when given (columnar assembly's counters).
 * @internal
 */
export function validateLevels(column: ColumnDescriptor, data: ColumnData, count?: ByteLevelCounter): number {
  const n = levelCount(column, data);
  const maxDef = column.maxDef;
  const maxRep = column.maxRep;
  const def = data.def;
  const rep = data.rep;
  let present = n;
  let rows = n;
  // byte levels counted by `count` (one pass without a branch per level); a level that fails is found again by the
  // loops below, which build the message
  if (count !== undefined && def instanceof Uint8Array && (rep === undefined || (rep instanceof Uint8Array && rep.length >= n && (n === 0 || rep[0] === 0))) && count(rep, def, n, column, counts)) {
    return checkValueCount(column, counts[1]!, data, rep === undefined ? n : counts[0]!);
  }
  if (def) {
    present = countMaxDefs(def, n, maxDef);
    if (present < 0) throw defRangeError(column, def[-present - 1]!, -present - 1);
  }
  if (rep) {
    if (n > 0 && rep[0] !== 0) throw levelsError(column, `first repetition level is ${rep[0]}, expected 0 (a column chunk must start a row)`);
    const rd = column.repeatedDefs;
    rows = countRows(rep, def, n, maxRep, maxDef, rd);
    if (rows < 0) {
      // the messages are built here: in the loop, they would slow it down
      const i = -rows - 1;
      const r = rep[i]!;
      if (!(r > 0 && r <= maxRep)) throw levelsError(column, `repetition level ${r} at level index ${i} is outside 0..${maxRep}`);
      const d = def ? def[i]! : maxDef;
      const prevDef = i === 0 ? 0 : def ? def[i - 1]! : maxDef;
      throw levelsError(column, `repetition level ${r} at level index ${i} continues a list with no element (definition levels ${prevDef}, ${d}; need ${rd[r - 1]!})`);
    }
  }
  return checkValueCount(column, present, data, rows);
}

/** Checks that `present` levels at the max number the values of `data`, and returns `rows`. */
function checkValueCount(column: ColumnDescriptor, present: number, data: ColumnData, rows: number): number {
  const nv = valuesLength(data.values);
  if (present !== nv) throw valueCountError(column, present, nv);
  return rows;
}

/**
 * The `INVALID_LEVELS` error of a definition level outside 0..max (shared with assembly's checks of flat columns).
 * @param column - the column.
 * @param d - the level.
 * @param i - its level index.
 * @returns the error.
 * @internal
 */
export function defRangeError(column: ColumnDescriptor, d: number, i: number): ParquetError {
  return levelsError(column, `definition level ${d} at level index ${i} is outside 0..${column.maxDef}`);
}

/**
 * The `INVALID_LEVELS` error of a column whose levels at the max definition level do not number its values.
 * @param column - the column.
 * @param present - levels at the max definition level.
 * @param nv - values.
 * @returns the error.
 * @internal
 */
export function valueCountError(column: ColumnDescriptor, present: number, nv: number): ParquetError {
  const maxDef = column.maxDef;
  return levelsError(
    column,
    present < nv
      ? `fewer levels than values: ${present} levels at max definition level ${maxDef} for ${nv} values`
      : `fewer values than levels: ${nv} values for ${present} levels at max definition level ${maxDef}`,
  );
}

/**
 * Checks that all columns of a row group hold the same number of rows.
 *
 * @param columns - the columns, in the order of `rowCounts`.
 * @param rowCounts - row count of each column (from {@link validateColumnLevels} or the page headers).
 * @param expected - the row group's `num_rows`, when known.
 * @returns the common row count.
 * @throws ParquetError `ROW_COUNT_MISMATCH` naming the first column that disagrees, with both counts.
 */
export function validateRowCounts(columns: readonly ColumnDescriptor[], rowCounts: ArrayLike<number>, expected?: number): number {
  let rows = expected;
  let first = expected === undefined ? undefined : 'row group num_rows';
  for (let i = 0; i < rowCounts.length; i++) {
    const c = rowCounts[i]!;
    const col = columns[i];
    const name = col ? `column '${col.pathString}'` : `column ${i}`;
    if (rows === undefined) {
      rows = c;
      first = name;
    } else if (c !== rows) {
      throw new ParquetError('ROW_COUNT_MISMATCH', `parquet-levels: ${name} (index ${i}) has ${c} rows, ${first} has ${rows}`);
    }
  }
  return rows ?? 0;
}
