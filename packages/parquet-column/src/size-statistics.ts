/**
 * Write-side `SizeStatistics` of a page or column chunk: histograms of the repetition and definition levels and the
 * unencoded size of BYTE_ARRAY values.
 *
 * Spec: parquet.thrift `SizeStatistics`
 * (https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift) and
 * https://github.com/apache/parquet-format/blob/master/PageIndex.md. The repetition histogram (length
 * `maxRep + 1`) is written only when `maxRep > 0`, the definition histogram (length `maxDef + 1`) only when
 * `maxDef > 0` (parquet.thrift allows omitting it also at `maxDef = 1`, where the null count says the same; it is
 * written there, as arrow-rs does), and `unencoded_byte_array_data_bytes` only for BYTE_ARRAY columns.
 * @module
 */
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { ParquetError, Type, type SizeStatistics } from '@parquetry/thrift-compact';

/**
 * Accumulates the `SizeStatistics` of one column: feed it the levels of each page with
 * {@link SizeStatisticsBuilder.addLevels} and, for BYTE_ARRAY columns, the byte length of the non-null values with
 * {@link SizeStatisticsBuilder.addByteArrayBytes}.
 */
export class SizeStatisticsBuilder {
  /** The column. */
  readonly column: ColumnDescriptor;
  private readonly rep: Float64Array;
  private readonly def: Float64Array;
  private bytes = 0;

  /**
   * @param column - the leaf column.
   */
  constructor(column: ColumnDescriptor) {
    this.column = column;
    this.rep = new Float64Array(column.maxRep + 1);
    this.def = new Float64Array(column.maxDef + 1);
  }

  /**
   * Counts the levels of values `[start, end)`.
   * @param def - definition levels, or undefined when every value is at `maxDef` (a required column, or no nulls).
   * @param rep - repetition levels, or undefined when every value is at 0 (a column outside any list).
   * @param start - first value.
   * @param end - end (exclusive).
   * @returns how many of the values are at the max definition level (the non-null values).
   * @throws ParquetError `OUT_OF_RANGE` when `[start, end)` is not inside the given levels; `INVALID_LEVELS` when a
   *   level is not an integer in `[0, max]` (naming the value index).
   */
  addLevels(def: ArrayLike<number> | undefined, rep: ArrayLike<number> | undefined, start: number, end: number): number {
    const n = Math.min(def ? def.length : Infinity, rep ? rep.length : Infinity);
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= n)) {
      throw new ParquetError('OUT_OF_RANGE', `parquet-column: size statistics of column '${this.column.pathString}': value range [${String(start)}, ${String(end)}) is not inside the ${n} levels given`);
    }
    const maxDef = this.column.maxDef;
    const atMax = this.def[maxDef]!;
    if (def) count(this.def, def, start, end, this.column, 'definition');
    else this.def[maxDef]! += end - start;
    if (rep) count(this.rep, rep, start, end, this.column, 'repetition');
    else this.rep[0]! += end - start;
    // an integer (the histograms are doubles: counts past 2^31 stay exact)
    return (this.def[maxDef]! - atMax) | 0;
  }

  /** Levels at repetition level 0 counted so far: the rows (records) the levels added hold. */
  get repetitionZeros(): number {
    return this.rep[0]!;
  }

  /**
   * Adds the byte length of BYTE_ARRAY values (without the 4-byte length prefixes of PLAIN).
   * @param bytes - a non-negative integer.
   * @throws ParquetError `INVALID_ARGUMENT` when the column is not BYTE_ARRAY or `bytes` is not a non-negative
   *   integer.
   */
  addByteArrayBytes(bytes: number): void {
    if (this.column.type !== Type.BYTE_ARRAY || !(Number.isInteger(bytes) && bytes >= 0)) {
      throw new ParquetError(
        'INVALID_ARGUMENT',
        `parquet-column: size statistics of column '${this.column.pathString}': ${this.column.type !== Type.BYTE_ARRAY ? 'unencoded byte-array bytes apply to BYTE_ARRAY columns only' : `byte count must be a non-negative integer, got ${String(bytes)}`}`,
      );
    }
    this.bytes += bytes;
  }

  /**
   * Adds the counts of `other` (e.g. a page's into the chunk's).
   * @param other - a builder of a column with the same physical type and levels.
   * @throws ParquetError `INVALID_ARGUMENT` when the columns differ in maximum levels or physical type.
   */
  merge(other: SizeStatisticsBuilder): void {
    if (other.rep.length !== this.rep.length || other.def.length !== this.def.length || other.column.type !== this.column.type) {
      throw new ParquetError(
        'INVALID_ARGUMENT',
        `parquet-column: size statistics of column '${this.column.pathString}' (maxRep ${this.rep.length - 1}, maxDef ${this.def.length - 1}) cannot merge those of '${other.column.pathString}' (maxRep ${other.rep.length - 1}, maxDef ${other.def.length - 1})`,
      );
    }
    for (let i = 0; i < this.rep.length; i++) this.rep[i]! += other.rep[i]!;
    for (let i = 0; i < this.def.length; i++) this.def[i]! += other.def[i]!;
    this.bytes += other.bytes;
  }

  /** Forgets everything added. */
  reset(): void {
    this.rep.fill(0);
    this.def.fill(0);
    this.bytes = 0;
  }

  /**
   * The thrift `SizeStatistics`.
   * @returns a new object: the histograms the column's levels call for, and the byte count for BYTE_ARRAY columns.
   */
  toThrift(): SizeStatistics {
    const s: SizeStatistics = {};
    if (this.column.type === Type.BYTE_ARRAY) s.unencoded_byte_array_data_bytes = this.bytes;
    if (this.rep.length > 1) s.repetition_level_histogram = Array.from(this.rep);
    if (this.def.length > 1) s.definition_level_histogram = Array.from(this.def);
    return s;
  }
}

