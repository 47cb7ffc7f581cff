/**
 * CRC-32 (ISO-HDLC: polynomial 0xEDB88320 reflected — the zlib/gzip checksum, RFC 1952 section 8), which gzip
 * trailers and Parquet page headers (`PageHeader.crc`, over the page bytes as stored) both use.
 * Slicing-by-16: four unaligned 32-bit little-endian words read through a DataView and sixteen table lookups per
 * 16 input bytes, then one byte at a time for the last 0–15.
 *
 * @module
 */

/** 16 × 256 tables: `T[k * 256 + b]` is the CRC of byte b followed by k zero bytes. */
const TABLES = /*#__PURE__*/ (() => {
  const t = new Int32Array(256 * 16);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n]!;
    for (let k = 1; k < 16; k++) {
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
  if (to - from >= 16) {
    const v = new DataView(src.buffer, src.byteOffset, src.byteLength);
    for (const end16 = to - 15; i < end16; i += 16) {
      // the first word carries the CRC so far; byte j of the block is looked up in table 15 − j
      const a = c ^ v.getInt32(i, true);
      const b = v.getInt32(i + 4, true);
      const d = v.getInt32(i + 8, true);
      const e = v.getInt32(i + 12, true);
      c =
        t[3840 + (a & 0xff)]! ^
        t[3584 + ((a >>> 8) & 0xff)]! ^
        t[3328 + ((a >>> 16) & 0xff)]! ^
        t[3072 + (a >>> 24)]! ^
        t[2816 + (b & 0xff)]! ^
        t[2560 + ((b >>> 8) & 0xff)]! ^
        t[2304 + ((b >>> 16) & 0xff)]! ^
        t[2048 + (b >>> 24)]! ^
        t[1792 + (d & 0xff)]! ^
        t[1536 + ((d >>> 8) & 0xff)]! ^
        t[1280 + ((d >>> 16) & 0xff)]! ^
        t[1024 + (d >>> 24)]! ^
        t[768 + (e & 0xff)]! ^
        t[512 + ((e >>> 8) & 0xff)]! ^
        t[256 + ((e >>> 16) & 0xff)]! ^
        t[e >>> 24]!;
    }
  }
  for (; i < to; i++) c = t[(c ^ src[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
