/**
 * Scan statistics: what a read fetched, decoded, skipped and returned. Bytes and requests are counted where the
 * reader calls its {@link ByteSource} (one `read` call is one request), so over HTTP they are the range requests
 * actually sent and the bytes actually transferred.
 *
 * The pruning stages whose skips are counted are those of the reader's pipeline: row-group statistics, dictionaries
 * and bloom filters (https://github.com/apache/parquet-format/blob/master/BloomFilter.md), and the page index
 * (https://github.com/apache/parquet-format/blob/master/PageIndex.md).
 * @module
 */
import { readSource, type ByteSource } from './source.js';

/** What a request fetched: the kinds of bytes a read asks its source for. */
export type ReadKind = 'footer' | 'index' | 'bloom' | 'dictionary' | 'data';

/** A count per {@link ReadKind}, and their sum. */
export interface KindCounts {
  /** The footer (read when the file is opened). */
  footer: number;
  /** ColumnIndex and OffsetIndex structures (the page index). */
  index: number;
  /** Bloom filter headers and bitsets. */
  bloom: number;
  /** Dictionary pages fetched on their own (for dictionary pruning, or ahead of a page-index read). */
  dictionary: number;
  /** Column chunk bytes: data pages (and the dictionary pages fetched with them). */
  data: number;
  /** The sum of the kinds. */
  total: number;
}

/** Why row groups were skipped: one count per pruning stage. */
export interface RowGroupSkips {
  /** Outside `rowStart`/`rowEnd`. */
  rowRange: number;
  /** Row-group statistics (min/max, null counts) prove no row matches. */
  statistics: number;
  /** Every data page is dictionary-encoded and the dictionary holds none of the `=`/`in` values. */
  dictionary: number;
  /** The bloom filter says none of the `=`/`in` values is present. */
  bloom: number;
  /** The page index (ColumnIndex bounds and null counts) proves no page can hold a matching row. */
  pageIndex: number;
}

/** Pages of one column, over a read. */
export interface ColumnScan {
  /** Data pages decoded. */
  pagesRead: number;
  /** Data pages the page index let the read skip, in the column chunks it read. */
  pagesSkipped: number;
  /** Row groups in which this column was read. */
  chunks: number;
}

/** What one read (or, from {@link ParquetFile.scanStats}, every read of a file so far) cost and produced. */
export interface ScanStats {
  /** Bytes fetched from the source, by kind. */
  bytes: KindCounts;
  /** Requests made to the source (`ByteSource.read` calls), by kind. */
  requests: KindCounts;
  /** Row groups considered by the read, how many were read, and why the others were skipped. */
  rowGroups: {
    /** Row groups the read considered (its `rowGroups` option, or every row group). */
    total: number;
    /** Row groups whose pages were fetched. */
    read: number;
    /** Row groups skipped, by reason. */
    skipped: RowGroupSkips;
  };
  /** Data pages over every column read. */
  pages: {
    /** Data pages decoded. */
    read: number;
    /** Data pages the page index let the read skip (in the column chunks it read). */
    skipped: number;
  };
  /**
   * Per leaf column: pages read and skipped. Keyed by the dotted path, or by the JSON array of names (`["a.b"]`) when
   * a name has a dot in it (a top-level `a.b` and the `b` of a struct `a` would share a dotted path).
   */
  columns: Record<string, ColumnScan>;
  /** Rows whose values were decoded: per row group read, the most rows any one column decoded. */
  rowsDecoded: number;
  /** Level entries (values and nulls) decoded, over every column. */
  valuesDecoded: number;
  /** Rows returned. */
  rowsReturned: number;
}

const KINDS: readonly ReadKind[] = ['footer', 'index', 'bloom', 'dictionary', 'data'];

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
 * Adds `b` into `a` (every count, per kind, per reason and per column).
 * @param a - the accumulator, modified.
 * @param b - the statistics to add.
 * @returns `a`.
 */
