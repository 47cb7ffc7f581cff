/**
 * XXH64 with seed 0, the hash Parquet bloom filters apply to the PLAIN encoding of
 * each value (BloomFilter.md, "Technical Approach": "XXH64 with a seed of 0 and
 * following the specification version 0.1.1",
 * https://github.com/apache/parquet-format/blob/master/BloomFilter.md and
 * https://github.com/Cyan4973/xxHash/blob/v0.7.0/doc/xxhash_spec.md).
 *
 * No BigInt anywhere: every 64-bit quantity is a pair of 32-bit words (lo, hi). The
 * 64×64→64 multiply splits only the low×low word product into 16-bit halves (exact in
 * doubles); the two cross products only contribute their low 32 bits, which
 * `Math.imul` gives directly. Results travel through two module-level scratch words
 * (`rLo`, `rHi`) instead of a tuple, so hashing allocates nothing.
 *
 * @module
 */

// Primes of XXH64, as [hi, lo] words.
const P1_HI = 0x9e3779b1;
const P1_LO = 0x85ebca87;
const P2_HI = 0xc2b2ae3d;
const P2_LO = 0x27d4eb4f;
const P3_HI = 0x165667b1;
const P3_LO = 0x9e3779f9;
const P4_HI = 0x85ebca77;
const P4_LO = 0xc2b2ae63;
const P5_HI = 0x27d4eb2f;
const P5_LO = 0x165667c5;

/** Low word of the last result (unsigned or signed; callers normalise with `>>> 0`). */
let rLo = 0;
/** High word of the last result. */
let rHi = 0;

/** (aHi:aLo) × (bHi:bLo) mod 2^64 → rLo, rHi. */
function mul64(aLo: number, aHi: number, bLo: number, bHi: number): void {
  const a0 = aLo & 0xffff;
  const a1 = aLo >>> 16;
  const b0 = bLo & 0xffff;
  const b1 = bLo >>> 16;
  const mid = a1 * b0 + a0 * b1; // < 2^33, exact
  const midLow = mid & 0xffff; // ToInt32 wraps mod 2^32, the low 16 bits survive
  const low = a0 * b0 + midLow * 65536; // < 2^33
  rLo = low >>> 0;
  rHi =
    (a1 * b1 + (mid - midLow) / 65536 + (low >= 4294967296 ? 1 : 0) + Math.imul(aLo, bHi) + Math.imul(aHi, bLo)) | 0;
}

/** (aHi:aLo) + (bHi:bLo) mod 2^64 → rLo, rHi. */
function add64(aLo: number, aHi: number, bLo: number, bHi: number): void {
  const s = (aLo >>> 0) + (bLo >>> 0);
  rLo = s >>> 0;
  rHi = (aHi + bHi + (s >= 4294967296 ? 1 : 0)) | 0;
}

/** XXH64 round: acc = rotl(acc + input × P2, 31) × P1 → rLo, rHi. */
function round(accLo: number, accHi: number, inLo: number, inHi: number): void {
  mul64(inLo, inHi, P2_LO, P2_HI);
  add64(accLo, accHi, rLo, rHi);
  // rotl 31
  const l = rLo;
  const h = rHi;
  mul64((l << 31) | (h >>> 1), (h << 31) | (l >>> 1), P1_LO, P1_HI);
}

/** XXH64 mergeRound: acc = (acc ^ round(0, val)) × P1 + P4 → rLo, rHi. */
function mergeRound(accLo: number, accHi: number, valLo: number, valHi: number): void {
  round(0, 0, valLo, valHi);
  mul64(accLo ^ rLo, accHi ^ rHi, P1_LO, P1_HI);
  add64(rLo, rHi, P4_LO, P4_HI);
}

/** Final mix of (hHi:hLo) → rLo, rHi. */
function avalanche(hLo: number, hHi: number): void {
  hLo ^= hHi >>> 1; // h ^= h >> 33
  mul64(hLo, hHi, P2_LO, P2_HI);
  hLo = rLo ^ ((rLo >>> 29) | (rHi << 3)); // h ^= h >> 29
  hHi = rHi ^ (rHi >>> 29);
  mul64(hLo, hHi, P3_LO, P3_HI);
  rLo = rLo ^ rHi; // h ^= h >> 32
}

/** Tail step for one 8-byte lane: h = rotl(h ^ round(0, lane), 27) × P1 + P4 → rLo, rHi. */
function step8(hLo: number, hHi: number, kLo: number, kHi: number): void {
  round(0, 0, kLo, kHi);
  const l = hLo ^ rLo;
  const h = hHi ^ rHi;
  mul64((l << 27) | (h >>> 5), (h << 27) | (l >>> 5), P1_LO, P1_HI);
  add64(rLo, rHi, P4_LO, P4_HI);
}

/** Tail step for one 4-byte word: h = rotl(h ^ (w × P1), 23) × P2 + P3 → rLo, rHi. */
function step4(hLo: number, hHi: number, w: number): void {
  mul64(w, 0, P1_LO, P1_HI);
  const l = hLo ^ rLo;
  const h = hHi ^ rHi;
  mul64((l << 23) | (h >>> 9), (h << 23) | (l >>> 9), P2_LO, P2_HI);
  add64(rLo, rHi, P3_LO, P3_HI);
}

