/**
 * CRC-32 (IEEE 802.3, polynomial 0xEDB88320 reflected — the zlib/gzip checksum) that Parquet page headers
 * carry in `crc`, computed over the page bytes as stored (compressed, after the header).
 * Slicing-by-8: eight table lookups per 8 input bytes.
 *
 * @module
 */

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
 * Computes the CRC-32 of `bytes`.
 * @param bytes - input.
 * @returns the checksum as a signed 32-bit integer (as parquet.thrift's `i32 crc` holds it).
 */
export function crc32(bytes: Uint8Array): number {
  const t = TABLES;
  let c = -1;
  let i = 0;
  const n = bytes.length;
  const n8 = n - (n & 7);
  for (; i < n8; i += 8) {
    const a = (c ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24))) >>> 0;
    c =
      t[1792 + (a & 0xff)]! ^
      t[1536 + ((a >>> 8) & 0xff)]! ^
      t[1280 + ((a >>> 16) & 0xff)]! ^
      t[1024 + (a >>> 24)]! ^
      t[768 + bytes[i + 4]!]! ^
      t[512 + bytes[i + 5]!]! ^
      t[256 + bytes[i + 6]!]! ^
      t[bytes[i + 7]!]!;
  }
  for (; i < n; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c | 0;
}
