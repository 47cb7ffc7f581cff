/**
 * A Zstandard decoder (RFC 8878) written for Parquet pages: it decodes a whole stream straight into the caller's
 * output buffer, whose length (the page's declared uncompressed size) bounds everything. The buffer itself is the
 * window — a match may reach back to the first byte its frame produced — so no window is kept or slid.
 *
 * Hostile input cannot make it spin or write out of bounds: every loop is bounded by input bytes or by output bytes,
 * every count, size, offset and bit position is checked before use, and each failure is a `ParquetError`
 * (`CODEC_CORRUPT`, or `CODEC_OVERRUN` when the stream would produce more than the buffer holds) naming the frame and
 * block by byte offset.
 *
 * Decoding tables live in one scratch object allocated on first use and reused by every later call (bounded sizes:
 * about 150 KiB, mostly the literals buffer of one block); nothing is allocated per symbol or per sequence.
 * Spec: https://www.rfc-editor.org/rfc/rfc8878
 */
import { CodecErrorCode, ParquetError } from '@parquetry/parquet-codecs/read';
import { readFrameHeader } from './zstd-frames.js';
import { xxh64Low32 } from './xxh64.js';

/** Largest block content (RFC 8878 section 3.1.1.2.3: Block_Maximum_Size is at most 128 KiB). */
const BLOCK_MAX = 128 * 1024;
/** Largest Huffman code length (RFC 8878 section 4.2.1: Max_Number_of_Bits). */
const HUF_MAX_BITS = 11;
/** Largest accuracy log of the FSE table that compresses Huffman weights (RFC 8878 section 4.2.1.2). */
const WEIGHT_MAX_LOG = 6;
/** Accuracy log limits of the sequence tables (RFC 8878 section 3.1.1.3.2.2). */
const LL_MAX_LOG = 9;
const ML_MAX_LOG = 9;
const OF_MAX_LOG = 8;
/** Largest symbols: literal length code 35, match length code 52, offset code 31 (RFC 8878 section 3.1.1.3.2.1). */
const LL_MAX_SYMBOL = 35;
const ML_MAX_SYMBOL = 52;
const OF_MAX_SYMBOL = 31;

