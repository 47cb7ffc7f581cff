/**
 * `parquetry cat`, `head`, `tail` and `count`: rows read in batches below the row group (`iterateBatches`), so
 * `head -n N` fetches and decodes only the pages holding its rows (with a page index; the first pages of each column
 * chunk otherwise) and `tail` only the last row groups; `--where` runs the reader's filter, and its pruning (row-group
 * statistics, dictionaries, bloom filters, page index). `count` prints the footer's row count, or counts rows in the
 * pages with `--exact` or `--where`.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (row groups and column chunks) and
 * https://github.com/apache/parquet-format/blob/master/PageIndex.md (the pages a row range needs).
 * @module
 */
import type { BatchOptions, ParquetFile } from '@parquetry/parquet-reader';
import { filterColumns } from '@parquetry/parquet-reader/filters';
import type { Field, SchemaTree } from '@parquetry/parquet-levels';
import { ParquetError } from '@parquetry/thrift-compact';
import { has, nameList, nearest, one, usageError, wholeNumber, type Parsed } from './cli-args.js';
import { formatOf, rowSink, type OutColumn, type RowSink } from './cli-output.js';
import { isNumeric, readValueOptions, rowTransform, typeLabel, valueMode, type ValueMode } from './cli-values.js';
import { ProgressBar, type ProgressTarget } from './progress.js';
import { isUnder, parseColumnPath, quoteHint, splitColumnList } from './column-names.js';
import { parseWhere, whereError, whereName, type ParsedWhere } from './where.js';

/** What a reading command writes to and is stopped by. */
export interface RowsOut {
  /** Receives each output line. */
  readonly write: (line: string) => void;
  /** Whether the output is a terminal (the default format is then a table). */
  readonly tty: boolean;
  /** The terminal's width, for a table. */
  readonly width: number | undefined;
  /** Where the progress bar goes, when it is shown. */
  readonly progress: ProgressTarget | undefined;
  /** Stops the read between batches (`INTERRUPTED`). */
  readonly signal: AbortSignal | undefined;
  /** Waits until the output has taken what was written (between batches). */
  readonly drain: (() => Promise<void>) | undefined;
}

/**
 * The columns of `--columns` (of a file's or a dataset's schema): what to read (as path arrays: names follow
 * `--where`'s rules, `s.a` a struct's field and `"a.b"` one name with a dot) and the top-level fields to print, in the
 * order given.
 */
export function selectColumns(schema: SchemaTree, text: string | undefined): { read: string[][] | undefined; out: Field[] } {
  const top = schema.field.fields;
  if (text === undefined) return { read: undefined, out: [...top] };
  const items = splitColumnList(text);
  if (items.some((s) => s === '')) throw usageError(`--columns takes column names separated by commas, not '${text}'`);
  const out: Field[] = [];
  const read: string[][] = [];
  const paths = schema.columns.map((c) => whereName(c.path));
  for (const name of items) {
    const path = parseColumnPath(name);
    if (path === undefined) throw usageError(`--columns: a quoted column name is not closed in '${name}' ("…")`);
    if (!schema.columns.some((c) => isUnder(path, c))) {
      const hint = quoteHint(schema, path);
      if (hint) throw usageError(`--columns: no column '${name}'${hint}`);
      const guess = nearest(name, [...top.map((f) => whereName([f.name])), ...paths]);
      throw usageError(`--columns: no column '${name}'${guess ? ` (did you mean '${guess}'?)` : ` (columns: ${nameList(top.map((f) => whereName([f.name])))})`}`);
    }
    read.push(path);
    const field = top.find((f) => f.name === path[0])!;
    if (!out.includes(field)) out.push(field);
  }
  return { read, out };
}

/** The error of a read stopped by the output's signal. */
export function interrupted(): ParquetError {
  return new ParquetError('INTERRUPTED', 'parquetry: interrupted');
}

/** The rows a read with `--offset` and `-n` prints, batch by batch: `offset` rows skipped, then `limit` taken. */
export class RowWindow {
  /**
   * @param skip - rows to skip first.
   * @param left - rows to take after them.
   */
  constructor(
    private skip: number,
    private left: number,
  ) {}

  /** The part of the next batch's rows inside the window. */
  take(rows: Record<string, unknown>[]): Record<string, unknown>[] {
    if (this.skip > 0) {
      const k = Math.min(this.skip, rows.length);
      this.skip -= k;
      rows = rows.slice(k);
    }
    if (rows.length > this.left) rows = rows.slice(0, this.left);
    this.left -= rows.length;
    return rows;
  }

  /** Whether every row wanted has been taken. */
  get full(): boolean {
    return this.left === 0;
  }
}

