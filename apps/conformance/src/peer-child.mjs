#!/usr/bin/env node
// Child process of peers.ts: reads ONE Parquet file with ONE JavaScript peer and prints one JSON object on stdout.
// Run as a separate process so a peer that crashes, panics (wasm `unreachable`) or hangs cannot take the test
// process down; peers.ts enforces the timeout.
//
//   node peer-child.mjs rows  <duckdb|parquet-wasm|hyparquet> <file>  -> {status, version, rows, columnErrors?}
//   node peer-child.mjs stats duckdb <file>                           -> {status, version, stats}
//   node peer-child.mjs hints <file>                                  -> {status, tree}  (schema hints, hyparquet footer)
//
// Rows are in the canonical value form of tools/peers/canon.mjs. Statistics bounds are canonical values too
// (a negative zero bound is the string "-0"), which peers.ts turns into strings. Spec: https://github.com/apache/parquet-format/blob/master/README.md
// (schema, Statistics) and LogicalTypes.md (what each annotation means for the value).
import { readFileSync } from 'node:fs';
import {
  arrowRows,
  canonBinary,
  canonInt,
  canonNumber,
  duckdbRows,
  formatDate,
  formatDecimal,
  formatTime,
  formatTimestamp,
  formatUuid,
  hintTreeFromDuckDBSchema,
  leafKind,
  listElement,
  mapEntry,
  rescale,
  sortedObject,
  structChild,
} from '../../../tools/peers/canon.mjs';
import { footerHints } from './peer-hints.mjs';

/** @typedef {import('../../../tools/peers/canon.mjs').Hint} Hint */

const [mode, a1, a2] = process.argv.slice(2);

