// Writer-side throughput: DictionaryEncoder.put (1 M values per iteration: INT32 with 1 000 distinct values, and
// 8–24-byte strings with 1 000 distinct values, against buildDictionary's Map), and streaming ValueEncoder
// put + flush of 1 M values against the one-shot encoder. values/s = hz × 1 M.
//   npx vitest bench --run packages/parquet-encodings/bench/encoders.bench.ts
import { ByteWriter, Encoding, Type } from '@parquetry/thrift-compact';
import { bench, describe } from 'vitest';
import { buildDictionary, createValueEncoder, DictionaryEncoder, encodeValues, type ByteArrays } from '../src/index.js';

const N = 1_000_000;
const BATCH = 4096;
let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;

const ints = Int32Array.from({ length: N }, () => Math.floor(rnd() * 1000) * 7919 - 3_000_000);
const distinct = Array.from({ length: 1000 }, (_, i) => {
  const len = 8 + Math.floor(rnd() * 17);
  const s = `key-${i}-`.padEnd(len, 'x');
  return new TextEncoder().encode(s.slice(0, len));
});
const strings: ByteArrays = (() => {
  const picks = Int32Array.from({ length: N }, () => Math.floor(rnd() * 1000));
  const offsets = new Int32Array(N + 1);
  for (let i = 0; i < N; i++) offsets[i + 1] = offsets[i]! + distinct[picks[i]!]!.length;
  const data = new Uint8Array(offsets[N]!);
  for (let i = 0; i < N; i++) data.set(distinct[picks[i]!]!, offsets[i]!);
  return { offsets, data };
})();
const out = new Int32Array(N);

describe('dictionary: INT32, 1 M values, 1 000 distinct', () => {
  bench('DictionaryEncoder.put (batches of 4096)', () => {
    const d = new DictionaryEncoder({ type: Type.INT32 });
    for (let a = 0; a < N; a += BATCH) d.put(ints, a, Math.min(N, a + BATCH), out, a);
  });
  bench('buildDictionary (Map)', () => void buildDictionary(ints));
});

describe('dictionary: BYTE_ARRAY, 1 M values of 8–24 bytes, 1 000 distinct', () => {
  bench('DictionaryEncoder.put (batches of 4096)', () => {
    const d = new DictionaryEncoder({ type: Type.BYTE_ARRAY });
    for (let a = 0; a < N; a += BATCH) d.put(strings, a, Math.min(N, a + BATCH), out, a);
  });
  bench('buildDictionary (Map<string>)', () => void buildDictionary(strings));
});

const w = new ByteWriter(1 << 23);
const seq = Int32Array.from({ length: N }, (_, i) => i * 3 + (i & 7));
for (const [name, encoding, type, values] of [
  ['PLAIN BYTE_ARRAY', Encoding.PLAIN, Type.BYTE_ARRAY, strings],
  ['DELTA_BINARY_PACKED INT32', Encoding.DELTA_BINARY_PACKED, Type.INT32, seq],
  ['DELTA_BYTE_ARRAY', Encoding.DELTA_BYTE_ARRAY, Type.BYTE_ARRAY, strings],
] as const) {
  describe(`${name}, 1 M values`, () => {
    const enc = createValueEncoder(encoding, { type });
    bench('ValueEncoder put (batches of 4096) + estimatedSize + flush', () => {
      for (let a = 0; a < N; a += BATCH) {
        enc.put(values, a, Math.min(N, a + BATCH));
        enc.estimatedSize();
      }
      w.pos = 0;
      enc.flush(w);
    });
    bench('one-shot encoder', () => {
      w.pos = 0;
      encodeValues(encoding, values, { type }, w);
    });
  });
}
