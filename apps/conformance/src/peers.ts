/**
 * Peer read-back harness for the writer's interop tests: a Parquet file read by DuckDB (`@duckdb/node-api`),
 * parquet-wasm (arrow-rs), pyarrow (Arrow C++), hyparquet, polars (its own Rust reader, polars-parquet) and
 * fastparquet (Python/numba), each in a child process with a timeout, as rows in the
 * canonical value form of `tools/peers/canon.mjs`; and the column-chunk statistics as DuckDB's `parquet_metadata()`,
 * pyarrow's `ParquetFile.metadata` and Parquetry's reader give them, in one string form so tests compare them
 * directly.
 *
 * Statistics form ({@link PeerColumnStats}): one entry per column chunk in file order; `path` is `path_in_schema`
 * joined with "."; `min`/`max` are the bound (min_value/max_value, else the deprecated min/max) in canonical form as
 * a string ({@link statString}: integers and floats as JS prints them, -0 as "-0", decimals exact, dates/times/
 * timestamps canonical, binary "bin:<hex>", strings as they are); `numValues` is ColumnMetaData.num_values (with
 * nulls).
 *
 * What each peer returns for VARIANT (VariantEncoding.md / VariantShredding.md) and GEOMETRY:
 * - DuckDB 1.5: VARIANT decoded by DuckDB (shredded or not; canon.mjs sorts object keys). GEOMETRY: a
 *   DuckDBGeometryValue, canonical "bin:<WKB hex>". (DuckDB itself writes its GEOMETRY type as a plain BYTE_ARRAY
 *   of WKB, without the GEOMETRY annotation, when the spatial extension is absent.)
 * - hyparquet 1.33: VARIANT decoded by hyparquet (shredded too); 64-bit integers as bigint, variant decimals as
 *   numbers, variant TIME as a bare bigint of microseconds and variant timestamps without their UTC flag (printed
 *   without "Z") — only the integer/string/double/object/array cases are exercised by the tests. GEOMETRY/GEOGRAPHY:
 *   the raw WKB through its parser hook (its default would be GeoJSON), "bin:<WKB hex>".
 * - pyarrow 25 and parquet-wasm 0.8 (arrow-rs): VARIANT as a plain struct (`metadata`, `value`, `typed_value`),
 *   turned into the Variant value here (see {@link readWithPeer}). GEOMETRY: binary (pyarrow: `geoarrow.wkb` over
 *   binary when that extension is registered), "bin:<WKB hex>".
 * - polars 1.x and fastparquet: VARIANT, where they read the file at all, as the plain struct pyarrow gives
 *   (decoded here the same way). GEOMETRY: polars rejects the footer of a file holding one (its Thrift LogicalType
 *   union has no GEOMETRY/GEOGRAPHY member); fastparquet returns the WKB bytes of GEOMETRY and fails on GEOGRAPHY
 *   (src/python-peer-limits.ts lists and asserts each such case).
 * No peer here writes a GEOMETRY-annotated column, so the GEOMETRY paths are not exercised yet.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (file layout, Statistics in
 * src/main/thrift/parquet.thrift) and https://github.com/apache/parquet-format/blob/master/LogicalTypes.md
 * (the value each annotation denotes).
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LeafField } from '@parquetry/parquet-levels';
import { openParquet } from '@parquetry/parquet-reader';
import { ParquetError } from '@parquetry/thrift-compact';
import { canonField, digest } from './canon-parquetry.js';
// @ts-expect-error: plain ESM with JSDoc types
import * as canonModule from '../../../tools/peers/canon.mjs';
// @ts-expect-error: plain ESM with JSDoc types
import { footerHints as footerHintsJs } from './peer-hints.mjs';

/** A peer implementation that reads Parquet files back. */
export type PeerName = 'duckdb' | 'parquet-wasm' | 'pyarrow' | 'hyparquet' | 'polars' | 'fastparquet';

