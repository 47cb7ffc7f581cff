/**
 * Throughput of StatisticsBuilder.update on its hot paths: 10M INT64 (two 32-bit words per value), 10M DOUBLE and
 * 1M 16-byte strings (compared in place), each fed as 10 pages and merged into a chunk.
 * Run: npx vitest bench --run packages/parquet-column/bench/statistics.bench.ts
 */
import { bench, describe } from 'vitest';
import { buildSchemaTree } from '@parquetry/parquet-levels';
import { FieldRepetitionType, Type, type LogicalType } from '@parquetry/thrift-compact';
import { StatisticsBuilder } from '../src/statistics-builder.js';

const column = (type: Type, logicalType?: LogicalType) =>
  buildSchemaTree([{ name: 'root', num_children: 1 }, { name: 'v', type, repetition_type: FieldRepetitionType.OPTIONAL, ...(logicalType ? { logicalType } : {}) }]).columns[0]!;

const N = 10_000_000;
const S = 1_000_000;
let seed = 42;
const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed);
const i64 = new BigInt64Array(N);
const w = new Int32Array(i64.buffer);
for (let i = 0; i < 2 * N; i++) w[i] = rand();
const f64 = new Float64Array(N);
for (let i = 0; i < N; i++) f64[i] = (rand() - 2 ** 31) * 1e-3;
const strings = { offsets: new Int32Array(S + 1), data: new Uint8Array(S * 16) };
for (let i = 0; i < S * 16; i++) strings.data[i] = 0x61 + (rand() % 26);
for (let i = 0; i <= S; i++) strings.offsets[i] = i * 16;

function pages(b: StatisticsBuilder, chunk: StatisticsBuilder, values: BigInt64Array | Float64Array | typeof strings, n: number) {
  chunk.reset();
  const step = n / 10;
  for (let p = 0; p < n; p += step) {
    b.reset();
    b.update(values, p, p + step);
    chunk.merge(b);
  }
  return chunk.toThrift();
}

describe('StatisticsBuilder.update', () => {
  const i64c = column(Type.INT64);
  const dblc = column(Type.DOUBLE);
  const strc = column(Type.BYTE_ARRAY, { STRING: {} });
  const opts = { time: 2000, warmupTime: 500 };
  bench('10M INT64', () => void pages(new StatisticsBuilder(i64c), new StatisticsBuilder(i64c), i64, N), opts);
  bench('10M DOUBLE', () => void pages(new StatisticsBuilder(dblc), new StatisticsBuilder(dblc), f64, N), opts);
  bench('1M 16-byte strings', () => void pages(new StatisticsBuilder(strc), new StatisticsBuilder(strc), strings, S), opts);
});