/** Adds `levels[start, end)` to histogram `h` (`h.length - 1` is the maximum level). */
function count(h: Float64Array, levels: ArrayLike<number>, start: number, end: number, column: ColumnDescriptor, kind: string): void {
  const max = h.length - 1;
  if (max === 0) {
    // a column without such levels: every level must be 0
    for (let i = start; i < end; i++) if (levels[i] !== 0) throw levelError(column, kind, i, levels[i], max);
    h[0]! += end - start;
    return;
  }
  if (max === 1 && !(levels instanceof Int32Array)) {
    // levels 0 and 1 (every optional column's definition levels, every single list's repetition levels): their
    // sum is the count of ones, without a store to the histogram per level
    let ones = 0;
    for (let i = start; i < end; i++) {
      const l = levels[i]!;
      if (!((l >>> 0) === l && l <= 1)) throw levelError(column, kind, i, l, max);
      ones += l;
    }
    h[1]! += ones;
    h[0]! += end - start - ones;
    return;
  }
  if (max <= 3 && levels instanceof Int32Array) {
    // Int32Array levels (what the writer's shredders give): integers, so the range check is the sign of
    // (max − l) | l, or-ed over the run and tested once; the same three sums as below
    let bad = 0;
    let sum = 0;
    let halves = 0;
    let threes = 0;
    for (let i = start; i < end; i++) {
      const l = levels[i]!;
      bad |= (max - l) | l;
      sum += l;
      halves += l >> 1;
      threes += l & (l >> 1);
    }
    if (bad < 0) {
      for (let i = start; i < end; i++) if (!(levels[i]! >= 0 && levels[i]! <= max)) throw levelError(column, kind, i, levels[i], max);
    }
    const c2 = halves - threes;
    const c1 = sum - 2 * c2 - 3 * threes;
    h[0]! += end - start - c1 - c2 - threes;
    h[1]! += c1;
    if (max >= 2) h[2]! += c2;
    if (max === 3) h[3]! += threes;
    return;
  }
  if (max <= 3) {
    // levels 0–3 (lists of optional elements, optional lists in optional structs): three sums give the counts
    // (Σ l = c1 + 2·c2 + 3·c3, Σ (l >> 1) = c2 + c3, Σ (l & l >> 1) = c3), again without a store per level
    let sum = 0;
    let halves = 0;
    let threes = 0;
    for (let i = start; i < end; i++) {
      const l = levels[i]!;
      if (!((l >>> 0) === l && l <= max)) throw levelError(column, kind, i, l, max);
      sum += l;
      halves += l >> 1;
      threes += l & (l >> 1);
    }
    const c2 = halves - threes;
    const c1 = sum - 2 * c2 - 3 * threes;
    h[0]! += end - start - c1 - c2 - threes;
    h[1]! += c1;
    h[2]! += c2;
    if (max === 3) h[3]! += threes;
    return;
  }
  for (let i = start; i < end; i++) {
    const l = levels[i]!;
    // unsigned shift: negative and fractional levels fail the range check (and NaN/undefined become 0 unless caught)
    if (!((l >>> 0) === l && l <= max)) throw levelError(column, kind, i, l, max);
    h[l]!++;
  }
}

function levelError(column: ColumnDescriptor, kind: string, i: number, l: unknown, max: number): ParquetError {
  return new ParquetError('INVALID_LEVELS', `parquet-column: size statistics of column '${column.pathString}': ${kind} level ${String(l)} at value ${i} is outside [0, ${max}]`);
}
