/**
 * The reading commands on a directory: `cat`, `head`, `tail`, `count` and `schema` read it as one dataset
 * (`@parquetry/parquet-dataset`: every file below it in path order but names starting with `.` or `_`, hive
 * `key=value/` partitions as columns, schemas unified across files), as DuckDB reads `read_parquet('dir/**\/*.parquet', hive_partitioning = true,
 * union_by_name = true)`. `--where` may name partition columns: files whose folders rule it out are never opened.
 * The other commands read one file.
 * @module
 */
import type { Dataset, DatasetBatchOptions, DatasetScanStats } from '@parquetry/parquet-dataset';
import { filterColumns } from '@parquetry/parquet-reader/filters';
import type { ParquetError } from '@parquetry/thrift-compact';
import { one, usageError, type Parsed } from './cli-args.js';
import { RowWindow, interrupted, rowOutput, type RowsOut } from './cli-rows.js';
import { readValueOptions } from './cli-values.js';
import { parseWhere, whereError } from './where.js';

/** Rows read per batch. */
const BATCH = 10_000;

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
      // the rows the files hold, or those matching the filter (its first column alone read)
      let n = 0;
      const columns = where ? [[...filterColumns(where.filter)][0]!] : [schema.columns[0]!.pathString];
      for await (const b of ds.iterateBatches({ form: 'columns', columns, batchSize: BATCH, ...(where ? { filter: where.filter } : {}), ...scan })) {
        if (out.signal?.aborted) throw interrupted();
        n += b.columns.length;
      }
      out.write(String(n));
      return;
    }
    const { mode, limit, offset, read, sink, emit } = rowOutput(cmd, schema, p, out);
    if (limit > 0) {
      const options: DatasetBatchOptions & { form?: 'rows' } = { ...readValueOptions(mode), ...(read ? { columns: read } : {}), ...(where ? { filter: where.filter } : {}), batchSize: BATCH, ...scan };
      if (cmd === 'tail') {
        // the last limit + offset rows, kept as the read goes (bounded by what is printed)
        const keep = limit + offset;
        let last: Record<string, unknown>[] = [];
        for await (const b of ds.iterateBatches(options)) {
          if (out.signal?.aborted) throw interrupted();
          last = last.length + b.rows.length <= keep ? last.concat(b.rows) : last.concat(b.rows).slice(-keep);
        }
        const end = Math.max(0, last.length - offset);
        const rows = last.slice(Math.max(0, end - limit), end);
        if (rows.length > 0) emit(rows);
      } else {
        const window = new RowWindow(offset, limit);
        for await (const b of ds.iterateBatches(options)) {
          if (out.signal?.aborted) throw interrupted();
          const rows = window.take(b.rows);
          if (rows.length > 0) emit(rows);
          if (window.full) break;
          await out.drain?.();
        }
      }
    }
    sink.end();
  } catch (e) {
    throw whereError(e, where);
  }
}

/** Whether a command reads a directory as a dataset (the others read one file). */
export function readsDatasets(cmd: string): cmd is 'cat' | 'head' | 'tail' | 'count' | 'schema' {
  return cmd === 'cat' || cmd === 'head' || cmd === 'tail' || cmd === 'count' || cmd === 'schema';
}

/** The usage error for a command that reads one file given a directory. */
export function directoryError(cmd: string, path: string): ParquetError {
  return usageError(`'${path}' is a directory: ${cmd} reads one file (cat, head, tail, count and schema read a directory as a dataset)`);
}

/**
 * The scan statistics of a dataset read as `--stats` prints them.
 * @param s - the read's statistics.
 * @returns two lines: files read and skipped (by partition, by footer statistics); bytes and requests.
 */
export function datasetScanLines(s: DatasetScanStats): string[] {
  const f = s.files;
  return [
    `scan: files ${f.read} read of ${f.total}, skipped ${f.skipped.partition} by partition, ${f.skipped.statistics} by statistics; ${f.opened} footers fetched`,
    `scan: ${s.bytes} bytes in ${s.requests} requests; rows ${s.rowsReturned} returned`,
  ];
}
