// Our ZSTD decoder on hand-built frames (RFC 8878, bytes written out here): raw / RLE blocks, raw / RLE / Huffman /
// treeless literals (1 and 4 streams), RLE and repeated sequence tables, the repeat-offset rules, skippable frames —
// and on hostile ones: every bound the decoder checks is CODEC_CORRUPT or CODEC_OVERRUN, the input on which fzstd
// spins (many sequences whose match lengths overflow the block) stops at once, the fuzz regression, and a fast-check
// property of random mutations of valid streams. Inputs that could hang run in a child process with a timeout.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundleChild } from '../../../tools/testing/workspace-plugin.mjs';
import { compress as wasmCompress, init as wasmInit } from '@bokuweb/zstd-wasm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CodecErrorCode, isParquetError } from '@parquetry/parquet-codecs';
import { decodeZstd } from '../src/zstd-decode.js';
import { textBytes, randomBytes, repetitiveBytes, same } from '../../parquet-codecs/test/inputs.js';
import { haveTool, runTool } from '../../parquet-codecs/test/peers.js';
import { ascii, backward, block, frame, MAGIC, rawLiterals, rleSequences } from './frame-builder.js';

await wasmInit();
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const REGRESSION = path.join(repo, 'fixtures/fuzz-regressions/codec-ZSTD/82f5d88ac10d8105.bin');

/** A forward little-endian bit writer, for FSE table descriptions. */
function forward(fields: [number, number][]): number[] {
  let v = 0n;
  let bits = 0;
  for (const [value, n] of fields) {
    v |= BigInt(value) << BigInt(bits);
    bits += n;
  }
  const out: number[] = [];
  for (let i = 0; i < Math.ceil(bits / 8); i++) out.push(Number((v >> BigInt(8 * i)) & 255n));
  return out;
}

function decode(src: Uint8Array, size: number): string {
  const out = new Uint8Array(size);
  const n = decodeZstd(src, out);
  return String.fromCharCode(...out.subarray(0, n));
}

function failure(src: Uint8Array, size: number): string {
  try {
    decodeZstd(src, new Uint8Array(size));
  } catch (e) {
    return isParquetError(e) ? `${e.code} ${e.message}` : `untyped: ${String(e)}`;
  }
  return 'no error';
}

// Direct Huffman weights (RFC 8878 section 4.2.1.1) for symbols 0..97: all 0 but 'a' (97) = 1; the implied last
// symbol 'b' (98) gets weight 1 too, so both codes are 1 bit: 'a' = 0, 'b' = 1.
const AB_TREE = [127 + 98, ...new Array<number>(48).fill(0), 0x01];

