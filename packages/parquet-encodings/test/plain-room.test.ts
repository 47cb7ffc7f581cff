/**
 * PLAIN BYTE_ARRAY on hostile input (found by tools/fuzz, entry encoding-PLAIN): a value whose length fits the bytes
 * left but not together with the 4-byte lengths of the values still to come is ENCODING_TRUNCATED, never a
 * RangeError from copying past the buffer sized on those lengths.
 */
import { describe, expect, test } from 'vitest';
import { decodePlainByteArray } from '../src/index.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('PLAIN BYTE_ARRAY lengths', () => {
  test('two values asked for, the first taking every byte after its length: ENCODING_TRUNCATED naming value 0', () => {
    // [len 4]["abcd"] and nothing for value 1's length: 8 bytes, so 2 × 4 length bytes fit the count check
    const src = bytes(4, 0, 0, 0, 0x61, 0x62, 0x63, 0x64);
    let err: unknown;
    try {
      decodePlainByteArray(src, 0, src.length, 2);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ name: 'ParquetError', code: 'ENCODING_TRUNCATED', offset: 4 });
    expect((err as Error).message).toContain('value 0 of 4 bytes and the lengths of the 1 values after it');
    // one value asked for: it reads
    const one = decodePlainByteArray(src, 0, src.length, 1);
    expect(Array.from(one.values.offsets)).toEqual([0, 4]);
    expect(new TextDecoder().decode(one.values.data)).toBe('abcd');
    expect(one.pos).toBe(8);
  });

  test('a long value (the bulk copy path) short of the next lengths: ENCODING_TRUNCATED', () => {
    const src = new Uint8Array(4 + 100 + 4);
    new DataView(src.buffer).setUint32(0, 104, true);
    expect(() => decodePlainByteArray(src, 0, src.length, 3)).toThrow(expect.objectContaining({ code: 'ENCODING_TRUNCATED' }));
  });
});