/** Every peer, in a stable order. */
export const PEERS: readonly PeerName[] = ['duckdb', 'parquet-wasm', 'pyarrow', 'hyparquet', 'polars', 'fastparquet'];

/**
 * The peers that run in PARQUETRY_PYTHON, with their reader script and the modules that Python must import for
 * the peer to be available (polars_read.py hands polars' frame to pyarrow_read.py's converter through Arrow, so
 * polars needs pyarrow too; fastparquet_read.py converts fastparquet's pandas frame itself but borrows
 * pyarrow_read.py's scalar formatters, so it imports pyarrow as well).
 */
const PYTHON_PEERS: Readonly<Partial<Record<PeerName, { script: string; modules: readonly string[] }>>> = {
  pyarrow: { script: fileURLToPath(new URL('./pyarrow_read.py', import.meta.url)), modules: ['pyarrow.parquet'] },
  polars: { script: fileURLToPath(new URL('./polars_read.py', import.meta.url)), modules: ['polars', 'pyarrow'] },
  fastparquet: { script: fileURLToPath(new URL('./fastparquet_read.py', import.meta.url)), modules: ['fastparquet', 'pyarrow'] },
};

/** One peer's read of one file. */
export interface PeerRows {
  /** The peer. */
  peer: PeerName;
  /** `ok` when the peer read the file (possibly without some columns, see `columnErrors`). */
  status: 'ok' | 'error';
  /** Canonical rows (tools/peers/canon.mjs form), keyed by top-level column in schema order. */
  rows?: Record<string, unknown>[];
  /** Why the peer failed (its message, or the exit code / signal / timeout of its process). */
  error?: string;
  /** sha256 of the canonical rows (canon.mjs `digest`). */
  digest?: string;
  /** The peer's version. */
  version?: string;
  /** Top-level columns the peer could not read (left out of `rows`), with its message. */
  columnErrors?: Record<string, string>;
}

/** Statistics of one column chunk, as one peer (or Parquetry) reads them, in the string form of {@link statString}. */
export interface PeerColumnStats {
  /** `path_in_schema` joined with ".". */
  path: string;
  /** Row group ordinal. */
  rowGroup: number;
  /** Lower bound, when the peer reports one. */
  min?: string;
  /** Upper bound, when the peer reports one. */
  max?: string;
  /** Null count, when recorded. */
  nullCount?: number;
  /** Distinct count, when recorded. */
  distinctCount?: number;
  /** ColumnMetaData.num_values (values including nulls). */
  numValues?: number;
}

/** Options of one peer read. */
export interface PeerReadOptions {
  /** Kill the peer's process after this many milliseconds (default 120,000). */
  timeoutMs?: number;
}

/** A node of the Parquet schema as tools/peers/canon.mjs uses it for formatting hints. */
export interface SchemaHint {
  /** Field name. */
  name: string;
  /** Physical type name; null for groups. */
  physical: string | null;
  /** REQUIRED, OPTIONAL or REPEATED. */
  repetition: string | null;
  /** ConvertedType name. */
  converted: string | null;
  /** LogicalType as text ("TimestampType(isAdjustedToUTC=1, unit=MICROS)"). */
  logical: string | null;
  /** DECIMAL scale. */
  scale: number | null;
  /** Children of a group. */
  children: SchemaHint[];
}

interface CanonModule {
  leafKind(h: SchemaHint | null): { kind: string } | null;
  structChild(h: SchemaHint | null, name: string): SchemaHint | null;
  listElement(h: SchemaHint | null): SchemaHint | null;
  mapEntry(h: SchemaHint | null): { key: SchemaHint | null; value: SchemaHint | null };
  decodeVariantMetadata(m: Uint8Array): { dict: string[]; length: number };
  decodeVariantValue(dict: string[], v: Uint8Array, pos?: number): unknown;
}
const canon = canonModule as unknown as CanonModule;
const footerHints = footerHintsJs as (ab: ArrayBuffer) => Promise<SchemaHint | null>;

