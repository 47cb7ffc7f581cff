// Decode throughput, ours vs hyparquet 1.33's exported decoders, on identical bytes (produced by
// our encoders, checked against hyparquet in test/peer-hyparquet.test.ts). N values per iteration;
// values/s = hz × N. Encode throughput vs hyparquet-writer 0.17's encoders at the end.
import { ByteWriter, Type } from '@parquetry/thrift-compact';
import { alpDecode } from 'hyparquet/src/alp.js';
import { deltaBinaryUnpack, deltaByteArray, deltaLengthByteArray } from 'hyparquet/src/delta.js';
import { byteStreamSplit, readRleBitPackedHybrid } from 'hyparquet/src/encoding.js';
import { readPlain } from 'hyparquet/src/plain.js';
import { ByteWriter as HyByteWriter } from 'hyparquet-writer/src/bytewriter.js';
import { deltaBinaryPack, deltaByteArray as hwDeltaByteArray, deltaLengthByteArray as hwDeltaLengthByteArray } from 'hyparquet-writer/src/delta.js';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import { writePlain } from 'hyparquet-writer/src/plain.js';
import { writeByteStreamSplit } from 'hyparquet-writer/src/splitstream.js';
import { bench, describe } from 'vitest';
import {
  decodeAlpDouble,
  decodeByteStreamSplit,
  decodeDeltaBinaryPackedInt32,
  decodeDeltaBinaryPackedInt64,
  decodeDeltaByteArray,
  decodeDeltaLengthByteArray,
  decodePlainByteArray,
  decodePlainDouble,
  decodePlainInt32,
  decodeRleHybrid,
  encodeAlpDouble,
  encodeDeltaBinaryPackedInt32,
  encodeDeltaBinaryPackedInt64,
  encodeRleHybrid,
  encodeValues,
  type ByteArrays,
} from '../src/index.js';
import { prepareUnpack } from '../src/read-registry.js';

// the unrolled kernels of widths 9–17, 24 and 32 (the indices below are 10 bits), as a reader loads them
await prepareUnpack(10);

const N = 100_000;
const reader = (b: Uint8Array) => ({ view: new DataView(b.buffer, b.byteOffset, b.byteLength), offset: 0 });
let seed = 42;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
/** Encodes into a fresh 1 MiB writer (the same start size as the peer writer below); returns a view. */
const enc = (f: (w: ByteWriter) => void) => {
  const w = new ByteWriter(1 << 20);
  f(w);
  return w.finish();
};

// RLE hybrid: definition levels (width 1, runs and noise) and dictionary indices (width 10, random)
const levels = Int32Array.from({ length: N }, (_, i) => ((i >> 6) % 3 === 0 ? (rnd() < 0.5 ? 1 : 0) : 1));
const indices = Int32Array.from({ length: N }, () => Math.floor(rnd() * 1000));
const levelsBytes = enc((w) => encodeRleHybrid(levels, 0, N, 1, w));
const indexBytes = enc((w) => encodeRleHybrid(indices, 0, N, 10, w));
const out32 = new Int32Array(N);

describe('RLE hybrid, width 1 (levels)', () => {
  bench('parquetry', () => void decodeRleHybrid(levelsBytes, 0, levelsBytes.length, 1, out32, 0, N));
  bench('hyparquet', () => readRleBitPackedHybrid(reader(levelsBytes), 1, out32, levelsBytes.length));
});
describe('RLE hybrid, width 10 (dictionary indices)', () => {
  bench('parquetry', () => void decodeRleHybrid(indexBytes, 0, indexBytes.length, 10, out32, 0, N));
  bench('hyparquet', () => readRleBitPackedHybrid(reader(indexBytes), 10, out32, indexBytes.length));
});

// PLAIN: INT32 at an unaligned offset (both copy), DOUBLE aligned (we return a view), BYTE_ARRAY
const ints = Int32Array.from({ length: N }, () => (rnd() * 2 ** 32) | 0);
const plainInts = enc((w) => {
  w.u8(0);
  encodeValues(0, ints, { type: Type.INT32 }, w);
});
const doubles = Float64Array.from({ length: N }, () => rnd() * 1000);
const plainDoubles = enc((w) => encodeValues(0, doubles, { type: Type.DOUBLE }, w));
const strings: ByteArrays = (() => {
  const te = new TextEncoder();
  const parts = Array.from({ length: N }, (_, i) => te.encode(`value-${i}-${Math.floor(rnd() * 1e6)}`));
  const offsets = new Int32Array(N + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length));
  const data = new Uint8Array(offsets[N]!);
  parts.forEach((p, i) => data.set(p, offsets[i]!));
  return { offsets, data };
})();
const plainStrings = enc((w) => encodeValues(0, strings, { type: Type.BYTE_ARRAY }, w));

