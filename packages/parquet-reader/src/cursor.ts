/**
 * Column cursors: one column of a row group as the pruning pipeline fetched it — the whole chunk, or the runs of
 * pages the page index keeps — decoded page by page by a {@link ChunkDecoder} per run and handed out by rows of the
 * row group, a batch at a time. Pages are located by the OffsetIndex, their first rows are top-level rows and, for
 * nested columns, start a record (https://github.com/apache/parquet-format/blob/master/PageIndex.md); records are
 * never split (https://github.com/apache/parquet-format/blob/master/README.md#nested-encoding).
 *
 * A run that does not decode to what its offset index promises (a page that fails to decode, a first page that does
 * not start a record, fewer or more rows or pages than the index says) is replaced by the whole chunk, read from the
 * row the cursor had reached. Rows and pages are counted when the cursor leaves a run, and at the end of the row
 * group ({@link ColumnCursor.close}): a count that proves wrong after rows of the run were handed out cannot be taken
 * back, so a cursor that may restart (`replay`) asks its caller to, and any other fails with `ROW_COUNT_MISMATCH`
 * rather than let misplaced rows pass unnoticed.
 * @module
 */
import type { ChunkDecoder, DecodedChunk } from '@parquetry/parquet-column/decode';
import type { ColumnValues } from '@parquetry/parquet-encodings';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { ParquetError, isParquetError } from '@parquetry/thrift-compact';
import { concatChunks } from './concat.js';
import { emptyChunk, type FetchedColumn } from './pipeline.js';
import type { BatchScan as Scan } from './batch-scan.js';
import type { RowRanges } from './row-ranges.js';

/**
 * Thrown by a cursor opened with `replay` when the rows it handed out may be wrong: its column now reads the whole
 * chunk, and the caller starts the row group again with new cursors.
 */
export class ReplayRowGroup extends Error {
  /** @param column - the column whose page index did not match its pages. */
  constructor(readonly column: string) {
    super(`parquet-reader: column '${column}': its offset index does not match its pages`);
    this.name = 'ReplayRowGroup';
  }
}

/** A run whose pages do not match its offset index. */
class RunMismatch extends Error {}

/** A run of pages as rows of the row group. */
interface Span {
  /** Its index in the fetched column's runs. */
  run: number;
  /** First row. */
  firstRow: number;
  /** Row after the last (Infinity for a whole chunk: as many rows as it holds). */
  endRow: number;
  /** First data page ordinal. */
  firstPage: number;
  /** Data pages (-1 for a whole chunk). */
  pages: number;
}

/** One column of a row group, handed out by rows. */
export class ColumnCursor {
  /** The column. */
  readonly column: ColumnDescriptor;
  /** The rows this cursor can hand out (the rows of the fetched pages). */
  coverage: RowRanges = [];
  /** Records handed out by the last {@link ColumnCursor.take}. */
  rows = 0;
  private spans: Span[] = [];
  private si = 0;
  private dec: ChunkDecoder | undefined;
  /** The row of the row group the open decoder's next record is. */
  private pos = 0;
  /** Whether rows of the open run were handed out. */
  private handedOut = false;
  private dictionary: ColumnValues | undefined | null;
  private dictionaryRead = false;
  private readonly opened: { dec: ChunkDecoder; span: Span }[] = [];

  /**
   * @param scan - the read.
   * @param g - row group ordinal.
   * @param f - the column as fetched (switched to its whole chunk in place when its page index proves wrong).
   * @param numRows - rows in the row group.
   * @param replay - whether the caller can start the row group again (see {@link ReplayRowGroup}).
   */
  constructor(
    private readonly scan: Scan,
    private readonly g: number,
    private readonly f: FetchedColumn,
    private readonly numRows: number,
    private readonly replay: boolean,
  ) {
    this.column = scan.column(f.col);
    this.layout();
  }