// Literal length codes 0..35: baseline and extra bits (RFC 8878 section 3.1.1.3.2.1.1).
const LL_BASE = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024,
  2048, 4096, 8192, 16384, 32768, 65536,
];
const LL_BITS = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
// Match length codes 0..52 (RFC 8878 section 3.1.1.3.2.1.1): codes 0..31 are lengths 3..34 without extra bits.
const ML_BASE_HIGH = [35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539];
const ML_BITS_HIGH = [1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
// Predefined distributions (RFC 8878 section 3.1.1.3.2.2), -1 = "less than 1".
const LL_DEFAULT = [4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1];
const ML_DEFAULT = [
  1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1,
];
/** Offset code N: baseline 2^N (N extra bits follow). */
const OF_BASE = /* @__PURE__ */ ((): Uint32Array => {
  const b = new Uint32Array(OF_MAX_SYMBOL + 1);
  for (let n = 0; n <= OF_MAX_SYMBOL; n++) b[n] = 2 ** n;
  return b;
})();
const OF_DEFAULT = [1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1];

const KIND_LL = 0;
const KIND_OF = 1;
const KIND_ML = 2;
const KIND_NAMES = ['literal length', 'offset', 'match length'] as const;
const KIND_MAX_LOG = [LL_MAX_LOG, OF_MAX_LOG, ML_MAX_LOG] as const;
const KIND_MAX_SYMBOL = [LL_MAX_SYMBOL, OF_MAX_SYMBOL, ML_MAX_SYMBOL] as const;

/**
 * One FSE decoding table of a sequence field, entry per state: bits to read for the next state and its baseline,
 * and the field's own extra bits and baseline (the symbol already mapped through the code tables).
 */
interface SeqTable {
  log: number;
  nb: Uint8Array;
  next: Uint16Array;
  xbits: Uint8Array;
  /** baselines: lengths up to 65539, offset values up to 2^31 */
  base: Uint32Array;
}

function seqTable(log: number): SeqTable {
  const n = 1 << log;
  return { log: 0, nb: new Uint8Array(n), next: new Uint16Array(n), xbits: new Uint8Array(n), base: new Uint32Array(n) };
}

/** Everything a decode reuses: allocated once, on the first call. */
interface Scratch {
  /** decoded literals of the current block (Huffman or RLE) */
  lits: Uint8Array;
  /** Huffman decoding table: symbol | bits << 8, indexed by the next maxBits bits */
  huf: Uint16Array;
  weights: Uint8Array;
  rankCount: Uint16Array;
  rankStart: Uint32Array;
  /** normalized counts of one FSE table description, and the per-symbol next-state counters */
  norm: Int16Array;
  nextOf: Uint16Array;
  /** spread symbols of the table being built */
  spread: Uint8Array;
  /** FSE table of Huffman weights: symbol, bits, baseline */
  wSym: Uint8Array;
  wNb: Uint8Array;
  wNext: Uint16Array;
  /** per field (LL, OF, ML): the table described in the stream, the RLE table, the predefined table */
  custom: SeqTable[];
  rle: SeqTable[];
  predefined: SeqTable[];
}

let scratch: Scratch | undefined;

/** Views of the current call's output, input and the literals buffer, for word-sized copies. */
let outView: DataView | undefined;
let srcView: DataView | undefined;
let litsView: DataView | undefined;

/** Where decoding is, for error messages. */
let frameAt = 0;
let blockAt = 0;

function corrupt(what: string, at: number = blockAt): ParquetError {
  return new ParquetError(
    CodecErrorCode.CORRUPT,
    `codec-zstd: corrupt ZSTD frame at byte ${frameAt}, block at byte ${blockAt}: ${what} (at byte ${at})`,
    at,
  );
}

function overrun(needed: number, limit: number): ParquetError {
  return new ParquetError(
    CodecErrorCode.OVERRUN,
    `codec-zstd: ZSTD frame at byte ${frameAt} expands past the ${limit} bytes allowed (block at byte ${blockAt} needs ${needed})`,
    blockAt,
  );
}

/** Index of the highest set bit of `v` (v > 0). */
function highBit(v: number): number {
  return 31 - Math.clz32(v);
}

/**
 * `n` (0..25) bits of `src` starting at bit `p` (little-endian bit order). Bytes outside `src` read as 0; callers
 * check positions against their section before using a value.
 */
function bitsAt(src: Uint8Array, p: number, n: number): number {
  const i = p >>> 3;
  return ((src[i]! | (src[i + 1]! << 8) | (src[i + 2]! << 16) | (src[i + 3]! << 24)) >>> (p & 7)) & ((1 << n) - 1);
}

/** `n` (≤ 16) bits from bit `p`, reading no byte at or past `end` (those count as 0). */
function bitsBounded(src: Uint8Array, p: number, n: number, end: number): number {
  const i = p >>> 3;
  const b0 = i < end ? src[i]! : 0;
  const b1 = i + 1 < end ? src[i + 1]! : 0;
  const b2 = i + 2 < end ? src[i + 2]! : 0;
  return ((b0 | (b1 << 8) | (b2 << 16)) >>> (p & 7)) & ((1 << n) - 1);
}

function getScratch(): Scratch {
  if (scratch !== undefined) return scratch;
  const s: Scratch = {
    lits: new Uint8Array(BLOCK_MAX + 8),
    huf: new Uint16Array(1 << HUF_MAX_BITS),
    weights: new Uint8Array(256),
    rankCount: new Uint16Array(HUF_MAX_BITS + 2),
    rankStart: new Uint32Array(HUF_MAX_BITS + 2),
    norm: new Int16Array(256),
    nextOf: new Uint16Array(256),
    spread: new Uint8Array(1 << LL_MAX_LOG),
    wSym: new Uint8Array(1 << WEIGHT_MAX_LOG),
    wNb: new Uint8Array(1 << WEIGHT_MAX_LOG),
    wNext: new Uint16Array(1 << WEIGHT_MAX_LOG),
    custom: [seqTable(LL_MAX_LOG), seqTable(OF_MAX_LOG), seqTable(ML_MAX_LOG)],
    rle: [seqTable(0), seqTable(0), seqTable(0)],
    predefined: [seqTable(6), seqTable(5), seqTable(6)],
  };
  scratch = s;
  const defaults = [LL_DEFAULT, OF_DEFAULT, ML_DEFAULT];
  const logs = [6, 5, 6];
  for (let k = 0; k < 3; k++) {
    const d = defaults[k]!;
    for (let i = 0; i < d.length; i++) s.norm[i] = d[i]!;
    spreadTable(s, logs[k]!, d.length, k);
    fillSeqTable(s, s.predefined[k]!, logs[k]!, k);
  }
  return s;
}

/**
 * Reads an FSE table description (RFC 8878 section 4.1.1) from `src[pos..end)` into `s.norm`.
 * @returns the accuracy log, the number of symbols and the position after the description, packed as
 *   `log + symbols * 2^4 + after * 2^13`.
 */
function readFseDescription(s: Scratch, src: Uint8Array, pos: number, end: number, maxLog: number, maxSymbol: number, what: string): number {
  if (pos >= end) throw corrupt(`${what} FSE table description missing`, pos);
  const log = (src[pos]! & 15) + 5;
  if (log > maxLog) throw corrupt(`${what} FSE accuracy log ${log} exceeds ${maxLog}`, pos);
  const size = 1 << log;
  const endBit = end * 8;
  let bit = pos * 8 + 4;
  let remaining = size + 1;
  let threshold = size;
  let nbBits = log + 1;
  let symbols = 0;
  const norm = s.norm;
  while (remaining > 1) {
    if (symbols > maxSymbol) throw corrupt(`${what} FSE table describes more than ${maxSymbol + 1} symbols`, bit >>> 3);
    const raw = bitsBounded(src, bit, nbBits, end);
    const max = 2 * threshold - 1 - remaining;
    let value: number;
    if ((raw & (threshold - 1)) < max) {
      value = raw & (threshold - 1);
      bit += nbBits - 1;
    } else {
      value = raw >= threshold ? raw - max : raw;
      bit += nbBits;
    }
    if (bit > endBit) throw corrupt(`${what} FSE table description runs past its section`, end);
    const count = value - 1;
    remaining -= count < 0 ? -count : count;
    norm[symbols++] = count;
    if (count === 0) {
      // repeat flags: 2 bits each, 3 = three more zeros and another flag
      for (;;) {
        if (bit + 2 > endBit) throw corrupt(`${what} FSE table description runs past its section`, end);
        const repeat = bitsBounded(src, bit, 2, end);
        bit += 2;
        if (symbols + repeat > maxSymbol + 1) throw corrupt(`${what} FSE table describes more than ${maxSymbol + 1} symbols`, bit >>> 3);
        for (let k = 0; k < repeat; k++) norm[symbols++] = 0;
        if (repeat !== 3) break;
      }
    }
    while (remaining < threshold) {
      nbBits--;
      threshold >>>= 1;
    }
  }
  if (remaining !== 1 || symbols > maxSymbol + 1) {
    throw corrupt(`${what} FSE probabilities sum to ${size + 1 - remaining}, expected ${size}`, bit >>> 3);
  }
  return log + symbols * 16 + ((bit + 7) >>> 3) * 8192;
}

/** Spreads the symbols of `s.norm` over a table of 2^log states into `s.spread` (RFC 8878 section 4.1.1). */
function spreadTable(s: Scratch, log: number, symbols: number, kind: number): number {
  const size = 1 << log;
  const mask = size - 1;
  const norm = s.norm;
  const spread = s.spread;
  const nextOf = s.nextOf;
  let high = size - 1;
  for (let v = 0; v < symbols; v++) {
    const c = norm[v]!;
    if (c === -1) {
      spread[high--] = v;
      nextOf[v] = 1;
    } else nextOf[v] = c;
  }
  const step = (size >>> 1) + (size >>> 3) + 3;
  let p = 0;
  for (let v = 0; v < symbols; v++) {
    const c = norm[v]!;
    for (let k = 0; k < c; k++) {
      spread[p] = v;
      do p = (p + step) & mask;
      while (p > high);
    }
  }
  if (p !== 0) throw corrupt(`${kind < 3 ? KIND_NAMES[kind] : 'Huffman weight'} FSE table does not fill its ${size} states`);
  return size;
}

/** Fills a sequence table from `s.spread` (states) and `s.nextOf`, mapping each symbol through its code table. */
function fillSeqTable(s: Scratch, t: SeqTable, log: number, kind: number): void {
  const size = 1 << log;
  const spread = s.spread;
  const nextOf = s.nextOf;
  for (let u = 0; u < size; u++) {
    const v = spread[u]!;
    const x = nextOf[v]!++;
    const nb = log - highBit(x);
    t.nb[u] = nb;
    t.next[u] = (x << nb) - size;
    setSymbol(t, u, v, kind);
  }
  t.log = log;
}

function setSymbol(t: SeqTable, u: number, v: number, kind: number): void {
  if (kind === KIND_LL) {
    t.xbits[u] = LL_BITS[v]!;
    t.base[u] = LL_BASE[v]!;
  } else if (kind === KIND_ML) {
    t.xbits[u] = v < 32 ? 0 : ML_BITS_HIGH[v - 32]!;
    t.base[u] = v < 32 ? v + 3 : ML_BASE_HIGH[v - 32]!;
  } else {
    t.xbits[u] = v;
    t.base[u] = OF_BASE[v]!;
  }
}

/**
 * Decodes a Huffman tree description (RFC 8878 section 4.2.1) at `src[pos]` into the decoding table `s.huf`.
 * @returns maxBits + position after the description * 16.
 */
function readHuffmanTree(s: Scratch, src: Uint8Array, pos: number, end: number): number {
  if (pos >= end) throw corrupt('Huffman tree description missing', pos);
  const hb = src[pos]!;
  const weights = s.weights;
  let count: number;
  let after: number;
  if (hb >= 128) {
    count = hb - 127;
    after = pos + 1 + ((count + 1) >>> 1);
    if (after > end) throw corrupt(`${count} direct Huffman weights run past the literals section`, pos);
    for (let i = 0; i < count; i++) {
      const b = src[pos + 1 + (i >>> 1)]!;
      weights[i] = i & 1 ? b & 15 : b >>> 4;
    }
  } else {
    after = pos + 1 + hb;
    if (hb === 0) throw corrupt('empty FSE-compressed Huffman weights', pos);
    if (after > end) throw corrupt(`FSE-compressed Huffman weights of ${hb} bytes run past the literals section`, pos);
    count = readFseWeights(s, src, pos + 1, after);
  }
  // weights → code lengths: the implied last weight completes the tree to a power of two
  let total = 0;
  const rankCount = s.rankCount;
  rankCount.fill(0);
  for (let i = 0; i < count; i++) {
    const w = weights[i]!;
    if (w > HUF_MAX_BITS) throw corrupt(`Huffman weight ${w} exceeds ${HUF_MAX_BITS}`, pos);
    if (w > 0) total += 1 << (w - 1);
    rankCount[w]!++;
  }
  if (total === 0) throw corrupt('Huffman weights are all zero', pos);
  const maxBits = highBit(total) + 1;
  if (maxBits > HUF_MAX_BITS) throw corrupt(`Huffman codes of ${maxBits} bits exceed ${HUF_MAX_BITS}`, pos);
  const rest = (1 << maxBits) - total;
  if ((rest & (rest - 1)) !== 0) throw corrupt('Huffman weights do not form a complete tree', pos);
  const lastWeight = highBit(rest) + 1;
  weights[count] = lastWeight;
  rankCount[lastWeight]!++;
  if (rankCount[1]! < 2 || rankCount[1]! & 1) throw corrupt('Huffman weights do not form a complete tree', pos);
  // canonical codes: the lowest weights take the lowest codes, in symbol order within a weight
  const rankStart = s.rankStart;
  let start = 0;
  for (let w = 1; w <= maxBits; w++) {
    rankStart[w] = start;
    start += rankCount[w]! << (w - 1);
  }
  const huf = s.huf;
  for (let v = 0; v <= count; v++) {
    const w = weights[v]!;
    if (w === 0) continue;
    const len = 1 << (w - 1);
    const entry = v | ((maxBits + 1 - w) << 8);
    const at = rankStart[w]!;
    huf.fill(entry, at, at + len);
    rankStart[w] = at + len;
  }
  return maxBits + after * 16;
}

/** FSE-compressed Huffman weights in `src[pos..end)` (RFC 8878 section 4.2.1.2) into `s.weights`; returns their count. */
function readFseWeights(s: Scratch, src: Uint8Array, pos: number, end: number): number {
  const d = readFseDescription(s, src, pos, end, WEIGHT_MAX_LOG, HUF_MAX_BITS, 'Huffman weight');
  const log = d & 15;
  const symbols = (d >>> 4) & 511;
  const streamStart = Math.floor(d / 8192);
  const size = spreadTable(s, log, symbols, 3);
  const { spread, nextOf, wSym, wNb, wNext } = s;
  for (let u = 0; u < size; u++) {
    const v = spread[u]!;
    const x = nextOf[v]!++;
    const nb = log - highBit(x);
    wSym[u] = v;
    wNb[u] = nb;
    wNext[u] = (x << nb) - size;
  }
  if (streamStart >= end) throw corrupt('no Huffman weight bitstream after its FSE table description', pos);
  const last = src[end - 1]!;
  if (last === 0) throw corrupt('Huffman weight bitstream ends with a zero byte', end - 1);
  const low = streamStart * 8;
  let p = (end - 1) * 8 + highBit(last);
  p -= log;
  if (p < low) throw corrupt('Huffman weight bitstream shorter than its initial states', pos);
  let s1 = bitsAt(src, p, log);
  p -= log;
  if (p < low) throw corrupt('Huffman weight bitstream shorter than its initial states', pos);
  let s2 = bitsAt(src, p, log);
  const weights = s.weights;
  let n = 0;
  // two interleaved states; when the stream is used up, the other state gives the last weight. At most 255 weights:
  // a table whose states read no bits would otherwise never use the stream up.
  for (;;) {
    if (n >= 254) throw corrupt('Huffman weights decode past the 255 allowed', pos);
    weights[n++] = wSym[s1]!;
    let nb = wNb[s1]!;
    p -= nb;
    if (p < low) {
      weights[n++] = wSym[s2]!;
      break;
    }
    s1 = wNext[s1]! + bitsAt(src, p, nb);
    weights[n++] = wSym[s2]!;
    nb = wNb[s2]!;
    p -= nb;
    if (p < low) {
      weights[n++] = wSym[s1]!;
      break;
    }
    s2 = wNext[s2]! + bitsAt(src, p, nb);
  }
  if (n > 255) throw corrupt('Huffman weights decode past the 255 allowed', pos);
  return n;
}

/**
 * Decodes one Huffman stream `src[start..end)` into `count` literals at `lits[at]`, consuming it exactly.
 */
function huffmanStream(s: Scratch, src: Uint8Array, start: number, end: number, at: number, count: number, maxBits: number): void {
  if (end <= start) {
    if (count === 0) return;
    throw corrupt('empty Huffman stream', start);
  }
  const last = src[end - 1]!;
  if (last === 0) throw corrupt('Huffman stream ends with a zero byte', end - 1);
  const low = start * 8;
  let p = (end - 1) * 8 + highBit(last);
  const lits = s.lits;
  const huf = s.huf;
  const mask = (1 << maxBits) - 1;
  const stop = at + count;
  let o = at;
  // fast loop: a whole code's worth of bits is available
  const fastLow = low + maxBits;
  while (o < stop && p >= fastLow) {
    const q = p - maxBits;
    const i = q >>> 3;
    const e = huf[((src[i]! | (src[i + 1]! << 8) | (src[i + 2]! << 16)) >>> (q & 7)) & mask]!;
    lits[o++] = e;
    p -= e >>> 8;
  }
  // tail: fewer than maxBits bits left, the missing low bits read as zeros
  while (o < stop) {
    const k = p - low;
    const v = k > 0 ? bitsAt(src, low, k) << (maxBits - k) : 0;
    const e = huf[v]!;
    const nb = e >>> 8;
    if (nb > k) throw corrupt('Huffman stream read past its start', start);
    lits[o++] = e;
    p -= nb;
  }
  if (p !== low) throw corrupt(`Huffman stream has ${p - low} bits left over after its ${count} literals`, start);
}

/** State kept across the blocks of a frame. */
interface FrameState {
  /** a Huffman table exists (for treeless literals) */
  huffman: boolean;
  huffmanBits: number;
  /** the current table per sequence field, undefined before the first */
  tables: (SeqTable | undefined)[];
  rep1: number;
  rep2: number;
  rep3: number;
}

/**
 * Decodes the compressed block `src[pos..end)` into `out` at `op`.
 * @returns the new output position.
 */
function compressedBlock(s: Scratch, st: FrameState, src: Uint8Array, pos: number, end: number, out: Uint8Array, op: number, frameStart: number, blockMax: number): number {
  // ---- literals section (RFC 8878 section 3.1.1.3.1)
  if (pos >= end) throw corrupt('empty compressed block', pos);
  const b0 = src[pos]!;
  const litType = b0 & 3;
  const sizeFormat = (b0 >>> 2) & 3;
  let litSrc: Uint8Array;
  let litPos: number;
  let litSize: number;
  if (litType < 2) {
    const hsize = sizeFormat === 1 ? 2 : sizeFormat === 3 ? 3 : 1;
    if (pos + hsize > end) throw corrupt('literals section header runs past the block', pos);
    if (hsize === 1) litSize = b0 >>> 3;
    else if (hsize === 2) litSize = (b0 >>> 4) | (src[pos + 1]! << 4);
    else litSize = (b0 >>> 4) | (src[pos + 1]! << 4) | (src[pos + 2]! << 12);
    if (litSize > blockMax) throw corrupt(`${litSize} literals exceed the block maximum ${blockMax}`, pos);
    pos += hsize;
    if (litType === 0) {
      if (pos + litSize > end) throw corrupt(`${litSize} raw literals run past the block`, pos);
      litSrc = src;
      litPos = pos;
      pos += litSize;
    } else {
      if (pos >= end) throw corrupt('RLE literals byte missing', pos);
      s.lits.fill(src[pos]!, 0, litSize);
      litSrc = s.lits;
      litPos = 0;
      pos += 1;
    }
  } else {
    const streams = sizeFormat === 0 ? 1 : 4;
    const hsize = sizeFormat < 2 ? 3 : sizeFormat + 2;
    if (pos + hsize > end) throw corrupt('literals section header runs past the block', pos);
    let compSize: number;
    if (hsize === 3) {
      const h = b0 | (src[pos + 1]! << 8) | (src[pos + 2]! << 16);
      litSize = (h >>> 4) & 0x3ff;
      compSize = h >>> 14;
    } else if (hsize === 4) {
      const h = (b0 | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24)) >>> 0;
      litSize = (h >>> 4) & 0x3fff;
      compSize = h >>> 18;
    } else {
      const h = (b0 | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24)) >>> 0;
      litSize = (h >>> 4) & 0x3ffff;
      compSize = (h >>> 22) | (src[pos + 4]! << 10);
    }
    if (litSize > blockMax) throw corrupt(`${litSize} literals exceed the block maximum ${blockMax}`, pos);
    pos += hsize;
    const litEnd = pos + compSize;
    if (litEnd > end) throw corrupt(`compressed literals of ${compSize} bytes run past the block`, pos);
    let maxBits: number;
    if (litType === 2) {
      const t = readHuffmanTree(s, src, pos, litEnd);
      maxBits = t & 15;
      pos = Math.floor(t / 16);
      st.huffman = true;
      st.huffmanBits = maxBits;
    } else {
      if (!st.huffman) throw corrupt('treeless literals without an earlier Huffman table in the frame', pos);
      maxBits = st.huffmanBits;
    }
    if (streams === 1) {
      huffmanStream(s, src, pos, litEnd, 0, litSize, maxBits);
    } else {
      if (pos + 6 > litEnd) throw corrupt('Huffman jump table runs past the literals', pos);
      const z1 = src[pos]! | (src[pos + 1]! << 8);
      const z2 = src[pos + 2]! | (src[pos + 3]! << 8);
      const z3 = src[pos + 4]! | (src[pos + 5]! << 8);
      const a = pos + 6;
      const b = a + z1;
      const c = b + z2;
      const d = c + z3;
      if (d > litEnd) throw corrupt('Huffman stream sizes exceed the literals section', pos);
      const seg = (litSize + 3) >>> 2;
      const lastSeg = litSize - 3 * seg;
      if (lastSeg < 0) throw corrupt(`${litSize} literals cannot be split into 4 Huffman streams`, pos);
      huffmanStream(s, src, a, b, 0, seg, maxBits);
      huffmanStream(s, src, b, c, seg, seg, maxBits);
      huffmanStream(s, src, c, d, 2 * seg, seg, maxBits);
      huffmanStream(s, src, d, litEnd, 3 * seg, lastSeg, maxBits);
    }
    litSrc = s.lits;
    litPos = 0;
    pos = litEnd;
  }
  const litStop = litPos + litSize;

  // ---- sequences section header (RFC 8878 section 3.1.1.3.2)
  const blockEnd = op + blockMax;
  const blockLimit = Math.min(out.length, blockEnd);
  if (pos >= end) throw corrupt('sequences section missing', pos);
  let nbSeq = src[pos]!;
  if (nbSeq === 0) {
    if (pos + 1 !== end) throw corrupt(`${end - pos - 1} bytes after an empty sequences section`, pos);
    return copyLiterals(litSrc, litPos, litSize, out, op, blockEnd, blockMax);
  }
  if (nbSeq < 128) pos += 1;
  else if (nbSeq < 255) {
    if (pos + 2 > end) throw corrupt('sequence count runs past the block', pos);
    nbSeq = ((nbSeq - 128) << 8) + src[pos + 1]!;
    pos += 2;
  } else {
    if (pos + 3 > end) throw corrupt('sequence count runs past the block', pos);
    nbSeq = src[pos + 1]! + (src[pos + 2]! << 8) + 0x7f00;
    pos += 3;
  }
  if (nbSeq === 0) {
    // the two-byte form can say 0 too (0x80 0x00): the section ends there as well
    if (pos !== end) throw corrupt(`${end - pos} bytes after an empty sequences section`, pos);
    return copyLiterals(litSrc, litPos, litSize, out, op, blockEnd, blockMax);
  }
  if (pos >= end) throw corrupt('symbol compression modes missing', pos);
  const modes = src[pos++]!;
  if (modes & 3) throw corrupt('reserved bits set in the symbol compression modes', pos - 1);
  for (let k = 0; k < 3; k++) {
    const mode = (modes >>> (6 - 2 * k)) & 3;
    if (mode === 0) st.tables[k] = s.predefined[k]!;
    else if (mode === 1) {
      if (pos >= end) throw corrupt(`${KIND_NAMES[k]} RLE symbol missing`, pos);
      const v = src[pos++]!;
      if (v > KIND_MAX_SYMBOL[k]!) throw corrupt(`${KIND_NAMES[k]} RLE symbol ${v} exceeds ${KIND_MAX_SYMBOL[k]}`, pos - 1);
      const t = s.rle[k]!;
      t.log = 0;
      t.nb[0] = 0;
      t.next[0] = 0;
      setSymbol(t, 0, v, k);
      st.tables[k] = t;
    } else if (mode === 2) {
      const d = readFseDescription(s, src, pos, end, KIND_MAX_LOG[k]!, KIND_MAX_SYMBOL[k]!, KIND_NAMES[k]!);
      const log = d & 15;
      const symbols = (d >>> 4) & 511;
      pos = Math.floor(d / 8192);
      spreadTable(s, log, symbols, k);
      const t = s.custom[k]!;
      fillSeqTable(s, t, log, k);
      st.tables[k] = t;
    } else if (st.tables[k] === undefined) {
      throw corrupt(`${KIND_NAMES[k]} table repeated with no earlier table in the frame`, pos);
    }
  }
  // ---- the sequences bitstream, read backward (RFC 8878 section 3.1.1.3.2.2)
  if (pos >= end) throw corrupt('sequences bitstream missing', pos);
  const lastByte = src[end - 1]!;
  if (lastByte === 0) throw corrupt('sequences bitstream ends with a zero byte', end - 1);
  // bit container: the low `bn` bits of `bc` are the next bits (most significant first); `bp` is the next byte to
  // load. Bytes before the stream load as garbage (or 0 before the input), but the bits left —
  // (bp + 1 - pos) * 8 + bn — are checked before each sequence is used, so such bits are never used.
  let bn = highBit(lastByte);
  let bc = lastByte & ((1 << bn) - 1);
  let bp = end - 2;
  const ll = st.tables[KIND_LL]!;
  const of = st.tables[KIND_OF]!;
  const ml = st.tables[KIND_ML]!;
  const llNb = ll.nb, llNext = ll.next, llX = ll.xbits, llBase = ll.base;
  const ofNb = of.nb, ofNext = of.next, ofX = of.xbits, ofBase = of.base;
  const mlNb = ml.nb, mlNext = ml.next, mlX = ml.xbits, mlBase = ml.base;
  while (bn <= 24) {
    bc = (bc << 8) | src[bp--]!;
    bn += 8;
  }
  bn -= ll.log;
  let llS = (bc >>> bn) & ((1 << ll.log) - 1);
  bn -= of.log;
  let ofS = (bc >>> bn) & ((1 << of.log) - 1);
  while (bn <= 24) {
    bc = (bc << 8) | src[bp--]!;
    bn += 8;
  }
  bn -= ml.log;
  let mlS = (bc >>> bn) & ((1 << ml.log) - 1);
  if ((bp + 1 - pos) * 8 + bn < 0) throw corrupt('sequences bitstream shorter than its initial states', pos);
  let rep1 = st.rep1;
  let rep2 = st.rep2;
  let rep3 = st.rep3;
  let lp = litPos;
  const outLen = out.length;
  const litLen4 = litSrc.length - 3;
  const outDv = outView!;
  const litDv = litSrc === src ? srcView! : litsView!;
  for (let n = 1; n <= nbSeq; n++) {
    while (bn <= 24) {
      bc = (bc << 8) | src[bp--]!;
      bn += 8;
    }
    let nb = ofX[ofS]!;
    let offset: number;
    if (nb <= 24) {
      bn -= nb;
      offset = ofBase[ofS]! + ((bc >>> bn) & ((1 << nb) - 1));
    } else {
      // more than the container holds after a refill: the high bits, then 16 more
      bn -= nb - 16;
      const high = (bc >>> bn) & ((1 << (nb - 16)) - 1);
      while (bn <= 24) {
        bc = (bc << 8) | src[bp--]!;
        bn += 8;
      }
      bn -= 16;
      offset = ofBase[ofS]! + high * 65536 + ((bc >>> bn) & 0xffff);
    }
    while (bn <= 24) {
      bc = (bc << 8) | src[bp--]!;
      bn += 8;
    }
    nb = mlX[mlS]!;
    bn -= nb;
    const matchLen = mlBase[mlS]! + ((bc >>> bn) & ((1 << nb) - 1));
    nb = llX[llS]!;
    if (bn < nb) {
      bc = (bc << 8) | src[bp--]!;
      bn += 8;
      if (bn < nb) {
        bc = (bc << 8) | src[bp--]!;
        bn += 8;
      }
    }
    bn -= nb;
    const litLen = llBase[llS]! + ((bc >>> bn) & ((1 << nb) - 1));
    if (n !== nbSeq) {
      while (bn <= 24) {
        bc = (bc << 8) | src[bp--]!;
        bn += 8;
      }
      nb = llNb[llS]!;
      bn -= nb;
      llS = llNext[llS]! + ((bc >>> bn) & ((1 << nb) - 1));
      nb = mlNb[mlS]!;
      bn -= nb;
      mlS = mlNext[mlS]! + ((bc >>> bn) & ((1 << nb) - 1));
      nb = ofNb[ofS]!;
      if (bn < nb) {
        bc = (bc << 8) | src[bp--]!;
        bn += 8;
      }
      bn -= nb;
      ofS = ofNext[ofS]! + ((bc >>> bn) & ((1 << nb) - 1));
    }
    if ((bp + 1 - pos) * 8 + bn < 0) throw corrupt(`sequences bitstream read past its start at sequence ${n} of ${nbSeq}`, pos);
    // repeat offsets (RFC 8878 section 3.1.1.5)
    if (offset > 3) {
      offset -= 3;
      rep3 = rep2;
      rep2 = rep1;
      rep1 = offset;
    } else {
      const idx = litLen === 0 ? offset : offset - 1;
      if (idx === 0) offset = rep1;
      else {
        offset = idx === 1 ? rep2 : idx === 2 ? rep3 : rep1 - 1;
        if (idx !== 1) rep3 = rep2;
        rep2 = rep1;
        rep1 = offset;
      }
    }
    // execute: literals, then the match
    if (litLen > litStop - lp) throw corrupt(`sequence ${n} of ${nbSeq} takes ${litLen} literals, ${litStop - lp} left`, pos);
    if (litLen + matchLen > blockLimit - op) {
      if (op + litLen + matchLen > blockEnd) throw corrupt(`sequence ${n} of ${nbSeq} expands the block past ${blockMax} bytes`, pos);
      throw overrun(op + litLen + matchLen, outLen);
    }
    if (litLen <= 16 && op + 16 <= outLen && lp <= litLen4 - 16) {
      // whole words, up to 16 bytes: the bytes written past the literals are output not produced yet
      let o = op;
      let l = lp;
      const stop = op + litLen;
      while (o < stop) {
        outDv.setUint32(o, litDv.getUint32(l, true), true);
        o += 4;
        l += 4;
      }
    } else if (litLen < 32) {
      for (let i = 0; i < litLen; i++) out[op + i] = litSrc[lp + i]!;
    } else out.set(litSrc.subarray(lp, lp + litLen), op);
    lp += litLen;
    op += litLen;
    if (offset > op - frameStart || offset === 0) {
      throw corrupt(`sequence ${n} of ${nbSeq} has offset ${offset}, only ${op - frameStart} bytes decoded in the frame`, pos);
    }
    const off = offset | 0;
    let from = op - off;
    const stop = op + matchLen;
    if (off >= 4 && matchLen <= 32 && stop + 3 <= outLen) {
      // whole words: an offset of 4 or more never reads a byte this copy has still to write
      do {
        outDv.setUint32(op, outDv.getUint32(from, true), true);
        op += 4;
        from += 4;
      } while (op < stop);
      op = stop;
    } else if (off >= matchLen) {
      out.copyWithin(op, from, stop);
      op = stop;
    } else if (off < 8) {
      while (op < stop) out[op++] = out[from++]!;
    } else {
      // overlapping: copy whole periods, each doubling what is available
      let chunk = off;
      while (op < stop) {
        const c = chunk < stop - op ? chunk : stop - op;
        out.copyWithin(op, from, from + c);
        op += c;
        chunk += c;
      }
    }
  }
  const leftover = (bp + 1 - pos) * 8 + bn;
  if (leftover !== 0) throw corrupt(`sequences bitstream has ${leftover} bits left over after ${nbSeq} sequences`, pos);
  st.rep1 = rep1;
  st.rep2 = rep2;
  st.rep3 = rep3;
  return copyLiterals(litSrc, lp, litStop - lp, out, op, blockEnd, blockMax);
}

