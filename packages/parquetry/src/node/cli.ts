/**
 * The `parquetry` command line: `cat`, `head`, `tail`, `count`, `schema`, `meta`, `stats`, `pages`, `bloom` (reading)
 * and `convert`, `rewrite` (writing), `help` and `--version`. The usage texts (cli-usage.ts) are the reference; the
 * package README repeats them. Errors are one line on the error stream: a usage error names what was wrong and the
 * nearest command or option (exit code 2); a library error prints its code and message, with the command line's
 * options in place of the API's in any hint (exit code 1).
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (the file read and written).
 * @module
 */
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { DatasetScanStats } from '@parquetry/parquet-dataset';
import type { KindCounts, OpenOptions, ScanStats } from '@parquetry/parquet-reader';
import { ParquetError, isParquetError } from '@parquetry/thrift-compact';
import { COMMAND_FLAGS, GLOBAL_FLAGS, arity, has, nearest, one, parseArgs, readLimitsOf, suggestCommand, usageError, type Parsed } from './cli-args.js';
import { checkColumnKeys, cliMessage, decryptionOf } from './cli-keys.js';
import { metaCommand, schemaCommand, statsCommand } from './cli-meta.js';
import { countCommand, interrupted, rowsCommand, type RowsOut } from './cli-rows.js';
import { datasetRowsCommand, datasetScanLines, directoryError, openCliDataset, readsDatasets } from './cli-dataset.js';
import { datasetMetaCommand } from './cli-dataset-meta.js';
import { headersOf, isUrl, openUrl } from './cli-url.js';
import { USAGE, USAGES } from './cli-usage.js';
import { jobOf, progressReporter } from './cli-write.js';
import { visibleJson, visibleText } from './cli-output.js';
import { convertFile, type ConvertJob } from './convert.js';
import { openFile, type LocalParquetFile } from './files.js';
import { bloomCommand, pagesCommand } from './inspect.js';
import type { ProgressUnit } from './progress.js';

/** Hooks of {@link main} beyond the output lines. */
export interface MainIO {
  /** Receives error lines; default: the `write` of {@link main}. */
  error?: (line: string) => void;
  /** Receives progress text: the progress bar of reads and the progress of `convert`/`rewrite` (raw: with `\r` on a terminal, lines otherwise). */
  progress?: (text: string) => void;
  /** Whether the progress stream is a terminal: progress is shown when it is, or with `--progress`. */
  progressIsTTY?: boolean;
  /** Whether the output is a terminal: rows then print as a table unless `--format` says otherwise. */
  outputIsTTY?: boolean;
  /** The output terminal's width in characters (a table's cells are cut to fit it). */
  columns?: number;
  /** Called between batches of rows: resolves when the output has taken what was written (backpressure). */
  drain?: () => Promise<void>;
  /** Stops a running read or `convert`/`rewrite` between batches (exit code 130; a convert writes no output). */
  signal?: AbortSignal;
  /** The clock of the progress bar in milliseconds (default `performance.now`; a test passes its own). */
  now?: () => number;
}

let versionText: string | undefined;

/** This package's version, from its package.json (beside `src` and `dist` alike). */
function version(): string {
  if (versionText === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
      versionText = typeof pkg.version === 'string' ? pkg.version : 'unknown';
    } catch {
      versionText = 'unknown';
    }
  }
  return versionText;
}

/**
 * The scan statistics as `--stats` prints them.
 * @param s - a file's scan statistics.
 * @returns three lines — bytes and requests by kind; row groups and pages read and skipped; rows decoded and
 *   returned — then one line per column read: its data pages read and skipped.
 */
