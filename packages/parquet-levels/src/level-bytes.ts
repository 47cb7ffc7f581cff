/**
 * Columnar assembly's count of byte levels (what a reader decodes) for its level checks: a list column's levels 4 per
 * 32-bit word, without a branch per level (see {@link countLevelBytes}). A module of the lazily loaded columnar
 * assembly, so that the reader's initial load keeps only the generic loops of validate.ts.
 * @module
 */
import type { ColumnDescriptor } from './schema.js';

/** ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f): the top bit of each zero byte of x (no carry crosses a byte). */
const zeroBytes = (x: number): number => ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);

/**
 * The rows and the levels at the max of a column with one repetition level (a list not inside another), a max
 * definition level 2^k - 1 up to 127 (every optional and list level: 1, 3, 7, …) and both level arrays 4-byte
 * aligned (as decoded): 4 levels per 32-bit word (about 3x the byte loop, {@link countWordLoop}), the last n % 4 one by
 * one here. A level at repetition 1 fails when its definition level or the one before is below `need`.
 */
function countWords(rep: Uint8Array, def: Uint8Array, n: number, maxDef: number, need: number, out: Int32Array): boolean {
  const words = n >> 2;
  let prevDef = 0;
  if (words > 0) {
    countWordLoop(new Int32Array(rep.buffer, rep.byteOffset, words), new Int32Array(def.buffer, def.byteOffset, words), maxDef, need);
    prevDef = def[(words << 2) - 1]!;
  } else {
    wordRows = wordPresent = wordBad = 0;
  }
  let rows = wordRows;
  let present = wordPresent;
  let bad = wordBad;
  for (let i = words << 2; i < n; i++) {
    const r = rep[i]!;
    const d = def[i]!;
    const q = r === 0 ? 0 : r === 1 ? need : 256;
    rows += (r - 1) >>> 31;
    present += ((d ^ maxDef) - 1) >>> 31;
    bad |= (d - q) | (prevDef - q) | (maxDef - d);
    prevDef = d;
  }
  out[0] = rows;
  out[1] = present;
  return bad === 0;
}

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
 * {@link countWords}' 4 levels per word. Per word: the zero bytes of the repetition levels are the rows and of the
 * definition levels XOR the max those at the max; a bit outside a byte's range is a level over its max; and a level
 * at repetition 1 fails when its definition level or the one before is below `need` (bytes compared by the top bit of
 * (d | 0x80) - need, which never borrows from the next byte).
 */
function countWordLoop(rw: Int32Array, dw: Int32Array, maxDef: number, need: number): void {
  const words = dw.length;
  const m = Math.imul(maxDef, 0x01010101);
  const q = Math.imul(need, 0x01010101);
  const outside = ~m;
  let rows = 0;
  let present = 0;
  let prevDef = 0;
  let bad = 0;
  for (let w = 0; w < words; w++) {
    const r = rw[w]!;
    const d = dw[w]!;
    rows += Math.imul((zeroBytes(r) >>> 7) & 0x01010101, 0x01010101) >>> 24;
    present += Math.imul((zeroBytes(d ^ m) >>> 7) & 0x01010101, 0x01010101) >>> 24;
    bad |= (r & 0xfefefefe) | (d & outside);
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
 * The byte-level counter of columnar assembly ({@link ByteLevelCounter} of validate.ts).
 * @internal
 */
export function countLevelBytes(rep: Uint8Array | undefined, def: Uint8Array, n: number, column: ColumnDescriptor, out: Int32Array): boolean {
  const maxDef = column.maxDef;
  // other shapes (no repetition, deeper lists, other max levels, unaligned arrays): the generic loops of validate.ts
  return rep !== undefined && column.maxRep === 1 && maxDef < 128 && (maxDef & (maxDef + 1)) === 0 && ((rep.byteOffset | def.byteOffset) & 3) === 0 && countWords(rep, def, n, maxDef, column.repeatedDefs[0]!, out);
}