describe('PLAIN INT32 (unaligned: both copy)', () => {
  bench('parquetry', () => void decodePlainInt32(plainInts, 1, plainInts.length, N));
  bench('hyparquet', () => {
    const r = reader(plainInts);
    r.offset = 1;
    readPlain(r, 'INT32', N, undefined);
  });
});
describe('PLAIN DOUBLE (aligned)', () => {
  bench('parquetry', () => void decodePlainDouble(plainDoubles, 0, plainDoubles.length, N));
  bench('hyparquet', () => void readPlain(reader(plainDoubles), 'DOUBLE', N, undefined));
});
describe('PLAIN BYTE_ARRAY', () => {
  bench('parquetry', () => void decodePlainByteArray(plainStrings, 0, plainStrings.length, N));
  bench('hyparquet', () => void readPlain(reader(plainStrings), 'BYTE_ARRAY', N, undefined));
});

// DELTA_BINARY_PACKED: sorted-ish timestamps (INT64) and ids (INT32)
const ids = Int32Array.from({ length: N }, (_, i) => i * 7 + Math.floor(rnd() * 100));
const ts = BigInt64Array.from({ length: N }, (_, i) => 1_700_000_000_000_000n + BigInt(i * 1000 + Math.floor(rnd() * 500)));
const dbp32 = enc((w) => encodeDeltaBinaryPackedInt32(ids, 0, N, w));
const dbp64 = enc((w) => encodeDeltaBinaryPackedInt64(ts, 0, N, w));
const out64 = new BigInt64Array(N);

describe('DELTA_BINARY_PACKED INT32', () => {
  bench('parquetry', () => void decodeDeltaBinaryPackedInt32(dbp32, 0, dbp32.length, out32, 0, N));
  bench('hyparquet', () => deltaBinaryUnpack(reader(dbp32), N, out32));
});
describe('DELTA_BINARY_PACKED INT64', () => {
  bench('parquetry', () => void decodeDeltaBinaryPackedInt64(dbp64, 0, dbp64.length, out64, 0, N));
  bench('hyparquet', () => deltaBinaryUnpack(reader(dbp64), N, out64));
});

// DELTA_LENGTH_BYTE_ARRAY / DELTA_BYTE_ARRAY over the same strings
const dlba = enc((w) => encodeValues(6, strings, { type: Type.BYTE_ARRAY }, w));
const dba = enc((w) => encodeValues(7, strings, { type: Type.BYTE_ARRAY }, w));
describe('DELTA_LENGTH_BYTE_ARRAY', () => {
  bench('parquetry', () => void decodeDeltaLengthByteArray(dlba, 0, dlba.length, N));
  bench('hyparquet', () => deltaLengthByteArray(reader(dlba), N, new Array(N)));
});
describe('DELTA_BYTE_ARRAY', () => {
  bench('parquetry', () => void decodeDeltaByteArray(dba, 0, dba.length, N));
  bench('hyparquet', () => deltaByteArray(reader(dba), N, new Array(N)));
});

// BYTE_STREAM_SPLIT DOUBLE, ALP DOUBLE (decimal data)
const bss = enc((w) => encodeValues(9, doubles, { type: Type.DOUBLE }, w));
const bssOut = new Uint8Array(N * 8);
describe('BYTE_STREAM_SPLIT DOUBLE', () => {
  bench('parquetry', () => void decodeByteStreamSplit(bss, 0, bss.length, N, 8, bssOut));
  bench('hyparquet', () => void byteStreamSplit(reader(bss), N, 'DOUBLE', undefined));
});
const prices = Float64Array.from({ length: N }, () => Math.round(rnd() * 1e6) / 100);
const alp = enc((w) => encodeAlpDouble(prices, 0, N, w));
const alpOut = new Float64Array(N);
describe('ALP DOUBLE (prices with 2 decimals)', () => {
  bench('parquetry', () => void decodeAlpDouble(alp, 0, alp.length, alpOut, 0, N));
  bench('hyparquet', () => void alpDecode(reader(alp), N, 'DOUBLE'));
});

