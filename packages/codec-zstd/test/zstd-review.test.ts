// Review of the ZSTD decoder against RFC 8878, case by case: every frame header layout (single segment or not, each
// Frame_Content_Size field size with the +256 rule of the 2-byte size, each Dictionary_ID field size holding 0,
// checksums), the window descriptor's mantissa as a block bound, all four Size_Format cases of raw, RLE and compressed
// literals sections, the two-byte sequence count that is 0, the repeat offset Repeated_Offset1 - 1, and the zstd CLI
// with small windows, no content size, --fast levels and windows over 2^27 (refused, nothing allocated for them).
// Each hand-built frame is checked against the bytes the RFC gives and against the reference decoder (WASM).
import { compress as wasmCompress, decompress as wasmDecompress, init as wasmInit } from '@bokuweb/zstd-wasm';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isParquetError } from '@parquetry/parquet-codecs';
import { decodeZstd } from '../src/zstd-decode.js';
import { createZstdCodec, zstdDecoder } from '../src/zstd.js';
import { zstdFrames } from '../src/zstd-frames.js';
import { xxh64Low32 } from '../src/xxh64.js';
import { concat, numericBytes, randomBytes, repetitiveBytes, same, textBytes } from '../../parquet-codecs/test/inputs.js';
import { haveTool, runTool } from '../../parquet-codecs/test/peers.js';
import { MAGIC, ascii, backward, block, frame } from './frame-builder.js';

await wasmInit();
const HAVE_ZSTD = haveTool('zstd');
const wasmCodec = await createZstdCodec();
/** Decodes with our decoder into a buffer of `size`, returning the bytes or `CODE message`. */
function ours(src: Uint8Array, size: number): Uint8Array | string {
  const out = new Uint8Array(size);
  try {
    return out.slice(0, decodeZstd(src, out));
  } catch (e) {
    return isParquetError(e) ? `${e.code} ${e.message}` : `untyped: ${String(e)}`;
  }
}

/** The reference decoder's verdict: the bytes, or undefined when it refuses. */
function reference(src: Uint8Array, size: number): Uint8Array | undefined {
  try {
    return wasmDecompress(src, { defaultHeapSize: size + 1 });
  } catch {
    return undefined;
  }
}

/** Asserts our decoder and the reference both give `want`. */
function agree(src: Uint8Array, want: number[] | Uint8Array, what: string): void {
  const expected = Uint8Array.from(want);
  const got = ours(src, expected.length + 16);
  expect(typeof got === 'string' ? got : same(got, expected) ? 'ok' : `differs (${got.length} bytes)`, `ours: ${what}`).toBe('ok');
  const ref = reference(src, expected.length + 16);
  expect(ref !== undefined && same(ref, expected), `reference: ${what}`).toBe(true);
}

