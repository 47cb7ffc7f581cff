// SNAPPY compression through both encoders: the WebAssembly kernel (src/wasm/snappy-compress.wat, the default when
// WebAssembly is available) and the TypeScript loop it falls back to. Every stream either makes is decoded by our
// decompressor and by native snappy (npm `snappy`); the two encoders must give the same bytes; streams for small
// inputs are checked against bytes worked out by hand from format_description.txt and the algorithm's rules.
import { afterAll, describe, expect, test, vi } from 'vitest';
import fc from 'fast-check';
import snappy from 'snappy';
import { CodecErrorCode, CompressionCodec, builtinCodecs, compressPage, decompressPage, snappyCodec, snappyCompress, snappyDecompress } from '@parquetry/parquet-codecs';
import { setSnappyEncoder, snappyCompressWasmAvailable, snappyMaxCompressedLength, type SnappyEncoderMode } from '../src/snappy-compress.js';
import { setSnappyDecoder } from '../src/snappy.js';
import { bigInput, codeOf, concat, numericBytes, randomBytes, repetitiveBytes, rng, same, textBytes, variedInputs } from './inputs.js';

const MODES: [string, SnappyEncoderMode][] = [
  ['WebAssembly kernel', 'auto'],
  ['TypeScript loop', 'ts'],
];

afterAll(() => setSnappyEncoder('auto'));

function compressWith(m: SnappyEncoderMode, src: Uint8Array): Uint8Array {
  setSnappyEncoder(m);
  try {
    return snappyCompress(src);
  } finally {
    setSnappyEncoder('auto');
  }
}

/** Decodes with our decompressor (WebAssembly kernel and TypeScript loop) and with native snappy; fails unless all give `want`. */
function expectDecodes(packed: Uint8Array, want: Uint8Array, label: string): void {
  expect(packed.length, label).toBeLessThanOrEqual(snappyMaxCompressedLength(want.length));
  const native = snappy.uncompressSync(Buffer.from(packed.buffer, packed.byteOffset, packed.length)) as Buffer;
  expect(same(native, want), `${label}: native snappy`).toBe(true);
  for (const dm of ['auto', 'ts'] as const) {
    setSnappyDecoder(dm);
    try {
      const out = new Uint8Array(want.length);
      expect(snappyDecompress(packed, out), `${label}: decoder ${dm}`).toBe(want.length);
      expect(same(out, want), `${label}: decoder ${dm}`).toBe(true);
    } finally {
      setSnappyDecoder('auto');
    }
  }
}

const u8 = (...parts: (number | string | Uint8Array)[]): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'number' ? [p] : typeof p === 'string' ? [...new TextEncoder().encode(p)] : [...p])));