const CHILD = fileURLToPath(new URL('./peer-child.mjs', import.meta.url));
const PYARROW = PYTHON_PEERS.pyarrow!.script;
const DEFAULT_TIMEOUT = 120_000;

/**
 * The peers that can run here: DuckDB, parquet-wasm and hyparquet always (root devDependencies); pyarrow, polars
 * and fastparquet only when `PARQUETRY_PYTHON` names a Python that imports them (checked once per process by
 * importing them; {@link pythonPeerMissing} says why one is not available).
 * @returns the available peers, in {@link PEERS} order.
 */
export function peersAvailable(): PeerName[] {
  return PEERS.filter((p) => PYTHON_PEERS[p] === undefined || pythonPeerMissing(p) === undefined);
}

const importChecks = new Map<string, string | undefined>();

/**
 * Why a Python peer cannot run here (PARQUETRY_PYTHON unset, or that Python cannot import the peer's modules),
 * or undefined when it can (and for the peers that are not Python). The import is tried once per process and
 * Python path.
 * @param peer - the peer.
 * @returns the reason, with the import error's last line, or undefined.
 */
export function pythonPeerMissing(peer: PeerName): string | undefined {
  const spec = PYTHON_PEERS[peer];
  if (spec === undefined) return undefined;
  const py = pythonPath();
  if (py === undefined) return `${peer}: PARQUETRY_PYTHON (a python with ${spec.modules.join(', ')}) is not set`;
  const key = `${py}\0${spec.modules.join()}`;
  if (!importChecks.has(key)) {
    const r = spawnSync(py, ['-c', `import ${spec.modules.join(', ')}`], { encoding: 'utf8', timeout: 60_000 });
    const last = (r.stderr ?? '').trim().split('\n').pop() ?? '';
    importChecks.set(key, r.status === 0 ? undefined : `${peer}: ${py} cannot import ${spec.modules.join(', ')} (${r.error?.message ?? last})`);
  }
  return importChecks.get(key);
}

function pythonPath(): string | undefined {
  const p = process.env['PARQUETRY_PYTHON'];
  return p === undefined || p === '' ? undefined : p;
}

interface ChildResult {
  stdout: string;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  spawnError?: Error;
}

function runChild(cmd: string, args: string[], input: string, timeoutMs: number): Promise<ChildResult> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    let spawnError: Error | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => {
      spawnError = e;
    });
    child.stdin.on('error', () => {
      /* the child may exit before reading its input; its exit status tells */
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const r: ChildResult = { stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code, signal, timedOut };
      if (spawnError) r.spawnError = spawnError;
      resolve(r);
    });
    child.stdin.end(input);
  });
}

interface ChildJson {
  status?: string;
  version?: string;
  error?: string;
  rows?: Record<string, unknown>[];
  stats?: Record<string, unknown>[];
  columnErrors?: Record<string, string>;
}

/** The child's JSON answer, or an error text saying how the process ended. */
function parseChild(r: ChildResult, what: string, timeoutMs: number): ChildJson | string {
  if (r.spawnError) return `${what}: could not start (${r.spawnError.message})`;
  if (r.timedOut) return `${what}: timed out after ${timeoutMs} ms`;
  if (r.code !== 0 || r.signal !== null) return `${what}: exited with ${r.signal ?? `code ${r.code}`}: ${r.stderr.trim().slice(-500)}`;
  try {
    return JSON.parse(r.stdout) as ChildJson;
  } catch {
    return `${what}: printed no JSON (${r.stdout.slice(0, 200)}${r.stderr.trim().slice(-300)})`;
  }
}

