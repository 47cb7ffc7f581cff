/**
 * CRC-32 (ISO-HDLC: polynomial 0xEDB88320 reflected — the zlib/gzip checksum, RFC 1952 section 8), which gzip
 * trailers and Parquet page headers (`PageHeader.crc`, over the page bytes as stored) both use.
 * Slicing-by-8: eight table lookups per 8 input bytes.
 *
 * @module
 */

/** 8 × 256 tables: `T[k * 256 + b]` is the CRC of byte b followed by k zero bytes. */
const TABLES = /*#__PURE__*/ (() => {
  const t = new Int32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n]!;
    for (let k = 1; k < 8; k++) {
      c = t[c & 0xff]! ^ (c >>> 8);
      t[k * 256 + n] = c;
    }
  }
  return t;
})();

/**
 * Computes the CRC-32 of `src[from..to)`.
 * @param src - input bytes.
 * @param from - first byte (default 0).
 * @param to - end, exclusive (default `src.length`).
 * @returns the checksum as an unsigned 32-bit number (`| 0` gives parquet.thrift's signed `i32 crc`).
 */
export function crc32(src: Uint8Array, from = 0, to = src.length): number {
  const t = TABLES;
  let c = -1;
  let i = from;
  for (const end8 = to - 7; i < end8; i += 8) {
    const a = c ^ (src[i]! | (src[i + 1]! << 8) | (src[i + 2]! << 16) | (src[i + 3]! << 24));
    c =
      t[1792 + (a & 0xff)]! ^
      t[1536 + ((a >>> 8) & 0xff)]! ^
      t[1280 + ((a >>> 16) & 0xff)]! ^
      t[1024 + (a >>> 24)]! ^
      t[768 + src[i + 4]!]! ^
      t[512 + src[i + 5]!]! ^
      t[256 + src[i + 6]!]! ^
      t[src[i + 7]!]!;
  }
  for (; i < to; i++) c = t[(c ^ src[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