describe('frame headers (RFC 8878 section 3.1.1.1)', () => {
  test('every Frame_Content_Size field size, single segment or not, each Dictionary_ID field size holding 0, with and without checksum', () => {
    // contents chosen to fit each field: 1-byte FCS < 256; 2-byte FCS 256..65791 (stored minus 256); 4 and 8 bytes
    const lengths = [0, 5, 255, 256, 300, 1000];
    let cases = 0;
    for (const single of [0, 1]) {
      for (const fcsFlag of [0, 1, 2, 3]) {
        for (const dictFlag of [0, 1, 2, 3]) {
          for (const checksum of [0, 1]) {
            for (const len of lengths) {
              if (fcsFlag === 1 && (len < 256 || len > 65791)) continue;
              if (fcsFlag === 0 && single && len > 255) continue;
              const content = textBytes(len, len + 1);
              const fhd = (fcsFlag << 6) | (single << 5) | (checksum << 2) | dictFlag;
              const head = [...MAGIC, fhd];
              if (!single) head.push(0x00); // Window_Log 10: 1 KiB, so every block here fits
              head.push(...new Array<number>(dictFlag === 3 ? 4 : dictFlag).fill(0));
              const fcsBytes = fcsFlag === 0 ? single : 1 << fcsFlag;
              const stored = fcsFlag === 1 ? len - 256 : len;
              for (let i = 0; i < fcsBytes; i++) head.push(Math.floor(stored / 2 ** (8 * i)) & 255);
              // a raw block then an RLE block of the last byte, splitting the content; an empty content is one empty raw block
              const body: number[] = [];
              if (len === 0) body.push(...block(0, [], true));
              else {
                const cut = len >>> 1;
                body.push(...block(0, [...content.subarray(0, cut)], false));
                const rest = content.subarray(cut);
                if (rest.every((b) => b === rest[0])) body.push(...block(1, [rest[0]!], true, rest.length));
                else body.push(...block(0, [...rest], true));
              }
              if (checksum) {
                const c = xxh64Low32(content, 0, len);
                body.push(c & 255, (c >>> 8) & 255, (c >>> 16) & 255, c >>> 24);
              }
              agree(new Uint8Array([...head, ...body]), content, `fhd 0x${fhd.toString(16)}, ${len} bytes`);
              cases++;
            }
          }
        }
      }
    }
    expect(cases).toBeGreaterThan(200);
  });

  test('the 2-byte content size adds 256: 0x0000 is 256 bytes, 0xffff is 65791; a 1-byte size of 0 in a single segment is an empty frame', () => {
    const c256 = new Array<number>(256).fill(0x61);
    agree(new Uint8Array([...MAGIC, 0x60, 0x00, 0x00, ...block(1, [0x61], true, 256)]), c256, 'FCS 0x0000');
    // 65791 bytes: a single segment of that size has Block_Maximum_Size 65791, so one RLE block of 65791
    const c65791 = new Uint8Array(65791).fill(0x62);
    agree(new Uint8Array([...MAGIC, 0x60, 0xff, 0xff, ...block(1, [0x62], true, 65791)]), c65791, 'FCS 0xffff');
    // the same frame declaring 0x0000 (256) decodes to 65791: a lie, refused by both
    const lie = new Uint8Array([...MAGIC, 0x40, 0x38, 0x00, 0x00, ...block(1, [0x62], true, 300)]);
    expect(ours(lie, 70_000)).toMatch(/^CODEC_CORRUPT .*declares 256 bytes but decodes to 300/);
    expect(reference(lie, 70_000)).toBeUndefined();
    agree(new Uint8Array([...MAGIC, 0x20, 0x00, ...block(0, [], true)]), [], 'single segment, FCS 0');
  });

  test('the window descriptor (exponent and mantissa) bounds blocks: Window_Size = 2^(10+e) * (1 + m/8)', () => {
    // e = 0, m = 7: 1 KiB + 7 * 128 = 1920
    const ok = new Uint8Array([...MAGIC, 0x00, 0x07, ...block(1, [0x41], true, 1920)]);
    agree(ok, new Array<number>(1920).fill(0x41), 'RLE block of 1920 under a 1920-byte window');
    expect(ours(new Uint8Array([...MAGIC, 0x00, 0x07, ...block(1, [0x41], true, 1921)]), 4000)).toMatch(/^CODEC_CORRUPT .*exceeds the block maximum 1920/);
    // e = 3, m = 4: 8 KiB * 1.5 = 12288: a raw block of 12288 fits, 12289 does not
    const raw = randomBytes(12289, 9);
    agree(new Uint8Array([...MAGIC, 0x00, (3 << 3) | 4, ...block(0, [...raw.subarray(0, 12288)], true)]), raw.subarray(0, 12288), 'raw block of 12288');
    expect(ours(new Uint8Array([...MAGIC, 0x00, (3 << 3) | 4, ...block(0, [...raw], true)]), 20000)).toMatch(/^CODEC_CORRUPT .*exceeds the block maximum 12288/);
    // a single segment's window is its content size: a compressed block larger than that is refused
    agree(new Uint8Array([...MAGIC, 0x20, 7, ...block(2, [1 | (7 << 3), 0x7a, 0], true)]), ascii('zzzzzzz'), 'single segment of 7 bytes, 3-byte block');
    const over = new Uint8Array([...MAGIC, 0x20, 5, ...block(2, [5 << 3, ...ascii('hello'), 0], true)]);
    expect(ours(over, 100)).toMatch(/^CODEC_CORRUPT .*compressed block of 7 bytes exceeds the block maximum 5/);
    expect(reference(over, 100)).toBeUndefined();
    // literals past a 1 KiB window's block maximum: both refuse
    const wide = frame(block(2, [1 | (3 << 2) | ((1500 & 15) << 4), (1500 >>> 4) & 255, 0, 0x41, 0], true));
    wide[5] = 0x00;
    expect(ours(wide, 5000)).toMatch(/^CODEC_CORRUPT .*1500 literals exceed the block maximum 1024/);
    expect(reference(wide, 5000)).toBeUndefined();
  });

  test('windows over 2^27 without a content size are refused before anything is decoded; a huge declared content size is CODEC_OVERRUN', () => {
    for (const wd of [0x90, 0xa0, 0xf8, 0xff, 0x8f]) {
      const f = new Uint8Array([...MAGIC, 0x00, wd, ...block(0, ascii('hi'), true)]);
      expect(ours(f, 10), `wd 0x${wd.toString(16)}`).toMatch(/^CODEC_CORRUPT .*window of \d+ bytes exceeds the 134217728-byte limit/);
    }
    // a window over 2^27 with a declared content size within 2^27 needs no more than the content: accepted, as the
    // reference's one-shot decoder does (up to its own Window_Log maximum, 30 in 32-bit WASM; we have none, since
    // nothing is sized by the window)
    const c300 = new Array<number>(300).fill(0x41);
    agree(new Uint8Array([...MAGIC, 0x40, 0xa0, 300 - 256, 0, ...block(1, [0x41], true, 300)]), c300, 'window 2^30, 300 bytes');
    const w41 = new Uint8Array([...MAGIC, 0x40, 0xf8, 300 - 256, 0, ...block(1, [0x41], true, 300)]);
    expect(ours(w41, 300)).toEqual(Uint8Array.from(c300));
    expect(reference(w41, 300)).toBeUndefined();
    // 0x88 is exactly 2^27: accepted
    agree(new Uint8Array([...MAGIC, 0x00, 0x88, ...block(0, ascii('hi'), true)]), ascii('hi'), 'window 2^27');
    // 8-byte content size 2^52 in a single segment: nothing is allocated for it, the page bound refuses it
    const big = new Uint8Array([...MAGIC, 0xe0, 0, 0, 0, 0, 0, 0, 0x10, 0, ...block(0, ascii('hi'), true)]);
    expect(ours(big, 10)).toMatch(/^CODEC_CORRUPT .*window of 4503599627370496 bytes exceeds/);
    const big2 = new Uint8Array([...MAGIC, 0xc0, 0x00, 0, 0, 0, 0, 0, 0, 0x10, 0, ...block(0, ascii('hi'), true)]);
    expect(ours(big2, 10)).toMatch(/^CODEC_OVERRUN /);
    // 2^64 - 1 is past 2^53
    const huge = new Uint8Array([...MAGIC, 0xe0, 255, 255, 255, 255, 255, 255, 255, 255, ...block(0, ascii('hi'), true)]);
    expect(ours(huge, 10)).toMatch(/^CODEC_CORRUPT .*content size beyond 2\^53/);
  });
});