/** Whether no 4-byte sequence occurs twice in `b` (so a greedy matcher can find nothing). */
function all4GramsDistinct(b: Uint8Array): boolean {
  const seen = new Set<number>();
  for (let i = 0; i + 4 <= b.length; i++) {
    const k = (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
    if (seen.has(k)) return false;
    seen.add(k);
  }
  return true;
}

// ---- page-like inputs (what a Parquet writer compresses)

/** PLAIN INT64: sequential ids from `start`, little-endian, moved as two 32-bit words. */
function int64Ids(count: number, start = 1_000_000_000): Uint8Array {
  const w = new Uint32Array(count * 2);
  for (let i = 0; i < count; i++) w[2 * i] = start + i;
  return new Uint8Array(w.buffer);
}

/** PLAIN BYTE_ARRAY: 4-byte length 32, then 32 random lowercase hex digits. */
function hexStrings(count: number, seed: number): Uint8Array {
  const r = rng(seed);
  const out = new Uint8Array(count * 36);
  for (let v = 0, p = 0; v < count; v++, p += 36) {
    out[p] = 32;
    for (let i = 0; i < 32; i++) out[p + 4 + i] = '0123456789abcdef'.charCodeAt((r() * 16) | 0);
  }
  return out;
}

/** PLAIN DOUBLE: uniform random doubles in [-1000, 1000). */
function randomDoubles(count: number, seed: number): Uint8Array {
  const r = rng(seed);
  const d = new Float64Array(count);
  for (let i = 0; i < count; i++) d[i] = r() * 2000 - 1000;
  return new Uint8Array(d.buffer);
}

/** Bit-packed 7-bit dictionary indices in runs (a skewed 100-entry dictionary). */
function dictIndices(n: number, seed: number): Uint8Array {
  const r = rng(seed);
  const out = new Uint8Array(n);
  let acc = 0;
  let bits = 0;
  let v = 0;
  for (let p = 0; p < n; ) {
    if (r() < 0.3) v = Math.min((r() * 100) | 0, (r() * 100) | 0);
    acc |= v << bits;
    bits += 7;
    while (bits >= 8 && p < n) {
      out[p++] = acc & 0xff;
      acc >>>= 8;
      bits -= 8;
    }
  }
  return out;
}

const MiB = 1 << 20;
const pageLike = (): [string, Uint8Array][] => [
  ['PLAIN INT64 ids 1 MiB', int64Ids(MiB / 8)],
  ['PLAIN BYTE_ARRAY hex 1 MiB', hexStrings(MiB / 36, 5)],
  ['PLAIN DOUBLE random 1 MiB', randomDoubles(MiB / 8, 6)],
  ['dictionary indices 1 MiB', dictIndices(MiB, 7)],
  ['all zero 1 MiB', new Uint8Array(MiB)],
  ['incompressible 1 MiB', randomBytes(MiB, 8)],
  ['repetitive 200k', repetitiveBytes(200_000)],
  ['text 300k', textBytes(300_000, 9)],
  ['int64 numeric 300k', numericBytes(300_000, 10)],
];

/** Sizes around the 64 KiB blocks, the table sizes (2^8..2^14) and the short-move edges. */
const EDGE_SIZES = [0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 64, 65, 255, 256, 257, 4095, 16384, 16385, 65535, 65536, 65537, 131072, 131075];

test('the WebAssembly kernel is available under Node (so the kernel tests below are not vacuous)', () => {
  expect(snappyCompressWasmAvailable()).toBe(true);
});

describe.each(MODES)('SNAPPY compression, %s', (_name, mode) => {
  const comp = (src: Uint8Array): Uint8Array => compressWith(mode, src);

  test('streams worked out by hand', () => {
    expect([...comp(new Uint8Array(0))]).toEqual([0]);
    expect([...comp(u8('a'))]).toEqual([1, 0x00, 0x61]);
    expect([...comp(u8('abc'))]).toEqual([3, 0x08, 0x61, 0x62, 0x63]);
    // 'abcd' found again at 4, extended to the end: literal 'abcd', then a copy-1 of 8 bytes at offset 4
    expect([...comp(u8('abcdabcdabcd'))]).toEqual([12, 0x0c, ...u8('abcd'), 0x11, 0x04]);
    // 70 zeros: literal of 1, then 69 bytes at offset 1 = a 64-byte copy-2 (63 << 2 | 2) and a 5-byte copy-1
    expect([...comp(new Uint8Array(70))]).toEqual([70, 0x00, 0x00, 0xfe, 0x01, 0x00, 0x05, 0x01]);
    // 69 zeros leave 4 after the first 64 (68 <= 68): 64-byte copy-2, then a 4-byte copy-1
    expect([...comp(new Uint8Array(69))]).toEqual([69, 0x00, 0x00, 0xfe, 0x01, 0x00, 0x01, 0x01]);
    // 67 zeros: 66 to copy (65..67 left) -> a 60-byte copy-2 (59 << 2 | 2), then 6 bytes as a copy-1
    expect([...comp(new Uint8Array(67))]).toEqual([67, 0x00, 0x00, 0xee, 0x01, 0x00, 0x09, 0x01]);
    // a 12-byte copy needs the copy-2 form: (12 - 1) << 2 | 2 = 0x2e
    expect([...comp(u8('abcd', 'abcd'.repeat(3)))]).toEqual([16, 0x0c, ...u8('abcd'), 0x2e, 0x04, 0x00]);
  });

  test('literal tag forms: 1..60 in the tag, 61..256 with one length byte, 257..65536 with two', () => {
    for (const n of [60, 61, 256, 257, 1000]) {
      const src = randomBytes(n, 100 + n);
      expect(all4GramsDistinct(src)).toBe(true);
      const pre = n < 128 ? [n] : [(n & 0x7f) | 0x80, n >>> 7];
      const tag = n <= 60 ? [(n - 1) << 2] : n <= 256 ? [60 << 2, n - 1] : [61 << 2, (n - 1) & 0xff, (n - 1) >>> 8];
      expect([...comp(src)], `${n}`).toEqual([...pre, ...tag, ...src]);
    }
    // past one 64 KiB block, each block is its own literal: 65536 (tag 61, 0xffff) then 70000 - 65536 = 4464
    let seed = 1;
    let src = randomBytes(70_000, seed);
    while (!all4GramsDistinct(src)) src = randomBytes(70_000, ++seed);
    const packed = comp(src);
    expect([...packed.subarray(0, 6)]).toEqual([0xf0, 0xa2, 0x04, 61 << 2, 0xff, 0xff]);
    expect(same(packed.subarray(6, 6 + 65536), src.subarray(0, 65536))).toBe(true);
    expect([...packed.subarray(6 + 65536, 9 + 65536)]).toEqual([61 << 2, 4463 & 0xff, 4463 >>> 8]);
    expect(packed.length).toBe(9 + 70_000);
  });

  test('matches never reach back across a 64 KiB block', () => {
    // the same 1000 random bytes at the start of two blocks: the second copy is a literal again
    const chunk = randomBytes(1000, 42);
    const src = concat(chunk, new Uint8Array(65536 - 1000).fill(0x20), chunk);
    expect(all4GramsDistinct(chunk)).toBe(true);
    const packed = comp(src);
    expect(same(packed.subarray(packed.length - 1000), chunk)).toBe(true);
    expectDecodes(packed, src, 'two blocks');
  });

  test('round trips of edge sizes, varied and page-like inputs (our decoders and native snappy)', () => {
    for (const n of EDGE_SIZES) {
      for (const [kind, src] of [
        ['random', randomBytes(n, n + 1)],
        ['zeros', new Uint8Array(n)],
        ['text', textBytes(n, n + 2)],
      ] as const) {
        expectDecodes(comp(src), src, `${kind} ${n}`);
      }
    }
    for (const [label, src] of [...variedInputs(), ...pageLike()]) expectDecodes(comp(src), src, label);
  });

  test('compresses as well as native snappy (within 1%) on page-like inputs', () => {
    for (const [label, src] of pageLike()) {
      const ours = comp(src).length;
      const native = snappy.compressSync(Buffer.from(src)).length;
      expect(ours, label).toBeLessThanOrEqual(Math.ceil(native * 1.01));
    }
  });

  test('more than 16 MiB, then more than 64 MiB (past the size the kernel and the scratch are kept at), then small', () => {
    const big = bigInput();
    expect(big.length).toBeGreaterThan(16 << 20);
    expectDecodes(comp(big), big, '> 16 MiB');
    const huge = concat(big, big, big, big);
    expect(huge.length).toBeGreaterThan(64 << 20);
    const packed = comp(huge);
    expect((snappy.uncompressSync(Buffer.from(packed.buffer, packed.byteOffset, packed.length)) as Buffer).equals(Buffer.from(huge))).toBe(true);
    const small = textBytes(3000, 5);
    expectDecodes(comp(small), small, 'small after huge');
  });

  test('inputs that are views into larger buffers; each result is a fresh array of exactly its length', () => {
    const backing = textBytes(100_000, 12);
    const a = backing.subarray(3, 40_003);
    const b = backing.subarray(50_001, 50_101);
    const pa = comp(a);
    const pb = comp(b);
    expectDecodes(pa, a, 'view a');
    expectDecodes(pb, b, 'view b');
    for (const p of [pa, pb]) {
      expect(p.byteOffset).toBe(0);
      expect(p.buffer.byteLength).toBe(p.length);
    }
    expect(pa.buffer).not.toBe(pb.buffer);
    const keep = pa.slice();
    comp(textBytes(50_000, 13));
    expect(same(pa, keep)).toBe(true);
    expect(same(a, backing.subarray(3, 40_003))).toBe(true);
  });

  test('through the codec interface (compressPage / decompressPage)', () => {
    const codecs = builtinCodecs();
    const src = hexStrings(5000, 3);
    setSnappyEncoder(mode);
    try {
      const packed = compressPage(codecs, CompressionCodec.SNAPPY, src);
      expect(same(packed, snappyCodec.compress(src))).toBe(true);
      expect(same(decompressPage(codecs, CompressionCodec.SNAPPY, packed, src.length), src)).toBe(true);
    } finally {
      setSnappyEncoder('auto');
    }
  });

  test('an input longer than a Snappy stream can declare is a CODEC_SIZE error', () => {
    const fake = new Uint8Array(0);
    Object.defineProperty(fake, 'length', { value: 2 ** 32 });
    expect(codeOf(() => comp(fake))).toBe(CodecErrorCode.SIZE);
  });
});

describe('the kernel and the TypeScript loop give the same bytes', () => {
  test('edge sizes, varied and page-like inputs', () => {
    for (const n of EDGE_SIZES) {
      for (const src of [randomBytes(n, n + 1), new Uint8Array(n), textBytes(n, n + 2), repetitiveBytes(n)]) {
        expect(same(compressWith('auto', src), compressWith('ts', src)), `${n}`).toBe(true);
      }
    }
    for (const [label, src] of [...variedInputs(), ...pageLike()]) {
      expect(same(compressWith('auto', src), compressWith('ts', src)), label).toBe(true);
    }
  });

  test('property: arbitrary bytes and arbitrary repeats of short patterns', () => {
    // bytes drawn from a small alphabet, and runs built from repeated pieces, so matches of every length and
    // offset form (copy-1, copy-2, 60- and 64-byte splits) occur
    const pieces = fc.array(
      fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 24 }), fc.integer({ min: 1, max: 80 })),
      { maxLength: 40 },
    );
    const patterned = pieces.map((ps) => concat(...ps.flatMap(([p, k]) => Array.from({ length: k }, () => p))));
    const smallAlphabet = fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 3000 }).map((a) => new Uint8Array(a));
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 5000 }), patterned, smallAlphabet), (src) => {
        const k = compressWith('auto', src);
        const t = compressWith('ts', src);
        expect(same(k, t)).toBe(true);
        expectDecodes(k, src, 'property');
      }),
      { numRuns: 300, seed: 20240601 },
    );
  });
});

