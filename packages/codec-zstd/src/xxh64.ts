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

// the 16-bit halves of the low words of P1 and P2, for the stripe loop
const P1L0 = P1L & 0xffff, P1L1 = P1L >>> 16;
const P2L0 = P2L & 0xffff, P2L1 = P2L >>> 16;

/** The four lane accumulators of the stripe loop, as [high, low] pairs (no module-level `let` traffic there). */
const V = new Uint32Array(8);

/**
 * `V[i..i+1] = round(V[i..i+1], lane)` for the stripe loop: the same as {@link round}, written out on locals.
 */
function stripeRound(i: number, lh: number, ll: number): void {
  // t = lane * P2
  let a0 = ll & 0xffff;
  let a1 = ll >>> 16;
  let p00 = a0 * P2L0;
  let p01 = a0 * P2L1;
  let p10 = a1 * P2L0;
  let mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  const tl = ((mid << 16) | (p00 & 0xffff)) >>> 0;
  const th = a1 * P2L1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(lh, P2L) + Math.imul(ll, P2H);
  // acc += t
  const sl = V[i + 1]! + tl;
  const ah = (V[i]! + th + (sl > 0xffffffff ? 1 : 0)) >>> 0;
  const al = sl >>> 0;
  // rotl 31
  const xh = ((ah << 31) | (al >>> 1)) >>> 0;
  const xl = ((al << 31) | (ah >>> 1)) >>> 0;
  // * P1
  a0 = xl & 0xffff;
  a1 = xl >>> 16;
  p00 = a0 * P1L0;
  p01 = a0 * P1L1;
  p10 = a1 * P1L0;
  mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  V[i + 1] = (mid << 16) | (p00 & 0xffff);
  V[i] = a1 * P1L1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(xh, P1L) + Math.imul(xl, P1H);
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
    V[0] = rh;
    V[1] = rl;
    V[2] = P2H;
    V[3] = P2L;
    V[4] = 0;
    V[5] = 0;
    // 0 - P1 (its low half is not 0, so no carry into the high half)
    V[6] = ~P1H;
    V[7] = 0x100000000 - P1L;
    const limit = end - 32;
    const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
    while (p <= limit) {
      stripeRound(0, dv.getUint32(p + 4, true), dv.getUint32(p, true));
      stripeRound(2, dv.getUint32(p + 12, true), dv.getUint32(p + 8, true));
      stripeRound(4, dv.getUint32(p + 20, true), dv.getUint32(p + 16, true));
      stripeRound(6, dv.getUint32(p + 28, true), dv.getUint32(p + 24, true));
      p += 32;
    }
    const v1h = V[0]!, v1l = V[1]!, v2h = V[2]!, v2l = V[3]!, v3h = V[4]!, v3l = V[5]!, v4h = V[6]!, v4l = V[7]!;
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
