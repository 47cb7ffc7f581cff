/**
 * Proves the peer read-back harness (src/peers.ts) before the writer exists: files written by DuckDB (every SQL type
 * it writes, edge values, each codec and page version) and, when PARQUETRY_PYTHON is set, by pyarrow, are read by
 * every available peer and by Parquetry's reader; all canonical rows must be equal cell by cell, and every
 * difference must be a listed, still-needed peer limitation (src/peer-limits.ts). Statistics: Parquetry's strings
 * equal DuckDB's parquet_metadata and pyarrow's metadata.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { openParquet } from '@parquetry/parquet-reader';
import { isParquetError } from '@parquetry/thrift-compact';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { canonParquetryRows, canonRows, canonVariant } from '../src/canon-parquetry.js';
import { allCodecs } from '../src/codecs.js';
import { type Disagreement, PEER_LIMITS, explain } from '../src/peer-limits.js';
import {
  type PeerColumnStats,
  type PeerName,
  type PeerRows,
  type SchemaHint,
  ourStatistics,
  peersAvailable,
  pythonPeerMissing,
  readManyWithPeer,
  readWithPeer,
  statString,
  statisticsWithDuckDB,
  statisticsWithPyarrow,
} from '../src/peers.js';
// @ts-expect-error: plain ESM with JSDoc types
import { footerHints } from '../src/peer-hints.mjs';

const PYTHON = process.env['PARQUETRY_PYTHON'];
if (PYTHON === undefined) console.warn('conformance peers: PARQUETRY_PYTHON (a python with pyarrow) is not set, pyarrow peer tests are skipped');
const PY_WRITER = fileURLToPath(new URL('./peers/pyarrow_write.py', import.meta.url));
/**
 * The peers of the read-back comparisons below: every available one but polars and fastparquet, whose limitations
 * (src/python-peer-limits.ts) are established on Parquetry's own files (writer-interop.test.ts) and whose reads
 * of peer-written files are polars-fastparquet-written.test.ts's subject; the harness tests include them.
 */
const comparedPeers = (): PeerName[] => peersAvailable().filter((p) => p !== 'polars' && p !== 'fastparquet');

// nullable column: every 7th row NULL
const n = (expr: string) => `CASE WHEN i % 7 = 3 THEN NULL ELSE ${expr} END`;
// edge rows: row 0 = minimum, row 1 = maximum, row 2 = zero / empty, the rest generated
const edge = (lo: string, hi: string, zero: string, gen: string) => `CASE i WHEN 0 THEN ${lo} WHEN 1 THEN ${hi} WHEN 2 THEN ${zero} ELSE ${n(gen)} END`;

