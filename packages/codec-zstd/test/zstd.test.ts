// ZSTD codec: round trips, zstd CLI interop both ways, frames with and without content size, multi-frame and
// skippable frames, the empty frame, bounds, corrupt input, corpus pages, fuzz.
import { describe, expect, test } from 'vitest';
import { CodecErrorCode, CompressionCodec, decompressPage, isParquetError } from '@parquetry/parquet-codecs';
import { createZstdCodec, zstdDecoder, zstdDecompress, zstdFrames } from '@parquetry/codec-zstd';
import { concat, textBytes, variedInputs, codeOf, same } from '../../parquet-codecs/test/inputs.js';
import { HAVE_CORPUS, corpusFiles, corpusPages } from '../../parquet-codecs/test/corpus-pages.js';
import { fuzzDecompressor } from '../../parquet-codecs/test/fuzz-harness.js';
import { haveTool, runTool } from '../../parquet-codecs/test/peers.js';

const codecs = { [CompressionCodec.ZSTD]: zstdDecoder };
const wasmCodec = await createZstdCodec();
/** Both decoders: ours (zstdDecoder, sync) and the WASM reference decoder of createZstdCodec (with ours as fallback). */
const DECODERS = [
  ['ours', { [CompressionCodec.ZSTD]: zstdDecoder }],
  ['wasm', { [CompressionCodec.ZSTD]: wasmCodec }],
] as const;
const HAVE_ZSTD = haveTool('zstd');
if (!HAVE_ZSTD) console.warn('codec-zstd: `zstd` CLI not installed (apt-get install zstd): interop tests skipped');

describe('ZSTD round trip (WASM compressor, WASM decompressor with our decoder as fallback)', async () => {
  const zstd = await createZstdCodec();
  test.each(variedInputs())('%s', (_l, input) => {
    const packed = zstd.compress(input);
    expect(same(decompressPage({ [CompressionCodec.ZSTD]: zstd }, CompressionCodec.ZSTD, packed, input.length), input)).toBe(true);
  });
  test('levels', async () => {
    const input = textBytes(200_000, 3);
    const fast = (await createZstdCodec({ level: 1 })).compress(input).length;
    const strong = (await createZstdCodec({ level: 19 })).compress(input).length;
    expect(strong).toBeLessThan(fast);
    await expect(createZstdCodec({ level: 0 })).rejects.toThrow(/level/);
    expect(() => zstdDecoder.compress(input)).toThrow(/createZstdCodec/);
  });
});

