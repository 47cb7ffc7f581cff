/**
 * Opening a file for the viewer: the footer through `openParquet`, then the details the picture needs (pages,
 * indexes, bloom filter lengths; see `pages.ts`) and the layout computed from them.
 * @module
 */
import type { CodecMap } from '@parquetry/parquet-codecs';
import { openParquet, type ByteSource, type ParquetFile } from '@parquetry/parquet-reader';
import { computeLayout, type Layout } from './layout.js';
import { readFileDetails, readFooterLength, type FileDetails } from './pages.js';

/** Options of {@link loadFileLayout}. */
export interface LoadOptions {
  /** Codecs for reading rows (the layout needs none). */
  codecs?: CodecMap;
}

/** An opened file with its layout. */
export interface LoadedFile {
  /** The opened file (for the schema, statistics and rows). */
  file: ParquetFile;
  /** What was read beyond the footer. */
  details: FileDetails;
  /** The byte layout. */
  layout: Layout;
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
  return { file, details, layout: computeLayout(details) };
}
