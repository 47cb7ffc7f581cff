/**
 * `openDataset`: many Parquet files read as one table.
 *
 * A dataset is a list of files (from a store's listing, a `_metadata` summary, or given), their hive partition
 * values (from `key=value/` directories), and one schema (see `schema.ts` for the evolution rules). A read goes
 * through three stages before the reader's own pipeline:
 * 1. **Partitions**: the filter is evaluated on each file's partition values; files it rules out are skipped
 *    before anything of them is fetched.
 * 2. **Footer statistics**: of the files left, those whose every row group the row-group statistics rule out (the
 *    reader's `statisticsPruner`, on the footer or on the `_metadata` summary) are skipped before any data request.
 * 3. **The reader**: each remaining file is read by `@parquetry/parquet-reader` with the residual filter (what is
 *    left once partition values and missing columns are substituted), its `prune` options and its `onScan`
 *    statistics, summed over the files.
 *
 * Footers are fetched with bounded concurrency (`concurrency`, default 8); rows come out in file order.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (each file; `file_path` for summaries).
 * @module
 */
import { ParquetError, type FileMetaData, type OptionRules, type SchemaElement } from '@parquetry/thrift-compact';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import { buildSchemaTree, type ColumnarVector, type SchemaTree, type StructVector } from '@parquetry/parquet-levels';
import { DEFAULT_BATCH_SIZE, addScanStats, emptyScanStats, bufferSource, openParquet, type ByteSource, type ColumnBatch, type ColumnStatistics, type Filter, type OpenOptions, type ParquetFile, type ReadOptions, type RowBatch, type ScanStats, type ValueOptions } from '@parquetry/parquet-reader';
import { checkFilter, columnKey, filterColumns, statisticsPruner } from '@parquetry/parquet-reader/filters';
import { inferPartitionType, parseHivePath, partitionElement, jsonPartitionValue, partitionValue, type PartitionField, type PartitionType } from './hive.js';
import { mapColumns, unifySchemas, withPartitions, type ColumnMapping } from './schema.js';
import { partialFilter, topOf, type Residual } from './filter.js';
import { COMMON_METADATA_FILE, METADATA_FILE, dataEndOf, decodeSummary, fileMetadataOf, footerServedSource, minFileSizeOf, summaryFiles } from './summary.js';
import type { StoreEntry } from './store.js';
import type { DatasetStore } from './store.js';
import { mapLimit, orderedAhead } from './pool.js';
import { datasetBatchOptionRules, datasetOptionRules, datasetReadOptionRules } from './options.js';
import { constantVector, nullVector, widenVector } from './vectors.js';

/** How partition columns are found: hive `key=value/` directories (types inferred, or given per key), or none. */
export type Partitioning = 'hive' | false | { /** Types by key; keys not listed are inferred. */ types: Readonly<Record<string, PartitionType>> };

/** Options of {@link openDataset}. */
export interface DatasetOptions extends OpenOptions {
  /** Partition columns from the paths (default `'hive'`). */
  partitioning?: Partitioning;
  /**
   * The dataset's schema (partition columns aside): `'union'` (default) unifies every file's footer, fetched when
   * the dataset is opened; `'first'` takes the first file's (the other footers are fetched only when their files are
   * read: columns they lack read as null, columns the first lacks are left out); or given as a `SchemaElement` list
   * or a reader schema tree (no footer fetched at open). A `_common_metadata` or `_metadata` summary, when read,
   * gives it instead (unless it is given here).
   */
  schema?: 'union' | 'first' | readonly SchemaElement[] | SchemaTree;
  /**
   * Read `_metadata` (the whole plan: files, row groups, statistics and footers in one request) or else
   * `_common_metadata` (the schema) at the dataset root when present (default true). When the store can list its
   * files, `_metadata` is trusted only when it agrees with the listing: the same data files, none smaller than it
   * says, and, when the listing gives modification times (a local directory, the memory store), none modified after
   * `_metadata` (see {@link SummaryIgnored}); a store that cannot list (a base URL) has only the summary to go by.
   */
  summary?: boolean;
  /** Largest number of files fetched from at once (footers at open and during reads; data in `readRows`; default 8). */
  concurrency?: number;
}

/** A file of a dataset. */
export interface DatasetFile {
  /** Its path below the dataset root (or its URL). */
  readonly path: string;
  /** Its size, when known from the listing. */
  readonly size: number | undefined;
  /**
   * Its hive partition values as written in the path (URL-decoded; null for `__HIVE_DEFAULT_PARTITION__`). A URL's
   * path is first decoded as a URL (to the object key), then the key's `key=value` segments as hive paths, as for a
   * local path or a store's key.
   */
  readonly partition: Readonly<Record<string, string | null>>;
}

/**
 * Options of a dataset read: the reader's, without its per-file row selection (`rowGroups`; `rowStart`/`rowEnd` are
 * counted over the dataset), and a dataset `onScan`.
 */
export interface DatasetReadOptions extends Omit<ReadOptions, 'rowGroups' | 'rowStart' | 'rowEnd' | 'onScan' | 'binary'> {
  /**
   * BYTE_ARRAY columns in columnar batches (DECIMAL excepted): `'vector'` (default) in Arrow's binary layout
   * (offsets and bytes, as the reader's columnar reads give them), `'values'` as strings and byte arrays.
   */
  binary?: 'vector' | 'values';
  /**
   * Columns to read: top-level names or dotted paths of the files' columns, and partition column names (default:
   * every column of the dataset, then the partition columns). A dotted path splits at every dot; a name with a dot in
   * it takes a path array (`['a.b']`).
   *
   * The list also sets the output order, as `pyarrow.dataset`'s `to_table(columns=[…])` and SQL's `SELECT p, id` do:
   * rows' keys and the column batches' children follow each top-level field's first mention, partition columns
   * included (`['p', 'id']` puts the partition first). A nested path (`s.b`) places its top-level field `s`, whose own
   * fields keep their schema order; a field mentioned again is read once, at its first place. Without `columns`: the
   * dataset's columns, then the partition columns. A filter column left out of `columns` is not returned.
   */
  columns?: readonly (string | readonly string[])[];
  /**
   * Rows matching this filter only; it may name partition columns and columns some files lack (null there). Its values
   * are checked and converted as a file read's are (a `Date`, `YYYY-MM-DD` or a day number on a date partition; a
   * `number` or `bigint` on an integer one). A column is a dotted path or a path array, as in a file read (`['a.b']`
   * the top-level field `a.b`, `['a', 'b']` field `b` of struct `a`; a partition column is `'p'` or `['p']`).
   */
  filter?: Filter;
  /** Called once when the read ends (also when it fails or an iteration is left early) with its statistics. */
  onScan?: (stats: DatasetScanStats) => void;
  /**
   * First row to return, counted over the dataset: its files in dataset order ({@link Dataset.files}), each file's
   * rows in order, by the footers' row counts (default 0). Files wholly outside `rowStart`/`rowEnd` are not read
   * (only their footers' row counts are needed: at hand once the dataset is open, unless `schema` was `'first'` or
   * given); a file the range cuts is read with its own `rowStart`/`rowEnd`, so the reader fetches only the pages
   * holding those rows (by its offset index). With a `filter` the range selects rows before filtering, as a file
   * read's does: the rows returned are those of the range that match (fewer than `rowEnd - rowStart`).
   */
  rowStart?: number;
  /** Row after the last one to return, counted over the dataset as `rowStart` (default: the end of the dataset). */
  rowEnd?: number;
}

