// Builders of Zstandard frames by hand (RFC 8878), shared by the decoder's hostile-input and review tests.

/** The magic number of a Zstandard frame, little-endian. */
export const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
/** The bytes of an ASCII string. */
export const ascii = (t: string): number[] => [...t].map((ch) => ch.charCodeAt(0));

/** A frame with a 128 KiB window (no content size, no checksum) holding the given blocks. */
export function frame(...blocks: number[][]): Uint8Array {
  return new Uint8Array([...MAGIC, 0x00, 7 << 3, ...blocks.flat()]);
}

/** A block: 3-byte header (last flag, type, size), then its body. */
export function block(type: 0 | 1 | 2, body: number[], last: boolean, rleSize = 0): number[] {
  const size = type === 1 ? rleSize : body.length;
  const h = (last ? 1 : 0) | (type << 1) | (size << 3);
  return [h & 0xff, (h >>> 8) & 0xff, h >>> 16, ...body];
}

/** Raw literals section: 1-byte header below 32 bytes, else 2 bytes (RFC 8878 section 3.1.1.3.1.1). */
export function rawLiterals(bytes: number[]): number[] {
  const n = bytes.length;
  return n < 32 ? [n << 3, ...bytes] : [((n & 15) << 4) | (1 << 2), n >>> 4, ...bytes];
}

/** Sequences section header with all three tables in RLE mode. */
export function rleSequences(count: number, ll: number, of: number, ml: number): number[] {
  const nb = count < 128 ? [count] : count < 0x7f00 ? [(count >>> 8) + 128, count & 0xff] : [255, (count - 0x7f00) & 0xff, (count - 0x7f00) >>> 8];
  return [...nb, 0x54, ll, of, ml];
}

/**
 * A backward bitstream (RFC 8878 section 4.1): fields in the order the decoder reads them, each `[value, bits]`;
 * the first field read sits just below the closing 1 bit of the last byte.
 */
export function backward(fields: [number, number][]): number[] {
  let v = 1n;
  let bits = 0;
  for (const [value, n] of fields) {
    v = (v << BigInt(n)) | BigInt(value);
    bits += n;
  }
  const out: number[] = [];
  for (let i = 0; i < Math.ceil((bits + 1) / 8); i++) out.push(Number((v >> BigInt(8 * i)) & 255n));
  return out;
}