/** Every SQL type DuckDB writes to Parquet, with edge values. */
const DUCK_COLUMNS = [
  `${n('i % 2 = 0')} AS b`,
  `${edge('(-128)::TINYINT', '127::TINYINT', '0::TINYINT', '(i % 256 - 128)::TINYINT')} AS i8`,
  `${edge('(-32768)::SMALLINT', '32767::SMALLINT', '0::SMALLINT', '(i * 37 % 65536 - 32768)::SMALLINT')} AS i16`,
  `${edge('(-2147483648)::INTEGER', '2147483647::INTEGER', '0::INTEGER', '((hash(i) % 4294967296)::BIGINT - 2147483648)::INTEGER')} AS i32`,
  `${edge('(-9223372036854775808)::BIGINT', '9223372036854775807::BIGINT', '0::BIGINT', '(hash(i)::HUGEINT - 9223372036854775808)::BIGINT')} AS i64`,
  `${edge('0::UTINYINT', '255::UTINYINT', '0::UTINYINT', '(i % 256)::UTINYINT')} AS u8`,
  `${edge('0::USMALLINT', '65535::USMALLINT', '0::USMALLINT', '(i * 31 % 65536)::USMALLINT')} AS u16`,
  `${edge('0::UINTEGER', '4294967295::UINTEGER', '0::UINTEGER', '(hash(i) % 4294967296)::UINTEGER')} AS u32`,
  `${edge('0::UBIGINT', '18446744073709551615::UBIGINT', '9223372036854775808::UBIGINT', 'hash(i)::UBIGINT')} AS u64`,
  `${edge('(-170141183460469231731687303715884105728)::HUGEINT', '170141183460469231731687303715884105727::HUGEINT', '0::HUGEINT', '(i * 1000003)::HUGEINT')} AS i128`,
  `${edge('(-99.99)::DECIMAL(4,2)', '99.99::DECIMAL(4,2)', '0::DECIMAL(4,2)', '(i / 100.0 - 20)::DECIMAL(4,2)')} AS d4`,
  `${edge('(-999999999999999.999)::DECIMAL(18,3)', '999999999999999.999::DECIMAL(18,3)', '0::DECIMAL(18,3)', '(hash(i) % 1000000000000 / 1000.0)::DECIMAL(18,3)')} AS d18`,
  `${edge("'-9999999999999999999999999999.9999999999'::DECIMAL(38,10)", "'9999999999999999999999999999.9999999999'::DECIMAL(38,10)", "'0.0000000001'::DECIMAL(38,10)", "('-' || (hash(i) % 1000000000000000000)::VARCHAR || '.0123456789')::DECIMAL(38,10)")} AS d38`,
  `${edge("'-Infinity'::FLOAT", "'Infinity'::FLOAT", "'-0.0'::FLOAT", "CASE WHEN i % 11 = 0 THEN 'NaN'::FLOAT ELSE (i / 7.0)::FLOAT END")} AS f32`,
  `${edge("'-Infinity'::DOUBLE", "'Infinity'::DOUBLE", "'-0.0'::DOUBLE", "CASE WHEN i % 11 = 0 THEN 'NaN'::DOUBLE ELSE i / 3.0 - 100 END")} AS f64`,
  `${edge("''", "'😀✓é'", "''", "md5(i::VARCHAR) || CASE WHEN i % 5 = 0 THEN 'é✓😀' ELSE '' END")} AS s`,
  `${n("'s' || (i % 13)")} AS low_card`,
  `${edge("''::BLOB", "'\\xFF\\x00\\x01'::BLOB", "'\\x00'::BLOB", 'encode(md5(i::VARCHAR))')} AS bl`,
  `${edge("DATE '0001-01-01'", "DATE '9999-12-31'", "DATE '1970-01-01'", "DATE '1900-01-01' + (i * 13)::INTEGER")} AS dt`,
  `${edge("TIME '00:00:00'", "TIME '23:59:59.999999'", "TIME '00:00:00'", "TIME '00:00:00' + to_microseconds(i * 17000123)")} AS tm`,
  `${edge("TIME_NS '00:00:00'", "TIME_NS '23:59:59.999999999'", "TIME_NS '00:00:00.000000001'", "(TIME '00:00:00' + to_microseconds(i * 1700013))::TIME_NS")} AS tm_ns`,
  `${edge("TIMETZ '00:00:00+00'", "TIMETZ '23:59:59.999999+00'", "TIMETZ '12:00:00+00'", "(TIME '00:00:00' + to_microseconds(i * 17000123))::TIMETZ")} AS tm_tz`,
  `${edge("TIMESTAMP '0001-01-01 00:00:00'", "TIMESTAMP '9999-12-31 23:59:59.999999'", "TIMESTAMP '1969-12-31 23:59:59.999999'", "TIMESTAMP '1969-12-31 23:00:00' + to_microseconds(i * 1000000007)")} AS ts_us`,
  `${edge("TIMESTAMP_S '0001-01-01 00:00:00'", "TIMESTAMP_S '9999-12-31 23:59:59'", "TIMESTAMP_S '1969-12-31 23:59:59'", "(TIMESTAMP '2000-01-01' + to_seconds(i * 12345))::TIMESTAMP_S")} AS ts_s`,
  `${edge("TIMESTAMP_MS '0001-01-01 00:00:00'", "TIMESTAMP_MS '9999-12-31 23:59:59.999'", "TIMESTAMP_MS '1969-12-31 23:59:59.999'", "(TIMESTAMP '2000-01-01' + to_milliseconds(i * 1234567))::TIMESTAMP_MS")} AS ts_ms`,
  `${edge("TIMESTAMP_NS '1677-09-22 00:12:44.000000001'", "TIMESTAMP_NS '2262-04-11 23:47:16.854775'", "TIMESTAMP_NS '1969-12-31 23:59:59.999999999'", "(TIMESTAMP '2000-01-01' + to_microseconds(i * 1234567))::TIMESTAMP_NS")} AS ts_ns`,
  `${edge("TIMESTAMPTZ '0001-01-01 00:00:00+00'", "TIMESTAMPTZ '9999-12-31 23:59:59.999999+00'", "TIMESTAMPTZ '1970-01-01 00:00:00+00'", "(TIMESTAMP '2000-01-01' + to_microseconds(i * 7654321))::TIMESTAMPTZ")} AS ts_tz`,
  `${edge("'00000000-0000-0000-0000-000000000000'::UUID", "'ffffffff-ffff-ffff-ffff-ffffffffffff'::UUID", "'80000000-0000-0000-0000-000000000000'::UUID", 'md5(i::VARCHAR)::UUID')} AS id`,
  `${edge('INTERVAL 0 DAY', "INTERVAL '2147483647 months 2147483647 days 2147483647 milliseconds'", "to_months(1) + to_days(2) + to_milliseconds(3)", 'to_months(i % 13) + to_days(i % 31) + to_milliseconds(i * 1000)')} AS iv`,
  `${n("[i, i + 1, NULL][1:(i % 4)]")} AS list_i`,
  `${n("['a' || i, NULL, ''][1:(i % 4)]")} AS list_s`,
  `${n('[[i], [], NULL, [i, NULL]][1:(i % 5)]')} AS nested_list`,
  "[i, i * 2, NULL]::INTEGER[3] AS arr3",
  `${n("{'x': i, 'y': " + n("'y' || i") + ", 'z': {'w': i % 3 = 0, 'l': [i::DOUBLE]}}")} AS st`,
  `${n("MAP {('k' || (i % 5)): i, 'other': " + n('i * 2') + '}')} AS m`,
  `${n("CASE WHEN i % 5 = 0 THEN MAP {} ELSE MAP {(i % 100 + 1000)::INTEGER: 'v' || i, (i % 100)::INTEGER: NULL} END")} AS m_int`,
  `${n("[{'a': i, 'b': [i::VARCHAR], 'c': MAP {'q': [i]}}]")} AS list_struct`,
  `${n("('{\"k\": ' || i || '}')::JSON")} AS js`,
  `${n("(['red', 'green', 'blue'][i % 3 + 1])::ENUM('red', 'green', 'blue')")} AS en`,
  `${n("CASE i % 4 WHEN 0 THEN i::VARIANT WHEN 1 THEN ('v' || i)::VARIANT WHEN 2 THEN {'a': i, 'b': [i::VARCHAR, 'x']}::VARIANT ELSE (i / 4)::DOUBLE::VARIANT END")} AS var`,
  'NULL::INTEGER AS all_null',
];