export function addScanStats(a: ScanStats, b: ScanStats): ScanStats {
  for (const k of KINDS) {
    a.bytes[k] += b.bytes[k];
    a.requests[k] += b.requests[k];
  }
  a.bytes.total += b.bytes.total;
  a.requests.total += b.requests.total;
  a.rowGroups.total += b.rowGroups.total;
  a.rowGroups.read += b.rowGroups.read;
  for (const r of Object.keys(a.rowGroups.skipped) as (keyof RowGroupSkips)[]) a.rowGroups.skipped[r] += b.rowGroups.skipped[r];
  a.pages.read += b.pages.read;
  a.pages.skipped += b.pages.skipped;
  for (const [path, c] of Object.entries(b.columns)) {
    const t = columnScan(a, path);
    t.pagesRead += c.pagesRead;
    t.pagesSkipped += c.pagesSkipped;
    t.chunks += c.chunks;
  }
  a.rowsDecoded += b.rowsDecoded;
  a.valuesDecoded += b.valuesDecoded;
  a.rowsReturned += b.rowsReturned;
  return a;
}

/**
 * The key of a leaf column at a path, in a read's maps of its filter columns, in `decimals` and in {@link ScanStats.columns}: its names
 * joined with dots, or (when a name has a dot, so that joining could name another column too) the path as JSON.
 * @param path - the leaf's names.
 * @returns its key.
 */
export function leafKey(path: readonly string[]): string {
  return path.some((p) => p.includes('.')) ? JSON.stringify(path) : path.join('.');
}

/**
 * The per-column entry of a column, created on first use.
 * @param s - the statistics.
 * @param path - the column's key (see {@link ScanStats.columns}).
 * @returns its entry.
 */
export function columnScan(s: ScanStats, path: string): ColumnScan {
  let c = s.columns[path];
  if (c === undefined) {
    c = { pagesRead: 0, pagesSkipped: 0, chunks: 0 };
    Object.defineProperty(s.columns, path, { value: c, enumerable: true, writable: true, configurable: true });
  }
  return c;
}

/** A range to fetch, with what it holds. */
export interface KindRange {
  /** First byte. */
  start: number;
  /** End (exclusive). */
  end: number;
  /** What the bytes are. */
  kind: ReadKind;
}

/**
 * Counts every request a file's reads make, into the file's running totals and into the statistics of the read
 * that made it (reads may run concurrently: each passes its own statistics).
 */
export class CountingSource {
  /** Every request since the file was opened. */
  readonly totals: ScanStats = emptyScanStats();

  /**
   * @param source - the file's byte source; the requests it made on its own (an HTTP source's opening suffix request,
   * see {@link ByteSource.takeUncounted}) are counted as footer requests.
   */
  constructor(readonly source: ByteSource) {
    const opening = source.takeUncounted?.();
    if (opening !== undefined) this.count('footer', opening.bytes, opening.requests, undefined);
  }

  /** Where the bytes the source holds in memory begin (reads past it cost no request: {@link ByteSource.heldFrom}). */
  private heldFrom(): number {
    return this.source.heldFrom ?? this.source.byteLength;
  }

  /**
   * The largest read made for the footer (the tail guess): page indexes and bloom filters usually lie just before
   * the footer, and their ranges inside these bytes are served from them without a request.
   */
  private tail: { start: number; bytes: Uint8Array } | undefined;

  private count(kind: ReadKind, bytes: number, requests: number, read: ScanStats | undefined): void {
    for (const s of read === undefined ? [this.totals] : [this.totals, read]) {
      s.bytes[kind] += bytes;
      s.bytes.total += bytes;
      s.requests[kind] += requests;
      s.requests.total += requests;
    }
  }

