/**
 * The pruning pipeline on the parquet-testing corpus (files written by parquet-java, Arrow C++, arrow-rs, Impala,
 * DuckDB, …): on every readable file, filters built from its own values on each column with one value per row give
 * the rows of an unpruned read filtered in the test; the page-index files skip pages; the bloom-filter files skip
 * row groups (plaintext, without and with `bloom_filter_length`, and the encrypted one, whose bloom filters and page
 * indexes are decrypted); tampering with an encrypted index or filter is detected. Every filtered read is repeated in
 * batches, which must return the same rows with the same bytes fetched and pages skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CompressionCodec, builtinCodecs, type CodecMap } from '@parquetry/parquet-codecs';
// codec packages by path: the reader does not depend on them
import { createBrotliCodec } from '../../codec-brotli/src/index.js';
import { createGzipCodec } from '../../codec-gzip/src/index.js';
import { createZstdCodec } from '../../codec-zstd/src/index.js';
import type { FileDecryptionProperties } from '@parquetry/parquet-crypto';
import { compareValues, matchRow } from '@parquetry/parquet-reader/filters';
import { openParquet, type Filter, type ParquetFile, type ScanStats } from '@parquetry/parquet-reader';
import { HAVE_CORPUS, corpus, readBytes, typedError } from './helpers.js';
import { agree } from './batch-helpers.js';

const data = path.join(corpus, 'data');
const enc = (s: string) => new TextEncoder().encode(s);
const keys: FileDecryptionProperties = {
  footerKey: enc('0123456789012345'),
  columnKeys: { double_field: enc('1234567890123450'), float_field: enc('1234567890123451') },
};

let codecMap: CodecMap | undefined;
async function codecs(): Promise<CodecMap> {
  return (codecMap ??= { ...builtinCodecs(), [CompressionCodec.GZIP]: createGzipCodec(), [CompressionCodec.ZSTD]: await createZstdCodec(), [CompressionCodec.BROTLI]: await createBrotliCodec() });
}

async function read(file: ParquetFile, filter: Filter, prune: boolean | object = true): Promise<{ rows: Record<string, unknown>[]; stats: ScanStats }> {
  let stats: ScanStats | undefined;
  const rows = await file.readRows({ filter, prune, variants: 'raw', onScan: (s) => (stats = s) });
  return { rows, stats: stats! };
}

/** The same read in batches (through the same pipeline): every row, and the one report. */
async function readBatches(file: ParquetFile, filter: Filter, batchSize: number, prune: boolean | object = true): Promise<{ rows: Record<string, unknown>[]; stats: ScanStats }> {
  const stats: ScanStats[] = [];
  const rows: Record<string, unknown>[] = [];
  for await (const b of file.iterateBatches({ filter, prune, batchSize, variants: 'raw', onScan: (s) => stats.push(s) })) rows.push(...b.rows);
  expect(stats.length).toBe(1);
  return { rows, stats: stats[0]! };
}

