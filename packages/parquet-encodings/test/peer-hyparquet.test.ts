// Our encoders' bytes read by an independent decoder: hyparquet 1.33's exported decoders
// (RLE hybrid, PLAIN, DELTA_*, BYTE_STREAM_SPLIT, ALP), compared value by value.
import { ByteWriter, Type } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { alpDecode } from 'hyparquet/src/alp.js';
import { deltaBinaryUnpack, deltaByteArray, deltaLengthByteArray } from 'hyparquet/src/delta.js';
import { byteStreamSplit, readRleBitPackedHybrid } from 'hyparquet/src/encoding.js';
import { readPlain } from 'hyparquet/src/plain.js';
import { describe, expect, test } from 'vitest';
import { encodeAlpDouble, encodeAlpFloat, encodeRleHybrid, encodeValues, type ByteArrays } from '../src/index.js';
import { byteArrayValues, expectSameValues, float32s, float64s, int32s, int64s } from './util.js';

const reader = (b: Uint8Array) => ({ view: new DataView(b.buffer, b.byteOffset, b.byteLength), offset: 0 });
const items = (v: ByteArrays) => Array.from({ length: v.offsets.length - 1 }, (_, i) => Array.from(v.data.subarray(v.offsets[i]!, v.offsets[i + 1]!)));

describe('our encoders, hyparquet decoders', () => {
  test('RLE / bit-packing hybrid', () =>
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 30 })), { maxLength: 20 }), (bw, runs) => {
        const vals = Int32Array.from(runs.flatMap(([v, n]) => new Array<number>(n).fill(v % 2 ** bw)));
        const w = new ByteWriter();
        encodeRleHybrid(vals, 0, vals.length, bw, w);
        const out = new Int32Array(vals.length);
        readRleBitPackedHybrid(reader(w.finish()), bw, out, w.pos);
        expect(out).toEqual(vals);
      }),
      { numRuns: 50 },
    ));
  test('PLAIN INT64 and BYTE_ARRAY', () => {
    fc.assert(
      fc.property(int64s(), byteArrayValues(), (v, b) => {
        const w = new ByteWriter();
        encodeValues(0, v, { type: Type.INT64 }, w);
        if (v.length) expect(Array.from(readPlain(reader(w.finish()), 'INT64', v.length, undefined) as BigInt64Array)).toEqual(Array.from(v));
        const wb = new ByteWriter();
        encodeValues(0, b, { type: Type.BYTE_ARRAY }, wb);
        const n = b.offsets.length - 1;
        if (n) expect((readPlain(reader(wb.finish()), 'BYTE_ARRAY', n, undefined) as Uint8Array[]).map((x) => Array.from(x))).toEqual(items(b));
      }),
      { numRuns: 30 },
    );
  });
  test('DELTA_BINARY_PACKED INT32 and INT64', () =>
    fc.assert(
      fc.property(int32s(500), int64s(500), (a, b) => {
        const w = new ByteWriter();
        encodeValues(5, a, { type: Type.INT32 }, w);
        const o = new Int32Array(a.length);
        deltaBinaryUnpack(reader(w.finish()), a.length, o);
        expect(o).toEqual(a);
        const w64 = new ByteWriter();
        encodeValues(5, b, { type: Type.INT64 }, w64);
        const o64 = new BigInt64Array(b.length);
        deltaBinaryUnpack(reader(w64.finish()), b.length, o64);
        expect(o64).toEqual(b);
      }),
      { numRuns: 40 },
    ));
  test('DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY', () =>
    fc.assert(
      fc.property(byteArrayValues(), (v) => {
        const n = v.offsets.length - 1;
        for (const [enc, dec] of [[6, deltaLengthByteArray], [7, deltaByteArray]] as const) {
          const w = new ByteWriter();
          encodeValues(enc, v, { type: Type.BYTE_ARRAY }, w);
          const out: Uint8Array[] = new Array(n);
          dec(reader(w.finish()), n, out);
          expect(out.map((x) => Array.from(x))).toEqual(items(v));
        }
      }),
      { numRuns: 30 },
    ));
  test('BYTE_STREAM_SPLIT DOUBLE', () =>
    fc.assert(
      fc.property(float64s(), (v) => {
        const w = new ByteWriter();
        encodeValues(9, v, { type: Type.DOUBLE }, w);
        expectSameValues(byteStreamSplit(reader(w.finish()), v.length, 'DOUBLE', undefined) as Float64Array, v);
      }),
      { numRuns: 30 },
    ));
  test('ALP FLOAT and DOUBLE (bit-exact, incl. NaN payloads)', () =>
    fc.assert(
      fc.property(float32s(300), float64s(300), fc.constantFrom(3, 10), (f, d, log) => {
        const w = new ByteWriter();
        encodeAlpFloat(f, 0, f.length, w, log);
        if (f.length) expectSameValues(alpDecode(reader(w.finish()), f.length, 'FLOAT') as Float32Array, f);
        const wd = new ByteWriter();
        encodeAlpDouble(d, 0, d.length, wd, log);
        if (d.length) expectSameValues(alpDecode(reader(wd.finish()), d.length, 'DOUBLE') as Float64Array, d);
      }),
      { numRuns: 40 },
    ));
});