async function hintsOf(file: string): Promise<SchemaHint | null> {
  const b = fs.readFileSync(file);
  return footerHints(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
}

/**
 * Reads one file with one peer, in a child process (a crash, panic or hang is a status `error`, not a failed test
 * process), and returns its rows in canonical form.
 *
 * VARIANT: DuckDB and hyparquet decode it themselves; pyarrow 25 and parquet-wasm 0.8 return the Variant group as a
 * plain struct (`metadata`, `value` binaries, shredded `typed_value`), which is turned into the Variant value here
 * with canon.mjs's Variant decoder and the shredding rules (so those two peers check the levels and physical values
 * of a Variant column, not its binary decoding).
 * @param peer - which peer.
 * @param file - path of the Parquet file.
 * @param options - the timeout.
 * @returns the peer's rows, or status `error` with the reason (never rejects for a peer failure).
 */
export async function readWithPeer(peer: PeerName, file: string, options: PeerReadOptions = {}): Promise<PeerRows> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT;
  let result: ChildJson | string;
  let hints: SchemaHint | null = null;
  const pySpec = PYTHON_PEERS[peer];
  if (pySpec !== undefined) {
    const py = pythonPath();
    if (py === undefined) return { peer, status: 'error', error: `${peer}: PARQUETRY_PYTHON (a python with ${pySpec.modules.join(', ')}) is not set` };
    hints = await hintsOf(file);
    result = parseChild(await runChild(py, [pySpec.script, 'rows', file], JSON.stringify(hints), timeoutMs), peer, timeoutMs);
  } else if (peer === 'duckdb' || peer === 'parquet-wasm' || peer === 'hyparquet') {
    if (peer === 'parquet-wasm') hints = await hintsOf(file);
    result = parseChild(await runChild(process.execPath, [CHILD, 'rows', peer, file], '', timeoutMs), peer, timeoutMs);
  } else {
    throw new ParquetError('UNKNOWN_PEER', `conformance peers: unknown peer ${String(peer)}, expected one of ${PEERS.join(', ')}`);
  }
  if (typeof result === 'string') return { peer, status: 'error', error: result };
  const out: PeerRows = { peer, status: result.status === 'ok' ? 'ok' : 'error' };
  if (result.version !== undefined) out.version = result.version;
  if (out.status === 'error') {
    out.error = result.error ?? 'unknown error';
    return out;
  }
  let rows = result.rows ?? [];
  if (peer === 'pyarrow' || peer === 'parquet-wasm' || ((peer === 'polars' || peer === 'fastparquet') && hasVariant(hints))) rows = rows.map((r) => decodeVariantStructs(r, hints) as Record<string, unknown>);
  out.rows = rows;
  out.digest = digest(rows);
  if (result.columnErrors) out.columnErrors = result.columnErrors;
  return out;
}

interface BatchLine {
  version?: string;
  start?: number;
  column?: string | null;
  done?: number;
  status?: string;
  error?: string;
  rows?: Record<string, unknown>[];
  columnErrors?: Record<string, string>;
}

/** Restarts of a batch after crashes, at most (each crash costs one column). */
const MAX_RESTARTS = 40;

/**
 * Reads many files with one Python peer (polars or fastparquet) in one child process (the interpreter and the
 * library load once; src/peer_batch.py), each file as {@link readWithPeer} reads it. A process that dies (a
 * segmentation fault in the peer's native code) is restarted after the file and column it was reading, which gets
 * the process's end as its error (`fastparquet: exited with SIGSEGV while reading column c`): one crashing column
 * costs only itself.
 * @param peer - `polars` or `fastparquet`.
 * @param files - paths of the Parquet files.
 * @param options - the timeout (for each process).
 * @returns one result per file, in order.
 * @throws ParquetError `UNKNOWN_PEER` for a peer without a batch mode.
 */
