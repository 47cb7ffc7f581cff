/**
 * The unrolled unpack kernels of widths 9–17, 24 and 32 are a module of their own (parquet-encodings
 * bit-pack-mid-kernels.ts), loaded with `import()` the first time a page's dictionary indices need one. Here that
 * module cannot be loaded (its import rejects, as a browser's would for a chunk it cannot fetch): the shared loop
 * unpacks those widths, with the same values, and no error reaches the reader.
 */
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { Type } from '@parquetry/thrift-compact';
import { expect, test, vi } from 'vitest';
import { UNPACK } from '../../parquet-encodings/src/bit-pack-kernels.js';
import { prepareUnpack } from '../../parquet-encodings/src/read-registry.js';
import { ChunkDecoder, convertChunk, decodeColumnChunk } from '../src/index.js';
import { wideDictionaryChunk } from './wide-dictionary.js';

vi.mock('../../parquet-encodings/src/bit-pack-mid-kernels.js', () => {
  throw new Error('failed to fetch the bit-pack-mid-kernels chunk');
});

const where = { rowGroup: 0, path: 'x', offset: 4 };

test('10-bit INT32 and 9-bit BYTE_ARRAY indices read exactly through the shared loop; the load is not retried', async () => {
  const c = wideDictionaryChunk(Type.INT32, 1000, 5000, 1500);
  const dec = new ChunkDecoder(c.bytes, c.column, c.meta, where, { codecs: builtinCodecs() });
  const first = await dec.take(700);
  const rest = await dec.take(Infinity);
  expect([...Array.from(convertChunk(first, c.column)), ...Array.from(convertChunk(rest, c.column))]).toEqual(c.expected);
  expect(UNPACK[10]!.name).not.toBe('unpack10');
  // the failed load settled: nothing more to wait for
  expect(prepareUnpack(10)).toBeUndefined();

  const s = wideDictionaryChunk(Type.BYTE_ARRAY, 300, 4000, 1100);
  const whole = await decodeColumnChunk(s.bytes, s.column, s.meta, where, { codecs: builtinCodecs(), numRows: 4000 });
  const td = new TextDecoder();
  expect(Array.from(convertChunk(whole, s.column), (b) => td.decode(b as Uint8Array))).toEqual(s.expected);
});