  private layout(): void {
    const f = this.f;
    if (f.pages === undefined) {
      this.spans = [{ run: 0, firstRow: 0, endRow: Infinity, firstPage: 0, pages: -1 }];
      this.coverage = [0, this.numRows];
      return;
    }
    const firstRows = f.index!.firstRows;
    const end = (p: number) => (p < firstRows.length ? firstRows[p]! : this.numRows);
    this.spans = f.runs.map((r, k) => ({ run: k, firstRow: firstRows[r.firstPage]!, endRow: end(r.lastPage + 1), firstPage: r.firstPage, pages: r.lastPage - r.firstPage + 1 }));
    this.coverage = this.spans.flatMap((s) => [s.firstRow, s.endRow]);
  }

  /**
   * Hands out some rows: their levels and values, in row order.
   * @param pieces - the rows, ascending ranges within {@link ColumnCursor.coverage} (of a whole chunk: any rows; it
   *   hands out fewer when the chunk ends first).
   * @returns the rows' levels and values; {@link ColumnCursor.rows} says how many rows.
   * @throws ParquetError from decoding (located), `ROW_COUNT_MISMATCH` for an offset index found wrong after rows
   *   were handed out; {@link ReplayRowGroup} (with `replay`) instead.
   */
  async take(pieces: RowRanges): Promise<DecodedChunk> {
    const parts: DecodedChunk[] = [];
    let rows = 0;
    outer: for (let k = 0; k < pieces.length; k += 2) {
      let s = pieces[k]!;
      const e = pieces[k + 1]!;
      while (s < e) {
        const part = await this.step(s, e);
        if (part === undefined) break outer;
        parts.push(part.chunk);
        rows += part.rows;
        s += part.rows;
        if (part.short) break outer;
      }
    }
    this.rows = rows;
    return parts.length === 0 ? emptyChunk(this.column) : concatChunks(parts, this.column);
  }

  /** Rows `[s, min(e, end of the run holding s))`, falling back to the whole chunk when the run proves wrong. */
  private async step(s: number, e: number): Promise<{ chunk: DecodedChunk; rows: number; short: boolean } | undefined> {
    for (;;) {
      try {
        return await this.stepInRun(s, e);
      } catch (err) {
        if (!(err instanceof RunMismatch || isParquetError(err)) || this.spans[this.si]?.pages === -1) throw err;
        // rows of a run handed out before its row count proved wrong may be misplaced
        if (err instanceof RunMismatch && this.handedOut) await this.cannotTakeBack();
        await this.toWhole(s);
      }
    }
  }

  private async stepInRun(s: number, e: number): Promise<{ chunk: DecodedChunk; rows: number; short: boolean } | undefined> {
    let span = this.spans[this.si];
    while (span !== undefined && s >= span.endRow) {
      await this.leaveRun();
      span = this.spans[this.si];
    }
    if (span === undefined || s < span.firstRow) {
      throw new ParquetError('ROW_COUNT_MISMATCH', `parquet-reader: row group ${this.g}, column '${this.column.pathString}': row ${s} is in none of the pages read`);
    }
    if (this.dec === undefined) await this.enterRun();
    const dec = this.dec!;
    const whole = span.pages === -1;
    if (s > this.pos) {
      const want = s - this.pos;
      const n = await dec.skip(want);
      this.pos += n;
      if (n !== want) {
        if (whole) return undefined;
        throw new RunMismatch();
      }
    }
    const want = Math.min(e, span.endRow) - s;
    const chunk = await dec.take(want);
    const n = dec.lastRows;
    if (n !== want && !whole) throw new RunMismatch();
    this.pos += n;
    if (n > 0) this.handedOut = true;
    return n === 0 ? undefined : { chunk, rows: n, short: n !== want };
  }

