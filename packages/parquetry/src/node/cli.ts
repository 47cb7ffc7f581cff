/**
 * The `parquetry` command line: `schema`, `meta`, `head`, `count` (reading) and `convert`, `rewrite` (writing).
 * The usage texts below are the reference; the package README repeats them with the CSV type rules.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (metadata printed by `schema` and `meta`),
 * https://github.com/apache/parquet-format/blob/master/Compression.md and
 * https://github.com/apache/parquet-format/blob/master/Encodings.md (the codec and encoding names `convert` takes).
 * @module
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SchemaNode } from '@parquetry/parquet-levels';
import type { ColumnOptions, CompressionName, EncodingName, FieldSpec, WriterOptions } from '@parquetry/parquet-writer';
import { CompressionCodecNames, EncodingNames, ParquetError, TypeNames, isParquetError, type LogicalType } from '@parquetry/thrift-compact';
import { allCodecs, type AllCodecsOptions } from '../codecs.js';
import { parseSchemaFile, parseType } from './cli-types.js';
import { convertFile, type ConvertJob, type InputFormat } from './convert.js';
import { bloomCommand, pagesCommand } from './inspect.js';
import type { KindCounts, ScanStats } from '@parquetry/parquet-reader';
import { openFile, type LocalParquetFile } from './files.js';

const USAGE = `usage: parquetry <command> <arguments> [options]
  schema <file>                       the schema tree
  meta <file>                         rows, row groups and column chunks
  head <file> [-n N] [--columns a,b]  the first N rows (default 10) as JSON lines
  count <file>                        the number of rows, counted by reading the pages
  pages <file> [column]               the page index: each page's rows, bytes, nulls and bounds
  bloom <file> <column> <value>       per row group: may the column's bloom filter contain the value
  (head, count, pages and bloom take --stats: bytes and requests by kind, row groups and pages read and
  skipped, rows decoded and returned, on stderr)
  convert <in> <out> [options]        CSV, NDJSON, JSON or Parquet in, Parquet out
  rewrite <in> <out> [options]        a Parquet file re-encoded (codec, pages, dictionary, encodings)
  help [command]                      this text, or the options of a command`;

const OUTPUT_OPTIONS = `output options:
  -c, --compression NAME       uncompressed, snappy (default), gzip, lzo, brotli, lz4, zstd or lz4_raw
  --level N                    the gzip (0-9), zstd (1-22) or brotli (0-11) level
  --row-group-size N           rows per row group (default 1048576; a Parquet input keeps its row groups)
  --page-size BYTES            data page size before compression (default 1m; k, m, g suffixes)
  --page-version 1|2           data page version (default 1)
  --no-dictionary              no dictionary encoding
  --encoding [COL=]ENCODING    PLAIN, RLE, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
                               BYTE_STREAM_SPLIT or ALP for column COL (or every column), without its dictionary
                               (repeatable)
  --progress                   rows written and MB/s on stderr (default: only when stderr is a terminal)`;

const CONVERT_USAGE = `usage: parquetry convert <in> <out> [options]
  <in> is CSV (.csv, .tsv), NDJSON (.ndjson, .jsonl: one object per line), JSON (.json: an array of objects,
  loaded whole) or Parquet (.parquet, .parq, .pq), by extension; <out> is Parquet, written to a temporary file
  renamed into place at the end (a failed or interrupted convert leaves no <out>).
input options:
  --from FORMAT                csv, ndjson, json or parquet, whatever the extension
  --schema FILE                column types: a JSON object of field specs, e.g. {"id": {"type": "int64"}}
  --type COL=TYPE              the type of column COL (repeatable; wins over --schema and the inference):
                               boolean, int8/16/32/64, uint8/16/32/64, float, double, float16, string, json,
                               enum, binary, uuid, date, time[ms|us|ns], timestamp[ms|us|ns] (local time),
                               timestamptz[ms|us|ns] (UTC instants), decimal(P,S), or a field spec as JSON
  --sample N                   rows the types are inferred from (default 10000)
  --delimiter C                CSV field delimiter: one character, or tab (default ',', tab for .tsv)
  --no-header                  the CSV has no header row (columns are named column0, column1, …)
  --null-value STR             CSV fields equal to STR are null (empty fields always are)
${OUTPUT_OPTIONS}`;

const REWRITE_USAGE = `usage: parquetry rewrite <in> <out> [options]
  re-encodes the Parquet file <in> into <out>: the same schema, rows and key/value metadata, copied row group by
  row group in columnar form, with new codec, page, dictionary and encoding options.
${OUTPUT_OPTIONS}`;

const USAGES: Readonly<Record<string, string>> = { convert: CONVERT_USAGE, rewrite: REWRITE_USAGE };

/** Hooks of {@link main} beyond the output lines. */
export interface MainIO {
  /** Receives error lines (and the usage after a usage error); default: the `write` of {@link main}. */
  error?: (line: string) => void;
  /** Receives progress text for `convert`/`rewrite` (raw: with `\r` on a terminal, lines otherwise). */
  progress?: (text: string) => void;
  /** Whether the progress stream is a terminal: progress is shown when it is, or with `--progress`. */
  progressIsTTY?: boolean;
  /** Stops a running `convert`/`rewrite` (the output is not written; exit code 130). */
  signal?: AbortSignal;
}

