/**
 * Row selection on decoded column chunks: a filtered read evaluates its filter on the filter columns first, then
 * keeps only the selected rows' levels and values of every column before any value is converted or assembled, so
 * the rows it drops cost only their decoding.
 * @module
 */
import type { ByteArrays, ColumnValues, FixedLenByteArrays } from '@parquetry/parquet-encodings';
import { validateColumnLevels, type ColumnDescriptor } from '@parquetry/parquet-levels/read';
import { ParquetError } from '@parquetry/thrift-compact';
import { type DecodedChunk, type ValueSegment, convertNativeChunk, type ValueOptions, physicalLength } from '@parquetry/parquet-column/decode';
import type { Filter } from './filter.js';
import { filterMask, type MaskColumn } from './filter-mask.js';

/**
 * Evaluates a filter on row-aligned columns (no repetition: one level per row) and returns the rows that match.
 * @param filter - the filter.
 * @param columns - the filter's columns: descriptor and decoded chunk, by key (filter.ts `leafKey`).
 * @param options - value mapping (the filter compares converted values).
 * @param decimals - keys of DECIMAL columns (compared exactly).
 * @param first - first row to consider (earlier rows never match).
 * @param last - row after the last one to consider.
 * @returns one byte per row (1 = selected) and the number selected.
 * @throws ParquetError `INVALID_LEVELS` / `ROW_COUNT_MISMATCH` when the columns' levels are inconsistent.
 */
export function selectRows(
  filter: Filter,
  columns: ReadonlyMap<string, { column: ColumnDescriptor; chunk: DecodedChunk }>,
  options: ValueOptions,
  decimals: ReadonlySet<string>,
  first: number,
  last: number,
): { keep: Uint8Array; count: number; rows: number } {
  const masked = new Map<string, MaskColumn>();
  let rows = -1;
  let rowsFrom = '';
  for (const [name, { column, chunk }] of columns) {
    const values = convertNativeChunk(chunk, column, options);
    const n = validateColumnLevels(column, { def: chunk.def, numLevels: chunk.numLevels, values });
    if (rows >= 0 && n !== rows) {
      throw new ParquetError('ROW_COUNT_MISMATCH', `parquet-reader: column '${column.pathString}' has ${n} rows, column '${rowsFrom}' has ${rows}`);
    }
    rows = n;
    rowsFrom = column.pathString;
    masked.set(name, { values, def: chunk.def, maxDef: column.maxDef });
  }
  const n = Math.max(rows, 0);
  const keep = filterMask(filter, masked, n, decimals);
  const end = Math.min(n, last);
  let count = 0;
  if (first > 0) keep.fill(0, 0, Math.min(first, n));
  if (end < n) keep.fill(0, Math.max(end, 0));
  for (let r = Math.max(first, 0); r < end; r++) count += keep[r]!;
  return { keep, count, rows: n };
}

/**
 * Keeps only the selected rows of a decoded chunk: their levels and their values (dictionary indices stay indices).
 * @param chunk - the decoded chunk.
 * @param column - its column.
 * @param keep - one byte per row, 1 = keep.
 * @returns a chunk holding only the kept rows (the same chunk when every row is kept).
 * @throws ParquetError `INVALID_LEVELS` for inconsistent levels, `ROW_COUNT_MISMATCH` when the chunk's rows differ
 *   from the selection's.
 */
