// FSE-compressed Huffman weights (RFC 8878 section 4.2.1.2), once guarded by a pre-scan before fzstd, now decoded by
// our decoder: the fuzz regression on which fzstd looped forever is CODEC_CORRUPT at once through zstdDecoder (in a
// child process with a timeout, so a hang fails instead of freezing vitest); hand-built descriptions with 0-bit
// states; reference-encoder output at every level decodes (and really contains FSE-compressed weights).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundleChild } from '../../../tools/testing/workspace-plugin.mjs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CodecErrorCode, CompressionCodec, decompressPage, isParquetError } from '@parquetry/parquet-codecs';
import { createZstdCodec, zstdDecoder, zstdFrames, type ZstdFrame } from '@parquetry/codec-zstd';
import { textBytes, variedInputs, same } from '../../parquet-codecs/test/inputs.js';
import { HAVE_CORPUS, corpusFiles, corpusPages } from '../../parquet-codecs/test/corpus-pages.js';
import { haveTool, runTool } from '../../parquet-codecs/test/peers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const REGRESSION = path.join(repo, 'fixtures/fuzz-regressions/codec-ZSTD/82f5d88ac10d8105.bin');

/**
 * How many compressed blocks of the stream carry a Huffman tree with FSE-compressed weights (literals section type 2,
 * tree header byte < 128): a walk over the block headers only, so the tests can tell such trees were really met.
 */
function fseWeightTrees(src: Uint8Array, frames: readonly ZstdFrame[]): number {
  let n = 0;
  for (const f of frames) {
    if (f.skippable) continue;
    let pos = f.blocks;
    for (;;) {
      const h = src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16);
      const size = h >>> 3;
      if (((h >>> 1) & 3) === 2 && (src[pos + 3]! & 3) === 2) {
        const format = (src[pos + 3]! >>> 2) & 3;
        if (src[pos + 3 + (format < 2 ? 3 : format + 2)]! < 128) n++;
      }
      pos += 3 + (((h >>> 1) & 3) === 1 ? 1 : size);
      if (h & 1) break;
    }
  }
  return n;
}

/** The fuzz input: a 3-byte little-endian page size, then the page. */
function regression(): { page: Uint8Array; size: number } {
  const b = new Uint8Array(fs.readFileSync(REGRESSION));
  return { page: b.subarray(3), size: b[0]! | (b[1]! << 8) | (b[2]! << 16) };
}

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return isParquetError(e) ? e.code : `untyped: ${String(e)}`;
  }
  return undefined;
}

const frameHeader = [0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x40]; // single segment, 1-byte content size 64

/**
 * A frame with one compressed block whose literals carry an FSE-compressed Huffman description, built by hand
 * (RFC 8878): literals header "compressed, 1 stream, 10-bit sizes" (regenerated 64, compressed `tail` + 1 + ...),
 * the description's header byte, the FSE table description (accuracy log 5: a single symbol of probability 32,
 * so every state reads 0 bits), then the weight bitstream `stream`.
 */
function handFrame(table: number[], stream: number[]): Uint8Array {
  const desc = [table.length + stream.length, ...table, ...stream];
  const lcs = desc.length + 4; // a few bytes of "Huffman stream" after the description (never reached)
  // literals header, Size_Format 0 (1 stream), 10-bit regenerated and compressed sizes: 3 bytes
  const regen = 64;
  const h = 2 | (0 << 2) | ((regen & 15) << 4);
  const lit = [h, (regen >>> 4) | ((lcs & 3) << 6), lcs >>> 2];
  const body = [...lit, ...desc, 1, 1, 1, 1, 0]; // 4 stream bytes, then 0 sequences
  const size = body.length;
  const bh = 1 | (2 << 1) | (size << 3);
  return new Uint8Array([...frameHeader, bh & 0xff, (bh >>> 8) & 0xff, bh >>> 16, ...body]);
}

