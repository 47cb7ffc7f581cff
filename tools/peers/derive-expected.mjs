#!/usr/bin/env node
// Derives independent expected values for every file of the upstream parquet-testing corpus from two peer readers
// (DuckDB via @duckdb/node-api, parquet-wasm/arrow-rs read through apache-arrow), converts both to the canonical
// form of canon.mjs, compares them with each other and with the upstream expectations that exist
// (data/*_expect.csv, shredded_variant/cases.json + *.variant.bin), and writes fixtures/expected/<path>.json plus
// fixtures/expected/SUMMARY.md. Not run by tests (takes a few minutes):
//
//   node tools/peers/derive-expected.mjs [corpusDir] [--only substring] [--summary (only rewrite SUMMARY.md)]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonRows, decodeVariantBin, digest, formatInt96 } from './canon.mjs';
import { REVIEW } from './review.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const args = process.argv.slice(2);
const onlyIdx = args.indexOf('--only');
const only = onlyIdx >= 0 ? args[onlyIdx + 1] : undefined;
const corpus = resolve(args.find((a, i) => !a.startsWith('--') && i !== onlyIdx + 1) ?? join(repo, '../shared/parquet-testing'));
const outDir = join(repo, 'fixtures/expected');
const work = join(tmpdir(), `parquetry-peers-${process.pid}`);
const ROWS_STORED_MAX = 200;
const HEAD = 10;

/**
 * Every corpus file the conformance runner reads, relative to the corpus root, sorted.
 * @param {string} root
 * @returns {string[]}
 */
export function corpusFiles(root) {
  /** @type {string[]} */
  const out = [];
  for (const dir of ['data', 'data/aes256', 'data/geospatial', 'shredded_variant', 'bad_data']) {
    const abs = join(root, dir);
    if (!existsSync(abs)) continue;
    for (const f of readdirSync(abs)) {
      if (f.endsWith('.parquet') || f.endsWith('.parquet.encrypted')) out.push(`${dir}/${f}`);
    }
  }
  return out.sort();
}

/** @param {string} rel */
export const expectationName = (rel) => `${rel.replaceAll('/', '__')}.json`;

/**
 * @param {string[]} argv
 * @returns {any}
 */
function child(argv) {
  const r = spawnSync(process.execPath, [join(here, 'peer-read.mjs'), ...argv], { encoding: 'utf8', timeout: 180_000, maxBuffer: 256 << 20 });
  if (r.error || r.status !== 0 || !r.stdout) {
    const why = r.error ? String(r.error.message) : r.signal ? `killed by ${r.signal}` : `exit ${r.status}: ${(r.stderr || '').slice(-300)}`;
    return { status: 'error', error: `peer process failed (${why})` };
  }
  return JSON.parse(r.stdout);
}

/** @param {unknown} v */
const short = (v) => {
  const s = JSON.stringify(v) ?? 'undefined';
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

/**
 * Where two canonical row sets differ: per column, the first differing row.
 * @param {Record<string, unknown>[]} a
 * @param {Record<string, unknown>[]} b
 */
function diffRows(a, b) {
  /** @type {string[]} */
  const out = [];
  if (a.length !== b.length) out.push(`row count: duckdb ${a.length}, parquet-wasm ${b.length}`);
  const cols = [...new Set([...Object.keys(a[0] ?? {}), ...Object.keys(b[0] ?? {})])];
  const ka = Object.keys(a[0] ?? {});
  const kb = Object.keys(b[0] ?? {});
  if (ka.join('\u0000') !== kb.join('\u0000')) out.push(`columns: duckdb [${ka.join(', ')}], parquet-wasm [${kb.join(', ')}]`);
  const n = Math.min(a.length, b.length);
  for (const c of cols) {
    let count = 0;
    let first = -1;
    for (let i = 0; i < n; i++) {
      if (JSON.stringify(a[i]?.[c]) !== JSON.stringify(b[i]?.[c])) {
        if (first < 0) first = i;
        count++;
      }
    }
    if (count) out.push(`column ${c}: ${count} of ${n} rows differ; first at row ${first}: duckdb ${short(a[first]?.[c])}, parquet-wasm ${short(b[first]?.[c])}`);
  }
  return out;
}

/**
 * Minimal RFC 4180 CSV parser: quoted cells are strings, an empty unquoted cell is null.
 * @param {string} text
 */
function parseCsv(text) {
  /** @type {(string | null)[][]} */
  const rows = [];
  let row = [];
  let i = 0;
  while (i < text.length) {
    let cell = null;
    if (text[i] === '"') {
      let s = '';
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw new Error('csv: unterminated quote');
        s += text.slice(i, q);
        i = q + 1;
        if (text[i] === '"') {
          s += '"';
          i++;
        } else break;
      }
      cell = s;
    } else {
      let z = i;
      while (z < text.length && text[z] !== ',' && text[z] !== '\n' && text[z] !== '\r') z++;
      cell = z > i ? text.slice(i, z) : null;
      i = z;
    }
    row.push(cell);
    if (text[i] === ',') i++;
    else {
      if (text[i] === '\r') i++;
      if (text[i] === '\n') i++;
      rows.push(row);
      row = [];
    }
  }
  if (row.length) rows.push(row);
  return rows;
}

