/**
 * The JSON-safe value mapping (`values: 'json'`) on every readable corpus file: `JSON.stringify` never throws, every
 * value is a JSON value (no bigint, Date, byte array, Map, undefined or non-finite number anywhere), the rows survive
 * a JSON round trip unchanged, and there are as many as the default mapping reads; a string longer than a JavaScript
 * string may be is VALUE_TOO_LARGE. On files DuckDB writes, the values are compared with DuckDB's own text: timestamps,
 * dates and times with `CAST(… AS VARCHAR)` (ISO `T` and `Z` aside, and trailing zeros of the fraction, which DuckDB
 * drops), INT64/UINT64, decimals and UUIDs with their text, binary with `to_base64`, maps with `to_json`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openParquet } from '@parquetry/parquet-reader';
import { allCodecs } from '../src/codecs.js';
import { mayHoldHugeStrings } from '../src/large-strings.js';
import { corpusDir, decryptionFor, listCases } from '../src/runner.js';

const HAVE = fs.existsSync(corpusDir);

/** The first value (by path) that is not a JSON value, or undefined. */
function notJson(v: unknown, at = '$'): string | undefined {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return undefined;
  if (typeof v === 'number') return Number.isFinite(v) ? undefined : `${at}: ${v}`;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const bad = notJson(v[i], `${at}[${i}]`);
      if (bad) return bad;
    }
    return undefined;
  }
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    for (const [k, x] of Object.entries(v)) {
      const bad = notJson(x, `${at}.${k}`);
      if (bad) return bad;
    }
    return undefined;
  }
  return `${at}: ${typeof v === 'object' ? (v as object).constructor?.name : typeof v}`;
}

const mustReject = (rel: string, x: ReturnType<typeof listCases>[number]['expectation']) =>
  rel.startsWith('bad_data/') || /corrupt-checksum/.test(rel) || x?.expected?.error !== undefined || x?.expected?.errorWhenVerifyingChecksums !== undefined;

describe.skipIf(!HAVE)("values: 'json' on every readable corpus file", async () => {
  const codecs = await allCodecs();
  const cases = HAVE ? listCases().filter((c) => !mustReject(c.rel, c.expectation)) : [];

  test.each(cases.map((c) => [c.rel] as const))('%s', async (rel) => {
    const decryption = decryptionFor(rel);
    const file = await openParquet(new Uint8Array(fs.readFileSync(path.join(corpusDir, rel))), { codecs, ...(decryption ? { decryption } : {}) });
    if (mayHoldHugeStrings(file)) {
      // strings over the limit: typed, never "" and never a raw RangeError
      // (pages of 1 GiB from a few KB: over the default budget of so small a file — LIMIT_EXCEEDED — so raised here)
      await expect(file.readRows({ values: 'json' })).rejects.toMatchObject({ name: 'ParquetError', code: 'LIMIT_EXCEEDED' });
      await expect(file.readRows({ values: 'json', limits: { maxBytes: 2 ** 33 } })).rejects.toMatchObject({ name: 'ParquetError', code: 'VALUE_TOO_LARGE' });
      return;
    }
    let native: Record<string, unknown>[];
    try {
      native = await file.readRows();
    } catch {
      return; // files upstream calls invalid (and this reader rejects) are the conformance suite's
    }
    const rows = await file.readRows({ values: 'json' });
    expect(rows.length).toBe(native.length);
    expect(notJson(rows)).toBeUndefined();
    const text = JSON.stringify(rows);
    // -0 prints as 0: compare after the same normalisation
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(rows, (_k, v: unknown) => (Object.is(v, -0) ? 0 : v))));
    // batches give the same JSON
    const batched: Record<string, unknown>[] = [];
    for await (const b of file.iterateBatches({ values: 'json', batchSize: 1000 })) batched.push(...b.rows);
    expect(JSON.stringify(batched)).toBe(text);
  }, 120_000);
});

const ROWS = 3000;
const n = (expr: string) => `CASE WHEN i % 7 = 3 THEN NULL ELSE ${expr} END`;
/** Temporal columns over a wide range (before 1970, leap days, fractions that end in zeros and ones that do not). */
const TEMPORAL = [
  `${n("DATE '0001-01-01' + (i * 1213)::INTEGER")} AS dt`,
  `${n("TIME '00:00:00' + to_microseconds((i * 28800017) % 86400000000)")} AS tm`,
  `${n("TIMESTAMP '1600-02-28 23:00:00' + to_microseconds(i * 5000000000007)")} AS ts_us`,
  `${n("(TIMESTAMP '1950-01-01' + to_milliseconds(i * 1234567891))::TIMESTAMP_MS")} AS ts_ms`,
  `${n("(TIMESTAMP '1960-01-01' + to_microseconds(i * 1234567))::TIMESTAMP_NS + to_microseconds(0)")} AS ts_ns`,
  `${n("make_timestamp_ns((i * 1000000007123)::BIGINT)")} AS ts_ns_fine`,
  `${n("(TIMESTAMP '1969-12-31 23:59:59' + to_microseconds(i * 1000013))::TIMESTAMPTZ")} AS ts_tz`,
  `${n("(TIMESTAMP '2000-01-01' + to_milliseconds(i * 777))::TIMESTAMP_S")} AS ts_s`,
];
const OTHER = [
  `${n('(hash(i)::HUGEINT - 9223372036854775808)::BIGINT')} AS i64`,
  `${n('(i * 1000003 - 1500000)::BIGINT')} AS i64_small`,
  `${n('hash(i)::UBIGINT')} AS u64`,
  `${n("CASE WHEN i % 11 = 0 THEN 'NaN'::DOUBLE WHEN i % 13 = 0 THEN '-Infinity'::DOUBLE WHEN i % 17 = 0 THEN 'Infinity'::DOUBLE ELSE i / 3.0 - 100 END")} AS f64`,
  `${n("('-' || (hash(i) % 1000000000000000000)::VARCHAR || '.0123456789')::DECIMAL(38,10)")} AS d38`,
  `${n("encode(md5(i::VARCHAR) || CASE WHEN i % 3 = 0 THEN '' ELSE 'x' END)")} AS bin`,
  `${n("md5(i::VARCHAR)::UUID")} AS id_uuid`,
  `${n("MAP {('k' || (i % 5)): i, 'other': " + n('i * 2') + "}")} AS m`,
  `${n("MAP {(i % 3)::BIGINT: 'a', 10::BIGINT: 'b'}")} AS m_int`,
  `${n("MAP {[i]: 'list key'}")} AS m_list`,
];

