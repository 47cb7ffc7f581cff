/**
 * LZO: the LZO1X format inside Hadoop's block framing, as parquet-mr's `LZO` codec (hadoop-lzo `LzoCodec`) writes
 * it. Spec: https://github.com/apache/parquet-format/blob/master/Compression.md (LZO); the LZO1X instruction set is
 * documented in the Linux kernel's Documentation/staging/lzo.rst.
 *
 * Instructions (state = literals copied by the previous instruction: 0, 1..3, or 4 for "4 or more"):
 * - first byte 18..255: copy `byte − 17` literals;
 * - `0000LLLL` with state 0: literal run of `3 + L` bytes (L = 0: 15 + 255 per zero byte + next byte);
 * - `0000DDSS HHHHHHHH` with state 1..3: copy 2 bytes from distance `(H << 2) + D + 1`;
 *   with state 4: copy 3 bytes from distance `(H << 2) + D + 2049`;
 * - `0001HLLL D…DSS` (LE16): copy `2 + L` bytes from `16384 + (H << 14) + D`; distance 16384 ends the stream;
 * - `001LLLLL D…DSS` (LE16): copy `2 + L` bytes from distance `D + 1`;
 * - `01LDDDSS HHHHHHHH`: copy `3 + L` bytes, `1LLDDDSS HHHHHHHH`: copy `5 + L` bytes, from `(H << 3) + D + 1`;
 * then copy `S` literals.
 */
import { CompressionCodec } from './compression-codec.js';
import type { Codec } from './codec.js';
import { CodecErrorCode, ParquetError } from './errors.js';
import { decodeHadoopFramedOrBare, encodeHadoopFramed } from './hadoop-framing.js';
import { HADOOP_BLOCK_SIZE } from './lz4.js';

function corrupt(what: string, pos: number): ParquetError {
  return new ParquetError(CodecErrorCode.CORRUPT, `parquet-codecs: corrupt LZO1X stream, ${what} at byte ${pos}`, pos);
}

function overrun(pos: number, limit: number): ParquetError {
  return new ParquetError(CodecErrorCode.OVERRUN, `parquet-codecs: LZO1X stream at byte ${pos} expands past the ${limit} bytes allowed`, pos);
}

/**
 * Decompresses one LZO1X stream `src[sp..se)` (which must end with the end-of-stream instruction exactly at `se`)
 * into `out[op..oe)`. Matches may reach back only to `op`.
 * @param src - input bytes.
 * @param sp - stream start.
 * @param se - stream end.
 * @param out - destination.
 * @param op - where output starts.
 * @param oe - output limit.
 * @returns the output position after the stream.
 * @throws ParquetError `CODEC_CORRUPT` (truncated, bad distance, no end marker, trailing bytes), `CODEC_OVERRUN`.
 */