/**
 * The FSE table description (RFC 8878 section 4.1.1) of one symbol (weight 0) with probability 2^log, the whole
 * table: 4 bits log - 5, then the first count on log + 1 bits (threshold 2^log, remaining 2^log + 1, so the
 * "small value" limit is 2^log - 2 and the value 2^log + 1 is written as itself plus that limit).
 */
function encodeSingleSymbolTable(log: number): number[] {
  const size = 1 << log;
  const threshold = size;
  const remaining = size + 1;
  const max = 2 * threshold - 1 - remaining;
  const value = size + 1; // probability + 1
  // value ≥ max: written on nbBits = log + 1 bits as value itself if value < threshold, else value + max
  const raw = value >= threshold ? value + max : value;
  const nbBits = log + 1;
  const bits = (log - 5) | (raw << 4);
  const total = 4 + nbBits;
  const out: number[] = [];
  for (let i = 0; i < total; i += 8) out.push((bits >>> i) & 0xff);
  return out;
}

describe('FSE-compressed Huffman weights', () => {
  let dir: string;
  let child: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zstd-weights-'));
    child = path.join(dir, 'child.mjs');
    await bundleChild({
      stdin: {
        contents: `
          import fs from 'node:fs';
          import { zstdDecoder } from '@parquetry/codec-zstd';
          const b = new Uint8Array(fs.readFileSync(process.argv[2]));
          const size = b[0] | (b[1] << 8) | (b[2] << 16);
          const t = performance.now();
          let code = 'ok';
          try { zstdDecoder.decompress(b.subarray(3), new Uint8Array(size)); }
          catch (e) { code = e.name === 'ParquetError' ? e.code + ' ' + e.message : 'UNTYPED ' + String(e); }
          console.log(JSON.stringify({ code, ms: performance.now() - t }));`,
        resolveDir: here,
        loader: 'ts',
      },
    }, child);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('the fuzz regression (fzstd looped forever on it) is CODEC_CORRUPT through zstdDecoder, in a child with a 20 s timeout', { timeout: 40_000 }, () => {
    const r = spawnSync(process.execPath, [child, REGRESSION], { timeout: 20_000, encoding: 'utf8' });
    expect(r.signal, 'the child hung and was killed').toBeNull();
    expect(r.status, r.stderr).toBe(0);
    const { code } = JSON.parse(r.stdout) as { code: string };
    expect(code).toMatch(/^CODEC_CORRUPT codec-zstd: corrupt ZSTD frame at byte 0, block at byte \d+: Huffman weights decode past the 255 allowed/);
  });

  test('the regression in process: the decoder names the block; the WASM codec agrees it is corrupt', async () => {
    const { page, size } = regression();
    const frames = zstdFrames(page);
    let message = '';
    try {
      zstdDecoder.decompress(page, new Uint8Array(size));
    } catch (e) {
      expect(isParquetError(e) && e.code).toBe(CodecErrorCode.CORRUPT);
      message = (e as Error).message;
    }
    const block = Number(/block at byte (\d+)/.exec(message)?.[1]);
    expect(block).toBeGreaterThanOrEqual(frames[0]!.blocks);
    expect(block).toBeLessThan(frames[0]!.end);
    const wasm = await createZstdCodec();
    expect(codeOf(() => decompressPage({ [CompressionCodec.ZSTD]: wasm }, CompressionCodec.ZSTD, page, size))).toBe(CodecErrorCode.CORRUPT);
  });

  test('hand-built: a single-symbol weight table (0-bit states) decodes weights forever: CODEC_CORRUPT, not a hang', () => {
    for (const log of [5, 6]) {
      const table = encodeSingleSymbolTable(log);
      // a bitstream of 2 bytes: the initial states (log bits each), then nothing but 0-bit updates
      const frame = handFrame(table, [0x00, 0x80]);
      expect(codeOf(() => zstdDecoder.decompress(frame, new Uint8Array(64)))).toBe(CodecErrorCode.CORRUPT);
    }
    // accuracy log 7 is over the limit of 6 for weights
    const over = handFrame([2, 0, 0], [0x80]);
    expect(codeOf(() => zstdDecoder.decompress(over, new Uint8Array(64)))).toBe(CodecErrorCode.CORRUPT);
  });

  test.skipIf(!haveTool('zstd'))('zstd CLI output at levels 1, 3, 9, 19 and --ultra -22 decodes', () => {
    let described = 0;
    const inputs = [...variedInputs().map(([, x]) => x), textBytes(300_000, 4)];
    for (const level of ['-1', '-3', '-9', '-19', '-22']) {
      for (const input of level === '-19' || level === '-22' ? inputs.slice(0, -1) : inputs) {
        const packed = runTool('zstd', [...(level === '-22' ? ['--ultra'] : []), level, '-q', '-c'], input);
        described += fseWeightTrees(packed, zstdFrames(packed));
        const out = new Uint8Array(input.length);
        expect(zstdDecoder.decompress(packed, out)).toBe(input.length);
        expect(same(out, input)).toBe(true);
      }
    }
    expect(described).toBeGreaterThan(0); // FSE-compressed descriptions were really met
  });

  test('WASM codec output at levels 1, 3, 9, 19, 22 decodes with zstdDecoder', async () => {
    let described = 0;
    for (const level of [1, 3, 9, 19, 22]) {
      const codec = await createZstdCodec({ level });
      for (const [, input] of variedInputs()) {
        const packed = codec.compress(input);
        described += fseWeightTrees(packed, zstdFrames(packed));
        const out = new Uint8Array(input.length);
        expect(zstdDecoder.decompress(packed, out)).toBe(input.length);
        expect(same(out, input)).toBe(true);
      }
    }
    expect(described).toBeGreaterThan(0);
  });

  test('property: random data compressed by the WASM codec decodes', async () => {
    const codec = await createZstdCodec({ level: 3 });
    // skewed bytes from a small alphabet so literals are Huffman-compressed with FSE-compressed weights
    const arb = fc.record({
      alphabet: fc.uint8Array({ minLength: 1, maxLength: 256, size: 'max' }),
      picks: fc.uint8Array({ minLength: 0, maxLength: 30_000, size: 'max' }),
      skew: fc.integer({ min: 1, max: 8 }),
    });
    let described = 0;
    fc.assert(
      fc.property(arb, ({ alphabet, picks, skew }) => {
        const input = new Uint8Array(picks.length);
        for (let i = 0; i < picks.length; i++) input[i] = alphabet[Math.floor(((picks[i]! / 256) ** skew) * alphabet.length)]!;
        const packed = codec.compress(input);
        described += fseWeightTrees(packed, zstdFrames(packed));
        const out = new Uint8Array(input.length);
        expect(zstdDecoder.decompress(packed, out)).toBe(input.length);
        expect(same(out, input)).toBe(true);
      }),
      { numRuns: 150, seed: 8878 },
    );
    expect(described).toBeGreaterThan(0);
  });

  test.skipIf(!HAVE_CORPUS)('every ZSTD page of the corpus decodes; count its FSE-compressed weight trees', () => {
    const problems: string[] = [];
    let pages = 0;
    let described = 0;
    for (const file of corpusFiles()) {
      for (const p of corpusPages(file, problems)) {
        if (p.codec !== CompressionCodec.ZSTD) continue;
        described += fseWeightTrees(p.body, zstdFrames(p.body));
        expect(zstdDecoder.decompress(p.body, new Uint8Array(p.size))).toBe(p.size);
        pages++;
      }
    }
    console.log(`codec-zstd Huffman weights corpus: ${pages} ZSTD pages, ${described} FSE-compressed Huffman descriptions`);
    expect(pages).toBeGreaterThan(0);
  });
});
