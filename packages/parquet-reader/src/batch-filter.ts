/**
 * The batch reader's filtered reads (batch-reader.ts loads this module for a read with a filter): the filter
 * columns decoded batch by batch and the filter evaluated on them, then the matching rows of the other columns.
 * Apart from the batch reader so that a read without a filter loads neither the filter's evaluation nor the row
 * selection; it imports no module of the batch reader's, which hands it what it uses ({@link BatchParts}).
 * @module
 */
// bundle layout only (no value used): see optional.ts, `Chunk grouping`
import './file.js';
import { validateColumnLevels } from '@parquetry/parquet-levels/read';
import type { DecodedChunk } from '@parquetry/parquet-column/decode';
import { ParquetError } from '@parquetry/thrift-compact';
import type { Assembler, BatchParts, RowGroupAt, iterateBatches } from './batch-reader.js';
import type { BatchScan } from './batch-scan.js';
import type { ColumnBatch, RowBatch } from './batches.js';
import type { ColumnCursor } from './cursor.js';
import { leafKey, type Filter } from './filter.js';
import { filterMask, type MaskColumn } from './filter-mask.js';
import type { PrunedScan } from './pruned-scan.js';
import type { RowRanges } from './row-ranges.js';
import { countRows, intersectRanges } from './row-range-ops.js';
import { keepRows } from './select.js';

/** The kept rows cut into batches of `size` rows: each batch as ranges of rows of the row group. */
function* batchRanges(ranges: RowRanges, size: number): Generator<number[]> {
  let j = 0;
  let r = ranges[0] ?? 0;
  while (j < ranges.length) {
    const pieces: number[] = [];
    let need = size;
    while (need > 0 && j < ranges.length) {
      const e = ranges[j + 1]!;
      const n = Math.min(need, e - r);
      pieces.push(r, r + n);
      r += n;
      need -= n;
      if (r === e) {
        j += 2;
        r = ranges[j] ?? 0;
      }
    }
    yield pieces;
  }
}

/** One byte per row of `pieces`, from a mask of the row group's rows; and how many are 1. */
function gather(mask: Uint8Array, pieces: RowRanges): { keep: Uint8Array; count: number } {
  const keep = new Uint8Array(countRows(pieces));
  let k = 0;
  let count = 0;
  for (let j = 0; j < pieces.length; j += 2) {
    const part = mask.subarray(pieces[j]!, pieces[j + 1]!);
    keep.set(part, k);
    k += part.length;
  }
  for (let i = 0; i < keep.length; i++) count += keep[i]!;
  return { keep, count };
}

/**
 * Evaluates the filter on a batch of the filter columns.
 * @returns one byte per row (1: a match), their count, and the filter columns' converted values.
 */
function evaluate(out: Assembler, rowMismatch: BatchParts['rowMismatch'], filter: Filter, filterIdx: readonly number[], decimals: ReadonlySet<string>, chunks: readonly (DecodedChunk | undefined)[], rows: number, row: number): { keep: Uint8Array; count: number; converted: (ArrayLike<unknown> | undefined)[] } {
  const masked = new Map<string, MaskColumn>();
  const converted: (ArrayLike<unknown> | undefined)[] = new Array(out.cols.length);
  for (const i of filterIdx) {
    const col = out.cols[i]!;
    const c = chunks[i]!;
    const values = out.values(i, c);
    const n = validateColumnLevels(col, { def: c.def, numLevels: c.numLevels, values });
    if (n !== rows) throw rowMismatch(out.g, out.cols[filterIdx[0]!]!, rows, col, n, row);
    converted[i] = values;
    masked.set(leafKey(col.path), { values, def: c.def, maxDef: col.maxDef });
  }
  const keep = filterMask(filter, masked, rows, decimals);
  let count = 0;
  for (let r = 0; r < rows; r++) count += keep[r]!;
  return { keep, count, converted };
}

/**
 * Batches of a row group read with a filter. When every column returned is a filter column, one pass: each batch's
 * filter columns decoded, the filter evaluated, the matches returned. Otherwise two: the filter columns first (the
 * matches recorded, a byte per row), then only the pages of the other columns holding a match are fetched, and the
 * batches with a match decoded again with them.
 * @param scan - the read (a {@link PrunedScan}).
 * @param out - the read's assembler.
 * @param at - the row group.
 * @param filter - the read's filter.
 * @param filterIdx - its leaf columns.
 * @param decimals - its DECIMAL columns compared as decimals.
 * @param outIdx - the columns returned.
 * @param parts - the batch reader's cursors and helpers.
 * @returns the row group's batches holding a match.
 * @throws ParquetError as {@link iterateBatches}.
 */
