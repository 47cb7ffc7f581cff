// Bounded-time fuzzing (1.5 s each) of the pure-TS decompressors: random and mutated streams must either decode
// within the output or throw a ParquetError — never a TypeError/RangeError, never a count past the output.
import { expect, test } from 'vitest';
import { lz4HadoopCodec, lz4RawCodec, lzoCodec, snappyCodec, type Codec } from '@parquetry/parquet-codecs';
import { numericBytes, randomBytes, repetitiveBytes, textBytes } from './inputs.js';
import { fuzzDecompressor } from './fuzz-harness.js';

const samples = [textBytes(2000, 21), numericBytes(1600, 22), repetitiveBytes(3000), randomBytes(500, 23), new Uint8Array(1), textBytes(70, 24)];

test.each([
  ['SNAPPY', snappyCodec],
  ['LZ4_RAW', lz4RawCodec],
  ['LZ4 (Hadoop + raw fallback)', lz4HadoopCodec],
  ['LZO', lzoCodec],
] as [string, Codec][])('fuzz %s decompression', (_name, codec) => {
  const seeds = samples.map((s) => ({ packed: codec.compress(s), size: s.length }));
  const stats = fuzzDecompressor((src, out) => codec.decompress(src, out), seeds, 1500);
  expect(stats.runs).toBeGreaterThan(1000);
  expect(stats.typedErrors).toBeGreaterThan(0);
});