export function keepRows(chunk: DecodedChunk, column: ColumnDescriptor, keep: Uint8Array): DecodedChunk {
  const { def, rep, numLevels } = chunk;
  const maxDef = column.maxDef;
  // the dropped rows are checked as strictly as the kept ones
  const rowsHere = validateColumnLevels(column, { def, rep, numLevels, values: { length: chunk.numValues } as ArrayLike<unknown> });
  if (rowsHere !== keep.length) {
    throw new ParquetError('ROW_COUNT_MISMATCH', `parquet-reader: column '${column.pathString}' has ${rowsHere} rows, the filter columns have ${keep.length}`);
  }
  let levels = 0;
  let kept = 0;
  let valueKeep: Uint8Array;
  let outDef: Uint8Array | undefined;
  let outRep: Uint8Array | undefined;
  if (rep === undefined) {
    // one level per row
    const { count, rows } = maskRows(keep);
    levels = count;
    if (levels === numLevels) return chunk;
    if (def === undefined) {
      // a few rows: their values gathered by position, without a pass over every row of every column
      if (rows !== undefined) return { def: undefined, rep: undefined, numLevels: levels, dictionary: chunk.dictionary, segments: gatherRows(chunk.segments, rows), numValues: levels, pages: chunk.pages };
      valueKeep = keep;
      kept = levels;
    } else {
      valueKeep = new Uint8Array(chunk.numValues);
      outDef = new Uint8Array(levels);
      let vi = 0;
      let o = 0;
      for (let i = 0; i < numLevels; i++) {
        const d = def[i]!;
        const on = keep[i] === 1;
        if (on) outDef[o++] = d;
        if (d === maxDef) {
          if (on) {
            valueKeep[vi] = 1;
            kept++;
          }
          vi++;
        }
      }
    }
  } else {
    // count kept levels and values, mark kept values, then copy the kept levels
    valueKeep = new Uint8Array(chunk.numValues);
    let row = -1;
    let vi = 0;
    for (let i = 0; i < numLevels; i++) {
      if (rep[i] === 0) row++;
      const on = keep[row] === 1;
      if (on) levels++;
      if (def === undefined || def[i] === maxDef) {
        if (on) {
          valueKeep[vi] = 1;
          kept++;
        }
        vi++;
      }
    }
    if (levels === numLevels) return chunk;
    outDef = def === undefined ? undefined : new Uint8Array(levels);
    outRep = new Uint8Array(levels);
    row = -1;
    let o = 0;
    for (let i = 0; i < numLevels; i++) {
      if (rep[i] === 0) row++;
      if (keep[row] !== 1) continue;
      if (outDef) outDef[o] = def![i]!;
      outRep[o] = rep[i]!;
      o++;
    }
  }
  // pass 2: the kept values, segment by segment
  const segments: ValueSegment[] = [];
  let base = 0;
  for (const s of chunk.segments) {
    const len = s.indices ? s.indices.length : physicalLength(s.values!);
    const picked = s.indices ? { indices: gather(s.indices, valueKeep, base) as Int32Array } : { values: gatherValues(s.values!, valueKeep, base) };
    segments.push(picked);
    base += len;
  }
  return { def: outDef, rep: outRep, numLevels: levels, dictionary: chunk.dictionary, segments, numValues: kept, pages: chunk.pages };
}

/** What {@link maskRows} found of a mask, by mask (masks are not changed once made). */
const maskCache = new WeakMap<Uint8Array, { count: number; rows: Int32Array | undefined }>();

/** A mask keeping at most one row in this many is gathered row by row ({@link gatherRows}). */
const SPARSE = 8;

/**
 * The rows a mask keeps, computed once per mask (the columns of a row group share their mask): their number, and
 * their ordinals when they are at most one row in {@link SPARSE}.
 * @returns the count, and the ordinals in increasing order (undefined for a denser mask).
 */
function maskRows(keep: Uint8Array): { count: number; rows: Int32Array | undefined } {
  let found = maskCache.get(keep);
  if (found === undefined) {
    const n = keep.length;
    let count = 0;
    for (let r = 0; r < n; r++) count += keep[r]!;
    let rows: Int32Array | undefined;
    if (count * SPARSE <= n) {
      rows = new Int32Array(count);
      for (let r = 0, k = 0; k < count; r++) if (keep[r] === 1) rows[k++] = r;
    }
    found = { count, rows };
    maskCache.set(keep, found);
  }
  return found;
}

/**
 * The values of some rows of a column without nulls or repetition (row r is value r), segment by segment.
 * @param segments - the chunk's segments.
 * @param rows - the rows, in increasing order.
 * @returns the rows' values, one segment per input segment holding any.
 */
function gatherRows(segments: readonly ValueSegment[], rows: Int32Array): ValueSegment[] {
  const out: ValueSegment[] = [];
  let base = 0;
  let k = 0;
  for (const s of segments) {
    const len = s.indices ? s.indices.length : physicalLength(s.values!);
    let e = k;
    while (e < rows.length && rows[e]! < base + len) e++;
    const at = rows.subarray(k, e);
    out.push(s.indices ? { indices: pickAt(s.indices, at, base) as Int32Array } : { values: pickValuesAt(s.values!, at, base) });
    k = e;
    base += len;
  }
  return out;
}

/** `src[rows[k] - base]` for every k, in an array of `src`'s kind. */
function pickAt(src: Gatherable, rows: Int32Array, base: number): Gatherable {
  const out = new (src.constructor as new (n: number) => Gatherable)(rows.length);
  const o = out as Float64Array;
  const v = src as Float64Array;
  for (let k = 0; k < rows.length; k++) o[k] = v[rows[k]! - base]!;
  return out;
}

