/**
 * A pre-scan of the Huffman tree descriptions of a Zstandard stream, run before the stream is handed to fzstd.
 *
 * fzstd 0.1.1 decodes FSE-compressed Huffman weights (RFC 8878 section 4.2.1.2, header byte < 128) in a loop that
 * stops only when the weight bitstream is used up. A table whose states read 0 bits never uses it up, and fzstd
 * loops forever. The RFC allows at most 255 decoded weights (the last of the 256 is implied), so this scan decodes
 * each description exactly as a decoder does — the FSE table description (accuracy log at most 6), then the two
 * interleaved states over the backward bitstream — and stops at the 256th weight: such a description is corrupt.
 * Nothing else (literals themselves, sequences) is scanned. Cost: at most 255 weight symbols per compressed block.
 * Spec: https://www.rfc-editor.org/rfc/rfc8878#section-4.2.1
 */
import { CodecErrorCode, ParquetError } from '@parquetry/parquet-codecs';
import type { ZstdFrame } from './zstd-frames.js';

/** Most weights a Huffman tree description decodes (RFC 8878 section 4.2.1.2). */
const MAX_WEIGHTS = 255;
/** Largest accuracy log of the FSE table that compresses Huffman weights (RFC 8878 section 4.2.1.2). */
const MAX_WEIGHT_LOG = 6;

function corrupt(what: string, block: number, pos: number): ParquetError {
  return new ParquetError(
    CodecErrorCode.CORRUPT,
    `codec-zstd: corrupt ZSTD Huffman tree description in the compressed block at byte ${block}: ${what} (at byte ${pos})`,
    pos,
  );
}

/** Index of the highest set bit of `v` (v > 0). */
function highBit(v: number): number {
  return 31 - Math.clz32(v);
}

// scratch tables, reused: one decode at a time (JavaScript is single-threaded per realm)
const norm = new Int16Array(256);
const nextOf = new Uint16Array(256);
const tableSym = new Uint8Array(1 << MAX_WEIGHT_LOG);
const tableBits = new Uint8Array(1 << MAX_WEIGHT_LOG);
const tableBase = new Uint16Array(1 << MAX_WEIGHT_LOG);

/**
 * Walks one FSE-compressed Huffman weight description: `src[at]` is its header byte (< 128), the description is the
 * `hb` bytes after it. Throws when it is malformed or decodes more than 255 weights.
 * @returns the number of weights it decodes.
 */