export async function* filteredBatches(
  scan: BatchScan,
  out: Assembler,
  { g, start, kept, size }: RowGroupAt,
  filter: Filter,
  filterIdx: readonly number[],
  decimals: ReadonlySet<string>,
  outIdx: readonly number[],
  parts: BatchParts,
): AsyncGenerator<RowBatch | ColumnBatch> {
  const { batchLength, finishAll, rowMismatch } = parts;
  const numRows = kept.numRows;
  const rest = outIdx.filter((i) => !filterIdx.includes(i));
  const probe = await scan.fetchColumns(g, filterIdx, kept.mask, kept.indexes);
  const chunks: (DecodedChunk | undefined)[] = new Array(out.width);
  /** Takes a batch of the filter columns. */
  const takeFilter = async (cursors: readonly ColumnCursor[], pieces: RowRanges, rows: number): Promise<void> => {
    for (let k = 0; k < cursors.length; k++) {
      const c = cursors[k]!;
      chunks[filterIdx[k]!] = await c.take(pieces);
      if (c.rows !== rows) throw rowMismatch(g, cursors[0]!.column, rows, c.column, c.rows, start + pieces[0]!);
    }
  };
  if (rest.length === 0) {
    const cursors = probe.map((f) => parts.cursor(scan, g, f, numRows, false));
    try {
      for (const pieces of batchRanges(kept.ranges, size)) {
        const rows = countRows(pieces);
        await takeFilter(cursors, pieces, rows);
        const { keep, count, converted } = evaluate(out, parts.rowMismatch, filter, filterIdx, decimals, chunks, rows, start + pieces[0]!);
        if (count === 0) continue;
        const batch = await out.batch({ rowGroup: g, rowStart: start + pieces[0]!, rowEnd: start + pieces[pieces.length - 1]! }, outIdx, chunks, count === rows ? undefined : (c, col) => keepRows(c, col, keep), converted);
        scan.returned(batchLength(batch));
        yield batch;
      }
      for (const c of cursors) await c.close();
    } finally {
      scan.rowsDecoded(finishAll(cursors));
    }
    return;
  }

  // pass 1: the matches, as rows of the row group
  let matches = new Uint8Array(0);
  let counts: number[] = [];
  let total = 0;
  let rowsDecoded = 0;
  for (;;) {
    const cursors = probe.map((f) => parts.cursor(scan, g, f, numRows, true));
    try {
      matches = new Uint8Array(numRows);
      counts = [];
      total = 0;
      for (const pieces of batchRanges(kept.ranges, size)) {
        const rows = countRows(pieces);
        await takeFilter(cursors, pieces, rows);
        const { keep, count } = evaluate(out, parts.rowMismatch, filter, filterIdx, decimals, chunks, rows, start + pieces[0]!);
        counts.push(count);
        total += count;
        if (count === 0) continue;
        let k = 0;
        for (let j = 0; j < pieces.length; j += 2) {
          const n = pieces[j + 1]! - pieces[j]!;
          matches.set(keep.subarray(k, k + n), pieces[j]!);
          k += n;
        }
      }
      for (const c of cursors) await c.close();
      break;
    } catch (e) {
      // a page index found wrong: the column now reads its whole chunk, and the row group starts again
      if (!parts.isReplay(e)) throw e;
    } finally {
      rowsDecoded = Math.max(rowsDecoded, finishAll(cursors));
    }
  }
  chunks.fill(undefined);
  if (total === 0) {
    scan.rowsDecoded(rowsDecoded);
    return;
  }

  // pass 2: the other columns' pages holding a match, and the batches that have one
  const others = await scan.fetchColumns(g, rest, total === kept.count ? kept.mask : matches, kept.indexes);
  const again = outIdx.filter((i) => filterIdx.includes(i)).map((i) => parts.cursor(scan, g, probe[filterIdx.indexOf(i)]!, numRows, false));
  const fresh = others.map((f) => parts.cursor(scan, g, f, numRows, false));
  const cursors = [...again, ...fresh];
  try {
    let b = 0;
    for (const pieces of batchRanges(kept.ranges, size)) {
      if (counts[b++] === 0) continue;
      for (const c of cursors) {
        // the column's rows of this batch: those in its fetched pages (every match is)
        const own = c.coverage.length === 2 && c.coverage[0] === 0 && c.coverage[1] === numRows ? pieces : intersectRanges(pieces, c.coverage);
        const chunk = await c.take(own);
        const want = countRows(own);
        if (c.rows !== want) {
          throw new ParquetError('ROW_COUNT_MISMATCH', `parquet-reader: row group ${g}, from row ${start + own[0]!}: column '${c.column.pathString}' has ${c.rows} rows where the filter columns have ${want}`);
        }
        const { keep, count } = gather(matches, own);
        chunks[c.column.index] = count === want ? chunk : keepRows(chunk, c.column, keep);
      }
      const batch = await out.batch({ rowGroup: g, rowStart: start + pieces[0]!, rowEnd: start + pieces[pieces.length - 1]! }, outIdx, chunks);
      scan.returned(batchLength(batch));
      yield batch;
    }
    for (const c of fresh) await c.close();
  } finally {
    finishAll(again, false);
    scan.rowsDecoded(Math.max(rowsDecoded, finishAll(fresh)));
  }
}
