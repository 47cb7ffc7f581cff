// Test helper: bounded-time fuzzing of one decompressor with random and mutated input. Shared with the codec-* packages.
import { isParquetError } from '@parquetry/parquet-codecs';
import { rng } from './inputs.js';

/** What a fuzz run saw. */
export interface FuzzStats {
  runs: number;
  typedErrors: number;
  successes: number;
}

/**
 * Feeds `decompress` random bytes and mutations of valid streams until `ms` elapse. Every call must return a count
 * within `out` or throw a ParquetError; anything else (TypeError, RangeError, a count past `out`) fails the run.
 */
export function fuzzDecompressor(
  decompress: (src: Uint8Array, out: Uint8Array) => number,
  seeds: { packed: Uint8Array; size: number }[],
  ms: number,
  seed = 12345,
): FuzzStats {
  const r = rng(seed);
  const stats: FuzzStats = { runs: 0, typedErrors: 0, successes: 0 };
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    for (let k = 0; k < 20; k++) {
      let src: Uint8Array;
      let size: number;
      const mode = r();
      if (mode < 0.25 || seeds.length === 0) {
        src = new Uint8Array((r() * 300) | 0);
        for (let i = 0; i < src.length; i++) src[i] = (r() * 256) | 0;
        size = (r() * 4000) | 0;
      } else {
        const s = seeds[(r() * seeds.length) | 0]!;
        src = s.packed.slice();
        const edits = 1 + ((r() * 4) | 0);
        for (let e = 0; e < edits && src.length > 0; e++) {
          const p = (r() * src.length) | 0;
          const kind = r();
          if (kind < 0.6) src[p] = (r() * 256) | 0;
          else if (kind < 0.8) src[p] = src[p]! ^ (1 << ((r() * 8) | 0));
          else src = src.subarray(0, p);
        }
        const d = r();
        size = d < 0.6 ? s.size : d < 0.8 ? Math.max(0, s.size + ((r() * 20) | 0) - 10) : (r() * 2 * s.size) | 0;
      }
      const out = new Uint8Array(size);
      stats.runs++;
      try {
        const n = decompress(src, out);
        if (!(Number.isInteger(n) && n >= 0 && n <= out.length)) throw new Error(`decompressor returned ${n} for an output of ${out.length}`);
        stats.successes++;
      } catch (e) {
        if (!isParquetError(e)) {
          throw new Error(`fuzz: non-ParquetError on ${src.length}-byte input (size ${size}): ${String(e)}\ninput: ${Buffer.from(src).toString('hex').slice(0, 400)}`, { cause: e });
        }
        stats.typedErrors++;
      }
    }
  }
  return stats;
}