export async function readManyWithPeer(peer: PeerName, files: readonly string[], options: PeerReadOptions = {}): Promise<PeerRows[]> {
  if (peer !== 'polars' && peer !== 'fastparquet') throw new ParquetError('UNKNOWN_PEER', `conformance peers: ${peer} has no batch mode, expected polars or fastparquet`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT;
  const missing = pythonPeerMissing(peer);
  if (missing !== undefined) return files.map(() => ({ peer, status: 'error', error: missing }));
  const hints = await Promise.all(files.map((f) => hintsOf(f)));
  const done: (BatchLine | undefined)[] = files.map(() => undefined);
  const skips: Record<string, string>[] = files.map(() => ({}));
  let version: string | undefined;
  let from = 0;
  for (let restarts = 0; from < files.length; restarts++) {
    const jobs = files.slice(from).map((file, k) => ({ file, hints: hints[from + k], skip: Object.keys(skips[from + k]!).length > 0 ? skips[from + k] : undefined }));
    const r = await runChild(pythonPath()!, [PYTHON_PEERS[peer]!.script, 'batch'], JSON.stringify(jobs), timeoutMs);
    let last: { file: number; column: string | null } | undefined;
    for (const line of r.stdout.split('\n')) {
      if (line === '') continue;
      let o: BatchLine;
      try {
        o = JSON.parse(line) as BatchLine;
      } catch {
        continue; // a line cut by the crash
      }
      if (o.version !== undefined) version = o.version;
      if (o.start !== undefined) last = { file: from + o.start, column: o.column ?? null };
      if (o.done !== undefined) {
        done[from + o.done] = o;
        last = undefined;
      }
    }
    const next = done.findIndex((d) => d === undefined);
    if (next === -1) break;
    const ended = parseChild(r, peer, timeoutMs);
    const why = typeof ended === 'string' ? ended.replace(/: *$/, '') : `${peer}: stopped without reading ${files[next]}`;
    if (last === undefined || last.file !== next || restarts >= MAX_RESTARTS) {
      // nothing to skip past: the file itself (or the batch) failed
      done[next] = { done: next, status: 'error', error: why };
    } else {
      // the whole-file read (column null) crashed: read it column by column next time ('' never names a column here)
      skips[next]![last.column ?? ''] = last.column === null ? why : `${why} while reading column ${last.column}`;
    }
    from = next;
  }
  return files.map((_f, i) => {
    const x = done[i]!;
    const out: PeerRows = { peer, status: x.status === 'ok' ? 'ok' : 'error' };
    if (version !== undefined) out.version = version;
    if (out.status === 'error') {
      out.error = x.error ?? `${peer}: no result for this file`;
      return out;
    }
    const h = hints[i] ?? null;
    const rows = hasVariant(h) ? (x.rows ?? []).map((row) => decodeVariantStructs(row, h) as Record<string, unknown>) : (x.rows ?? []);
    out.rows = rows;
    out.digest = digest(rows);
    if (x.columnErrors && Object.keys(x.columnErrors).length > 0) {
      const errs = { ...x.columnErrors };
      delete errs[''];
      if (Object.keys(errs).length > 0) out.columnErrors = errs;
    }
    return out;
  });
}

/** Whether a schema hint tree holds a VARIANT anywhere (only then are Variant structs decoded). */
function hasVariant(h: SchemaHint | null): boolean {
  return h !== null && (canon.leafKind(h)?.kind === 'variant' || h.children.some(hasVariant));
}

const BIN = /^bin:((?:[0-9a-f]{2})*)$/;
function hexBytes(s: string): Uint8Array | undefined {
  const m = BIN.exec(s);
  if (!m) return undefined;
  const hex = m[1] ?? '';
  const b = new Uint8Array(hex.length / 2);
  for (let i = 0; i < b.length; i++) b[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return b;
}

/**
 * Replaces the Variant groups under VARIANT-annotated fields ({metadata: "bin:…", value?: "bin:…", typed_value?})
 * by the Variant value they hold (VariantEncoding.md, VariantShredding.md): `value` decoded with canon.mjs's
 * decoder; a non-null `typed_value` is the value itself (already canonical), a shredded object merges its fields
 * (and the residual `value` object), a shredded array maps its elements.
 */
function decodeVariantStructs(v: unknown, h: SchemaHint | null): unknown {
  if (v === null || v === undefined || h === null) return v;
  if (canon.leafKind(h)?.kind === 'variant') {
    const o = v as Record<string, unknown>;
    const m = typeof o['metadata'] === 'string' ? hexBytes(o['metadata']) : undefined;
    if (m === undefined) return v;
    try {
      const { dict } = canon.decodeVariantMetadata(m);
      const r = shredded(o, canon.structChild(h, 'typed_value'), dict);
      return r === MISSING ? null : r;
    } catch {
      return v; // not decodable: the struct stays, and the comparison shows it
    }
  }
  if (Array.isArray(v)) {
    const isMap = h.converted === 'MAP' || h.converted === 'MAP_KEY_VALUE' || /^Map/i.test(h.logical ?? '');
    if (isMap) {
      const e = canon.mapEntry(h);
      return v.map((x: { key: unknown; value?: unknown }) => ({ key: decodeVariantStructs(x.key, e.key), value: decodeVariantStructs(x.value, e.value) }));
    }
    const eh = canon.listElement(h);
    return v.map((x) => decodeVariantStructs(x, eh));
  }
  if (typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) o[k] = decodeVariantStructs(x, canon.structChild(h, k));
    return o;
  }
  return v;
}

const MISSING = Symbol('missing');

/** One (value, typed_value) pair of a Variant group (VariantShredding.md), MISSING when both are null. */
function shredded(o: Record<string, unknown>, typedHint: SchemaHint | null, dict: string[]): unknown {
  const raw = typeof o['value'] === 'string' ? hexBytes(o['value']) : undefined;
  const typed = o['typed_value'];
  const residual = raw === undefined ? MISSING : canon.decodeVariantValue(dict, raw);
  if (typed === null || typed === undefined) return residual;
  if (typedHint && typedHint.physical === null && Array.isArray(typed)) {
    const eh = canon.listElement(typedHint);
    return typed.map((x) => {
      const r = x === null ? MISSING : shredded(x as Record<string, unknown>, canon.structChild(eh, 'typed_value'), dict);
      return r === MISSING ? null : r;
    });
  }
  if (typedHint && typedHint.physical === null && typeof typed === 'object') {
    const entries: [string, unknown][] = [];
    for (const [k, x] of Object.entries(typed as Record<string, unknown>)) {
      if (x === null) continue;
      const r = shredded(x as Record<string, unknown>, canon.structChild(canon.structChild(typedHint, k), 'typed_value'), dict);
      if (r !== MISSING) entries.push([k, r]);
    }
    if (residual !== MISSING && residual !== null && typeof residual === 'object' && !Array.isArray(residual)) entries.push(...Object.entries(residual as Record<string, unknown>));
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return Object.fromEntries(entries);
  }
  return typed;
}

/**
 * A canonical statistics bound as the comparison string: strings as they are, -0 as "-0", other numbers and
 * booleans as JS prints them, anything else as JSON.
 * @param v - a canonical value (tools/peers/canon.mjs form; a negative zero may be the number -0 or the string "-0").
 * @returns the string form.
 */
export function statString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return JSON.stringify(v);
}

