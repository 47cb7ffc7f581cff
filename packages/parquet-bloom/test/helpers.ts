import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** mulberry32: a tiny seeded PRNG so failures reproduce. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random u32 from a prng. */
export const u32 = (rnd: () => number): number => (rnd() * 4294967296) >>> 0;

/** ../shared/parquet-testing/data, and whether it is present. */
export const DATA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/parquet-testing/data');
export const HAVE_DATA = fs.existsSync(DATA_DIR);
if (!HAVE_DATA) console.warn(`parquet-bloom: ${DATA_DIR} not found; corpus tests are skipped`);

function popcount(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/**
 * The false-positive probability of a given bitset for a uniformly random hash: a random
 * hash picks a block uniformly and, in each of its eight words, one of 32 bits; it is a
 * "maybe" when all eight are set. Computed from the bits alone, independent of our code.
 */
export function occupancyFpp(words: Uint32Array): number {
  let sum = 0;
  for (let b = 0; b < words.length; b += 8) {
    let p = 1;
    for (let w = 0; w < 8; w++) p *= popcount(words[b + w]!) / 32;
    sum += p;
  }
  return sum / (words.length / 8);
}
