// SNAPPY decompression through both decoders: the WebAssembly kernel (src/wasm/snappy.wat, the default when
// WebAssembly is available) and the TypeScript loop it falls back to. Every check runs against each; the two must
// also agree with each other (same bytes, or the same ParquetError code, message and offset) and with native snappy.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import snappy from 'snappy';
import { PageType, decodeThrift, readFileMetaData, readPageHeader } from '@parquetry/thrift-compact';
import { CodecErrorCode, CompressionCodec, builtinCodecs, decompressPage, isParquetError, snappyCompress, snappyDecompress } from '@parquetry/parquet-codecs';
import { setSnappyDecoder, snappyWasmAvailable, type SnappyDecoderMode } from '../src/snappy.js';
import { bigInput, codeOf, concat, numericBytes, randomBytes, repetitiveBytes, rng, same, textBytes, variedInputs } from './inputs.js';
import { fuzzDecompressor } from './fuzz-harness.js';
import { HAVE_CORPUS, corpusFiles, corpusPages } from './corpus-pages.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MODES: [string, SnappyDecoderMode][] = [
  ['WebAssembly kernel', 'auto'],
  ['TypeScript loop', 'ts'],
];

// the kernel's module is imported on the first call and used once loaded: load it before the 'auto' checks
beforeAll(async () => {
  expect(await snappyWasmAvailable()).toBe(true);
});
afterAll(() => setSnappyDecoder('auto'));

const bytes = (...parts: (number | string)[]): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : [p])));
const text = (b: Uint8Array): string => new TextDecoder().decode(b);
const uvarint = (v: number): number[] => {
  const out: number[] = [];
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
};

/** The result of one decode: the bytes, or the error's code, message and offset. */
type Outcome = { ok: true; n: number; out: Uint8Array } | { ok: false; code: string; message: string; offset: number | undefined };

function decodeWith(m: SnappyDecoderMode, src: Uint8Array, size: number): Outcome {
  setSnappyDecoder(m);
  const out = new Uint8Array(size);
  try {
    const n = snappyDecompress(src, out);
    return { ok: true, n, out };
  } catch (e) {
    if (!isParquetError(e)) throw new Error(`${m}: non-ParquetError ${String(e)} on ${Buffer.from(src).toString('hex').slice(0, 300)}`, { cause: e });
    return { ok: false, code: e.code, message: e.message, offset: e.offset };
  } finally {
    setSnappyDecoder('auto');
  }
}

/** Decodes with both decoders and fails unless they agree exactly. */
function bothAgree(src: Uint8Array, size: number): Outcome {
  const a = decodeWith('auto', src, size);
  const b = decodeWith('ts', src, size);
  if (a.ok && b.ok) {
    expect(a.n).toBe(b.n);
    expect(same(a.out, b.out)).toBe(true);
  } else {
    expect(a).toEqual(b);
  }
  return a;
}

/** The format's semantics, byte by byte, for generated streams (the oracle for the element generator below). */
function naiveDecode(src: Uint8Array): Uint8Array {
  let pos = 0;
  let len = 0;
  for (let shift = 0; ; shift += 7) {
    const b = src[pos++]!;
    len += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  const out = new Uint8Array(len);
  let op = 0;
  while (pos < src.length) {
    const tag = src[pos++]!;
    if ((tag & 3) === 0) {
      let lit = tag >>> 2;
      if (lit >= 60) {
        const extra = lit - 59;
        lit = 0;
        for (let i = 0; i < extra; i++) lit += src[pos++]! * 2 ** (8 * i);
      }
      for (let i = 0; i <= lit; i++) out[op++] = src[pos++]!;
      continue;
    }
    let length: number;
    let offset: number;
    if ((tag & 3) === 1) {
      length = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | src[pos++]!;
    } else if ((tag & 3) === 2) {
      length = (tag >>> 2) + 1;
      offset = src[pos]! | (src[pos + 1]! << 8);
      pos += 2;
    } else {
      length = (tag >>> 2) + 1;
      offset = (src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24)) >>> 0;
      pos += 4;
    }
    for (let i = 0; i < length; i++, op++) out[op] = out[op - offset]!;
  }
  return out;
}

/**
 * A valid stream of random elements: literals of every length form (short, 60..63 tags), and copies of all
 * three kinds with offsets 1, 2, 3, 4..7, 8+ (overlapping and not) and lengths 1..64, often ending exactly at the
 * output's end so the kernel's edge paths run.
 */