export function lzo1xDecompress(src: Uint8Array, sp: number, se: number, out: Uint8Array, op: number, oe: number): number {
  const start = op;
  let state = 0;
  if (sp >= se) throw corrupt('empty stream', sp);
  const sv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const ov = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let t = src[sp]!;
  if (t > 17) {
    sp++;
    t -= 17;
    if (t > se - sp) throw corrupt('truncated literals', sp);
    if (t > oe - op) throw overrun(sp, oe - start);
    for (let i = 0; i < t; i++) out[op + i] = src[sp + i]!;
    sp += t;
    op += t;
    state = t < 4 ? t : 4;
  }
  for (;;) {
    if (sp >= se) throw corrupt('stream ends without an end marker', sp);
    t = src[sp++]!;
    let len: number;
    let dist: number;
    let s: number;
    if (t < 16) {
      if (state === 0) {
        len = t;
        if (len === 0) {
          len = 15;
          while (sp < se && src[sp] === 0) {
            len += 255;
            sp++;
          }
          if (sp >= se) throw corrupt('truncated literal length', sp);
          len += src[sp++]!;
        }
        len += 3;
        if (len > se - sp) throw corrupt(`literal run of ${len} bytes runs past the end`, sp);
        if (len > oe - op) throw overrun(sp, oe - start);
        if (len < 64 && op + len + 4 <= oe && sp + len + 4 <= se) {
          for (let i = 0; i < len; i += 4) ov.setUint32(op + i, sv.getUint32(sp + i));
        } else if (len < 64) {
          for (let i = 0; i < len; i++) out[op + i] = src[sp + i]!;
        } else {
          out.set(src.subarray(sp, sp + len), op);
        }
        sp += len;
        op += len;
        state = 4;
        continue;
      }
      if (sp >= se) throw corrupt('truncated short match', sp);
      const h = src[sp++]!;
      s = t & 3;
      if (state < 4) {
        len = 2;
        dist = (h << 2) + (t >>> 2) + 1;
      } else {
        len = 3;
        dist = (h << 2) + (t >>> 2) + 2049;
      }
    } else if (t >= 64) {
      if (sp >= se) throw corrupt('truncated match', sp);
      len = t >= 128 ? 5 + ((t >>> 5) & 3) : 3 + ((t >>> 5) & 1);
      dist = (src[sp++]! << 3) + ((t >>> 2) & 7) + 1;
      s = t & 3;
    } else {
      const m3 = t >= 32;
      len = m3 ? t & 31 : t & 7;
      if (len === 0) {
        len = m3 ? 31 : 7;
        while (sp < se && src[sp] === 0) {
          len += 255;
          sp++;
        }
        if (sp >= se) throw corrupt('truncated match length', sp);
        len += src[sp++]!;
      }
      len += 2;
      if (sp + 2 > se) throw corrupt('truncated match distance', sp);
      const d = src[sp]! | (src[sp + 1]! << 8);
      sp += 2;
      s = d & 3;
      if (m3) {
        dist = (d >>> 2) + 1;
      } else {
        dist = 16384 + ((t & 8) << 11) + (d >>> 2);
        if (dist === 16384) {
          if (sp !== se) throw corrupt(`${se - sp} bytes after the end marker`, sp);
          return op;
        }
      }
    }
    if (dist > op - start) throw corrupt(`match distance ${dist} at output position ${op - start}`, sp);
    const from = op - dist;
    if (dist >= 4 && len <= 16 && op + 16 <= oe) {
      // Fast path: 4-byte moves in order (a DataView load/store compiles to one unaligned move); with distance
      // >= 4 each reads only final bytes, so overlapping matches keep their meaning. Bytes past `len` are
      // overwritten by what follows.
      ov.setUint32(op, ov.getUint32(from));
      ov.setUint32(op + 4, ov.getUint32(from + 4));
      if (len > 8) {
        ov.setUint32(op + 8, ov.getUint32(from + 8));
        ov.setUint32(op + 12, ov.getUint32(from + 12));
      }
    } else {
      if (len > oe - op) throw overrun(sp, oe - start);
      if (dist >= 4 && op + len + 4 <= oe) {
        for (let i = 0; i < len; i += 4) ov.setUint32(op + i, ov.getUint32(from + i));
      } else {
        for (let i = 0; i < len; i++) out[op + i] = out[from + i]!;
      }
    }
    op += len;
    if (s > 0) {
      if (sp + 4 <= se && op + 4 <= oe) {
        ov.setUint32(op, sv.getUint32(sp));
      } else {
        if (s > se - sp) throw corrupt('truncated trailing literals', sp);
        if (s > oe - op) throw overrun(sp, oe - start);
        for (let i = 0; i < s; i++) out[op + i] = src[sp + i]!;
      }
      sp += s;
      op += s;
    }
    state = s;
  }
}

const HASH_BITS = 14;
// Shared scratch (compression is synchronous); stale entries are range-checked and compared before use.
const table = /*#__PURE__*/ new Int32Array(1 << HASH_BITS);
const M2_MAX_DIST = 2048;
const M3_MAX_DIST = 16384;
const M4_MAX_DIST = 49151;

/**
 * The largest stream {@link lzo1xCompress} can produce for `n` input bytes.
 * @param n - input length.
 * @returns the worst-case compressed size.
 */
export function lzo1xCompressBound(n: number): number {
  return n + Math.floor(n / 16) + 64 + 3;
}

function emitRunLength(out: Uint8Array, op: number, rem: number): number {
  while (rem > 255) {
    out[op++] = 0;
    rem -= 255;
  }
  out[op++] = rem;
  return op;
}

/**
 * Compresses `src[from..to)` into one LZO1X stream at `out[op..)` (greedy, 4-byte hashing; emits only the
 * 3+-byte match forms, which every LZO1X decompressor reads).
 * @param src - input bytes.
 * @param from - input range start.
 * @param to - input range end.
 * @param out - destination with {@link lzo1xCompressBound}(to − from) bytes free at `op`.
 * @param op - where to write.
 * @returns the output position after the stream (which ends with the end-of-stream instruction).
 */