/** Batches of a dataset read. */
export interface DatasetBatchOptions extends DatasetReadOptions {
  /** Rows per batch (default the reader's 10,000); batches never span files or row groups. */
  batchSize?: number;
}

/** A batch of rows of one file. */
export interface DatasetRowBatch {
  /** The file. */
  file: DatasetFile;
  /** Row group ordinal in the file. */
  rowGroup: number;
  /** First row of the batch, counted over the file. */
  rowStart: number;
  /** Row after the batch's last, counted over the file. */
  rowEnd: number;
  /** The rows (their keys in the order of {@link DatasetReadOptions.columns}: by default the dataset's columns, then the partition columns). */
  rows: Record<string, unknown>[];
}

/** A batch of columns of one file. */
export interface DatasetColumnBatch {
  /** The file. */
  file: DatasetFile;
  /** Row group ordinal in the file. */
  rowGroup: number;
  /** First row of the batch, counted over the file. */
  rowStart: number;
  /** Row after the batch's last, counted over the file. */
  rowEnd: number;
  /**
   * One vector per selected column, typed as the dataset's schema says, in the order of
   * {@link DatasetReadOptions.columns} (by default the dataset's columns, then the partition columns).
   */
  columns: StructVector;
}

/** Fetches of one kind made by the dataset itself (not by the reader's reads). */
export interface FetchCounts {
  /** Requests. */
  requests: number;
  /** Bytes. */
  bytes: number;
}

/** What a dataset read (or every read so far, with the open) cost and produced. */
export interface DatasetScanStats {
  /** Files of the dataset and what became of them. */
  files: {
    /** Files in the dataset. */
    total: number;
    /** Files whose footer was fetched from the store (not from a summary or an earlier fetch). */
    opened: number;
    /** Files read by the reader (their data considered). */
    read: number;
    /** Files skipped, by stage. */
    skipped: {
      /** The filter rules out the file's partition values (nothing of it fetched). */
      partition: number;
      /** Its footer statistics rule out every row group (no data fetched). */
      statistics: number;
      /** Wholly outside the read's `rowStart`/`rowEnd` (nothing of it fetched past its footer); only on ranged reads. */
      range?: number;
    };
  };
  /** The summary files (`_metadata`, `_common_metadata`). */
  summary: FetchCounts;
  /** File footers. */
  footers: FetchCounts;
  /** The reader's statistics of every file read, summed (bytes and requests past the footers). */
  reads: ScanStats;
  /** All requests: summary, footers and reads. */
  requests: number;
  /** All bytes: summary, footers and reads. */
  bytes: number;
  /** Rows returned. */
  rowsReturned: number;
}

/**
 * Why a `_metadata` summary was not used to plan a dataset: it disagrees with the store's listing, so it is stale
 * (files added, deleted or rewritten after it was written) and the dataset was planned from the files' footers, as
 * if there were no `_metadata`.
 */
export interface SummaryIgnored {
  /**
   * `'files differ'`: the data files the summary names (its `file_path`s) are not the data files listed (hidden
   * `.`/`_` names left out of both); `'sizes differ'`: the same files, but one is smaller than what the summary says
   * of it needs (its column chunks, page indexes and bloom filters, then a footer with at least the schema's names and
   * the chunks' column paths, its length and magic: see `minFileSizeOf`); `'files modified'`: the same files and
   * sizes, but the listing dates a data file after `_metadata` (both with a `modified` time: a local directory's
   * `mtimeMs`, the memory store's write times), so it was rewritten since. A file rewritten to a size at least that
   * and not dated after `_metadata` (a store that gives no times, or a copy that set them back) is not detected
   * without fetching its footer, which the summary is there to avoid.
   */
  reason: 'files differ' | 'sizes differ' | 'files modified';
  /** What differs, for a message: the first file concerned and how many are. */
  message: string;
}

/** Many Parquet files read as one table. */
export interface Dataset {
  /** The dataset root (a directory, a base URL, or `'list'` for given files). */
  readonly location: string;
  /** The files, in dataset order (path order, or the summary's). */
  readonly files: readonly DatasetFile[];
  /** The partition columns. */
  readonly partitions: readonly PartitionField[];
  /** The schema: the data columns, then the partition columns. */
  readonly schema: SchemaTree;
  /**
   * Which summary file planned the dataset, if any: `'metadata'` (files, row groups and footers from `_metadata`),
   * `'common'` (the schema from `_common_metadata`, or from a `_metadata` without row groups).
   */
  readonly summary: 'metadata' | 'common' | undefined;
  /**
   * Set when a `_metadata` summary was found but not used because it disagrees with the store's listing (then
   * {@link Dataset.summary} is `'common'` when `_common_metadata` gave the schema, else undefined); undefined
   * otherwise.
   */
  readonly summaryIgnored: SummaryIgnored | undefined;
  /**
   * Reads rows: the dataset's columns (null where a file lacks one, widened where a file has a narrower type),
   * then the partition columns, or the columns in the order `columns` gives them; files in order, each file's rows in
   * order.
   * @param options - projection, filter, pruning, value mapping, `onScan`.
   * @returns the rows.
   * @throws ParquetError `INVALID_ARGUMENT` (an option it does not take, naming the nearest one and its list, or a
   *   value outside its set), `UNKNOWN_COLUMN` (a column of `columns`), `FILTER_INVALID` (a filter's shape, operator,
   *   column or value, as the reader refuses them), `SCHEMA_MISMATCH`, `INVALID_PARTITION`, and the reader's errors
   *   (with the file's path).
   */
  readRows(options?: DatasetReadOptions): Promise<Record<string, unknown>[]>;
  /**
   * Iterates over the row groups read, file by file (footers fetched ahead, up to `concurrency`).
   * @param options - as {@link Dataset.readRows}.
   * @returns each row group's rows with its file.
   * @throws ParquetError as {@link Dataset.readRows}.
   */
  iterateRowGroups(options?: DatasetReadOptions): AsyncGenerator<{ file: DatasetFile; rowGroup: number; rows: Record<string, unknown>[] }>;
  /**
   * Iterates over batches of rows (the reader's `iterateBatches` per file).
   * @param options - batch size, `form: 'rows'` (default), and the read options.
   * @returns the batches.
   * @throws ParquetError as {@link Dataset.readRows}.
   */
  iterateBatches(options?: DatasetBatchOptions & { form?: 'rows' }): AsyncGenerator<DatasetRowBatch>;
  /**
   * Iterates over batches of Arrow-shaped vectors: each file's vectors, with the columns it lacks as all-null
   * vectors, narrower types widened, and the partition columns as constant vectors.
   * @param options - batch size, `form: 'columns'`, and the read options.
   * @returns the batches.
   * @throws ParquetError as {@link Dataset.readRows}.
   */
  iterateBatches(options: DatasetBatchOptions & { form: 'columns' }): AsyncGenerator<DatasetColumnBatch>;
  /**
   * Opens one file with the reader (its footer from the summary or fetched once, then kept).
   * @param file - the file or its index.
   * @returns the reader's file.
   * @throws ParquetError `OUT_OF_RANGE` for an index outside the files, and the reader's open errors.
   */
  openFile(file: number | DatasetFile): Promise<ParquetFile>;
  /**
   * What opening the dataset and every read so far cost (reads still running are not included).
   * @returns a snapshot.
   */
  scanStats(): DatasetScanStats;
}