function scanWeights(src: Uint8Array, at: number, blockEnd: number, block: number): number {
  const hb = src[at]!;
  const start = at + 1;
  const end = start + hb;
  if (hb === 0) throw corrupt('empty FSE-compressed weights', block, at);
  if (end > blockEnd) throw corrupt(`FSE-compressed weights of ${hb} bytes run past the block end ${blockEnd}`, block, at);

  // FSE table description (RFC 8878 section 4.1.1), read forward, little-endian bits
  const log = (src[start]! & 15) + 5;
  if (log > MAX_WEIGHT_LOG) throw corrupt(`weight accuracy log ${log}, at most ${MAX_WEIGHT_LOG}`, block, start);
  const size = 1 << log;
  let bit = (start << 3) + 4;
  const endBit = end << 3;
  let remaining = size + 1;
  let threshold = size;
  let nbBits = log + 1;
  let symbols = 0;
  while (remaining > 1) {
    if (symbols > 255) throw corrupt('FSE table description has more than 256 symbols', block, bit >>> 3);
    if (bit + nbBits > endBit) throw corrupt('FSE table description runs past the weights', block, bit >>> 3);
    const raw = readBits(src, bit, nbBits);
    const max = 2 * threshold - 1 - remaining;
    let count: number;
    if ((raw & (threshold - 1)) < max) {
      count = raw & (threshold - 1);
      bit += nbBits - 1;
    } else {
      count = raw;
      if (count >= threshold) count -= max;
      bit += nbBits;
    }
    count--;
    remaining -= count < 0 ? -count : count;
    norm[symbols++] = count;
    if (count === 0) {
      for (;;) {
        if (bit + 2 > endBit) throw corrupt('FSE table description runs past the weights', block, bit >>> 3);
        const repeat = readBits(src, bit, 2);
        bit += 2;
        for (let k = 0; k < repeat; k++) {
          if (symbols > 255) throw corrupt('FSE table description has more than 256 symbols', block, bit >>> 3);
          norm[symbols++] = 0;
        }
        if (repeat !== 3) break;
      }
    }
    while (remaining < threshold && threshold > 1) {
      nbBits--;
      threshold >>>= 1;
    }
  }
  if (remaining !== 1) throw corrupt(`FSE probabilities overshoot the table of ${size}`, block, bit >>> 3);
  const streamStart = (bit + 7) >>> 3;
  if (streamStart >= end) throw corrupt('no weight bitstream after the FSE table description', block, streamStart);

  // decoding table: "less than 1" symbols at the top, the others spread (RFC 8878 section 4.1.1)
  let high = size - 1;
  for (let s = 0; s < symbols; s++) {
    if (norm[s] === -1) {
      tableSym[high--] = s;
      nextOf[s] = 1;
    } else nextOf[s] = norm[s]!;
  }
  const step = (size >>> 1) + (size >>> 3) + 3;
  const mask = size - 1;
  let p = 0;
  for (let s = 0; s < symbols; s++) {
    const c = norm[s]!;
    for (let k = 0; k < c; k++) {
      tableSym[p] = s;
      do p = (p + step) & mask;
      while (p > high);
    }
  }
  if (p !== 0) throw corrupt('FSE symbols do not fill the table', block, start);
  for (let u = 0; u < size; u++) {
    const next = nextOf[tableSym[u]!]!++;
    const nb = log - highBit(next);
    tableBits[u] = nb;
    tableBase[u] = (next << nb) - size;
  }

  // the weight bitstream, read backward from the highest set bit of its last byte; two interleaved states
  const last = src[end - 1]!;
  if (last === 0) throw corrupt('weight bitstream ends with a zero byte', block, end - 1);
  const low = streamStart << 3;
  let pos = ((end - 1) << 3) + highBit(last);
  let s1 = 0;
  let s2 = 0;
  let b1 = log;
  let b2 = log;
  let weights = 0;
  for (;;) {
    pos -= b1;
    if (pos < low) break;
    s1 += readBits(src, pos, b1);
    if (++weights > MAX_WEIGHTS) break;
    pos -= b2;
    if (pos < low) break;
    s2 += readBits(src, pos, b2);
    if (++weights > MAX_WEIGHTS) break;
    b1 = tableBits[s1]!;
    s1 = tableBase[s1]!;
    b2 = tableBits[s2]!;
    s2 = tableBase[s2]!;
  }
  if (weights > MAX_WEIGHTS) throw corrupt(`weights decode past the ${MAX_WEIGHTS} allowed`, block, at);
  return weights;
}

/** `n` (≤ 8) bits of `src` from bit `bit` (little-endian); bytes past the end read as zero. */
function readBits(src: Uint8Array, bit: number, n: number): number {
  const i = bit >>> 3;
  return (((src[i] ?? 0) | ((src[i + 1] ?? 0) << 8)) >>> (bit & 7)) & ((1 << n) - 1);
}

/**
 * Checks every Huffman tree description with FSE-compressed weights in the compressed blocks of the given frames:
 * each must decode at most 255 weights (RFC 8878 section 4.2.1.2) from a well-formed FSE table (accuracy log at most
 * 6) within its block. Run before fzstd, whose weight decoder never stops on a description that breaks this.
 * @param src - the stream.
 * @param frames - its frames, from {@link zstdFrames} (block headers already checked against the input).
 * @returns the number of descriptions checked.
 * @throws ParquetError `CODEC_CORRUPT` naming the block's offset.
 */
export function zstdPrescan(src: Uint8Array, frames: readonly ZstdFrame[]): number {
  let checked = 0;
  for (const f of frames) {
    if (f.skippable) continue;
    let pos = f.blocks;
    for (;;) {
      const h = src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16);
      const type = (h >>> 1) & 3;
      const size = h >>> 3;
      const block = pos;
      pos += 3;
      if (type === 2) {
        const blockEnd = pos + size;
        const b0 = src[pos]!;
        // literals section header (RFC 8878 section 3.1.1.3.1.1): type 2 = Compressed_Literals_Block with a tree
        if ((b0 & 3) === 2) {
          const format = (b0 >>> 2) & 3;
          const header = format < 2 ? 3 : format + 2;
          const at = pos + header;
          if (at >= blockEnd) throw corrupt('literals section header runs past the block', block, pos);
          if (src[at]! < 128) {
            scanWeights(src, at, blockEnd, block);
            checked++;
          } else if (at + 1 + ((src[at]! - 127 + 1) >>> 1) > blockEnd) {
            throw corrupt('direct Huffman weights run past the block', block, at);
          }
        }
      }
      pos += type === 1 ? 1 : size;
      if (h & 1) break;
    }
  }
  return checked;
}
