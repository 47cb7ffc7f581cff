/**
 * The LZ4 block format (no frame), which parquet.thrift's `LZ4_RAW` is, and which Hadoop's LZ4 framing wraps.
 * Format: https://github.com/lz4/lz4/blob/dev/doc/lz4_Block_format.md
 *
 * A block is a series of sequences: a token byte (literal length in the high nibble, match length − 4 in the low
 * nibble, each nibble 15 continued by bytes while they are 255), the literals, a 2-byte little-endian offset and
 * the match. The last sequence has literals only; its last 5 bytes are literals and its last match starts at least
 * 12 bytes before the end.
 */
import { CodecErrorCode, ParquetError } from './errors.js';

function corrupt(what: string, pos: number): ParquetError {
  return new ParquetError(CodecErrorCode.CORRUPT, `parquet-codecs: corrupt LZ4 block, ${what} at byte ${pos}`, pos);
}

function overrun(pos: number, limit: number): ParquetError {
  return new ParquetError(CodecErrorCode.OVERRUN, `parquet-codecs: LZ4 block at byte ${pos} expands past the ${limit} bytes allowed`, pos);
}

/**
 * Decompresses one LZ4 block `src[sp..se)` into `out[op..oe)`. Matches may reach back only to `op` (blocks are
 * independent); nothing is written at or past `oe`.
 * @param src - input bytes.
 * @param sp - block start.
 * @param se - block end (the block must end exactly there, after a literals-only sequence).
 * @param out - destination.
 * @param op - where output starts.
 * @param oe - output limit.
 * @returns the output position after the block.
 * @throws ParquetError `CODEC_CORRUPT` (truncated sequence, zero or too-far offset, empty block), `CODEC_OVERRUN`.
 */
export function lz4DecompressBlock(src: Uint8Array, sp: number, se: number, out: Uint8Array, op: number, oe: number): number {
  const start = op;
  if (sp >= se) throw corrupt('empty block', sp);
  const sv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const ov = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (;;) {
    const token = src[sp++]!;
    let lit = token >>> 4;
    if (lit < 15 && op + 16 <= oe && sp + 18 <= se) {
      // Fast path for a short literal run well inside both buffers (which also rules out every error of the
      // literal part and leaves room for the match offset): 4-byte moves (a DataView load/store compiles to one
      // unaligned move); bytes past the literals are overwritten by what follows.
      ov.setUint32(op, sv.getUint32(sp));
      ov.setUint32(op + 4, sv.getUint32(sp + 4));
      if (lit > 8) {
        ov.setUint32(op + 8, sv.getUint32(sp + 8));
        ov.setUint32(op + 12, sv.getUint32(sp + 12));
      }
      sp += lit;
      op += lit;
    } else {
      if (lit === 15) {
        let b: number;
        do {
          if (sp >= se) throw corrupt('truncated literal length', sp);
          b = src[sp++]!;
          lit += b;
        } while (b === 255);
      }
      if (lit > se - sp) throw corrupt(`literal of ${lit} bytes runs past the end`, sp);
      if (lit > oe - op) throw overrun(sp, oe - start);
      if (lit < 64 && op + lit + 4 <= oe && sp + lit + 4 <= se) {
        for (let i = 0; i < lit; i += 4) ov.setUint32(op + i, sv.getUint32(sp + i));
      } else if (lit < 64) {
        for (let i = 0; i < lit; i++) out[op + i] = src[sp + i]!;
      } else {
        out.set(src.subarray(sp, sp + lit), op);
      }
      sp += lit;
      op += lit;
      if (sp === se) return op;
      if (sp + 2 > se) throw corrupt('truncated match offset', sp);
    }
    const offset = src[sp]! | (src[sp + 1]! << 8);
    sp += 2;
    if (offset === 0 || offset > op - start) throw corrupt(`match offset ${offset} at output position ${op - start}`, sp - 2);
    let ml = (token & 15) + 4;
    if (ml === 19) {
      let b: number;
      do {
        if (sp >= se) throw corrupt('truncated match length', sp);
        b = src[sp++]!;
        ml += b;
      } while (b === 255);
    }
    const from = op - offset;
    if (offset >= 4 && ml <= 16 && op + 16 <= oe) {
      // Fast path: 4-byte moves in order; with offset >= 4 each reads only final bytes, so overlapping
      // matches keep their meaning. Bytes past `ml` are overwritten later.
      ov.setUint32(op, ov.getUint32(from));
      ov.setUint32(op + 4, ov.getUint32(from + 4));
      if (ml > 8) {
        ov.setUint32(op + 8, ov.getUint32(from + 8));
        ov.setUint32(op + 12, ov.getUint32(from + 12));
      }
      op += ml;
      continue;
    }
    if (ml > oe - op) throw overrun(sp, oe - start);
    if (offset >= ml && ml > 64) {
      out.copyWithin(op, from, from + ml);
    } else if (offset >= 4 && op + ml + 4 <= oe) {
      for (let i = 0; i < ml; i += 4) ov.setUint32(op + i, ov.getUint32(from + i));
    } else {
      // Overlapping copies with offset < 4 repeat the pattern; byte by byte is what the format means.
      for (let i = 0; i < ml; i++) out[op + i] = out[from + i]!;
    }
    op += ml;
  }
}