function usageError(message: string): ParquetError {
  return new ParquetError('USAGE', `parquetry: ${message}`);
}

// ---------------------------------------------------------------------------------------------------------------
// arguments

interface FlagSpec {
  /** Takes a value. */
  readonly value: boolean;
  /** May be given more than once (values collected). */
  readonly repeat?: boolean;
}

interface Parsed {
  positional: string[];
  values: Map<string, string[]>;
}

const OUTPUT_FLAGS: Readonly<Record<string, FlagSpec>> = {
  '--compression': { value: true },
  '--level': { value: true },
  '--row-group-size': { value: true },
  '--page-size': { value: true },
  '--page-version': { value: true },
  '--no-dictionary': { value: false },
  '--encoding': { value: true, repeat: true },
  '--progress': { value: false },
};

const FLAGS: Readonly<Record<string, Readonly<Record<string, FlagSpec>>>> = {
  schema: {},
  meta: {},
  count: { '--stats': { value: false } },
  pages: { '--stats': { value: false } },
  bloom: { '--stats': { value: false } },
  head: { '-n': { value: true }, '--columns': { value: true }, '--stats': { value: false } },
  convert: {
    ...OUTPUT_FLAGS,
    '--from': { value: true },
    '--schema': { value: true },
    '--type': { value: true, repeat: true },
    '--sample': { value: true },
    '--delimiter': { value: true },
    '--no-header': { value: false },
    '--null-value': { value: true },
  },
  rewrite: OUTPUT_FLAGS,
};

const ALIASES: Readonly<Record<string, string>> = { '-c': '--compression' };

function parseArgs(cmd: string, args: readonly string[]): Parsed {
  const specs = FLAGS[cmd]!;
  const out: Parsed = { positional: [], values: new Map() };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-') || a === '-') {
      out.positional.push(a);
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const raw = eq > 0 ? a.slice(0, eq) : a;
    const name = ALIASES[raw] ?? raw;
    const spec = Object.prototype.hasOwnProperty.call(specs, name) ? specs[name] : undefined;
    if (spec === undefined) throw usageError(`${cmd}: unknown option '${raw}'`);
    let value = '';
    if (spec.value) {
      if (eq > 0) value = a.slice(eq + 1);
      else if (i + 1 < args.length) value = args[++i]!;
      else throw usageError(`${cmd}: option '${raw}' needs a value`);
    } else if (eq > 0) throw usageError(`${cmd}: option '${raw}' takes no value`);
    const list = out.values.get(name);
    if (list && !spec.repeat) list[0] = value;
    else if (list) list.push(value);
    else out.values.set(name, [value]);
  }
  return out;
}

function one(p: Parsed, name: string): string | undefined {
  return p.values.get(name)?.[0];
}

