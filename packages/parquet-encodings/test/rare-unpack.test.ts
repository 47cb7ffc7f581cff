/**
 * Loading the rare decoders (prepareEncoding) also puts in the unrolled unpack kernels of widths 9–17, 24 and 32,
 * which DELTA_BINARY_PACKED INT64 miniblocks of those widths use (bit-util.ts); their values are the same either way.
 */
import { ByteWriter, Encoding, Type } from '@parquetry/thrift-compact';
import { expect, test } from 'vitest';
import { UNPACK } from '../src/bit-pack-kernels.js';
import { encodeDeltaBinaryPackedInt64 } from '../src/delta-binary-packed.js';
import { decodePreparedValues, prepareEncoding } from '../src/read-registry.js';

test('prepareEncoding(DELTA_BINARY_PACKED) installs the kernels; INT64 deltas of 9-17 bits decode the same', async () => {
  // deltas of up to 2^12: miniblocks of 12 or 13 bits
  const values = new BigInt64Array(5000);
  let x = 1n;
  for (let i = 0; i < values.length; i++) values[i] = x += BigInt((i * 2654435761) % 4096);
  const w = new ByteWriter(1 << 16);
  encodeDeltaBinaryPackedInt64(values, 0, values.length, w);
  const bytes = w.finish();
  expect(UNPACK[12]!.name).not.toBe('unpack12');
  await prepareEncoding(Encoding.DELTA_BINARY_PACKED);
  expect(UNPACK[12]!.name).toBe('unpack12');
  expect(UNPACK[13]!.name).toBe('unpack13');
  const { values: got } = decodePreparedValues(Encoding.DELTA_BINARY_PACKED, bytes, 0, bytes.length, values.length, { type: Type.INT64 });
  expect(got).toEqual(values);
});
