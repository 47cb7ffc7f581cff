/**
 * The reading commands on a directory: `cat`, `head`, `tail`, `count` and `schema` read it as one dataset
 * (`@parquetry/parquet-dataset`: every file below it in path order but names starting with `.` or `_`, hive
 * `key=value/` partitions as columns, schemas unified across files), as DuckDB reads `read_parquet('dir/**\/*.parquet', hive_partitioning = true,
 * union_by_name = true)`. `--where` may name partition columns: files whose folders rule it out are never opened.
 * `meta` summarizes it (cli-dataset-meta.ts). The other commands read one file. A read shows the progress bar of
 * a file's read (on a terminal, or with `--progress`) over the dataset's rows, counted from the footers the open read.
 * @module
 */
import { stat } from 'node:fs/promises';
import { mapLimit, type Dataset, type DatasetBatchOptions, type DatasetFile, type DatasetInput, type DatasetOptions, type DatasetScanStats } from '@parquetry/parquet-dataset';
import type { ParquetFile } from '@parquetry/parquet-reader';
import { filterColumns } from '@parquetry/parquet-reader/filters';
import { ParquetError } from '@parquetry/thrift-compact';
import { has, one, usageError, type Parsed } from './cli-args.js';
import { datasetFooters } from './cli-dataset-meta.js';
import { isUrl, urlSource, type UrlOptions } from './cli-url.js';
import { openDataset } from './dataset.js';
import { RowWindow, interrupted, progressBar, rowOutput, showsProgress, type RowsOut } from './cli-rows.js';
import type { ProgressBar } from './progress.js';
import { readValueOptions } from './cli-values.js';
import { parseWhere, whereError } from './where.js';

/**
 * Opens what a reading command was given as a dataset: a directory (every file below it), or several files (local
 * paths or URLs, in the order given; partition values read from their paths).
 * @param input - the directory, or the files.
 * @param options - the dataset's options (decryption).
 * @param url - request headers and an abort signal for the URLs among several files.
 * @returns the dataset.
 * @throws ParquetError `CANNOT_OPEN` for a listed file that cannot be read, `USAGE` for a directory among several
 *   arguments, and the dataset's errors.
 */
export async function openCliDataset(input: string | readonly string[], options: DatasetOptions, url: UrlOptions = {}): Promise<Dataset> {
  if (typeof input === 'string') return openDataset(input, options);
  for (const f of input) {
    if (isUrl(f)) continue;
    let dir: boolean;
    try {
      dir = (await stat(f)).isDirectory();
    } catch (e) {
      throw new ParquetError('CANNOT_OPEN', `parquetry: cannot open '${f}': ${(e as Error).message}`, undefined, { cause: e });
    }
    if (dir) throw usageError(`'${f}' is a directory: several arguments are read as one dataset of files (a directory is read as a dataset when it is the only argument)`);
  }
  // URLs fetched as given (signed URLs keep their query), with the request headers; the dataset reads their
  // partitions from their paths as from a URL it fetches itself
  const files = await mapLimit(input, URL_OPENS, async (f): Promise<DatasetInput> => (isUrl(f) ? { path: f, source: await urlSource(f, url) } : f));
  return openDataset(files, options);
}

/** URLs of a list opened at once (their first requests). */
const URL_OPENS = 8;

/** Rows read per batch. */
const BATCH = 10_000;

/**
 * The progress of a dataset read: the rows passed, counted over the whole dataset in file order (a file skipped by
 * its partition or its statistics counts as passed once a later file is read), the bytes read from every file.
 */
class DatasetProgress {
  private done = 0;

  /**
   * @param bar - the bar drawn.
   * @param total - the rows the read covers.
   * @param starts - each file's first row, counted over the dataset.
   * @param footers - the files (their reads' bytes are summed).
   */
  constructor(
    private readonly bar: ProgressBar,
    private readonly total: number,
    private readonly starts: ReadonlyMap<DatasetFile, number>,
    private readonly footers: readonly ParquetFile[],
  ) {}

  /** The bytes read so far from every file, footers included. */
  private readonly bytes = (): number => {
    let n = 0;
    for (const f of this.footers) n += f.scanStats().bytes.total;
    return n;
  };

  /** A batch read: the rows of its file up to its end are passed. */
  batch(b: { file: DatasetFile; rowEnd: number }): void {
    this.done = Math.min(this.total, (this.starts.get(b.file) ?? 0) + b.rowEnd);
    this.bar.update(this.done, this.bytes);
  }

  /**
   * The read ended.
   * @param complete - whether it went through every file (what is left was skipped): the bar ends at the total.
   */
  finish(complete: boolean): void {
    this.bar.finish(complete ? this.total : this.done, this.bytes());
  }
}

/**
 * The progress bar of a dataset read, when one is shown: its total the rows of every file (from their footers,
 * which the dataset already holds), or `cap` when fewer are read.
 */
async function datasetProgress(ds: Dataset, p: Parsed, out: RowsOut, cap = Infinity): Promise<DatasetProgress | undefined> {
  if (!showsProgress(p, out)) return undefined;
  const footers = await datasetFooters(ds);
  const starts = new Map<DatasetFile, number>();
  let total = 0;
  ds.files.forEach((f, i) => {
    starts.set(f, total);
    total += footers[i]!.numRows;
  });
  total = Math.min(total, cap);
  return new DatasetProgress(progressBar(p, out, total)!, total, starts, footers);
}