test('without WebAssembly (or with a module the runtime refuses) the TypeScript loop compresses', async () => {
  const src = concat(hexStrings(3000, 1), int64Ids(20_000), textBytes(40_000, 2));
  const want = compressWith('ts', src);
  for (const stub of [undefined, { Module: function refused(): never { throw new Error('refused by CSP'); } }]) {
    vi.resetModules();
    vi.stubGlobal('WebAssembly', stub);
    try {
      const fresh = await import('../src/snappy-compress.js');
      expect(fresh.snappyCompressWasmAvailable()).toBe(false);
      const packed = fresh.snappyCompress(src);
      expect(same(packed, want)).toBe(true);
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
    expectDecodes(want, src, 'fallback');
  }
});

test('when the kernel memory cannot grow, the TypeScript loop takes the input', () => {
  const src = concat(bigInput().subarray(0, 8 << 20), int64Ids(1000));
  const want = compressWith('ts', src);
  const grow = vi.spyOn(WebAssembly.Memory.prototype, 'grow').mockImplementation(() => {
    throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
  });
  try {
    expect(same(snappyCompress(src), want)).toBe(true);
    expect(grow).toHaveBeenCalled();
  } finally {
    grow.mockRestore();
  }
  expectDecodes(want, src, 'no growth');
});
