// The reader asks the SNAPPY codec's `ready` (through parquet-codecs' prepareCodec) before each page, with the page's
// decompressed size, and awaits what it returns: a codec recording both calls sees, for every page it decompresses,
// one earlier `ready(size)` of the size the page's stream declares whose promise has settled (columns are read
// concurrently, so other columns' calls interleave), and no `ready` without its page.
import fs from 'node:fs';
import { expect, test } from 'vitest';
import { snappyCodec, snappyUncompressedLength, type Codec } from '@parquetry/parquet-codecs';
import { openParquet } from '../src/index.js';
import { SAMPLE } from './helpers.js';

test('ready(size) before every SNAPPY page, awaited, with the size the page declares', async () => {
  const waits: { size: number; settled: boolean; used: boolean }[] = [];
  let pages = 0;
  const codec = {
    codec: snappyCodec.codec,
    compress: snappyCodec.compress,
    decompress(src: Uint8Array, out: Uint8Array): number {
      const size = snappyUncompressedLength(src);
      const w = waits.find((x) => x.size === size && x.settled && !x.used);
      expect(w, `a settled ready(${size}) before the page`).toBeDefined();
      w!.used = true;
      pages++;
      return snappyCodec.decompress(src, out);
    },
  } as Codec;
  Object.defineProperty(codec, 'ready', {
    value: (size: number) => {
      const w = { size, settled: false, used: false };
      waits.push(w);
      return new Promise<void>((resolve) =>
        setTimeout(() => {
          w.settled = true;
          resolve();
        }, 1),
      );
    },
  });
  const bytes = new Uint8Array(fs.readFileSync(SAMPLE));
  const rows = await (await openParquet(bytes, { codecs: { [codec.codec]: codec } })).readRows();
  expect(rows).toEqual(await (await openParquet(bytes, { codecs: { [snappyCodec.codec]: snappyCodec } })).readRows());
  expect(pages).toBeGreaterThan(0);
  expect(waits.every((w) => w.used)).toBe(true);
});