const ROWS = 600;
/** Rows of the pyarrow-written files (test/peers/pyarrow_write.py). */
const N_PY = 400;
const DUCK_FILES: { name: string; options: string; rows?: number; exclude?: string }[] = [
  { name: 'uncompressed v1', options: 'COMPRESSION uncompressed' },
  { name: 'snappy v1', options: 'COMPRESSION snappy' },
  { name: 'gzip v1', options: 'COMPRESSION gzip' },
  { name: 'zstd v2', options: 'COMPRESSION zstd, PARQUET_VERSION v2' },
  { name: 'brotli v1', options: 'COMPRESSION brotli' },
  { name: 'lz4_raw v2, no dictionary', options: 'COMPRESSION lz4, PARQUET_VERSION v2, DICTIONARY_SIZE_LIMIT 1' },
  // without the random 32-bit columns, whose DuckDB DELTA_BINARY_PACKED encoding parquet-wasm cannot read at all
  { name: 'snappy v2 without i32/u32', options: 'COMPRESSION snappy, PARQUET_VERSION v2', exclude: 'i32, u32' },
  { name: 'zero rows', options: 'COMPRESSION snappy', rows: 0 },
];

let dir = '';
let con: DuckDBConnection;
let codecs: Awaited<ReturnType<typeof allCodecs>>;
const files: { name: string; file: string; writer: 'duckdb' | 'pyarrow' }[] = [];
/** Limitations seen, by id (each listed limitation must be seen by some test). */
const used = new Set<string>();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-peers-'));
  con = await (await DuckDBInstance.create(':memory:')).connect();
  codecs = await allCodecs();
  for (const [k, f] of DUCK_FILES.entries()) {
    const file = path.join(dir, `duck-${k}.parquet`);
    const select = `SELECT ${DUCK_COLUMNS.join(',\n')} FROM range(${f.rows ?? ROWS}) t(i)`;
    const q = f.exclude ? `SELECT * EXCLUDE (${f.exclude}) FROM (${select})` : select;
    await con.run(`COPY (${q}) TO '${file}' (FORMAT parquet, ${f.options}, ROW_GROUP_SIZE 256)`);
    files.push({ name: `duckdb ${f.name}`, file, writer: 'duckdb' });
  }
  if (PYTHON !== undefined) {
    const pyDir = path.join(dir, 'pyarrow');
    fs.mkdirSync(pyDir);
    execFileSync(PYTHON, [PY_WRITER, pyDir], { encoding: 'utf8', timeout: 120_000 });
    for (const f of fs.readdirSync(pyDir).sort()) files.push({ name: `pyarrow ${f}`, file: path.join(pyDir, f), writer: 'pyarrow' });
  }
});
afterAll(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

async function oursRows(file: string): Promise<Record<string, unknown>[]> {
  const pf = await openParquet(new Uint8Array(fs.readFileSync(file)), { codecs });
  return canonParquetryRows(pf.schema, await pf.readRows(), canonVariant);
}

async function hintsOf(file: string): Promise<SchemaHint | null> {
  const b = fs.readFileSync(file);
  return (await footerHints(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))) as SchemaHint | null;
}

