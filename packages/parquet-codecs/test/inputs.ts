import { isParquetError } from '@parquetry/parquet-codecs';
// Test helper: varied inputs for round trips and interop (deterministic, seeded).

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` uniformly random bytes. */
export function randomBytes(n: number, seed = 1): Uint8Array {
  const r = rng(seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (r() * 256) | 0;
  return out;
}

const WORDS = 'the quick brown fox jumps over lazy dog parquet column page row group dictionary encoding compression value null repeated optional required'.split(' ');

/** English-like text of `n` bytes. */
export function textBytes(n: number, seed = 2): Uint8Array {
  const r = rng(seed);
  let s = '';
  while (s.length < n) s += WORDS[(r() * WORDS.length) | 0] + (r() < 0.1 ? '.\n' : ' ');
  return new TextEncoder().encode(s.slice(0, n));
}

/** Little-endian int64s of a slowly growing sequence, as a PLAIN INT64 page would hold. */
export function numericBytes(n: number, seed = 3): Uint8Array {
  const r = rng(seed);
  const out = new Uint8Array(n);
  const dv = new DataView(out.buffer);
  let v = 1_700_000_000_000;
  for (let i = 0; i + 8 <= n; i += 8) {
    v += (r() * 1000) | 0;
    dv.setBigInt64(i, BigInt(v), true);
  }
  return out;
}

/** A short pattern repeated, plus long single-byte runs. */
export function repetitiveBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = i % 100_000 < 50_000 ? 'abcabcabd'.charCodeAt(i % 9) : 7;
  return out;
}

/** The named input set every codec must round-trip. */
export function variedInputs(): [string, Uint8Array][] {
  return [
    ['empty', new Uint8Array(0)],
    ['1 byte', new Uint8Array([42])],
    ['2 bytes', new Uint8Array([1, 1])],
    ['13 bytes repeated', new Uint8Array(13).fill(9)],
    ['random 1000', randomBytes(1000)],
    ['random 300k', randomBytes(300_000, 5)],
    ['text 100k', textBytes(100_000)],
    ['numeric 200k', numericBytes(200_000)],
    ['repetitive 300k', repetitiveBytes(300_000)],
    ['zeros 70000', new Uint8Array(70_000)],
    ['mixed 150k', concat(textBytes(50_000, 7), randomBytes(50_000, 8), repetitiveBytes(50_000))],
  ];
}

/** Concatenates arrays. */
export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** A > 16 MiB mixture (text, numbers, random, runs). */
export function bigInput(): Uint8Array {
  return concat(textBytes(6 << 20, 11), numericBytes(6 << 20, 12), randomBytes(2 << 20, 13), repetitiveBytes(3 << 20));
}

/** Whether two byte arrays hold the same bytes. */
export const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));

/** The code of the ParquetError `f` throws; fails when it throws something else or nothing. */
export function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (!isParquetError(e)) throw new Error(`expected a ParquetError, got ${String(e)}`);
    return e.code;
  }
  throw new Error('expected an error');
}
