// Mutation fuzzing: valid encodings of random values, then truncated or with bytes flipped, decoded
// by every codec. Any outcome is fine except an exception that is not a ParquetError (or a hang).
import { ByteWriter, Type } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, test } from 'vitest';
import { buildDictionary, decodeValues, encodeValues, type ColumnDescriptor, type ColumnValues } from '../src/index.js';
import { booleans, byteArrayValues, fixedValues, float32s, float64s, int32s, int64s, onlyParquetErrors } from './util.js';

type Case = [encoding: number, column: ColumnDescriptor, values: fc.Arbitrary<ColumnValues>];
const cases: Case[] = [
  [0, { type: Type.BOOLEAN }, booleans(100)],
  [0, { type: Type.BYTE_ARRAY }, byteArrayValues(30)],
  [3, { type: Type.BOOLEAN }, booleans(100)],
  [5, { type: Type.INT32 }, int32s(300)],
  [5, { type: Type.INT64 }, int64s(300)],
  [6, { type: Type.BYTE_ARRAY }, byteArrayValues(30)],
  [7, { type: Type.BYTE_ARRAY }, byteArrayValues(30)],
  [7, { type: Type.FIXED_LEN_BYTE_ARRAY, typeLength: 3 }, fixedValues(3, 30)],
  [8, { type: Type.INT32 }, int32s(300).map((a) => a.map((x) => x % 9))],
  [9, { type: Type.FLOAT }, float32s(100)],
  [10, { type: Type.FLOAT }, float32s(100)],
  [10, { type: Type.DOUBLE }, float64s(100)],
];

const count = (v: ColumnValues) => ('offsets' in v ? v.offsets.length - 1 : 'width' in v ? v.data.length / v.width : v.length);

describe('mutated encodings only ever raise ParquetError', () => {
  test.each(cases.map((c) => [c[0], c[1].type, c] as const))('encoding %i, type %i', (_e, _t, [enc, col, arb]) => {
    fc.assert(
      fc.property(arb, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.nat(), fc.boolean(), (values, flips, cut, truncate) => {
        let dict: ColumnValues | undefined;
        let encoded = values;
        if (enc === 8) {
          const d = buildDictionary(values);
          dict = d.dictionary;
          encoded = d.indices;
        }
        const w = new ByteWriter();
        encodeValues(enc, encoded, col, w);
        const bytes = w.finish().slice();
        const n = count(values);
        if (truncate) {
          const end = bytes.length ? cut % bytes.length : 0;
          onlyParquetErrors(() => decodeValues(enc, bytes, 0, end, n, col, dict));
        } else {
          for (const [at, b] of flips) if (bytes.length) bytes[at % bytes.length] = b;
          onlyParquetErrors(() => decodeValues(enc, bytes, 0, bytes.length, n, col, dict));
        }
      }),
      { numRuns: 150 },
    );
  });
});
