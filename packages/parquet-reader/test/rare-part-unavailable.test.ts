// The decoders of DELTA_*, BYTE_STREAM_SPLIT and ALP pages are a lazy part of the reader (rare-part.ts, passed to
// every chunk decoder as `loadRareDecoders`), not parquet-encodings' own import(): when that part cannot be loaded
// (a chunk the browser could not fetch), a read of such a page is ParquetError ENCODING_UNAVAILABLE naming the
// encoding, each time it is tried, with the load's error as its cause; pages of other encodings still read.
import { expect, test, vi } from 'vitest';
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { decodeColumnChunk, openParquet } from '../src/index.js';
import { deltaChunk } from './delta-chunk.js';
import { typedError } from './helpers.js';

vi.mock('../src/rare-part.js', () => {
  throw new TypeError('Failed to fetch dynamically imported module: rare-part.js');
});

test('a DELTA_BINARY_PACKED column without the rare part: ENCODING_UNAVAILABLE every time; a PLAIN column still reads', async () => {
  const n = 100;
  const values = BigInt64Array.from({ length: n }, (_, i) => BigInt(i * 3));
  const bytes = await writeParquet(
    { d: { kind: 'leaf', length: n, validity: null, values }, p: { kind: 'leaf', length: n, validity: null, values } } as never,
    { schema: { d: field.int64({ required: true }), p: field.int64({ required: true }) }, compression: 'UNCOMPRESSED', columns: { d: { dictionary: false, encoding: 'DELTA_BINARY_PACKED' }, p: { dictionary: false } } },
  );
  const file = await openParquet(bytes);
  for (let i = 0; i < 2; i++) {
    const e = await typedError(() => file.readRows({ columns: ['d'] }));
    expect(e.code).toBe('ENCODING_UNAVAILABLE');
    expect(e.message).toContain('DELTA_BINARY_PACKED');
    expect(e.cause).toBeInstanceOf(Error);
  }
  const rows = await file.readRows({ columns: ['p'] });
  expect(rows.map((r) => r.p)).toEqual(Array.from(values));
});

test('the reader\'s decodeColumnChunk loads the rare decoders through the same part (ENCODING_UNAVAILABLE without it); given a loader, it uses that one', async () => {
  const n = 50;
  const values = BigInt64Array.from({ length: n }, (_, i) => BigInt(i * 7 - 100));
  const { chunk, column, meta, where } = await deltaChunk(values);
  const e = await typedError(() => decodeColumnChunk(chunk, column, meta, where));
  expect(e.code).toBe('ENCODING_UNAVAILABLE');
  expect(e.message).toContain('DELTA_BINARY_PACKED');
  const decoded = await decodeColumnChunk(chunk, column, meta, where, { loadRareDecoders: () => import('@parquetry/parquet-encodings/rare-decoders') });
  expect(decoded.numValues).toBe(n);
  expect(Array.from(decoded.segments[0]!.values as BigInt64Array)).toEqual(Array.from(values));
});
