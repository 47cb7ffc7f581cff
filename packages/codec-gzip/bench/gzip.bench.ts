// GZIP throughput beside Node's zlib (native) and hyparquet-compressors' pure-JS gunzip. 1 MiB input: hz = MiB/s.
import zlib from 'node:zlib';
import { bench, describe } from 'vitest';
import { decompressGzip } from 'hyparquet-compressors';
import { gzipCodec } from '@parquetry/codec-gzip';
import { concat, numericBytes, randomBytes, textBytes } from '../../parquet-codecs/test/inputs.js';

const MiB = 1 << 20;
const input = concat(textBytes(MiB / 2, 31), numericBytes((MiB * 3) / 8, 32), randomBytes(MiB / 8, 33));
const packed = new Uint8Array(zlib.gzipSync(input, { level: 6 }));
const out = new Uint8Array(MiB);
if (gzipCodec.decompress(packed, out) !== MiB || !Buffer.from(out).equals(Buffer.from(input))) throw new Error('bench setup: gzip round trip');
const inputBuf = Buffer.from(input);

describe('GZIP decompress (1 MiB, hz = MiB/s)', () => {
  bench('parquetry codec-gzip (fflate + CRC32 check)', () => {
    gzipCodec.decompress(packed, out);
  });
  bench('hyparquet-compressors decompressGzip', () => {
    decompressGzip(packed, MiB);
  });
  bench('node zlib gunzipSync (native)', () => {
    zlib.gunzipSync(packed);
  });
});

describe('GZIP compress level 6 (1 MiB, hz = MiB/s)', () => {
  bench('parquetry codec-gzip (fflate)', () => {
    gzipCodec.compress(input);
  });
  bench('node zlib gzipSync (native)', () => {
    zlib.gzipSync(inputBuf, { level: 6 });
  });
});
