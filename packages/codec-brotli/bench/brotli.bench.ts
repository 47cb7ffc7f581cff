// BROTLI throughput beside Node's zlib (native) and hyparquet-compressors' pure-JS decoder. 1 MiB input: hz = MiB/s.
import zlib from 'node:zlib';
import { bench, describe } from 'vitest';
import { decompressBrotli } from 'hyparquet-compressors';
import { brotliDecoder, createBrotliCodec } from '@parquetry/codec-brotli';
import { concat, numericBytes, randomBytes, textBytes } from '../../parquet-codecs/test/inputs.js';

const MiB = 1 << 20;
const input = concat(textBytes(MiB / 2, 31), numericBytes((MiB * 3) / 8, 32), randomBytes(MiB / 8, 33));
const brotli = await createBrotliCodec({ quality: 5 });
const packed = brotli.compress(input);
const out = new Uint8Array(MiB);
if (brotli.decompress(packed, out) !== MiB || !Buffer.from(out).equals(Buffer.from(input))) throw new Error('bench setup: brotli round trip');
const inputBuf = Buffer.from(input);
const q5 = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } };

describe('BROTLI decompress (1 MiB, hz = MiB/s)', () => {
  bench('parquetry codec-brotli (WASM, bounded streaming)', () => {
    brotli.decompress(packed, out);
  });
  bench('parquetry brotliDecoder (JS, decode-only: the browser reader)', () => {
    brotliDecoder.decompress(packed, out);
  });
  bench('hyparquet-compressors decompressBrotli (JS)', () => {
    decompressBrotli(packed, MiB);
  });
  bench('node zlib brotliDecompressSync (native)', () => {
    zlib.brotliDecompressSync(packed);
  });
});

describe('BROTLI compress quality 5 (1 MiB, hz = MiB/s)', () => {
  bench('parquetry codec-brotli (WASM)', () => {
    brotli.compress(input);
  });
  bench('node zlib brotliCompressSync (native)', () => {
    zlib.brotliCompressSync(inputBuf, q5);
  });
});