export function scanLines(s: ScanStats): string[] {
  const kinds = (c: KindCounts) => (['footer', 'index', 'bloom', 'dictionary', 'data'] as const).filter((k) => c[k] > 0).map((k) => `${k} ${c[k]}`).join(', ');
  const sk = s.rowGroups.skipped;
  const why = (Object.keys(sk) as (keyof typeof sk)[]).filter((k) => sk[k] > 0).map((k) => `${sk[k]} by ${k === 'rowRange' ? 'row range' : k === 'pageIndex' ? 'page index' : k}`);
  return [
    `scan: ${s.bytes.total} bytes in ${s.requests.total} requests (bytes: ${kinds(s.bytes) || 'none'}; requests: ${kinds(s.requests) || 'none'})`,
    `scan: row groups ${s.rowGroups.read} read of ${s.rowGroups.total}${why.length ? `, skipped ${why.join(', ')}` : ''}; pages ${s.pages.read} read, ${s.pages.skipped} skipped by the page index`,
    `scan: rows ${s.rowsDecoded} decoded, ${s.rowsReturned} returned`,
    ...Object.entries(s.columns).map(([path, c]) => `scan: column '${path}': pages ${c.pagesRead} read, ${c.pagesSkipped} skipped, in ${c.chunks} row group${c.chunks === 1 ? '' : 's'}`),
  ];
}

const ARITY: Readonly<Record<string, readonly [string, number, number]>> = {
  cat: ['a file, a directory or several files', 1, Infinity],
  head: ['a file, a directory or several files', 1, Infinity],
  tail: ['a file, a directory or several files', 1, Infinity],
  count: ['a file, a directory or several files', 1, Infinity],
  schema: ['a file, a directory or several files', 1, Infinity],
  meta: ['a file, a directory or several files', 1, Infinity],
  stats: ['a file and a column', 2, 2],
  pages: ['a file and optionally a column', 1, 2],
  bloom: ['a file, a column and a value', 3, 3],
};

/** Opens the file of a reading command with its keys; a file system error becomes `CANNOT_OPEN` naming the file. */
async function openForRead(p: Parsed, signal: AbortSignal | undefined): Promise<LocalParquetFile> {
  const path = p.positional[0]!;
  const url = isUrl(path);
  const headers = headersOf(p, url);
  const decryption = await decryptionOf(p);
  const limits = readLimitsOf(p);
  const options: OpenOptions = { ...(decryption ? { decryption } : {}), ...(limits ? { limits } : {}) };
  const file = url ? await openUrl(path, { ...options, headers, signal }) : await openLocal(path, options);
  try {
    checkColumnKeys(decryption, file.schema);
  } catch (e) {
    await file.close();
    throw e;
  }
  return file;
}

/** Opens a local file with its keys and limits; a file system error becomes `CANNOT_OPEN` naming the file. */
async function openLocal(path: string, options: OpenOptions): Promise<LocalParquetFile> {
  try {
    return await openFile(path, options);
  } catch (e) {
    // a file system error (the source's SOURCE_ERROR at opening, or the error itself): one line naming the file
    const sourceError = isParquetError(e) && e.code === 'SOURCE_ERROR' && /^parquet-reader: cannot open /.test(e.message);
    if (!sourceError && (isParquetError(e) || typeof (e as { code?: unknown })?.code !== 'string')) throw e;
    const cause = sourceError ? (e as Error).cause : e;
    const why = cause instanceof Error ? cause.message : (e as Error).message.replace(/^parquet-reader: cannot open .*?: (?=[A-Z]+: )/, '');
    throw new ParquetError('CANNOT_OPEN', `parquetry: cannot open '${path}': ${why}`, undefined, { cause: e });
  }
}

/**
 * Whether a reading command prints lines of text for a person (escaped by {@link visibleText}): `schema` and `meta`
 * without `--json`, `stats` as a table, `pages`, `bloom`. Rows print through their format's sink, which escapes a
 * table's cells itself; JSON, NDJSON and CSV are written as their formats define.
 */
function printsText(p: Parsed): boolean {
  switch (p.cmd) {
    case 'schema':
    case 'meta':
      return !has(p, '--json');
    case 'stats':
      return (one(p, '--format') ?? 'table').toLowerCase() === 'table';
    case 'pages':
    case 'bloom':
      return true;
    default:
      return false;
  }
}

