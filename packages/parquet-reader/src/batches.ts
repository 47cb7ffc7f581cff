/**
 * The public shapes of {@link ParquetFile.iterateBatches}: its options and batches. The batch reader itself
 * (batch-reader.ts) is loaded with `import()` by the first batch read.
 * @module
 */
import type { StructVector } from '@parquetry/parquet-levels';
import type { ParquetFile, ReadOptions } from './file.js';

/** Rows per batch when `batchSize` is not given. */
export const DEFAULT_BATCH_SIZE = 10_000;

/** Options of {@link ParquetFile.iterateBatches}. */
export interface BatchOptions extends ReadOptions {
  /** Rows per batch (default {@link DEFAULT_BATCH_SIZE}); the last batch of a row group may hold fewer. */
  batchSize?: number;
  /**
   * A budget of decoded bytes per batch: a row group's batches then hold at most `batchBytes` divided by its
   * estimated bytes per row (never more than `batchSize`, at least one row). The estimate comes from the chunks'
   * SizeStatistics (`unencoded_byte_array_data_bytes`, definition level histograms) where the file has them, from
   * the physical widths, null counts and uncompressed sizes otherwise.
   */
  batchBytes?: number;
  /**
   * `'rows'` (default): each batch's rows as objects, as {@link ParquetFile.readRows} returns them; `'columns'`: each
   * batch as Arrow-shaped vectors, as {@link ParquetFile.readRowGroupColumns} returns them.
   */
  form?: 'rows' | 'columns';
}

/** Where a batch is. */
export interface BatchBase {
  /** The row group the batch comes from (a batch never spans row groups). */
  rowGroup: number;
  /** The first row the batch covers, counted over the whole file. */
  rowStart: number;
  /**
   * The row after the last one the batch covers. Without a filter the batch holds rows `rowStart` to `rowEnd`; with
   * one, only those of them that match.
   */
  rowEnd: number;
}

/** A batch of rows ({@link BatchOptions.form} `'rows'`). */
export interface RowBatch extends BatchBase {
  /** The rows, as objects keyed by top-level field name. */
  rows: Record<string, unknown>[];
}

/** A batch of Arrow-shaped vectors ({@link BatchOptions.form} `'columns'`). */
export interface ColumnBatch extends BatchBase {
  /** The root struct vector: one slot per row, one child per field read. */
  columns: StructVector;
}
