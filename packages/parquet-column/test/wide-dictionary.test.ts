/**
 * Dictionary indices of 9 and 10 bits: the chunk decoder loads the unrolled unpack kernels of widths 9–17, 24 and 32
 * (parquet-encodings bit-pack-mid-kernels.ts, through prepareUnpack) before it decodes the first page that needs
 * them, and not for pages of 8 bits or less. Without them (wide-dictionary-unloadable.test.ts) the values are the
 * same.
 */
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { Type } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { UNPACK } from '../../parquet-encodings/src/bit-pack-kernels.js';
import { ChunkDecoder, chunkValues, convertChunk, decodeColumnChunk } from '../src/index.js';
import { wideDictionaryChunk } from './wide-dictionary.js';

const where = { rowGroup: 0, path: 'x', offset: 4 };

describe('dictionary indices wider than 8 bits', () => {
  test('8-bit indices load nothing; 10-bit INT32 indices load the unrolled kernels first; the values are exact', async () => {
    const small = wideDictionaryChunk(Type.INT32, 256, 3000, 1000);
    const a = await decodeColumnChunk(small.bytes, small.column, small.meta, where, { codecs: builtinCodecs(), numRows: 3000 });
    expect(Array.from(chunkValues(a, small.column) as Int32Array)).toEqual(small.expected);
    expect(UNPACK[10]!.name).not.toBe('unpack10');

    const c = wideDictionaryChunk(Type.INT32, 1000, 5000, 1500);
    const dec = new ChunkDecoder(c.bytes, c.column, c.meta, where, { codecs: builtinCodecs() });
    const first = await dec.take(700);
    expect(UNPACK[10]!.name).toBe('unpack10');
    expect(UNPACK[9]!.name).toBe('unpack9');
    const rest = await dec.take(Infinity);
    expect([...Array.from(convertChunk(first, c.column)), ...Array.from(convertChunk(rest, c.column))]).toEqual(c.expected);
  });

  test('9-bit BYTE_ARRAY indices, whole chunk and batches', async () => {
    const c = wideDictionaryChunk(Type.BYTE_ARRAY, 300, 4000, 1100);
    const whole = await decodeColumnChunk(c.bytes, c.column, c.meta, where, { codecs: builtinCodecs(), numRows: 4000 });
    const td = new TextDecoder();
    expect(Array.from(convertChunk(whole, c.column), (b) => td.decode(b as Uint8Array))).toEqual(c.expected);
    const dec = new ChunkDecoder(c.bytes, c.column, c.meta, where, { codecs: builtinCodecs() });
    const got: unknown[] = [];
    while (!(await dec.atEnd())) got.push(...Array.from(convertChunk(await dec.take(333), c.column), (b) => td.decode(b as Uint8Array)));
    expect(got).toEqual(c.expected);
  });
});
