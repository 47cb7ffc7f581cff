// BROTLI codec: round trips, Node zlib and brotli CLI interop both ways, bounds, bombs, corrupt input, corpus, fuzz.
import zlib from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { CodecErrorCode, CompressionCodec, decompressPage, isParquetError } from '@parquetry/parquet-codecs';
import { createBrotliCodec } from '@parquetry/codec-brotli';
import { textBytes, variedInputs, codeOf, same } from '../../parquet-codecs/test/inputs.js';
import { HAVE_CORPUS, corpusFiles, corpusPages } from '../../parquet-codecs/test/corpus-pages.js';
import { fuzzDecompressor } from '../../parquet-codecs/test/fuzz-harness.js';
import { haveTool, runTool } from '../../parquet-codecs/test/peers.js';

const brotli = await createBrotliCodec();
const codecs = { [CompressionCodec.BROTLI]: brotli };
const HAVE_CLI = haveTool('brotli');
if (!HAVE_CLI) console.warn('codec-brotli: `brotli` CLI not installed (apt-get install brotli): CLI interop tests skipped');

describe('BROTLI', () => {
  test.each(variedInputs())('round trip and Node zlib interop both ways: %s', (_l, input) => {
    const ours = brotli.compress(input);
    expect(same(new Uint8Array(zlib.brotliDecompressSync(ours)), input)).toBe(true);
    expect(same(decompressPage(codecs, CompressionCodec.BROTLI, ours, input.length), input)).toBe(true);
    for (const q of [1, 9]) {
      const theirs = new Uint8Array(zlib.brotliCompressSync(input, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: q } }));
      expect(same(decompressPage(codecs, CompressionCodec.BROTLI, theirs, input.length), input)).toBe(true);
    }
  });

  test.skipIf(!HAVE_CLI).each(variedInputs())('brotli CLI interop both ways: %s', (_l, input) => {
    const theirs = runTool('brotli', ['-c', '-q', '6'], input);
    expect(same(decompressPage(codecs, CompressionCodec.BROTLI, theirs, input.length), input)).toBe(true);
    expect(same(runTool('brotli', ['-d', '-c'], brotli.compress(input)), input)).toBe(true);
  });

  test('quality option', async () => {
    const input = textBytes(200_000, 3);
    const q1 = (await createBrotliCodec({ quality: 1 })).compress(input).length;
    const q9 = (await createBrotliCodec({ quality: 9 })).compress(input).length;
    expect(q9).toBeLessThan(q1);
    await expect(createBrotliCodec({ quality: 12 })).rejects.toThrow(/quality/);
  });

  test('bounds, bombs, trailing bytes and truncation are typed errors', () => {
    const input = textBytes(20_000, 4);
    const packed = brotli.compress(input);
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.BROTLI, packed, input.length - 1))).toBe(CodecErrorCode.OVERRUN);
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.BROTLI, packed, input.length + 1))).toBe(CodecErrorCode.SHORT);
    const bomb = new Uint8Array(zlib.brotliCompressSync(new Uint8Array(16 << 20)));
    expect(bomb.length).toBeLessThan(1000);
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.BROTLI, bomb, 1000))).toBe(CodecErrorCode.OVERRUN);
    const trailing = new Uint8Array(packed.length + 3);
    trailing.set(packed);
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.BROTLI, trailing, input.length))).toBe(CodecErrorCode.CORRUPT);
    for (let cut = 1; cut < packed.length; cut += 37) {
      expect([CodecErrorCode.CORRUPT, CodecErrorCode.SHORT]).toContain(codeOf(() => decompressPage(codecs, CompressionCodec.BROTLI, packed.subarray(0, cut), input.length)));
    }
  });

  test('fuzz BROTLI decompression (1.5 s)', () => {
    const seeds = [textBytes(3000, 7), new Uint8Array(100), textBytes(50, 8)].map((s) => ({ packed: brotli.compress(s), size: s.length }));
    const stats = fuzzDecompressor((src, out) => brotli.decompress(src, out), seeds, 1500);
    expect(stats.runs).toBeGreaterThan(200);
  });
});

if (!HAVE_CORPUS) console.warn('codec-brotli corpus test skipped: ../shared/parquet-testing is absent');
// large_string_map.brotli.parquet holds two pages of 1 GiB each (from 1.6 KB): this test allocates 1 GiB
// per page and takes tens of seconds; it is the only way to show those pages decode to their declared size.
test.skipIf(!HAVE_CORPUS)('every BROTLI page of the corpus decompresses to its declared size', { timeout: 240_000 }, () => {
  const problems: string[] = [];
  let pages = 0;
  const files = new Set<string>();
  for (const file of corpusFiles()) {
    for (const p of corpusPages(file, problems)) {
      if (p.codec !== CompressionCodec.BROTLI) continue;
      expect(decompressPage(codecs, p.codec, p.body, p.size, p.offset).length).toBe(p.size);
      pages++;
      files.add(file);
    }
  }
  console.log(`codec-brotli corpus: ${pages} BROTLI pages in ${files.size} files`);
  expect(files.has('data/large_string_map.brotli.parquet')).toBe(true);
});
