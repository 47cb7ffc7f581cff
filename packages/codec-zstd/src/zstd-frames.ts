/**
 * A bounds-checked walk over the frames and blocks of a Zstandard stream (RFC 8878 sections 3.1.1 and 3.1.2),
 * done before any decoding so that sizes are known and checked before anything is allocated.
 * Spec: https://www.rfc-editor.org/rfc/rfc8878#section-3.1
 */
import { CodecErrorCode, ParquetError } from '@parquetry/parquet-codecs/read';

/** One frame of a Zstandard stream. */
export interface ZstdFrame {
  /** start of the frame in the input */
  start: number;
  /** end of the frame in the input */
  end: number;
  /** Frame_Content_Size when the header declares it */
  contentSize: number | undefined;
  /** Window_Size (what a decoder must keep) */
  windowSize: number;
  /** most bytes the blocks can produce (raw and RLE sizes exactly, compressed blocks at their maximum) */
  maxOutput: number;
  /** where the first block header starts */
  blocks: number;
  /** whether the frame ends with a content checksum */
  checksum: boolean;
  /** true for a skippable frame (no output) */
  skippable: boolean;
}

/** Largest window accepted: 2^27, the reference decoder's default limit (`ZSTD_WINDOWLOG_LIMIT_DEFAULT`). */
export const MAX_WINDOW = 1 << 27;

function corrupt(what: string, pos: number): ParquetError {
  return new ParquetError(CodecErrorCode.CORRUPT, `codec-zstd: corrupt ZSTD stream, ${what} at byte ${pos}`, pos);
}

function le(src: Uint8Array, p: number, bytes: number): number {
  let v = 0;
  for (let i = bytes - 1; i >= 0; i--) v = v * 256 + src[p + i]!;
  return v;
}

/** The fields of a data frame's header (RFC 8878 section 3.1.1.1) a decoder needs. */
export interface ZstdFrameHeader {
  /** Window_Size (for a single-segment frame, its content size) */
  windowSize: number;
  /** Frame_Content_Size when the header declares it */
  contentSize: number | undefined;
  /** whether the frame ends with a content checksum */
  checksum: boolean;
  /** where the first block header starts */
  blocks: number;
}

/**
 * Reads and checks the header of the data frame at `start` (its magic already checked): reserved bit, dictionary id
 * (must be absent or 0), content size (a safe integer), window (at most {@link MAX_WINDOW} unless the frame declares
 * a content size within it).
 * @param src - the stream.
 * @param start - where the frame's magic number starts.
 * @returns the header's fields.
 * @throws ParquetError `CODEC_CORRUPT` naming the byte.
 */
export function readFrameHeader(src: Uint8Array, start: number): ZstdFrameHeader {
  const n = src.length;
  let pos = start + 4;
  if (pos >= n) throw corrupt('truncated frame header', pos);
  const fhd = src[pos++]!;
  if (fhd & 0x08) throw corrupt('reserved bit set in the frame header descriptor', pos - 1);
  const fcsFlag = fhd >>> 6;
  const single = (fhd >>> 5) & 1;
  const dictFlag = fhd & 3;
  let windowSize = 0;
  if (!single) {
    if (pos >= n) throw corrupt('truncated window descriptor', pos);
    const wd = src[pos++]!;
    const base = 2 ** (10 + (wd >>> 3));
    windowSize = base + (base / 8) * (wd & 7);
  }
  const dictBytes = dictFlag === 3 ? 4 : dictFlag;
  const fcsBytes = fcsFlag === 0 ? single : 1 << fcsFlag;
  if (pos + dictBytes + fcsBytes > n) throw corrupt('truncated frame header', pos);
  const dictId = le(src, pos, dictBytes);
  if (dictId !== 0) throw corrupt(`frame needs dictionary ${dictId}: dictionaries unsupported (Parquet never uses them)`, pos);
  pos += dictBytes;
  let contentSize: number | undefined;
  if (fcsBytes > 0) {
    contentSize = le(src, pos, fcsBytes) + (fcsFlag === 1 ? 256 : 0);
    if (!Number.isSafeInteger(contentSize)) throw corrupt('content size beyond 2^53', pos);
  }
  pos += fcsBytes;
  if (single) windowSize = contentSize ?? 0;
  if (windowSize > MAX_WINDOW && (contentSize === undefined || contentSize > MAX_WINDOW)) {
    throw corrupt(`window of ${windowSize} bytes exceeds the ${MAX_WINDOW}-byte limit`, start);
  }
  return { windowSize, contentSize, checksum: ((fhd >>> 2) & 1) === 1, blocks: pos };
}

/**
 * Splits a Zstandard stream into frames, checking every header and block header against the input length.
 * @param src - the stream.
 * @returns the frames in order.
 * @throws ParquetError `CODEC_CORRUPT` (bad magic, reserved bits, truncated, dictionary required, window too large).
 */
export function zstdFrames(src: Uint8Array): ZstdFrame[] {
  const n = src.length;
  const frames: ZstdFrame[] = [];
  let pos = 0;
  while (pos < n) {
    if (n - pos < 8) throw corrupt('truncated frame header', pos);
    const magic = le(src, pos, 4);
    if ((magic & 0xfffffff0) >>> 0 === 0x184d2a50) {
      const size = le(src, pos + 4, 4);
      if (size > n - pos - 8) throw corrupt(`skippable frame of ${size} bytes runs past the end`, pos);
      frames.push({ start: pos, end: pos + 8 + size, contentSize: 0, windowSize: 0, maxOutput: 0, blocks: pos + 8, checksum: false, skippable: true });
      pos += 8 + size;
      continue;
    }
    if (magic !== 0xfd2fb528) throw corrupt(`bad magic 0x${magic.toString(16)}`, pos);
    const start = pos;
    const header = readFrameHeader(src, start);
    const { contentSize, windowSize, checksum } = header;
    pos = header.blocks;
    const blocks = pos;
    const blockMax = Math.min(windowSize, 128 * 1024);
    let maxOutput = 0;
    for (;;) {
      if (pos + 3 > n) throw corrupt('truncated block header', pos);
      const h = src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16);
      const last = h & 1;
      const type = (h >>> 1) & 3;
      const size = h >>> 3;
      pos += 3;
      if (type === 3) throw corrupt('reserved block type', pos - 3);
      const payload = type === 1 ? 1 : size;
      if (payload > n - pos) throw corrupt(`block of ${payload} bytes runs past the end`, pos);
      if (type === 2) {
        if (size > blockMax) throw corrupt(`compressed block of ${size} bytes exceeds the block maximum ${blockMax}`, pos - 3);
        maxOutput += blockMax;
      } else {
        if (size > blockMax && blockMax > 0) throw corrupt(`block of ${size} bytes exceeds the block maximum ${blockMax}`, pos - 3);
        maxOutput += size;
      }
      pos += payload;
      if (last) break;
    }
    if (checksum) {
      if (pos + 4 > n) throw corrupt('truncated content checksum', pos);
      pos += 4;
    }
    frames.push({ start, end: pos, contentSize, windowSize, maxOutput, blocks, checksum, skippable: false });
  }
  return frames;
}