/** A file given to {@link openDataset} directly: a URL, or a path with its bytes or byte source. */
export type DatasetInput = string | { /** The path (partition values are read from it). */ path: string; /** The file. */ source: ByteSource | Uint8Array | ArrayBuffer };

/**
 * A zeroed {@link DatasetScanStats}.
 * @param total - files in the dataset.
 * @returns the statistics.
 */
export function emptyDatasetStats(total = 0): DatasetScanStats {
  return {
    files: { total, opened: 0, read: 0, skipped: { partition: 0, statistics: 0 } },
    summary: { requests: 0, bytes: 0 },
    footers: { requests: 0, bytes: 0 },
    reads: emptyScanStats(),
    requests: 0,
    bytes: 0,
    rowsReturned: 0,
  };
}

/**
 * Adds `b` into `a`.
 * @param a - the accumulator (modified).
 * @param b - the statistics to add.
 * @returns `a`.
 */
export function addDatasetStats(a: DatasetScanStats, b: DatasetScanStats): DatasetScanStats {
  a.files.opened += b.files.opened;
  a.files.read += b.files.read;
  a.files.skipped.partition += b.files.skipped.partition;
  a.files.skipped.statistics += b.files.skipped.statistics;
  if (b.files.skipped.range !== undefined) a.files.skipped.range = (a.files.skipped.range ?? 0) + b.files.skipped.range;
  a.summary.requests += b.summary.requests;
  a.summary.bytes += b.summary.bytes;
  a.footers.requests += b.footers.requests;
  a.footers.bytes += b.footers.bytes;
  addScanStats(a.reads, b.reads);
  a.requests += b.requests;
  a.bytes += b.bytes;
  a.rowsReturned += b.rowsReturned;
  return a;
}

/** Sets an own enumerable property, also one named `__proto__` (which assignment would take as the prototype). */
function setOwn(o: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(o, name, { value, enumerable: true, writable: true, configurable: true });
}

function finish(s: DatasetScanStats): DatasetScanStats {
  s.requests = s.summary.requests + s.footers.requests + s.reads.requests.total;
  s.bytes = s.summary.bytes + s.footers.bytes + s.reads.bytes.total;
  return s;
}

/** Skipped by the reader's convention: hidden files, `_`-prefixed files and directories (summaries, `_SUCCESS`, …). */
function ignored(path: string): boolean {
  return path.split('/').some((seg) => seg.startsWith('.') || seg.startsWith('_'));
}

interface Entry {
  file: DatasetFile;
  /** The footer, when a summary gave it. */
  meta: FileMetaData | undefined;
  /** The opened file (cached). */
  opened: Promise<ParquetFile> | undefined;
  /** Its row count, once known from its footer. */
  rows?: number;
}

/** The rows of one file a ranged read keeps, counted over the file (undefined: from its start, to its end). */
interface FileRange {
  start: number | undefined;
  end: number | undefined;
}

/** What a read resolved once: output fields, file projection, filter, value options. */
interface ReadPlan {
  options: DatasetReadOptions;
  /**
   * Selected fields (dataset top-level indexes: data columns, then partition columns), in output order: the order of
   * their first mention in `columns`, else the schema's.
   */
  fields: number[];
  /** The paths to pass to the reader, by top-level name. */
  paths: Map<string, (string | readonly string[])[]>;
  filter: Filter | undefined;
  stats: DatasetScanStats;
  /** The output struct field (for columnar batches). */
  decimals: Set<string>;
  /** The read's row range over the dataset, when given. */
  range: { from: number; to: number } | undefined;
}

/** A file ready to read: the reader's file, how its columns map, the residual filter. */
interface Prepared {
  entry: Entry;
  file: ParquetFile;
  mapping: ColumnMapping[];
  residual: Residual;
  /** The file's rows a ranged read keeps (undefined: all). */
  range: FileRange | undefined;
}

class DatasetImpl implements Dataset {
  readonly files: readonly DatasetFile[];
  readonly schema: SchemaTree;
  /** The data columns alone. */
  private readonly data: SchemaTree;
  private readonly totals: DatasetScanStats;

  constructor(
    readonly location: string,
    private readonly store: DatasetStore,
    private readonly entries: Entry[],
    readonly partitions: readonly PartitionField[],
    dataElements: readonly SchemaElement[],
    readonly summary: 'metadata' | 'common' | undefined,
    private readonly options: DatasetOptions,
    openStats: DatasetScanStats,
    readonly summaryIgnored: SummaryIgnored | undefined = undefined,
  ) {
    this.files = entries.map((e) => e.file);
    this.data = buildSchemaTree(dataElements);
    this.schema = withPartitions(dataElements, partitions.map(partitionElement));
    this.totals = openStats;
  }

  private get concurrency(): number {
    return Math.max(1, this.options.concurrency ?? 8);
  }

  scanStats(): DatasetScanStats {
    return finish(addDatasetStats(emptyDatasetStats(this.entries.length), this.totals));
  }

