// Interoperability with real peers, both directions: the native `snappy` npm package (Google's C++ snappy),
// the Debian `lz4` CLI (LZ4 frames, whose independent blocks are raw LZ4 blocks) and `lzop` (LZO1X blocks).
import { describe, expect, test } from 'vitest';
import snappy from 'snappy';
import { decompressLz4 } from 'hyparquet-compressors';
import xxhash from 'xxhash-wasm';
import {
  HADOOP_BLOCK_SIZE,
  lz4CompressBlock,
  lz4CompressBound,
  lz4DecompressBlock,
  lz4HadoopCompress,
  lz4HadoopDecompress,
  lz4RawCompress,
  lz4RawDecompress,
  lzo1xCompress,
  lzo1xCompressBound,
  lzo1xDecompress,
  snappyCompress,
  snappyDecompress,
} from '@parquetry/parquet-codecs';
import { concat, variedInputs, same } from './inputs.js';
import { buildLz4Frame, buildLzop, haveTool, parseLz4Frame, parseLzop, runTool, type LzopBlock } from './peers.js';

const INPUTS = variedInputs();

describe('SNAPPY vs native snappy (npm `snappy`, Google C++)', () => {
  test.each(INPUTS)('native compresses, we decompress: %s', (_l, input) => {
    const packed = new Uint8Array(snappy.compressSync(Buffer.from(input)));
    const out = new Uint8Array(input.length);
    expect(snappyDecompress(packed, out)).toBe(input.length);
    expect(same(out, input)).toBe(true);
  });
  test.each(INPUTS)('we compress, native decompresses: %s', (_l, input) => {
    const packed = snappyCompress(input);
    const back = snappy.uncompressSync(Buffer.from(packed), { asBuffer: true }) as Buffer;
    expect(same(new Uint8Array(back), input)).toBe(true);
  });
});

const HAVE_LZ4 = haveTool('lz4');
const HAVE_LZOP = haveTool('lzop');
if (!HAVE_LZ4) console.warn('parquet-codecs: `lz4` CLI not installed (apt-get install lz4): LZ4 interop tests skipped');
if (!HAVE_LZOP) console.warn('parquet-codecs: `lzop` CLI not installed (apt-get install lzop): LZO interop tests skipped');

/** Decodes an LZ4 frame by decoding each independent block with our raw-block decoder. */
function decodeFrameBlocks(frame: Uint8Array, size: number): Uint8Array {
  const { blocks } = parseLz4Frame(frame);
  const out = new Uint8Array(size);
  let op = 0;
  for (const b of blocks) {
    if (b.stored) {
      out.set(b.data, op);
      op += b.data.length;
    } else {
      op = lz4DecompressBlock(b.data, 0, b.data.length, out, op, size);
    }
  }
  expect(op).toBe(size);
  return out;
}

