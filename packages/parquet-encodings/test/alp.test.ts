import { ByteWriter, Type } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decodeAlpDouble, decodeAlpFloat, decodeValues, encodeAlpDouble, encodeAlpFloat, encodeValues, NEG_POW10_F32, NEG_POW10_F64, POW10_F32, POW10_F64 } from '../src/index.js';
import { bytes, expectCode, expectSameValues, float32s, float64s, hex, onlyParquetErrors } from './util.js';

/** Correctly rounded binary32 bits of 10^-k by exact rational comparison (independent of Math.fround). */
function f32BitsOfNegPow10(k: number): number {
  const approx = new Uint32Array(Float32Array.of(Number(`1e-${k}`)).buffer)[0]!;
  const ten = 10n ** BigInt(k);
  let best = approx;
  let bestErr: bigint | undefined;
  for (const b of [approx - 1, approx, approx + 1]) {
    const exp = (b >>> 23) & 0xff;
    const m = BigInt((b & 0x7fffff) | (exp ? 0x800000 : 0));
    const q = exp - 127 - 23; // value = m · 2^q, q < 0 here
    // |m·2^q − 10^-k| scaled by 10^k · 2^-q: |m·10^k − 2^-q|
    let err = m * ten - (1n << BigInt(-q));
    if (err < 0n) err = -err;
    // compare errors at a common scale: divide by 2^-q -> multiply others accordingly
    const scaled = err << BigInt(200 + q);
    if (bestErr === undefined || scaled < bestErr || (scaled === bestErr && (b & 1) === 0)) {
      bestErr = scaled;
      best = b;
    }
  }
  return best;
}

describe('ALP: constants', () => {
  test('powers of ten are the correctly rounded literals', () => {
    for (let k = 0; k <= 10; k++) {
      expect(new Uint32Array(Float32Array.of(NEG_POW10_F32[k]!).buffer)[0], `1e-${k}`).toBe(f32BitsOfNegPow10(k));
      expect(POW10_F32[k]).toBe(10 ** k);
    }
    for (let k = 0; k <= 18; k++) {
      expect(POW10_F64[k]).toBe(Number(`1e${k}`));
      expect(NEG_POW10_F64[k]).toBe(Number(`1e-${k}`));
    }
  });
});

describe('ALP: hand-computed vectors', () => {
  test('AlpEncoding.md worked example: {1500.0, NaN, 2500.0, 333.5} with e=4, f=3', () => {
    const src = bytes(
      '00 00 0a 04000000' + // mode 0, FOR+bit-pack, log 10, 4 values
        '04000000' + // offset of vector 0 (past the 1-entry offset array)
        '04 03 0100' + // exponent 4, factor 3, 1 exception
        '070d000000000000 0f' + // frame of reference 3335, bit width 15
        '91adc85628150000' + // 11665, 11665, 21665, 0 at 15 bits, LSB first
        '0100' + // exception position 1
        '000000000000f87f', // NaN
    );
    expect(src.length).toBe(7 + 4 + 31);
    const out = new Float64Array(4);
    expect(decodeAlpDouble(src, 0, src.length, out, 0, 4)).toBe(src.length);
    expect([...out]).toEqual([1500, NaN, 2500, 333.5]);
    expect(hex(new Uint8Array(out.buffer, 8, 8))).toBe('000000000000f87f');
  });

  test('FLOAT: 0.5, 1.25, 1.25 encode with one exponent and a 2-value spread', () => {
    const w = new ByteWriter();
    encodeAlpFloat(Float32Array.of(0.5, 1.25, 1.25), 0, 3, w);
    const b = w.finish();
    // header + one offset + AlpInfo(4) + ForInfo(5) + ceil(3·bw/8), no exceptions
    expect(hex(b.subarray(0, 11))).toBe('00000a03000000' + '04000000');
    expect(b[13]! | (b[14]! << 8)).toBe(0); // no exceptions
    const out = new Float32Array(3);
    expect(decodeAlpFloat(b, 0, b.length, out, 0, 3)).toBe(b.length);
    expect([...out]).toEqual([0.5, 1.25, 1.25]);
  });
});