/** Cell-by-cell differences of a peer's rows from ours (a missing column is one whole-column difference). */
function rowDisagreements(peer: PeerName, ours: Record<string, unknown>[], got: PeerRows, hints: SchemaHint | null): Disagreement[] {
  const out: Disagreement[] = [];
  const rows = got.rows ?? [];
  const cols = Object.keys(ours[0] ?? {});
  const hintOf = (c: string) => hints?.children.find((h) => h.name === c) ?? null;
  for (const c of cols) {
    const err = got.columnErrors?.[c];
    if (err !== undefined) {
      out.push({ peer, column: c, row: -1, expected: 'column', actual: { columnError: err }, hint: hintOf(c) });
      continue;
    }
    for (let r = 0; r < ours.length; r++) {
      const e = ours[r]?.[c];
      const a = rows[r]?.[c];
      if (canonRows([e]) !== canonRows([a])) out.push({ peer, column: c, row: r, expected: e, actual: a, hint: hintOf(c) });
    }
  }
  return out;
}

/** The disagreements no listed limitation explains, without their hints (and records the ones explained). */
function unexplained(ds: Disagreement[]): Omit<Disagreement, 'hint'>[] {
  const left: Omit<Disagreement, 'hint'>[] = [];
  for (const d of ds) {
    const l = explain(d);
    if (l) used.add(l.id);
    else {
      const { hint: _hint, ...rest } = d;
      left.push(rest);
    }
  }
  return left;
}

describe('peer read-back: every available peer and Parquetry read the same canonical rows', () => {
  test('the peers: DuckDB, parquet-wasm and hyparquet always, pyarrow, polars and fastparquet with a PARQUETRY_PYTHON that imports them', () => {
    const p = peersAvailable();
    expect(p.slice(0, 2)).toEqual(['duckdb', 'parquet-wasm']);
    expect(p.includes('hyparquet')).toBe(true);
    expect(p.includes('pyarrow')).toBe(PYTHON !== undefined);
    for (const py of ['polars', 'fastparquet'] as const) {
      expect(p.includes(py)).toBe(pythonPeerMissing(py) === undefined);
      if (PYTHON === undefined) expect(pythonPeerMissing(py)).toMatch(/PARQUETRY_PYTHON .* is not set/);
    }
  });

  test('files were generated (DuckDB always, pyarrow when available)', () => {
    expect(files.filter((f) => f.writer === 'duckdb')).toHaveLength(DUCK_FILES.length);
    if (PYTHON !== undefined) expect(files.filter((f) => f.writer === 'pyarrow').length).toBeGreaterThanOrEqual(3);
  });

  for (const [k, f] of DUCK_FILES.entries()) {
    test(`duckdb ${f.name}`, async () => {
      await compareAll(files.filter((x) => x.writer === 'duckdb')[k]!.file, f.rows ?? ROWS);
    });
  }

  test.skipIf(PYTHON === undefined)('pyarrow-written files', async () => {
    const written = files.filter((x) => x.writer === 'pyarrow' && !x.name.includes('zero-rows'));
    expect(written.length).toBeGreaterThanOrEqual(6);
    for (const f of written) await compareAll(f.file, N_PY, f.name);
  });

  // pyarrow writes a zero-row file as one row group of 0 rows whose column chunks are empty at offset 0 (the
  // reader used to reject it: "chunk bytes [0, 0) fall outside the data region").
  test.skipIf(PYTHON === undefined)('pyarrow zero-rows.parquet (one empty row group)', async () => {
    await compareAll(files.find((x) => x.name.includes('zero-rows'))!.file, 0, 'pyarrow zero-rows');
  });

  async function compareAll(file: string, numRows: number | undefined, label = '') {
    const ours = await oursRows(file);
    if (numRows !== undefined) expect(ours).toHaveLength(numRows);
    const hints = await hintsOf(file);
    const reads = await Promise.all(comparedPeers().map((p) => readWithPeer(p, file)));
    for (const got of reads) {
      if (got.status === 'error') {
        // a peer that cannot read the file at all: only a listed limitation may explain it
        const d: Disagreement = { peer: got.peer, column: '*', row: -1, expected: 'rows', actual: { fileError: got.error }, hint: hints };
        expect({ label, unexplained: unexplained([d]) }).toEqual({ label, unexplained: [] });
        continue;
      }
      expect(got.rows).toHaveLength(ours.length);
      const left = unexplained(rowDisagreements(got.peer, ours, got, hints));
      expect({ label, peer: got.peer, left: left.slice(0, 5) }).toEqual({ label, peer: got.peer, left: [] });
    }
  }
});

