// The read registry (@parquetry/parquet-encodings/read-registry): PLAIN / RLE / dictionaries at hand, the DELTA_*,
// BYTE_STREAM_SPLIT and ALP decoders loaded by prepareEncoding on first use. The first test must run before any
// load in this file (vitest runs each file in its own module graph).
import { ByteWriter, Encoding, Type } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decodeValues, encodeValues } from '../src/index.js';
import * as read from '../src/read-registry.js';
import type { ByteArrays } from '../src/read.js';
import { bytes, expectCode } from './util.js';

const RARE = [Encoding.DELTA_BINARY_PACKED, Encoding.DELTA_LENGTH_BYTE_ARRAY, Encoding.DELTA_BYTE_ARRAY, Encoding.BYTE_STREAM_SPLIT, Encoding.ALP];

describe('parquet-encodings/read', () => {
  test('the rare decoders are not at hand before prepareEncoding; the common ones need no wait', async () => {
    const dbp = bytes('8001 04 05 02 02 00000000'); // Encodings.md's example: 1, 2, 3, 4, 5
    expectCode(() => read.decodePreparedValues(Encoding.DELTA_BINARY_PACKED, dbp, 0, dbp.length, 5, { type: Type.INT32 }), 'ENCODING_UNAVAILABLE', false);
    for (const e of [Encoding.PLAIN, Encoding.PLAIN_DICTIONARY, Encoding.RLE, Encoding.RLE_DICTIONARY]) expect(read.prepareEncoding(e)).toBeUndefined();
    // unknown encodings and BIT_PACKED (no value decoder) are reported by the decode, not the prepare
    for (const e of [4, 11, 99, -1, 2 ** 40]) {
      expect(read.prepareEncoding(e)).toBeUndefined();
      expectCode(() => read.decodePreparedValues(e, dbp, 0, dbp.length, 1, { type: Type.INT32 }), 'ENCODING_UNSUPPORTED', false);
    }
    const plain = bytes('07000000 f9ffffff');
    expect(read.decodePreparedValues(Encoding.PLAIN, plain, 0, 8, 2, { type: Type.INT32 }).values).toEqual(new Int32Array([7, -7]));

    const waits = RARE.map((e) => read.prepareEncoding(e));
    for (const w of waits) expect(w).toBeInstanceOf(Promise);
    expect(waits[1]).toBe(waits[0]); // one module, loaded once
    await Promise.all(waits);
    for (const e of RARE) expect(read.prepareEncoding(e)).toBeUndefined();

    expect(read.decodePreparedValues(Encoding.DELTA_BINARY_PACKED, dbp, 0, dbp.length, 5, { type: Type.INT32 })).toEqual({ values: new Int32Array([1, 2, 3, 4, 5]), pos: dbp.length });
    // lengths 2, 1 (first value 2, min delta -1, widths 0), then "abc"
    const dlba = bytes('8001 04 02 04 01 00000000 616263');
    const s = read.decodePreparedValues(Encoding.DELTA_LENGTH_BYTE_ARRAY, dlba, 0, dlba.length, 2, { type: Type.BYTE_ARRAY }).values as ByteArrays;
    expect(Array.from(s.offsets)).toEqual([0, 2, 3]);
    expect(Buffer.from(s.data).toString()).toBe('abc');
    // 1.0f and 2.0f (00 00 80 3f, 00 00 00 40) split into their byte streams
    const bss = bytes('0000 0000 8000 3f40');
    expect(read.decodePreparedValues(Encoding.BYTE_STREAM_SPLIT, bss, 0, 8, 2, { type: Type.FLOAT }).values).toEqual(new Float32Array([1, 2]));
    expectCode(() => read.decodePreparedValues(Encoding.DELTA_BINARY_PACKED, dbp, 0, dbp.length, 5, { type: Type.FLOAT }), 'ENCODING_UNSUPPORTED', false);
  });

  test('decodes what the full registry decodes, for every rare encoding (fast-check)', async () => {
    await Promise.all(RARE.map((e) => read.prepareEncoding(e)));
    const cases: [number, Type, fc.Arbitrary<unknown[]>][] = [
      [Encoding.DELTA_BINARY_PACKED, Type.INT32, fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { maxLength: 700 })],
      [Encoding.DELTA_BINARY_PACKED, Type.INT64, fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { maxLength: 300 })],
      [Encoding.BYTE_STREAM_SPLIT, Type.DOUBLE, fc.array(fc.double(), { maxLength: 300 })],
      [Encoding.ALP, Type.DOUBLE, fc.array(fc.integer({ min: -1e6, max: 1e6 }).map((v) => v / 100), { maxLength: 300 })],
      [Encoding.DELTA_LENGTH_BYTE_ARRAY, Type.BYTE_ARRAY, fc.array(fc.string(), { maxLength: 200 })],
      [Encoding.DELTA_BYTE_ARRAY, Type.BYTE_ARRAY, fc.array(fc.constantFrom('', 'a', 'ab', 'abc', 'abd', 'b', 'bcd'), { maxLength: 200 })],
    ];
    for (const [encoding, type, arb] of cases) {
      fc.assert(
        fc.property(arb, (list) => {
          let values;
          if (type === Type.INT32) values = Int32Array.from(list as number[]);
          else if (type === Type.INT64) values = BigInt64Array.from(list as bigint[]);
          else if (type === Type.DOUBLE) values = Float64Array.from(list as number[]);
          else {
            const parts = (list as string[]).map((x) => new TextEncoder().encode(x));
            const offsets = new Int32Array(parts.length + 1);
            for (let i = 0; i < parts.length; i++) offsets[i + 1] = offsets[i]! + parts[i]!.length;
            const data = new Uint8Array(offsets[parts.length]!);
            for (let i = 0; i < parts.length; i++) data.set(parts[i]!, offsets[i]!);
            values = { offsets, data };
          }
          const w = new ByteWriter(16);
          encodeValues(encoding, values, { type }, w);
          const enc = w.finish().slice();
          const want = decodeValues(encoding, enc, 0, enc.length, list.length, { type });
          const got = read.decodePreparedValues(encoding, enc, 0, enc.length, list.length, { type });
          expect(got.pos).toBe(want.pos);
          expect(got.values).toEqual(want.values);
          expect(got.values).toEqual(values);
        }),
        { numRuns: 40 },
      );
    }
  });
});
