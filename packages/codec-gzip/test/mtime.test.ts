// GZIP pages carry no time stamp (MTIME 0, RFC 1952 section 2.3.1): the same input compresses to the same bytes
// whenever it is written, so written files are reproducible.
import zlib from 'node:zlib';
import { expect, test, vi } from 'vitest';
import { createGzipCodec } from '@parquetry/codec-gzip';
import { textBytes } from '../../parquet-codecs/test/inputs.js';

test('the header MTIME bytes are zero and output does not depend on the clock', () => {
  const input = textBytes(20_000, 3);
  const codec = createGzipCodec();
  vi.useFakeTimers();
  try {
    vi.setSystemTime(new Date('2020-01-01T00:00:00Z'));
    const a = codec.compress!(input);
    vi.setSystemTime(new Date('2031-06-15T12:34:56Z'));
    const b = codec.compress!(input);
    expect([...a.subarray(4, 8)]).toEqual([0, 0, 0, 0]);
    expect(b).toEqual(a);
    expect(new Uint8Array(zlib.gunzipSync(a))).toEqual(input);
  } finally {
    vi.useRealTimers();
  }
});
