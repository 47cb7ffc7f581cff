/**
 * CRC-32 (ISO-HDLC, the polynomial gzip uses), slicing by 4. RFC 1952 section 8 defines the gzip trailer's CRC32.
 * Spec: https://www.rfc-editor.org/rfc/rfc1952#section-8
 */

// 4 × 256 tables: T[k][b] is the CRC of byte b followed by k zero bytes.
const TABLES = /*#__PURE__*/ (() => {
  const t = new Int32Array(1024);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n]!;
    for (let k = 1; k < 4; k++) {
      c = t[c & 0xff]! ^ (c >>> 8);
      t[k * 256 + n] = c;
    }
  }
  return t;
})();

/**
 * CRC-32 of `src[from..to)`.
 * @param src - bytes.
 * @param from - start (default 0).
 * @param to - end (default `src.length`).
 * @returns the CRC as an unsigned 32-bit number.
 */
export function crc32(src: Uint8Array, from = 0, to = src.length): number {
  const t = TABLES;
  let c = -1;
  let i = from;
  for (const end4 = to - 3; i < end4; i += 4) {
    c ^= src[i]! | (src[i + 1]! << 8) | (src[i + 2]! << 16) | (src[i + 3]! << 24);
    c = t[768 + (c & 0xff)]! ^ t[512 + ((c >>> 8) & 0xff)]! ^ t[256 + ((c >>> 16) & 0xff)]! ^ t[c >>> 24]!;
  }
  for (; i < to; i++) c = t[(c ^ src[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
