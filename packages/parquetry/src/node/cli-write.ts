/**
 * The arguments of `parquetry convert` and `parquetry rewrite`: the input format and types, CSV layout and the
 * output file's options (codec and level, row group and page sizes, page version, dictionary, encodings), turned
 * into a {@link ConvertJob}; and their progress line.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/Compression.md and
 * https://github.com/apache/parquet-format/blob/master/Encodings.md (the codec and encoding names taken).
 * @module
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ColumnOptions, CompressionName, EncodingName, FieldSpec, WriterOptions } from '@parquetry/parquet-writer';
import { ParquetError } from '@parquetry/thrift-compact';
import { allCodecs, type AllCodecsOptions } from '../codecs.js';
import { one, readLimitsOf, usageError, wholeNumber, type Parsed } from './cli-args.js';
import { decryptionOf } from './cli-keys.js';
import { parseSchemaFile, parseType } from './cli-types.js';
import { headersOf, isUrl } from './cli-url.js';
import type { ConvertJob, InputFormat } from './convert.js';
import { ProgressBar, type ProgressUnit } from './progress.js';

/** Where `convert` progress goes. */
export interface ProgressIO {
  /** Receives progress text (raw: with `\r` on a terminal, lines otherwise). */
  progress?: (text: string) => void;
  /** Whether the progress stream is a terminal. */
  progressIsTTY?: boolean;
  /** The clock of the progress bar in milliseconds (default `performance.now`). */
  now?: () => number;
}

function positiveInt(flag: string, text: string): number {
  return wholeNumber(flag, text, 1);
}

function byteSize(flag: string, text: string): number {
  const m = /^(\d+)([kmg]?)(i?b)?$/i.exec(text.trim());
  const n = m ? Number(m[1]) * 1024 ** ' kmg'.indexOf((m[2] || ' ').toLowerCase()) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0 || n > 2 ** 31 - 1) throw usageError(`${flag} takes a size in bytes (e.g. 65536, 64k, 1m), not '${text}'`);
  return n;
}

const COMPRESSIONS: Readonly<Record<string, CompressionName>> = {
  uncompressed: 'UNCOMPRESSED', none: 'UNCOMPRESSED', snappy: 'SNAPPY', gzip: 'GZIP', lzo: 'LZO', brotli: 'BROTLI', lz4: 'LZ4', zstd: 'ZSTD', lz4_raw: 'LZ4_RAW',
};

const ENCODINGS: readonly EncodingName[] = ['PLAIN', 'RLE', 'DELTA_BINARY_PACKED', 'DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY', 'BYTE_STREAM_SPLIT', 'ALP'];

function encodingName(text: string, flag: string): EncodingName {
  const e = text.trim().toUpperCase() as EncodingName;
  if (!ENCODINGS.includes(e)) throw usageError(`${flag}: unknown encoding '${text}' (${ENCODINGS.join(', ')})`);
  return e;
}

/** Whether two paths name one existing file (links followed). */
async function sameFile(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([stat(a).catch(() => undefined), stat(b).catch(() => undefined)]);
  return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino;
}

/** The writer options of the output flags. */
async function writeOptions(p: Parsed): Promise<WriterOptions> {
  const o: WriterOptions = {};
  const c = one(p, '--compression');
  let compression: CompressionName = 'SNAPPY';
  if (c !== undefined) {
    const name = COMPRESSIONS[c.toLowerCase()];
    if (name === undefined) throw usageError(`--compression: unknown codec '${c}' (${Object.keys(COMPRESSIONS).join(', ')})`);
    compression = name;
  }
  o.compression = compression;
  const level = one(p, '--level');
  if (level !== undefined) {
    const n = /^\d+$/.test(level) ? Number(level) : NaN;
    const levels: AllCodecsOptions = compression === 'GZIP' ? { gzipLevel: n } : compression === 'ZSTD' ? { zstdLevel: n } : compression === 'BROTLI' ? { brotliQuality: n } : {};
    if (Object.keys(levels).length === 0) throw usageError(`--level applies to gzip, zstd and brotli, not ${compression.toLowerCase()}`);
    const [lo, hi] = compression === 'GZIP' ? [0, 9] : compression === 'ZSTD' ? [1, 22] : [0, 11];
    if (!(n >= lo! && n <= hi!)) throw usageError(`--level for ${compression.toLowerCase()} is ${lo}..${hi}, not '${level}'`);
    o.codecs = await allCodecs(levels);
  }
  const rg = one(p, '--row-group-size');
  if (rg !== undefined) o.rowGroupRows = positiveInt('--row-group-size', rg);
  const ps = one(p, '--page-size');
  if (ps !== undefined) o.pageSize = byteSize('--page-size', ps);
  const pv = one(p, '--page-version');
  if (pv !== undefined) {
    if (pv !== '1' && pv !== '2') throw usageError(`--page-version is 1 or 2, not '${pv}'`);
    o.pageVersion = pv === '1' ? 1 : 2;
  }
  if (p.values.has('--no-dictionary')) o.dictionary = false;
  const columns: Record<string, ColumnOptions> = {};
  for (const e of p.values.get('--encoding') ?? []) {
    const eq = e.lastIndexOf('=');
    if (eq < 0) {
      // every column whose physical type the encoding can write (settled on the output's schema by the convert)
      o.encoding = encodingName(e, '--encoding');
    } else {
      const col = e.slice(0, eq);
      if (col === '') throw usageError(`--encoding '${e}': the column name is empty`);
      Object.defineProperty(columns, col, { value: { encoding: encodingName(e.slice(eq + 1), `--encoding ${col}`), dictionary: false }, enumerable: true, writable: true, configurable: true });
    }
  }
  if (Object.keys(columns).length > 0) o.columns = columns;
  return o;
}

