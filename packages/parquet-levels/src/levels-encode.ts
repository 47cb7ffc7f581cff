/**
 * Level stream encoders of data pages (the inverse of levels-codec.ts's decoders), apart from them so that a reader
 * importing the decoders reaches no encoder.
 *
 * @module
 */
import { Encoding, ParquetError, type ByteWriter } from '@parquetry/thrift-compact';
import { bitWidthOf, encodeBitPacked, encodeRleHybrid } from '@parquetry/parquet-encodings';
import { checkMax } from './levels-codec.js';

/**
 * Encodes a data page V1 level stream: the 4-byte length and the RLE hybrid (or BIT_PACKED, no length).
 * Nothing is written when `maxLevel` is 0.
 *
 * @param levels - the levels.
 * @param start - first index.
 * @param count - number of levels.
 * @param maxLevel - the column's max level of this kind.
 * @param w - receives the bytes.
 * @param encoding - `Encoding.RLE` (default) or `Encoding.BIT_PACKED`.
 * @throws ParquetError `INVALID_LEVELS` for a level above `maxLevel`, `ENCODING_UNSUPPORTED` for another encoding.
 */
export function encodeLevelsV1(levels: Int32Array, start: number, count: number, maxLevel: number, w: ByteWriter, encoding: number = Encoding.RLE): void {
  if (maxLevel === 0) return;
  checkMax(levels, start, count, maxLevel, 'encoded');
  const bw = bitWidthOf(maxLevel);
  if (encoding === Encoding.BIT_PACKED) {
    encodeBitPacked(levels, start, count, bw, w);
    return;
  }
  if (encoding !== Encoding.RLE) throw new ParquetError('ENCODING_UNSUPPORTED', `parquet-levels: cannot encode levels as encoding ${encoding}`);
  w.ensureSpare(4);
  const at = w.pos;
  w.pos += 4;
  encodeRleHybrid(levels, start, count, bw, w);
  const len = w.pos - at - 4;
  const b = w.buf;
  b[at] = len;
  b[at + 1] = len >>> 8;
  b[at + 2] = len >>> 16;
  b[at + 3] = len >>> 24;
}

/**
 * Encodes a data page V2 level stream (raw RLE hybrid); nothing when `maxLevel` is 0.
 * @param levels - the levels.
 * @param start - first index.
 * @param count - number of levels.
 * @param maxLevel - the column's max level of this kind.
 * @param w - receives the bytes.
 * @returns the byte length to store in the page header.
 * @throws ParquetError `INVALID_LEVELS` for a level above `maxLevel`.
 */
export function encodeLevelsV2(levels: Int32Array, start: number, count: number, maxLevel: number, w: ByteWriter): number {
  if (maxLevel === 0) return 0;
  checkMax(levels, start, count, maxLevel, 'encoded');
  const at = w.pos;
  encodeRleHybrid(levels, start, count, bitWidthOf(maxLevel), w);
  return w.pos - at;
}