function positiveInt(flag: string, text: string): number {
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw usageError(`${flag} takes a positive whole number, not '${text}'`);
  return n;
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
      o.encoding = encodingName(e, '--encoding');
      o.dictionary = false;
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

/** The job of `convert` or `rewrite` from its arguments. */
async function jobOf(cmd: 'convert' | 'rewrite', p: Parsed): Promise<{ job: ConvertJob; progress: boolean }> {
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
      const ext = path.extname(input).toLowerCase();
      const f = Object.prototype.hasOwnProperty.call(EXTENSIONS, ext) ? EXTENSIONS[ext] : undefined;
      if (f === undefined) throw usageError(`cannot tell the format of '${input}' from its extension; give it with --from csv|ndjson|json|parquet`);
      format = f;
    }
  }
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
  for (const t of p.values.get('--type') ?? []) {
    // the type may itself hold '=' (tz=UTC, JSON): the column ends at the first one
    const at = t.indexOf('=');
    if (at <= 0) throw usageError(`--type takes COL=TYPE, not '${t}'`);
    const col = t.slice(0, at);
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
    csv: {
      delimiter: delimiter !== undefined ? delimiterByte(delimiter) : path.extname(input).toLowerCase() === '.tsv' ? 9 : 44,
      header: !p.values.has('--no-header'),
      nullValue: nullValue === undefined ? undefined : new TextEncoder().encode(nullValue),
    },
    sample: sample === undefined ? 10000 : positiveInt('--sample', sample),
  };
  return { job, progress: p.values.has('--progress') };
}

function progressReporter(io: MainIO, forced: boolean): { report: (rows: number, bytes: number) => void; finish: (rows: number, bytes: number, outBytes: number) => void } | undefined {
  const out = io.progress;
  if (!out || !(io.progressIsTTY || forced)) return undefined;
  const tty = io.progressIsTTY === true;
  const start = performance.now();
  let last = start;
  const text = (rows: number, bytes: number): string => {
    const secs = Math.max((performance.now() - start) / 1000, 1e-3);
    return `${rows.toLocaleString('en-US')} rows, ${(bytes / 1e6).toFixed(1)} MB read, ${(bytes / 1e6 / secs).toFixed(1)} MB/s`;
  };
  return {
    report(rows, bytes) {
      const now = performance.now();
      if (now - last < (tty ? 200 : 1000)) return;
      last = now;
      out(tty ? `\r${text(rows, bytes)}\x1b[K` : `${text(rows, bytes)}\n`);
    },
    finish(rows, bytes, outBytes) {
      const line = `${text(rows, bytes)}; wrote ${(outBytes / 1e6).toFixed(1)} MB`;
      out(tty ? `\r${line}\x1b[K\n` : `${line}\n`);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// reading commands

function logicalName(lt: LogicalType | undefined): string {
  if (!lt) return '';
  const [name, body] = Object.entries(lt).find(([, v]) => v !== undefined) ?? ['', undefined];
  const params = body && typeof body === 'object' ? Object.entries(body as Record<string, unknown>).filter(([, v]) => v !== undefined && typeof v !== 'object') : [];
  const unit = body && typeof body === 'object' && 'unit' in body ? Object.keys((body as { unit: object }).unit)[0] : undefined;
  const all = [...params.map(([k, v]) => `${k}=${String(v)}`), ...(unit ? [`unit=${unit}`] : [])];
  return all.length ? `${name}(${all.join(', ')})` : name;
}

function schemaLines(n: SchemaNode, depth: number, out: string[]): void {
  const rep = ['required', 'optional', 'repeated'][n.repetition] ?? String(n.repetition);
  const phys = n.element.type === undefined ? 'group' : (TypeNames[n.element.type] ?? String(n.element.type));
  const len = n.element.type_length ? `(${n.element.type_length})` : '';
  const lt = logicalName(n.logicalType);
  out.push(`${'  '.repeat(depth)}${rep} ${phys}${len} ${n.name}${lt ? ` ${lt}` : ''}`);
  for (const c of n.children) schemaLines(c, depth + 1, out);
}

/** JSON for any value the reader returns: bigints as strings, bytes as hex, maps as entry lists. */
function toJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (typeof x === 'bigint') return x.toString();
    if (x instanceof Uint8Array) return Array.from(x, (b) => b.toString(16).padStart(2, '0')).join('');
    if (x instanceof Map) return [...x.entries()];
    if (typeof x === 'number' && !Number.isFinite(x)) return String(x);
    return x;
  });
}