function copyLiterals(lits: Uint8Array, at: number, n: number, out: Uint8Array, op: number, blockEnd: number, blockMax: number): number {
  if (op + n > blockEnd) throw corrupt(`literals expand the block past ${blockMax} bytes`);
  if (op + n > out.length) throw overrun(op + n, out.length);
  if (n < 16) for (let i = 0; i < n; i++) out[op + i] = lits[at + i]!;
  else out.set(lits.subarray(at, at + n), op);
  return op + n;
}

/** Options of `zstdDecompress`. */
export interface ZstdDecompressOptions {
  /**
   * Verify each frame's content checksum (the low 32 bits of XXH64 of its content, RFC 8878 section 3.1.1) when
   * the frame has one. Default true.
   */
  checksum?: boolean;
}

/**
 * Decodes a Zstandard stream (RFC 8878: one or more frames; skippable frames are skipped) into `out`, our own
 * decoder. Bounded on any input: `out`'s length caps the output, and every size, count, offset and bit position
 * in the stream is checked; no input makes it loop longer than its input and output sizes allow.
 * @param src - the stream.
 * @param out - destination; its length bounds the output and it serves as the window.
 * @param options - whether to verify content checksums.
 * @returns bytes written.
 * @throws ParquetError `CODEC_CORRUPT` (bad magic, reserved bits, dictionary frame, window over 2^27, a truncated or
 *   malformed section, an FSE table whose probabilities do not sum to its size, Huffman weights that are not a
 *   complete tree, a bitstream read past its start or not used up, literal or match lengths past the block, an
 *   offset before the frame's first byte, a frame decoding to other than its declared size, a wrong checksum),
 *   `CODEC_OVERRUN` (the stream produces more than `out.length` bytes).
 */