// Encode: ours vs hyparquet-writer 0.17 on the same values (their byte arrays as Uint8Array[], their API's form)
const stringItems = Array.from({ length: N }, (_, i) => strings.data.subarray(strings.offsets[i]!, strings.offsets[i + 1]!));
const hw = () => new HyByteWriter(1 << 20);
describe('encode RLE hybrid width 10', () => {
  bench('parquetry', () => void enc((w) => encodeRleHybrid(indices, 0, N, 10, w)));
  bench('hyparquet-writer', () => void writeRleBitPackedHybrid(hw(), indices, 10));
});
describe('encode PLAIN INT32', () => {
  bench('parquetry', () => void enc((w) => encodeValues(0, ints, { type: Type.INT32 }, w)));
  bench('hyparquet-writer', () => void writePlain(hw(), ints, 'INT32', undefined));
});
describe('encode PLAIN BYTE_ARRAY', () => {
  bench('parquetry', () => void enc((w) => encodeValues(0, strings, { type: Type.BYTE_ARRAY }, w)));
  bench('hyparquet-writer', () => void writePlain(hw(), stringItems, 'BYTE_ARRAY', undefined));
});
describe('encode DELTA_BINARY_PACKED INT32', () => {
  bench('parquetry', () => void enc((w) => encodeDeltaBinaryPackedInt32(ids, 0, N, w)));
  bench('hyparquet-writer', () => void deltaBinaryPack(hw(), ids, 'INT32'));
});
describe('encode DELTA_BINARY_PACKED INT64', () => {
  bench('parquetry', () => void enc((w) => encodeDeltaBinaryPackedInt64(ts, 0, N, w)));
  bench('hyparquet-writer', () => void deltaBinaryPack(hw(), ts, 'INT64'));
});
describe('encode DELTA_LENGTH_BYTE_ARRAY', () => {
  bench('parquetry', () => void enc((w) => encodeValues(6, strings, { type: Type.BYTE_ARRAY }, w)));
  bench('hyparquet-writer', () => void hwDeltaLengthByteArray(hw(), stringItems));
});
describe('encode DELTA_BYTE_ARRAY', () => {
  bench('parquetry', () => void enc((w) => encodeValues(7, strings, { type: Type.BYTE_ARRAY }, w)));
  bench('hyparquet-writer', () => void hwDeltaByteArray(hw(), stringItems));
});
describe('encode BYTE_STREAM_SPLIT DOUBLE', () => {
  bench('parquetry', () => void enc((w) => encodeValues(9, doubles, { type: Type.DOUBLE }, w)));
  bench('hyparquet-writer', () => void writeByteStreamSplit(hw(), doubles, 'DOUBLE', undefined));
});
describe('encode ALP DOUBLE (no peer encoder)', () => {
  bench('parquetry', () => void enc((w) => encodeAlpDouble(prices, 0, N, w)));
});