async function readCommand(cmd: string, p: Parsed, write: (line: string) => void, error: (line: string) => void): Promise<number> {
  const arity = cmd === 'pages' ? [1, 2] : cmd === 'bloom' ? [3, 3] : [1, 1];
  if (p.positional.length < arity[0]! || p.positional.length > arity[1]!) {
    const what = cmd === 'pages' ? 'a file and optionally a column' : cmd === 'bloom' ? 'a file, a column and a value' : 'one file';
    throw usageError(`${cmd} takes ${what}, ${p.positional.length === 0 ? 'nothing was given' : `not ${p.positional.length} arguments`}`);
  }
  const filePath = p.positional[0]!;
  let n = 10;
  if (cmd === 'head') {
    const nt = one(p, '-n');
    n = Number(nt ?? 10);
    if (!Number.isSafeInteger(n) || n < 0 || (nt !== undefined && !/^\d+$/.test(nt))) throw usageError(`-n takes a whole number, not '${nt}'`);
  }
  let file: LocalParquetFile | undefined;
  try {
    try {
      file = await openFile(filePath);
    } catch (e) {
      if (isParquetError(e) || typeof (e as { code?: unknown })?.code !== 'string') throw e;
      // a file system error (missing file, permissions): say which file
      error(`parquetry: cannot open '${filePath}': ${(e as Error).message}`);
      return 1;
    }
    const md = file.metadata;
    if (p.values.has('--stats')) {
      const f = file;
      try {
        return await runRead(cmd, p, f, n, write);
      } finally {
        for (const line of scanLines(f.scanStats())) error(line);
      }
    }
    return await runRead(cmd, p, file, n, write);
  } finally {
    await file?.close();
  }
}

/** The scan statistics as `--stats` prints them. */
export function scanLines(s: ScanStats): string[] {
  const kinds = (c: KindCounts) => (['footer', 'index', 'bloom', 'dictionary', 'data'] as const).filter((k) => c[k] > 0).map((k) => `${k} ${c[k]}`).join(', ');
  const sk = s.rowGroups.skipped;
  const why = (Object.keys(sk) as (keyof typeof sk)[]).filter((k) => sk[k] > 0).map((k) => `${sk[k]} by ${k === 'rowRange' ? 'row range' : k === 'pageIndex' ? 'page index' : k}`);
  return [
    `scan: ${s.bytes.total} bytes in ${s.requests.total} requests (bytes: ${kinds(s.bytes) || 'none'}; requests: ${kinds(s.requests) || 'none'})`,
    `scan: row groups ${s.rowGroups.read} read of ${s.rowGroups.total}${why.length ? `, skipped ${why.join(', ')}` : ''}; pages ${s.pages.read} read, ${s.pages.skipped} skipped by the page index`,
    `scan: rows ${s.rowsDecoded} decoded, ${s.rowsReturned} returned`,
  ];
}