function statsFromJson(list: Record<string, unknown>[]): PeerColumnStats[] {
  return list.map((o) => {
    const s: PeerColumnStats = { path: String(o['path']), rowGroup: Number(o['rowGroup']) };
    if (o['min'] !== undefined && o['min'] !== null) s.min = statString(o['min']);
    if (o['max'] !== undefined && o['max'] !== null) s.max = statString(o['max']);
    if (typeof o['nullCount'] === 'number') s.nullCount = o['nullCount'];
    if (typeof o['distinctCount'] === 'number') s.distinctCount = o['distinctCount'];
    if (typeof o['numValues'] === 'number') s.numValues = o['numValues'];
    return s;
  });
}

function statsResult(result: ChildJson | string, what: string, file: string): PeerColumnStats[] {
  if (typeof result === 'string') throw new ParquetError('PEER_FAILED', `conformance peers: ${what} statistics of ${file} failed: ${result}`);
  if (result.status !== 'ok' || !result.stats) throw new ParquetError('PEER_FAILED', `conformance peers: ${what} statistics of ${file} failed: ${result.error ?? 'no statistics'}`);
  return statsFromJson(result.stats);
}

/**
 * Column-chunk statistics as DuckDB reads them (`parquet_metadata()`: stats_min_value/stats_max_value, else
 * stats_min/stats_max, parsed back from DuckDB's text by the column's type), in a child process.
 * @param file - path of the Parquet file.
 * @param options - the timeout.
 * @returns one entry per column chunk.
 * @throws ParquetError `PEER_FAILED` when DuckDB cannot read the footer, crashes or times out.
 */