/** The value at a path of a row (nested structs), or undefined when the path crosses a list or map. */
function at(row: Record<string, unknown>, p: readonly string[]): unknown {
  let v: unknown = row;
  for (const k of p) {
    if (v === null || v === undefined) return null;
    if (Array.isArray(v) || v instanceof Map || typeof v !== 'object' || v instanceof Uint8Array) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** Filters on one column from its own values: a present value, ranges around it, `in`, null tests, an absent value. */
function filtersFor(column: string, values: unknown[], decimal = false): Filter[] {
  const present = values.filter((v) => v !== null && v !== undefined && !(typeof v === 'number' && Number.isNaN(v)));
  if (present.length === 0) return [{ column, op: 'is null' }, { column, op: 'is not null' }];
  const sorted = [...present].sort((a, b) => compareValues(a, b) || 0);
  const mid = sorted[Math.floor(sorted.length / 2)];
  const low = sorted[Math.floor(sorted.length / 10)];
  const out: Filter[] = [
    { column, op: '=', value: mid },
    { column, op: '<', value: low },
    { column, op: '>=', value: mid },
    { column, op: 'in', values: [low, sorted[sorted.length - 1]] },
    { column, op: 'is null' },
    { and: [{ column, op: '>=', value: low }, { column, op: '<=', value: mid }] },
    { or: [{ column, op: '=', value: sorted[0] }, { not: { column, op: '!=', value: mid } }] },
  ];
  // an absent value of the column's type (a decimal column takes decimal text only: anything else is FILTER_INVALID)
  if (typeof mid === 'string') out.push({ column, op: '=', value: decimal ? `${mid}${mid.includes('.') ? '' : '.'}000001` : `${mid}\u0001absent` });
  if (typeof mid === 'number') out.push({ column, op: '=', value: mid + 0.5 });
  if (typeof mid === 'bigint') out.push({ column, op: 'in', values: [mid + 1n, -1n] });
  return out;
}

const files = HAVE_CORPUS ? fs.readdirSync(data).filter((f) => f.endsWith('.parquet')).sort() : [];

describe.skipIf(!HAVE_CORPUS)('corpus: pruned reads equal unpruned reads', () => {
  const seen = { pagesSkipped: 0, rowGroupsSkipped: 0 };
  afterAll(() => {
    // the comparisons above are not vacuous: the pipeline skipped pages and row groups on the way
    console.log(`corpus: pages skipped ${seen.pagesSkipped}, row groups skipped ${seen.rowGroupsSkipped}`);
    expect(seen.pagesSkipped).toBeGreaterThan(1000);
    expect(seen.rowGroupsSkipped).toBeGreaterThan(10);
  });
  test.each(files)('%s', async (name) => {
    const bytes = readBytes(path.join(data, name));
    if (bytes.length > 1_000_000) return;
    let file: ParquetFile;
    let all: Record<string, unknown>[];
    try {
      file = await openParquet(bytes, { codecs: await codecs() });
      all = await file.readRows({ variants: 'raw' });
    } catch {
      return; // files this reader rejects are covered by the conformance suite
    }
    // leaf columns with one value per row, outside VARIANTs: up to 4 of them
    const leaves = file.schema.columns.filter((c) => c.maxRep === 0 && all.every((r) => at(r, c.path) !== undefined)).slice(0, 4);
    const decimals = new Set(file.schema.columns.filter((c) => c.node.logicalType?.DECIMAL || c.node.element.converted_type === 5).map((c) => c.pathString));
    for (const col of leaves) {
      const values = all.map((r) => at(r, col.path));
      for (const filter of filtersFor(col.pathString, values, decimals.has(col.pathString))) {
        let want: Record<string, unknown>[];
        try {
          want = all.filter((r) => matchRow(filter, r, decimals));
        } catch {
          continue;
        }
        let got: Record<string, unknown>[];
        let stats: ScanStats;
        try {
          ({ rows: got, stats } = await read(file, filter));
        } catch (e) {
          // a VARIANT leaf is refused, never ignored
          expect((e as { code?: string }).code, `${name} ${JSON.stringify(filter, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))}`).toBe('FILTER_UNSUPPORTED');
          continue;
        }
        expect(got, `${name} ${col.pathString}`).toEqual(want);
        // in batches: the same rows, fetched and skipped alike
        const batched = await readBatches(file, filter, 97);
        expect(batched.rows, `${name} ${col.pathString}, batches`).toEqual(want);
        agree(batched.stats, stats, false);
        seen.pagesSkipped += stats.pages.skipped;
        seen.rowGroupsSkipped += stats.rowGroups.total - stats.rowGroups.read;
      }
    }
  });
});

describe.skipIf(!HAVE_CORPUS)('corpus page indexes', () => {
  test.each(['alltypes_tiny_pages.parquet', 'alltypes_tiny_pages_plain.parquet'])('%s: a narrow id range reads a few pages per column, the same rows', async (name) => {
    const file = await openParquet(readBytes(path.join(data, name)), { codecs: await codecs() });
    const all = await file.readRows();
    const filter: Filter = { and: [{ column: 'id', op: '>=', value: 3000 }, { column: 'id', op: '<', value: 3020 }] };
    const on = await read(file, filter);
    const off = await read(file, filter, { pageIndex: false });
    expect(on.rows).toEqual(all.filter((r) => matchRow(filter, r)));
    expect(off.rows).toEqual(on.rows);
    expect(on.rows.length).toBe(20);
    expect(on.stats.pages.skipped).toBeGreaterThan(0.9 * (on.stats.pages.read + on.stats.pages.skipped));
    expect(off.stats.pages.skipped).toBe(0);
    expect(on.stats.bytes.data + on.stats.bytes.dictionary + on.stats.bytes.index).toBeLessThan(off.stats.bytes.data);
    // in batches of 7: the same rows, pages and bytes
    for (const [prune, whole] of [[true, on], [{ pageIndex: false }, off]] as const) {
      const b = await readBatches(file, filter, 7, prune);
      expect(b.rows).toEqual(whole.rows);
      agree(b.stats, whole.stats, prune === true);
    }
  });

  test('int32_with_null_pages: null pages are skipped for comparisons and kept for is null', async () => {
    const file = await openParquet(readBytes(path.join(data, 'int32_with_null_pages.parquet')), { codecs: await codecs() });
    const all = await file.readRows();
    for (const filter of [{ column: 'int32_field', op: 'is null' }, { column: 'int32_field', op: '>', value: 0 }, { column: 'int32_field', op: 'is not null' }] as Filter[]) {
      const on = await read(file, filter);
      expect(on.rows).toEqual(all.filter((r) => matchRow(filter, r)));
    }
  });
});

// these files are small: a tail guess of 8 bytes keeps their filters out of the footer read, so they are fetched
describe.skipIf(!HAVE_CORPUS)('corpus bloom filters', () => {
  test.each(['data_index_bloom_encoding_stats.parquet', 'data_index_bloom_encoding_with_length.parquet'])('%s: an absent string skips the row group by its bloom filter, a present one reads it', async (name) => {
    const file = await openParquet(readBytes(path.join(data, name)), { codecs: await codecs(), tailGuess: 8 });
    const all = await file.readRows();
    const present = all[5]!.String as string;
    const s = (await file.statistics(0, 'String'))!;
    // a value inside the bounds, so that statistics cannot refute it
    const absent = `${s.min as string}~`;
    expect(compareValues(absent, s.min) > 0 && compareValues(absent, s.max) < 0).toBe(true);
    expect(all.some((r) => r.String === absent)).toBe(false);
    const miss = await read(file, { column: 'String', op: '=', value: absent });
    expect(miss.rows).toEqual([]);
    expect(miss.stats.rowGroups.skipped.bloom).toBe(1);
    expect(miss.stats.bytes.bloom).toBeGreaterThan(0);
    expect(miss.stats.bytes.data).toBe(0);
    const hit = await read(file, { column: 'String', op: 'in', values: [absent, present] });
    expect(hit.rows).toEqual(all.filter((r) => r.String === present));
    const noBloom = await read(file, { column: 'String', op: '=', value: absent }, { bloom: false });
    expect(noBloom.rows).toEqual([]);
    expect(noBloom.stats.rowGroups.skipped.bloom).toBe(0);
    expect(noBloom.stats.bytes.bloom).toBe(0);
  });

  test('encrypt_columns_and_footer_bloom_filter: encrypted bloom filters and page indexes are decrypted and used', async () => {
    const bytes = readBytes(path.join(data, 'encrypt_columns_and_footer_bloom_filter.parquet.encrypted'));
    const file = await openParquet(bytes, { codecs: await codecs(), decryption: keys, tailGuess: 8 });
    const all = await file.readRows();
    expect(all.length).toBe(2000);
    // double_field i + 0.5, float_field i + 0.25 (the corpus dataset); the bloom filters belong to the encrypted columns
    const miss = await read(file, { column: 'double_field', op: '=', value: 7.25 });
    expect(miss.rows).toEqual([]);
    expect(miss.stats.rowGroups.skipped.bloom).toBe(1);
    expect(miss.stats.requests.bloom).toBe(1);
    // statistics of encrypted columns come from their decrypted metadata
    expect(file.metadata.row_groups[0]!.columns[0]!.meta_data).toBeUndefined();
    const above = await read(file, { column: 'double_field', op: '>', value: 1e9 });
    expect(above.rows).toEqual([]);
    expect(above.stats.rowGroups.skipped.statistics).toBe(1);
    expect(above.stats.bytes.total).toBe(0);
    const missF = await read(file, { column: 'float_field', op: 'in', values: [3.5, 8.5] });
    expect(missF.rows).toEqual([]);
    expect(missF.stats.rowGroups.skipped.bloom).toBe(1);
    const hit = await read(file, { column: 'double_field', op: '=', value: 1500.5 });
    expect(hit.rows).toEqual(all.filter((r) => r.double_field === 1500.5));
    expect(hit.rows.length).toBe(1);
    // the encrypted ColumnIndex narrowed the pages
    expect(hit.stats.bytes.index).toBeGreaterThan(0);
    expect(hit.stats.pages.skipped).toBeGreaterThan(0);
    const range: Filter = { and: [{ column: 'float_field', op: '>=', value: 100 }, { column: 'float_field', op: '<', value: 140 }] };
    const r = await read(file, range);
    expect(r.rows).toEqual(all.filter((row) => matchRow(range, row)));
    expect(r.stats.pages.skipped).toBeGreaterThan(0);
    // in batches: the encrypted pages of each run decrypted with their own ordinals (AAD), the same rows and bytes
    for (const [filter, whole] of [[range, r], [{ column: 'double_field', op: '=', value: 1500.5 }, hit], [{ column: 'double_field', op: '=', value: 7.25 }, miss]] as const) {
      const b = await readBatches(file, filter as Filter, 7);
      expect(b.rows).toEqual(whole.rows);
      agree(b.stats, whole.stats, true);
    }
  });

  test('a tampered encrypted bloom filter or column index fails authentication', async () => {
    const bytes = readBytes(path.join(data, 'encrypt_columns_and_footer_bloom_filter.parquet.encrypted'));
    const file = await openParquet(bytes, { codecs: await codecs(), decryption: keys, tailGuess: 8 });
    const bloomAt: number[] = [];
    const indexAt = [file.metadata.row_groups[0]!.columns[0]!.column_index_offset! + 10];
    // the bloom filter offset is inside the encrypted column metadata: find it through the read's request log (a
    // miss makes exactly one request, for the filter)
    const log: [number, number][] = [];
    const logged = await openParquet({ byteLength: bytes.length, read: (s, e) => (log.push([s, e]), Promise.resolve(bytes.subarray(s, e))) }, { codecs: await codecs(), decryption: keys, tailGuess: 8 });
    const before = log.length;
    await logged.readRows({ filter: { column: 'double_field', op: '=', value: 7.25 } });
    const [bs, be] = log[before]!;
    bloomAt.push(bs + 8, be - 5);
    for (const [what, offset, filter] of [
      ['bloom header', bloomAt[0]!, { column: 'double_field', op: '=', value: 7.25 }],
      ['bloom bitset', bloomAt[1]!, { column: 'double_field', op: '=', value: 7.25 }],
      ['column index', indexAt[0]!, { column: 'double_field', op: '=', value: 1500.5 }],
    ] as const) {
      const copy = bytes.slice();
      copy[offset]! ^= 1;
      const t = await openParquet(copy, { codecs: await codecs(), decryption: keys, tailGuess: 8 });
      const e = await typedError(() => t.readRows({ filter: filter as Filter }));
      expect(e.code, what).toBe('DECRYPTION_FAILED');
    }
  });
});
