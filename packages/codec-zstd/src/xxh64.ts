/**
 * XXH64 with seed 0, in 32-bit halves (no BigInt): the Zstandard content checksum is its low 32 bits
 * (RFC 8878 section 3.1.1). Algorithm: https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md
 * Internal to the package: the decoder calls {@link xxh64Low32}; tests compare with an independent implementation.
 */

// the five primes, as [high, low] 32-bit halves
const P1H = 0x9e3779b1, P1L = 0x85ebca87;
const P2H = 0xc2b2ae3d, P2L = 0x27d4eb4f;
const P3H = 0x165667b1, P3L = 0x9e3779f9;
const P4H = 0x85ebca77, P4L = 0xc2b2ae63;
const P5H = 0x27d4eb2f, P5L = 0x165667c5;

// results of the 64-bit helpers (single-threaded: no allocation per operation)
let rh = 0;
let rl = 0;

/** (ah:al) × (bh:bl) mod 2^64 into rh:rl. */
function mul(ah: number, al: number, bh: number, bl: number): void {
  const a0 = al & 0xffff, a1 = al >>> 16;
  const b0 = bl & 0xffff, b1 = bl >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  rl = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
  const carry = a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  rh = (carry + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
}

/** (ah:al) + (bh:bl) mod 2^64 into rh:rl. */
function add(ah: number, al: number, bh: number, bl: number): void {
  const lo = al + bl;
  rl = lo >>> 0;
  rh = (ah + bh + (lo > 0xffffffff ? 1 : 0)) >>> 0;
}

/** rotate (h:l) left by r (0 < r < 32) into rh:rl. */
function rotl(h: number, l: number, r: number): void {
  rh = ((h << r) | (l >>> (32 - r))) >>> 0;
  rl = ((l << r) | (h >>> (32 - r))) >>> 0;
}

/** round(acc, lane) = rotl(acc + lane * P2, 31) * P1, into rh:rl. */
function round(acch: number, accl: number, laneh: number, lanel: number): void {
  mul(laneh, lanel, P2H, P2L);
  add(acch, accl, rh, rl);
  rotl(rh, rl, 31);
  mul(rh, rl, P1H, P1L);
}

function u32(src: Uint8Array, p: number): number {
  return (src[p]! | (src[p + 1]! << 8) | (src[p + 2]! << 16) | (src[p + 3]! << 24)) >>> 0;
}

/**
 * XXH64 (seed 0) of `src[start..end)`.
 * @param src - the bytes.
 * @param start - first byte.
 * @param end - end (exclusive); the caller keeps `0 <= start <= end <= src.length`.
 * @returns `[high, low]` 32-bit halves of the hash, both unsigned.
 */
export function xxh64(src: Uint8Array, start: number, end: number): [number, number] {
  hash(src, start, end);
  return [rh, rl];
}

/**
 * The low 32 bits of XXH64 (seed 0) of `src[start..end)`: a Zstandard frame's content checksum.
 * @param src - the bytes.
 * @param start - first byte.
 * @param end - end (exclusive).
 * @returns the checksum, unsigned.
 */
export function xxh64Low32(src: Uint8Array, start: number, end: number): number {
  hash(src, start, end);
  return rl;
}

function hash(src: Uint8Array, start: number, end: number): void {
  const len = end - start;
  let p = start;
  let hh: number, hl: number;
  if (len >= 32) {
    add(P1H, P1L, P2H, P2L);
    let v1h = rh, v1l = rl;
    let v2h = P2H, v2l = P2L;
    let v3h = 0, v3l = 0;
    // 0 - P1 (its low half is not 0, so no carry into the high half)
    let v4l = (0x100000000 - P1L) >>> 0;
    let v4h = ~P1H >>> 0;
    const limit = end - 32;
    while (p <= limit) {
      round(v1h, v1l, u32(src, p + 4), u32(src, p));
      v1h = rh; v1l = rl;
      round(v2h, v2l, u32(src, p + 12), u32(src, p + 8));
      v2h = rh; v2l = rl;
      round(v3h, v3l, u32(src, p + 20), u32(src, p + 16));
      v3h = rh; v3l = rl;
      round(v4h, v4l, u32(src, p + 28), u32(src, p + 24));
      v4h = rh; v4l = rl;
      p += 32;
    }
    rotl(v1h, v1l, 1);
    hh = rh; hl = rl;
    rotl(v2h, v2l, 7);
    add(hh, hl, rh, rl);
    hh = rh; hl = rl;
    rotl(v3h, v3l, 12);
    add(hh, hl, rh, rl);
    hh = rh; hl = rl;
    rotl(v4h, v4l, 18);
    add(hh, hl, rh, rl);
    hh = rh; hl = rl;
    const vs = [v1h, v1l, v2h, v2l, v3h, v3l, v4h, v4l];
    for (let i = 0; i < 8; i += 2) {
      round(0, 0, vs[i]!, vs[i + 1]!);
      mul((hh ^ rh) >>> 0, (hl ^ rl) >>> 0, P1H, P1L);
      add(rh, rl, P4H, P4L);
      hh = rh; hl = rl;
    }
  } else {
    hh = P5H;
    hl = P5L;
  }
  add(hh, hl, Math.floor(len / 0x100000000), len >>> 0);
  hh = rh; hl = rl;
  while (p + 8 <= end) {
    round(0, 0, u32(src, p + 4), u32(src, p));
    rotl((hh ^ rh) >>> 0, (hl ^ rl) >>> 0, 27);
    mul(rh, rl, P1H, P1L);
    add(rh, rl, P4H, P4L);
    hh = rh; hl = rl;
    p += 8;
  }
  if (p + 4 <= end) {
    mul(0, u32(src, p), P1H, P1L);
    rotl((hh ^ rh) >>> 0, (hl ^ rl) >>> 0, 23);
    mul(rh, rl, P2H, P2L);
    add(rh, rl, P3H, P3L);
    hh = rh; hl = rl;
    p += 4;
  }
  while (p < end) {
    mul(0, src[p]!, P5H, P5L);
    rotl((hh ^ rh) >>> 0, (hl ^ rl) >>> 0, 11);
    mul(rh, rl, P1H, P1L);
    hh = rh; hl = rl;
    p++;
  }
  // avalanche
  hl = (hl ^ (hh >>> 1)) >>> 0; // h ^= h >>> 33
  mul(hh, hl, P2H, P2L);
  hl = (rl ^ ((rl >>> 29) | (rh << 3))) >>> 0; // h ^= h >>> 29
  hh = (rh ^ (rh >>> 29)) >>> 0;
  mul(hh, hl, P3H, P3L);
  hh = rh;
  hl = (rl ^ rh) >>> 0; // h ^= h >>> 32
  rh = hh;
  rl = hl;
}