export function lzo1xCompress(src: Uint8Array, from: number, to: number, out: Uint8Array, op: number): number {
  const shift = 32 - HASH_BITS;
  const sv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  let anchor = from;
  let sPos = -1; // where the previous match keeps its 2 "literals that follow" bits; -1 before the first match
  const emitLiterals = (end: number): void => {
    const len = end - anchor;
    if (len === 0) return;
    if (sPos < 0 && len <= 238) {
      out[op++] = 17 + len;
    } else if (sPos >= 0 && len <= 3) {
      out[sPos] = out[sPos]! | len;
    } else if (len <= 18) {
      out[op++] = len - 3;
    } else {
      out[op++] = 0;
      op = emitRunLength(out, op, len - 18);
    }
    out.set(src.subarray(anchor, end), op);
    op += len;
  };
  const limit = to - 4;
  let ip = from + 1;
  let skip = 32;
  while (ip <= limit) {
    const seq = sv.getInt32(ip, true);
    const h = Math.imul(seq, 0x1e35a7bd) >>> shift;
    const cand = table[h]!;
    table[h] = ip;
    const dist = ip - cand;
    if (cand >= from && cand < ip && dist <= M4_MAX_DIST && sv.getInt32(cand, true) === seq) {
      let s = ip + 4;
      let c = cand + 4;
      // extend four bytes at a time, then byte by byte
      while (s + 4 <= to && sv.getInt32(s) === sv.getInt32(c)) {
        s += 4;
        c += 4;
      }
      while (s < to && src[s] === src[c]) {
        s++;
        c++;
      }
      emitLiterals(ip);
      const len = s - ip;
      if (dist <= M2_MAX_DIST && len <= 8) {
        const d = dist - 1;
        sPos = op;
        out[op++] = (len <= 4 ? 64 | ((len - 3) << 5) : 128 | ((len - 5) << 5)) | ((d & 7) << 2);
        out[op++] = d >>> 3;
      } else {
        let d: number;
        if (dist <= M3_MAX_DIST) {
          d = dist - 1;
          if (len - 2 <= 31) {
            out[op++] = 32 | (len - 2);
          } else {
            out[op++] = 32;
            op = emitRunLength(out, op, len - 33);
          }
        } else {
          d = dist - 16384;
          const hbit = (d >>> 14) << 3;
          d &= 0x3fff;
          if (len - 2 <= 7) {
            out[op++] = 16 | hbit | (len - 2);
          } else {
            out[op++] = 16 | hbit;
            op = emitRunLength(out, op, len - 9);
          }
        }
        sPos = op;
        out[op++] = (d << 2) & 0xff;
        out[op++] = d >>> 6;
      }
      ip = s;
      anchor = s;
      skip = 32;
    } else {
      // Incompressible input: step further the longer no match is found.
      ip += skip >>> 5;
      skip++;
    }
  }
  emitLiterals(to);
  out[op++] = 0x11;
  out[op++] = 0;
  out[op++] = 0;
  return op;
}

/**
 * Decompresses an LZO page: Hadoop-framed LZO1X, or (when the framing does not parse) one bare LZO1X stream.
 * @param src - the page bytes.
 * @param out - destination; its length bounds the output.
 * @returns bytes written.
 * @throws ParquetError `CODEC_CORRUPT` when the page is neither, `CODEC_OVERRUN`.
 */
export function lzoDecompress(src: Uint8Array, out: Uint8Array): number {
  return decodeHadoopFramedOrBare('LZO', 'one LZO1X stream', src, out, lzo1xDecompress);
}

/**
 * Compresses `src` as Hadoop-framed LZO1X (blocks of {@link HADOOP_BLOCK_SIZE} bytes), as hadoop-lzo's `LzoCodec` does.
 * @param src - bytes to compress.
 * @returns the framed stream.
 */
export function lzoCompress(src: Uint8Array): Uint8Array {
  return encodeHadoopFramed(src, HADOOP_BLOCK_SIZE, lzo1xCompressBound, lzo1xCompress);
}

/** The LZO codec (pure TypeScript LZO1X, both directions, in Hadoop framing). */
export const lzoCodec: Codec = {
  codec: CompressionCodec.LZO,
  decompress: lzoDecompress,
  compress: lzoCompress,
};
