// The writer benchmark's data: one seeded generator, so that every writer (parquetry from rows and from columnar
// vectors, hyparquet-writer, parquet-wasm, DuckDB) writes the same logical values. The generator produces plain
// columns (typed arrays, string arrays, validity bytes, list offsets); every other form (row objects, the reader's
// columnar vectors, Arrow tables, hyparquet-writer column data, a DuckDB table) is derived from them in forms.mjs.
//
// mixed (default 1,000,000 rows):
//   id            INT64 required            0, 1, 2, ...
//   ts            TIMESTAMP(MICROS, UTC) required, increasing by a random 0..2 s step from 2020-01-01
//   i32           INT32 required            uniform 0..99,999
//   f64           DOUBLE required           uniform 0..999.999 with three decimals
//   low_card      STRING required           one of 16 values ('category-0'..'category-15')
//   high_card     STRING required           32 random hex digits (an md5-like key)
//   flag          BOOLEAN required          true with probability 1/3
//   nullable_i32  INT32 optional            30% null, else uniform 0..999
//   tags          LIST<STRING required> optional list (never null), 0..5 items of 50 distinct tags
// numeric (default 10,000,000 rows):
//   id INT64 (0, 1, ...), a INT32 (uniform 0..999), b INT64 (uniform 0..999,999), c DOUBLE (id * 0.25),
//   d DOUBLE (uniform 0..9,999.99 with two decimals), all required.

/** The fixed timestamp origin: 2020-01-01T00:00:00Z in microseconds. */
export const TS_ORIGIN_MICROS = 1577836800000000n;

/**
 * A small fast seeded PRNG (xorshift128+ on 32-bit halves, i.e. xoshiro-style state of four 32-bit words),
 * returning uniform doubles in [0, 1).
 * @param {number} seed
 * @returns {() => number}
 */
export function prng(seed) {
  let a = seed >>> 0 || 1;
  let b = 0x9e3779b9;
  let c = 0x243f6a88;
  let d = 0xb7e15162;
  return () => {
    // xoshiro128** by Blackman and Vigna (public-domain algorithm)
    const r = Math.imul(rotl(Math.imul(b, 5), 7), 9);
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return (r >>> 0) / 4294967296;
  };
}

/** @param {number} x @param {number} k */
function rotl(x, k) {
  return (x << k) | (x >>> (32 - k));
}

const HEX = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/**
 * The mixed table's columns.
 * @param {number} [n] rows (default 1,000,000)
 * @param {number} [seed]
 */
export function mixedColumns(n = 1_000_000, seed = 42) {
  const rnd = prng(seed);
  const id = new BigInt64Array(n);
  const ts = new BigInt64Array(n);
  const i32 = new Int32Array(n);
  const f64 = new Float64Array(n);
  /** @type {string[]} */
  const lowCard = new Array(n);
  /** @type {string[]} */
  const highCard = new Array(n);
  const flag = new Uint8Array(n);
  const nullableI32 = new Int32Array(n);
  const nullableValid = new Uint8Array(n);
  const tagOffsets = new Int32Array(n + 1);
  /** @type {string[]} */
  const tagValues = [];
  const lows = Array.from({ length: 16 }, (_, k) => `category-${k}`);
  const tagNames = Array.from({ length: 50 }, (_, k) => `tag-${k}`);
  const hex = new Array(32).fill(0);
  let tsMicros = 0;
  for (let i = 0; i < n; i++) {
    id[i] = BigInt(i);
    tsMicros += Math.floor(rnd() * 2_000_000);
    ts[i] = TS_ORIGIN_MICROS + BigInt(tsMicros);
    i32[i] = Math.floor(rnd() * 100_000);
    f64[i] = Math.floor(rnd() * 1_000_000) / 1000;
    lowCard[i] = lows[Math.floor(rnd() * 16)];
    for (let k = 0; k < 4; k++) {
      let w = Math.floor(rnd() * 4294967296);
      for (let j = 0; j < 8; j++) {
        hex[k * 8 + j] = HEX[w & 15];
        w >>>= 4;
      }
    }
    // one flat string per value (concatenating characters would leave 32-piece ropes behind)
    highCard[i] = String.fromCharCode.apply(null, hex);
    flag[i] = rnd() < 1 / 3 ? 1 : 0;
    if (rnd() < 0.3) nullableI32[i] = 0;
    else {
      nullableValid[i] = 1;
      nullableI32[i] = Math.floor(rnd() * 1000);
    }
    const items = Math.floor(rnd() * 6);
    for (let k = 0; k < items; k++) tagValues.push(tagNames[Math.floor(rnd() * 50)]);
    tagOffsets[i + 1] = tagValues.length;
  }
  return { n, id, ts, i32, f64, lowCard, highCard, flag, nullableI32, nullableValid, tagOffsets, tagValues };
}

/**
 * A generator of the numeric table in consecutive row batches: batches of any sizes concatenate to exactly the rows
 * of {@link numericColumns} with the same seed (one PRNG stream), so a writer can be fed without holding the table.
 * @param {number} [seed]
 */
export function numericBatches(seed = 7) {
  const rnd = prng(seed);
  let start = 0;
  return {
    /** @param {number} n rows of the next batch */
    next(n) {
      const id = new BigInt64Array(n);
      const a = new Int32Array(n);
      const b = new BigInt64Array(n);
      const c = new Float64Array(n);
      const d = new Float64Array(n);
      // int64 values are written through their little-endian 32-bit words (all values here are below 2^31)
      const id32 = new Int32Array(id.buffer);
      const b32 = new Int32Array(b.buffer);
      for (let k = 0; k < n; k++) {
        const i = start + k;
        id32[2 * k] = i;
        a[k] = Math.floor(rnd() * 1000);
        b32[2 * k] = Math.floor(rnd() * 1_000_000);
        c[k] = i * 0.25;
        d[k] = Math.floor(rnd() * 1_000_000) / 100;
      }
      start += n;
      return { n, id, a, b, c, d };
    },
  };
}

/**
 * The numeric table's columns.
 * @param {number} [n] rows (default 10,000,000)
 * @param {number} [seed]
 */
export function numericColumns(n = 10_000_000, seed = 7) {
  return numericBatches(seed).next(n);
}