  /**
   * A byte source whose requests count as `kind` (for code that takes a {@link ByteSource}).
   * @param kind - what the requests fetch.
   * @param read - the statistics of the read making them.
   * @returns the counting source.
   */
  as(kind: ReadKind, read?: ScanStats): ByteSource {
    return {
      byteLength: this.source.byteLength,
      read: async (start, end) => {
        const held = this.heldFrom();
        if (start < held) this.count(kind, Math.min(end, held) - start, 1, read);
        const bytes = await readSource(this.source, start, end);
        if (kind === 'footer' && (this.tail === undefined || bytes.length > this.tail.bytes.length)) this.tail = { start, bytes };
        return bytes;
      },
    };
  }

  /**
   * Fetches several ranges, merging those less than `maxGap` bytes apart into one request. A merged request counts
   * once, for the kind holding most of its bytes; its bytes are split between the kinds of the ranges it holds (a gap
   * counts for the range before it), so the byte counts add up to exactly what was fetched. Index and bloom filter
   * ranges inside the bytes read with the footer are served from them, without a request (counted as footer bytes),
   * and so are ranges of any kind inside the bytes the source holds ({@link ByteSource.heldFrom}); a request reaching
   * into those counts only the bytes before them.
   * @param ranges - the ranges (any order, may overlap).
   * @param read - the statistics of the read.
   * @param maxGap - the largest gap bridged by one request (default 64 KiB).
   * @returns each range's bytes, in the order given.
   */
  async fetch(ranges: readonly KindRange[], read: ScanStats | undefined, maxGap = 65536): Promise<Uint8Array[]> {
    const out: Uint8Array[] = new Array(ranges.length);
    const tail = this.tail;
    const held = this.heldFrom();
    const order = ranges.map((_, i) => i).sort((a, b) => ranges[a]!.start - ranges[b]!.start);
    const groups: { start: number; end: number; members: number[]; held?: true }[] = [];
    for (const i of order) {
      const r = ranges[i]!;
      if (tail && (r.kind === 'index' || r.kind === 'bloom') && r.start >= tail.start && r.end <= tail.start + tail.bytes.length) {
        // already fetched with the footer (indexes and bloom filters only: pages are read as asked)
        out[i] = tail.bytes.subarray(r.start - tail.start, r.end - tail.start);
        continue;
      }
      if (r.start >= held) {
        // held by the source (an HTTP source's tail): no request
        groups.push({ start: r.start, end: r.end, members: [i], held: true });
        continue;
      }
      const last = groups[groups.length - 1];
      if (last && !last.held && r.start <= last.end + maxGap) {
        last.end = Math.max(last.end, r.end);
        last.members.push(i);
      } else groups.push({ start: r.start, end: r.end, members: [i] });
    }
    await Promise.all(
      groups.map(async (g) => {
        if (g.held) {
          out[g.members[0]!] = await readSource(this.source, g.start, g.end);
          return;
        }
        let cursor = g.start;
        let before = ranges[g.members[0]!]!.kind;
        for (const i of g.members) {
          const r = ranges[i]!;
          // bytes from `held` on are not fetched
          if (r.start > cursor) {
            this.count(before, Math.max(0, Math.min(r.start, held) - cursor), 0, read);
            cursor = r.start;
          }
          if (r.end > cursor) {
            this.count(r.kind, Math.max(0, Math.min(r.end, held) - cursor), 0, read);
            cursor = r.end;
          }
          before = r.kind;
        }
        // the request counts for the kind holding most of its bytes
        let kind = ranges[g.members[0]!]!.kind;
        let most = 0;
        const sizes = new Map<ReadKind, number>();
        for (const i of g.members) {
          const r = ranges[i]!;
          const n = (sizes.get(r.kind) ?? 0) + (r.end - r.start);
          sizes.set(r.kind, n);
          if (n > most) {
            most = n;
            kind = r.kind;
          }
        }
        this.count(kind, 0, 1, read);
        const bytes = await readSource(this.source, g.start, g.end);
        for (const i of g.members) out[i] = bytes.subarray(ranges[i]!.start - g.start, ranges[i]!.end - g.start);
      }),
    );
    return out;
  }
}
