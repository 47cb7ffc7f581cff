/**
 * Opening a file for the viewer: the footer through `openParquet`, then the details the picture needs (pages,
 * indexes, bloom filter lengths; see `pages.ts`) and the layout computed from them.
 * @module
 */
import type { CodecMap } from '@parquetry/parquet-codecs';
import { openParquet, type ByteSource, type ColumnStatistics, type ParquetFile } from '@parquetry/parquet-reader';
import { computeLayout, type Layout } from './layout.js';
import { readFileDetails, readFooterLength, type FileDetails } from './pages.js';

/** Options of {@link loadFileLayout}. */
export interface LoadOptions {
  /** Codecs for reading rows (the layout needs none). */
  codecs?: CodecMap;
}

/** A column chunk's statistics in the JSON-safe mapping, or why they could not be decoded. */
export type ChunkStatistics = { stats: ColumnStatistics | undefined } | { error: string };

/** An opened file with its layout. */
export interface LoadedFile {
  /** The opened file (for the schema, statistics and rows). */
  file: ParquetFile;
  /** What was read beyond the footer. */
  details: FileDetails;
  /** The byte layout. */
  layout: Layout;
  /**
   * Every column chunk's statistics by row group and column (`ParquetFile.statistics` with `values: 'json'`, which is
   * asynchronous), decoded once when the file is opened so that a chunk's hover lines are built synchronously.
   */
  statistics: ChunkStatistics[][];
}

/**
 * Decodes every column chunk's statistics (JSON-safe values), keeping each chunk's error (a column key not given,
 * a corrupt bound) to be shown in its place.
 * @param file - the opened file.
 * @returns the statistics by row group and column.
 */
async function chunkStatistics(file: ParquetFile): Promise<ChunkStatistics[][]> {
  const out: ChunkStatistics[][] = [];
  for (let g = 0; g < file.metadata.row_groups.length; g++) {
    const row: ChunkStatistics[] = (out[g] = []);
    for (let c = 0; c < file.schema.columns.length; c++) {
      try {
        row[c] = { stats: await file.statistics(g, c, { values: 'json' }) };
      } catch (e) {
        row[c] = { error: e instanceof Error ? e.message : String(e) };
      }
    }
  }
  return out;
}

/**
 * Opens a file and computes its layout.
 * @param source - the file.
 * @param options - codecs.
 * @returns the file, its details and its layout.
 * @throws ParquetError from `openParquet` (`NOT_PARQUET`, `CORRUPT_FOOTER`, `KEY_MISSING` for an encrypted footer, …);
 *   problems after the footer are collected in `details.errors` instead.
 */
export async function loadFileLayout(source: ByteSource, options: LoadOptions = {}): Promise<LoadedFile> {
  const file = await openParquet(source, options.codecs ? { codecs: options.codecs } : {});
  const footerLength = await readFooterLength(source);
  const details = await readFileDetails(source, file.metadata, footerLength);
  return { file, details, layout: computeLayout(details), statistics: await chunkStatistics(file) };
}