describe('statistics: Parquetry equals DuckDB parquet_metadata and pyarrow', () => {
  function statDisagreements(peer: PeerName, ours: PeerColumnStats[], theirs: PeerColumnStats[], hints: SchemaHint | null): Disagreement[] {
    expect(theirs.map((s) => `${s.rowGroup}:${s.path}`)).toEqual(ours.map((s) => `${s.rowGroup}:${s.path}`));
    const out: Disagreement[] = [];
    ours.forEach((o, i) => {
      const t = theirs[i]!;
      let h: SchemaHint | null = hints;
      for (const p of o.path.split('.')) h = h?.children.find((c) => c.name === p) ?? null;
      for (const field of ['min', 'max', 'nullCount', 'distinctCount', 'numValues'] as const) {
        if (o[field] !== t[field]) out.push({ peer, column: o.path, row: -1, field, expected: o[field], actual: t[field], hint: h });
      }
    });
    return out;
  }

  test('every DuckDB file: ours = DuckDB', async () => {
    for (const f of files.filter((x) => x.writer === 'duckdb')) {
      const ours = await ourStatistics(f.file);
      expect(ours.some((s) => s.min !== undefined) || f.name.includes('zero')).toBe(true);
      const left = unexplained(statDisagreements('duckdb', ours, await statisticsWithDuckDB(f.file), await hintsOf(f.file)));
      expect({ file: f.name, left: left.slice(0, 5) }).toEqual({ file: f.name, left: [] });
    }
  });

  test.skipIf(PYTHON === undefined)('every file: ours = pyarrow, and pyarrow-written files: ours = DuckDB', async () => {
    for (const f of files) {
      const ours = await ourStatistics(f.file);
      const hints = await hintsOf(f.file);
      const left = unexplained(statDisagreements('pyarrow', ours, await statisticsWithPyarrow(f.file), hints));
      if (f.writer === 'pyarrow') left.push(...unexplained(statDisagreements('duckdb', ours, await statisticsWithDuckDB(f.file), hints)));
      expect({ file: f.name, left: left.slice(0, 5) }).toEqual({ file: f.name, left: [] });
    }
  });

  test('the string form: -0 keeps its sign, numbers print as JS does, canonical strings stay', () => {
    expect([statString(-0), statString(0), statString(1e21), statString(0.1), statString('2020-01-01'), statString(true)]).toEqual(['-0', '0', '1e+21', '0.1', '2020-01-01', 'true']);
  });
});