/**
 * Compares canonical rows with an upstream *_expect.csv (by column position; a cell equals the canonical value's
 * string form, an empty unquoted cell is null).
 * @param {Record<string, unknown>[]} rows
 * @param {string} csvText
 * @returns {{ equal: boolean, detail?: string }}
 */
function compareCsv(rows, csvText) {
  const [header, ...body] = parseCsv(csvText);
  if (!header) return { equal: false, detail: 'empty csv' };
  if (body.length !== rows.length) return { equal: false, detail: `row count: csv ${body.length}, peer ${rows.length}` };
  for (let r = 0; r < body.length; r++) {
    const vals = Object.values(rows[r] ?? {});
    const cells = body[r] ?? [];
    if (vals.length !== cells.length) return { equal: false, detail: `row ${r}: ${cells.length} csv cells, ${vals.length} peer columns` };
    for (let c = 0; c < cells.length; c++) {
      const v = vals[c];
      const got = v === null ? null : typeof v === 'object' ? JSON.stringify(v) : String(v);
      if (got !== cells[c]) return { equal: false, detail: `row ${r} column ${header[c]}: csv ${short(cells[c])}, peer ${short(v)}` };
    }
  }
  return { equal: true };
}

function main() {
  if (!existsSync(corpus)) {
    console.error(`corpus not found: ${corpus}`);
    process.exit(1);
  }
  mkdirSync(outDir, { recursive: true });
  mkdirSync(work, { recursive: true });
  const cases = existsSync(join(corpus, 'shredded_variant/cases.json'))
    ? JSON.parse(readFileSync(join(corpus, 'shredded_variant/cases.json'), 'utf8'))
    : [];
  /** @type {Map<string, any>} */
  const caseByFile = new Map(cases.filter((/** @type {any} */ c) => c.parquet_file).map((/** @type {any} */ c) => [`shredded_variant/${c.parquet_file}`, c]));
  const files = args.includes('--summary') ? [] : corpusFiles(corpus).filter((f) => !only || f.includes(only));
  /** @type {any[]} */
  const summary = [];
  for (const rel of files) {
    const t0 = Date.now();
    const abs = join(corpus, rel);
    const base = join(work, rel.replaceAll('/', '__'));
    /** @type {any} */
    const out = { file: rel, kind: kindOf(rel), peers: {}, agree: false, trusted: 'none', notes: [] };
    const encrypted = rel.endsWith('.encrypted');
    if (encrypted) {
      for (const p of ['duckdb', 'parquet-wasm']) out.peers[p] = { status: 'skipped', error: 'encrypted (Parquet modular encryption): the peers cannot decrypt it' };
      out.notes.push('Encrypted file: neither peer can read Parquet modular encryption, so no peer expectation exists. Expected values must come from the decrypting reader checked against the plaintext files with the same content (the upstream encrypted files hold the same data in every variant).');
      finish(out, summary, t0);
      continue;
    }
    const hintsPath = `${base}.hints.json`;
    rmSync(hintsPath, { force: true });
    /** @type {Record<string, Record<string, unknown>[] | null>} */
    const rowsOf = {};
    for (const p of ['duckdb', 'parquet-wasm']) {
      const rowsPath = `${base}.${p}.rows.json`;
      rmSync(rowsPath, { force: true });
      const r = child([p, abs, rowsPath, hintsPath]); // the DuckDB child writes the schema hints first
      out.peers[p] = r;
      rowsOf[p] = r.status === 'ok' && existsSync(rowsPath) ? JSON.parse(readFileSync(rowsPath, 'utf8')) : null;
    }
    const hints = existsSync(hintsPath) ? JSON.parse(readFileSync(hintsPath, 'utf8')) : { source: 'none', tree: null };
    if (hints.source !== 'duckdb parquet_schema') out.notes.push(`schema hints from ${hints.source}${hints.error ? ` (DuckDB parquet_schema failed: ${String(hints.error).slice(0, 200)})` : ''}`);
    // INT96 referee: exact nanoseconds from hyparquet for top-level INT96 columns.
    /** @type {any} */
    let referee = null;
    if ((hints.tree?.children ?? []).some((/** @type {any} */ c) => c.physical === 'INT96')) {
      referee = child(['int96', abs]);
      if (referee.status === 'ok') {
        out.int96Referee = { version: referee.version, columns: referee.columns, agrees: {} };
        for (const p of ['duckdb', 'parquet-wasm']) {
          const rows = rowsOf[p];
          const same = !!rows && rows.length === referee.rows.length && referee.rows.every((/** @type {any} */ rr, /** @type {number} */ i) => referee.columns.every((/** @type {string} */ c) => rows[i]?.[c] === rr[c]));
          out.int96Referee.agrees[p] = same;
        }
        out.notes.push(`INT96 columns cross-checked with ${referee.version} (BigInt nanoseconds; exact for in-range values, but it ORs a negative nanos-of-day field into the day bits): duckdb ${out.int96Referee.agrees.duckdb ? 'matches' : 'differs'}, parquet-wasm ${out.int96Referee.agrees['parquet-wasm'] ? 'matches' : 'differs'}`);
      }
    }
    const d = out.peers.duckdb;
    const w = out.peers['parquet-wasm'];
    out.agree = d.status === 'ok' && w.status === 'ok' && d.digest === w.digest;
    if (d.status === 'ok' && w.status === 'ok' && !out.agree) {
      out.diff = diffRows(rowsOf.duckdb ?? [], rowsOf['parquet-wasm'] ?? []);
    }

    // Upstream expectations.
    /** @type {Record<string, unknown>[] | null} */
    let upstreamRows = null;
    const csvPath = abs.replace(/\.parquet$/, '_expect.csv');
    if (rel.startsWith('data/') && existsSync(csvPath)) {
      const text = readFileSync(csvPath, 'utf8');
      out.upstream = { source: relative(corpus, csvPath), agrees: {} };
      for (const p of ['duckdb', 'parquet-wasm']) {
        const rows = rowsOf[p];
        const cmp = rows ? compareCsv(rows, text) : { equal: false, detail: 'peer failed' };
        out.upstream.agrees[p] = cmp.equal;
        if (!cmp.equal) out.upstream[`${p}Mismatch`] = cmp.detail;
      }
    }
    const vcase = caseByFile.get(rel);
    if (vcase) {
      out.upstream = { source: 'shredded_variant/cases.json', case: vcase.case_number, test: vcase.test, agrees: {} };
      if (vcase.notes) out.upstream.notes = vcase.notes;
      if (vcase.error_message) {
        out.upstream.error = vcase.error_message;
        for (const p of ['duckdb', 'parquet-wasm']) out.upstream.agrees[p] = out.peers[p].status === 'error';
      } else {
        const bins = vcase.variant_files ?? [vcase.variant_file];
        /** @type {unknown[]} */
        const expected = bins.map((/** @type {string | null} */ b) => (b === null ? null : decodeVariantBin(new Uint8Array(readFileSync(join(corpus, 'shredded_variant', b))))));
        out.upstream.variants = expected;
        const col = 'var';
        const urows = expected.map((v) => ({ [col]: v }));
        upstreamRows = urows;
        for (const p of ['duckdb', 'parquet-wasm']) {
          const rows = rowsOf[p];
          const got = rows ? rows.map((r) => ({ [col]: r[col] })) : null;
          out.upstream.agrees[p] = got !== null && canonRows(got) === canonRows(urows);
          if (got && !out.upstream.agrees[p]) {
            const i = got.findIndex((g, k) => JSON.stringify(g) !== JSON.stringify(urows[k]));
            out.upstream[`${p}Mismatch`] = `row ${i}: expected ${short(urows[i]?.[col])}, got ${short(got[i]?.[col])}`;
          }
        }
      }
    }

    if (out.kind === 'shredded_variant' && w.status === 'ok') {
      out.notes.push('parquet-wasm (arrow-rs) does not decode VARIANT: it returns the raw shredded struct {metadata, value, typed_value}, so its rows are not comparable with decoded variants');
    }
    // Trust.
    const review = REVIEW[rel];
    if (out.upstream) {
      const ok = ['duckdb', 'parquet-wasm'].filter((p) => out.upstream.agrees[p] && out.peers[p].status === 'ok');
      out.trusted = ok[0] ?? 'none';
      const ag = ['duckdb', 'parquet-wasm'].map((p) => `${p} ${out.upstream.agrees[p] ? 'agrees' : 'disagrees'}`).join(', ');
      out.notes.push(`upstream expectation ${out.upstream.source}: ${ag}`);
    } else if (out.agree) {
      out.trusted = 'duckdb';
    } else if (d.status === 'ok' && w.status !== 'ok') {
      out.trusted = 'duckdb';
      out.notes.push('only DuckDB reads this file; its values are unconfirmed by a second peer');
    } else if (w.status === 'ok' && d.status !== 'ok') {
      out.trusted = 'parquet-wasm';
      out.notes.push('only parquet-wasm reads this file; its values are unconfirmed by a second peer');
    }
    if (out.kind === 'bad_data') {
      // Every bad_data file must be rejected (issue 8: 8 bad_data files + 6 shredded_variant error cases); a peer
      // that returns rows here is lenient or silently wrong, so no peer is trusted for values.
      out.trusted = 'none';
    }
    if (review) {
      out.trusted = review.trusted;
      out.notes.push(...review.notes);
    } else if (d.status === 'ok' && w.status === 'ok' && !out.agree && !out.upstream) {
      out.notes.push('UNREVIEWED: the peers disagree and no review entry says which is right');
    }
    if (out.kind === 'bad_data') {
      out.notes.push('bad_data: must be rejected with a typed error (never a crash, hang or wrong data); peer results here are informational only');
    }

    // Expected block: what the conformance runner compares with.
    if (vcase?.error_message) {
      out.expected = { source: 'upstream', error: vcase.error_message };
    } else if (upstreamRows) {
      out.expected = { source: 'upstream', column: 'var', numRows: upstreamRows.length, digest: digest(upstreamRows), rows: upstreamRows };
    } else if (review?.described) {
      out.expected = { source: 'review: DuckDB SQL facts', numRows: review.described.length, digest: digestDescribed(review.described), described: review.described };
    } else if (review?.int96Raw) {
      // Hand-decoded INT96 values (raw bytes recorded in review.mjs, converted by canon.formatInt96); the other
      // columns from the trusted peer (or DuckDB).
      const src = rowsOf[out.trusted === 'none' ? 'duckdb' : out.trusted] ?? [];
      const fix = review.int96Raw;
      const rows = src.map((r, i) => ({
        ...r,
        ...Object.fromEntries(Object.entries(fix).map(([c, hexes]) => [c, hexes[i] == null ? null : formatInt96(Uint8Array.from(Buffer.from(String(hexes[i]), 'hex')))])),
      }));
      out.expected = { source: 'review: raw INT96 bytes', numRows: rows.length, digest: digest(rows) };
      if (rows.length <= ROWS_STORED_MAX) out.expected.rows = rows;
    } else if (out.kind === 'bad_data') {
      out.expected = { source: 'corpus', error: 'malformed file (bad_data): must be rejected with a typed error' };
    } else if (review?.transform && (out.trusted === 'duckdb' || out.trusted === 'parquet-wasm') && rowsOf[out.trusted]) {
      const rows = review.transform(rowsOf[out.trusted] ?? []);
      out.expected = { source: `review: ${out.trusted} rows, transformed`, numRows: rows.length, digest: digest(rows) };
      if (rows.length <= ROWS_STORED_MAX) out.expected.rows = rows;
    } else if (out.trusted === 'duckdb' || out.trusted === 'parquet-wasm') {
      const p = out.peers[out.trusted];
      const rows = rowsOf[out.trusted];
      out.expected = { source: out.trusted, numRows: p.numRows, digest: p.digest };
      if (rows && rows.length <= ROWS_STORED_MAX) out.expected.rows = rows;
    } else {
      out.expected = null;
    }
    if (review?.errorWhenVerifying && out.expected) out.expected.errorWhenVerifyingChecksums = review.errorWhenVerifying;
    // Keep both peers' rows for small files where they disagree, so reviewers see the values.
    if (!out.agree) {
      for (const p of ['duckdb', 'parquet-wasm']) {
        const rows = rowsOf[p];
        if (rows && rows.length <= ROWS_STORED_MAX && out.peers[p].digest !== out.expected?.digest) out.peers[p].rows = rows;
      }
    }
    if (out.expected?.rows && out.peers.duckdb.digest === out.expected.digest) delete out.peers.duckdb.head;
    if (out.expected?.rows && out.peers['parquet-wasm'].digest === out.expected.digest) delete out.peers['parquet-wasm'].head;
    finish(out, summary, t0);
  }
  rmSync(work, { recursive: true, force: true });
  // The summary covers every expectation file present (so a partial run with --only still refreshes it).
  const all = readdirSync(outDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(outDir, f), 'utf8')));
  writeSummary(all);
}

