// Decompression and compression throughput of the pure-TS codecs beside the fastest npm alternatives.
// Every input is exactly 1 MiB, so a task's hz (ops/s) reads directly as MiB/s.
import { bench, describe } from 'vitest';
import snappy from 'snappy';
import { snappyUncompress as hyparquetSnappy } from 'hyparquet';
import { decompressLz4, decompressLz4Raw, decompressSnappy as hysnappy } from 'hyparquet-compressors';
import lz4napi from 'lz4-napi';
import { crc32, lz4HadoopCompress, lz4HadoopDecompress, lz4RawCompress, lz4RawDecompress, lzoCompress, lzoDecompress, snappyCompress, snappyDecompress } from '@parquetry/parquet-codecs';
import zlib from 'node:zlib';
import { setSnappyEncoder } from '../src/snappy-compress.js';
import { concat, numericBytes, randomBytes, textBytes } from '../test/inputs.js';

const MiB = 1 << 20;
// A page-like mix: text, slowly growing int64s, a little noise.
const input = concat(textBytes(MiB / 2, 31), numericBytes((MiB * 3) / 8, 32), randomBytes(MiB / 8, 33));
const out = new Uint8Array(MiB);

function check(name: string, got: Uint8Array): void {
  if (got.length !== input.length || !Buffer.from(got).equals(Buffer.from(input))) throw new Error(`bench setup: ${name} does not round-trip`);
}

const snappyPacked = snappyCompress(input);
check('snappy', new Uint8Array(snappy.uncompressSync(Buffer.from(snappyPacked), { asBuffer: true }) as Buffer));
const lz4Packed = lz4RawCompress(input);
const lz4Prepended = Buffer.concat([Buffer.from(new Uint32Array([input.length]).buffer), Buffer.from(lz4Packed)]);
check('lz4-napi', new Uint8Array(lz4napi.uncompressSync(lz4Prepended)));
const lz4Hadoop = lz4HadoopCompress(input);
check('hyparquet-compressors lz4', decompressLz4(lz4Hadoop, input.length));
const lzoPacked = lzoCompress(input);
const inputBuf = Buffer.from(input);

console.log(
  `1 MiB input compresses to: SNAPPY ${snappyPacked.length} (native ${snappy.compressSync(inputBuf).length}), LZ4_RAW ${lz4Packed.length} (lz4-napi ${lz4napi.compressSync(inputBuf).length - 4}), LZO ${lzoPacked.length}`,
);

describe('SNAPPY decompress (1 MiB, hz = MiB/s)', () => {
  bench('parquetry snappyDecompress', () => {
    snappyDecompress(snappyPacked, out);
  });
  bench('hyparquet snappyUncompress (JS)', () => {
    hyparquetSnappy(snappyPacked, out);
  });
  bench('hysnappy (WASM, hyparquet-compressors)', () => {
    hysnappy(snappyPacked, input.length);
  });
  bench('snappy (native npm)', () => {
    snappy.uncompressSync(snappyPacked, { asBuffer: true });
  });
});

describe('SNAPPY compress (1 MiB, hz = MiB/s)', () => {
  bench('parquetry snappyCompress (WebAssembly kernel)', () => {
    snappyCompress(input);
  });
  bench('parquetry snappyCompress (TypeScript loop)', () => {
    setSnappyEncoder('ts');
    try {
      snappyCompress(input);
    } finally {
      setSnappyEncoder('auto');
    }
  });
  bench('snappy (native npm)', () => {
    snappy.compressSync(inputBuf);
  });
});

describe('LZ4_RAW decompress (1 MiB, hz = MiB/s)', () => {
  bench('parquetry lz4RawDecompress', () => {
    lz4RawDecompress(lz4Packed, out);
  });
  bench('hyparquet-compressors decompressLz4Raw', () => {
    decompressLz4Raw(lz4Packed, input.length);
  });
  bench('lz4-napi uncompressSync (native)', () => {
    lz4napi.uncompressSync(lz4Prepended);
  });
});

describe('LZ4_RAW compress (1 MiB, hz = MiB/s)', () => {
  bench('parquetry lz4RawCompress', () => {
    lz4RawCompress(input);
  });
  bench('lz4-napi compressSync (native)', () => {
    lz4napi.compressSync(inputBuf);
  });
});

describe('LZ4 Hadoop decompress (1 MiB, hz = MiB/s)', () => {
  bench('parquetry lz4HadoopDecompress', () => {
    lz4HadoopDecompress(lz4Hadoop, out);
  });
  bench('hyparquet-compressors decompressLz4', () => {
    decompressLz4(lz4Hadoop, input.length);
  });
});

describe('LZO (1 MiB, hz = MiB/s; no npm peer reads LZO)', () => {
  bench('parquetry lzoDecompress', () => {
    lzoDecompress(lzoPacked, out);
  });
  bench('parquetry lzoCompress', () => {
    lzoCompress(input);
  });
});

describe('CRC-32 of a page (1 MiB, hz = MiB/s)', () => {
  if (crc32(input, 1) !== zlib.crc32(input.subarray(1))) throw new Error('bench setup: crc32 differs from node:zlib');
  bench('parquetry crc32 (slicing-by-16, unaligned start)', () => {
    crc32(input, 1);
  });
  bench('node:zlib crc32 (native)', () => {
    zlib.crc32(input.subarray(1));
  });
});