describe.skipIf(!HAVE_ZSTD)('ZSTD vs the zstd CLI (reference library 1.5)', () => {
  test.each(variedInputs())('zstd compresses (-1, -9 --no-content-size, -3 --no-check), we decompress: %s', (_l, input) => {
    for (const args of [['-1'], ['-9', '--no-content-size'], ['-3', '--no-check']]) {
      const packed = runTool('zstd', [...args, '-q', '-c'], input);
      const out = new Uint8Array(input.length);
      expect(zstdDecompress(packed, out)).toBe(input.length);
      expect(same(out, input)).toBe(true);
      expect(same(decompressPage({ [CompressionCodec.ZSTD]: wasmCodec }, CompressionCodec.ZSTD, packed, input.length), input)).toBe(true);
    }
  });
  test.each(variedInputs())('we compress, zstd -d decompresses: %s', async (_l, input) => {
    const zstd = await createZstdCodec({ level: 5 });
    expect(same(runTool('zstd', ['-d', '-q', '-c'], zstd.compress(input)), input)).toBe(true);
  });
  test('high level and long window (-19 --long=25)', () => {
    const input = concat(textBytes(100_000, 9), textBytes(100_000, 9));
    for (const args of [['-19', '--long=25']]) {
      const packed = runTool('zstd', [...args, '-q', '-c'], input);
      const out = new Uint8Array(input.length);
      expect(zstdDecompress(packed, out)).toBe(input.length);
      expect(same(out, input)).toBe(true);
    }
  });
  test('several frames and a skippable frame', () => {
    const a = textBytes(100_000, 1);
    const b = textBytes(5000, 2);
    const skip = new Uint8Array([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 9, 9, 9]);
    const stream = concat(runTool('zstd', ['-q', '-c'], a), skip, runTool('zstd', ['-q', '-c', '--no-content-size'], b));
    expect(zstdFrames(stream).map((f) => f.skippable)).toEqual([false, true, false]);
    const out = new Uint8Array(a.length + b.length);
    expect(zstdDecompress(stream, out)).toBe(out.length);
    expect(same(out, concat(a, b))).toBe(true);
    expect(same(runTool('zstd', ['-d', '-q', '-c'], stream), concat(a, b))).toBe(true);
  });
  test.each(DECODERS)('%s: a real empty frame decodes to an empty page', (_n, codecs) => {
    const empty = runTool('zstd', ['-q', '-c'], new Uint8Array(0));
    expect(empty.length).toBeGreaterThan(0);
    expect(decompressPage(codecs, CompressionCodec.ZSTD, empty, 0).length).toBe(0);
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.ZSTD, empty, 1))).toBe(CodecErrorCode.SHORT);
  });
  test.each(DECODERS)('%s: bombs stop at the page size, with and without a declared content size', (_n, codecs) => {
    const zeros = new Uint8Array(16 << 20);
    for (const args of [[], ['--no-content-size']]) {
      const bomb = runTool('zstd', [...args, '-q', '-c'], zeros);
      expect(bomb.length).toBeLessThan(5000);
      expect(codeOf(() => decompressPage(codecs, CompressionCodec.ZSTD, bomb, 1000))).toBe(CodecErrorCode.OVERRUN);
    }
  });
  test.each(DECODERS)('%s: bounds and corrupt input', (_n, codecs) => {
    const input = textBytes(20_000, 4);
    const packed = runTool('zstd', ['-q', '-c'], input);
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.ZSTD, packed, input.length - 1))).toBe(CodecErrorCode.OVERRUN);
    expect(codeOf(() => decompressPage(codecs, CompressionCodec.ZSTD, packed, input.length + 1))).toBe(CodecErrorCode.SHORT);
    expect(codeOf(() => zstdDecompress(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), new Uint8Array(8)))).toBe(CodecErrorCode.CORRUPT);
    for (let cut = 1; cut < packed.length; cut += 53) {
      expect([CodecErrorCode.CORRUPT, CodecErrorCode.SHORT]).toContain(codeOf(() => decompressPage(codecs, CompressionCodec.ZSTD, packed.subarray(0, cut), input.length)));
    }
    // a frame whose header declares more (or fewer) bytes than its blocks produce
    const bare = runTool('zstd', ['-q', '-c', '--no-content-size', '--no-check'], input);
    const f = zstdFrames(bare)[0]!;
    for (const declared of [input.length + 10, input.length - 10]) {
      const lying = concat(new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0xa0, declared & 0xff, (declared >>> 8) & 0xff, declared >>> 16, 0]), bare.subarray(f.blocks));
      expect(zstdFrames(lying)[0]!.contentSize).toBe(declared);
      expect([CodecErrorCode.CORRUPT, CodecErrorCode.OVERRUN]).toContain(codeOf(() => decompressPage(codecs, CompressionCodec.ZSTD, lying, declared)));
    }
    // a window larger than the 128 MiB limit
    const huge = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xa8, 0x01, 0x00, 0x00]);
    expect(codeOf(() => zstdDecompress(huge, new Uint8Array(10)))).toBe(CodecErrorCode.CORRUPT);
  });
  test.each(DECODERS)('fuzz ZSTD decompression, %s (1.5 s)', (_n, codecs) => {
    const seeds = [textBytes(3000, 7), new Uint8Array(100), textBytes(50, 8)].flatMap((s) => [
      { packed: runTool('zstd', ['-q', '-c'], s), size: s.length },
      { packed: runTool('zstd', ['-q', '-c', '--no-content-size'], s), size: s.length },
    ]);
    const codec = codecs[CompressionCodec.ZSTD];
    const stats = fuzzDecompressor((src, out) => codec.decompress(src, out), seeds, 1500);
    expect(stats.runs).toBeGreaterThan(100);
  });
});

if (!HAVE_CORPUS) console.warn('codec-zstd corpus test skipped: ../shared/parquet-testing is absent');
test.skipIf(!HAVE_CORPUS)('every ZSTD page of the corpus decompresses to its declared size, the same with both decoders', () => {
  const problems: string[] = [];
  let pages = 0;
  const files = new Set<string>();
  for (const file of corpusFiles()) {
    for (const p of corpusPages(file, problems)) {
      if (p.codec !== CompressionCodec.ZSTD) continue;
      const a = decompressPage(codecs, p.codec, p.body, p.size, p.offset);
      expect(a.length).toBe(p.size);
      const b = decompressPage({ [CompressionCodec.ZSTD]: wasmCodec }, p.codec, p.body, p.size, p.offset);
      expect(Buffer.from(b).equals(Buffer.from(a))).toBe(true);
      pages++;
      files.add(file);
    }
  }
  console.log(`codec-zstd corpus: ${pages} ZSTD pages in ${files.size} files`);
  expect(pages).toBeGreaterThan(0);
});