async function readCommand(p: Parsed, rawWrite: (line: string) => void, error: (line: string) => void, io: MainIO): Promise<void> {
  const [what, min, max] = ARITY[p.cmd]!;
  arity(p, what, min, max);
  // names, metadata and values from the file reach a terminal: their control characters escaped
  // (`--json` text: the characters JSON.stringify leaves raw as \u escapes)
  const write = printsText(p) ? (line: string) => rawWrite(visibleText(line)) : p.cmd === 'schema' || p.cmd === 'meta' ? (line: string) => rawWrite(visibleJson(line)) : rawWrite;
  const path = p.positional[0]!;
  // several files: one dataset of them, in the order given (as DuckDB's read_parquet(['a', 'b'], union_by_name))
  if (p.positional.length > 1 && readsDatasets(p.cmd)) return datasetCommand(p, p.positional, write, error, io);
  if (!isUrl(path) && (await isDirectory(path))) return datasetCommand(p, path, write, error, io);
  const file = await openForRead(p, io.signal);
  const out = rowsOut(write, io);
  try {
    switch (p.cmd) {
      case 'cat':
      case 'head':
      case 'tail':
        return await rowsCommand(p.cmd, file, p, out);
      case 'count':
        return await countCommand(file, p, out);
      case 'schema':
        return schemaCommand(file.schema, p, write);
      case 'meta':
        return await metaCommand(file, p.positional[0]!, p, write);
      case 'stats':
        return await statsCommand(file, p, write, io.columns);
      case 'pages':
        return await pagesCommand(file, p.positional[1], write);
      case 'bloom':
        return void (await bloomCommand(file, p.positional[1]!, p.positional[2]!, write));
    }
  } finally {
    // pages and bloom read index and filter bytes only: their bytes and requests (no row groups, pages or rows)
    if (has(p, '--stats')) for (const line of scanLines(file.scanStats()).slice(0, p.cmd === 'pages' || p.cmd === 'bloom' ? 1 : undefined)) error(line);
    await file.close();
  }
}

/** Where a reading command's rows (and its progress bar) go. */
function rowsOut(write: (line: string) => void, io: MainIO): RowsOut {
  return {
    write,
    tty: io.outputIsTTY === true,
    width: io.columns,
    progress: io.progress ? { out: io.progress, tty: io.progressIsTTY === true, forced: false, now: io.now } : undefined,
    signal: io.signal,
    drain: io.drain,
  };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    // a missing or unreadable path: the file's open names the error
    return false;
  }
}

/**
 * A reading command on a directory or on several files: `cat`, `head`, `tail`, `count`, `schema` and `meta` read
 * them as one dataset.
 */
async function datasetCommand(p: Parsed, input: string | readonly string[], write: (line: string) => void, error: (line: string) => void, io: MainIO): Promise<void> {
  if (!readsDatasets(p.cmd)) throw directoryError(p.cmd, String(input));
  // request headers are for URLs among several files; a directory has none
  const headers = headersOf(p, typeof input !== 'string' && input.some(isUrl));
  const decryption = await decryptionOf(p);
  const limits = readLimitsOf(p);
  const ds = await openCliDataset(input, { ...(decryption ? { decryption } : {}), ...(limits ? { limits } : {}) }, { headers, signal: io.signal });
  const out = rowsOut(write, io);
  let stats: DatasetScanStats | undefined;
  try {
    if (p.cmd === 'schema') return schemaCommand(ds.schema, p, write);
    if (p.cmd === 'meta') return await datasetMetaCommand(ds, typeof input === 'string' ? input : undefined, p, write);
    await datasetRowsCommand(p.cmd, ds, p, out, (s) => (stats = s));
  } finally {
    if (has(p, '--stats') && stats) for (const line of datasetScanLines(stats)) error(line);
  }
}

