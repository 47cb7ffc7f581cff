/**
 * The deprecated BIT_PACKED encoding (Encodings.md, "Bit-packed (Deprecated) (BIT_PACKED = 4)"):
 * https://github.com/apache/parquet-format/blob/master/Encodings.md#bit-packed-deprecated-bit_packed--4
 *
 * Values are packed from the most significant bit of each byte to the least significant bit,
 * with no header and no padding other than the final byte; used only for levels of old files.
 *
 * @module
 */
import type { ByteWriter } from '@parquetry/thrift-compact';
import { checkRange, encodingError, truncated } from './errors.js';

const TWO_32 = 4294967296;

/**
 * Decodes `count` MSB-first bit-packed values (BIT_PACKED).
 * @param src - the encoded bytes.
 * @param pos - first byte.
 * @param end - exclusive end of the readable region.
 * @param bitWidth - value bit width, 0–32.
 * @param out - receives the values.
 * @param outPos - first index of `out` to fill.
 * @param count - number of values.
 * @returns `pos + ceil(count · bitWidth / 8)`.
 * @throws ParquetError `ENCODING_TRUNCATED` when the bytes are short, `ENCODING_BIT_WIDTH` for a width outside 0–32.
 */
export function decodeBitPacked(src: Uint8Array, pos: number, end: number, bitWidth: number, out: Int32Array, outPos: number, count: number): number {
  if (!(bitWidth >= 0 && bitWidth <= 32 && (bitWidth | 0) === bitWidth)) {
    throw encodingError('ENCODING_BIT_WIDTH', `BIT_PACKED: bit width ${bitWidth} at byte ${pos} is outside 0–32`, pos);
  }
  checkRange('BIT_PACKED', src, pos, end, out.length, outPos, count);
  const nBytes = Math.ceil((count * bitWidth) / 8);
  if (nBytes > end - pos) truncated(`BIT_PACKED: ${count} values of ${bitWidth} bits`, pos, nBytes, end);
  if (bitWidth === 0) {
    out.fill(0, outPos, outPos + count);
    return pos;
  }
  // acc holds at most bitWidth + 7 < 40 bits: exact in a double.
  let acc = 0;
  let bits = 0;
  let p = pos;
  const outEnd = outPos + count;
  for (let o = outPos; o < outEnd; o++) {
    while (bits < bitWidth) {
      acc = acc * 256 + src[p++]!;
      bits += 8;
    }
    const shift = 2 ** (bits - bitWidth);
    const v = Math.floor(acc / shift);
    acc -= v * shift;
    bits -= bitWidth;
    out[o] = v;
  }
  return pos + nBytes;
}

/**
 * Encodes values MSB-first bit-packed (BIT_PACKED), zero-padding the last byte.
 * @param values - the values (each in [0, 2^bitWidth); 32-bit values as int32 bit patterns).
 * @param start - index of the first value.
 * @param count - number of values.
 * @param bitWidth - bit width, 0–32.
 * @param w - receives the bytes.
 * @throws ParquetError `ENCODING_BIT_WIDTH` for a width outside 0–32, `ENCODING_CORRUPT` for a value that does not fit.
 */
export function encodeBitPacked(values: Int32Array, start: number, count: number, bitWidth: number, w: ByteWriter): void {
  if (!(bitWidth >= 0 && bitWidth <= 32 && (bitWidth | 0) === bitWidth)) {
    throw encodingError('ENCODING_BIT_WIDTH', `BIT_PACKED: bit width ${bitWidth} is outside 0–32`);
  }
  const nBytes = Math.ceil((count * bitWidth) / 8);
  w.ensureSpare(nBytes);
  const b = w.buf;
  let p = w.pos;
  let acc = 0;
  let bits = 0;
  for (let i = start; i < start + count; i++) {
    const raw = values[i]!;
    const v = bitWidth === 32 ? raw >>> 0 : raw;
    if (bitWidth < 32 && raw >>> bitWidth !== 0) {
      throw encodingError('ENCODING_CORRUPT', `BIT_PACKED: value ${raw} at index ${i} does not fit in ${bitWidth} bits`);
    }
    acc = acc * 2 ** bitWidth + (v < 0 ? v + TWO_32 : v);
    bits += bitWidth;
    while (bits >= 8) {
      const shift = 2 ** (bits - 8);
      const byte = Math.floor(acc / shift);
      acc -= byte * shift;
      bits -= 8;
      b[p++] = byte;
    }
  }
  if (bits > 0) b[p++] = acc * 2 ** (8 - bits);
  w.pos = p;
}