/**
 * `cat`, `head`, `tail` or `count` on a dataset: its rows in file order, each file's in order.
 * @param cmd - the command.
 * @param ds - the opened dataset.
 * @param p - parsed arguments.
 * @param out - the output.
 * @param onScan - receives the read's scan statistics when it ends.
 * @throws ParquetError `USAGE` for bad options or `--where`, `INTERRUPTED`, and the dataset's and reader's errors.
 */
export async function datasetRowsCommand(cmd: 'cat' | 'head' | 'tail' | 'count', ds: Dataset, p: Parsed, out: RowsOut, onScan?: (stats: DatasetScanStats) => void): Promise<void> {
  const schema = ds.schema;
  const scan = onScan ? { onScan } : {};
  const whereText = one(p, '--where');
  const where = whereText === undefined ? undefined : parseWhere(whereText, schema);
  try {
    if (cmd === 'count') {
      let n = 0;
      if (!where && !has(p, '--exact')) {
        // the rows the files' footers (which opening the dataset read) say they hold, as count FILE prints its footer's
        for (const f of await datasetFooters(ds)) n += f.numRows;
        onScan?.(ds.scanStats());
        out.write(String(n));
        return;
      }
      // the rows matching the filter, or with --exact every row, counted in the pages (one column alone read)
      const columns = where ? [[...filterColumns(where.filter)][0]!] : [schema.columns[0]!.pathString];
      const progress = await datasetProgress(ds, p, out);
      for await (const b of ds.iterateBatches({ form: 'columns', columns, batchSize: BATCH, ...(where ? { filter: where.filter } : {}), ...scan })) {
        if (out.signal?.aborted) throw interrupted();
        n += b.columns.length;
        progress?.batch(b);
      }
      progress?.finish(true);
      out.write(String(n));
      return;
    }
    const { mode, limit, offset, read, sink, emit } = rowOutput(cmd, schema, p, out);
    if (limit > 0) {
      const options: DatasetBatchOptions & { form?: 'rows' } = { ...readValueOptions(mode), ...(read ? { columns: read } : {}), ...(where ? { filter: where.filter } : {}), batchSize: BATCH, ...scan };
      if (cmd === 'tail') {
        // the last limit + offset rows, kept as the read goes (bounded by what is printed); without a filter they are
        // the dataset's last rows, by the footers' counts: the files and pages before them are not read
        const keep = limit + offset;
        if (!where) {
          let total = 0;
          for (const f of await datasetFooters(ds)) total += f.numRows;
          options.rowStart = Math.max(0, total - keep);
        }
        let last: Record<string, unknown>[] = [];
        const progress = await datasetProgress(ds, p, out);
        for await (const b of ds.iterateBatches(options)) {
          if (out.signal?.aborted) throw interrupted();
          last = last.length + b.rows.length <= keep ? last.concat(b.rows) : last.concat(b.rows).slice(-keep);
          progress?.batch(b);
        }
        progress?.finish(true);
        const end = Math.max(0, last.length - offset);
        const rows = last.slice(Math.max(0, end - limit), end);
        if (rows.length > 0) emit(rows);
      } else {
        // without a filter the rows wanted are rows offset to offset + limit of the dataset: the files and pages
        // outside them are not read; with one, any file may hold them
        if (!where) {
          options.rowStart = offset;
          if (Number.isFinite(limit)) options.rowEnd = offset + limit;
        }
        const window = new RowWindow(where ? offset : 0, limit);
        const progress = await datasetProgress(ds, p, out, where ? Infinity : offset + limit);
        let complete = true;
        for await (const b of ds.iterateBatches(options)) {
          if (out.signal?.aborted) throw interrupted();
          const rows = window.take(b.rows);
          if (rows.length > 0) emit(rows);
          progress?.batch(b);
          if (window.full) {
            complete = where === undefined;
            break;
          }
          await out.drain?.();
        }
        progress?.finish(complete);
      }
    }
    sink.end();
  } catch (e) {
    throw whereError(e, where);
  }
}

/** Whether a command reads a directory as a dataset (the others read one file). */
export function readsDatasets(cmd: string): cmd is 'cat' | 'head' | 'tail' | 'count' | 'schema' | 'meta' {
  return cmd === 'cat' || cmd === 'head' || cmd === 'tail' || cmd === 'count' || cmd === 'schema' || cmd === 'meta';
}

/** The usage error for a command that reads one file given a directory. */
export function directoryError(cmd: string, path: string): ParquetError {
  return usageError(`'${path}' is a directory: ${cmd} reads one file (cat, head, tail, count, schema and meta read a directory as a dataset)`);
}

/**
 * The scan statistics of a dataset read as `--stats` prints them.
 * @param s - the read's statistics.
 * @returns two lines: files read and skipped (by partition, by footer statistics); bytes and requests.
 */
export function datasetScanLines(s: DatasetScanStats): string[] {
  const f = s.files;
  return [
    `scan: files ${f.read} read of ${f.total}, skipped ${f.skipped.partition} by partition, ${f.skipped.statistics} by statistics${f.skipped.range ? `, ${f.skipped.range} by row range` : ''}; ${f.opened} footers fetched`,
    `scan: ${s.bytes} bytes in ${s.requests} requests; rows ${s.rowsReturned} returned`,
  ];
}