/**
 * Whether a read shows a progress bar: when the progress stream is a terminal or with `--progress`, never with
 * `--no-progress`.
 * @param p - parsed arguments.
 * @param out - the output.
 * @returns whether it does.
 */
export function showsProgress(p: Parsed, out: RowsOut): boolean {
  return out.progress !== undefined && !has(p, '--no-progress') && (has(p, '--progress') || out.progress.tty);
}

/**
 * A read's progress bar, when one is wanted ({@link showsProgress}).
 * @param p - parsed arguments.
 * @param out - the output.
 * @param total - the rows the read covers.
 * @returns the bar, or undefined.
 */
export function progressBar(p: Parsed, out: RowsOut, total: number): ProgressBar | undefined {
  if (!showsProgress(p, out)) return undefined;
  return new ProgressBar({ ...out.progress!, forced: has(p, '--progress') }, total);
}

/**
 * How `cat`, `head` and `tail` print rows of a schema (a file's or a dataset's): `-n`, `--offset`, `--columns`, the
 * value mode and the format.
 * @param cmd - the command (`-n` defaults to all rows for `cat`, 10 otherwise).
 * @param schema - the schema read.
 * @param p - parsed arguments.
 * @param out - the output.
 * @returns the value mode, the rows wanted (`limit` after `offset`), the columns to read, and the sink the rows go to
 *   (`emit` applies the mode's row transform first).
 * @throws ParquetError `USAGE` for a bad `-n`, `--offset`, `--columns` or `--format`.
 */
export function rowOutput(cmd: 'cat' | 'head' | 'tail', schema: SchemaTree, p: Parsed, out: RowsOut): { mode: ValueMode; limit: number; offset: number; read: string[][] | undefined; sink: RowSink; emit: (rows: Record<string, unknown>[]) => void } {
  const mode = valueMode(p);
  const format = formatOf(one(p, '--format'), out.tty);
  const nText = one(p, '-n');
  const limit = nText !== undefined ? wholeNumber('-n', nText, 0) : cmd === 'cat' ? Infinity : 10;
  const offText = one(p, '--offset');
  const offset = offText === undefined ? 0 : wholeNumber('--offset', offText, 0);
  const { read, out: fields } = selectColumns(schema, one(p, '--columns'));
  const columns: OutColumn[] = fields.map((f) => ({ name: f.name, label: typeLabel(f, schema), numeric: isNumeric(f, schema) }));
  // what the format writes before any row (a CSV header, a table's top) is held until the first rows or the end: a
  // read that fails first (a filter value the reader refuses, a damaged file) prints nothing but its error
  let held: string[] | undefined = [];
  const write = (line: string): void => {
    if (held) held.push(line);
    else out.write(line);
  };
  const release = (): void => {
    if (!held) return;
    const lines = held;
    held = undefined;
    for (const l of lines) out.write(l);
  };
  const inner = rowSink(format, columns, mode, write, { width: out.width });
  const sink: RowSink = {
    rows: (rows) => {
      release();
      inner.rows(rows);
    },
    end: () => {
      release();
      inner.end();
    },
  };
  const transform = rowTransform(schema, mode);
  const emit = (rows: Record<string, unknown>[]): void => {
    if (transform) for (const r of rows) transform(r);
    sink.rows(rows);
  };
  return { mode, limit, offset, read, sink, emit };
}

/**
 * `cat`, `head` or `tail`: rows in a format.
 * @param cmd - the command.
 * @param file - the opened file.
 * @param p - parsed arguments.
 * @param out - the output.
 * @throws ParquetError `USAGE` for bad options or `--where`, `INTERRUPTED`, and the reader's errors.
 */
export async function rowsCommand(cmd: 'cat' | 'head' | 'tail', file: ParquetFile, p: Parsed, out: RowsOut): Promise<void> {
  // the filter first: a bad --where must not follow a CSV header or a table's top already printed
  const whereText = one(p, '--where');
  const where = whereText === undefined ? undefined : parseWhere(whereText, file.schema);
  const { mode, limit, offset, read, sink, emit } = rowOutput(cmd, file.schema, p, out);
  const base: BatchOptions & { form?: 'rows' } = { ...readValueOptions(mode), ...(read ? { columns: read } : {}), ...(where ? { filter: where.filter } : {}) };
  try {
    if (limit > 0) {
      if (cmd === 'tail' && where) await tailFiltered(file, base, limit, offset, emit, p, out);
      else await forward(cmd, file, base, limit, offset, where !== undefined, emit, p, out);
    }
  } catch (e) {
    throw whereError(e, where);
  }
  sink.end();
}

