// @parquetry/parquet-encodings/read-prepared: the decoder table without a loader of its own. A loader that rejects
// is ENCODING_UNAVAILABLE naming the encoding, its cause the load's error, and a later prepare tries again (here with
// the `/rare-decoders` entry); without a loader, parquet-encodings' own module is imported (unbundled, as here).
import { Encoding, Type } from '@parquetry/thrift-compact';
import { expect, test } from 'vitest';
import { decodePreparedValues, prepareEncodingWith } from '../src/read-prepared.js';
import { bytes } from './util.js';

test('a loader that rejects: ENCODING_UNAVAILABLE, tried again; another loader then loads the decoders', async () => {
  const cause = new TypeError('Failed to fetch dynamically imported module: rare.js');
  let calls = 0;
  const failing = () => {
    calls++;
    return Promise.reject(cause);
  };
  for (let i = 0; i < 2; i++) {
    await expect(prepareEncodingWith(Encoding.BYTE_STREAM_SPLIT, failing)).rejects.toMatchObject({ name: 'ParquetError', code: 'ENCODING_UNAVAILABLE', message: expect.stringContaining('BYTE_STREAM_SPLIT'), cause });
  }
  expect(calls).toBe(2);
  await prepareEncodingWith(Encoding.DELTA_BINARY_PACKED, () => import('../src/rare-decoders.js'));
  expect(prepareEncodingWith(Encoding.BYTE_STREAM_SPLIT, failing)).toBeUndefined();
  expect(calls).toBe(2);
  const dbp = bytes('8001 04 05 02 02 00000000'); // Encodings.md's example: 1, 2, 3, 4, 5
  expect(decodePreparedValues(Encoding.DELTA_BINARY_PACKED, dbp, 0, dbp.length, 5, { type: Type.INT32 }).values).toEqual(new Int32Array([1, 2, 3, 4, 5]));
});
