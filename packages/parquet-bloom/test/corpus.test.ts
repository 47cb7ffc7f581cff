import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { decodeThrift, readFileMetaData, Type, type FileMetaData } from '@parquetry/thrift-compact';
import {
  bloomMightContain,
  readBloomFilterData,
  readColumnBloomFilter,
  readColumnBloomFilterSync,
  serializeBloomFilter,
  SplitBlockBloomFilter,
} from '../src/index.js';
import { DATA_DIR, HAVE_DATA, occupancyFpp, prng, u32 } from './helpers.js';

function footer(file: Uint8Array): FileMetaData {
  const len = new DataView(file.buffer, file.byteOffset, file.byteLength).getInt32(file.length - 8, true);
  return decodeThrift(readFileMetaData, file, file.length - 8 - len, file.length - 8).value;
}

const enc = new TextEncoder();
const strFilter = (f: SplitBlockBloomFilter, s: string): boolean => bloomMightContain(f, Type.BYTE_ARRAY, s);

/** Probes `n` random strings that are not in `present`; returns the measured "maybe" rate. */
function absentRate(f: SplitBlockBloomFilter, present: Set<string>, n: number, seed: number): number {
  const rnd = prng(seed);
  let maybe = 0;
  let probed = 0;
  while (probed < n) {
    const s = `probe-${u32(rnd).toString(36)}-${probed}`;
    if (present.has(s)) continue;
    probed++;
    if (strFilter(f, s)) maybe++;
  }
  return maybe / n;
}

/** |rate - p| within 5 binomial sigmas (plus a few counts of slack for tiny p). */
function expectRateNear(rate: number, p: number, n: number): void {
  expect(Math.abs(rate - p)).toBeLessThanOrEqual(5 * Math.sqrt((p * (1 - p)) / n) + 5 / n);
}

describe.skipIf(!HAVE_DATA)('parquet-testing bloom filters', () => {
  test('bloom_filter.xxhash.bin holds exactly "hello", "parquet", "bloom", "filter"', () => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(DATA_DIR, 'bloom_filter.xxhash.bin')));
    const { header, filter, end } = readBloomFilterData(bytes);
    expect(end).toBe(bytes.length);
    expect(header.numBytes).toBe(1024);
    const inserted = ['hello', 'parquet', 'bloom', 'filter'];
    for (const s of inserted) expect(strFilter(filter, s), s).toBe(true);
    // The claim, checked in full: a fresh 1024-byte filter with only these four strings has
    // the identical bitset, and serializes to the identical file (header bytes included).
    const ours = new SplitBlockBloomFilter(1024);
    for (const s of inserted) ours.insertBytes(enc.encode(s), 0, enc.encode(s).length);
    expect(filter.words).toEqual(ours.words);
    expect(serializeBloomFilter(ours)).toEqual(bytes);
    // Other values: absent at the rate the bits imply (4 values in 32 blocks: ~1e-7, so ~0).
    const n = 100_000;
    const p = occupancyFpp(filter.words);
    const rate = absentRate(filter, new Set(inserted), n, 11);
    expectRateNear(rate, p, n);
    for (const s of ['Hello', 'hello ', 'parquet-format', 'blooms', '', 'FILTER']) expect(strFilter(filter, s), s).toBe(false);
  });

  for (const name of ['data_index_bloom_encoding_stats.parquet', 'data_index_bloom_encoding_with_length.parquet']) {
    test(`${name}: every value of the column is "maybe", other values mostly "absent"`, async () => {
      const file = new Uint8Array(fs.readFileSync(path.join(DATA_DIR, name)));
      const meta = footer(file);
      const rows = (await parquetReadObjects({ compressors, file: file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer })) as Record<string, unknown>[];
      expect(rows.length).toBe(14);
      let checked = 0;
      for (const rg of meta.row_groups) {
        for (const cc of rg.columns) {
          const cm = cc.meta_data!;
          if (cm.bloom_filter_offset === undefined) continue;
          expect(cm.type).toBe(Type.BYTE_ARRAY);
          expect(cm.bloom_filter_length !== undefined).toBe(name.includes('with_length'));
          const col = cm.path_in_schema.join('.');
          const values = rows.map((r) => r[col]).filter((v): v is string => typeof v === 'string');
          expect(values.length).toBe(14);
          const sync = readColumnBloomFilterSync(file, cm)!;
          const src = { byteLength: file.length, read: async (a: number, b: number) => file.subarray(a, b) };
          const viaSource = (await readColumnBloomFilter(src, cm))!;
          expect(viaSource.words).toEqual(sync.words);
          for (const v of values) expect(bloomMightContain(sync, cm.type, v), v).toBe(true);
          const n = 50_000;
          const p = occupancyFpp(sync.words);
          expect(p).toBeLessThan(0.01);
          const rate = absentRate(sync, new Set(values), n, 12);
          expectRateNear(rate, p, n);
          checked++;
        }
      }
      expect(checked).toBe(1);
    });
  }
});