describe('property: randomly assembled frames (RFC 8878 layouts) decode to their content, as the reference decodes them', () => {
  /** A literals section header of `n` bytes for raw (0) or RLE (1) literals, in Size_Format `sf` when `n` fits it. */
  const litHeader = (type: number, n: number, sf: number): number[] => {
    const fmt = n >= 4096 ? 3 : n >= 32 && (sf === 0 || sf === 2) ? 1 : sf;
    // Size_Format 00 and 10 are one format: bit 3 is the low bit of the 5-bit size
    if (fmt === 0 || fmt === 2) return [type | (n << 3)];
    if (fmt === 1) return [type | (1 << 2) | ((n & 15) << 4), n >>> 4];
    return [type | (3 << 2) | ((n & 15) << 4), (n >>> 4) & 255, n >>> 12];
  };
  test('headers, block kinds, literal formats, empty sequence sections in both count forms', () => {
    const chunk = fc.oneof(
      fc.uint8Array({ minLength: 0, maxLength: 300 }).map((b) => ({ bytes: b })),
      fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 5000 })).map(([v, n]) => ({ bytes: new Uint8Array(n).fill(v) })),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(chunk, fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 3 }), fc.boolean()), { minLength: 1, maxLength: 6 }),
        fc.record({ single: fc.boolean(), fcs: fc.integer({ min: 0, max: 3 }), dict: fc.integer({ min: 0, max: 3 }), checksum: fc.boolean(), mantissa: fc.integer({ min: 0, max: 7 }) }),
        (chunks, h) => {
          const content = concat(...chunks.map(([c]) => c.bytes));
          const len = content.length;
          const biggest = Math.max(...chunks.map(([c]) => c.bytes.length), 1);
          // Content size field: as asked when it can hold the size, else the smallest that can
          let fcsFlag = h.fcs;
          if (fcsFlag === 1 && (len < 256 || len > 65791)) fcsFlag = 2;
          if (fcsFlag === 0 && h.single && len > 255) fcsFlag = len >= 256 && len <= 65791 ? 1 : 2;
          const single = h.single ? 1 : 0; // fcsFlag was raised above so a single segment always has a content size
          const head = [...MAGIC, (fcsFlag << 6) | (single << 5) | ((h.checksum ? 1 : 0) << 2) | h.dict];
          if (!single) {
            // the smallest exponent whose window holds the biggest block (compressed blocks add a few bytes)
            let e = 0;
            while (2 ** (10 + e) < biggest + 8) e++;
            head.push((e << 3) | h.mantissa);
          }
          head.push(...new Array<number>(h.dict === 3 ? 4 : h.dict).fill(0));
          const fcsBytes = fcsFlag === 0 ? single : 1 << fcsFlag;
          const stored = fcsFlag === 1 ? len - 256 : len;
          for (let i = 0; i < fcsBytes; i++) head.push(Math.floor(stored / 2 ** (8 * i)) & 255);
          const body: number[] = [];
          chunks.forEach(([c, kind, sf, twoByteZero], i) => {
            const last = i === chunks.length - 1;
            const b = c.bytes;
            const uniform = b.length > 0 && b.every((x) => x === b[0]);
            const zero = twoByteZero ? [0x80, 0x00] : [0x00];
            // a single segment's window is its content size: compressed blocks must not be larger than that
            const roomy = !single || b.length + 6 <= len;
            if (kind === 1 && uniform) body.push(...block(1, [b[0]!], last, b.length));
            else if (kind === 2 && roomy) body.push(...block(2, [...litHeader(0, b.length, sf), ...b, ...zero], last));
            else if (kind === 3 && uniform && roomy) body.push(...block(2, [...litHeader(1, b.length, sf), b[0]!, ...zero], last));
            else body.push(...block(0, [...b], last));
          });
          if (h.checksum) {
            const c = xxh64Low32(content, 0, len);
            body.push(c & 255, (c >>> 8) & 255, (c >>> 16) & 255, c >>> 24);
          }
          const src = new Uint8Array([...head, ...body]);
          agree(src, content, JSON.stringify(h));
          // the frame walk the WASM-backed codec does first agrees, and that codec decodes it too
          const [f, ...rest] = zstdFrames(src);
          expect(rest.length).toBe(0);
          expect(f!.contentSize).toBe(fcsBytes > 0 ? len : undefined);
          expect(f!.checksum).toBe(h.checksum);
          expect(f!.maxOutput).toBeGreaterThanOrEqual(len);
          const out = new Uint8Array(len);
          expect(wasmCodec.decompress(src, out)).toBe(len);
          expect(same(out, content)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('literals section headers (RFC 8878 section 3.1.1.3.1.1): all Size_Format cases', () => {
  test('raw and RLE literals: Size_Format 00 and 10 (1 byte, 5 bits), 01 (2 bytes, 12 bits), 11 (3 bytes, 20 bits)', () => {
    // in the 1-byte form Size_Format is one bit (bit 2 = 0) and bit 3 is the size's low bit: an even size reads as
    // Size_Format 00, an odd one as 10
    for (const n of [20, 21, 0, 31]) {
      const bytes = ascii('abcdefghijklmnopqrstuvwxyz01234'.slice(0, n));
      for (const type of [0, 1]) {
        const payload = type === 0 ? bytes : [0x7a];
        const want = type === 0 ? bytes : new Array<number>(n).fill(0x7a);
        const heads: [string, number[]][] = [
          [n & 1 ? '10' : '00', [type | (n << 3)]],
          ['01', [type | (1 << 2) | ((n & 15) << 4), n >>> 4]],
          ['11', [type | (3 << 2) | ((n & 15) << 4), (n >>> 4) & 255, n >>> 12]],
        ];
        expect((heads[0]![1][0]! >>> 2) & 3).toBe(n & 1 ? 2 : 0);
        for (const [sf, head] of heads) agree(frame(block(2, [...head, ...payload, 0], true)), want, `type ${type}, ${n} literals, Size_Format ${sf}`);
      }
    }
    // the 20-bit size at its largest useful value (128 KiB) in a 3-byte header, RLE
    const m = 128 * 1024;
    agree(frame(block(2, [1 | (3 << 2) | ((m & 15) << 4), (m >>> 4) & 255, m >>> 12, 0x33, 0], true)), new Uint8Array(m).fill(0x33), 'RLE 128 KiB');
  });

  test('compressed literals: Size_Format 00 (1 stream, 10-bit sizes), 01 (4 streams, 10 bits), 10 (4 streams, 14 bits), 11 (4 streams, 18 bits)', () => {
    // direct weights for symbols 0..97: 'a' (97) = 1, the implied 'b' = 1: 1-bit codes, 'a' = 0, 'b' = 1
    const tree = [127 + 98, ...new Array<number>(48).fill(0), 0x01];
    const text = 'abbabaabbbab'; // 12 literals, 3 per stream
    const stream = (s: string): number[] => backward([...s].map((ch): [number, number] => [ch === 'b' ? 1 : 0, 1]));
    const one = [...tree, ...stream(text)];
    const parts = [0, 1, 2, 3].map((i) => stream(text.slice(3 * i, 3 * i + 3)));
    const four = [...tree, parts[0]!.length, 0, parts[1]!.length, 0, parts[2]!.length, 0, ...parts.flat()];
    const n = text.length;
    const header = (sf: number, comp: number): number[] => {
      if (sf < 2) {
        const h = 2 | (sf << 2) | (n << 4) | (comp << 14);
        return [h & 255, (h >>> 8) & 255, h >>> 16];
      }
      if (sf === 2) {
        const h = (2 | (2 << 2) | (n << 4)) + comp * 2 ** 18;
        return [h & 255, Math.floor(h / 256) & 255, Math.floor(h / 65536) & 255, Math.floor(h / 2 ** 24) & 255];
      }
      const h = (2 | (3 << 2) | (n << 4)) + (comp & 1023) * 2 ** 22;
      return [h & 255, Math.floor(h / 256) & 255, Math.floor(h / 65536) & 255, Math.floor(h / 2 ** 24) & 255, comp >>> 10];
    };
    agree(frame(block(2, [...header(0, one.length), ...one, 0], true)), ascii(text), 'Size_Format 00');
    for (const sf of [1, 2, 3]) agree(frame(block(2, [...header(sf, four.length), ...four, 0], true)), ascii(text), `Size_Format ${sf.toString(2).padStart(2, '0')}`);
    // the last stream's size is what the jump table leaves: one byte too many or too few in the section is refused
    expect(ours(frame(block(2, [...header(1, four.length + 1), ...four, 0x01, 0], true)), 100)).toMatch(/^CODEC_CORRUPT /);
    expect(ours(frame(block(2, [...header(1, four.length - 1), ...four.slice(0, -1), 0], true)), 100)).toMatch(/^CODEC_CORRUPT /);
  });
});

describe('sequences section (RFC 8878 section 3.1.1.3.2)', () => {
  test('a sequence count of 0 in the two-byte form (0x80 0x00) ends the section, as the one-byte 0 does', () => {
    // "byte0 < 255: Number_of_Sequences = ((byte0 - 128) << 8) + byte1"; "if Number_of_Sequences == 0 ... the
    // sequence section stops at this point"
    const lits = [5 << 3, ...ascii('hello')];
    agree(frame(block(2, [...lits, 0], true)), ascii('hello'), 'one-byte 0');
    agree(frame(block(2, [...lits, 0x80, 0x00], true)), ascii('hello'), 'two-byte 0');
    expect(ours(frame(block(2, [...lits, 0x80, 0x00, 0x00], true)), 100)).toMatch(/^CODEC_CORRUPT .*1 bytes after an empty sequences section/);
  });

  test('offset value 3 with literal length 0 is Repeated_Offset1 - 1 (here 5 - 1 = 4), and the offsets rotate', () => {
    // block 1: literals 'abcdefgh', one sequence: literal length 8 (code 8), offset code 3 + 3 bits 0 = value 8 =
    // offset 5, match length 3 (code 0): 'def'. Repeat offsets become 5, 1, 4.
    const b1 = [...[8 << 3, ...ascii('abcdefgh')], 1, 0x54, 8, 3, 0, ...backward([[0, 3]])];
    // block 2: no literals, offset code 1 + 1 bit 1 = value 3, literal length 0: 5 - 1 = 4, match length 3: 'hde';
    // then value 1 with literal length 0 (code 0) = Repeated_Offset2, now 5: 'def'
    const b2 = [0, 1, 0x54, 0, 1, 0, ...backward([[1, 1]])];
    const b3 = [0, 1, 0x54, 0, 0, 0, ...backward([])];
    agree(frame(block(2, b1, false), block(2, b2, false), block(2, b3, true)), ascii('abcdefgh' + 'def' + 'hde' + 'efh'), 'rep1 - 1');
  });
});

describe.skipIf(!HAVE_ZSTD)('the zstd CLI: small windows, no content size, --fast, windows over 2^27', () => {
  const input = concat(textBytes(150_000, 31), numericBytes(60_000, 32), randomBytes(20_000, 33), repetitiveBytes(90_000));
  test.each([
    [['--zstd=wlog=10']],
    [['--zstd=wlog=12,strat=1']],
    [['-19', '--zstd=wlog=15']],
    [['--zstd=wlog=17,strat=9']],
    [['--fast=1']],
    [['--fast=50', '--no-check']],
    [['-7', '--no-content-size']],
    [['-15', '--check']],
    [['-22', '--ultra', '--zstd=wlog=20']],
  ])('%j decodes like the reference', (args) => {
    const packed = runTool('zstd', [...args, '-q', '-c'], input);
    const got = ours(packed, input.length);
    expect(typeof got === 'string' ? got : same(got, input)).toBe(true);
    expect(same(reference(packed, input.length)!, input)).toBe(true);
  });
  test('--long=27 from a pipe (Window_Size 2^27) decodes; --long=28 and --long=30 (2^28, 2^30, no content size) are refused at once', () => {
    const small = textBytes(50_000, 5);
    for (const long of [27, 28, 30]) {
      const packed = runTool('zstd', [`--long=${long}`, '-q', '-c', '--no-content-size'], small);
      expect(packed[5], `window descriptor of --long=${long}`).toBe((long - 10) << 3);
      const t = performance.now();
      const got = ours(packed, small.length);
      if (long === 27) expect(typeof got === 'string' ? got : same(got, small)).toBe(true);
      else expect(got).toMatch(new RegExp(`^CODEC_CORRUPT .*window of ${2 ** long} bytes exceeds the 134217728-byte limit`));
      expect(performance.now() - t).toBeLessThan(1000);
      // the codecs readers use: the decoder-only one and the WASM-backed one (which walks the frames first)
      for (const codec of [zstdDecoder, wasmCodec]) {
        let verdict = 'ok';
        try {
          const out = new Uint8Array(small.length);
          expect(codec.decompress(packed, out)).toBe(small.length);
          expect(same(out, small)).toBe(true);
        } catch (e) {
          verdict = isParquetError(e) ? e.code : `untyped ${String(e)}`;
        }
        expect(verdict, `--long=${long}`).toBe(long === 27 ? 'ok' : 'CODEC_CORRUPT');
      }
    }
  });
  test('the WASM compressor at every level 1..22 on a small and a block-crossing input', () => {
    for (const data of [textBytes(3000, 7), concat(textBytes(140_000, 8), repetitiveBytes(10_000))]) {
      for (let level = 1; level <= 22; level++) {
        if (data.length > 100_000 && level > 12 && level % 3 !== 0) continue;
        const packed = wasmCompress(data, level);
        const got = ours(packed, data.length);
        expect(typeof got === 'string' ? got : same(got, data), `level ${level}`).toBe(true);
      }
    }
  });
});
