/**
 * Bloom filter benchmarks: parquetry vs hyparquet 1.33 (BigInt XXH64 + SBBF) and, for the
 * hash alone, xxhash-wasm 1.1. Every case in a describe block does the same work on the
 * same inputs; each iteration processes the whole input array.
 */
import { bench, describe } from 'vitest';
import xxhashWasm from 'xxhash-wasm';
// hyparquet exposes its bloom helpers through its `./src/*.js` export.
import { hashParquetValue, sbbfContains, sbbfInsert } from 'hyparquet/src/bloom.js';
import { xxhash64 as hyXxhash64 } from 'hyparquet/src/xxhash.js';
import { SplitBlockBloomFilter, xxhash64, xxhash64Int64 } from '../src/index.js';

const wasm = await xxhashWasm();
const N = 1_000_000;
const opts = { time: 500, iterations: 5, warmupTime: 0, warmupIterations: 1 };

// Inputs: 1M distinct INT64 values and 1M short strings.
const ints = new BigInt64Array(N);
for (let i = 0; i < N; i++) ints[i] = BigInt(i) * 2654435761n - 123456789n;
const intWords = new Int32Array(ints.buffer); // int32 words: no HeapNumber when passed to a non-inlined call
const intBytes = new Uint8Array(ints.buffer);
const strs: string[] = [];
const enc = new TextEncoder();
const strOffsets = new Int32Array(N + 1);
const parts: Uint8Array[] = [];
let total = 0;
for (let i = 0; i < N; i++) {
  const s = `user-${i.toString(36)}-${(i * 7919) % 1000}`;
  strs.push(s);
  const b = enc.encode(s);
  parts.push(b);
  total += b.length;
  strOffsets[i + 1] = total;
}
const strData = new Uint8Array(total);
for (let i = 0; i < N; i++) strData.set(parts[i]!, strOffsets[i]!);

const INT64 = { name: 'v', type: 'INT64' } as const;
const BYTE_ARRAY = { name: 's', type: 'BYTE_ARRAY' } as const;
const out = new Uint32Array(2);
let sink = 0;

describe('xxhash64 of one INT64 (PLAIN, 8 bytes), 1M values', () => {
  bench('parquetry xxhash64Int64 (words, no buffer)', () => {
    for (let i = 0; i < N; i++) {
      xxhash64Int64(intWords[2 * i]!, intWords[2 * i + 1]!, out);
      sink ^= out[0]!;
    }
  }, opts);
  bench('parquetry xxhash64 over the 8 bytes', () => {
    for (let i = 0; i < N; i++) {
      xxhash64(intBytes, 8 * i, 8, out);
      sink ^= out[0]!;
    }
  }, opts);
  bench('xxhash-wasm h64Raw (subarray, bigint result)', () => {
    for (let i = 0; i < N; i++) sink ^= Number(wasm.h64Raw(intBytes.subarray(8 * i, 8 * i + 8), 0n) & 0xffn);
  }, opts);
  bench('hyparquet xxhash64 (BigInt)', () => {
    for (let i = 0; i < N; i++) sink ^= Number(hyXxhash64(intBytes.subarray(8 * i, 8 * i + 8)) & 0xffn);
  }, opts);
});

describe('xxhash64 of one short string (BYTE_ARRAY, ~15 bytes), 1M values', () => {
  bench('parquetry xxhash64', () => {
    for (let i = 0; i < N; i++) {
      xxhash64(strData, strOffsets[i]!, strOffsets[i + 1]! - strOffsets[i]!, out);
      sink ^= out[0]!;
    }
  }, opts);
  bench('xxhash-wasm h64Raw', () => {
    for (let i = 0; i < N; i++) sink ^= Number(wasm.h64Raw(strData.subarray(strOffsets[i]!, strOffsets[i + 1]!), 0n) & 0xffn);
  }, opts);
  bench('hyparquet xxhash64 (BigInt)', () => {
    for (let i = 0; i < N; i++) sink ^= Number(hyXxhash64(strData.subarray(strOffsets[i]!, strOffsets[i + 1]!)) & 0xffn);
  }, opts);
});

