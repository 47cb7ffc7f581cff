/**
 * The SNAPPY codecs' `ready` (non-enumerable), which `prepareCodec` calls before each page: a read whose source never
 * yields to the event loop (a file in memory) would otherwise decode every page with the TypeScript loop, the kernel's
 * import settling only after the read. Before a page of 64 KiB or more it is the kernel's import while that is under
 * way; before a smaller page or without a size (a writer loading its codecs) the import starts and nothing waits. It
 * never rejects.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { snappyCompress } from '../src/snappy-compress.js';

type Fresh = { snappy: typeof import('../src/snappy.js'); codec: typeof import('../src/codec.js') };

async function fresh(): Promise<Fresh> {
  vi.resetModules();
  const [snappy, codec] = await Promise.all([import('../src/snappy.js'), import('../src/codec.js')]);
  return { snappy, codec };
}

afterEach(() => {
  vi.doUnmock('../src/snappy-kernel.js');
  vi.resetModules();
});

test('a small page waits for nothing (the import starts); a large one waits for the import under way; then nothing', async () => {
  const { snappy, codec } = await fresh();
  for (const c of [snappy.snappyDecoder, snappy.snappyCodec]) expect(Object.keys(c)).not.toContain('ready');
  const codecs = { [snappy.snappyDecoder.codec]: snappy.snappyDecoder };
  expect(codec.prepareCodec(codecs, 1, 65_535)).toBeUndefined();
  const wait = codec.prepareCodec(codecs, 1, 65_536);
  expect(wait).toBeInstanceOf(Promise);
  await wait;
  // settled: no page waits again, and decompression uses the kernel
  expect(codec.prepareCodec(codecs, 1, 1 << 24)).toBeUndefined();
  expect(await snappy.snappyWasmAvailable()).toBe(true);
  const input = new TextEncoder().encode('parquet '.repeat(20_000));
  const out = new Uint8Array(input.length);
  expect(snappy.snappyDecompress(snappyCompress(input), out)).toBe(input.length);
  expect(out).toEqual(input);
});

test('no size (a writer loading its codecs): the import starts, nothing waits', async () => {
  const { snappy, codec } = await fresh();
  const codecs = { [snappy.snappyCodec.codec]: snappy.snappyCodec };
  expect(codec.prepareCodec(codecs, 1)).toBeUndefined();
  await codec.loadCodecs(codecs, [1]);
  // the import under way: a large page waits for it, once
  await codec.prepareCodec(codecs, 1, 1 << 20);
  expect(codec.prepareCodec(codecs, 1, 1 << 20)).toBeUndefined();
  expect(await snappy.snappyWasmAvailable()).toBe(true);
});

test('a kernel that cannot be imported: the wait resolves, nothing waits again, the TypeScript loop decodes', async () => {
  vi.resetModules();
  vi.doMock('../src/snappy-kernel.js', () => {
    throw new Error('failed to fetch the kernel chunk');
  });
  const snappy = await import('../src/snappy.js');
  const codec = await import('../src/codec.js');
  const codecs = { [snappy.snappyDecoder.codec]: snappy.snappyDecoder };
  await expect(codec.prepareCodec(codecs, 1, 1 << 20)).resolves.toBeNull();
  expect(codec.prepareCodec(codecs, 1, 1 << 20)).toBeUndefined();
  expect(await snappy.snappyWasmAvailable()).toBe(false);
  const input = new TextEncoder().encode('abcabcabc'.repeat(10_000));
  const out = new Uint8Array(input.length);
  expect(snappy.snappyDecompress(snappyCompress(input), out)).toBe(input.length);
  expect(out).toEqual(input);
});

test("the 'ts' decoder and a codec spread from the SNAPPY codec (no ready) wait for nothing", async () => {
  const { snappy, codec } = await fresh();
  expect(codec.prepareCodec({ 1: { ...snappy.snappyCodec } }, 1, 1 << 20)).toBeUndefined();
  snappy.setSnappyDecoder('ts');
  expect(codec.prepareCodec({ 1: snappy.snappyDecoder }, 1, 1 << 20)).toBeUndefined();
  snappy.setSnappyDecoder('auto');
  expect(codec.prepareCodec({ 1: snappy.snappyDecoder }, 1, 1 << 20)).toBeInstanceOf(Promise);
});
