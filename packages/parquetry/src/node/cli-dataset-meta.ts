/**
 * `parquetry meta DIR`: a summary of a directory read as one dataset — its files, rows, row groups and bytes, the
 * partition columns with their types and values, the unified schema's columns, and one line per file (the first
 * {@link FILE_LINES}; `--json` gives every file). Everything comes from what opening the dataset read: the
 * listing (paths, sizes), the paths' `key=value/` folders, and the footers (fetched once at the open, or a
 * `_metadata` summary's), as DuckDB's `parquet_metadata('dir/**')` and pyarrow.dataset's `files` and
 * `partitioning` show them.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (each file's FileMetaData: num_rows,
 * row_groups).
 * @module
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { jsonPartitionValue, mapLimit, partitionValue, type Dataset, type DatasetFile, type PartitionField } from '@parquetry/parquet-dataset';
import type { ParquetFile } from '@parquetry/parquet-reader';
import { usageError, type Parsed } from './cli-args.js';
import { jsonStringify, numberString, typeLabel, valueMode } from './cli-values.js';

/** Files listed one per line by `meta DIR` before `… N more files`. */
export const FILE_LINES = 50;

/** Partition values listed by `meta DIR` before only the count and the range are shown. */
export const PARTITION_VALUES = 20;

/** Footers opened at once (the dataset keeps them: with its default schema they were read when it was opened). */
const CONCURRENCY = 8;

/** What `meta DIR` knows of one file. */
interface FileFacts {
  file: DatasetFile;
  rows: number;
  rowGroups: number;
  /** Its size in bytes; null when neither the listing nor the file system gives it. */
  bytes: number | null;
  /** Its partition values, JSON-safe (numbers, dates as `YYYY-MM-DD`, null). */
  partition: Record<string, unknown>;
}

/**
 * Each file of a dataset with its footer (the dataset's own: a footer it read once is not read again).
 * @param ds - the dataset.
 * @returns the reader's files, in dataset order.
 * @throws ParquetError the reader's open errors (with the file's path).
 */
export function datasetFooters(ds: Dataset): Promise<ParquetFile[]> {
  return mapLimit(ds.files, CONCURRENCY, (_, i) => ds.openFile(i));
}

/** A partition value as JSON: the column's type (a number, a boolean, a date as `YYYY-MM-DD`), or null. */
function partitionJson(raw: string | null, p: PartitionField, file: string): unknown {
  return jsonPartitionValue(partitionValue(raw, p.type, {}, `'${file}', partition '${p.name}'`), p.type);
}