  openFile(file: number | DatasetFile): Promise<ParquetFile> {
    const e = typeof file === 'number' ? this.entries[file] : this.entries.find((x) => x.file === file);
    if (!e) return Promise.reject(new ParquetError('OUT_OF_RANGE', `parquet-dataset: no file ${typeof file === 'number' ? file : `'${file.path}'`} in the dataset (${this.entries.length} files)`));
    return this.open(e, undefined);
  }

  /** Opens a file once; counts its footer fetch in `stats` (when it was fetched for this call). */
  open(e: Entry, stats: DatasetScanStats | undefined): Promise<ParquetFile> {
    if (e.opened) return e.opened;
    const { partitioning: _p, schema: _s, summary: _m, concurrency: _c, ...open } = this.options;
    const meta = e.meta;
    const end = meta ? dataEndOf(meta.row_groups) : undefined;
    const where = inStore(this.location, e.file.path);
    e.opened = (async () => {
      try {
        if (meta && end !== undefined) {
          const { source, tailGuess } = footerServedSource(() => this.store.open(e.file.path, end), end, meta);
          return await openParquet(source, { ...open, tailGuess });
        }
        const source = await this.store.open(e.file.path, e.file.size);
        const file = await openParquet(source, open);
        e.rows = file.metadata.num_rows;
        const s = file.scanStats();
        // a read's footers reach the totals with the read's statistics when it ends
        const t = stats ?? this.totals;
        t.files.opened++;
        t.footers.requests += s.requests.footer;
        t.footers.bytes += s.bytes.footer;
        return file;
      } catch (err) {
        e.opened = undefined;
        throw withPath(err, where);
      }
    })();
    return e.opened;
  }

  /**
   * Checks a read's options against the method's own list, then resolves the read.
   * @throws ParquetError `INVALID_ARGUMENT` for an option the method does not take or a value outside its set.
   */
  private plan(options: DatasetReadOptions, method: string, rules: OptionRules): ReadPlan {
    checkOptions(options, rules, `parquet-dataset: ${method}`);
    const top = this.schema.field.fields;
    const nData = this.data.field.fields.length;
    const index = new Map(top.map((f, i) => [f.name, i]));
    const paths = new Map<string, (string | readonly string[])[]>();
    const picked = new Set<number>();
    if (options.columns) {
      for (const c of options.columns) {
        const parts = typeof c === 'string' ? c.split('.') : c;
        const i = index.get(parts[0] ?? '');
        if (i === undefined) throw new ParquetError('UNKNOWN_COLUMN', `parquet-dataset: no column '${parts.join('.')}' in the dataset (columns: ${top.map((f) => f.name).join(', ')})`);
        if (i >= nData && parts.length > 1) throw new ParquetError('UNKNOWN_COLUMN', `parquet-dataset: '${parts.join('.')}': partition column '${parts[0]}' has no fields`);
        picked.add(i);
        if (i < nData) {
          let list = paths.get(parts[0]!);
          if (!list) paths.set(parts[0]!, (list = []));
          // the path as the dataset resolved it (a dotted string, split at every dot, would be ambiguous to the reader
          // in a file with a field whose name has a dot)
          list.push(parts);
        }
      }
    } else {
      top.forEach((f, i) => {
        picked.add(i);
        if (i < nData) paths.set(f.name, [[f.name]]); // a path array: the name may have a dot
      });
    }
    // the output order: first mention in `columns` (a Set keeps insertion order), else the schema's
    const fields = [...picked];
    // shapes, operators and columns checked and every value converted to its column's type under the read's value
    // mapping, as a file read does first: a `Date` or `YYYY-MM-DD` on a date partition compares as the partition's days
    // (unconverted, it matched no file and the read returned no rows)
    const filter = options.filter === undefined ? undefined : checkFilter(options.filter, this.schema, valueOptions(options));
    const decimals = new Set<string>();
    if (filter) {
      // the checked filter names each column by its dotted path, or by its path array when a name has a dot
      for (const c of filterColumns(filter)) {
        const i = index.get(topOf(c));
        const name = typeof c === 'string' ? c : JSON.stringify(c);
        if (i === undefined) throw new ParquetError('UNKNOWN_COLUMN', `parquet-dataset: the filter names '${name}', which is not a column of the dataset`);
        if (i >= nData && (typeof c === 'string' ? c.includes('.') : c.length > 1)) throw new ParquetError('UNKNOWN_COLUMN', `parquet-dataset: the filter names '${name}': partition column '${topOf(c)}' has no fields`);
        const key = columnKey(c);
        const leaf = this.data.columns.find((col) => columnKey(col.path) === key);
        if (leaf?.node.logicalType?.DECIMAL && options.decimals !== 'number') decimals.add(key);
      }
    }
    return {
      options,
      fields,
      paths,
      filter,
      stats: emptyDatasetStats(this.entries.length),
      decimals,
      range: rowRange(options),
    };
  }

  /** A file's partition values in the read's value mapping. */
  private partitionValues(e: Entry, options: DatasetReadOptions): Map<string, unknown> {
    const out = new Map<string, unknown>();
    for (const p of this.partitions) {
      const raw = e.file.partition[p.name] ?? null;
      out.set(p.name, partitionValue(raw, p.type, options, `'${e.file.path}', partition '${p.name}'`));
    }
    return out;
  }

  /**
   * A ranged read's files: those holding rows of the range, each with its rows of it. Row counts come from the
   * footers (fetched, `concurrency` at a time and in order, for files whose count is not yet known, up to the range's
   * end).
   */
  private async rangeStage(plan: ReadPlan, range: { from: number; to: number }): Promise<Map<Entry, FileRange>> {
    const out = new Map<Entry, FileRange>();
    let base = 0;
    for (let i = 0; i < this.entries.length && base < range.to; ) {
      // the next files whose counts are unknown are opened together (up to `concurrency` of them)
      const window: Entry[] = [];
      for (let k = i; k < this.entries.length && window.length < this.concurrency; k++) window.push(this.entries[k]!);
      const counts = await Promise.all(
        window.map(async (e) => {
          const known = e.meta?.num_rows ?? e.rows;
          if (known !== undefined) return known;
          return (await this.open(e, plan.stats)).metadata.num_rows;
        }),
      );
      for (let k = 0; k < window.length && base < range.to; k++, i++) {
        const n = counts[k]!;
        const s = Math.max(0, range.from - base);
        const t = Math.min(n, range.to - base);
        if (s < t) out.set(window[k]!, { start: s > 0 ? s : undefined, end: t < n ? t : undefined });
        base += n;
      }
      if (base >= range.to) break;
    }
    plan.stats.files.skipped.range = this.entries.length - out.size;
    return out;
  }