describe('hand-built frames decode to the bytes the RFC says', () => {
  test('raw and RLE blocks', () => {
    expect(decode(frame(block(0, ascii('hello'), false), block(1, [0x78], false, 10), block(0, ascii('!'), true)), 100)).toBe('helloxxxxxxxxxx!');
  });
  test('raw literals and one sequence with RLE tables (literal length 4, offset 4 = value 7, match length 10)', () => {
    // offset code 2: value 4 + 2 extra bits (3) = 7 = offset 4; match length code 7 = 10; literal length code 4 = 4
    const body = [...rawLiterals(ascii('abcdXY')), ...rleSequences(1, 4, 2, 7), ...backward([[3, 2]])];
    expect(decode(frame(block(2, body, true)), 100)).toBe('abcdabcdabcdabXY');
  });
  test('RLE literals', () => {
    const body = [(1 | (9 << 3)), 0x7a, 0];
    expect(decode(frame(block(2, body, true)), 100)).toBe('zzzzzzzzz');
  });
  test('repeat offsets: with literal length 0, offset values 1 and 2 mean the 2nd and 3rd repeat offsets (4, 8)', () => {
    const first = block(0, ascii('abcdefgh'), false);
    // three sequences, no literals, offset code 0 (value 1), match length code 1 (4): rep2 = 4, then (swapped) rep2 = 1, then 4
    const three = [...rawLiterals([]), ...rleSequences(3, 0, 0, 1), ...backward([])];
    expect(decode(frame(first, block(2, three, true)), 100)).toBe('abcdefgh' + 'efgh' + 'hhhh' + 'hhhh');
    // offset code 1 with extra bit 0 (value 2), literal length 0: the 3rd repeat offset, 8
    const rep3 = [...rawLiterals([]), ...rleSequences(1, 0, 1, 1), ...backward([[0, 1]])];
    expect(decode(frame(first, block(2, rep3, true)), 100)).toBe('abcdefgh' + 'abcd');
    // with a literal the same value 1 is the 1st repeat offset (1)
    const lit = [...rawLiterals(ascii('X')), ...rleSequences(1, 1, 0, 1), ...backward([])];
    expect(decode(frame(first, block(2, lit, true)), 100)).toBe('abcdefgh' + 'X' + 'XXXX');
    // value 3 with literal length 0 is rep1 - 1 = 0: corrupt
    const zero = [...rawLiterals([]), ...rleSequences(1, 0, 1, 1), ...backward([[1, 1]])];
    expect(failure(frame(first, block(2, zero, true)), 100)).toMatch(/^CODEC_CORRUPT .*offset 0/);
  });
  test('Huffman literals (direct weights, 1 stream), then treeless literals (4 streams) reuse the tree', () => {
    // 'abba' from the top bit down: 0 1 1 0 under the closing bit = 0b10110
    const lits1 = [...((): number[] => { const h = 2 | (4 << 4) | ((AB_TREE.length + 1) << 14); return [h & 0xff, (h >>> 8) & 0xff, h >>> 16]; })(), ...AB_TREE, 0b10110];
    // treeless, 4 streams, 8 literals: 2 each, 'ab' 'ba' 'aa' 'bb'; jump table of 3 sizes (1 byte each)
    const h2 = 3 | (1 << 2) | (8 << 4) | (10 << 14);
    const lits2 = [h2 & 0xff, (h2 >>> 8) & 0xff, h2 >>> 16, 1, 0, 1, 0, 1, 0, 0b101, 0b110, 0b100, 0b111];
    expect(decode(frame(block(2, [...lits1, 0], false), block(2, [...lits2, 0], true)), 100)).toBe('abba' + 'abbaaabb');
    // treeless literals first in a frame: no tree to repeat
    expect(failure(frame(block(2, [...lits2, 0], true)), 100)).toMatch(/^CODEC_CORRUPT .*treeless literals without an earlier Huffman table/);
    // a Huffman stream with a bit left over, and one that ends early
    const extra = [...lits1.slice(0, -1), 0b101101];
    expect(failure(frame(block(2, [...extra, 0], true)), 100)).toMatch(/^CODEC_CORRUPT .*1 bits left over/);
    const short = [...lits1.slice(0, -1), 0b1011];
    expect(failure(frame(block(2, [...short, 0], true)), 100)).toMatch(/^CODEC_CORRUPT .*Huffman stream read past its start/);
  });
  test('repeated sequence tables across blocks, and a repeat with no earlier table', () => {
    const b1 = [...rawLiterals(ascii('abcd')), ...rleSequences(1, 4, 2, 7), ...backward([[3, 2]])];
    const b2 = [...rawLiterals(ascii('WXYZ')), 1, 0xfc, ...backward([[3, 2]])];
    expect(decode(frame(block(2, b1, false), block(2, b2, true)), 100)).toBe('abcdabcdabcdab' + 'WXYZWXYZWXYZWX');
    expect(failure(frame(block(2, b2, true)), 100)).toMatch(/^CODEC_CORRUPT .*table repeated with no earlier table/);
  });
  test('skippable frames (any of the 16 magics) are skipped; one past the end is corrupt', () => {
    const skip = (m: number, n: number): number[] => [0x50 + m, 0x2a, 0x4d, 0x18, n, 0, 0, 0, ...new Array<number>(n).fill(0xee)];
    const hello = [...frame(block(0, ascii('hi'), true))];
    expect(decode(new Uint8Array([...skip(0, 3), ...hello, ...skip(15, 0), ...hello, ...skip(7, 5)]), 10)).toBe('hihi');
    expect(decode(new Uint8Array(skip(3, 2)), 0)).toBe('');
    expect(failure(new Uint8Array([...hello, ...skip(1, 4).slice(0, -1)]), 10)).toMatch(/^CODEC_CORRUPT .*skippable frame of 4 bytes runs past the end/);
  });
  test('single-segment frames with content sizes; a lying content size; a wrong checksum', () => {
    const raw = block(0, ascii('hello'), true);
    expect(decode(new Uint8Array([...MAGIC, 0x20, 5, ...raw]), 5)).toBe('hello');
    expect(failure(new Uint8Array([...MAGIC, 0x20, 6, ...raw]), 6)).toMatch(/^CODEC_CORRUPT .*declares 6 bytes but decodes to 5/);
    expect(failure(new Uint8Array([...MAGIC, 0x20, 6, ...raw]), 5)).toMatch(/^CODEC_OVERRUN/);
    // checksum flag: XXH64("hello") = 0x26c7827d889f6da3, low 32 bits little-endian
    expect(decode(new Uint8Array([...MAGIC, 0x24, 5, ...raw, 0xa3, 0x6d, 0x9f, 0x88]), 5)).toBe('hello');
    expect(failure(new Uint8Array([...MAGIC, 0x24, 5, ...raw, 0xa3, 0x6d, 0x9f, 0x89]), 5)).toMatch(/^CODEC_CORRUPT .*content checksum 0x889f6da3 differs from the frame's 0x899f6da3/);
  });
});

describe('hostile input: each bound is CODEC_CORRUPT / CODEC_OVERRUN naming frame and block', () => {
  const first = block(0, ascii('abcdefgh'), false);
  test('frame header: dictionary, reserved bit, bad magic, window over 2^27, truncations', () => {
    expect(failure(new Uint8Array([...MAGIC, 0x21, 7, 5, 0, 0, 0]), 10)).toMatch(/^CODEC_CORRUPT .*dictionaries unsupported/);
    expect(failure(new Uint8Array([...MAGIC, 0x28, 5, 1, 0, 0]), 10)).toMatch(/^CODEC_CORRUPT .*reserved bit/);
    expect(failure(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), 10)).toMatch(/^CODEC_CORRUPT .*bad magic/);
    expect(failure(new Uint8Array([...MAGIC, 0x00, 0xa8, 1, 0, 0]), 10)).toMatch(/^CODEC_CORRUPT .*window of \d+ bytes exceeds/);
    const whole = frame(block(0, ascii('hello'), true));
    for (let cut = 1; cut < whole.length; cut++) expect(failure(whole.subarray(0, cut), 10)).toMatch(/^CODEC_CORRUPT /);
  });
  test('blocks: reserved type, over 128 KiB (raw, RLE, compressed), past the output (CODEC_OVERRUN)', () => {
    expect(failure(frame([7, 0, 0]), 10)).toMatch(/^CODEC_CORRUPT .*reserved block type/);
    expect(failure(frame(block(1, [1], true, 128 * 1024 + 1)), 1 << 20)).toMatch(/^CODEC_CORRUPT .*RLE block of 131073 bytes exceeds the block maximum 131072/);
    expect(failure(frame(block(1, [1], true, 1000)), 999)).toMatch(/^CODEC_OVERRUN /);
    // RLE literals of 100000 bytes (3-byte header) with no sequences: fine; past the output: overrun
    const lits = (n: number): number[] => [1 | (3 << 2) | ((n & 15) << 4), (n >>> 4) & 0xff, n >>> 12, 0x41, 0];
    expect(decode(frame(block(2, lits(100_000), true)), 100_000)).toBe('A'.repeat(100_000));
    expect(failure(frame(block(2, lits(100_000), true)), 99_999)).toMatch(/^CODEC_OVERRUN /);
    expect(failure(frame(block(2, lits(140_000), true)), 1 << 20)).toMatch(/^CODEC_CORRUPT .*140000 literals exceed the block maximum/);
    // the frame's window (1 KiB) caps blocks too
    expect(failure(new Uint8Array([...MAGIC, 0x00, 0x00, ...block(1, [1], true, 1025)]), 2000)).toMatch(/^CODEC_CORRUPT .*exceeds the block maximum 1024/);
  });
  test('sequences: literal lengths past the literals, offsets before the frame, bitstream over- and under-read', () => {
    // literal length 5 (code 5), 2 literals
    expect(failure(frame(block(2, [...rawLiterals(ascii('ab')), ...rleSequences(1, 5, 0, 1), ...backward([])], true)), 100)).toMatch(/^CODEC_CORRUPT .*takes 5 literals, 2 left/);
    // offset code 5 (value 32 + 5 bits of 0 = offset 29) after 2 bytes
    expect(failure(frame(block(2, [...rawLiterals(ascii('ab')), ...rleSequences(1, 2, 5, 1), ...backward([[0, 5]])], true)), 100)).toMatch(/^CODEC_CORRUPT .*offset 29, only 2 bytes decoded in the frame/);
    // the same offset after 8 bytes of an earlier frame: offsets never reach into another frame
    const early = frame(block(0, ascii('abcdefghijklmnopqrstuvwxyz0123456789'), true));
    expect(failure(new Uint8Array([...early, ...frame(block(2, [...rawLiterals(ascii('ab')), ...rleSequences(1, 2, 5, 1), ...backward([[0, 5]])], true))]), 100)).toMatch(/^CODEC_CORRUPT .*offset 29, only 2 bytes decoded in the frame/);
    const good = [...rawLiterals(ascii('abcdXY')), ...rleSequences(1, 4, 2, 7)];
    expect(failure(frame(block(2, [...good, ...backward([[3, 2], [1, 1]])], true)), 100)).toMatch(/^CODEC_CORRUPT .*1 bits left over after 1 sequences/);
    expect(failure(frame(block(2, [...good, ...backward([[1, 1]])], true)), 100)).toMatch(/^CODEC_CORRUPT .*read past its start at sequence 1 of 1/);
    expect(failure(frame(block(2, [...good, 0], true)), 100)).toMatch(/^CODEC_CORRUPT .*ends with a zero byte/);
    expect(failure(frame(block(2, [...rawLiterals(ascii('ab')), 0, 5], true)), 100)).toMatch(/^CODEC_CORRUPT .*1 bytes after an empty sequences section/);
    expect(failure(frame(block(2, [...rawLiterals([]), 1, 0x57, 0, 0, 0, 1], true)), 100)).toMatch(/^CODEC_CORRUPT .*reserved bits/);
    expect(failure(frame(block(2, [...rawLiterals([]), 1, 0x54, 36, 0, 0, 1], true)), 100)).toMatch(/^CODEC_CORRUPT .*literal length RLE symbol 36 exceeds 35/);
    expect(failure(frame(block(2, [...rawLiterals([]), 1, 0x54, 0, 32, 0, 1], true)), 100)).toMatch(/^CODEC_CORRUPT .*offset RLE symbol 32 exceeds 31/);
    expect(failure(frame(block(2, [...rawLiterals([]), 1, 0x54, 0, 0, 53, 1], true)), 100)).toMatch(/^CODEC_CORRUPT .*match length RLE symbol 53 exceeds 52/);
  });
  test('FSE table descriptions: accuracy log over the limit, too many symbols, running past the block; a valid one decodes', () => {
    // offset table FSE-compressed (mode 2), literal and match length RLE: modes 01 10 01 00
    const head = [...rawLiterals(ascii('abcd')), 1, 0x64, 4];
    // accuracy log 9 (4 bits: 4) > 8
    expect(failure(frame(block(2, [...head, 0x04, 0, 0, 7, 1], true)), 100)).toMatch(/^CODEC_CORRUPT .*offset FSE accuracy log 9 exceeds 8/);
    // log 5, then probability 0 (value 1 in 5 bits) and repeat flags 3 x 11 = 34 symbols > 32
    const zeros = forward([[0, 4], [1, 5], ...new Array<[number, number]>(11).fill([3, 2]), [0, 2]]);
    expect(failure(frame(block(2, [...head, ...zeros, 7, 1], true)), 100)).toMatch(/^CODEC_CORRUPT .*offset FSE table describes more than 32 symbols/);
    // log 5: symbols 0 and 1 (offset codes 0, 1) of probability 16 each: 17 in 5 bits, then 17 + 14 = 31 in 5 bits
    const two = forward([[0, 4], [17, 5], [31, 5]]);
    expect(failure(frame(block(2, [...head, two[0]!], true)), 100)).toMatch(/^CODEC_CORRUPT .*offset FSE table description runs past its section/);
    // a valid table: state 0 of the spread table (step 23: states 0, 23, 14, 5, ... take symbol 0 first) is offset
    // code 0 (value 1 = repeat offset 1 with a literal). Match length code 0 = 3, literal length code 4.
    const ok = [...head, ...two, 0, ...backward([[0, 5]])];
    expect(decode(frame(block(2, ok, true)), 100)).toBe('abcd' + 'ddd');
  });
  test('Huffman tree descriptions: incomplete trees, weights over 11, too long', () => {
    const lits = (tree: number[], stream: number[]): number[] => {
      const h = 2 | (1 << 4) | ((tree.length + stream.length) << 14);
      return [h & 0xff, (h >>> 8) & 0xff, h >>> 16, ...tree, ...stream, 0];
    };
    // weights 2, 2, 1: 2 + 2 + 1 = 5, not completed by a power of two
    expect(failure(frame(block(2, lits([130, 0x22, 0x10], [1]), true)), 100)).toMatch(/^CODEC_CORRUPT .*do not form a complete tree/);
    // weight 12
    expect(failure(frame(block(2, lits([128, 0xc0], [1]), true)), 100)).toMatch(/^CODEC_CORRUPT .*Huffman weight 12 exceeds 11/);
    // weights 2 and (implied) 2: a complete tree without weight-1 leaves, which the reference rejects too
    expect(failure(frame(block(2, lits([128, 0x20], [1]), true)), 100)).toMatch(/^CODEC_CORRUPT .*do not form a complete tree/);
    // 98 direct weights but only 10 bytes of them
    expect(failure(frame(block(2, lits(AB_TREE.slice(0, 10), []), true)), 100)).toMatch(/^CODEC_CORRUPT .*direct Huffman weights run past/);
    // FSE-compressed weights: one symbol of probability 32 (log 5), so no state reads a bit: the weights never use
    // the stream up, and stop at 255
    const single = forward([[0, 4], [33 + 30, 6]]);
    const desc = [single.length + 2, ...single, 0x00, 0x80];
    expect(failure(frame(block(2, lits(desc, [1, 1, 1, 1]), true)), 100)).toMatch(/^CODEC_CORRUPT .*Huffman weights decode past the 255 allowed/);
    // log 7 > 6
    expect(failure(frame(block(2, lits([3, 2, 0, 0, 0x80], [1]), true)), 100)).toMatch(/^CODEC_CORRUPT .*Huffman weight FSE accuracy log 7 exceeds 6/);
  });
  test('the fzstd spin: ~98k sequences of 64 KiB matches in a tiny block stop at the second sequence, in milliseconds', () => {
    // 0x7f00 + 0xffff sequences, match length code 52 (65539 + 16 bits), offset value 1 with no literals = rep2 = 4
    const spin = [...rawLiterals([]), ...rleSequences(0x7f00 + 0xffff, 0, 0, 52), ...backward([[0, 16], [0, 16]])];
    const t = performance.now();
    expect(failure(frame(first, block(2, spin, true)), 4 << 20)).toMatch(/^CODEC_CORRUPT .*sequence 2 of 98047 expands the block past 131072 bytes/);
    // the 18-byte version: no earlier output, no bits for the match lengths
    const tiny = frame(block(2, [...rawLiterals([]), ...rleSequences(0x7f00 + 0xffff, 0, 0, 52), 1], true));
    expect(tiny.length).toBe(18);
    expect(failure(tiny, 4 << 20)).toMatch(/^CODEC_CORRUPT .*read past its start at sequence 1 of 98047/);
    expect(performance.now() - t).toBeLessThan(1000); // a loose bound: the point is that it ends (see the child test)
  });
});