describe('ALP: round trip (bit-exact)', () => {
  const logs = fc.constantFrom(3, 4, 10);
  test('DOUBLE arbitrary bit patterns (NaN payloads, ±0, ±Inf, subnormals)', () =>
    fc.assert(
      fc.property(float64s(300), logs, (v, log) => {
        const w = new ByteWriter();
        encodeAlpDouble(v, 0, v.length, w, log);
        const out = new Float64Array(v.length);
        expect(decodeAlpDouble(w.finish(), 0, w.pos, out, 0, v.length)).toBe(w.pos);
        expectSameValues(out, v);
      }),
      { numRuns: 60 },
    ));
  test('FLOAT arbitrary bit patterns', () =>
    fc.assert(
      fc.property(float32s(300), logs, (v, log) => {
        const w = new ByteWriter();
        encodeAlpFloat(v, 0, v.length, w, log);
        const out = new Float32Array(v.length);
        expect(decodeAlpFloat(w.finish(), 0, w.pos, out, 0, v.length)).toBe(w.pos);
        expectSameValues(out, v);
      }),
      { numRuns: 60 },
    ));
  test('decimal data compresses well and round-trips through the registry', () => {
    const d = Float64Array.from({ length: 5000 }, (_, i) => Math.round(Math.sin(i) * 100000) / 100);
    const w = new ByteWriter();
    encodeValues(10, d, { type: Type.DOUBLE }, w);
    expect(w.pos).toBeLessThan(d.byteLength / 2);
    const r = decodeValues(10, w.finish(), 0, w.pos, d.length, { type: Type.DOUBLE });
    expectSameValues(r.values, d);
    const f = Float32Array.from({ length: 3000 }, (_, i) => (i % 1000) / 10);
    const wf = new ByteWriter();
    encodeValues(10, f, { type: Type.FLOAT }, wf);
    expect(wf.pos).toBeLessThan(f.byteLength / 2);
    expectSameValues(decodeValues(10, wf.finish(), 0, wf.pos, f.length, { type: Type.FLOAT }).values, f);
  });
  test('empty input and all-exception vectors', () => {
    const w = new ByteWriter();
    encodeAlpDouble(new Float64Array(0), 0, 0, w);
    expect(hex(w.finish())).toBe('00000a00000000');
    expect(decodeAlpDouble(w.finish(), 0, w.pos, new Float64Array(0), 0, 0)).toBe(7);
    const nan = new Float64Array(new Int32Array([1, 0x7ff00000, 2, 0xfff00000 | 0, 0, 0x80000000 | 0]).buffer);
    const w2 = new ByteWriter();
    encodeAlpDouble(nan, 0, 3, w2);
    const out = new Float64Array(3);
    decodeAlpDouble(w2.finish(), 0, w2.pos, out, 0, 3);
    expectSameValues(out, nan);
  });
});

describe('ALP: bad input', () => {
  const good = (() => {
    const w = new ByteWriter();
    encodeAlpDouble(Float64Array.of(1.5, 2.25, NaN, 4), 0, 4, w, 3);
    return w.finish().slice();
  })();
  const patch = (at: number, v: number) => {
    const b = good.slice();
    b[at] = v;
    return b;
  };
  test('header, offsets, parameters, exceptions, truncation', () => {
    const out = new Float64Array(4);
    expect(decodeAlpDouble(good, 0, good.length, out, 0, 4)).toBe(good.length);
    expectCode(() => decodeAlpDouble(patch(0, 1), 0, good.length, out, 0, 4), 'ENCODING_UNSUPPORTED');
    expectCode(() => decodeAlpDouble(patch(2, 16), 0, good.length, out, 0, 4), 'ENCODING_CORRUPT');
    expectCode(() => decodeAlpDouble(good, 0, good.length, out, 0, 3), 'ENCODING_CORRUPT');
    expectCode(() => decodeAlpDouble(patch(7, 200), 0, good.length, out, 0, 4), 'ENCODING_CORRUPT'); // offset
    expectCode(() => decodeAlpDouble(patch(11, 19), 0, good.length, out, 0, 4), 'ENCODING_CORRUPT'); // exponent
    expectCode(() => decodeAlpDouble(patch(11 + 12, 65), 0, good.length, out, 0, 4), 'ENCODING_BIT_WIDTH');
    expectCode(() => decodeAlpDouble(good, 0, good.length - 1, out, 0, 4), 'ENCODING_TRUNCATED');
    const posAt = good.length - 10;
    expectCode(() => decodeAlpDouble(patch(posAt, 9), 0, good.length, out, 0, 4), 'ENCODING_CORRUPT'); // exception position
    expectCode(() => decodeValues(10, bytes('00000a ffffff7f'), 0, 7, 2 ** 31 - 1, { type: Type.DOUBLE }), 'ENCODING_TRUNCATED');
  });
  test('garbage never escapes as a non-ParquetError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 60 }), fc.integer({ min: 0, max: 20 }), fc.boolean(), (tail, n, dbl) => {
        const s = Uint8Array.from([0, 0, 3, n, 0, 0, 0, ...tail]);
        onlyParquetErrors(() => decodeValues(10, s, 0, s.length, n, { type: dbl ? Type.DOUBLE : Type.FLOAT }));
      }),
      { numRuns: 400 },
    );
  });
});