/** @param {string} name */
function pkgVersion(name) {
  return JSON.parse(readFileSync(new URL(`../../../node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
}

/** @param {unknown} obj */
function out(obj) {
  process.stdout.write(JSON.stringify(obj));
}

/** @param {string} file */
function fileBuffer(file) {
  const b = readFileSync(file);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
}

// ---------------------------------------------------------------------------------------------------------------
// DuckDB

/** DuckDB's read options: BYTE_ARRAY without a STRING annotation stays binary (canonical "bin:"). */
const DUCKDB_READ = 'read_parquet(?, binary_as_string=false)';

async function duckdbConnection() {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
  const c = await inst.connect();
  const version = `duckdb ${String((await c.runAndReadAll('select version()')).getRows()[0]?.[0])} (@duckdb/node-api ${pkgVersion('@duckdb/node-api')})`;
  return { c, version };
}

/** @param {any} c @param {string} file @returns {Promise<Hint | null>} */
async function duckdbHints(c, file) {
  try {
    return hintTreeFromDuckDBSchema((await c.runAndReadAll('SELECT * FROM parquet_schema(?)', [file])).getRowObjectsJson());
  } catch {
    return footerHints(fileBuffer(file));
  }
}

/** @param {string} name */
const quoteIdent = (name) => `"${name.replaceAll('"', '""')}"`;

/** @param {string} file */
async function duckdbRowsOf(file) {
  const { c, version } = await duckdbConnection();
  try {
    const hints = await duckdbHints(c, file);
    // DuckDB reads a TIME with isAdjustedToUTC as TIME WITH TIME ZONE (offset +00), a value class canon.mjs does not
    // take: such top-level columns are cast to TIME (the same clock value, the offset being 0).
    const types = (await c.runAndReadAll(`DESCRIBE SELECT * FROM ${DUCKDB_READ}`, [file])).getRowObjectsJson();
    const names = types.map((t) => String(t['column_name']));
    const timetz = new Set(types.filter((t) => t['column_type'] === 'TIME WITH TIME ZONE').map((t) => String(t['column_name'])));
    /** @param {string[] | undefined} columns */
    const read = async (columns) => {
      const select = (columns ?? names).map((n) => (timetz.has(n) ? `${quoteIdent(n)}::TIME AS ${quoteIdent(n)}` : quoteIdent(n))).join(', ');
      return duckdbRows(await c.runAndReadAll(`SELECT ${select} FROM ${DUCKDB_READ}`, [file]), hints);
    };
    const numRows = Number((await c.runAndReadAll('SELECT num_rows FROM parquet_file_metadata(?)', [file])).getRows()[0]?.[0] ?? 0);
    outRows(await byColumnOnFailure(names, numRows, read), version);
  } catch (e) {
    out({ status: 'error', version, error: message(e) });
  }
}

/**
 * Parses DuckDB's text form of a blob ("\x00\xFFabc": printable ASCII as is, other bytes as \xHH).
 * @param {string} s
 * @returns {Uint8Array}
 */
function duckdbBlob(s) {
  /** @type {number[]} */
  const bytes = [];
  const enc = new TextEncoder();
  for (let i = 0; i < s.length; ) {
    if (s[i] === '\\' && s[i + 1] === 'x' && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 2, i + 4))) {
      bytes.push(parseInt(s.slice(i + 2, i + 4), 16));
      i += 4;
    } else {
      const cp = /** @type {number} */ (s.codePointAt(i));
      const ch = String.fromCodePoint(cp);
      for (const b of enc.encode(ch)) bytes.push(b);
      i += ch.length;
    }
  }
  return Uint8Array.from(bytes);
}

/**
 * "HH:MM:SS[.f]" (DuckDB trims the fraction) to the canonical time with the unit's digits.
 * @param {string} t
 * @param {'millis' | 'micros' | 'nanos'} unit
 */
function duckdbClock(t, unit) {
  const m = /^(\d\d):(\d\d):(\d\d)(?:\.(\d+))?$/.exec(t);
  if (!m) return null;
  const digits = unit === 'millis' ? 3 : unit === 'micros' ? 6 : 9;
  return `${m[1]}:${m[2]}:${m[3]}.${(m[4] ?? '').padEnd(digits, '0')}`;
}

/**
 * "YYYY-MM-DD" or "YYYY-MM-DD (BC)" to the canonical date (formatYear of canon.mjs: 0000-9999, else signed).
 * @param {string} d
 */
function duckdbDate(d) {
  const m = /^(\d{4,})-(\d\d)-(\d\d)( \(BC\))?$/.exec(d);
  if (!m) return null;
  let y = BigInt(/** @type {string} */ (m[1]));
  if (m[4]) y = 1n - y;
  const ys = y >= 0n && y <= 9999n ? y.toString().padStart(4, '0') : (y < 0n ? '-' : '+') + (y < 0n ? -y : y).toString().padStart(4, '0');
  return `${ys}-${m[2]}-${m[3]}`;
}

/**
 * DuckDB's text form of a statistics bound (parquet_metadata stats_min_value/...) to a canonical value, using the
 * leaf's Parquet schema hint. Returns the text unchanged (so a comparison shows it) when it does not parse.
 * @param {string} s
 * @param {Hint | null} h
 * @returns {unknown}
 */
function duckdbStatValue(s, h) {
  const k = leafKind(h);
  const phys = h?.physical ?? null;
  const isString = h?.converted === 'UTF8' || h?.converted === 'JSON' || h?.converted === 'ENUM' || /^(String|Json|Enum)/i.test(h?.logical ?? '');
  if (k?.kind === 'decimal') return s;
  if (k?.kind === 'uuid') return s.toLowerCase();
  if (k?.kind === 'timestamp') {
    const m = /^(.+?) (\d\d:\d\d:\d\d(?:\.\d+)?)(\+00)?$/.exec(s);
    const d = m && duckdbDate(/** @type {string} */ (m[1]).replace(/ \(BC\)$/, ''));
    const t = m && duckdbClock(/** @type {string} */ (m[2]), k.unit);
    return d && t ? `${d}T${t}${k.utc ? 'Z' : ''}` : s;
  }
  if (k?.kind === 'time') return duckdbClock(s.replace(/\+00$/, ''), k.unit) ?? s;
  if (h?.converted === 'DATE' || /^Date/i.test(h?.logical ?? '')) return duckdbDate(s) ?? s;
  if (k?.kind === 'float16') return duckdbFloat(s, false);
  switch (phys) {
    case 'BOOLEAN':
      return s === 'true' ? true : s === 'false' ? false : s;
    case 'INT32':
    case 'INT64':
      return /^-?\d+$/.test(s) ? canonInt(BigInt(s)) : s;
    case 'FLOAT':
    case 'DOUBLE':
      return duckdbFloat(s, phys === 'FLOAT');
    case 'BYTE_ARRAY':
    case 'FIXED_LEN_BYTE_ARRAY':
      return isString ? s : canonBinary(duckdbBlob(s));
    default:
      return s;
  }
}

/**
 * DuckDB's text of a floating-point bound to a canonical number (FLOAT: rounded to binary32 as stored).
 * @param {string} s
 * @param {boolean} single
 */
function duckdbFloat(s, single) {
  const x = /^-?inf$/i.test(s) ? (s.startsWith('-') ? -Infinity : Infinity) : Number(s);
  if (Number.isNaN(x) && !/^-?nan$/i.test(s)) return s;
  const v = single ? Math.fround(x) : x;
  return Object.is(v, -0) ? '-0' : canonNumber(v); // statistics keep the sign of zero (JSON cannot carry -0)
}

/**
 * Hint of a leaf by its path in the schema.
 * @param {Hint | null} tree
 * @param {string[]} path
 */
function leafHint(tree, path) {
  /** @type {Hint | null} */
  let h = tree;
  for (const p of path) h = structChild(h, p);
  return h;
}

/** @param {string} file */
async function duckdbStats(file) {
  const { c, version } = await duckdbConnection();
  try {
    const hints = await duckdbHints(c, file);
    const r = await c.runAndReadAll('SELECT * FROM parquet_metadata(?) ORDER BY row_group_id, column_id', [file]);
    const stats = r.getRowObjectsJson().map((/** @type {Record<string, any>} */ row) => {
      const path = String(row['path_in_schema']).split(', ');
      const h = leafHint(hints, path);
      /** @type {Record<string, unknown>} */
      const o = { path: path.join('.'), rowGroup: Number(row['row_group_id']) };
      // min_value/max_value when the writer stored them, else the deprecated min/max (parquet.thrift Statistics)
      const min = row['stats_min_value'] ?? row['stats_min'];
      const max = row['stats_max_value'] ?? row['stats_max'];
      if (min != null) o['min'] = duckdbStatValue(String(min), h);
      if (max != null) o['max'] = duckdbStatValue(String(max), h);
      if (row['stats_null_count'] != null) o['nullCount'] = Number(row['stats_null_count']);
      if (row['stats_distinct_count'] != null) o['distinctCount'] = Number(row['stats_distinct_count']);
      if (row['num_values'] != null) o['numValues'] = Number(row['num_values']);
      return o;
    });
    out({ status: 'ok', version, stats });
  } catch (e) {
    out({ status: 'error', version, error: message(e) });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// parquet-wasm (arrow-rs) through apache-arrow JS

/**
 * Reads the whole file; when that fails, each top-level column alone, so one column a peer cannot decode does not
 * hide the others. Returns the rows (without the failing columns) and the failing columns' messages.
 * @param {string[]} names top-level column names in schema order
 * @param {number} numRows
 * @param {(columns: string[] | undefined) => Promise<Record<string, unknown>[]>} read canonical rows of these columns (all when undefined)
 */
async function byColumnOnFailure(names, numRows, read) {
  /** @type {Record<string, string>} */
  const columnErrors = {};
  try {
    return { rows: await read(undefined), columnErrors };
  } catch (whole) {
    /** @type {Record<string, unknown[]>} */
    const cols = {};
    for (const n of names) {
      try {
        cols[n] = (await read([n])).map((r) => r[n]);
      } catch (e) {
        columnErrors[n] = message(e);
      }
    }
    if (Object.keys(cols).length === 0) throw whole;
    /** @type {Record<string, unknown>[]} */
    const rows = [];
    for (let i = 0; i < numRows; i++) {
      /** @type {Record<string, unknown>} */
      const r = {};
      for (const n of names) if (n in cols) r[n] = cols[n]?.[i];
      rows.push(r);
    }
    return { rows, columnErrors };
  }
}

/**
 * @param {{ rows: Record<string, unknown>[], columnErrors: Record<string, string> }} r
 * @param {string} version
 */
function outRows(r, version) {
  out({ status: 'ok', version, rows: r.rows, ...(Object.keys(r.columnErrors).length ? { columnErrors: r.columnErrors } : {}) });
}

/**
 * arrow-rs honours a stored ARROW:schema, so a pyarrow large_list comes back as Arrow LargeList (64-bit offsets),
 * which canon.mjs's fromArrow does not take: each LargeList Data is re-typed as List over the same buffers (its
 * offsets are read through Number(), so BigInt64 offsets work).
 * @param {any} table
 * @param {any} List the apache-arrow List class
 */
function narrowTable(table, List) {
  /** @param {any} d @returns {any} */
  const narrow = (d) => {
    const children = d.children.map(narrow);
    const type = d.type.typeId === 21 ? new List(d.type.children[0]) : d.type;
    return type === d.type && children.every((/** @type {any} */ c, /** @type {number} */ i) => c === d.children[i]) ? d : d.clone(type, d.offset, d.length, d._nullCount, d.buffers, children);
  };
  const batches = table.batches.filter((/** @type {any} */ b) => b.numRows > 0);
  return { schema: table.schema, batches: batches.map((/** @type {any} */ b) => ({ numRows: b.numRows, data: { children: b.data.children.map(narrow) } })) };
}

/** @param {string} file */
async function wasmRows(file) {
  const version = `parquet-wasm ${pkgVersion('parquet-wasm')} (arrow-rs), apache-arrow ${pkgVersion('apache-arrow')}`;
  try {
    const ab = fileBuffer(file);
    const hints = await footerHints(ab);
    const { readParquet } = await import('parquet-wasm/node');
    const { tableFromIPC, List } = await import('apache-arrow');
    const bytes = new Uint8Array(ab);
    const names = (hints?.children ?? []).map((c) => c.name);
    const { parquetMetadata } = await import('hyparquet');
    const numRows = Number(parquetMetadata(ab, { geoparquet: false }).num_rows);
    /** @param {string[] | undefined} columns */
    const read = async (columns) => arrowRows(narrowTable(tableFromIPC(readParquet(bytes, columns ? { columns } : null).intoIPCStream()), List), hints);
    outRows(await byColumnOnFailure(names, numRows, read), version);
  } catch (e) {
    out({ status: 'error', version, error: message(e) });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// hyparquet

/** A timestamp as hyparquet's parser hook gives it: the count in the column's unit (never through Date). */
class HyTimestamp {
  /** @param {bigint} count @param {'millis' | 'micros' | 'nanos'} unit */
  constructor(count, unit) {
    this.count = count;
    this.unit = unit;
  }
}
/** A DATE as hyparquet's parser hook gives it. */
class HyDate {
  /** @param {number} days */
  constructor(days) {
    this.days = days;
  }
}

const utf8 = new TextDecoder();
/** hyparquet parsers that keep exact values (its defaults make Date objects, which drop sub-millisecond digits). */
const HY_PARSERS = {
  timestampFromMilliseconds: (/** @type {bigint} */ v) => new HyTimestamp(BigInt(v), 'millis'),
  timestampFromMicroseconds: (/** @type {bigint} */ v) => new HyTimestamp(BigInt(v), 'micros'),
  timestampFromNanoseconds: (/** @type {bigint} */ v) => new HyTimestamp(BigInt(v), 'nanos'),
  dateFromDays: (/** @type {number} */ d) => new HyDate(d),
  stringFromBytes: (/** @type {Uint8Array | undefined} */ b) => b && utf8.decode(b),
  jsonFromBytes: (/** @type {Uint8Array | undefined} */ b) => b && utf8.decode(b),
  geometryFromBytes: (/** @type {Uint8Array | undefined} */ b) => b,
  geographyFromBytes: (/** @type {Uint8Array | undefined} */ b) => b,
};

/**
 * A hyparquet timestamp in canonical form, in the column's unit and UTC flag when the hint gives them (as canon.mjs
 * does for the other peers; a count that does not rescale exactly keeps its own unit).
 * @param {HyTimestamp} t
 * @param {ReturnType<typeof leafKind>} k
 */
function hyTimestamp(t, k) {
  let unit = t.unit;
  let utc = false;
  if (k?.kind === 'int96') unit = 'nanos';
  else if (k?.kind === 'timestamp') {
    unit = k.unit;
    utc = k.utc;
  }
  const c = rescale(t.count, t.unit, unit);
  return c === null ? formatTimestamp(t.count, t.unit, utc) : formatTimestamp(c, unit, utc);
}

/**
 * Map keys come back from hyparquet as property names (strings); restore integer and boolean keys by the key's
 * Parquet type.
 * @param {string} key
 * @param {Hint | null} h
 */
function hyMapKey(key, h) {
  const k = leafKind(h);
  if (k === null && (h?.physical === 'INT32' || h?.physical === 'INT64') && /^-?\d+$/.test(key)) return canonInt(BigInt(key));
  if (h?.physical === 'BOOLEAN') return key === 'true';
  return key;
}

/**
 * A value inside a VARIANT as hyparquet decodes it, to canonical form (objects with sorted keys).
 * @param {unknown} v
 * @returns {unknown}
 */
function hyVariant(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return canonInt(v);
  if (typeof v === 'number') return canonNumber(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Uint8Array) return canonBinary(v);
  if (v instanceof HyDate) return formatDate(v.days);
  if (v instanceof HyTimestamp) return formatTimestamp(v.count, v.unit, false);
  if (Array.isArray(v)) return v.map(hyVariant);
  return sortedObject(Object.entries(/** @type {Record<string, unknown>} */ (v)).map(([key, x]) => [key, hyVariant(x)]));
}

/**
 * One value read by hyparquet (`parquetReadObjects`, utf8 false, the parsers above) to canonical form.
 * @param {unknown} v
 * @param {Hint | null} h
 * @returns {unknown}
 */
function fromHyparquet(v, h) {
  if (v === null || v === undefined) return null;
  const k = leafKind(h);
  if (k?.kind === 'variant') return hyVariant(v);
  if (v instanceof HyTimestamp) return hyTimestamp(v, k);
  if (v instanceof HyDate) return formatDate(v.days);
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') {
    if (k?.kind === 'decimal') return decimalFromNumber(v, k.scale);
    if (k?.kind === 'time') return formatTime(BigInt(v), k.unit);
    return canonNumber(v);
  }
  if (typeof v === 'bigint') {
    if (k?.kind === 'time') return formatTime(v, k.unit);
    return canonInt(v);
  }
  if (v instanceof Uint8Array) {
    if (k?.kind === 'uuid') return formatUuid(v);
    return canonBinary(v);
  }
  if (Array.isArray(v)) {
    const eh = listElement(h);
    return v.map((x) => fromHyparquet(x, eh));
  }
  if (typeof v === 'object') {
    const hint = /** @type {Hint | null} */ (h);
    if (hint && (hint.converted === 'MAP' || hint.converted === 'MAP_KEY_VALUE' || /^Map/i.test(hint.logical ?? ''))) {
      const e = mapEntry(hint);
      return Object.entries(/** @type {Record<string, unknown>} */ (v)).map(([key, x]) => ({ key: hyMapKey(key, e.key), value: fromHyparquet(x, e.value) }));
    }
    /** @type {Record<string, unknown>} */
    const o = {};
    for (const [name, x] of Object.entries(/** @type {Record<string, unknown>} */ (v))) o[name] = fromHyparquet(x, structChild(hint, name));
    return o;
  }
  throw new Error(`canon: unexpected hyparquet value ${typeof v}`);
}

/**
 * A DECIMAL that hyparquet returned as a JS number (unscaled / 10^scale), printed with `scale` fractional digits.
 * Exact while the unscaled value has at most 15 significant digits.
 * @param {number} x
 * @param {number} scale
 */
function decimalFromNumber(x, scale) {
  if (!Number.isFinite(x)) return canonNumber(x);
  if (scale <= 0) return formatDecimal(BigInt(Math.round(x)), 0);
  if (scale > 100) return String(x);
  const s = x.toFixed(scale);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** @param {string} file */
async function hyparquetRows(file) {
  const version = `hyparquet ${pkgVersion('hyparquet')}, hyparquet-compressors ${pkgVersion('hyparquet-compressors')}`;
  try {
    const ab = fileBuffer(file);
    const { parquetMetadata, parquetReadObjects } = await import('hyparquet');
    const { compressors } = await import('hyparquet-compressors');
    const hints = await footerHints(ab);
    const metadata = parquetMetadata(ab, { geoparquet: false });
    const names = (hints?.children ?? []).map((c) => c.name);
    /** @param {string[] | undefined} columns */
    const read = async (columns) => {
      // One column hyparquet cannot read (INTERVAL, BSON) fails the whole read.
      const raw = await parquetReadObjects({ file: ab, metadata, compressors, utf8: false, parsers: HY_PARSERS, ...(columns ? { columns } : {}) });
      return raw.map((r) => {
        /** @type {Record<string, unknown>} */
        const o = {};
        for (const n of columns ?? names) o[n] = fromHyparquet(r[n], structChild(hints, n));
        return o;
      });
    };
    outRows(await byColumnOnFailure(names, Number(metadata.num_rows), read), version);
  } catch (e) {
    out({ status: 'error', version, error: message(e) });
  }
}

// ---------------------------------------------------------------------------------------------------------------

/** @param {unknown} e */
function message(e) {
  return (e instanceof Error ? e.message : String(e)).slice(0, 1000);
}

if (mode === 'rows' && a1 === 'duckdb' && a2) await duckdbRowsOf(a2);
else if (mode === 'rows' && a1 === 'parquet-wasm' && a2) await wasmRows(a2);
else if (mode === 'rows' && a1 === 'hyparquet' && a2) await hyparquetRows(a2);
else if (mode === 'stats' && a1 === 'duckdb' && a2) await duckdbStats(a2);
else if (mode === 'hints' && a1) out({ status: 'ok', tree: await footerHints(fileBuffer(a1)) });
else {
  process.stderr.write('usage: peer-child.mjs rows <duckdb|parquet-wasm|hyparquet> FILE | stats duckdb FILE | hints FILE\n');
  process.exit(2);
}