  /** Stages 0 (the row range, when given) and 1 (partitions, before any fetch of the files' data). */
  private async selected(plan: ReadPlan): Promise<{ entry: Entry; residual: Residual; parts: Map<string, unknown>; range: FileRange | undefined }[]> {
    const ranges = plan.range ? await this.rangeStage(plan, plan.range) : undefined;
    return this.partitionStage(plan, ranges);
  }

  /** Stage 1: partition pruning, synchronous and before any fetch. */
  private partitionStage(plan: ReadPlan, ranges: Map<Entry, FileRange> | undefined): { entry: Entry; residual: Residual; parts: Map<string, unknown>; range: FileRange | undefined }[] {
    const out: { entry: Entry; residual: Residual; parts: Map<string, unknown>; range: FileRange | undefined }[] = [];
    for (const entry of this.entries) {
      const range = ranges?.get(entry);
      if (ranges && !range) continue;
      const parts = this.partitionValues(entry, plan.options);
      const residual: Residual = plan.filter ? partialFilter(plan.filter, (t) => (parts.has(t) ? { value: parts.get(t) } : undefined)) : true;
      if (residual === false) {
        plan.stats.files.skipped.partition++;
        continue;
      }
      out.push({ entry, residual, parts, range });
    }
    return out;
  }

  /** Stage 2: the footer (fetched or from the summary), the column mapping, missing columns, footer statistics. */
  private async prepare(plan: ReadPlan, c: { entry: Entry; residual: Residual; range: FileRange | undefined }): Promise<Prepared | undefined> {
    const file = await this.open(c.entry, plan.stats);
    let mapping: ColumnMapping[];
    try {
      mapping = mapColumns(this.data, file.schema, c.entry.file.path);
    } catch (err) {
      throw withPath(err, '');
    }
    let residual = c.residual;
    if (residual !== true && residual !== false) {
      const missing = new Set(mapping.filter((m) => !m.present).map((m) => m.name));
      if (missing.size > 0) residual = partialFilter(residual, (t) => (missing.has(t) ? { value: null } : undefined));
    }
    if (residual === false) {
      plan.stats.files.skipped.statistics++;
      return undefined;
    }
    const prune = plan.options.prune;
    const statsOn = prune !== false && (prune === undefined || prune === true || prune.statistics !== false);
    if (residual !== true && statsOn && file.metadata.row_groups.length > 0) {
      const f = residual;
      const cols = [...filterColumns(f)];
      const opts = valueOptions(plan.options);
      let any = false;
      for (let g = 0; g < file.metadata.row_groups.length && !any; g++) {
        // the filter's columns' statistics (the reader decodes them in a lazy part, hence asynchronously), each
        // error kept to be thrown where the pruner asks for that column, as a synchronous lookup would
        const got = new Map<string, { stats: ColumnStatistics | undefined } | { error: unknown }>();
        for (const col of cols) {
          const key = columnKey(col);
          // the file's leaf with the filter column's path (a dotted path could name two leaves of the file)
          const i = file.schema.columns.findIndex((c) => columnKey(c.path) === key);
          try {
            got.set(key, { stats: await file.statistics(g, i >= 0 ? i : typeof col === 'string' ? col : col.join('.'), opts) });
          } catch (error) {
            got.set(key, { error });
          }
        }
        try {
          any = statisticsPruner(f, (col) => {
            const r = got.get(columnKey(col));
            if (r !== undefined && 'error' in r) throw r.error;
            return r?.stats;
          }, plan.decimals);
        } catch {
          any = true; // a column the reader will report on
        }
      }
      if (!any) {
        plan.stats.files.skipped.statistics++;
        return undefined;
      }
    }
    return { entry: c.entry, file, mapping, residual, range: c.range };
  }

  /**
   * The reader's options for one file, or undefined when the read needs none of its columns (only partition columns
   * or columns it lacks, and no filter left): its row counts come from the footer, and nothing else is fetched.
   */
  private readerOptions(plan: ReadPlan, p: Prepared): ReadOptions | undefined {
    const { columns: _c, filter: _f, onScan: _o, rowStart: _rs, rowEnd: _re, ...rest } = plan.options;
    const cols: (string | readonly string[])[] = [];
    for (const m of p.mapping) if (m.present) for (const path of plan.paths.get(m.name) ?? []) cols.push(path);
    const filtered = p.residual !== true && p.residual !== false;
    if (cols.length === 0 && !filtered) return undefined;
    // no output column but a filter: the filter's columns are read (and left out of the rows by shapeRows)
    // (as path arrays: a checked filter's dotted path has no name with a dot, and could name two columns of a file)
    if (cols.length === 0) for (const c of filterColumns(p.residual as Filter)) cols.push(typeof c === 'string' ? c.split('.') : c);
    const out: ReadOptions = { ...rest, columns: cols, onScan: (s) => addScanStats(plan.stats.reads, s) };
    if (filtered) out.filter = p.residual as Filter;
    if (p.range?.start !== undefined) out.rowStart = p.range.start;
    if (p.range?.end !== undefined) out.rowEnd = p.range.end;
    return out;
  }

  /** Row groups of a file by their row counts in the footer (for a read that needs none of its columns). */
  private *countedGroups(p: Prepared, batchSize: number): Generator<{ rowGroup: number; rowStart: number; rowEnd: number }> {
    const from = p.range?.start ?? 0;
    const to = p.range?.end ?? Infinity;
    let start = 0;
    for (let g = 0; g < p.file.metadata.row_groups.length; g++) {
      const n = p.file.metadata.row_groups[g]!.num_rows;
      // the group's rows within the range, counted over the group
      const lo = Math.max(0, from - start);
      const hi = Math.min(n, to - start);
      for (let a = lo; a < hi; a += batchSize) yield { rowGroup: g, rowStart: start + a, rowEnd: start + Math.min(hi, a + batchSize) };
      start += n;
    }
  }

