import { Encoding, Type } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { DECODERS, ENCODINGS, getCodec, getDecoder, withEncoder, plainDecoder, plainCodec } from '../src/index.js';
import { expectCode } from './util.js';

describe('registry: decoders apart from encoders', () => {
  test('every encoding has its decoder, the same decode function, and no encode', () => {
    const numbers = Object.keys(ENCODINGS).map(Number).sort((a, b) => a - b);
    // the encodings parquet-format defines that this package implements (Encodings.md)
    expect(numbers).toEqual([
      Encoding.PLAIN,
      Encoding.PLAIN_DICTIONARY,
      Encoding.RLE,
      Encoding.DELTA_BINARY_PACKED,
      Encoding.DELTA_LENGTH_BYTE_ARRAY,
      Encoding.DELTA_BYTE_ARRAY,
      Encoding.RLE_DICTIONARY,
      Encoding.BYTE_STREAM_SPLIT,
      10, // ALP
    ].sort((a, b) => a - b));
    expect(Object.keys(DECODERS).map(Number).sort((a, b) => a - b)).toEqual(numbers);
    for (const n of numbers) {
      const codec = ENCODINGS[n]!;
      const decoder = DECODERS[n]!;
      expect(codec.encoding).toBe(n);
      expect(decoder.encoding).toBe(n);
      expect(decoder.name).toBe(codec.name);
      expect(decoder.decode).toBe(codec.decode);
      expect(decoder.supports).toBe(codec.supports);
      expect('encode' in decoder).toBe(false);
      expect(typeof codec.encode).toBe('function');
    }
  });

  test('getDecoder checks as getCodec does', () => {
    expect(getDecoder(Encoding.PLAIN, Type.INT32)).toBe(plainDecoder);
    expect(getCodec(Encoding.PLAIN, Type.INT32)).toBe(plainCodec);
    expectCode(() => getDecoder(Encoding.RLE, Type.INT32), 'ENCODING_UNSUPPORTED', false);
    expectCode(() => getDecoder(4, Type.INT32), 'ENCODING_UNSUPPORTED', false); // BIT_PACKED: no value decoder
    expectCode(() => getDecoder(99, Type.INT32), 'ENCODING_UNSUPPORTED', false);
  });

  test('withEncoder copies the decoder and leaves it unchanged', () => {
    const encode = (): void => {};
    const c = withEncoder(plainDecoder, encode);
    expect(c).not.toBe(plainDecoder);
    expect(c.encode).toBe(encode);
    expect(c.decode).toBe(plainDecoder.decode);
    expect('encode' in plainDecoder).toBe(false);
  });
});