const EXTENSIONS: Readonly<Record<string, InputFormat>> = {
  '.csv': 'csv', '.tsv': 'csv', '.ndjson': 'ndjson', '.jsonl': 'ndjson', '.json': 'json', '.parquet': 'parquet', '.parq': 'parquet', '.pq': 'parquet',
};

function delimiterByte(text: string): number {
  if (text === 'tab' || text === '\\t' || text === '\t') return 9;
  if (text.length !== 1 || text.charCodeAt(0) > 126 || text === '"' || text === '\n' || text === '\r') {
    throw usageError(`--delimiter takes one ASCII character other than a quote or a line break, or 'tab', not '${text}'`);
  }
  return text.charCodeAt(0);
}

/**
 * The job of `convert` or `rewrite` from its arguments.
 * @param cmd - the command.
 * @param p - its parsed arguments.
 * @returns the job, and whether `--progress` was given.
 * @throws ParquetError `USAGE` for a missing or bad argument, `CANNOT_OPEN` for a `--schema` file that cannot be read.
 */
export async function jobOf(cmd: 'convert' | 'rewrite', p: Parsed): Promise<{ job: ConvertJob; progress: boolean }> {
  if (p.positional.length !== 2) {
    throw usageError(`${cmd} takes an input and an output file, ${p.positional.length === 0 ? 'none was given' : p.positional.length === 1 ? `only '${p.positional[0]}' was given` : `not ${p.positional.length} (${p.positional.join(' ')})`}`);
  }
  const [input, output] = p.positional as [string, string];
  let format: InputFormat = 'parquet';
  if (cmd === 'convert') {
    const from = one(p, '--from');
    if (from !== undefined) {
      if (!['csv', 'ndjson', 'json', 'parquet'].includes(from)) throw usageError(`--from is csv, ndjson, json or parquet, not '${from}'`);
      format = from as InputFormat;
    } else {
      // a URL's extension is its path's (not its query's: https://host/f.parquet?sig=…)
      const ext = path.extname(isUrl(input) ? urlPath(input) : input).toLowerCase();
      const f = Object.prototype.hasOwnProperty.call(EXTENSIONS, ext) ? EXTENSIONS[ext] : undefined;
      if (f === undefined) throw usageError(`cannot tell the format of '${input}' from its extension; give it with --from csv|ndjson|json|parquet`);
      format = f;
    }
  }
  if (output === '-') throw usageError(`${cmd} writes a Parquet file to a path; '-' (standard output) is not one: give a file name`);
  // a CSV or JSON input given as the output too would be replaced by the Parquet file (a Parquet input may be
  // rewritten in place: it is read whole before the new file is renamed over it)
  if (format !== 'parquet' && !isUrl(input) && (await sameFile(input, output))) {
    throw usageError(`${cmd}: the output '${output}' is the input file; it would be replaced by the Parquet file: give another output path`);
  }
  const url = isUrl(input);
  if (url && format !== 'parquet') throw usageError(`${cmd} reads ${format.toUpperCase()} from a local file; an http:// or https:// input must be Parquet (--from parquet)`);
  const headers = headersOf(p, url);
  const limits = readLimitsOf(p);
  if (limits && format !== 'parquet') throw usageError(`--read-limit is for a Parquet input (the reader's limits), not ${format.toUpperCase()}`);
  const keyFlags = ['--footer-key', '--column-key', '--aad-prefix', '--key-file'].filter((f) => p.values.has(f));
  if (keyFlags.length > 0 && format !== 'parquet') throw usageError(`${keyFlags.join(', ')}: keys of an encrypted Parquet input, but the input is ${format}`);
  const decryption = await decryptionOf(p);
  const csvFlags = ['--delimiter', '--no-header', '--null-value'].filter((f) => p.values.has(f));
  if (format !== 'csv' && csvFlags.length > 0) throw usageError(`${csvFlags.join(', ')}: CSV options, but the input is ${format}`);
  const typeFlags = ['--schema', '--type', '--sample'].filter((f) => p.values.has(f));
  if (format === 'parquet' && typeFlags.length > 0) throw usageError(`${typeFlags.join(', ')}: a Parquet input keeps its schema (these options are for CSV and JSON)`);
  let types: Record<string, FieldSpec> = {};
  const schemaPath = one(p, '--schema');
  if (schemaPath !== undefined) {
    let text: string;
    try {
      text = await readFile(schemaPath, 'utf8');
    } catch (e) {
      throw new ParquetError('CANNOT_OPEN', `parquetry: cannot open '${schemaPath}': ${(e as Error).message}`, undefined, { cause: e });
    }
    types = parseSchemaFile(text, schemaPath);
  }
  const typeNames: string[] = [];
  for (const t of p.values.get('--type') ?? []) {
    // the type may itself hold '=' (tz=UTC, JSON): the column ends at the first one
    const at = t.indexOf('=');
    if (at <= 0) throw usageError(`--type takes COL=TYPE, not '${t}'`);
    const col = t.slice(0, at);
    typeNames.push(col);
    Object.defineProperty(types, col, { value: parseType(t.slice(at + 1), col), enumerable: true, writable: true, configurable: true });
  }
  const sample = one(p, '--sample');
  const nullValue = one(p, '--null-value');
  const delimiter = one(p, '--delimiter');
  const job: ConvertJob = {
    input,
    output,
    format,
    write: await writeOptions(p),
    types,
    typeNames,
    csv: {
      delimiter: delimiter !== undefined ? delimiterByte(delimiter) : path.extname(input).toLowerCase() === '.tsv' ? 9 : 44,
      header: !p.values.has('--no-header'),
      nullValue: nullValue === undefined ? undefined : new TextEncoder().encode(nullValue),
    },
    sample: sample === undefined ? 10000 : positiveInt('--sample', sample),
    ...(headers ? { headers } : {}),
    ...(limits ? { limits } : {}),
    ...(decryption ? { decryption } : {}),
  };
  return { job, progress: p.values.has('--progress') };
}