async function writeCommand(cmd: 'convert' | 'rewrite', p: Parsed, io: MainIO): Promise<void> {
  const { job, progress } = await jobOf(cmd, p);
  const { unit, total } = progress || io.progressIsTTY ? await inputSize(job) : { unit: 'rows' as const, total: 0 };
  const reporter = progressReporter(io, progress, unit, total);
  const result = await convertFile({
    ...job,
    ...(reporter ? { progress: reporter.report } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
  });
  if (reporter) {
    let outBytes = 0;
    for (const rg of result.metadata.row_groups) outBytes += rg.total_compressed_size ?? rg.total_byte_size;
    reporter.finish(result.rows, result.bytes, outBytes);
  }
}

/**
 * What a convert's progress bar counts: a Parquet input's rows (from its footer), a text input's bytes; 0 when the
 * input cannot be opened (the convert then fails with its own message).
 */
async function inputSize({ input, format, headers, decryption }: ConvertJob): Promise<{ unit: ProgressUnit; total: number }> {
  try {
    if (format !== 'parquet') return { unit: 'bytes', total: (await stat(input)).size };
    const options = decryption ? { decryption } : {};
    const file = isUrl(input) ? await openUrl(input, { ...options, headers }) : await openFile(input, options);
    try {
      return { unit: 'rows', total: file.numRows };
    } finally {
      await file.close();
    }
  } catch {
    return { unit: format === 'parquet' ? 'rows' : 'bytes', total: 0 };
  }
}

/** One line for an error that is not a usage error, and its exit code. */
function failure(e: unknown): { line: string; code: number } | undefined {
  if (!isParquetError(e)) {
    // a file system error past the opening (EIO, EISDIR, ENOSPC): one line, not a stack trace
    const sys = e as { code?: unknown; syscall?: unknown; message?: unknown };
    if (typeof sys?.code === 'string' && typeof sys.syscall === 'string') return { line: `parquetry: ${String(sys.message)}`, code: 1 };
    return undefined;
  }
  const message = cliMessage(e.code, e.message.replace(/^parquetry: /, '')).replace(/\s*\n\s*/g, ' ');
  if (e.code === 'USAGE') return { line: `parquetry: ${message}`, code: 2 };
  // the file sink's own errors say "parquet-writer: cannot create '…': …": one prefix, the program's
  if (e.code === 'CANNOT_OPEN' || e.code === 'CANNOT_CREATE') return { line: `parquetry: ${message.replace(/^parquet-writer: /, '')}`, code: 1 };
  return { line: `parquetry: ${e.code}: ${message}`, code: e.code === 'INTERRUPTED' ? 130 : 1 };
}

/**
 * Runs the `parquetry` command line.
 * @param argv - the arguments after the program name.
 * @param write - receives each output line (the help text too).
 * @param io - where errors and progress go, whether the output is a terminal, backpressure, and a signal to
 *   interrupt (the `bin` passes stderr, stdout's state and SIGINT); without it errors go to `write` and no progress
 *   is shown.
 * @returns the exit code: 0; 1 for a failure (a `ParquetError`, printed with its code; a file that cannot be opened
 *   or created); 2 for a usage error (unknown command or option, a missing or bad argument, a bad `--where`: one
 *   line naming what was wrong and, when one is close, what was meant); 130 when `io.signal` interrupted the command.
 */
export async function main(argv: readonly string[], write: (line: string) => void, io: MainIO = {}): Promise<number> {
  // an error line may quote a file's names or values (a column list, a --stats column path): escaped as text is
  const errorOut = io.error ?? write;
  const error = (line: string): void => errorOut(visibleText(line));
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    const topic = rest[0];
    if (topic === undefined) {
      write(USAGE);
      return 0;
    }
    if (Object.hasOwn(USAGES, topic)) {
      write(USAGES[topic]!);
      return 0;
    }
    error(`parquetry: help: no command '${topic}'${suggestCommand(topic)}; 'parquetry help' lists the commands`);
    return 2;
  }
  if (cmd === '--version' || cmd === '-V') {
    write(`parquetry ${version()}`);
    return 0;
  }
  if (cmd.startsWith('-')) {
    const guess = nearest(cmd, GLOBAL_FLAGS);
    error(`parquetry: unknown option '${cmd}'${guess ? ` (did you mean '${guess}'?)` : ''}; a command comes first: parquetry <command> <file> [options] ('parquetry help' lists the commands)`);
    return 2;
  }
  if (!Object.hasOwn(COMMAND_FLAGS, cmd) || cmd === 'help') {
    error(`parquetry: unknown command '${cmd}'${suggestCommand(cmd)}; 'parquetry help' lists the commands`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    write(USAGES[cmd]!);
    return 0;
  }
  try {
    const p = parseArgs(cmd, rest);
    if (cmd === 'convert' || cmd === 'rewrite') await writeCommand(cmd, p, io);
    else await readCommand(p, write, error, io);
    return 0;
  } catch (e) {
    // an interrupt that aborted a request in flight (a URL's read) is an interrupt, not a failed request
    const f = failure(io.signal?.aborted && isParquetError(e) && e.code === 'ABORTED' ? interrupted() : e);
    if (!f) throw e;
    error(f.line);
    return f.code;
  }
}

