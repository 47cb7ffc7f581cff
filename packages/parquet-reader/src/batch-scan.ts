/**
 * What the batch reader's column cursors need of a read, apart from the pruning stages: the columns, the rows
 * decoded, and for a column fetched page by page its dictionary and the whole chunk it falls back to. A batch read
 * with neither filter nor row range is a {@link BatchScan}, so that it loads none of the pruning stages; a filtered or
 * row-ranged one is a {@link PrunedScan} (pruned-scan.ts), which adds them.
 * @module
 */
// bundle layout only (no value used): see optional.ts, `Chunk grouping`
import './file.js';
import { ChunkDecoder } from '@parquetry/parquet-column/decode';
import type { ColumnValues } from '@parquetry/parquet-encodings';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { Scan, type FetchedColumn } from './pipeline.js';
import type { PrunedScan } from './pruned-scan.js';

/** A read that column cursors decode page by page: the batch reader's (and, with the pruning stages, a {@link PrunedScan}). */
export class BatchScan extends Scan {
  /**
   * A leaf column of the file.
   * @param i - its ordinal.
   * @returns its descriptor.
   */
  column(i: number): ColumnDescriptor {
    return this.ctx.schema.columns[i]!;
  }

  /**
   * Counts the rows a read decoded in one row group.
   * @param rows - the most rows any one column decoded.
   */
  rowsDecoded(rows: number): void {
    this.stats.rowsDecoded += rows;
  }

  /**
   * The dictionary the runs of a column fetched page by page decode with: the dictionary stage's, or its dictionary
   * page fetched ahead of the pages.
   * @param g - row group ordinal.
   * @param f - the fetched column.
   * @returns the dictionary (undefined when the chunk has none), or null when its dictionary page holds data.
   * @throws ParquetError for a dictionary page that does not decode.
   */
  async runDictionary(g: number, f: FetchedColumn): Promise<ColumnValues | undefined | null> {
    if (f.dictBytes === undefined) return f.dict?.values;
    const col = this.ctx.schema.columns[f.col]!;
    // decodeColumnChunk's body, not the function: only lazy parts called it, and being used it was in the initial load
    // (column-chunk.ts, 66 B minified; openParquet + fetchSource + SNAPPY 37,561 -> 37,542 B gzip)
    const d = await new ChunkDecoder(f.dictBytes, col, f.md, this.where(g, f.col, f.range.start), { ...this.ctx.decodeOptions, decrypt: this.ctx.decrypt(g, f.col), budget: this.plan.budget }).take(Infinity);
    return d.numLevels === 0 ? d.dictionary : null;
  }

  /**
   * Turns a column fetched page by page into its whole chunk (fetched now): for a page index that does not match the
   * pages it locates, the chunk is read as without one.
   * @param f - the fetched column, changed in place.
   * @throws ParquetError from the source.
   */
  async fetchWhole(f: FetchedColumn): Promise<void> {
    const [bytes] = (await this.ctx.io.fetch([{ start: f.range.start, end: f.range.end, kind: 'data' }], this.stats)) as [Uint8Array];
    f.pages = undefined;
    f.dict = undefined;
    f.dictBytes = undefined;
    f.runs = [{ bytes, at: f.range.start, firstPage: 0, lastPage: -1 }];
  }
}
