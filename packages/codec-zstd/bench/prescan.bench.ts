// Cost of the Huffman weight pre-scan (zstdPrescan) on a 1 MiB page beside the fzstd decompression it guards.
import { bench, describe } from 'vitest';
import { createZstdCodec, zstdDecoder, zstdFrames, zstdPrescan } from '@parquetry/codec-zstd';
import { concat, numericBytes, randomBytes, textBytes } from '../../parquet-codecs/test/inputs.js';

const MiB = 1 << 20;
const input = concat(textBytes(MiB / 2, 31), numericBytes((MiB * 3) / 8, 32), randomBytes(MiB / 8, 33));
const packed = (await createZstdCodec({ level: 3 })).compress(input);
const out = new Uint8Array(MiB);
const frames = zstdFrames(packed);
const described = zstdPrescan(packed, frames);
if (described === 0) throw new Error('bench setup: no FSE-compressed Huffman description to scan');

describe(`ZSTD pre-scan, 1 MiB page (${packed.length} bytes, ${described} FSE-compressed weight descriptions)`, () => {
  bench('zstdPrescan', () => {
    zstdPrescan(packed, frames);
  });
  bench('zstdFrames + zstdPrescan', () => {
    zstdPrescan(packed, zstdFrames(packed));
  });
  bench('zstdDecoder.decompress (fzstd, includes the pre-scan)', () => {
    zstdDecoder.decompress(packed, out);
  });
});