function randomStream(seed: number, target: number): Uint8Array {
  const r = rng(seed);
  const body: number[] = [];
  let op = 0;
  while (op < target) {
    const left = target - op;
    if (op === 0 || r() < 0.35) {
      const pick = r();
      let lit = pick < 0.6 ? 1 + ((r() * 16) | 0) : pick < 0.85 ? 1 + ((r() * 70) | 0) : 1 + ((r() * 700) | 0);
      lit = Math.min(lit, left);
      const n = lit - 1;
      const form = n < 60 ? (r() < 0.8 ? 0 : 1 + ((r() * 4) | 0)) : n < 256 ? 1 + ((r() * 4) | 0) : 2 + ((r() * 3) | 0);
      if (form === 0) body.push(n << 2);
      else {
        body.push((59 + form) << 2);
        for (let i = 0; i < form; i++) body.push(Math.floor(n / 2 ** (8 * i)) & 0xff);
      }
      for (let i = 0; i < lit; i++) body.push((r() * 4) | 0 ? 97 + ((r() * 4) | 0) : (r() * 256) | 0);
      op += lit;
      continue;
    }
    const o = r();
    let offset = o < 0.15 ? 1 : o < 0.25 ? 2 + ((r() * 2) | 0) : o < 0.4 ? 4 + ((r() * 4) | 0) : 8 + ((r() * 200) | 0);
    offset = Math.min(offset, op);
    const kind = r();
    if (kind < 0.5 && offset < 2048 && left >= 4) {
      const length = Math.min(4 + ((r() * 8) | 0), left);
      body.push(((offset >>> 8) << 5) | ((length - 4) << 2) | 1, offset & 0xff);
      op += length;
    } else {
      const length = Math.min(1 + ((r() * 64) | 0), left);
      if (kind < 0.8) body.push(((length - 1) << 2) | 2, offset & 0xff, offset >>> 8);
      else body.push(((length - 1) << 2) | 3, offset & 0xff, (offset >>> 8) & 0xff, 0, 0);
      op += length;
    }
  }
  return new Uint8Array([...uvarint(target), ...body]);
}

test('the WebAssembly kernel is available under Node (so the kernel tests below are not vacuous)', async () => {
  expect(await snappyWasmAvailable()).toBe(true);
});

test('a fresh module decodes at once, before the kernel it starts importing has loaded, and after', async () => {
  vi.resetModules();
  try {
    const fresh = await import('../src/snappy.js');
    const input = textBytes(70_000, 5);
    const packed = snappyCompress(input);
    for (let i = 0; i < 2; i++) {
      const out = new Uint8Array(input.length);
      expect(fresh.snappyDecompress(packed, out)).toBe(input.length);
      expect(same(out, input)).toBe(true);
      expect(codeOf(() => fresh.snappyDecompress(bytes(9, 0x00, 'a', 0x11, 2), new Uint8Array(9)))).toBe(CodecErrorCode.CORRUPT);
      // the first round ran before the import resolved (the TypeScript loop); the second runs with the kernel
      expect(await fresh.snappyWasmAvailable()).toBe(true);
    }
  } finally {
    vi.resetModules();
  }
});

