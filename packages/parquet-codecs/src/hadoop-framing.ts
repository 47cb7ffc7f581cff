/**
 * Hadoop's block framing (`BlockCompressorStream`), used by parquet-mr for the deprecated `LZ4` codec and for `LZO`:
 * a series of blocks, each `u32be uncompressed length` followed by one or more `u32be compressed length, bytes`
 * chunks that together decompress to that length.
 * Spec: https://github.com/apache/parquet-format/blob/master/Compression.md (LZ4, LZO)
 */
import { CodecErrorCode, ParquetError, isParquetError } from './errors.js';

/** Decompresses one chunk `src[sp..se)` into `out[op..oe)`, returning the new output position (throws on bad input). */
export type ChunkDecoder = (src: Uint8Array, sp: number, se: number, out: Uint8Array, op: number, oe: number) => number;

/** Compresses `src[from..to)` into `out` at `op`, returning the new output position. */
export type ChunkEncoder = (src: Uint8Array, from: number, to: number, out: Uint8Array, op: number) => number;

function be32(src: Uint8Array, p: number): number {
  return ((src[p]! << 24) | (src[p + 1]! << 16) | (src[p + 2]! << 8) | src[p + 3]!) >>> 0;
}

/**
 * Decodes a Hadoop-framed stream into `out`.
 * @param name - codec name for messages.
 * @param src - the framed stream.
 * @param out - destination (its length bounds the output).
 * @param decode - the chunk decoder.
 * @returns bytes written.
 * @throws ParquetError `CODEC_CORRUPT` when the framing does not parse, `CODEC_OVERRUN` when it declares more than `out`.
 */
export function decodeHadoopFramed(name: string, src: Uint8Array, out: Uint8Array, decode: ChunkDecoder): number {
  const n = src.length;
  let pos = 0;
  let op = 0;
  while (pos < n) {
    if (n - pos < 4) throw new ParquetError(CodecErrorCode.CORRUPT, `parquet-codecs: ${name} Hadoop block header truncated at byte ${pos}`, pos);
    const total = be32(src, pos);
    if (total > out.length - op) {
      throw new ParquetError(CodecErrorCode.OVERRUN, `parquet-codecs: ${name} Hadoop block at byte ${pos} declares ${total} bytes, only ${out.length - op} remain in the page`, pos);
    }
    pos += 4;
    const blockEnd = op + total;
    while (op < blockEnd) {
      if (n - pos < 4) throw new ParquetError(CodecErrorCode.CORRUPT, `parquet-codecs: ${name} Hadoop chunk header truncated at byte ${pos}`, pos);
      const clen = be32(src, pos);
      pos += 4;
      if (clen > n - pos) throw new ParquetError(CodecErrorCode.CORRUPT, `parquet-codecs: ${name} Hadoop chunk at byte ${pos} declares ${clen} bytes, ${n - pos} remain`, pos);
      op = decode(src, pos, pos + clen, out, op, blockEnd);
      pos += clen;
    }
  }
  return op;
}

/**
 * Encodes `src` in Hadoop's framing, one chunk per block of at most `blockSize` bytes.
 * @param src - the bytes to compress.
 * @param blockSize - uncompressed bytes per block.
 * @param bound - worst-case compressed size of one block of `m` bytes.
 * @param encode - the chunk encoder.
 * @returns the framed stream (empty for empty input).
 */
export function encodeHadoopFramed(src: Uint8Array, blockSize: number, bound: (m: number) => number, encode: ChunkEncoder): Uint8Array {
  const n = src.length;
  const blocks = Math.ceil(n / blockSize);
  const out = new Uint8Array(blocks * 8 + blocks * bound(Math.min(n, blockSize)));
  let op = 0;
  for (let from = 0; from < n; from += blockSize) {
    const to = Math.min(n, from + blockSize);
    const m = to - from;
    out[op] = m >>> 24;
    out[op + 1] = (m >>> 16) & 0xff;
    out[op + 2] = (m >>> 8) & 0xff;
    out[op + 3] = m & 0xff;
    const end = encode(src, from, to, out, op + 8);
    const clen = end - op - 8;
    out[op + 4] = clen >>> 24;
    out[op + 5] = (clen >>> 16) & 0xff;
    out[op + 6] = (clen >>> 8) & 0xff;
    out[op + 7] = clen & 0xff;
    op = end;
  }
  return out.slice(0, op);
}

/**
 * Decodes a page that should be Hadoop-framed but may be one bare stream (writers that did not frame, as arrow-rs
 * and Arrow C++ accept): the framing is tried first, then the whole page as one chunk.
 * @param name - codec name for messages (`'LZ4'`, `'LZO'`).
 * @param bare - what the unframed form is, for messages (`'one raw LZ4 block'`).
 * @param src - the page bytes.
 * @param out - destination; its length bounds the output.
 * @param decode - the chunk decoder.
 * @returns bytes written.
 * @throws ParquetError `CODEC_CORRUPT` when the page is neither, `CODEC_OVERRUN`.
 */
export function decodeHadoopFramedOrBare(name: string, bare: string, src: Uint8Array, out: Uint8Array, decode: ChunkDecoder): number {
  let framingProblem: string;
  let framingCode: string = CodecErrorCode.CORRUPT;
  try {
    const n = decodeHadoopFramed(name, src, out, decode);
    if (n === out.length) return n;
    framingProblem = `Hadoop framing yields ${n} of ${out.length} bytes`;
  } catch (e) {
    if (!isParquetError(e)) throw e;
    framingProblem = e.message;
    framingCode = e.code;
  }
  try {
    return decode(src, 0, src.length, out, 0, out.length);
  } catch (e) {
    if (!isParquetError(e)) throw e;
    const overrun = e.code === CodecErrorCode.OVERRUN || framingCode === CodecErrorCode.OVERRUN;
    throw new ParquetError(overrun ? CodecErrorCode.OVERRUN : CodecErrorCode.CORRUPT, `parquet-codecs: ${name} page is neither Hadoop-framed (${framingProblem}) nor ${bare} (${e.message})`, e.offset, { cause: e });
  }
}
