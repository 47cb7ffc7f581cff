/**
 * Content-defined chunking of pages: page boundaries chosen by a rolling (gear) hash of the values' bytes rather
 * than by counts, so that an edit (rows inserted, removed or changed) moves only the boundaries near it and the
 * pages elsewhere stay byte-identical — content-addressed storage then deduplicates them. The idea is the one Arrow
 * C++ 21 and arrow-rs use for Parquet; this implementation is our own and its boundaries are not meant to match
 * theirs.
 *
 * A boundary is taken at the first record boundary (repetition level 0) after the hash's top bits are all zero,
 * once at least `minChunkSize` bytes were hashed since the page began; at `maxChunkSize` one is forced.
 * @module
 */
import type { ByteArrays, ColumnValues, FixedLenByteArrays } from '@parquetry/parquet-encodings';
import { Type } from '@parquetry/thrift-compact';

/** Options of content-defined chunking. */
export interface ContentDefinedChunking {
  /** Bytes hashed before a content-defined boundary may be taken (default 256 KiB). */
  minChunkSize?: number;
  /** Bytes after which a boundary is forced (default 1 MiB). */
  maxChunkSize?: number;
}

/** 256 pseudo-random 32-bit words (a fixed xorshift sequence), one per byte value. */
const GEAR = /*#__PURE__*/ (() => {
  const t = new Int32Array(256);
  let x = 0x9e3779b9 | 0;
  for (let i = 0; i < 256; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    t[i] = x;
  }
  return t;
})();

/** Finds content-defined page boundaries in one column's levels and values. */
export class Chunker {
  private h = 0;
  private bytes = 0;
  private pending = false;
  private readonly min: number;
  private readonly max: number;
  /** Number of top hash bits that must be zero: a boundary every 2^bits hashed bytes on average past the minimum. */
  private readonly shift: number;

  /**
   * @param options - sizes.
   */
  constructor(options: ContentDefinedChunking) {
    this.min = options.minChunkSize ?? 256 * 1024;
    this.max = Math.max(this.min + 1, options.maxChunkSize ?? 1024 * 1024);
    // expected distance between hash hits past the minimum: small against max - min, so forced cuts (which depend
    // on positions, not content) are rare
    const bits = Math.max(1, Math.min(31, Math.round(Math.log2(Math.max(64, (this.max - this.min) / 8)))));
    this.shift = 32 - bits;
  }

  /** Starts counting a new page. */
  reset(): void {
    this.bytes = 0;
    this.pending = false;
  }

  private mix(b: Uint8Array, from: number, to: number): void {
    let h = this.h;
    if (this.pending || this.bytes + (to - from) < this.min) {
      for (let i = from; i < to; i++) h = ((h << 1) + GEAR[b[i]!]!) | 0;
    } else {
      // every byte position is a candidate boundary (checked per byte, not per value, so wide values do not
      // make boundaries rarer)
      const shift = this.shift;
      let hit = false;
      for (let i = from; i < to; i++) {
        h = ((h << 1) + GEAR[b[i]!]!) | 0;
        if (h >>> shift === 0) hit = true;
      }
      if (hit || this.bytes + (to - from) >= this.max) this.pending = true;
    }
    this.h = h;
    this.bytes += to - from;
  }

  /**
   * Scans level entries `[li, end)` (values from `vi`) and returns where the page should end: the first record
   * boundary after a content-defined boundary, or `end` when there is none.
   * @param type - physical type.
   * @param def - definition levels (undefined: all at `maxDef`).
   * @param rep - repetition levels (undefined: every entry starts a record).
   * @param maxDef - max definition level.
   * @param values - the non-null values.
   * @param li - first level entry.
   * @param end - end of the entries to scan.
   * @param vi - index of the first value of entry `li`.
   * @returns the cut position (`end` when no boundary).
   */
  scan(type: Type, def: ArrayLike<number> | undefined, rep: ArrayLike<number> | undefined, maxDef: number, values: ColumnValues, li: number, end: number, vi: number): number {
    let bytes: Uint8Array;
    let width = 0;
    let offsets: Int32Array | undefined;
    if (type === Type.BYTE_ARRAY) {
      offsets = (values as ByteArrays).offsets;
      bytes = (values as ByteArrays).data;
    } else if (type === Type.FIXED_LEN_BYTE_ARRAY || type === Type.INT96) {
      bytes = (values as FixedLenByteArrays).data;
      width = (values as FixedLenByteArrays).width;
    } else {
      const t = values as Int32Array;
      bytes = new Uint8Array(t.buffer, t.byteOffset, t.byteLength);
      width = t.BYTES_PER_ELEMENT;
    }
    const level = new Uint8Array(1);
    for (let i = li; i < end; i++) {
      if (this.pending && i > li && (rep === undefined || rep[i] === 0)) return i;
      if (def === undefined || def[i] === maxDef) {
        if (offsets) this.mix(bytes, offsets[vi]!, offsets[vi + 1]!);
        else this.mix(bytes, vi * width, (vi + 1) * width);
        vi++;
      } else {
        level[0] = def[i]! + 1;
        this.mix(level, 0, 1);
      }
    }
    return end;
  }
}
