#!/usr/bin/env node
// Reads ONE Parquet file with ONE peer and prints a JSON summary of its canonical rows (see canon.mjs).
// Run in a child process per file and peer (derive-expected.mjs does that), so a peer that crashes, panics or
// hangs on a malformed file cannot take the derivation down with it.
//
//   node peer-read.mjs <duckdb|parquet-wasm|int96> <file> [rowsOut.json] [hints.json]
//
// `duckdb` first writes hints.json (when absent): the Parquet schema tree used as formatting hints (DuckDB
// parquet_schema, else hyparquet's footer parser). With rowsOut, all canonical rows are written there as JSON.
// `int96` is a referee for INT96 columns only (hyparquet, exact BigInt nanoseconds).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { arrowRows, digest, duckdbRows, hintTreeFromDuckDBSchema } from './canon.mjs';

const argv = process.argv.slice(2);
const peer = argv[0] ?? '';
const file = argv[1] ?? '';
const rowsOut = argv[2];
const hintsFile = argv[3];
if (!peer || !file) {
  console.error('usage: peer-read.mjs <duckdb|parquet-wasm|int96> <file> [rowsOut] [hints.json]');
  process.exit(2);
}

/** DuckDB options that matter for the expected values (recorded in every expectation file). */
export const DUCKDB_READ = 'read_parquet(?, binary_as_string=false)';

/** @param {string} name */
function pkgVersion(name) {
  return JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;
}

/** @returns {import('./canon.mjs').Hint | null} */
function loadHints() {
  if (!hintsFile) return null;
  const h = JSON.parse(readFileSync(hintsFile, 'utf8'));
  return h && h.tree ? h.tree : null;
}

/**
 * @param {Record<string, unknown>[]} rows
 * @param {{ name: string, type: string }[]} schema
 * @param {string} version
 */
function emit(rows, schema, version) {
  if (rowsOut) writeFileSync(rowsOut, JSON.stringify(rows));
  process.stdout.write(
    JSON.stringify({ version, status: 'ok', numRows: rows.length, digest: digest(rows), head: rows.slice(0, 10), schema }),
  );
}

/** @param {string} version @param {unknown} e */
function fail(version, e) {
  const msg = e instanceof Error ? e.message : String(e);
  process.stdout.write(JSON.stringify({ version, status: 'error', error: msg.slice(0, 500) }));
}

async function duckdb() {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
  const c = await inst.connect();
  if (hintsFile && !existsSync(hintsFile)) writeFileSync(hintsFile, JSON.stringify(await schemaOf(c)));
  const version = String((await c.runAndReadAll('select version()')).getRows()[0]?.[0]);
  try {
    const r = await c.runAndReadAll(`SELECT * FROM ${DUCKDB_READ}`, [file]);
    const types = r.columnTypes().map((t) => t.toString());
    emit(duckdbRows(r, loadHints()), r.columnNames().map((name, i) => ({ name, type: types[i] ?? '' })), `duckdb ${version} (@duckdb/node-api ${pkgVersion('@duckdb/node-api')})`);
  } catch (e) {
    fail(`duckdb ${version} (@duckdb/node-api ${pkgVersion('@duckdb/node-api')})`, e);
  }
}

async function wasm() {
  const version = `parquet-wasm ${pkgVersion('parquet-wasm')} (arrow-rs), apache-arrow ${pkgVersion('apache-arrow')}`;
  try {
    const { readParquet } = await import('parquet-wasm/node');
    const { tableFromIPC } = await import('apache-arrow');
    const t = readParquet(new Uint8Array(readFileSync(file))).intoIPCStream();
    const table = tableFromIPC(t);
    emit(arrowRows(table, loadHints()), table.schema.fields.map((f) => ({ name: f.name, type: String(f.type) })), version);
  } catch (e) {
    fail(version, e);
  }
}

/**
 * The Parquet schema tree used as formatting hints: DuckDB's parquet_schema, else hyparquet's footer parser.
 * @param {any} c a DuckDB connection
 */
async function schemaOf(c) {
  /** @type {{ source: string, tree: unknown, error?: string }} */
  let out = { source: 'none', tree: null };
  try {
    const r = await c.runAndReadAll('SELECT * FROM parquet_schema(?)', [file]);
    out = { source: 'duckdb parquet_schema', tree: hintTreeFromDuckDBSchema(r.getRowObjectsJson()) };
  } catch (e) {
    try {
      const { parquetMetadata } = await import('hyparquet');
      const buf = readFileSync(file);
      const md = parquetMetadata(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
      const rows = md.schema.map((/** @type {any} */ s) => ({
        name: s.name,
        type: s.type ?? null,
        repetition_type: s.repetition_type ?? null,
        num_children: s.num_children ?? 0,
        converted_type: s.converted_type ?? null,
        scale: s.scale ?? null,
        logical_type: s.logical_type
          ? `${s.logical_type.type[0]}${s.logical_type.type.slice(1).toLowerCase()}Type(isAdjustedToUTC=${s.logical_type.isAdjustedToUTC ? 1 : 0}, unit=${s.logical_type.unit ?? ''})`
          : null,
      }));
      out = { source: 'hyparquet parquetMetadata', tree: hintTreeFromDuckDBSchema(rows), error: String(e) };
    } catch (e2) {
      out = { source: 'none', tree: null, error: `${String(e)}; ${String(e2)}` };
    }
  }
  return out;
}

/**
 * INT96 referee: hyparquet decodes INT96 to exact BigInt nanoseconds (Julian day and nanos of day, no 64-bit
 * overflow); prints the canonical values of the top-level INT96 columns.
 */
async function int96() {
  const { parquetMetadata, parquetReadObjects } = await import('hyparquet');
  const { formatTimestamp } = await import('./canon.mjs');
  const buf = readFileSync(file);
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const md = parquetMetadata(ab);
  const cols = md.schema.filter((/** @type {any} */ s) => s.type === 'INT96').map((/** @type {any} */ s) => s.name);
  const top = new Set(md.schema.slice(1).map((/** @type {any} */ s) => s.name));
  const columns = cols.filter((/** @type {string} */ n) => top.has(n));
  if (columns.length === 0) {
    process.stdout.write(JSON.stringify({ status: 'ok', columns: [], rows: [] }));
    return;
  }
  const rows = await parquetReadObjects({
    file: ab,
    columns,
    parsers: { timestampFromNanoseconds: (/** @type {bigint} */ n) => n },
  });
  const out = rows.map((/** @type {any} */ r) => Object.fromEntries(columns.map((/** @type {string} */ c) => [c, r[c] == null ? null : formatTimestamp(r[c], 'nanos', false)])));
  process.stdout.write(JSON.stringify({ status: 'ok', version: `hyparquet ${pkgVersion('hyparquet')}`, columns, rows: out }));
}

if (peer === 'duckdb') await duckdb();
else if (peer === 'parquet-wasm') await wasm();
else if (peer === 'int96') await int96();
else {
  console.error(`unknown peer ${peer}`);
  process.exit(2);
}