describe('the harness reports failures instead of crashing', () => {
  test('a file that is not Parquet: every peer says error, none throws', async () => {
    const bad = path.join(dir, 'not-parquet.parquet');
    fs.writeFileSync(bad, 'PAR1 this is not a parquet file PAR1');
    for (const p of peersAvailable()) {
      const r = await readWithPeer(p, bad);
      expect({ peer: p, status: r.status }).toEqual({ peer: p, status: 'error' });
      expect(r.error).toBeTruthy();
    }
    for (const p of peersAvailable().filter((x) => x === 'polars' || x === 'fastparquet')) {
      const [r] = await readManyWithPeer(p, [bad]);
      expect({ peer: p, status: r!.status }).toEqual({ peer: p, status: 'error' });
      expect(r!.error).toBeTruthy();
    }
    await expect(statisticsWithDuckDB(bad)).rejects.toSatisfy((e: unknown) => isParquetError(e) && e.code === 'PEER_FAILED');
    await expect(ourStatistics(bad)).rejects.toSatisfy(isParquetError);
  });

  test('a peer that hangs is killed at the timeout and reported', async () => {
    // a FIFO nobody writes: every reader blocks on open
    const fifo = path.join(dir, 'hang.parquet');
    execFileSync('mkfifo', [fifo]);
    const r = await readWithPeer('duckdb', fifo, { timeoutMs: 1500 });
    expect(r.status).toBe('error');
    expect(r.error).toMatch(/timed out after 1500 ms/);
  });

  test('pyarrow without PARQUETRY_PYTHON is an error result, not an exception', async () => {
    const saved = process.env['PARQUETRY_PYTHON'];
    delete process.env['PARQUETRY_PYTHON'];
    try {
      const r = await readWithPeer('pyarrow', files[0]!.file);
      expect(r).toMatchObject({ peer: 'pyarrow', status: 'error' });
      for (const p of ['polars', 'fastparquet'] as const) {
        expect(await readWithPeer(p, files[0]!.file)).toMatchObject({ peer: p, status: 'error', error: expect.stringMatching(/PARQUETRY_PYTHON .* is not set/) });
        expect(await readManyWithPeer(p, [files[0]!.file])).toMatchObject([{ peer: p, status: 'error', error: expect.stringMatching(/PARQUETRY_PYTHON .* is not set/) }]);
      }
      await expect(statisticsWithPyarrow(files[0]!.file)).rejects.toSatisfy((e: unknown) => isParquetError(e) && e.code === 'PEER_UNAVAILABLE');
    } finally {
      if (saved !== undefined) process.env['PARQUETRY_PYTHON'] = saved;
    }
  });
});

describe('the comparison can fail', () => {
  test('one changed cell in a peer read is an unexplained disagreement', async () => {
    const file = files[0]!.file;
    const ours = await oursRows(file);
    const got = await readWithPeer('duckdb', file);
    expect(rowDisagreements('duckdb', ours, got, await hintsOf(file))).toEqual([]);
    const rows = got.rows!.map((r) => ({ ...r }));
    rows[5]!['d18'] = '0.001';
    const ds = rowDisagreements('duckdb', ours, { ...got, rows }, await hintsOf(file));
    expect(ds.map((d) => [d.column, d.row, d.actual])).toEqual([['d18', 5, '0.001']]);
    expect(ds.filter((d) => explain(d) === undefined)).toHaveLength(1);
  });
});

describe('peer limitations', () => {
  // seen only on the pyarrow-written files (types or encodings DuckDB does not write)
  const ONLY_PYARROW_FILES = new Set([
    'duckdb-bss-not-float',
    'duckdb-decimal-over-38-as-double',
    'duckdb-nanos-utc-as-micros',
    'duckdb-stats-infinite-bound',
    'duckdb-stats-timestamp-infinity',
    'hyparquet-v2-list-of-struct-of-list',
  ]);
  test('every listed limitation was needed by the files above (no stale entries)', () => {
    const expected = PEER_LIMITS.filter((l) => comparedPeers().includes(l.peer) && (PYTHON !== undefined || !ONLY_PYARROW_FILES.has(l.id)))
      .map((l) => l.id)
      .sort();
    expect([...used].sort()).toEqual(expected);
  });

  test('a limitation explains only its exact wrong value', () => {
    const dec: SchemaHint = { name: 'd', physical: 'INT64', repetition: 'OPTIONAL', converted: 'DECIMAL', logical: null, scale: 3, children: [] };
    const d = (actual: unknown): Disagreement => ({ peer: 'hyparquet', column: 'd', row: 0, expected: '999999999999999.999', actual, hint: dec });
    expect(explain(d('1000000000000000.000'))?.id).toBe('hyparquet-decimal-double');
    expect(explain(d('999999999999999.998'))).toBeUndefined();
    expect(explain({ ...d('1000000000000000.000'), peer: 'duckdb' })).toBeUndefined();
    const iv: SchemaHint = { ...dec, physical: 'FIXED_LEN_BYTE_ARRAY', converted: 'INTERVAL' };
    const w = (actual: unknown): Disagreement => ({ peer: 'parquet-wasm', column: 'iv', row: 0, expected: { months: 3, days: 2, millis: 1 }, actual, hint: iv });
    expect(explain(w({ months: 0, days: 2, millis: 1 }))?.id).toBe('parquet-wasm-interval-months');
    expect(explain(w({ months: 0, days: 2, millis: 0 }))).toBeUndefined();
  });
});