/**
 * sha256 of canonRows(rows) where rows may contain {"$repeat": s, "count": n} standing for s repeated n times
 * (streamed, so strings longer than V8 allows can be hashed).
 * @param {unknown[]} rows
 */
export function digestDescribed(rows) {
  const h = createHash('sha256');
  const text = canonRows(rows);
  const re = /\{"\$repeat":("(?:[^"\\]|\\.)*"),"count":(\d+)\}/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    h.update(text.slice(last, m.index));
    const unit = JSON.stringify(JSON.parse(m[1] ?? '""')).slice(1, -1);
    let n = Number(m[2]);
    h.update('"');
    const block = unit.repeat(Math.max(1, Math.floor((1 << 20) / Math.max(1, unit.length))));
    const per = block.length / Math.max(1, unit.length);
    while (n >= per) {
      h.update(block);
      n -= per;
    }
    h.update(unit.repeat(n));
    h.update('"');
    last = (m.index ?? 0) + m[0].length;
  }
  h.update(text.slice(last));
  return h.digest('hex');
}

/** @param {string} rel */
function kindOf(rel) {
  if (rel.startsWith('bad_data/')) return 'bad_data';
  if (rel.endsWith('.encrypted')) return 'encrypted';
  if (rel.startsWith('shredded_variant/')) return 'shredded_variant';
  return 'valid';
}