const HASH_BITS = 16;
// Shared scratch (compression is synchronous). Stale entries are harmless: every candidate is range-checked and compared.
const table = /*#__PURE__*/ new Int32Array(1 << HASH_BITS);
const MIN_MATCH = 4;
const MF_LIMIT = 12;
const LAST_LITERALS = 5;
const MAX_OFFSET = 65535;

/**
 * The largest block {@link lz4CompressBlock} can produce for `n` input bytes.
 * @param n - input length.
 * @returns the worst-case compressed size.
 */
export function lz4CompressBound(n: number): number {
  return n + Math.floor(n / 255) + 16;
}

function emitLength(out: Uint8Array, op: number, rem: number): number {
  while (rem >= 255) {
    out[op++] = 255;
    rem -= 255;
  }
  out[op++] = rem;
  return op;
}

/**
 * Compresses `src[from..to)` into one LZ4 block at `out[op..)` (greedy hashing of 4-byte sequences).
 * @param src - input bytes.
 * @param from - start of the input range.
 * @param to - end of the input range.
 * @param out - destination with at least {@link lz4CompressBound}(to − from) bytes free at `op`.
 * @param op - where to write.
 * @returns the output position after the block.
 */
export function lz4CompressBlock(src: Uint8Array, from: number, to: number, out: Uint8Array, op: number): number {
  let anchor = from;
  const shift = 32 - HASH_BITS;
  const sv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const ov = new DataView(out.buffer, out.byteOffset, out.byteLength);
  if (to - from >= MF_LIMIT + 1) {
    const ipLimit = to - MF_LIMIT;
    const matchLimit = to - LAST_LITERALS;
    let ip = from;
    let skip = 64;
    while (ip <= ipLimit) {
      const seq = sv.getInt32(ip, true);
      const h = Math.imul(seq, -1640531535) >>> shift;
      let cand = table[h]!;
      table[h] = ip;
      if (cand >= from && cand < ip && ip - cand <= MAX_OFFSET && sv.getInt32(cand, true) === seq) {
        let s = ip + MIN_MATCH;
        let c = cand + MIN_MATCH;
        // extend four bytes at a time, then byte by byte
        while (s + 4 <= matchLimit && sv.getInt32(s) === sv.getInt32(c)) {
          s += 4;
          c += 4;
        }
        while (s < matchLimit && src[s] === src[c]) {
          s++;
          c++;
        }
        // extend backwards over literals that also match
        while (ip > anchor && cand > from && src[ip - 1] === src[cand - 1]) {
          ip--;
          cand--;
        }
        const lit = ip - anchor;
        const ml = s - ip - MIN_MATCH;
        const tokenPos = op++;
        let token: number;
        if (lit >= 15) {
          token = 15 << 4;
          op = emitLength(out, op, lit - 15);
        } else {
          token = lit << 4;
        }
        if (lit < 64 && op + lit + 4 <= out.length) {
          // 4-byte moves; bytes written past the literals are overwritten by the offset and what follows
          // (reading past `ip` stays inside `src`: a match follows)
          for (let i = 0; i < lit; i += 4) ov.setInt32(op + i, sv.getInt32(anchor + i));
        } else if (lit < 64) {
          for (let i = 0; i < lit; i++) out[op + i] = src[anchor + i]!;
        } else {
          out.set(src.subarray(anchor, ip), op);
        }
        op += lit;
        const offset = ip - cand;
        out[op++] = offset & 0xff;
        out[op++] = offset >>> 8;
        if (ml >= 15) {
          token |= 15;
          op = emitLength(out, op, ml - 15);
        } else {
          token |= ml;
        }
        out[tokenPos] = token;
        ip = s;
        anchor = s;
        skip = 64;
        if (ip - 2 >= from && ip - 2 <= ipLimit) {
          const p = ip - 2;
          table[Math.imul(sv.getInt32(p, true), -1640531535) >>> shift] = p;
        }
      } else {
        ip += skip >>> 6;
        skip++;
      }
    }
  }
  const lit = to - anchor;
  if (lit >= 15) {
    out[op++] = 15 << 4;
    op = emitLength(out, op, lit - 15);
  } else {
    out[op++] = lit << 4;
  }
  out.set(src.subarray(anchor, to), op);
  return op + lit;
}
