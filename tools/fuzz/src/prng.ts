/**
 * A seeded pseudo-random generator (SplitMix32 state step with a Murmur3-style finaliser): the same seed gives the
 * same stream on every machine, so every fuzz input is reproducible from (entry, seed input, execution index).
 * @module
 */

/** A deterministic random stream. */
export class Prng {
  private s: number;

  /**
   * @param seed - any 32-bit integer.
   */
  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  /**
   * The next 32 random bits.
   * @returns an unsigned 32-bit integer.
   */
  u32(): number {
    this.s = (this.s + 0x9e3779b9) >>> 0;
    let z = this.s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  }

  /**
   * An integer in `[0, n)`.
   * @param n - the bound (at least 1).
   * @returns the integer.
   */
  below(n: number): number {
    return n <= 1 ? 0 : Math.floor((this.u32() / 0x100000000) * n);
  }

  /**
   * One element of a non-empty list.
   * @param xs - the list.
   * @returns an element.
   */
  pick<T>(xs: readonly T[]): T {
    return xs[this.below(xs.length)]!;
  }
}

/**
 * A 32-bit hash of a string (FNV-1a), to derive seeds from names.
 * @param s - the string.
 * @returns the hash.
 */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
