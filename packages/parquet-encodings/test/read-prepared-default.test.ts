// @parquetry/parquet-encodings/read-prepared without a loader imports parquet-encodings' own module of the rare
// decoders (by a specifier bundlers do not follow; unbundled, as here, it loads).
import { Encoding, Type } from '@parquetry/thrift-compact';
import { expect, test } from 'vitest';
import { decodePreparedValues, prepareEncodingWith } from '../src/read-prepared.js';
import { bytes } from './util.js';

test('no loader: the own module loads', async () => {
  const wait = prepareEncodingWith(Encoding.BYTE_STREAM_SPLIT);
  expect(wait).toBeInstanceOf(Promise);
  await wait;
  const bss = bytes('0000 0000 8000 3f40'); // 1.0f and 2.0f split into their byte streams
  expect(decodePreparedValues(Encoding.BYTE_STREAM_SPLIT, bss, 0, 8, 2, { type: Type.FLOAT }).values).toEqual(new Float32Array([1, 2]));
});
