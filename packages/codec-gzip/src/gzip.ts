/**
 * The GZIP codec of parquet.thrift (`CompressionCodec.GZIP`): RFC 1952 gzip members, DEFLATE by fflate.
 * Spec: https://github.com/apache/parquet-format/blob/master/Compression.md (GZIP) and
 * https://www.rfc-editor.org/rfc/rfc1952 (member = header, DEFLATE data, CRC32, ISIZE; a stream may hold several).
 *
 * Decoding a page: when the stream's trailer says it is one member of exactly the page's size, fflate inflates
 * straight into the page buffer and the CRC32 in the trailer is checked (which also catches a stream that
 * would have expanded past the buffer, since fflate truncates silently). Otherwise — several members, or a
 * trailer that disagrees — fflate's streaming decoder runs over 16 KiB input slices, every output chunk is
 * bounds-checked before it is copied (a stream that expands past the page fails early), and each member's CRC32
 * and ISIZE are checked.
 */
import { Gunzip, gzipSync, inflateSync } from 'fflate';
import { type Codec, CodecErrorCode, CompressionCodec, ParquetError, isParquetError, crc32 } from '@parquetry/parquet-codecs/read';

/** Options of {@link createGzipCodec}. */
export interface GzipCodecOptions {
  /** DEFLATE level 0..9 used to compress (default 6, zlib's default). */
  level?: number;
}

const SLICE = 16 * 1024; // at most ~16.5 MiB of output per slice (DEFLATE expands at most 1032:1)

function corrupt(what: string, pos: number, cause?: unknown): ParquetError {
  return new ParquetError(CodecErrorCode.CORRUPT, `codec-gzip: corrupt GZIP stream, ${what} at byte ${pos}`, pos, cause === undefined ? undefined : { cause });
}

/** Position of the DEFLATE data of the member starting at `pos` (RFC 1952 section 2.3), bounds-checked. */
function memberDataStart(src: Uint8Array, pos: number): number {
  const n = src.length;
  if (n - pos < 18) throw corrupt('member shorter than a gzip header and trailer', pos);
  if (src[pos] !== 0x1f || src[pos + 1] !== 0x8b) throw corrupt('bad magic (expected 1f 8b)', pos);
  if (src[pos + 2] !== 8) throw corrupt(`compression method ${src[pos + 2]} (expected 8, DEFLATE)`, pos + 2);
  const flg = src[pos + 3]!;
  if (flg & 0xe0) throw corrupt('reserved header flags set', pos + 3);
  let p = pos + 10;
  if (flg & 4) {
    if (p + 2 > n) throw corrupt('truncated FEXTRA', p);
    p += 2 + (src[p]! | (src[p + 1]! << 8));
  }
  for (const bit of [8, 16]) {
    if (flg & bit) {
      while (p < n && src[p] !== 0) p++;
      p++;
    }
  }
  if (flg & 2) p += 2;
  if (p + 8 > n) throw corrupt('header runs past the end', pos);
  return p;
}

/**
 * Decompresses a gzip stream (one or more members) into `out`.
 * @param src - the gzip stream.
 * @param out - destination; its length bounds the output.
 * @returns bytes written.
 * @throws ParquetError `CODEC_CORRUPT` (bad header, bad DEFLATE data, CRC mismatch, truncated), `CODEC_OVERRUN`.
 */
export function gzipDecompress(src: Uint8Array, out: Uint8Array): number {
  const n = src.length;
  const dataStart = memberDataStart(src, 0);
  const isize = (src[n - 4]! | (src[n - 3]! << 8) | (src[n - 2]! << 16) | (src[n - 1]! << 24)) >>> 0;
  if (isize === out.length % 2 ** 32) {
    let res: Uint8Array | undefined;
    try {
      res = inflateSync(src.subarray(dataStart, n - 8), { out });
    } catch {
      res = undefined; // let the streaming path report the error with its position
    }
    if (res !== undefined && res.length === out.length) {
      const want = (src[n - 8]! | (src[n - 7]! << 8) | (src[n - 6]! << 16) | (src[n - 5]! << 24)) >>> 0;
      if (crc32(out) === want) return out.length;
    }
  }
  let op = 0;
  let consumed = 0;
  // Where each member starts in the input and in the output, to check every member's CRC32 and ISIZE after.
  const memberIn = [0];
  const memberOut = [0];
  const stream = new Gunzip((chunk) => {
    if (chunk.length > out.length - op) {
      throw new ParquetError(CodecErrorCode.OVERRUN, `codec-gzip: GZIP stream expands past the ${out.length} bytes allowed (input byte ~${consumed})`, consumed);
    }
    out.set(chunk, op);
    op += chunk.length;
  });
  stream.onmember = (offset) => {
    memberIn.push(offset);
    memberOut.push(op);
  };
  try {
    for (let i = 0; i < n; i += SLICE) {
      consumed = Math.min(n, i + SLICE);
      stream.push(src.subarray(i, consumed), consumed === n);
    }
  } catch (e) {
    if (isParquetError(e)) throw e;
    throw corrupt(`DEFLATE data does not decode (${(e as Error)?.message ?? String(e)})`, consumed, e);
  }
  for (let m = 0; m < memberIn.length; m++) {
    const outEnd = m + 1 < memberIn.length ? memberOut[m + 1]! : op;
    const t = (m + 1 < memberIn.length ? memberIn[m + 1]! : n) - 8;
    if (t < 0) throw corrupt('member without a trailer', memberIn[m]!);
    const want = (src[t]! | (src[t + 1]! << 8) | (src[t + 2]! << 16) | (src[t + 3]! << 24)) >>> 0;
    const size = (src[t + 4]! | (src[t + 5]! << 8) | (src[t + 6]! << 16) | (src[t + 7]! << 24)) >>> 0;
    if (size !== (outEnd - memberOut[m]!) % 2 ** 32) throw corrupt(`member ISIZE ${size}, decoded ${outEnd - memberOut[m]!} bytes`, t + 4);
    if (crc32(out, memberOut[m]!, outEnd) !== want) throw corrupt('member CRC32 mismatch', t);
  }
  return op;
}

/**
 * Creates a GZIP codec.
 * @param options - compression level.
 * @returns the codec (decompression does not depend on the options).
 * @throws ParquetError `CODEC_SIZE` when the level is not an integer 0..9.
 */
export function createGzipCodec(options: GzipCodecOptions = {}): Codec {
  const level = options.level ?? 6;
  if (!Number.isInteger(level) || level < 0 || level > 9) {
    throw new ParquetError(CodecErrorCode.SIZE, `codec-gzip: compression level ${level}, expected an integer 0..9`);
  }
  const lvl = level as 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  return {
    codec: CompressionCodec.GZIP,
    decompress: gzipDecompress,
    // MTIME 0 (RFC 1952: no time stamp): the same page compresses to the same bytes, so files are reproducible
    compress: (src) => gzipSync(src, { level: lvl, mtime: 0 }),
  };
}

/** The GZIP codec with the default level (6). */
export const gzipCodec: Codec = /*#__PURE__*/ createGzipCodec();