/** {@link pickAt} for any value segment (byte arrays, fixed-length byte arrays, 8-byte values as word pairs). */
function pickValuesAt(v: ColumnValues, rows: Int32Array, base: number): ColumnValues {
  const n = rows.length;
  if ('offsets' in v) {
    const { offsets, data } = v as ByteArrays;
    let bytes = 0;
    for (let k = 0; k < n; k++) bytes += offsets[rows[k]! - base + 1]! - offsets[rows[k]! - base]!;
    const o = new Int32Array(n + 1);
    const d = new Uint8Array(bytes);
    let at = 0;
    for (let k = 0; k < n; k++) {
      const i = rows[k]! - base;
      at = copyValue(data, offsets[i]!, offsets[i + 1]!, d, at);
      o[k + 1] = at;
    }
    return { offsets: o, data: d };
  }
  if ('width' in v) {
    const { width, data } = v as FixedLenByteArrays;
    const d = new Uint8Array(n * width);
    for (let k = 0; k < n; k++) {
      const i = rows[k]! - base;
      d.set(data.subarray(i * width, (i + 1) * width), k * width);
    }
    return { width, data: d };
  }
  if (v instanceof Float64Array || v instanceof BigInt64Array) {
    // as 32-bit word pairs: no BigInt per value, NaN bits kept
    const w = new Int32Array(v.buffer, v.byteOffset, v.length * 2);
    const out = v instanceof Float64Array ? new Float64Array(n) : new BigInt64Array(n);
    const o = new Int32Array(out.buffer);
    for (let k = 0; k < n; k++) {
      const i = rows[k]! - base;
      o[2 * k] = w[2 * i]!;
      o[2 * k + 1] = w[2 * i + 1]!;
    }
    return out;
  }
  if (v instanceof Float32Array) return new Float32Array((pickAt(new Int32Array(v.buffer, v.byteOffset, v.length), rows, base) as Int32Array).buffer);
  return pickAt(v as Int32Array | Uint8Array, rows, base) as ColumnValues;
}

/**
 * Copies the bytes `data[a, b)` of one value to `d` at `at` (a short value byte by byte: no view made per value).
 * @returns the position after them.
 */
function copyValue(data: Uint8Array, a: number, b: number, d: Uint8Array, at: number): number {
  if (b - a < 32) {
    for (let j = a; j < b; j++) d[at++] = data[j]!;
    return at;
  }
  d.set(data.subarray(a, b), at);
  return at + b - a;
}

type Gatherable = Int32Array | Uint8Array | Float32Array | Float64Array | BigInt64Array;

function gather(src: Gatherable, keep: Uint8Array, base: number): Gatherable {
  let n = 0;
  for (let i = 0; i < src.length; i++) n += keep[base + i]!;
  const out = new (src.constructor as new (n: number) => Gatherable)(n);
  const o = out as Float64Array;
  const v = src as Float64Array;
  let k = 0;
  for (let i = 0; i < src.length; i++) if (keep[base + i] === 1) o[k++] = v[i]!;
  return out;
}

function gatherValues(v: ColumnValues, keep: Uint8Array, base: number): ColumnValues {
  if ('offsets' in v) {
    const { offsets, data } = v as ByteArrays;
    const m = offsets.length - 1;
    let n = 0;
    let bytes = 0;
    for (let i = 0; i < m; i++) {
      if (keep[base + i] === 1) {
        n++;
        bytes += offsets[i + 1]! - offsets[i]!;
      }
    }
    const o = new Int32Array(n + 1);
    const d = new Uint8Array(bytes);
    let k = 0;
    let at = 0;
    for (let i = 0; i < m; i++) {
      if (keep[base + i] !== 1) continue;
      at = copyValue(data, offsets[i]!, offsets[i + 1]!, d, at);
      o[++k] = at;
    }
    return { offsets: o, data: d };
  }
  if ('width' in v) {
    const { width, data } = v as FixedLenByteArrays;
    const m = width === 0 ? 0 : data.length / width;
    let n = 0;
    for (let i = 0; i < m; i++) n += keep[base + i]!;
    const d = new Uint8Array(n * width);
    let at = 0;
    for (let i = 0; i < m; i++) {
      if (keep[base + i] !== 1) continue;
      d.set(data.subarray(i * width, (i + 1) * width), at);
      at += width;
    }
    return { width, data: d };
  }
  if (v instanceof Float64Array || v instanceof BigInt64Array) {
    // 8-byte values as 32-bit word pairs (no BigInt per value, NaN bits kept)
    const w = new Int32Array(v.buffer, v.byteOffset, v.length * 2);
    let n = 0;
    for (let i = 0; i < v.length; i++) n += keep[base + i]!;
    const out = v instanceof Float64Array ? new Float64Array(n) : new BigInt64Array(n);
    const o = new Int32Array(out.buffer);
    let k = 0;
    for (let i = 0; i < v.length; i++) {
      if (keep[base + i] !== 1) continue;
      o[k++] = w[2 * i]!;
      o[k++] = w[2 * i + 1]!;
    }
    return out;
  }
  if (v instanceof Float32Array) {
    const bits = gather(new Int32Array(v.buffer, v.byteOffset, v.length), keep, base) as Int32Array;
    return new Float32Array(bits.buffer);
  }
  return gather(v as Int32Array | Uint8Array, keep, base) as ColumnValues;
}
