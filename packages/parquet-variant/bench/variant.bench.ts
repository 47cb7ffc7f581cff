// Decoding Variant binaries: this package vs hyparquet's Variant decoder, on the same bytes.
import { decodeVariantColumn } from 'hyparquet/src/variant.js';
import { bench, describe } from 'vitest';
import { VariantMetadata, decodeVariant, encodeVariant, mergeShredded, type ShreddedShape, type VariantValue } from '../src/index.js';

// A JSON-like document: 2,000 records with ints, doubles, short and long strings, a nested object and a list.
const doc: VariantValue = Array.from({ length: 2000 }, (_, i) => ({
  id: i * 7919,
  score: i / 3,
  name: `user-${i}`,
  bio: 'lorem ipsum dolor sit amet '.repeat(3),
  active: i % 3 === 0,
  tags: ['a', 'bb', 'ccc'].slice(0, i % 4),
  address: { city: 'Paris', zip: 75000 + (i % 20), geo: { lat: 48.85, lon: 2.35 } },
  big: 2 ** 40 + i,
}));
const big = encodeVariant(doc);

// Many small variants sharing one metadata: the per-row case of a Variant column.
const rows = Array.from({ length: 2000 }, (_, i) => encodeVariant({ event_type: i % 2 ? 'login' : 'noop', event_ts: 1729794114937 + i, n: i }));
const sharedMd = new VariantMetadata(rows[0]!.metadata);

describe(`decode one ${(big.value.length / 1024).toFixed(0)} KiB Variant (2,000 records)`, () => {
  bench('parquet-variant decodeVariant', () => {
    decodeVariant(big.metadata, big.value);
  });
  bench('hyparquet decodeVariantColumn', () => {
    decodeVariantColumn({ metadata: big.metadata, value: big.value });
  });
});

describe('decode 2,000 small Variants (one row each)', () => {
  bench('parquet-variant decodeVariant', () => {
    for (const r of rows) decodeVariant(r.metadata, r.value);
  });
  bench('parquet-variant decodeVariant (metadata parsed once)', () => {
    for (const r of rows) decodeVariant(sharedMd, r.value);
  });
  bench('hyparquet decodeVariantColumn', () => {
    for (const r of rows) decodeVariantColumn({ metadata: r.metadata, value: r.value });
  });
});

// Shredded rows as the reader assembles them: event_type (string) and event_ts (int64) shredded, the rest in `value`.
const shape: ShreddedShape = {
  kind: 'object',
  fields: [
    { name: 'event_ts', hasValue: true, typed: { kind: 'int64' } },
    { name: 'event_type', hasValue: true, typed: { kind: 'string' } },
  ],
};
const mdKeys = encodeVariant({ event_ts: 0, event_type: 0, n: 0 }).metadata;
const shreddedRows = Array.from({ length: 2000 }, (_, i) => ({
  metadata: mdKeys,
  // { n: i % 100 } against the shared dictionary (id 2)
  value: Uint8Array.of(0x02, 1, 2, 0, 2, 0x0c, i % 100),
  typed_value: {
    event_ts: { value: null, typed_value: 1729794114937n + BigInt(i) },
    event_type: { value: null, typed_value: i % 2 ? 'login' : 'noop' },
  },
}));

describe('merge 2,000 shredded rows (partially shredded objects)', () => {
  bench('parquet-variant mergeShredded', () => {
    for (const r of shreddedRows) mergeShredded(r.metadata, r.value, r.typed_value, shape);
  });
  bench('hyparquet decodeVariantColumn', () => {
    for (const r of shreddedRows) decodeVariantColumn(r);
  });
});

describe('encode', () => {
  bench('parquet-variant encodeVariant (2,000 records)', () => {
    encodeVariant(doc);
  });
});