/** Rows from the start (or, for `tail` without a filter, the row range of the last rows). */
async function forward(
  cmd: 'cat' | 'head' | 'tail',
  file: ParquetFile,
  base: BatchOptions & { form?: 'rows' },
  limit: number,
  offset: number,
  filtered: boolean,
  emit: (rows: Record<string, unknown>[]) => void,
  p: Parsed,
  out: RowsOut,
): Promise<void> {
  const total = file.numRows;
  let rowStart = 0;
  let rowEnd = total;
  if (!filtered) {
    // the rows wanted are a row range: only the row groups and pages holding it are read
    if (cmd === 'tail') {
      rowEnd = Math.max(0, total - offset);
      rowStart = Math.max(0, rowEnd - limit);
    } else {
      rowStart = Math.min(total, offset);
      rowEnd = limit === Infinity ? total : Math.min(total, offset + limit);
    }
    if (rowStart >= rowEnd) return;
  }
  const batchSize = filtered ? 10_000 : Math.max(1, Math.min(10_000, rowEnd - rowStart));
  const options: BatchOptions & { form?: 'rows' } = { ...base, batchSize, ...(rowStart > 0 ? { rowStart } : {}), ...(rowEnd < total ? { rowEnd } : {}) };
  const bar = progressBar(p, out, rowEnd - rowStart);
  const window = new RowWindow(filtered ? offset : 0, limit);
  let done = 0;
  for await (const b of file.iterateBatches(options)) {
    if (out.signal?.aborted) throw interrupted();
    const rows = window.take(b.rows);
    if (rows.length > 0) emit(rows);
    done = b.rowEnd - rowStart;
    bar?.update(done, () => file.scanStats().bytes.total);
    if (window.full) break;
    await out.drain?.();
  }
  bar?.finish(done, file.scanStats().bytes.total);
}

/** `tail --where`: row groups read from the last until enough rows match. */
async function tailFiltered(
  file: ParquetFile,
  base: BatchOptions & { form?: 'rows' },
  limit: number,
  offset: number,
  emit: (rows: Record<string, unknown>[]) => void,
  p: Parsed,
  out: RowsOut,
): Promise<void> {
  const groups = file.metadata.row_groups;
  const bar = progressBar(p, out, file.numRows);
  const found: Record<string, unknown>[][] = [];
  let count = 0;
  let done = 0;
  for (let g = groups.length - 1; g >= 0 && count < limit + offset; g--) {
    const rows: Record<string, unknown>[] = [];
    for await (const b of file.iterateBatches({ ...base, rowGroups: [g] })) {
      if (out.signal?.aborted) throw interrupted();
      for (const r of b.rows) rows.push(r);
    }
    found.unshift(rows);
    count += rows.length;
    done += groups[g]!.num_rows;
    bar?.update(done, () => file.scanStats().bytes.total);
  }
  bar?.finish(done, file.scanStats().bytes.total);
  const all = found.flat();
  const end = Math.max(0, all.length - offset);
  const rows = all.slice(Math.max(0, end - limit), end);
  if (rows.length > 0) emit(rows);
}

/**
 * `count`: the footer's row count, or the rows counted in the pages (`--exact`), or the rows matching `--where`.
 * @param file - the opened file.
 * @param p - parsed arguments.
 * @param out - the output.
 * @throws ParquetError `USAGE` for a bad `--where`, `INTERRUPTED`, and the reader's errors.
 */
export async function countCommand(file: ParquetFile, p: Parsed, out: RowsOut): Promise<void> {
  const whereText = one(p, '--where');
  let where: ParsedWhere | undefined;
  if (whereText !== undefined) where = parseWhere(whereText, file.schema);
  if (!where && !has(p, '--exact')) {
    out.write(String(file.numRows));
    return;
  }
  const bar = progressBar(p, out, file.numRows);
  let n = 0;
  let done = 0;
  const bytes = (): number => file.scanStats().bytes.total;
  try {
    if (where) {
      // the filter's first column alone is returned: nothing else is decoded
      const first = [...filterColumns(where.filter)][0]!;
      for await (const b of file.iterateBatches({ form: 'columns', filter: where.filter, columns: [first] })) {
        if (out.signal?.aborted) throw interrupted();
        n += b.columns.length;
        done = b.rowEnd;
        bar?.update(done, bytes);
      }
    } else {
      const first = file.schema.columns[0];
      for (let g = 0; first && g < file.metadata.row_groups.length; g++) {
        if (out.signal?.aborted) throw interrupted();
        n += (await file.readRowGroupColumns(g, { columns: [first.path] })).length;
        done += file.metadata.row_groups[g]!.num_rows;
        bar?.update(done, bytes);
      }
    }
  } catch (e) {
    throw whereError(e, where);
  }
  bar?.finish(done, bytes());
  out.write(String(n));
}