  /** Reshapes a file's rows to the dataset's: its fields in order, nulls for missing columns, widening, partitions. */
  private shapeRows(plan: ReadPlan, p: Prepared, parts: Map<string, unknown>, rows: Record<string, unknown>[]): Record<string, unknown>[] {
    const top = this.schema.field.fields;
    const nData = this.data.field.fields.length;
    // rows under `values: 'json'` take the partitions in that mapping too (filters and columns keep the native one)
    const json = plan.options.values === 'json';
    // the read's fields in output order: a data column's mapping, or a partition's value
    const shape = plan.fields.map((i): { name: string; m: ColumnMapping | undefined; value: unknown } => {
      const name = top[i]!.name;
      if (i < nData) return { name, m: p.mapping[i]!, value: null };
      const value = parts.get(name) ?? null;
      return { name, m: undefined, value: json ? jsonPartitionValue(value, this.partitions.find((x) => x.name === name)!.type) : value };
    });
    // a widened INT32 is an exact number: a bigint, as INT64 values are, unless the mapping gives numbers
    const asNumber = plan.options.int64 === 'number' || json;
    const out = new Array<Record<string, unknown>>(rows.length);
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      const o: Record<string, unknown> = {};
      for (const { name, m, value } of shape) {
        let v = value;
        if (m) {
          v = m.present ? (row[name] ?? null) : null;
          if (m.widen === 'int64' && typeof v === 'number' && !asNumber) v = BigInt(v);
        }
        if (name === '__proto__') setOwn(o, name, v);
        else o[name] = v;
      }
      out[r] = o;
    }
    return out;
  }

  /** Reshapes a file's columnar batch to the dataset's. */
  private shapeColumns(plan: ReadPlan, p: Prepared, parts: Map<string, unknown>, v: StructVector): StructVector {
    const top = this.schema.field.fields;
    const n = v.length;
    const own = new Map(v.children.map((c) => [c.field.name, c]));
    const nData = this.data.field.fields.length;
    const children: ColumnarVector[] = [];
    const fields = [];
    // under `values: 'json'` a partition's vector holds what the rows hold (shapeRows): the JSON mapping's value
    const json = plan.options.values === 'json';
    // the read's fields in output order
    for (const i of plan.fields) {
      const f = top[i]!;
      if (i < nData) {
        const m = p.mapping[i]!;
        const c = m.present ? own.get(f.name) : undefined;
        children.push(c ? widenVector(c, f, m.widen, plan.options) : nullVector(this.schema, f, n, plan.options));
      } else {
        const value = parts.get(f.name) ?? null;
        children.push(constantVector(this.schema, f, n, json ? jsonPartitionValue(value, this.partitions.find((x) => x.name === f.name)!.type) : value, plan.options));
      }
      fields.push(f);
    }
    return { kind: 'struct', field: { ...this.schema.field, fields }, length: n, validity: null, children };
  }

  private end(plan: ReadPlan): void {
    finish(plan.stats);
    addDatasetStats(this.totals, plan.stats);
    plan.options.onScan?.(plan.stats);
  }

  /** Stages 1 and 2 over the files, footers fetched `concurrency` ahead of the consumer. */
  private async *prepared(plan: ReadPlan): AsyncGenerator<{ p: Prepared; parts: Map<string, unknown> }> {
    const kept = await this.selected(plan);
    for await (const r of orderedAhead(kept, this.concurrency, async (c) => ({ p: await this.prepare(plan, c), parts: c.parts }))) {
      if (r.p) yield { p: r.p, parts: r.parts };
    }
  }

  async readRows(options: DatasetReadOptions = {}): Promise<Record<string, unknown>[]> {
    const plan = this.plan(options, 'readRows', datasetReadOptionRules);
    try {
      const kept = await this.selected(plan);
      const parts = await mapLimit(kept, this.concurrency, async (c) => {
        const p = await this.prepare(plan, c);
        if (!p) return [];
        plan.stats.files.read++;
        const ro = this.readerOptions(plan, p);
        const rows = ro
          ? await p.file.readRows(ro).catch((err: unknown) => {
              throw withPath(err, p.entry.file.path);
            })
          : emptyRows((p.range?.end ?? p.file.numRows) - (p.range?.start ?? 0));
        return this.shapeRows(plan, p, c.parts, rows);
      });
      const out = parts.flat();
      plan.stats.rowsReturned += out.length;
      return out;
    } finally {
      this.end(plan);
    }
  }

  async *iterateRowGroups(options: DatasetReadOptions = {}): AsyncGenerator<{ file: DatasetFile; rowGroup: number; rows: Record<string, unknown>[] }> {
    const plan = this.plan(options, 'iterateRowGroups', datasetReadOptionRules);
    try {
      for await (const { p, parts } of this.prepared(plan)) {
        plan.stats.files.read++;
        try {
          const ro = this.readerOptions(plan, p);
          const groups = ro ? p.file.iterateRowGroups(ro) : countedRowGroups(this.countedGroups(p, Infinity));
          for await (const { rowGroup, rows } of groups) {
            const shaped = this.shapeRows(plan, p, parts, rows);
            plan.stats.rowsReturned += shaped.length;
            yield { file: p.entry.file, rowGroup, rows: shaped };
          }
        } catch (err) {
          throw withPath(err, p.entry.file.path);
        }
      }
    } finally {
      this.end(plan);
    }
  }

  iterateBatches(options?: DatasetBatchOptions & { form?: 'rows' }): AsyncGenerator<DatasetRowBatch>;
  iterateBatches(options: DatasetBatchOptions & { form: 'columns' }): AsyncGenerator<DatasetColumnBatch>;
  async *iterateBatches(options: DatasetBatchOptions & { form?: 'rows' | 'columns' } = {}): AsyncGenerator<DatasetRowBatch | DatasetColumnBatch> {
    const plan = this.plan(options, 'iterateBatches', datasetBatchOptionRules);
    const columns = options.form === 'columns';
    try {
      for await (const { p, parts } of this.prepared(plan)) {
        plan.stats.files.read++;
        const base = this.readerOptions(plan, p);
        try {
          if (!base) {
            for (const b of this.countedGroups(p, options.batchSize ?? DEFAULT_BATCH_SIZE)) {
              const n = b.rowEnd - b.rowStart;
              plan.stats.rowsReturned += n;
              if (columns) yield { file: p.entry.file, ...b, columns: this.shapeColumns(plan, p, parts, { kind: 'struct', field: this.data.field, length: n, validity: null, children: [] }) };
              else yield { file: p.entry.file, ...b, rows: this.shapeRows(plan, p, parts, emptyRows(n)) };
            }
            continue;
          }
          const ro = { ...base, ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }) };
          if (columns) {
            for await (const b of p.file.iterateBatches({ ...ro, form: 'columns' }) as AsyncGenerator<ColumnBatch>) {
              const v = this.shapeColumns(plan, p, parts, b.columns);
              plan.stats.rowsReturned += v.length;
              yield { file: p.entry.file, rowGroup: b.rowGroup, rowStart: b.rowStart, rowEnd: b.rowEnd, columns: v };
            }
          } else {
            for await (const b of p.file.iterateBatches({ ...ro, form: 'rows' }) as AsyncGenerator<RowBatch>) {
              const rows = this.shapeRows(plan, p, parts, b.rows);
              plan.stats.rowsReturned += rows.length;
              yield { file: p.entry.file, rowGroup: b.rowGroup, rowStart: b.rowStart, rowEnd: b.rowEnd, rows };
            }
          }
        } catch (err) {
          throw withPath(err, p.entry.file.path);
        }
      }
    } finally {
      this.end(plan);
    }
  }
}

