// GZIP codec: round trips, Node zlib interop both ways, multi-member streams, bounds, corrupt input, corpus pages, fuzz.
import zlib from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { CodecErrorCode, CompressionCodec, decompressPage, isParquetError } from '@parquetry/parquet-codecs';
import { createGzipCodec, crc32, gzipCodec, gzipDecompress } from '@parquetry/codec-gzip';
import { concat, textBytes, variedInputs, codeOf, same } from '../../parquet-codecs/test/inputs.js';
import { HAVE_CORPUS, corpusFiles, corpusPages } from '../../parquet-codecs/test/corpus-pages.js';
import { fuzzDecompressor } from '../../parquet-codecs/test/fuzz-harness.js';

const codecs = { [CompressionCodec.GZIP]: gzipCodec };

describe('GZIP', () => {
  test.each(variedInputs())('round trip and zlib interop: %s', (_l, input) => {
    const ours = gzipCodec.compress(input);
    expect(same(new Uint8Array(zlib.gunzipSync(ours)), input)).toBe(true);
    expect(same(decompressPage(codecs, CompressionCodec.GZIP, ours, input.length), input)).toBe(true);
    for (const level of [1, 9]) {
      const theirs = new Uint8Array(zlib.gzipSync(input, { level }));
      expect(same(decompressPage(codecs, CompressionCodec.GZIP, theirs, input.length), input)).toBe(true);
    }
  });

  test('multi-member streams decode (zlib members, including an empty one)', () => {
    const parts = [textBytes(70_000, 1), new Uint8Array(0), textBytes(10, 2), textBytes(300_000, 3)];
    const stream = concat(...parts.map((p) => new Uint8Array(zlib.gzipSync(p))));
    const want = concat(...parts);
    expect(same(decompressPage(codecs, CompressionCodec.GZIP, stream, want.length), want)).toBe(true);
    // sanity: the peer agrees these are several members of one stream
    expect(same(new Uint8Array(zlib.gunzipSync(stream)), want)).toBe(true);
  });

  test('header flags (FNAME, FCOMMENT, FEXTRA, FHCRC) are skipped', () => {
    const body = new Uint8Array(zlib.deflateRawSync(textBytes(1000)));
    const input = textBytes(1000);
    const trailer = new Uint8Array(8);
    new DataView(trailer.buffer).setUint32(0, crc32(input), true);
    new DataView(trailer.buffer).setUint32(4, input.length, true);
    const header = new Uint8Array([0x1f, 0x8b, 8, 4 | 8 | 16 | 2, 0, 0, 0, 0, 0, 3, 3, 0, 1, 2, 3, ...Buffer.from('name\0comment\0')]);
    const hcrc = crc32(header) & 0xffff;
    const stream = concat(header, new Uint8Array([hcrc & 0xff, hcrc >>> 8]), body, trailer);
    expect(same(new Uint8Array(zlib.gunzipSync(stream)), input)).toBe(true);
    expect(same(decompressPage(codecs, CompressionCodec.GZIP, stream, input.length), input)).toBe(true);
  });

  test('bounds: too small is OVERRUN, too large is SHORT, bad CRC or data is CORRUPT', () => {
    const input = textBytes(20_000, 4);
    const gz = new Uint8Array(zlib.gzipSync(input));
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.GZIP, gz, input.length - 1))).toBe(CodecErrorCode.OVERRUN);
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.GZIP, gz, input.length + 1))).toBe(CodecErrorCode.SHORT);
    const badCrc = gz.slice();
    badCrc[badCrc.length - 8]! ^= 1;
    expect(codeOf(() => gzipDecompress(badCrc, new Uint8Array(input.length)))).toBe(CodecErrorCode.CORRUPT);
    const multi = concat(gz, badCrc);
    expect(codeOf(() => gzipDecompress(multi, new Uint8Array(2 * input.length)))).toBe(CodecErrorCode.CORRUPT);
    expect(gzipDecompress(concat(gz, gz), new Uint8Array(2 * input.length))).toBe(2 * input.length);
    expect(codeOf(() => gzipDecompress(new Uint8Array([0x1f, 0x8c, 8, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0]), new Uint8Array(0)))).toBe(CodecErrorCode.CORRUPT);
    for (let cut = 0; cut < gz.length; cut += 97) {
      expect([CodecErrorCode.CORRUPT, CodecErrorCode.SHORT]).toContain(codeOf(() => decompressPage(codecs, CompressionCodec.GZIP, gz.subarray(0, cut), input.length)));
    }
  });

  test('a bomb is stopped at the page size', () => {
    const bomb = new Uint8Array(zlib.gzipSync(new Uint8Array(16 << 20)));
    expect(bomb.length).toBeLessThan(30_000);
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.GZIP, bomb, 1000))).toBe(CodecErrorCode.OVERRUN);
  });

  test('levels', () => {
    const input = textBytes(100_000, 5);
    expect(createGzipCodec({ level: 1 }).compress(input).length).toBeGreaterThan(createGzipCodec({ level: 9 }).compress(input).length);
    expect(() => createGzipCodec({ level: 10 })).toThrow(/level/);
  });

  test('crc32 matches zlib', () => {
    const b = textBytes(12345, 6);
    expect(crc32(b)).toBe(zlib.crc32 ? zlib.crc32(b) : crc32(b));
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  test('fuzz GZIP decompression (1.5 s)', () => {
    const seeds = [textBytes(3000, 7), new Uint8Array(10), textBytes(50, 8)].map((s) => ({ packed: new Uint8Array(zlib.gzipSync(s)), size: s.length }));
    const stats = fuzzDecompressor(gzipDecompress, seeds, 1500);
    expect(stats.runs).toBeGreaterThan(500);
  });
});

if (!HAVE_CORPUS) console.warn('codec-gzip corpus test skipped: ../shared/parquet-testing is absent');
test.skipIf(!HAVE_CORPUS)('every GZIP page of the corpus decompresses to its declared size', () => {
  const problems: string[] = [];
  let pages = 0;
  const files = new Set<string>();
  for (const file of corpusFiles()) {
    for (const p of corpusPages(file, problems)) {
      if (p.codec !== CompressionCodec.GZIP) continue;
      expect(decompressPage(codecs, p.codec, p.body, p.size, p.offset).length).toBe(p.size);
      pages++;
      files.add(file);
    }
  }
  console.log(`codec-gzip corpus: ${pages} GZIP pages in ${files.size} files`);
  expect(files.has('data/concatenated_gzip_members.parquet')).toBe(true);
});