describe('xxhash64 of 4 KiB, 1000 buffers', () => {
  const big = new Uint8Array(4096 * 1000);
  for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 255;
  bench('parquetry xxhash64', () => {
    for (let i = 0; i < 1000; i++) {
      xxhash64(big, 4096 * i, 4096, out);
      sink ^= out[0]!;
    }
  }, opts);
  bench('xxhash-wasm h64Raw', () => {
    for (let i = 0; i < 1000; i++) sink ^= Number(wasm.h64Raw(big.subarray(4096 * i, 4096 * i + 4096), 0n) & 0xffn);
  }, opts);
});

describe('build a filter for a 1,000,000-value INT64 column (hash + insert)', () => {
  bench('parquetry forNdv(1M, 0.01) + insertInt64Values', () => {
    const f = SplitBlockBloomFilter.forNdv(N, 0.01);
    f.insertInt64Values(ints);
    sink ^= f.words[0]!;
  }, opts);
  bench('hyparquet hashParquetValue + sbbfInsert (same size)', () => {
    const blocks = new Uint32Array(SplitBlockBloomFilter.forNdv(N, 0.01).numBytes >> 2);
    for (let i = 0; i < N; i++) sbbfInsert(blocks, hashParquetValue(ints[i]!, INT64)!);
    sink ^= blocks[0]!;
  }, opts);
});

describe('build a filter for a 1,000,000-value BYTE_ARRAY column (hash + insert)', () => {
  bench('parquetry forNdv(1M, 0.01) + insertByteArrayValues', () => {
    const f = SplitBlockBloomFilter.forNdv(N, 0.01);
    f.insertByteArrayValues(strOffsets, strData);
    sink ^= f.words[0]!;
  }, opts);
  bench('hyparquet hashParquetValue(string) + sbbfInsert (same size)', () => {
    const blocks = new Uint32Array(SplitBlockBloomFilter.forNdv(N, 0.01).numBytes >> 2);
    for (let i = 0; i < N; i++) sbbfInsert(blocks, hashParquetValue(strs[i]!, BYTE_ARRAY)!);
    sink ^= blocks[0]!;
  }, opts);
});

describe('probe 1,000,000 INT64 values (half present)', () => {
  const f = SplitBlockBloomFilter.forNdv(N / 2, 0.01);
  f.insertInt64Values(ints, 0, N / 2);
  const blocks = f.words;
  bench('parquetry mightContainInt64', () => {
    let hits = 0;
    for (let i = 0; i < N; i++) if (f.mightContainInt64(intWords[2 * i]!, intWords[2 * i + 1]!)) hits++;
    sink ^= hits;
  }, opts);
  bench('parquetry mightContainBigInt64 (bigint input)', () => {
    let hits = 0;
    for (let i = 0; i < N; i++) if (f.mightContainBigInt64(ints[i]!)) hits++;
    sink ^= hits;
  }, opts);
  bench('hyparquet hashParquetValue + sbbfContains', () => {
    let hits = 0;
    for (let i = 0; i < N; i++) if (sbbfContains(blocks, hashParquetValue(ints[i]!, INT64)!)) hits++;
    sink ^= hits;
  }, opts);
});

describe('probe 1,000,000 strings (half present)', () => {
  const f = SplitBlockBloomFilter.forNdv(N / 2, 0.01);
  f.insertByteArrayValues(strOffsets, strData, 0, N / 2);
  const blocks = f.words;
  bench('parquetry mightContainBytes', () => {
    let hits = 0;
    for (let i = 0; i < N; i++) if (f.mightContainBytes(strData, strOffsets[i]!, strOffsets[i + 1]! - strOffsets[i]!)) hits++;
    sink ^= hits;
  }, opts);
  bench('hyparquet hashParquetValue(string) + sbbfContains', () => {
    let hits = 0;
    for (let i = 0; i < N; i++) if (sbbfContains(blocks, hashParquetValue(strs[i]!, BYTE_ARRAY)!)) hits++;
    sink ^= hits;
  }, opts);
});

export { sink };
