/**
 * Columnar assembly's count of byte levels (what a reader decodes) for its level checks: a list column's levels 4 per
 * 32-bit word, others one at a time, without a branch per level (see {@link countLevelBytes}). A module of the lazily loaded columnar
 * assembly, so that the reader's initial load keeps only the generic loops of validate.ts.
 * @module
 */
import type { ColumnDescriptor } from './schema.js';

/** ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f): the top bit of each zero byte of x (no carry crosses a byte). */
const zeroBytes = (x: number): number => ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);

/*
 * What countWordLoop counted: module variables, not an array, and the loop a function of its own with only these
 * stores after it. That code is compiled on stack replacement in the loop of the first long call, before anything
 * after the loop has run: an operation there without type feedback (an addition, an array store) threw every later
 * call back to the interpreter (--trace-deopt: a deopt per column chunk, ~8 per read of the mixed file's tags), and
 * a store to a module variable needs none.
 */
let wordRows = 0;
let wordPresent = 0;
/** Nonzero when some level failed a check. */
let wordBad = 0;

/**
 * The rows and the levels at the max of a column with one repetition level (a list not inside another), a max
 * definition level up to 127 and both level arrays 4-byte aligned (as decoded): 4 levels per 32-bit word (about 3x the
 * byte loop). Per word: the zero bytes of the repetition levels are the rows and of the definition levels XOR the max
 * those at the max; a level over its max sets a top bit (was: a bit outside 2^k - 1, which left a list of structs, max
 * 4, to the byte loop); and a level at repetition 1 fails when its definition level or the one before is below `need` (bytes compared by the top bit of
 * (d | 0x80) - need, which never borrows from the next byte).
 */
function countWordLoop(rw: Int32Array, dw: Int32Array, maxDef: number, need: number): void {
  const words = dw.length;
  const m = Math.imul(maxDef, 0x01010101);
  const q = Math.imul(need, 0x01010101);
  const past = Math.imul(maxDef + 1, 0x01010101);
  let rows = 0;
  let present = 0;
  let prevDef = 0;
  let bad = 0;
  for (let w = 0; w < words; w++) {
    const r = rw[w]!;
    const d = dw[w]!;
    rows += Math.imul((zeroBytes(r) >>> 7) & 0x01010101, 0x01010101) >>> 24;
    present += Math.imul((zeroBytes(d ^ m) >>> 7) & 0x01010101, 0x01010101) >>> 24;
    // a repetition level over 1; a definition level over 127, or over the max: the top bit of (d | 0x80) - (max + 1)
    bad |= (r & 0xfefefefe) | (d & 0x80808080) | ((((d & 0x7f7f7f7f) | 0x80808080) - past) & 0x80808080);
    const prev = (d << 8) | prevDef;
    const below = ~((((d | 0x80808080) - q) & (((prev | 0x80808080) - q))) & 0x80808080);
    bad |= (r << 7) & below & 0x80808080;
    prevDef = d >>> 24;
  }
  wordRows = rows;
  wordPresent = present;
  wordBad = bad;
}

/**
 * The rows and levels at the max of byte levels `from` to `n` of any shape (after the level at `from - 1`, of definition
 * level `prevDef`), one level at a time without a branch (the generic loops of validate.ts branch per level on
 * unpredictable levels): a level fails when its definition level is over the max, or its repetition level `r` is over
 * the max (`needOf[r]` 256) or continues a list (`needOf[r]` the definition level of that list's repeated field) with
 * it or the level before below that. Counts in module variables, as countWordLoop.
 * @returns nonzero when some level fails.
 */
function countBytes(rep: Uint8Array, def: Uint8Array, from: number, n: number, maxDef: number, needOf: Int32Array, prevDef: number): number {
  let rows = 0;
  let present = 0;
  let bad = 0;
  for (let i = from; i < n; i++) {
    const r = rep[i]!;
    const d = def[i]!;
    const q = needOf[r]!;
    rows += neg(r - 1);
    present += neg((d ^ maxDef) - 1);
    bad |= (d - q) | (prevDef - q) | (maxDef - d);
    prevDef = d;
  }
  wordRows = rows;
  wordPresent = present;
  // (levels are bytes, every difference above -256: the OR is negative when some difference is)
  return bad >>> 31;
}

/**
 * The sign bit of `x` (1 when negative), as a 0/1 number (columnar.ts's branch-free level loops use it too).
 * @internal
 */
export const neg = (x: number): number => x >>> 31;

/**
 * The byte-level counter of columnar assembly ({@link ByteLevelCounter} of validate.ts), for byte levels with
 * repetition levels: a list not inside another with a max definition level up to 127 and aligned arrays 4 levels per word
 * ({@link countWordLoop}), other levels (and the last n % 4 of those) one at a time ({@link countBytes}).
 * @internal
 */
export function countLevelBytes(rep: Uint8Array | undefined, def: Uint8Array, n: number, column: ColumnDescriptor, out: Int32Array): boolean {
  const maxDef = column.maxDef;
  const maxRep = column.maxRep;
  // (no repetition, or levels past 255: the generic loops)
  if (rep === undefined || maxDef > 255) return false;
  let from = 0;
  let rows = 0;
  let present = 0;
  if (maxRep === 1 && maxDef < 128 && ((rep.byteOffset | def.byteOffset) & 3) === 0 && n >= 4) {
    from = n & ~3;
    countWordLoop(new Int32Array(rep.buffer, rep.byteOffset, from >> 2), new Int32Array(def.buffer, def.byteOffset, from >> 2), maxDef, column.repeatedDefs[0]!);
    if (wordBad !== 0) return false;
    rows = wordRows;
    present = wordPresent;
  }
  const needOf = new Int32Array(256).fill(256);
  needOf[0] = 0;
  for (let r = 1; r <= maxRep && r < 256; r++) needOf[r] = column.repeatedDefs[r - 1]!;
  if (countBytes(rep, def, from, n, maxDef, needOf, from > 0 ? def[from - 1]! : 0) !== 0) return false;
  out[0] = rows + wordRows;
  out[1] = present + wordPresent;
  return true;
}