export function decodeZstd(src: Uint8Array, out: Uint8Array, options: ZstdDecompressOptions = {}): number {
  const verify = options.checksum ?? true;
  const n = src.length;
  const s = getScratch();
  outView = new DataView(out.buffer, out.byteOffset, out.byteLength);
  srcView = new DataView(src.buffer, src.byteOffset, src.byteLength);
  litsView ??= new DataView(s.lits.buffer);
  let pos = 0;
  let op = 0;
  frameAt = 0;
  blockAt = 0;
  try {
    while (pos < n) {
      frameAt = pos;
      blockAt = pos;
      if (n - pos < 4) throw corrupt('truncated frame header', pos);
      const magic = (src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24)) >>> 0;
      if ((magic & 0xfffffff0) >>> 0 === 0x184d2a50) {
        if (n - pos < 8) throw corrupt('truncated skippable frame header', pos);
        const size = (src[pos + 4]! | (src[pos + 5]! << 8) | (src[pos + 6]! << 16) | (src[pos + 7]! << 24)) >>> 0;
        if (size > n - pos - 8) throw corrupt(`skippable frame of ${size} bytes runs past the end`, pos);
        pos += 8 + size;
        continue;
      }
      if (magic !== 0xfd2fb528) throw corrupt(`bad magic 0x${magic.toString(16)}`, pos);
      pos = decodeFrame(src, pos, out, op, verify);
      op = frameEndOutput;
    }
  } finally {
    // the views must not keep the caller's buffers alive after the call
    outView = undefined;
    srcView = undefined;
  }
  return op;
}

