// ZSTD throughput: our decoder beside hyparquet-compressors (plain fzstd) and the reference library in WASM. 1 MiB input: hz = MiB/s.
// (Node 20's zlib has no zstd.)
import { bench, describe } from 'vitest';
import { decompressZstd } from 'hyparquet-compressors';
import { decompress as wasmDecompress } from '@bokuweb/zstd-wasm';
import { createZstdCodec, zstdDecoder } from '@parquetry/codec-zstd';
import { concat, numericBytes, randomBytes, textBytes } from '../../parquet-codecs/test/inputs.js';

const MiB = 1 << 20;
const input = concat(textBytes(MiB / 2, 31), numericBytes((MiB * 3) / 8, 32), randomBytes(MiB / 8, 33));
const zstd = await createZstdCodec({ level: 3 });
const packed = zstd.compress(input);
const out = new Uint8Array(MiB);
if (zstd.decompress(packed, out) !== MiB || !Buffer.from(out).equals(Buffer.from(input))) throw new Error('bench setup: zstd round trip');

describe('ZSTD decompress (1 MiB, hz = MiB/s)', () => {
  bench('parquetry createZstdCodec (reference decoder in WASM, bounded)', () => {
    zstd.decompress(packed, out);
  });
  bench('parquetry zstdDecoder (our decoder, bounded)', () => {
    zstdDecoder.decompress(packed, out);
  });
  bench('hyparquet-compressors decompressZstd (fzstd one-shot)', () => {
    decompressZstd(packed);
  });
  bench('@bokuweb/zstd-wasm decompress (reference C in WASM)', () => {
    wasmDecompress(packed);
  });
});

describe('ZSTD compress level 3 (1 MiB, hz = MiB/s)', () => {
  bench('parquetry codec-zstd (@bokuweb/zstd-wasm)', () => {
    zstd.compress(input);
  });
});