async function runRead(cmd: string, p: Parsed, file: LocalParquetFile, n: number, write: (line: string) => void): Promise<number> {
  const md = file.metadata;
  {
    if (cmd === 'pages') {
      await pagesCommand(file, p.positional[1], write);
      return 0;
    }
    if (cmd === 'bloom') {
      await bloomCommand(file, p.positional[1]!, p.positional[2]!, write);
      return 0;
    }
    if (cmd === 'schema') {
      const out: string[] = [];
      schemaLines(file.schema.field.node, 0, out);
      out[0] = `message ${file.schema.field.node.name}`;
      out.forEach((l) => write(l));
    } else if (cmd === 'meta') {
      write(`created_by: ${md.created_by ?? '(none)'}`);
      write(`rows: ${md.num_rows}, row groups: ${md.row_groups.length}, columns: ${file.schema.columns.length}, format version: ${md.version}`);
      md.row_groups.forEach((rg, g) => {
        write(`row group ${g}: ${rg.num_rows} rows, ${rg.total_byte_size} bytes`);
        rg.columns.forEach((cc, i) => {
          const m = cc.meta_data;
          const name = file!.schema.columns[i]?.pathString ?? `column ${i}`;
          if (!m) return write(`  ${name}: (encrypted metadata)`);
          const enc = m.encodings.map((e) => EncodingNames[e] ?? String(e)).join(',');
          write(`  ${name}: ${CompressionCodecNames[m.codec] ?? m.codec} ${enc} ${m.num_values} values, ${m.total_compressed_size} / ${m.total_uncompressed_size} bytes`);
        });
      });
    } else if (cmd === 'head') {
      const columns = one(p, '--columns')?.split(',');
      let left = n;
      // row groups past the first n rows are never read
      for await (const { rows } of file.iterateRowGroups({ rowEnd: n, ...(columns ? { columns } : {}) })) {
        for (const r of rows.slice(0, left)) write(toJson(r));
        left -= Math.min(left, rows.length);
        if (left === 0) break;
      }
    } else {
      let rows = 0;
      for (let g = 0; g < md.row_groups.length; g++) {
        if (file.schema.columns.length === 0) break;
        rows += (await file.readRowGroupColumns(g, { columns: [file.schema.columns[0]!.path as string[]] })).length;
      }
      write(String(rows));
    }
    return 0;
  }
}

/**
 * Runs the `parquetry` command line.
 * @param argv - the arguments after the program name.
 * @param write - receives each output line (the help text too).
 * @param io - where errors and progress go, and a signal to interrupt a convert (the `bin` passes stderr and
 *   SIGINT); without it errors go to `write` and no progress is shown.
 * @returns the exit code: 0; 1 for a failure (a `ParquetError`, printed with its code; a file that cannot be opened
 *   or created); 2 for a usage error (unknown command or option, missing or bad argument: the message, then the
 *   usage); 130 when `io.signal` interrupted a convert.
 */
export async function main(argv: readonly string[], write: (line: string) => void, io: MainIO = {}): Promise<number> {
  const error = io.error ?? write;
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    const topic = rest[0];
    write(topic !== undefined && Object.prototype.hasOwnProperty.call(USAGES, topic) ? USAGES[topic]! : USAGE);
    return 0;
  }
  if (!Object.prototype.hasOwnProperty.call(FLAGS, cmd)) {
    error(`parquetry: unknown command '${cmd}'`);
    error(USAGE);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    write(USAGES[cmd] ?? USAGE);
    return 0;
  }
  try {
    const p = parseArgs(cmd, rest);
    if (cmd !== 'convert' && cmd !== 'rewrite') return await readCommand(cmd, p, write, error);
    const { job, progress } = await jobOf(cmd, p);
    const reporter = progressReporter(io, progress);
    const result = await convertFile({
      ...job,
      ...(reporter ? { progress: reporter.report } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
    });
    if (reporter) {
      const md = result.metadata;
      let outBytes = 0;
      for (const rg of md.row_groups) outBytes += rg.total_compressed_size ?? rg.total_byte_size;
      reporter.finish(result.rows, result.bytes, outBytes);
    }
    return 0;
  } catch (e) {
    if (!isParquetError(e)) {
      // a file system error past the opening (EIO, EISDIR, ENOSPC): one line, not a stack trace
      const sys = e as { code?: unknown; syscall?: unknown; message?: unknown };
      if (typeof sys.code === 'string' && typeof sys.syscall === 'string') {
        error(`parquetry: ${String(sys.message)}`);
        return 1;
      }
      throw e;
    }
    const message = e.message.replace(/^parquetry: /, '');
    if (e.code === 'USAGE') {
      error(`parquetry: ${message}`);
      error(USAGES[cmd] ?? USAGE);
      return 2;
    }
    if (e.code === 'CANNOT_OPEN' || e.code === 'CANNOT_CREATE') {
      error(`parquetry: ${message}`);
      return 1;
    }
    error(`parquetry: ${e.code}: ${message}`);
    return e.code === 'INTERRUPTED' ? 130 : 1;
  }
}
