/**
 * Sums of the reader's {@link ScanStats} over the files of a dataset read.
 * @module
 */
import type { KindCounts, ScanStats } from '@parquetry/parquet-reader';

const KINDS = ['footer', 'index', 'bloom', 'dictionary', 'data', 'total'] as const;

function kindCounts(): KindCounts {
  return { footer: 0, index: 0, bloom: 0, dictionary: 0, data: 0, total: 0 };
}

/**
 * A zeroed {@link ScanStats}.
 * @returns the statistics of a read that did nothing.
 */
export function emptyScanStats(): ScanStats {
  return {
    bytes: kindCounts(),
    requests: kindCounts(),
    rowGroups: { total: 0, read: 0, skipped: { rowRange: 0, statistics: 0, dictionary: 0, bloom: 0, pageIndex: 0 } },
    pages: { read: 0, skipped: 0 },
    columns: {},
    rowsDecoded: 0,
    valuesDecoded: 0,
    rowsReturned: 0,
  };
}

/**
 * Adds `b` into `a`: every count, per kind, per reason and per column.
 * @param a - the accumulator (modified).
 * @param b - the statistics to add.
 * @returns `a`.
 */
export function addScanStats(a: ScanStats, b: ScanStats): ScanStats {
  for (const k of KINDS) {
    a.bytes[k] += b.bytes[k];
    a.requests[k] += b.requests[k];
  }
  a.rowGroups.total += b.rowGroups.total;
  a.rowGroups.read += b.rowGroups.read;
  const skips = a.rowGroups.skipped;
  skips.rowRange += b.rowGroups.skipped.rowRange;
  skips.statistics += b.rowGroups.skipped.statistics;
  skips.dictionary += b.rowGroups.skipped.dictionary;
  skips.bloom += b.rowGroups.skipped.bloom;
  skips.pageIndex += b.rowGroups.skipped.pageIndex;
  a.pages.read += b.pages.read;
  a.pages.skipped += b.pages.skipped;
  for (const [path, c] of Object.entries(b.columns)) {
    let t = a.columns[path];
    if (t === undefined) {
      t = { pagesRead: 0, pagesSkipped: 0, chunks: 0 };
      // a column path may be any string (even `__proto__`): define, never assign
      Object.defineProperty(a.columns, path, { value: t, enumerable: true, writable: true, configurable: true });
    }
    t.pagesRead += c.pagesRead;
    t.pagesSkipped += c.pagesSkipped;
    t.chunks += c.chunks;
  }
  a.rowsDecoded += b.rowsDecoded;
  a.valuesDecoded += b.valuesDecoded;
  a.rowsReturned += b.rowsReturned;
  return a;
}
