// Bit-packed runs of the RLE / bit-packing hybrid by width: the unrolled kernels (0–17, 24, 32) and the shared loop
// (the other widths, ~2x slower per value, smaller in every bundle), with hyparquet 1.33 on the same bytes. N values
// of random data per iteration (all bit-packed: no RLE runs).
import { readRleBitPackedHybrid } from 'hyparquet/src/encoding.js';
import { bench, describe } from 'vitest';
import { ByteWriter } from '@parquetry/thrift-compact';
import { decodeRleHybrid, encodeRleHybrid } from '../src/index.js';
import { prepareUnpack } from '../src/read-registry.js';

// the unrolled kernels of widths 9–17, 24 and 32, as a reader loads them
await prepareUnpack(10);

const N = 100_000;
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const out = new Int32Array(N);
const reader = (b: Uint8Array) => ({ view: new DataView(b.buffer, b.byteOffset, b.byteLength), offset: 0 });

for (const w of [4, 10, 17, 18, 20, 24, 28]) {
  const values = Int32Array.from({ length: N }, () => Math.floor(rnd() * 2 ** w) | 0);
  const bw = new ByteWriter(1 << 20);
  encodeRleHybrid(values, 0, N, w, bw);
  const bytes = bw.finish();
  describe(`bit-packed width ${w} (${w <= 17 || w === 24 || w === 32 ? 'unrolled' : 'shared loop'})`, () => {
    bench('parquetry', () => void decodeRleHybrid(bytes, 0, bytes.length, w, out, 0, N));
    bench('hyparquet', () => readRleBitPackedHybrid(reader(bytes), w, out, bytes.length));
  });
}