describe.skipIf(!HAVE_LZ4)('LZ4 blocks vs the lz4 CLI (frame format, independent blocks)', () => {
  test.each(INPUTS)('lz4 -1 and -9 compress, we decode its blocks: %s', (_l, input) => {
    for (const level of ['-1', '-9']) {
      // -B4: 64 KiB blocks, so larger inputs exercise several blocks; --no-frame-crc keeps the frame minimal.
      const frame = runTool('lz4', ['-q', level, '-B4', '--no-frame-crc', '-c'], input);
      expect(same(decodeFrameBlocks(frame, input.length), input)).toBe(true);
    }
  });
  test('lz4 blocks are real compressed blocks (not all stored)', () => {
    const input = INPUTS.find(([l]) => l === 'text 100k')![1];
    const { blocks } = parseLz4Frame(runTool('lz4', ['-q', '-B4', '-c'], input));
    expect(blocks.some((b) => !b.stored)).toBe(true);
  });
  test.each(INPUTS)('we compress raw blocks, lz4 -d decodes the frame: %s', async (_l, input) => {
    const { h32Raw } = await xxhash();
    const blocks: Uint8Array[] = [];
    for (let from = 0; from < input.length; from += 4 << 20) blocks.push(lz4RawCompress(input.subarray(from, from + (4 << 20))));
    const frame = buildLz4Frame(blocks, (b, s) => h32Raw(b, s));
    expect(same(runTool('lz4', ['-q', '-d', '-c'], frame), input)).toBe(true);
  });
  test('Hadoop framing around lz4-CLI blocks decodes with the LZ4 codec', () => {
    const input = concat(...INPUTS.map(([, b]) => b));
    const frame = runTool('lz4', ['-q', '-B4', '-BI', '-c'], input);
    const { blocks } = parseLz4Frame(frame);
    // rebuild as Hadoop framing: per frame block, u32be uncompressed size, u32be compressed size, block
    const parts: Uint8Array[] = [];
    let from = 0;
    for (const b of blocks) {
      if (b.stored) {
        // a stored block is not an LZ4 block; re-encode it with our compressor so the framing stays all-LZ4
        const m = b.data.length;
        const blk = lz4RawCompress(b.data);
        parts.push(u32be(m), u32be(blk.length), blk);
        from += m;
        continue;
      }
      const m = Math.min(64 * 1024, input.length - from);
      parts.push(u32be(m), u32be(b.data.length), b.data);
      from += m;
    }
    const out = new Uint8Array(input.length);
    expect(lz4HadoopDecompress(concat(...parts), out)).toBe(input.length);
    expect(same(out, input)).toBe(true);
  });
  test('a raw lz4-CLI block in an LZ4 page decodes through the fallback', () => {
    const input = INPUTS.find(([l]) => l === 'text 100k')![1];
    const { blocks } = parseLz4Frame(runTool('lz4', ['-q', '-B5', '-c'], input));
    expect(blocks.length).toBe(1);
    const out = new Uint8Array(input.length);
    expect(lz4HadoopDecompress(blocks[0]!.data, out)).toBe(input.length);
    expect(same(out, input)).toBe(true);
  });
  test('writing: Hadoop blocks are HADOOP_BLOCK_SIZE and each is a block lz4 can decode', async () => {
    const { h32Raw } = await xxhash();
    const input = INPUTS.find(([l]) => l === 'repetitive 300k')![1];
    const out = new Uint8Array(lz4CompressBound(input.length));
    const end = lz4CompressBlock(input, 0, HADOOP_BLOCK_SIZE, out, 0);
    const frame = buildLz4Frame([out.subarray(0, end)], (b, s) => h32Raw(b, s));
    expect(same(runTool('lz4', ['-q', '-d', '-c'], frame), input.subarray(0, HADOOP_BLOCK_SIZE))).toBe(true);
  });
});

describe('LZ4 (Hadoop framing) vs hyparquet-compressors, a Hadoop-LZ4 reader', () => {
  test.each(INPUTS.filter(([, b]) => b.length > 0))('we compress, it decompresses: %s', (_l, input) => {
    expect(same(decompressLz4(lz4HadoopCompress(input), input.length), input)).toBe(true);
  });
});

function u32be(v: number): Uint8Array {
  return new Uint8Array([v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff]);
}

describe.skipIf(!HAVE_LZOP)('LZO1X vs lzop (LZO 2.10)', () => {
  test.each(INPUTS)('lzop -1, -3 and -9 compress, we decode its LZO1X blocks: %s', (_l, input) => {
    for (const level of ['-1', '-3', '-9']) {
      const file = runTool('lzop', [level, '-c'], input);
      const { blocks } = parseLzop(file);
      const out = new Uint8Array(input.length);
      let op = 0;
      for (const b of blocks) {
        if (b.data.length === b.dstLen) {
          out.set(b.data, op);
          op += b.dstLen;
        } else {
          op = lzo1xDecompress(b.data, 0, b.data.length, out, op, op + b.dstLen);
        }
      }
      expect(op).toBe(input.length);
      expect(same(out, input)).toBe(true);
    }
  });
  test.each(INPUTS)('we compress LZO1X blocks, lzop -d decodes: %s', (_l, input) => {
    const blocks: LzopBlock[] = [];
    let compressedBlocks = 0;
    for (let from = 0; from < input.length; from += 256 * 1024) {
      const chunk = input.subarray(from, from + 256 * 1024);
      const out = new Uint8Array(lzo1xCompressBound(chunk.length));
      const data = out.subarray(0, lzo1xCompress(chunk, 0, chunk.length, out, 0));
      if (data.length < chunk.length) {
        blocks.push({ dstLen: chunk.length, data });
        compressedBlocks++;
      } else {
        blocks.push({ dstLen: chunk.length, data: chunk }); // lzop stores incompressible blocks
      }
    }
    expect(same(runTool('lzop', ['-d', '-c'], buildLzop(blocks)), input)).toBe(true);
    if (/text|numeric|repetitive|zeros|mixed/.test(_l)) expect(compressedBlocks).toBeGreaterThan(0);
  });
});