/** The path of a URL (its query and fragment left out); the URL itself when it does not parse. */
function urlPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/**
 * The progress of a convert or rewrite: a bar over the input's rows (Parquet in) or bytes (text in), shown on a
 * terminal or anywhere with `--progress`, and a summary line at the end (rows, MB read and MB/s, MB written).
 * @param io - where progress goes.
 * @param forced - `--progress` was given.
 * @param unit - what `total` counts: the input's rows (Parquet) or bytes (CSV, NDJSON, JSON).
 * @param total - the input's rows or bytes (0 when unknown).
 * @returns the reporter, or undefined when no progress is shown.
 */
export function progressReporter(
  io: ProgressIO,
  forced: boolean,
  unit: ProgressUnit,
  total: number,
): { report: (rows: number, bytes: number) => void; finish: (rows: number, bytes: number, outBytes: number) => void } | undefined {
  const out = io.progress;
  if (!out || !(io.progressIsTTY || forced)) return undefined;
  const tty = io.progressIsTTY === true;
  const now = io.now ?? (() => performance.now());
  const start = now();
  const bar = new ProgressBar({ out, tty, forced, now }, total, unit);
  return {
    report(rows, bytes) {
      if (unit === 'rows') bar.update(rows, () => bytes);
      else bar.update(bytes, () => rows);
    },
    finish(rows, bytes, outBytes) {
      // the bar erased on a terminal; the summary stays
      if (tty) bar.finish(unit === 'rows' ? rows : bytes, unit === 'rows' ? bytes : rows);
      const secs = Math.max((now() - start) / 1000, 1e-3);
      out(`${rows.toLocaleString('en-US')} rows, ${(bytes / 1e6).toFixed(1)} MB read, ${(bytes / 1e6 / secs).toFixed(1)} MB/s; wrote ${(outBytes / 1e6).toFixed(1)} MB\n`);
    },
  };
}
