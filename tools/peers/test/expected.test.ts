// The committed expectations (fixtures/expected) are internally consistent, cover the whole corpus, and (when the
// corpus is present) DuckDB and parquet-wasm still produce the committed digests for a handful of small files.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { arrowRows, decodeVariantBin, digest, duckdbRows, formatInt96, hintTreeFromDuckDBSchema } from '../canon.mjs';
import { corpusFiles, digestDescribed, expectationName } from '../derive-expected.mjs';
import { REVIEW } from '../review.mjs';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const dir = join(repo, 'fixtures/expected');
const corpus = join(repo, '../shared/parquet-testing');
const HAVE = existsSync(corpus);
if (!HAVE) console.log(`tools/peers: ${corpus} is absent; skipping the tests that re-read corpus files`);

/* eslint-disable @typescript-eslint/no-explicit-any */
const all: any[] = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ name: f, ...JSON.parse(readFileSync(join(dir, f), 'utf8')) }));

describe('committed expectations are internally consistent', () => {
  test('there are expectation files, each named after its corpus path', () => {
    expect(all.length).toBeGreaterThan(200);
    for (const o of all) expect(o.name).toBe(expectationName(o.file));
  });

  test('stored rows hash to the stored digest and match the row count', () => {
    let checked = 0;
    for (const o of all) {
      if (o.expected?.rows) {
        expect(digest(o.expected.rows), o.file).toBe(o.expected.digest);
        expect(o.expected.rows.length, o.file).toBe(o.expected.numRows);
        checked++;
      }
      for (const p of ['duckdb', 'parquet-wasm']) {
        const peer = o.peers[p];
        if (peer.rows) {
          expect(digest(peer.rows), `${o.file} ${p}`).toBe(peer.digest);
          expect(peer.rows.length).toBe(peer.numRows);
          checked++;
        }
        if (peer.status === 'ok' && peer.head && o.expected?.rows && peer.digest === o.expected.digest) {
          expect(peer.head).toEqual(o.expected.rows.slice(0, peer.head.length));
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  test('the expectation comes from the trusted peer, agreement is what the digests say', () => {
    for (const o of all) {
      const d = o.peers.duckdb;
      const w = o.peers['parquet-wasm'];
      expect(o.agree, o.file).toBe(d.status === 'ok' && w.status === 'ok' && d.digest === w.digest);
      if (o.expected?.source === 'duckdb' || o.expected?.source === 'parquet-wasm') {
        expect(o.trusted, o.file).toBe(o.expected.source);
        expect(o.expected.digest).toBe(o.peers[o.trusted].digest);
      }
      if (o.kind === 'bad_data') expect(o.expected?.error, o.file).toBeTruthy();
      if (o.kind === 'encrypted') expect(d.status).toBe('skipped');
      if (d.status === 'ok' && w.status === 'ok' && !o.agree && !o.upstream) {
        // every disagreement without an upstream expectation is reviewed
        expect(REVIEW[o.file], `${o.file} needs a review entry`).toBeDefined();
      }
    }
  });

  test('reviewed special cases recompute: raw INT96 bytes and described huge rows', () => {
    for (const [file, r] of Object.entries(REVIEW)) {
      const o = all.find((x) => x.file === file);
      expect(o, file).toBeDefined();
      if (r.int96Raw) {
        for (const [col, hexes] of Object.entries(r.int96Raw)) {
          hexes.forEach((h, i) => {
            const want = h === null ? null : formatInt96(Uint8Array.from(Buffer.from(h, 'hex')));
            expect(o.expected.rows[i][col]).toBe(want);
          });
        }
      }
      if (r.described) expect(digestDescribed(r.described)).toBe(o.expected.digest);
      if (r.transform) expect(r.transform(o.peers[r.trusted].rows)).toEqual(o.expected.rows);
    }
  });

  test('SUMMARY.md lists every file', () => {
    const summary = readFileSync(join(dir, 'SUMMARY.md'), 'utf8');
    for (const o of all) expect(summary, o.file).toContain(`| ${o.file} |`);
  });

  test('the directory stays modest (< 5 MB)', () => {
    let bytes = 0;
    for (const f of readdirSync(dir)) bytes += readFileSync(join(dir, f)).length;
    expect(bytes).toBeLessThan(5 * 1024 * 1024);
  });
});

describe('against the corpus', () => {
  test.skipIf(!HAVE)('every corpus file has an expectation file', () => {
    const have = new Set(all.map((o) => o.file));
    const missing = corpusFiles(corpus).filter((f: string) => !have.has(f));
    expect(missing).toEqual([]);
  });

  test.skipIf(!HAVE)('shredded-variant expectations decode from the upstream variant binaries', () => {
    const cases = JSON.parse(readFileSync(join(corpus, 'shredded_variant/cases.json'), 'utf8'));
    let n = 0;
    for (const c of cases) {
      if (!c.parquet_file || c.error_message) continue;
      const o = all.find((x) => x.file === `shredded_variant/${c.parquet_file}`);
      const bins: (string | null)[] = c.variant_files ?? [c.variant_file];
      // a null entry is a row whose variant is SQL NULL
      const want = bins.map((b) => ({ var: b === null ? null : decodeVariantBin(new Uint8Array(readFileSync(join(corpus, 'shredded_variant', b)))) }));
      expect(o.expected.rows, c.parquet_file).toEqual(want);
      n++;
    }
    expect(n).toBeGreaterThan(100);
  });

  const SAMPLE = [
    'data/alltypes_plain.parquet',
    'data/int32_decimal.parquet',
    'data/fixed_length_decimal.parquet',
    'data/nulls.snappy.parquet',
    'data/nested_maps.snappy.parquet',
    'data/nested_lists.snappy.parquet',
    'data/int96_from_spark.parquet',
    'shredded_variant/case-045.parquet',
  ];

  test.skipIf(!HAVE)('DuckDB re-derives the committed digests', async () => {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
    const c = await inst.connect();
    for (const f of SAMPLE) {
      const o = all.find((x) => x.file === f);
      const abs = join(corpus, f);
      const schema = hintTreeFromDuckDBSchema((await c.runAndReadAll('SELECT * FROM parquet_schema(?)', [abs])).getRowObjectsJson());
      const r = await c.runAndReadAll('SELECT * FROM read_parquet(?, binary_as_string=false)', [abs]);
      expect(digest(duckdbRows(r, schema)), f).toBe(o.peers.duckdb.digest);
    }
  });

  test.skipIf(!HAVE)('parquet-wasm re-derives the committed digests', async () => {
    const { readParquet } = await import('parquet-wasm/node');
    const { tableFromIPC } = await import('apache-arrow');
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
    const c = await inst.connect();
    for (const f of SAMPLE.slice(0, 4)) {
      const o = all.find((x) => x.file === f);
      const abs = join(corpus, f);
      const schema = hintTreeFromDuckDBSchema((await c.runAndReadAll('SELECT * FROM parquet_schema(?)', [abs])).getRowObjectsJson());
      const table = tableFromIPC(readParquet(new Uint8Array(readFileSync(abs))).intoIPCStream());
      expect(digest(arrowRows(table, schema)), f).toBe(o.peers['parquet-wasm'].digest);
    }
  });
});
