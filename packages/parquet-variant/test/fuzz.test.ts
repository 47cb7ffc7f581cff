// Malformed input: mutations (bit flips, byte overwrites, truncation, insertion) of real Variant
// binaries — the upstream variant/ and shredded_variant/*.variant.bin files when ../shared is present,
// plus encodings of random values — must decode to a value or throw a ParquetError, never anything else.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { isParquetError } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { decodeVariant, encodeVariant, splitVariantBinary } from '../src/index.js';

const SHARED = path.resolve(import.meta.dirname, '../../../../shared/parquet-testing');
const HAVE = fs.existsSync(SHARED);
if (!HAVE) console.warn(`parquet-variant: ${SHARED} absent, fuzzing only generated Variant binaries`);

function seeds(): { metadata: Uint8Array; value: Uint8Array }[] {
  const out: { metadata: Uint8Array; value: Uint8Array }[] = [];
  if (HAVE) {
    const vdir = path.join(SHARED, 'variant');
    for (const f of fs.readdirSync(vdir).filter((x) => x.endsWith('.value'))) {
      const base = path.join(vdir, f.slice(0, -6));
      out.push({ metadata: new Uint8Array(fs.readFileSync(`${base}.metadata`)), value: new Uint8Array(fs.readFileSync(`${base}.value`)) });
    }
    const sdir = path.join(SHARED, 'shredded_variant');
    for (const f of fs.readdirSync(sdir).filter((x) => x.endsWith('.variant.bin'))) {
      const { metadata, value } = splitVariantBinary(new Uint8Array(fs.readFileSync(path.join(sdir, f))));
      out.push({ metadata: metadata.slice(), value: value.slice() });
    }
  }
  out.push(encodeVariant({ a: [1, 'two', { b: null, c: 2n ** 60n }], d: { type: 'decimal', value: '-1.5' }, e: 'x'.repeat(70) }));
  out.push(encodeVariant(Array.from({ length: 300 }, (_, i) => ({ [`k${i % 7}`]: i * 1000 }))));
  return out;
}

type Mutation = { kind: 'flip'; at: number; bit: number } | { kind: 'set'; at: number; byte: number } | { kind: 'cut'; at: number } | { kind: 'insert'; at: number; byte: number };

function mutate(b: Uint8Array, m: Mutation): Uint8Array {
  if (b.length === 0) return b;
  const at = m.at % (b.length + (m.kind === 'insert' ? 1 : 0));
  switch (m.kind) {
    case 'flip': {
      const c = b.slice();
      c[at] = c[at]! ^ (1 << m.bit);
      return c;
    }
    case 'set': {
      const c = b.slice();
      c[at] = m.byte;
      return c;
    }
    case 'cut':
      return b.slice(0, at);
    case 'insert':
      return Uint8Array.from([...b.subarray(0, at), m.byte, ...b.subarray(at)]);
  }
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), byte: fc.constantFrom(0, 0xff, 0x7f, 0x80, 0x03, 0x02, 0x10, 0x40) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
);

function decodesOrParquetError(metadata: Uint8Array, value: Uint8Array): 'ok' | 'error' {
  try {
    decodeVariant(metadata, value);
    return 'ok';
  } catch (e) {
    if (!isParquetError(e)) throw e;
    expect(e.code).toBe('VARIANT_CORRUPT');
    expect(typeof e.offset).toBe('number');
    return 'error';
  }
}

describe('malformed-input fuzz', () => {
  const all = seeds();
  test(`mutations of ${all.length} real Variant binaries: a value or a ParquetError`, () => {
    const tally = { ok: 0, error: 0 };
    fc.assert(
      fc.property(fc.nat(), fc.boolean(), fc.array(mutation, { minLength: 1, maxLength: 4 }), (pick, inMetadata, ms) => {
        const s = all[pick % all.length]!;
        let target = inMetadata ? s.metadata : s.value;
        for (const m of ms) target = mutate(target, m);
        const r = inMetadata ? decodesOrParquetError(target, s.value) : decodesOrParquetError(s.metadata, target);
        tally[r]++;
      }),
      { numRuns: 8_000 },
    );
    console.log(`parquet-variant: fuzz 8000 mutated inputs → ${tally.ok} decoded, ${tally.error} ParquetError, 0 other`);
    expect(tally.error).toBeGreaterThan(500);
  });

  test('random bytes: a value or a ParquetError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 60 }), (m, v) => {
        decodesOrParquetError(Uint8Array.from([0x01, ...m]), v);
      }),
      { numRuns: 2_000 },
    );
  });
});