// BENCH_TABLE=1: a best-of-N timing table (values/s, MB/s of encoded input, ratio), steadier than
// vitest's mean hz on a loaded machine.
if (process.env.BENCH_TABLE) {
  const best = (f: () => void): number => {
    let b = Infinity;
    for (let r = 0; r < 25; r++) {
      const t = performance.now();
      for (let i = 0; i < 4; i++) f();
      b = Math.min(b, (performance.now() - t) / 4);
    }
    return b;
  };
  const rows: [string, Uint8Array, () => void, () => void][] = [
    ['RLE hybrid w1', levelsBytes, () => decodeRleHybrid(levelsBytes, 0, levelsBytes.length, 1, out32, 0, N), () => readRleBitPackedHybrid(reader(levelsBytes), 1, out32, levelsBytes.length)],
    ['RLE hybrid w10', indexBytes, () => decodeRleHybrid(indexBytes, 0, indexBytes.length, 10, out32, 0, N), () => readRleBitPackedHybrid(reader(indexBytes), 10, out32, indexBytes.length)],
    ['PLAIN INT32 (unaligned)', plainInts, () => decodePlainInt32(plainInts, 1, plainInts.length, N), () => { const r = reader(plainInts); r.offset = 1; readPlain(r, 'INT32', N, undefined); }],
    ['PLAIN DOUBLE', plainDoubles, () => decodePlainDouble(plainDoubles, 0, plainDoubles.length, N), () => readPlain(reader(plainDoubles), 'DOUBLE', N, undefined)],
    ['PLAIN BYTE_ARRAY', plainStrings, () => decodePlainByteArray(plainStrings, 0, plainStrings.length, N), () => readPlain(reader(plainStrings), 'BYTE_ARRAY', N, undefined)],
    ['DELTA_BINARY_PACKED INT32', dbp32, () => decodeDeltaBinaryPackedInt32(dbp32, 0, dbp32.length, out32, 0, N), () => deltaBinaryUnpack(reader(dbp32), N, out32)],
    ['DELTA_BINARY_PACKED INT64', dbp64, () => decodeDeltaBinaryPackedInt64(dbp64, 0, dbp64.length, out64, 0, N), () => deltaBinaryUnpack(reader(dbp64), N, out64)],
    ['DELTA_LENGTH_BYTE_ARRAY', dlba, () => decodeDeltaLengthByteArray(dlba, 0, dlba.length, N), () => deltaLengthByteArray(reader(dlba), N, new Array(N))],
    ['DELTA_BYTE_ARRAY', dba, () => decodeDeltaByteArray(dba, 0, dba.length, N), () => deltaByteArray(reader(dba), N, new Array(N))],
    ['BYTE_STREAM_SPLIT DOUBLE', bss, () => decodeByteStreamSplit(bss, 0, bss.length, N, 8, bssOut), () => byteStreamSplit(reader(bss), N, 'DOUBLE', undefined)],
    ['ALP DOUBLE', alp, () => decodeAlpDouble(alp, 0, alp.length, alpOut, 0, N), () => alpDecode(reader(alp), N, 'DOUBLE')],
  ];
  const lines = ['| decode | parquetry Mvalues/s | MB/s | hyparquet Mvalues/s | ratio |', '|---|---|---|---|---|'];
  for (const [name, bytes, ours, theirs] of rows) {
    const a = best(ours);
    const h = best(theirs);
    lines.push(`| ${name} | ${(N / a / 1000).toFixed(1)} | ${(bytes.length / a / 1000).toFixed(0)} | ${(N / h / 1000).toFixed(1)} | ${(h / a).toFixed(2)}× |`);
  }
  const encRows: [string, () => void, () => void][] = [
    ['RLE hybrid w10', () => enc((w) => encodeRleHybrid(indices, 0, N, 10, w)), () => writeRleBitPackedHybrid(hw(), indices, 10)],
    ['PLAIN INT32', () => enc((w) => encodeValues(0, ints, { type: Type.INT32 }, w)), () => writePlain(hw(), ints, 'INT32', undefined)],
    ['PLAIN BYTE_ARRAY', () => enc((w) => encodeValues(0, strings, { type: Type.BYTE_ARRAY }, w)), () => writePlain(hw(), stringItems, 'BYTE_ARRAY', undefined)],
    ['DELTA_BINARY_PACKED INT32', () => enc((w) => encodeDeltaBinaryPackedInt32(ids, 0, N, w)), () => deltaBinaryPack(hw(), ids, 'INT32')],
    ['DELTA_BINARY_PACKED INT64', () => enc((w) => encodeDeltaBinaryPackedInt64(ts, 0, N, w)), () => deltaBinaryPack(hw(), ts, 'INT64')],
    ['DELTA_LENGTH_BYTE_ARRAY', () => enc((w) => encodeValues(6, strings, { type: Type.BYTE_ARRAY }, w)), () => hwDeltaLengthByteArray(hw(), stringItems)],
    ['DELTA_BYTE_ARRAY', () => enc((w) => encodeValues(7, strings, { type: Type.BYTE_ARRAY }, w)), () => hwDeltaByteArray(hw(), stringItems)],
    ['BYTE_STREAM_SPLIT DOUBLE', () => enc((w) => encodeValues(9, doubles, { type: Type.DOUBLE }, w)), () => writeByteStreamSplit(hw(), doubles, 'DOUBLE', undefined)],
  ];
  lines.push('', '| encode | parquetry Mvalues/s | hyparquet-writer Mvalues/s | ratio |', '|---|---|---|---|');
  for (const [name, ours, theirs] of encRows) {
    const a = best(ours);
    const h = best(theirs);
    lines.push(`| ${name} | ${(N / a / 1000).toFixed(1)} | ${(N / h / 1000).toFixed(1)} | ${(h / a).toFixed(2)}× |`);
  }
  lines.push(`| ALP DOUBLE (no peer) | ${(N / best(() => enc((w) => encodeAlpDouble(prices, 0, N, w))) / 1000).toFixed(1)} | — | — |`);
  console.log(lines.join('\n'));
}