export async function statisticsWithDuckDB(file: string, options: PeerReadOptions = {}): Promise<PeerColumnStats[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT;
  return statsResult(parseChild(await runChild(process.execPath, [CHILD, 'stats', 'duckdb', file], '', timeoutMs), 'duckdb', timeoutMs), 'duckdb', file);
}

/**
 * Column-chunk statistics as pyarrow reads them (`pq.ParquetFile(file).metadata`, `min_raw`/`max_raw` converted by
 * the column's type; Arrow C++ leaves out bounds it does not trust), in a child process.
 * @param file - path of the Parquet file.
 * @param options - the timeout.
 * @returns one entry per column chunk.
 * @throws ParquetError `PEER_UNAVAILABLE` when PARQUETRY_PYTHON is not set, `PEER_FAILED` when pyarrow fails.
 */
export async function statisticsWithPyarrow(file: string, options: PeerReadOptions = {}): Promise<PeerColumnStats[]> {
  const py = pythonPath();
  if (py === undefined) throw new ParquetError('PEER_UNAVAILABLE', 'conformance peers: pyarrow statistics need PARQUETRY_PYTHON (a python with pyarrow), which is not set');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT;
  const hints = await hintsOf(file);
  return statsResult(parseChild(await runChild(py, [PYARROW, 'stats', file], JSON.stringify(hints), timeoutMs), 'pyarrow', timeoutMs), 'pyarrow', file);
}

function ourBound(field: LeafField, v: unknown): string {
  if (typeof v === 'number' && Object.is(v, -0)) return '-0';
  return statString(canonField(field, v));
}

/**
 * Column-chunk statistics as Parquetry's reader decodes them (`ParquetFile.statistics`, with its trust rules), in
 * the same string form as the peers.
 * @param file - path of the Parquet file.
 * @returns one entry per column chunk.
 * @throws ParquetError from `openParquet` (`NOT_PARQUET`, `CORRUPT_FOOTER`, …) when the footer cannot be read.
 */
export async function ourStatistics(file: string): Promise<PeerColumnStats[]> {
  const pf = await openParquet(new Uint8Array(fs.readFileSync(file)));
  const out: PeerColumnStats[] = [];
  for (const [g, rg] of pf.metadata.row_groups.entries()) {
    for (const col of pf.schema.columns) {
      const s: PeerColumnStats = { path: col.path.join('.'), rowGroup: g };
      const st = await pf.statistics(g, col.index);
      if (st) {
        if (st.min !== undefined) s.min = ourBound(col.field, st.min);
        if (st.max !== undefined) s.max = ourBound(col.field, st.max);
        if (st.nullCount !== undefined) s.nullCount = Number(st.nullCount);
        if (st.distinctCount !== undefined) s.distinctCount = Number(st.distinctCount);
      }
      const nv = rg.columns[col.index]?.meta_data?.num_values;
      if (nv !== undefined) s.numValues = Number(nv);
      out.push(s);
    }
  }
  return out;
}