/** @param {any} out @param {any[]} summary @param {number} t0 */
function finish(out, summary, t0) {
  writeFileSync(join(outDir, expectationName(out.file)), `${JSON.stringify(out, null, 1)}\n`);
  summary.push(out);
  console.log(`${out.file}: duckdb ${out.peers.duckdb.status}, parquet-wasm ${out.peers['parquet-wasm'].status}, agree ${out.agree}, trusted ${out.trusted} (${Date.now() - t0} ms)`);
}

/** @param {any[]} all */
function writeSummary(all) {
  const cnt = (/** @type {(o: any) => boolean} */ f) => all.filter(f).length;
  const ok = (/** @type {any} */ o, /** @type {string} */ p) => o.peers[p].status === 'ok';
  const lines = [
    '# Expected values for the parquet-testing corpus (derived from peers)',
    '',
    'Generated by `node tools/peers/derive-expected.mjs` (do not edit by hand; review notes live in',
    '`tools/peers/review.mjs`). Values are in the canonical form of `tools/peers/canon.mjs`; `digest` is the',
    'sha256 of `canonRows(rows)`. DuckDB reads with `read_parquet(?, binary_as_string=false)`, threads=1;',
    'parquet-wasm with `readParquet(bytes)` and Arrow IPC into apache-arrow.',
    '',
    `- files: ${all.length}`,
    `- both peers ok and agree: ${cnt((o) => o.agree)}`,
    `- both ok but disagree: ${cnt((o) => ok(o, 'duckdb') && ok(o, 'parquet-wasm') && !o.agree)}`,
    `- only DuckDB ok: ${cnt((o) => ok(o, 'duckdb') && !ok(o, 'parquet-wasm'))}`,
    `- only parquet-wasm ok: ${cnt((o) => !ok(o, 'duckdb') && ok(o, 'parquet-wasm'))}`,
    `- both fail: ${cnt((o) => o.peers.duckdb.status === 'error' && o.peers['parquet-wasm'].status === 'error')}`,
    `- skipped (encrypted): ${cnt((o) => o.kind === 'encrypted')}`,
    `- upstream expectation present: ${cnt((o) => !!o.upstream)}; DuckDB agrees with it: ${cnt((o) => o.upstream?.agrees?.duckdb)}; parquet-wasm agrees: ${cnt((o) => o.upstream?.agrees?.['parquet-wasm'])}`,
    `- expected values available (rows or digest): ${cnt((o) => o.expected && !o.expected.error)}; expected error: ${cnt((o) => o.expected?.error)}; no expectation: ${cnt((o) => !o.expected)}`,
    '',
    '| kind | files | both ok, agree | both ok, disagree | only DuckDB ok | only parquet-wasm ok | both fail/skipped | trusted duckdb | trusted parquet-wasm | trusted none |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...['valid', 'encrypted', 'shredded_variant', 'bad_data'].map((k) => {
      const g = all.filter((o) => o.kind === k);
      const c = (/** @type {(o: any) => boolean} */ f) => g.filter(f).length;
      return `| ${k} | ${g.length} | ${c((o) => o.agree)} | ${c((o) => ok(o, 'duckdb') && ok(o, 'parquet-wasm') && !o.agree)} | ${c((o) => ok(o, 'duckdb') && !ok(o, 'parquet-wasm'))} | ${c((o) => !ok(o, 'duckdb') && ok(o, 'parquet-wasm'))} | ${c((o) => !ok(o, 'duckdb') && !ok(o, 'parquet-wasm'))} | ${c((o) => o.trusted === 'duckdb')} | ${c((o) => o.trusted === 'parquet-wasm')} | ${c((o) => o.trusted === 'none')} |`;
    }),
    '',
    'For shredded_variant files the expectation is always the upstream variant binary; parquet-wasm does not decode',
    'VARIANT, so its rows never match there. For bad_data the expectation is a typed error.',
    '',
    '| file | kind | rows | duckdb | parquet-wasm | agree | upstream | trusted | note |',
    '|---|---|---:|---|---|---|---|---|---|',
  ];
  for (const o of all) {
    const st = (/** @type {string} */ p) => o.peers[p].status;
    const up = o.upstream ? ['duckdb', 'parquet-wasm'].map((p) => `${p === 'duckdb' ? 'D' : 'W'}:${o.upstream.agrees[p] ? 'yes' : 'no'}`).join(' ') : '';
    const rows = o.expected?.numRows ?? o.peers.duckdb.numRows ?? o.peers['parquet-wasm'].numRows ?? '';
    const skip = ['upstream', 'bad_data:', 'schema hints', 'parquet-wasm (arrow-rs) does not decode VARIANT', 'INT96 columns cross-checked'];
    const firstLine = (/** @type {string | undefined} */ e) => (e ?? '').split('\n')[0];
    const badNote = o.kind === 'bad_data' ? `DuckDB: ${o.peers.duckdb.status === 'ok' ? `reads ${o.peers.duckdb.numRows} rows` : firstLine(o.peers.duckdb.error)}; parquet-wasm: ${o.peers['parquet-wasm'].status === 'ok' ? `reads ${o.peers['parquet-wasm'].numRows} rows` : firstLine(o.peers['parquet-wasm'].error)}` : undefined;
    const note = (REVIEW[o.file]?.notes[0] ?? badNote ?? o.notes.find((/** @type {string} */ n) => !skip.some((k) => n.startsWith(k))) ?? o.notes[0] ?? '').replaceAll('|', '\\|');
    lines.push(`| ${o.file} | ${o.kind} | ${rows} | ${st('duckdb')} | ${st('parquet-wasm')} | ${o.agree ? 'yes' : 'no'} | ${up} | ${o.trusted} | ${note.length > 140 ? `${note.slice(0, 137)}...` : note} |`);
  }
  writeFileSync(join(outDir, 'SUMMARY.md'), `${lines.join('\n')}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