/** Tail step for one byte: h = rotl(h ^ (b × P5), 11) × P1 → rLo, rHi. */
function step1(hLo: number, hHi: number, b: number): void {
  mul64(b, 0, P5_LO, P5_HI);
  const l = hLo ^ rLo;
  const h = hHi ^ rHi;
  mul64((l << 11) | (h >>> 21), (h << 11) | (l >>> 21), P1_LO, P1_HI);
}

// Seed-0 initial accumulators, computed once rather than written out by hand.
add64(P1_LO, P1_HI, P2_LO, P2_HI);
const V1_LO = rLo;
const V1_HI = rHi;
const V4_LO = -P1_LO >>> 0; // 0 - P1 mod 2^64 (P1_LO is non-zero, so no borrow into hi beyond ~)
const V4_HI = ~P1_HI;
// seed + P5 + len for the fixed widths, len < 2^32 so only the low word can carry.
add64(P5_LO, P5_HI, 4, 0);
const P5_PLUS4_LO = rLo;
const P5_PLUS4_HI = rHi;
add64(P5_LO, P5_HI, 8, 0);
const P5_PLUS8_LO = rLo;
const P5_PLUS8_HI = rHi;

/**
 * Hashes `src[pos, pos + len)` into rLo/rHi. The caller checks bounds.
 * @internal
 */
export function hashBytes(b: Uint8Array, pos: number, len: number): void {
  let p = pos;
  const end = pos + len;
  let hLo: number;
  let hHi: number;
  if (len >= 32) {
    let v1l = V1_LO;
    let v1h = V1_HI;
    let v2l = P2_LO;
    let v2h = P2_HI;
    let v3l = 0;
    let v3h = 0;
    let v4l = V4_LO;
    let v4h = V4_HI;
    const limit = end - 32;
    while (p <= limit) {
      round(
        v1l,
        v1h,
        b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24),
        b[p + 4]! | (b[p + 5]! << 8) | (b[p + 6]! << 16) | (b[p + 7]! << 24),
      );
      v1l = rLo;
      v1h = rHi;
      round(
        v2l,
        v2h,
        b[p + 8]! | (b[p + 9]! << 8) | (b[p + 10]! << 16) | (b[p + 11]! << 24),
        b[p + 12]! | (b[p + 13]! << 8) | (b[p + 14]! << 16) | (b[p + 15]! << 24),
      );
      v2l = rLo;
      v2h = rHi;
      round(
        v3l,
        v3h,
        b[p + 16]! | (b[p + 17]! << 8) | (b[p + 18]! << 16) | (b[p + 19]! << 24),
        b[p + 20]! | (b[p + 21]! << 8) | (b[p + 22]! << 16) | (b[p + 23]! << 24),
      );
      v3l = rLo;
      v3h = rHi;
      round(
        v4l,
        v4h,
        b[p + 24]! | (b[p + 25]! << 8) | (b[p + 26]! << 16) | (b[p + 27]! << 24),
        b[p + 28]! | (b[p + 29]! << 8) | (b[p + 30]! << 16) | (b[p + 31]! << 24),
      );
      v4l = rLo;
      v4h = rHi;
      p += 32;
    }
    // h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)
    add64((v1l << 1) | (v1h >>> 31), (v1h << 1) | (v1l >>> 31), (v2l << 7) | (v2h >>> 25), (v2h << 7) | (v2l >>> 25));
    add64(rLo, rHi, (v3l << 12) | (v3h >>> 20), (v3h << 12) | (v3l >>> 20));
    add64(rLo, rHi, (v4l << 18) | (v4h >>> 14), (v4h << 18) | (v4l >>> 14));
    mergeRound(rLo, rHi, v1l, v1h);
    mergeRound(rLo, rHi, v2l, v2h);
    mergeRound(rLo, rHi, v3l, v3h);
    mergeRound(rLo, rHi, v4l, v4h);
    hLo = rLo;
    hHi = rHi;
  } else {
    hLo = P5_LO;
    hHi = P5_HI;
  }
  // h += len (len < 2^53: split into words)
  add64(hLo, hHi, len >>> 0, (len / 4294967296) | 0);
  hLo = rLo;
  hHi = rHi;
  while (p + 8 <= end) {
    step8(
      hLo,
      hHi,
      b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24),
      b[p + 4]! | (b[p + 5]! << 8) | (b[p + 6]! << 16) | (b[p + 7]! << 24),
    );
    hLo = rLo;
    hHi = rHi;
    p += 8;
  }
  if (p + 4 <= end) {
    step4(hLo, hHi, (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0);
    hLo = rLo;
    hHi = rHi;
    p += 4;
  }
  while (p < end) {
    step1(hLo, hHi, b[p]!);
    hLo = rLo;
    hHi = rHi;
    p++;
  }
  avalanche(hLo, hHi);
}

