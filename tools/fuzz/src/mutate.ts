/**
 * Mutations of one input: bit flips, byte overwrites, interesting bytes and 32-bit words, Thrift varints replaced by
 * interesting values (0, -1, 2^31-1, -2^31, 2^26, 2^53-1, …: the lengths, counts and sizes a Parquet file states are
 * varints), truncations, deleted and duplicated runs — anywhere, or aimed at one region of a file (the footer's
 * Thrift, page headers, page bodies, dictionary pages, the footer length).
 * @module
 */
import type { Prng } from './prng.js';

/** What a byte range of a seed file holds. */
export type RegionKind = 'footer' | 'footer-length' | 'page-header' | 'page-body' | 'dict-header' | 'dict-body' | 'params';

/** A byte range `[start, end)` of a seed and what it holds. */
export interface Region {
  /** What the bytes are. */
  kind: RegionKind;
  /** First byte. */
  start: number;
  /** End (exclusive). */
  end: number;
}

/** One seed input: bytes, and (for files) where their parts are. */
export interface Seed {
  /** A name for reports (file name and variant). */
  name: string;
  /** The bytes. */
  bytes: Uint8Array;
  /** Regions the mutations may aim at (none: anywhere). */
  regions: readonly Region[];
}

const INTERESTING_BYTES = [0x00, 0xff, 0x7f, 0x80, 0x01, 0x40, 0x20, 0x10, 0xfe];
const INTERESTING_WORDS = [0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x7ffffffe, 0x10000, 0x4000000, 0xffff, 0x100];
/** Values for varints: counts, sizes and offsets a hostile file would state. */
const INTERESTING_VARINTS: readonly bigint[] = [0n, 1n, -1n, 2n, 127n, 128n, 255n, 0x7fffffffn, -0x80000000n, 0x4000000n, 0x3fffffffn, 2n ** 53n - 1n, -(2n ** 63n), 2n ** 63n - 1n, 65536n];

/** The length of the varint starting at `pos` (at most 10 bytes), or 0 when none ends within them. */
function varintLength(b: Uint8Array, pos: number): number {
  for (let i = 0; i < 10 && pos + i < b.length; i++) if ((b[pos + i]! & 0x80) === 0) return i + 1;
  return 0;
}

/** `v` as a ZigZag varint (Thrift compact i32/i64). */
function zigzagVarint(v: bigint): number[] {
  let z = v >= 0n ? v << 1n : ((-v) << 1n) - 1n;
  z &= (1n << 64n) - 1n;
  const out: number[] = [];
  do {
    const low = Number(z & 0x7fn);
    z >>= 7n;
    out.push(z === 0n ? low : low | 0x80);
  } while (z !== 0n);
  return out;
}

function splice(b: Uint8Array, at: number, remove: number, insert: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(b.length - remove + insert.length);
  out.set(b.subarray(0, at), 0);
  out.set(insert, at);
  out.set(b.subarray(at + remove), at + insert.length);
  return out;
}

/**
 * One mutation of `b` inside `[lo, hi)` (a copy; `b` is left alone).
 * @param b - the bytes.
 * @param rng - the random stream.
 * @param lo - first byte the mutation may touch.
 * @param hi - end of the bytes it may touch (exclusive).
 * @returns the mutated copy.
 */
export function mutateOnce(b: Uint8Array, rng: Prng, lo = 0, hi = b.length): Uint8Array {
  if (hi <= lo) return b.length === 0 ? Uint8Array.of(rng.below(256)) : b.slice(0, rng.below(b.length));
  const at = lo + rng.below(hi - lo);
  const op = rng.below(10);
  switch (op) {
    case 0:
    case 1: {
      const out = b.slice();
      out[at] = out[at]! ^ (1 << rng.below(8));
      return out;
    }
    case 2: {
      const out = b.slice();
      out[at] = rng.below(256);
      return out;
    }
    case 3: {
      const out = b.slice();
      out[at] = rng.pick(INTERESTING_BYTES);
      return out;
    }
    case 4: {
      const out = b.slice();
      const w = rng.pick(INTERESTING_WORDS);
      for (let i = 0; i < 4 && at + i < out.length; i++) out[at + i] = (w >>> (8 * i)) & 0xff;
      return out;
    }
    case 5:
    case 6: {
      // a varint at `at` (or a field header's delta byte before it) replaced by an interesting value
      const n = varintLength(b, at);
      if (n === 0) return mutateOnce(b, rng, lo, hi);
      return splice(b, at, n, zigzagVarint(rng.pick(INTERESTING_VARINTS)));
    }
    case 7:
      // truncation
      return b.slice(0, at);
    case 8: {
      // a run deleted
      const n = 1 + rng.below(Math.min(64, hi - at));
      return splice(b, at, n, []);
    }
    default: {
      // a run duplicated
      const n = 1 + rng.below(Math.min(64, hi - at));
      return splice(b, at, 0, b.slice(at, at + n));
    }
  }
}

/**
 * One to four mutations of a seed, half of the time aimed at one of its regions.
 * @param seed - the seed.
 * @param rng - the random stream.
 * @returns the mutated bytes.
 */
export function mutate(seed: Seed, rng: Prng): Uint8Array {
  let b = seed.bytes;
  const k = 1 + rng.below(4);
  for (let i = 0; i < k; i++) {
    if (seed.regions.length > 0 && rng.below(2) === 0) {
      const r = rng.pick(seed.regions);
      // regions refer to the seed; after a length-changing mutation they are approximate, which is fine here
      b = mutateOnce(b, rng, Math.min(r.start, b.length), Math.min(r.end, b.length));
    } else b = mutateOnce(b, rng);
  }
  return b;
}