/** Our ISO text as DuckDB prints it: a space for `T`, `+00` for `Z`, the fraction without trailing zeros. */
function duckText(iso: string): string {
  return iso
    .replace('T', ' ')
    .replace(/Z$/, '+00')
    .replace(/\.(\d*?)0+(\+00)?$/, (_m, digits: string, z: string | undefined) => (digits ? `.${digits}` : '') + (z ?? ''));
}

let dir = '';
let con: DuckDBConnection;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-json-'));
  con = await (await DuckDBInstance.create(':memory:')).connect();
  await con.run("SET TimeZone = 'UTC'");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("values: 'json' against DuckDB's text on files DuckDB writes", async () => {
  const codecs = await allCodecs();
  const files: { name: string; options: string }[] = [
    { name: 'v1', options: 'COMPRESSION snappy' },
    { name: 'v2', options: 'COMPRESSION zstd, PARQUET_VERSION v2' },
  ];

  test.each(files.map((f) => [f.name, f] as const))('%s', async (_name, f) => {
    const file = path.join(dir, `${f.name}.parquet`);
    await con.run(`COPY (SELECT i, ${[...TEMPORAL, ...OTHER].join(',\n')} FROM range(${ROWS}) t(i)) TO '${file}' (FORMAT parquet, ${f.options}, ROW_GROUP_SIZE 1024)`);
    const pf = await openParquet(new Uint8Array(fs.readFileSync(file)), { codecs });
    const rows = await pf.readRows({ values: 'json' });
    expect(rows.length).toBe(ROWS);
    expect(notJson(rows)).toBeUndefined();
    const cast = (c: string) => `CAST(${c} AS VARCHAR)`;
    const exprs: Record<string, string> = {
      ...Object.fromEntries([...TEMPORAL, ...OTHER].map((e) => e.split(' AS ').pop()!).map((c) => [c, cast(c)])),
      bin: 'to_base64(bin)',
      m: 'to_json(m)',
      m_int: 'to_json(m_int)',
    };
    const duck = (await con.runAndReadAll(`SELECT ${Object.entries(exprs).map(([c, e]) => `${e} AS ${c}`).join(', ')} FROM read_parquet(?) ORDER BY i`, [file])).getRowObjectsJson() as Record<string, string | null>[];
    const temporal = new Set(TEMPORAL.map((e) => e.split(' AS ').pop()!));
    for (const c of Object.keys(exprs)) {
      const ours = rows.map((r) => {
        const v = r[c];
        if (v === null || c === 'm_list') return v;
        if (temporal.has(c)) return duckText(v as string);
        if (c === 'f64') return typeof v === 'string' ? { NaN: 'nan', Infinity: 'inf', '-Infinity': '-inf' }[v] : v;
        if (c === 'm' || c === 'm_int') return v;
        return String(v);
      });
      const theirs = duck.map((r) => {
        const v = r[c] ?? null;
        if (v === null || c === 'm_list') return c === 'm_list' ? undefined : null;
        if (c === 'f64') return ['nan', 'inf', '-inf'].includes(v) ? v : Number(v);
        if (c === 'm' || c === 'm_int') return JSON.parse(v) as unknown;
        return v;
      });
      if (c === 'm_list') continue;
      const k = ours.findIndex((x, j) => JSON.stringify(x) !== JSON.stringify(theirs[j]));
      expect(k === -1 ? undefined : { column: c, row: k, ours: ours[k], duckdb: theirs[k] }).toBeUndefined();
    }
    // a map whose keys are lists is an array of { key, value }
    const ml = rows.find((r) => r.m_list !== null)!.m_list as { key: unknown; value: unknown }[];
    expect(ml).toEqual([{ key: [Number(rows.find((r) => r.m_list !== null)!.i)], value: 'list key' }]);
    // the ISO strings carry Z exactly on the UTC-adjusted columns (DuckDB writes TIMESTAMPTZ as isAdjustedToUTC)
    const z = (c: string) => rows.filter((r) => r[c] !== null).every((r) => (r[c] as string).endsWith('Z'));
    expect(z('ts_tz')).toBe(true);
    expect(rows.some((r) => r.ts_us !== null && (r.ts_us as string).endsWith('Z'))).toBe(false);
  });
});