test('without WebAssembly (or with a module the runtime refuses) the TypeScript loop decodes', async () => {
  for (const stub of [undefined, { Module: function refused(): never { throw new Error('refused by CSP'); } }]) {
    vi.resetModules();
    vi.stubGlobal('WebAssembly', stub);
    try {
      const fresh = await import('../src/snappy.js');
      expect(await fresh.snappyWasmAvailable()).toBe(false);
      const input = textBytes(5000, 31);
      const out = new Uint8Array(input.length);
      expect(fresh.snappyDecompress(snappyCompress(input), out)).toBe(input.length);
      expect(same(out, input)).toBe(true);
      expect(codeOf(() => fresh.snappyDecompress(bytes(9, 0x00, 'a', 0x11, 2), new Uint8Array(9)))).toBe(CodecErrorCode.CORRUPT);
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  }
});

describe.each(MODES)('SNAPPY decompression, %s', (_name, mode) => {
  const dec = (src: Uint8Array, out: Uint8Array): number => {
    setSnappyDecoder(mode);
    try {
      return snappyDecompress(src, out);
    } finally {
      setSnappyDecoder('auto');
    }
  };

  test('hand-built streams (format_description.txt)', () => {
    let out = new Uint8Array(5);
    expect(dec(bytes(5, 0x10, 'hello'), out)).toBe(5);
    expect(text(out)).toBe('hello');
    out = new Uint8Array(12);
    dec(bytes(12, 0x0c, 'abcd', 0x11, 4), out);
    expect(text(out)).toBe('abcdabcdabcd');
    const lit = 'x'.repeat(60) + 'y';
    out = new Uint8Array(66);
    dec(bytes(66, 60 << 2, 60, lit, (2 << 2) | 2, 61, 0, (1 << 2) | 3, 1, 0, 0, 0), out);
    expect(text(out)).toBe(lit + 'xxx' + 'xx');
    // runs at the very end of the output: offsets 1, 2, 3 and 5, overlapping
    out = new Uint8Array(1 + 64);
    dec(bytes(65, 0x00, 'a', (63 << 2) | 2, 1, 0), out);
    expect(text(out)).toBe('a'.repeat(65));
    out = new Uint8Array(3 + 30);
    dec(bytes(33, 0x08, 'abc', (29 << 2) | 2, 3, 0), out);
    expect(text(out)).toBe('abc'.repeat(11));
    out = new Uint8Array(2 + 9);
    dec(bytes(11, 0x04, 'ab', (8 << 2) | 2, 2, 0), out);
    expect(text(out)).toBe('abababababa');
    out = new Uint8Array(5 + 20);
    dec(bytes(25, 0x10, 'abcde', (19 << 2) | 2, 5, 0), out);
    expect(text(out)).toBe('abcde'.repeat(5));
    // an empty stream
    expect(dec(bytes(0), new Uint8Array(0))).toBe(0);
    expect(dec(bytes(0), new Uint8Array(10))).toBe(0);
  });

  test('errors', () => {
    expect(codeOf(() => dec(bytes(5, 0x10, 'hell'), new Uint8Array(5)))).toBe(CodecErrorCode.CORRUPT); // truncated literal
    expect(codeOf(() => dec(bytes(6, 0x10, 'hello'), new Uint8Array(5)))).toBe(CodecErrorCode.OVERRUN); // declares more than the page
    expect(codeOf(() => dec(bytes(6, 0x10, 'hello'), new Uint8Array(6)))).toBe(CodecErrorCode.CORRUPT); // stops short
    expect(codeOf(() => dec(bytes(9, 0x00, 'a', 0x11, 2), new Uint8Array(9)))).toBe(CodecErrorCode.CORRUPT); // offset before start
    expect(codeOf(() => dec(bytes(9, 0x00, 'a', 0x11, 0), new Uint8Array(9)))).toBe(CodecErrorCode.CORRUPT); // offset 0
    expect(codeOf(() => dec(bytes(5, 0x00, 'a', 0x11, 1), new Uint8Array(5)))).toBe(CodecErrorCode.OVERRUN); // copy past declared
    expect(codeOf(() => dec(bytes(5, 0x10, 'hello', 0x00, 'x'), new Uint8Array(5)))).toBe(CodecErrorCode.OVERRUN); // literal past declared
    expect(codeOf(() => dec(bytes(5, 63 << 2, 0xff, 0xff), new Uint8Array(5)))).toBe(CodecErrorCode.CORRUPT); // truncated literal length
    expect(codeOf(() => dec(bytes(5, 63 << 2, 0xff, 0xff, 0xff, 0xff, 'x'), new Uint8Array(5)))).toBe(CodecErrorCode.CORRUPT); // 4 GiB literal
    expect(codeOf(() => dec(bytes(8, 0x0c, 'abcd', 0x01), new Uint8Array(8)))).toBe(CodecErrorCode.CORRUPT); // truncated copy-1
    expect(codeOf(() => dec(bytes(8, 0x0c, 'abcd', 0x0e, 4), new Uint8Array(8)))).toBe(CodecErrorCode.CORRUPT); // truncated copy-2
    expect(codeOf(() => dec(bytes(8, 0x0c, 'abcd', 0x0f, 4, 0, 0), new Uint8Array(8)))).toBe(CodecErrorCode.CORRUPT); // truncated copy-4
    expect(codeOf(() => dec(bytes(8, 0x0c, 'abcd', 0x0f, 4, 0, 0, 0x80), new Uint8Array(8)))).toBe(CodecErrorCode.CORRUPT); // 2 GiB offset
    expect(codeOf(() => dec(bytes(0x80), new Uint8Array(8)))).toBe(CodecErrorCode.CORRUPT); // truncated preamble
  });

  test('round trips of varied inputs (our compressor), also through decompressPage', () => {
    const codecs = builtinCodecs();
    for (const [label, input] of variedInputs()) {
      const packed = snappyCompress(input);
      const out = new Uint8Array(input.length);
      expect(dec(packed, out), label).toBe(input.length);
      expect(same(out, input), label).toBe(true);
      setSnappyDecoder(mode);
      try {
        expect(same(decompressPage(codecs, CompressionCodec.SNAPPY, packed, input.length), input), label).toBe(true);
      } finally {
        setSnappyDecoder('auto');
      }
    }
  });

  test('native snappy compresses, we decompress (varied inputs and random sizes)', () => {
    const r = rng(77);
    const inputs = variedInputs().map(([, b]) => b);
    for (let i = 0; i < 40; i++) {
      const n = (r() * 5000) | 0;
      const k = r();
      inputs.push(k < 0.3 ? textBytes(n, i) : k < 0.6 ? numericBytes(n, i) : k < 0.8 ? randomBytes(n, i) : concat(repetitiveBytes(n >> 1), textBytes(n >> 1, i)));
    }
    for (const input of inputs) {
      const packed = new Uint8Array(snappy.compressSync(Buffer.from(input)));
      const out = new Uint8Array(input.length);
      expect(dec(packed, out)).toBe(input.length);
      expect(same(out, input)).toBe(true);
    }
  });

  test('more than 64 MiB (past the size the kernel keeps its memory at), then small again', () => {
    const big = concat(bigInput(), bigInput(), bigInput(), bigInput(), bigInput());
    expect(big.length).toBeGreaterThan(64 << 20);
    const packed = new Uint8Array(snappy.compressSync(Buffer.from(big)));
    const out = new Uint8Array(big.length);
    expect(dec(packed, out)).toBe(big.length);
    expect(same(out, big)).toBe(true);
    const small = textBytes(3000, 5);
    const o2 = new Uint8Array(small.length);
    expect(dec(snappyCompress(small), o2)).toBe(small.length);
    expect(same(o2, small)).toBe(true);
  });

  test('generated streams with every element form decode as the format says', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const src = randomStream(seed, 1 + ((seed * 37) % 3000));
      const want = naiveDecode(src);
      const out = new Uint8Array(want.length);
      expect(dec(src, out)).toBe(want.length);
      expect(same(out, want), `seed ${seed}`).toBe(true);
    }
  });

  test('every truncation of a stream is a ParquetError', () => {
    for (const src of [snappyCompress(textBytes(300, 3)), snappyCompress(numericBytes(400, 4)), randomStream(9, 500)]) {
      const size = naiveDecode(src).length;
      for (let cut = 0; cut < src.length; cut++) {
        expect(codeOf(() => dec(src.subarray(0, cut), new Uint8Array(size)))).toBe(CodecErrorCode.CORRUPT);
      }
    }
  });

  test('fuzz: random and mutated streams give a count within the output or a ParquetError', () => {
    const samples = [textBytes(2000, 21), numericBytes(1600, 22), repetitiveBytes(3000), randomBytes(500, 23), new Uint8Array(1), textBytes(70, 24)];
    const seeds = [...samples.map((s) => ({ packed: snappyCompress(s), size: s.length })), ...[3, 4, 5].map((s) => ({ packed: randomStream(s, 2000), size: 2000 }))];
    const stats = fuzzDecompressor(dec, seeds, 1000, mode === 'ts' ? 99 : 98);
    expect(stats.runs).toBeGreaterThan(1000);
    expect(stats.typedErrors).toBeGreaterThan(0);
  });
});