/** The distinct values of a partition column, sorted by value (null last). */
function distinctValues(ds: Dataset, p: PartitionField): unknown[] {
  const seen = new Map<string | null, unknown>();
  for (const f of ds.files) {
    const raw = f.partition[p.name] ?? null;
    if (!seen.has(raw)) seen.set(raw, partitionJson(raw, p, f.path));
  }
  const numeric = p.type === 'int32' || p.type === 'int64' || p.type === 'double';
  return [...seen.values()].sort((a, b) => {
    if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1;
    if (numeric) return Number(a) - Number(b);
    const x = String(a);
    const y = String(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** A value in a line of text: strings quoted (as `meta FILE` prints bounds), null as `null`. */
function valueText(v: unknown): string {
  return v === null || v === undefined ? 'null' : typeof v === 'string' ? JSON.stringify(v) : typeof v === 'number' ? numberString(v) : String(v);
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * `meta DIR`: the dataset's files, rows, row groups and bytes; the partition columns (type, values); the unified
 * schema's top-level columns (name, type; partition columns marked); one line per file (path below the directory,
 * rows, row groups, bytes, partition values), the first {@link FILE_LINES} of them. With `--json` the same as one
 * JSON object listing every file and every partition value.
 * @param ds - the opened dataset.
 * @param dir - the directory given (printed; file sizes missing from the listing are read below it), or undefined
 *   for files given one by one (`dataset: the files given`; their sizes read at their paths).
 * @param p - parsed arguments.
 * @param write - receives each output line.
 * @throws ParquetError `USAGE` for bad value options, the reader's open errors for a footer not read yet,
 *   `INVALID_PARTITION` for a folder value that is not of its column's type.
 */
export async function datasetMetaCommand(ds: Dataset, dir: string | undefined, p: Parsed, write: (line: string) => void): Promise<void> {
  // the value options are checked as a file's meta checks them (the summary prints no column values)
  if (valueMode(p).raw && p.values.has('--json')) throw usageError('meta --json prints JSON-safe values; --raw is for the text form');
  const footers = await datasetFooters(ds);
  const files: FileFacts[] = await mapLimit(ds.files, CONCURRENCY, async (file, i) => {
    const f = footers[i]!;
    // a listing gives sizes; a `_metadata` summary does not (the file system then does)
    const bytes = file.size ?? (await stat(dir === undefined ? file.path : path.join(dir, file.path)).then((s) => s.size, () => null));
    const partition: Record<string, unknown> = {};
    for (const part of ds.partitions) partition[part.name] = partitionJson(file.partition[part.name] ?? null, part, file.path);
    return { file, rows: f.numRows, rowGroups: f.metadata.row_groups.length, bytes, partition };
  });
  let rows = 0;
  let rowGroups = 0;
  let bytes: number | null = 0;
  for (const f of files) {
    rows += f.rows;
    rowGroups += f.rowGroups;
    bytes = bytes === null || f.bytes === null ? null : bytes + f.bytes;
  }
  const partNames = new Set(ds.partitions.map((x) => x.name));
  const columns = ds.schema.field.fields.map((f) => ({ name: f.name, type: typeLabel(f, ds.schema), partition: partNames.has(f.name) }));
  const partitions = ds.partitions.map((x) => ({ name: x.name, type: x.type, values: distinctValues(ds, x) }));
  const from = ds.summary === 'metadata' ? '_metadata' : ds.summary === 'common' ? '_common_metadata' : 'footers';

  if (p.values.has('--json')) {
    write(
      jsonStringify(
        {
          path: dir ?? null,
          schema_from: from,
          summary_ignored: ds.summaryIgnored ? { reason: ds.summaryIgnored.reason, message: ds.summaryIgnored.message } : null,
          num_files: files.length,
          num_rows: rows,
          num_row_groups: rowGroups,
          bytes,
          partitions: partitions.map((x) => ({ name: x.name, type: x.type, num_values: x.values.length, values: x.values })),
          columns,
          files: files.map((f) => ({ path: f.file.path, rows: f.rows, row_groups: f.rowGroups, bytes: f.bytes, partition: f.partition })),
        },
        2,
      ),
    );
    return;
  }

  const dataColumns = columns.length - partitions.length;
  write(`dataset: ${dir ?? 'the files given'}, ${plural(files.length, 'file')}, ${bytes === null ? 'size unknown' : `${bytes} bytes`}`);
  write(`rows: ${rows}, row groups: ${rowGroups}, columns: ${columns.length} (${dataColumns} in the files, ${partitions.length} from folders)`);
  write(`schema: ${from === 'footers' ? `unified from the files' footers` : `from ${from}`}`);
  // a _metadata that disagrees with the listing was not used to plan the read
  if (ds.summaryIgnored) write(`summary: not used, ${ds.summaryIgnored.message}`);
  write(`partition columns: ${partitions.length === 0 ? 'none' : partitions.length}`);
  for (const x of partitions) {
    const n = x.values.length;
    const shown = n <= PARTITION_VALUES ? x.values.map(valueText).join(', ') : `${valueText(x.values[0])} … ${valueText(x.values[n - 1])}`;
    write(`  ${x.name}: ${x.type}, ${plural(n, 'value')}: ${shown}`);
  }
  write(`columns: ${columns.length}`);
  for (const c of columns) write(`  ${c.name}: ${c.type}${c.partition ? ' (partition)' : ''}`);
  write(`files: ${files.length}`);
  for (const f of files.slice(0, FILE_LINES)) {
    const parts = partitions.map((x) => `${x.name} ${valueText(f.partition[x.name])}`);
    write(`  ${f.file.path}: ${plural(f.rows, 'row')}, ${plural(f.rowGroups, 'row group')}, ${f.bytes === null ? 'size unknown' : `${f.bytes} bytes`}${parts.length ? `; ${parts.join(', ')}` : ''}`);
  }
  if (files.length > FILE_LINES) write(`  … ${plural(files.length - FILE_LINES, 'more file')} (--json lists every file)`);
}
