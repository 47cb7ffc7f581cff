// Test helper: run the Debian command-line codecs, and parse / build the containers they use
// (LZ4 frame format, lzop file format) so tests can reach the raw blocks inside.
import { execFileSync, spawnSync } from 'node:child_process';

/** Whether a command-line tool is installed. */
export function haveTool(name: string): boolean {
  const r = spawnSync(name, ['--version'], { stdio: 'ignore' });
  return r.error === undefined;
}

/** Runs a tool with stdin → stdout. */
export function runTool(name: string, args: string[], input: Uint8Array): Uint8Array {
  return new Uint8Array(execFileSync(name, args, { input, maxBuffer: 1 << 30 }));
}

/** One data block of an LZ4 frame. */
export interface Lz4FrameBlock {
  /** true when the block is stored uncompressed (high bit of its size) */
  stored: boolean;
  data: Uint8Array;
}

/**
 * Parses one LZ4 frame (https://github.com/lz4/lz4/blob/dev/doc/lz4_Frame_format.md) into its blocks.
 * Throws unless blocks are independent, since each must be a self-contained LZ4 block.
 */
export function parseLz4Frame(buf: Uint8Array): { blocks: Lz4FrameBlock[]; contentSize?: number } {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (dv.getUint32(0, true) !== 0x184d2204) throw new Error('not an LZ4 frame');
  const flg = buf[4]!;
  if (flg >> 6 !== 1) throw new Error('LZ4 frame version');
  if ((flg & 0x20) === 0) throw new Error('LZ4 frame has linked blocks');
  let pos = 6;
  let contentSize: number | undefined;
  if (flg & 0x08) {
    contentSize = Number(dv.getBigUint64(pos, true));
    pos += 8;
  }
  if (flg & 0x01) pos += 4;
  pos += 1; // header checksum
  const blocks: Lz4FrameBlock[] = [];
  for (;;) {
    const word = dv.getUint32(pos, true);
    pos += 4;
    if (word === 0) break;
    const size = word & 0x7fffffff;
    blocks.push({ stored: (word & 0x80000000) !== 0, data: buf.subarray(pos, pos + size) });
    pos += size;
    if (flg & 0x10) pos += 4;
  }
  return contentSize === undefined ? { blocks } : { blocks, contentSize };
}

/** Builds an LZ4 frame (independent blocks, no checksums but the required header one) from raw LZ4 blocks. */
export function buildLz4Frame(blocks: Uint8Array[], h32: (b: Uint8Array, seed: number) => number): Uint8Array {
  const flg = 0x60; // version 01, independent blocks
  const bd = 0x70; // 4 MiB max block
  const hc = (h32(new Uint8Array([flg, bd]), 0) >>> 8) & 0xff;
  const parts: number[] = [0x04, 0x22, 0x4d, 0x18, flg, bd, hc];
  const size = 7 + blocks.reduce((s, b) => s + 4 + b.length, 0) + 4;
  const out = new Uint8Array(size);
  out.set(parts);
  let pos = 7;
  const dv = new DataView(out.buffer);
  for (const b of blocks) {
    dv.setUint32(pos, b.length, true);
    out.set(b, pos + 4);
    pos += 4 + b.length;
  }
  dv.setUint32(pos, 0, true);
  return out;
}

/** One block of an lzop file. */
export interface LzopBlock {
  /** uncompressed length */
  dstLen: number;
  /** the block's bytes: LZO1X when shorter than dstLen, else stored */
  data: Uint8Array;
}

const LZOP_MAGIC = [0x89, 0x4c, 0x5a, 0x4f, 0x00, 0x0d, 0x0a, 0x1a, 0x0a];

/** Parses an lzop file (format of lzop 1.04's `lzop.c`: header, then blocks `dst_len, src_len, [checksums], data`). */
export function parseLzop(buf: Uint8Array): { method: number; blocks: LzopBlock[] } {
  for (let i = 0; i < 9; i++) if (buf[i] !== LZOP_MAGIC[i]) throw new Error('not an lzop file');
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let pos = 9;
  const version = dv.getUint16(pos);
  pos += 4; // version, lib_version
  if (version >= 0x0940) pos += 2; // version needed
  const method = buf[pos++]!;
  if (version >= 0x0940) pos += 1; // level
  const flags = dv.getUint32(pos);
  pos += 4;
  if (flags & 0x800) pos += 4; // filter
  pos += 8; // mode, mtime_low
  if (version >= 0x0940) pos += 4; // mtime_high
  pos += 1 + buf[pos]!; // name
  pos += 4; // header checksum
  if (flags & 0x40) pos += 4 + dv.getUint32(pos) + 4; // extra field
  const blocks: LzopBlock[] = [];
  for (;;) {
    const dstLen = dv.getUint32(pos);
    pos += 4;
    if (dstLen === 0) break;
    const srcLen = dv.getUint32(pos);
    pos += 4;
    if (flags & 0x001) pos += 4; // adler32 of uncompressed
    if (flags & 0x100) pos += 4; // crc32 of uncompressed
    if (srcLen < dstLen) {
      if (flags & 0x002) pos += 4; // adler32 of compressed
      if (flags & 0x200) pos += 4; // crc32 of compressed
    }
    blocks.push({ dstLen, data: buf.subarray(pos, pos + srcLen) });
    pos += srcLen;
  }
  return { method, blocks };
}

function adler32(b: Uint8Array): number {
  let a = 1;
  let s = 0;
  for (let i = 0; i < b.length; i++) {
    a = (a + b[i]!) % 65521;
    s = (s + a) % 65521;
  }
  return ((s << 16) | a) >>> 0;
}

/** Builds an lzop file (method LZO1X-1, no block checksums) from blocks; a block whose data is as long as dstLen is stored. */
export function buildLzop(blocks: LzopBlock[]): Uint8Array {
  const header: number[] = [0x10, 0x30, 0x20, 0xa0, 0x09, 0x40, 1, 5, 0, 0, 0, 0, 0, 0, 0x81, 0xa4, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  const sum = adler32(new Uint8Array(header));
  const parts: Uint8Array[] = [new Uint8Array(LZOP_MAGIC), new Uint8Array(header), be32(sum)];
  for (const b of blocks) parts.push(be32(b.dstLen), be32(b.data.length), b.data);
  parts.push(be32(0));
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function be32(v: number): Uint8Array {
  return new Uint8Array([v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff]);
}
