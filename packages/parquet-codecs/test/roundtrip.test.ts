// Every pure-TS codec round-trips varied inputs through compressPage/decompressPage, and compresses what it should.
import { describe, expect, test } from 'vitest';
import { type Codec, builtinCodecs, compressPage, decompressPage, lz4HadoopCodec, lz4RawCodec, lzoCodec, snappyCodec } from '@parquetry/parquet-codecs';
import { bigInput, textBytes, variedInputs } from './inputs.js';

const CODECS: [string, Codec][] = [
  ['SNAPPY', snappyCodec],
  ['LZ4_RAW', lz4RawCodec],
  ['LZ4 (Hadoop)', lz4HadoopCodec],
  ['LZO', lzoCodec],
];

describe.each(CODECS)('%s round trip', (_name, codec) => {
  const codecs = builtinCodecs();
  test.each(variedInputs())('%s', (_label, input) => {
    const packed = compressPage(codecs, codec.codec, input);
    const back = decompressPage(codecs, codec.codec, packed, input.length);
    expect(back.length).toBe(input.length);
    expect(Buffer.from(back).equals(Buffer.from(input))).toBe(true);
    // and straight through the codec, into an exactly sized buffer
    const out = new Uint8Array(input.length);
    expect(codec.decompress(packed, out)).toBe(input.length);
  });

  test('compresses text at least 2x', () => {
    const input = textBytes(200_000, 99);
    expect(codec.compress(input).length).toBeLessThan(input.length / 2);
  });
});

describe('inputs larger than 16 MiB', () => {
  const big = bigInput();
  test.each([
    ['SNAPPY', snappyCodec],
    ['LZ4_RAW', lz4RawCodec],
  ] as const)('%s', (_name, codec) => {
    expect(big.length).toBeGreaterThan(16 << 20);
    const packed = codec.compress(big);
    const out = new Uint8Array(big.length);
    expect(codec.decompress(packed, out)).toBe(big.length);
    expect(Buffer.from(out).equals(Buffer.from(big))).toBe(true);
  });
});