/**
 * A read's row range over the dataset, checked.
 * @param o - the read options.
 * @returns the range, or undefined when neither bound is given.
 * @throws ParquetError `INVALID_ARGUMENT` for a bound that is not a non-negative integer.
 */
function rowRange(o: DatasetReadOptions): { from: number; to: number } | undefined {
  if (o.rowStart === undefined && o.rowEnd === undefined) return undefined;
  for (const [name, v] of [['rowStart', o.rowStart], ['rowEnd', o.rowEnd]] as const) {
    if (v !== undefined && !(Number.isSafeInteger(v) && v >= 0)) throw new ParquetError('INVALID_ARGUMENT', `parquet-dataset: ${name} must be a non-negative integer (a row counted over the dataset), got ${String(v)}`);
  }
  return { from: o.rowStart ?? 0, to: o.rowEnd ?? Infinity };
}

/** `n` empty row objects (a file read for none of its columns). */
function emptyRows(n: number): Record<string, unknown>[] {
  const out = new Array<Record<string, unknown>>(n);
  for (let i = 0; i < n; i++) out[i] = {};
  return out;
}

/** Row groups of empty rows, by their counts. */
async function* countedRowGroups(groups: Iterable<{ rowGroup: number; rowStart: number; rowEnd: number }>): AsyncGenerator<{ rowGroup: number; rows: Record<string, unknown>[] }> {
  for (const g of groups) yield { rowGroup: g.rowGroup, rows: emptyRows(g.rowEnd - g.rowStart) };
}

/** The value mapping of read options. */
function valueOptions(o: DatasetReadOptions): ValueOptions {
  const out: ValueOptions = {};
  if (o.int64 !== undefined) out.int64 = o.int64;
  if (o.timestamps !== undefined) out.timestamps = o.timestamps;
  if (o.dates !== undefined) out.dates = o.dates;
  if (o.decimals !== undefined) out.decimals = o.decimals;
  if (o.strings !== undefined) out.strings = o.strings;
  return out;
}

/**
 * A file of a store as messages name it: below the store's location (a directory or a base URL, ending with a
 * separator; another location, as the memory store's `memory`, is joined with `/`), or as given for a list.
 * @param location - the store's location (`'list'` for files given one by one).
 * @param path - the path below it.
 * @returns the file's name for a message.
 */
function inStore(location: string, path: string): string {
  if (location === 'list') return path;
  return location.endsWith('/') || location.endsWith('\\') ? `${location}${path}` : `${location}/${path}`;
}

/** Prefixes a ParquetError's message with the file it happened in (once). */
function withPath(err: unknown, path: string): unknown {
  if (!(err instanceof ParquetError) || path === '' || err.message.includes(`'${path}'`)) return err;
  return new ParquetError(err.code, `${err.message} (in '${path}')`, err.offset, { cause: err });
}

/**
 * The object key a URL names: its path with the URL's own percent-encoding undone, segment by segment (what is left
 * is the key as stored, e.g. `city=S%C3%A3o%20Paulo` as pyarrow writes it, whose hive encoding `parseHivePath` undoes).
 * @param url - the URL.
 * @returns the decoded path.
 * @throws ParquetError `INVALID_PARTITION` for a path that is not valid URL encoding.
 */
function urlKey(url: string): string {
  const { pathname } = new URL(url);
  try {
    return pathname.split('/').map(decodeURIComponent).join('/');
  } catch (e) {
    throw new ParquetError('INVALID_PARTITION', `parquet-dataset: ${url}: its path '${pathname}' is not valid URL encoding`, undefined, { cause: e });
  }
}

/**
 * Whether a `_metadata` summary disagrees with the store's listing: other data files, a file smaller than its row
 * groups in the summary need, or a file modified after the summary (when the listing dates both).
 * @param meta - the summary (with row groups).
 * @param data - the listed data files (hidden names left out).
 * @param summary - the summary's own entry in the listing (its modification time), when listed.
 * @returns why it is stale, or undefined when it agrees.
 * @throws ParquetError `CORRUPT_SUMMARY` from {@link summaryFiles}.
 */
function staleSummary(meta: FileMetaData, data: readonly StoreEntry[], summary: StoreEntry | undefined): SummaryIgnored | undefined {
  const named = summaryFiles(meta);
  const sizes = new Map(data.map((f) => [f.path, f.size]));
  const unnamed = data.filter((f) => !named.has(f.path)).map((f) => f.path);
  const gone = [...named.keys()].filter((p) => !sizes.has(p));
  if (unnamed.length > 0 || gone.length > 0) {
    const parts: string[] = [];
    if (unnamed.length > 0) parts.push(`${unnamed.length} data file${unnamed.length === 1 ? '' : 's'} not in it (first '${unnamed[0]}')`);
    if (gone.length > 0) parts.push(`${gone.length} file${gone.length === 1 ? '' : 's'} it names not found (first '${gone[0]}')`);
    return { reason: 'files differ', message: `_metadata is stale: ${parts.join(', ')}` };
  }
  const small: string[] = [];
  let first = '';
  for (const [path, rgs] of named) {
    const size = sizes.get(path);
    const need = minFileSizeOf(meta.schema, rgs);
    if (size !== undefined && size < need) {
      if (small.length === 0) first = `'${path}' has ${size} bytes, _metadata describes at least ${need}`;
      small.push(path);
    }
  }
  if (small.length > 0) return { reason: 'sizes differ', message: `_metadata is stale: ${small.length} file${small.length === 1 ? '' : 's'} smaller than it says (first ${first})` };
  // a file rewritten since, to a size the check above accepts: its footer and statistics are no longer the summary's
  const since = summary?.modified;
  if (since !== undefined && Number.isFinite(since)) {
    // by a millisecond or more: times read back from a file system carry sub-millisecond noise
    const newer = data.filter((f) => f.modified !== undefined && f.modified - since >= 1);
    if (newer.length > 0) {
      const f = newer[0]!;
      const when = (t: number) => (Number.isFinite(t) && Math.abs(t) <= 8.64e15 ? new Date(t).toISOString() : String(t));
      const message = `_metadata is stale: ${newer.length} data file${newer.length === 1 ? '' : 's'} modified after it (first '${f.path}', modified ${when(f.modified!)}, ${Math.round(f.modified! - since)} ms after _metadata)`;
      return { reason: 'files modified', message };
    }
  }
  return undefined;
}