describe('the kernel and the TypeScript loop agree exactly', () => {
  test('hand-built error streams: same code, message and offset', () => {
    const cases: [Uint8Array, number][] = [
      [bytes(5, 0x10, 'hell'), 5],
      [bytes(6, 0x10, 'hello'), 5],
      [bytes(6, 0x10, 'hello'), 6],
      [bytes(9, 0x00, 'a', 0x11, 2), 9],
      [bytes(9, 0x00, 'a', 0x11, 0), 9],
      [bytes(5, 0x00, 'a', 0x11, 1), 5],
      [bytes(5, 0x10, 'hello', 0x00, 'x'), 5],
      [bytes(5, 63 << 2, 0xff, 0xff), 5],
      [bytes(5, 63 << 2, 0xff, 0xff, 0xff, 0xff, 'x'), 5],
      [bytes(8, 0x0c, 'abcd', 0x01), 8],
      [bytes(8, 0x0c, 'abcd', 0x0e, 4), 8],
      [bytes(8, 0x0c, 'abcd', 0x0f, 4, 0, 0), 8],
      [bytes(8, 0x0c, 'abcd', 0x0f, 4, 0, 0, 0x80), 8],
      [bytes(40, 0x00, 'a', 0xfe, 1, 0), 40],
    ];
    for (const [src, size] of cases) expect(bothAgree(src, size).ok).toBe(false);
  });

  test('differential fuzz: same bytes or the same error on random and mutated streams', () => {
    const r = rng(4242);
    const seeds = [snappyCompress(textBytes(3000, 1)), snappyCompress(numericBytes(4000, 2)), new Uint8Array(snappy.compressSync(Buffer.from(repetitiveBytes(5000)))), randomStream(11, 3000), randomStream(12, 200)];
    const deadline = Date.now() + 1500;
    let runs = 0;
    let errors = 0;
    while (Date.now() < deadline) {
      const base = seeds[(r() * seeds.length) | 0]!;
      const src = base.slice();
      const edits = (r() * 4) | 0;
      for (let e = 0; e < edits; e++) src[(r() * src.length) | 0] = (r() * 256) | 0;
      const cut = r() < 0.2 ? (r() * src.length) | 0 : src.length;
      const declared = naiveSize(src);
      const size = r() < 0.7 ? declared : (r() * 2 * declared) | 0;
      if (size > 1 << 20) continue;
      if (!bothAgree(src.subarray(0, cut), size).ok) errors++;
      runs++;
    }
    expect(runs).toBeGreaterThan(500);
    expect(errors).toBeGreaterThan(0);
  });
});