  private async enterRun(): Promise<void> {
    const span = this.spans[this.si]!;
    const whole = span.pages === -1;
    if (!whole && !this.dictionaryRead) {
      this.dictionary = await this.scan.runDictionary(this.g, this.f);
      this.dictionaryRead = true;
    }
    if (!whole && this.dictionary === null) throw new RunMismatch();
    const dec = this.scan.openRun(this.g, this.f, this.f.runs[span.run]!, this.dictionary ?? undefined);
    this.opened.push({ dec, span });
    this.dec = dec;
    this.pos = span.firstRow;
    this.handedOut = false;
    // a page the offset index locates starts a record (PageIndex.md): a run starting inside one is not used
    if (!whole && this.column.maxRep > 0 && (await dec.nextRepetition()) !== 0) throw new RunMismatch();
  }

  /** Checks that the open run holds exactly the rows and pages its offset index says, and moves past it. */
  private async leaveRun(): Promise<void> {
    const span = this.spans[this.si]!;
    const dec = this.dec;
    if (dec !== undefined && span.pages !== -1) {
      const left = span.endRow - this.pos;
      if (left > 0 && (await dec.skip(left)) !== left) throw new RunMismatch();
      if (!(await dec.atEnd()) || dec.dataPages - span.firstPage !== span.pages) throw new RunMismatch();
    }
    this.dec = undefined;
    this.si++;
  }

  /**
   * Checks the run the cursor is in (rows handed out so far are then known to be right): call it when every row
   * wanted was taken.
   * @throws as {@link ColumnCursor.take}.
   */
  async close(): Promise<void> {
    if (this.dec === undefined || this.spans[this.si]?.pages === -1) return;
    try {
      await this.leaveRun();
    } catch (err) {
      if (!(err instanceof RunMismatch || isParquetError(err))) throw err;
      await this.cannotTakeBack();
    }
  }

  private async cannotTakeBack(): Promise<never> {
    const path = this.column.pathString;
    if (this.replay) {
      await this.scan.fetchWhole(this.f);
      throw new ReplayRowGroup(path);
    }
    const span = this.spans[this.si]!;
    throw new ParquetError(
      'ROW_COUNT_MISMATCH',
      `parquet-reader: row group ${this.g}, column '${path}': pages ${span.firstPage}-${span.firstPage + span.pages - 1} do not hold rows ${span.firstRow}-${span.endRow - 1} as the offset index says (found after rows of them were handed out, which may be misplaced; read with prune: { pageIndex: false })`,
    );
  }

  /** Reads the whole chunk instead, from row `s`. */
  private async toWhole(s: number): Promise<void> {
    await this.scan.fetchWhole(this.f);
    this.layout();
    this.si = 0;
    this.dec = undefined;
    await this.enterRun();
    if (s > 0) {
      const n = await this.dec!.skip(s);
      this.pos = n;
      if (n !== s) {
        throw new ParquetError('ROW_COUNT_MISMATCH', `parquet-reader: row group ${this.g}, column '${this.column.pathString}' has ${n} rows, the row group ${this.numRows}`);
      }
    }
  }

  /**
   * Counts what the cursor decoded into the read's statistics (once, when the column is done with).
   * @param count - whether to count its pages (false for a second pass over pages already counted).
   * @returns the rows of the row group whose values it decoded.
   */
  finish(count = true): number {
    const f = this.f;
    let pages = 0;
    let levels = 0;
    let rows = 0;
    for (const { dec, span } of this.opened) {
      const n = dec.dataPages - span.firstPage;
      pages += n;
      levels += dec.levelsDecoded;
      if (span.pages === -1) {
        const all = dec.levelsDecoded >= f.md.num_values;
        rows = Math.max(rows, all ? this.numRows : this.column.maxRep === 0 ? dec.levelsDecoded : dec.rowsTaken);
      } else {
        const firstRows = f.index!.firstRows;
        const p = span.firstPage + n;
        rows += (p < firstRows.length ? firstRows[p]! : this.numRows) - span.firstRow;
      }
    }
    this.opened.length = 0;
    if (count) this.scan.countChunk(f.col, { pagesSkipped: f.pages === undefined ? 0 : f.index!.pages.length - f.pages.length, pages, levels });
    return rows;
  }
}