/** A store over files given one by one (URLs, or paths with their bytes). */
function listStore(inputs: readonly DatasetInput[], options: DatasetOptions): { store: DatasetStore; files: { path: string }[] } {
  const byPath = new Map<string, ByteSource | Uint8Array | ArrayBuffer>();
  const files = inputs.map((x) => {
    if (typeof x === 'string') return { path: x };
    byPath.set(x.path, x.source);
    return { path: x.path };
  });
  const store: DatasetStore = {
    location: 'list',
    async open(path, size) {
      const given = byPath.get(path);
      if (given) return given instanceof Uint8Array || given instanceof ArrayBuffer ? bufferSource(given) : given;
      // the URL as given (its query and percent-encoding are the server's: a signed URL's signature, a %xx name),
      // without a fragment, which HTTP never sends
      const hash = path.indexOf('#');
      const { openUrl } = await import('./store.js');
      return openUrl(hash < 0 ? path : path.slice(0, hash), size, globalThis.fetch, {}, options.tailGuess ?? 65536);
    },
    get: () => Promise.resolve(undefined),
  };
  return { store, files };
}

/**
 * Opens a dataset: lists its files (or reads its `_metadata` summary), parses their hive partitions, and settles
 * its schema (see {@link DatasetOptions.schema}).
 * @param input - a store (`memoryStore`, `urlStore`, or the Node entry's directory), or the files themselves:
 *   URLs, or `{ path, source }` (partition values are parsed from the paths: for URLs, their path part).
 * @param options - partitioning, schema, summary, concurrency, and the reader's open options (codecs, …).
 * @returns the dataset.
 * @throws ParquetError `INVALID_ARGUMENT` for an option it does not take (naming the nearest one and its list) or a
 *   value outside its set, before the store is listed; `NO_FILES` when there is nothing to read, `SCHEMA_MISMATCH` (see the evolution rules),
 *   `INVALID_PARTITION`, `CORRUPT_SUMMARY`, and the reader's footer errors (with the file's path).
 */
export async function openDataset(input: DatasetStore | readonly DatasetInput[], options: DatasetOptions = {}): Promise<Dataset> {
  checkOptions(options, datasetOptionRules, 'parquet-dataset: openDataset');
  const stats = emptyDatasetStats();
  let store: DatasetStore;
  let listed: { path: string; size?: number }[] | undefined;
  if (Array.isArray(input)) {
    const l = listStore(input as readonly DatasetInput[], options);
    store = l.store;
    listed = l.files;
  } else store = input as DatasetStore;

  // summaries first: `_metadata` plans everything
  let summaryMeta: FileMetaData | undefined;
  let summaryKind: 'metadata' | 'common' | undefined;
  let summaryIgnored: SummaryIgnored | undefined;
  if (listed === undefined) {
    const all = store.list ? await store.list() : undefined;
    const has = (name: string) => all === undefined || all.some((f) => f.path === name);
    const data = all?.filter((f) => !ignored(f.path));
    if (options.summary !== false) {
      for (const [name, kind] of [[METADATA_FILE, 'metadata'], [COMMON_METADATA_FILE, 'common']] as const) {
        if (!has(name)) continue;
        const bytes = await store.get(name);
        stats.summary.requests++;
        if (!bytes) continue;
        stats.summary.bytes += bytes.length;
        let meta: FileMetaData;
        try {
          meta = await decodeSummary(bytes);
          // a listing to check it against: a stale _metadata (files added, deleted, rewritten since) is not the plan
          if (kind === 'metadata' && data !== undefined && meta.row_groups.length > 0) {
            summaryIgnored = staleSummary(meta, data, all?.find((f) => f.path === METADATA_FILE));
            if (summaryIgnored) continue;
          }
        } catch (err) {
          throw withPath(err, inStore(store.location, name));
        }
        summaryMeta = meta;
        summaryKind = kind;
        break;
      }
    }
    // a _metadata without row groups (a dataset of empty files) names no file: the listing does
    if (summaryKind === 'metadata' && summaryMeta!.row_groups.length === 0 && all !== undefined) summaryKind = 'common';
    if (summaryKind === 'metadata') listed = undefined;
    else if (all === undefined) {
      throw new ParquetError('NO_FILES', `parquet-dataset: ${store.location}: the store cannot list its files and has no _metadata summary: give the files`);
    } else listed = all.filter((f) => !ignored(f.path)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  let entries: Entry[];
  if (summaryKind === 'metadata') {
    const groups = summaryFiles(summaryMeta!);
    entries = [...groups].map(([path, rgs]) => ({ file: { path, size: undefined, partition: {} }, meta: fileMetadataOf(summaryMeta!, rgs), opened: undefined }));
  } else {
    entries = listed!.map((f) => ({ file: { path: f.path, size: f.size, partition: {} }, meta: undefined, opened: undefined }));
  }
  if (entries.length === 0) throw new ParquetError('NO_FILES', `parquet-dataset: ${store.location}: no data files`);

  // partitions
  const partitioning = options.partitioning ?? 'hive';
  const partitions: PartitionField[] = [];
  if (partitioning !== false) {
    const keys: string[] = [];
    const values = new Map<string, (string | null)[]>();
    for (const e of entries) {
      const segs = parseHivePath(/^[a-z][a-z0-9+.-]*:\/\//i.test(e.file.path) ? urlKey(e.file.path) : e.file.path);
      const part: Record<string, string | null> = {};
      for (const s of segs) {
        if (!values.has(s.key)) {
          keys.push(s.key);
          values.set(s.key, []);
        }
        values.get(s.key)!.push(s.value);
        setOwn(part, s.key, s.value);
      }
      (e.file as { partition: Record<string, string | null> }).partition = part;
    }
    const given = typeof partitioning === 'object' ? partitioning.types : {};
    for (const k of keys) partitions.push({ name: k, type: (Object.hasOwn(given, k) ? given[k] : undefined) ?? inferPartitionType(values.get(k)!) });
  }

  // schema
  let elements: readonly SchemaElement[];
  const explicit = options.schema !== undefined && typeof options.schema !== 'string' ? options.schema : undefined;
  const ds = new DatasetImpl(store.location, store, entries, partitions, [{ name: 'schema', num_children: 0 }], summaryKind, options, stats);
  if (explicit) elements = Array.isArray(explicit) ? (explicit as readonly SchemaElement[]) : (explicit as SchemaTree).elements;
  else if (summaryMeta) elements = summaryMeta.schema;
  else if (options.schema === 'first') elements = (await ds.open(entries[0]!, undefined)).metadata.schema;
  else {
    const files = await mapLimit(entries, Math.max(1, options.concurrency ?? 8), (e) => ds.open(e, undefined));
    elements = unifySchemas(files.map((f, i) => ({ schema: f.schema, file: entries[i]!.file.path })));
  }
  const out = new DatasetImpl(store.location, store, entries, partitions, elements, summaryKind, options, stats, summaryIgnored);
  return out;
}
