/**
 * prepareUnpack (read registry): the unrolled unpack kernels of widths 9–17, 24 and 32 loaded on the first width that
 * needs them, once; nothing to wait for at other widths; decodeRleHybrid gives the same values before and after.
 */
import { ByteWriter } from '@parquetry/thrift-compact';
import { expect, test } from 'vitest';
import { UNPACK } from '../src/bit-pack-kernels.js';
import { prepareUnpack } from '../src/read-registry.js';
import { decodeRleHybrid, encodeRleHybrid } from '../src/rle-hybrid.js';

test('widths 0-8, over 32 and non-widths need nothing; 9-32 load the kernels once', async () => {
  for (const w of [0, 1, 8, 33, 255, -1, NaN]) expect(prepareUnpack(w), `width ${w}`).toBeUndefined();
  const values = Int32Array.from({ length: 1003 }, (_, i) => (i * 2654435761) >>> 20);
  const bw = new ByteWriter(4096);
  encodeRleHybrid(values, 0, values.length, 12, bw);
  const bytes = bw.finish();
  const before = new Int32Array(values.length);
  decodeRleHybrid(bytes, 0, bytes.length, 12, before, 0, values.length);
  expect(before).toEqual(values);
  expect(UNPACK[12]!.name).not.toBe('unpack12');
  const p = prepareUnpack(12);
  expect(p).toBeInstanceOf(Promise);
  expect(prepareUnpack(30)).toBe(p);
  await p;
  expect(UNPACK[12]!.name).toBe('unpack12');
  expect(UNPACK[32]!.name).toBe('unpack32');
  expect(prepareUnpack(12)).toBeUndefined();
  const after = new Int32Array(values.length);
  decodeRleHybrid(bytes, 0, bytes.length, 12, after, 0, values.length);
  expect(after).toEqual(values);
});
