import path from 'node:path';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { builtinCodecs, crc32 } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { HAVE_CORPUS, corpus, readBytes, typedError } from './helpers.js';

describe('crc32', () => {
  test('the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789')) >>> 0).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });
  test('agrees with node:zlib crc32 on random input of every alignment', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        expect(crc32(b) >>> 0).toBe(zlib.crc32(b));
      }),
      { numRuns: 500 },
    );
  });
});

describe.skipIf(!HAVE_CORPUS)('page checksums in the corpus', () => {
  const data = path.join(corpus, 'data');
  const good = ['datapage_v1-uncompressed-checksum.parquet', 'datapage_v1-snappy-compressed-checksum.parquet', 'plain-dict-uncompressed-checksum.parquet', 'rle-dict-snappy-checksum.parquet'];
  test.each(good)('%s: checksums verify and every row reads', async (f) => {
    const file = await openParquet(readBytes(path.join(data, f)), { codecs: builtinCodecs() });
    const rows = await file.readRows();
    expect(rows.length).toBe(file.numRows);
    expect(rows.length).toBeGreaterThan(0);
  });

  test.each(['datapage_v1-corrupt-checksum.parquet', 'rle-dict-uncompressed-corrupt-checksum.parquet'])('%s: detected, naming row group, column and page', async (f) => {
    const bytes = readBytes(path.join(data, f));
    const file = await openParquet(bytes, { codecs: builtinCodecs() });
    const e = await typedError(() => file.readRows());
    expect(e.code).toBe('CHECKSUM_MISMATCH');
    expect(e.message).toMatch(/row group 0, column '[a-z_]+', page \d+ at byte \d+: page CRC32/);
    // with verification off the (corrupted) values decode without error
    const lax = await openParquet(bytes, { codecs: builtinCodecs(), verifyChecksums: false });
    expect((await lax.readRows()).length).toBe(lax.numRows);
  });
});