/** Output position after the last frame decoded (a second return value of {@link decodeFrame}). */
let frameEndOutput = 0;

function decodeFrame(src: Uint8Array, start: number, out: Uint8Array, op0: number, verify: boolean): number {
  const n = src.length;
  const header = readFrameHeader(src, start);
  const windowSize = header.windowSize;
  const contentSize = header.contentSize ?? -1;
  let pos = header.blocks;
  if (contentSize > out.length - op0) {
    blockAt = start;
    throw overrun(op0 + contentSize, out.length);
  }
  const blockMax = Math.min(windowSize, BLOCK_MAX);
  const s = getScratch();
  const st: FrameState = { huffman: false, huffmanBits: 0, tables: [undefined, undefined, undefined], rep1: 1, rep2: 4, rep3: 8 };
  let op = op0;
  for (;;) {
    blockAt = pos;
    if (pos + 3 > n) throw corrupt('truncated block header', pos);
    const h = src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16);
    const type = (h >>> 1) & 3;
    const size = h >>> 3;
    pos += 3;
    if (type === 3) throw corrupt('reserved block type', blockAt);
    if (type === 2) {
      if (size > blockMax) throw corrupt(`compressed block of ${size} bytes exceeds the block maximum ${blockMax}`, blockAt);
      if (size > n - pos) throw corrupt(`block of ${size} bytes runs past the end`, blockAt);
      op = compressedBlock(s, st, src, pos, pos + size, out, op, op0, blockMax);
      pos += size;
    } else {
      if (size > blockMax) throw corrupt(`${type === 0 ? 'raw' : 'RLE'} block of ${size} bytes exceeds the block maximum ${blockMax}`, blockAt);
      if (size > out.length - op) throw overrun(op + size, out.length);
      if (type === 0) {
        if (size > n - pos) throw corrupt(`block of ${size} bytes runs past the end`, blockAt);
        out.set(src.subarray(pos, pos + size), op);
        pos += size;
      } else {
        if (pos >= n) throw corrupt('RLE block byte missing', blockAt);
        out.fill(src[pos]!, op, op + size);
        pos += 1;
      }
      op += size;
    }
    if (h & 1) break;
  }
  blockAt = pos;
  if (contentSize >= 0 && op - op0 !== contentSize) {
    throw corrupt(`frame declares ${contentSize} bytes but decodes to ${op - op0}`, start);
  }
  if (header.checksum) {
    if (pos + 4 > n) throw corrupt('truncated content checksum', pos);
    if (verify) {
      const want = (src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24)) >>> 0;
      const got = xxh64Low32(out, op0, op);
      if (got !== want) throw corrupt(`content checksum 0x${got.toString(16)} differs from the frame's 0x${want.toString(16)}`, pos);
    }
    pos += 4;
  }
  frameEndOutput = op;
  return pos;
}