/** The declared length of a (possibly mutated) stream, for sizing outputs; 0 when the preamble is unreadable. */
function naiveSize(src: Uint8Array): number {
  let len = 0;
  for (let i = 0, shift = 0; i < src.length && i < 5; i++, shift += 7) {
    len += (src[i]! & 0x7f) * 2 ** shift;
    if (src[i]! < 0x80) return len;
  }
  return 0;
}

/** The SNAPPY data pages of a Parquet file (compressed body and declared size). */
function snappyPages(file: string, limit: number): { body: Uint8Array; size: number }[] {
  const b = new Uint8Array(fs.readFileSync(file));
  const n = b.length;
  const footerLen = new DataView(b.buffer, b.byteOffset).getUint32(n - 8, true);
  const meta = decodeThrift(readFileMetaData, b, n - 8 - footerLen, n - 8).value;
  const pages: { body: Uint8Array; size: number }[] = [];
  for (const rg of meta.row_groups) {
    for (const cc of rg.columns) {
      const md = cc.meta_data;
      if (!md || md.codec !== CompressionCodec.SNAPPY) continue;
      const dict = md.dictionary_page_offset;
      let pos = dict !== undefined && dict > 0 && dict < md.data_page_offset ? dict : md.data_page_offset;
      const end = pos + md.total_compressed_size;
      while (pos < end && pages.length < limit) {
        const d = decodeThrift(readPageHeader, b, pos, n);
        pos = d.end;
        const h = d.value;
        if (h.type === PageType.DATA_PAGE || h.type === PageType.DICTIONARY_PAGE) pages.push({ body: b.subarray(pos, pos + h.compressed_page_size), size: h.uncompressed_page_size });
        pos += h.compressed_page_size;
      }
    }
  }
  return pages;
}

const FIXTURES = ['mixed-1m.snappy.parquet', 'numeric-10m.snappy.parquet'].map((f) => path.join(ROOT, 'fixtures/generated', f)).filter((f) => fs.existsSync(f));
if (FIXTURES.length < 2) console.warn('snappy-wasm: fixtures/generated is incomplete, real-page differential runs on what is there');

describe('real pages: both decoders match native snappy', () => {
  test.each(FIXTURES.map((f) => [path.basename(f), f]))('%s', (_name, file) => {
    const pages = snappyPages(file, 40);
    expect(pages.length).toBeGreaterThan(0);
    for (const p of pages) {
      const want = snappy.uncompressSync(Buffer.from(p.body)) as Buffer;
      expect(want.length).toBe(p.size);
      for (const [, m] of MODES) {
        const got = decodeWith(m, p.body, p.size);
        expect(got.ok && got.n === p.size && want.equals(got.out)).toBe(true);
      }
    }
  });

  test.skipIf(!HAVE_CORPUS)('every SNAPPY page of the upstream corpus', () => {
    let count = 0;
    for (const file of corpusFiles()) {
      for (const p of corpusPages(file, [])) {
        // an empty body of size 0 never reaches a codec (decompressPage returns it as is)
        if (p.codec !== CompressionCodec.SNAPPY || (p.body.length === 0 && p.size === 0)) continue;
        const got = bothAgree(p.body, p.size);
        expect(got, `${file} ${p.column} at ${p.offset}`).toMatchObject({ ok: true });
        count++;
      }
    }
    expect(count).toBeGreaterThan(50);
  });
});