describe('hostile input in a child process (a hang fails instead of freezing vitest)', () => {
  let dir: string;
  let child: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zstd-hostile-'));
    child = path.join(dir, 'child.mjs');
    await bundleChild({ entryPoints: [path.join(here, 'hostile-child.ts')] }, child);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function runChild(args: string[], timeout: number): unknown {
    const r = spawnSync(process.execPath, [child, ...args], { timeout, encoding: 'utf8', maxBuffer: 1 << 24 });
    expect(r.signal, `the child hung and was killed after ${timeout} ms`).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  }

  test('the fuzz regression (fzstd looped forever on its Huffman weights) is CODEC_CORRUPT', { timeout: 40_000 }, () => {
    const r = runChild(['file', REGRESSION], 20_000) as Record<'decoder' | 'codec', { code: string; ms: number }>;
    for (const x of [r.decoder, r.codec]) {
      expect(x.code).toMatch(/^CODEC_CORRUPT codec-zstd: corrupt ZSTD frame at byte \d+, block at byte \d+: Huffman weights decode past the 255 allowed/);
      expect(x.ms).toBeLessThan(1000);
    }
  });

  test('the fzstd spin (~98k sequences overflowing the block) is CODEC_CORRUPT', { timeout: 40_000 }, () => {
    const first = block(0, ascii('abcdefgh'), false);
    const spin = frame(first, block(2, [...rawLiterals([]), ...rleSequences(0x7f00 + 0xffff, 0, 0, 52), ...backward([[0, 16], [0, 16]])], true));
    const r = runChild(['hex', Buffer.from(spin).toString('hex'), String(4 << 20)], 20_000) as Record<'decoder' | 'codec', { code: string; ms: number }>;
    // through decodeZstd and through zstdDecoder (the codec readers use)
    for (const x of [r.decoder, r.codec]) {
      expect(x.code).toMatch(/^CODEC_CORRUPT .*expands the block past 131072 bytes/);
      expect(x.ms).toBeLessThan(1000);
    }
  });

  test('property: 20000 random mutations of valid streams decode or throw CODEC_CORRUPT / CODEC_OVERRUN, each call bounded, agreeing with the reference decoder', { timeout: 240_000 }, () => {
    const seeds: { hex: string; size: number }[] = [];
    const add = (packed: Uint8Array, size: number): void => {
      seeds.push({ hex: Buffer.from(packed).toString('hex'), size });
    };
    const inputs = [textBytes(3000, 7), randomBytes(600, 8), repetitiveBytes(5000), new Uint8Array(300), textBytes(20_000, 9), textBytes(40, 10)];
    for (const input of inputs) for (const level of [-3, 1, 3, 19]) add(wasmCompress(input, level), input.length);
    if (haveTool('zstd')) {
      for (const input of inputs) add(runTool('zstd', ['-q', '-c', '--check', '-9'], input), input.length);
      add(runTool('zstd', ['-q', '-c', '--no-content-size'], textBytes(9000, 11)), 9000);
    }
    const hand = [...frame(block(0, ascii('abcdefgh'), false), block(2, [...rawLiterals(ascii('abcdXY')), ...rleSequences(1, 4, 2, 7), ...backward([[3, 2]])], true))];
    add(new Uint8Array(hand), 24);
    const file = path.join(dir, 'seeds.json');
    fs.writeFileSync(file, JSON.stringify(seeds));
    const r = runChild(['mutate', file, '20000', '8878'], 200_000) as { runs: number; maxMs: number; decoded: number; codes: Record<string, number> };
    console.log(`codec-zstd mutation property: ${r.runs} runs, ${r.decoded} decoded, slowest call ${r.maxMs.toFixed(1)} ms, ${JSON.stringify(r.codes)}`);
    expect(r.runs).toBe(20_000);
    expect(r.codes.CODEC_CORRUPT).toBeGreaterThan(1000);
    expect(r.maxMs).toBeLessThan(2000);
  });
});

test.skipIf(!haveTool('zstd'))('sanity: a valid CLI stream decodes in process too', () => {
  const input = textBytes(5000, 3);
  const out = new Uint8Array(input.length);
  expect(decodeZstd(runTool('zstd', ['-q', '-c'], input), out)).toBe(input.length);
  expect(same(out, input)).toBe(true);
  expect(CodecErrorCode.OVERRUN).toBe('CODEC_OVERRUN');
});