/**
 * Hashes the 4-byte little-endian word `v` (an INT32 or the bits of a FLOAT) into rLo/rHi.
 * @internal
 */
export function hashWord32(v: number): void {
  step4(P5_PLUS4_LO, P5_PLUS4_HI, v >>> 0);
  avalanche(rLo, rHi);
}

/**
 * Hashes the 8-byte little-endian value (lo, hi) (an INT64 or the bits of a DOUBLE) into rLo/rHi.
 * @internal
 */
export function hashWord64(lo: number, hi: number): void {
  step8(P5_PLUS8_LO, P5_PLUS8_HI, lo, hi);
  avalanche(rLo, rHi);
}

/**
 * Hashes one byte (a BOOLEAN's PLAIN value as a single byte, 0 or 1) into rLo/rHi.
 * @internal
 */
export function hashByte(v: number): void {
  add64(P5_LO, P5_HI, 1, 0);
  step1(rLo, rHi, v & 0xff);
  avalanche(rLo, rHi);
}

/** Low word of the last internal hash (signed or unsigned int32 bits). @internal */
export function lastLo(): number {
  return rLo;
}
/** High word of the last internal hash (signed or unsigned int32 bits). @internal */
export function lastHi(): number {
  return rHi;
}

// Bit views for FLOAT / DOUBLE. Parquet PLAIN is little-endian; typed arrays use the
// platform order, so refuse to load on a big-endian platform instead of hashing wrong bytes.
const f64 = /*#__PURE__*/ new Float64Array(1);
const f32 = /*#__PURE__*/ new Float32Array(f64.buffer, 0, 1);
const u32 = /*#__PURE__*/ new Uint32Array(f64.buffer);
const b64 = /*#__PURE__*/ new BigInt64Array(f64.buffer);
u32[0] = 1;
if (new Uint8Array(f64.buffer)[0] !== 1) {
  throw new Error('parquet-bloom: big-endian platforms are not supported');
}

/** Sets the scratch words to the bits of `v` as a FLOAT and hashes them into rLo/rHi. @internal */
export function hashFloatBits(v: number): void {
  f32[0] = v;
  hashWord32(u32[0]!);
}
/** Sets the scratch words to the bits of `v` as a DOUBLE and hashes them into rLo/rHi. @internal */
export function hashDoubleBits(v: number): void {
  f64[0] = v;
  hashWord64(u32[0]!, u32[1]!);
}
/** Hashes a bigint as a two's-complement INT64 into rLo/rHi (one conversion, cold path). @internal */
export function hashBigInt64(v: bigint): void {
  b64[0] = BigInt.asIntN(64, v);
  hashWord64(u32[0]!, u32[1]!);
}

/**
 * XXH64 (seed 0) of `len` bytes of `src` starting at `pos`, with no BigInt and no allocation.
 *
 * @param src - the bytes.
 * @param pos - first byte to hash.
 * @param len - number of bytes to hash.
 * @param out - receives the hash: `out[0]` the low 32 bits, `out[1]` the high 32 bits.
 * @throws RangeError never for in-range arguments; out-of-range `pos`/`len` are a caller bug
 *   and throw a `ParquetError` from the public bloom API, not from here.
 */
export function xxhash64(src: Uint8Array, pos: number, len: number, out: Uint32Array): void {
  hashBytes(src, pos, len);
  out[0] = rLo;
  out[1] = rHi;
}

/**
 * XXH64 (seed 0) of an INT32's PLAIN encoding (4 bytes, little-endian), without building a buffer.
 *
 * @param value - the int32 value (any number; its low 32 bits are hashed).
 * @param out - receives the hash as `[lo, hi]`.
 */
export function xxhash64Int32(value: number, out: Uint32Array): void {
  hashWord32(value);
  out[0] = rLo;
  out[1] = rHi;
}

/**
 * XXH64 (seed 0) of an INT64's PLAIN encoding (8 bytes, little-endian) given as two words.
 *
 * @param lo - low 32 bits of the two's-complement value.
 * @param hi - high 32 bits of the two's-complement value.
 * @param out - receives the hash as `[lo, hi]`.
 */
export function xxhash64Int64(lo: number, hi: number, out: Uint32Array): void {
  hashWord64(lo, hi);
  out[0] = rLo;
  out[1] = rHi;
}

/**
 * XXH64 (seed 0) of a FLOAT's PLAIN encoding (IEEE 754 binary32, little-endian).
 *
 * @param value - the number, rounded to binary32 as a `Float32Array` store would.
 * @param out - receives the hash as `[lo, hi]`.
 */
export function xxhash64Float(value: number, out: Uint32Array): void {
  hashFloatBits(value);
  out[0] = rLo;
  out[1] = rHi;
}

/**
 * XXH64 (seed 0) of a DOUBLE's PLAIN encoding (IEEE 754 binary64, little-endian).
 *
 * @param value - the number.
 * @param out - receives the hash as `[lo, hi]`.
 */
export function xxhash64Double(value: number, out: Uint32Array): void {
  hashDoubleBits(value);
  out[0] = rLo;
  out[1] = rHi;
}
