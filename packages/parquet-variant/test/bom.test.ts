// A Variant string or object key that starts with U+FEFF keeps it (the decoder is built with ignoreBOM; failed
// before: '\uFEFFa' decoded as 'a').
import { expect, test } from 'vitest';
import { decodeVariant, encodeVariant } from '../src/index.js';

test('a leading U+FEFF in a Variant string and in an object key', () => {
  const value = { '\uFEFFkey': '\uFEFFa', plain: ['\uFEFF', 'x'] };
  const { metadata, value: bytes } = encodeVariant(value);
  expect(decodeVariant(metadata, bytes)).toEqual(value);
});
