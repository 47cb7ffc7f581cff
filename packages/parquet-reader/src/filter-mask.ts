/**
 * Filters evaluated column-wise into a row mask: a comparison of a typed-array column (INT32, FLOAT, DOUBLE, INT64)
 * with a number or bigint runs as one loop over the column without a JavaScript value per row (INT64 compared as
 * two 32-bit words, no BigInt per value); any other leaf is evaluated row by row with {@link matchWith}, so the
 * result is always the row-wise result.
 * @module
 */
import { FALSE, TRUE, UNKNOWN, columnKey, member, truth, satisfies as test, type CompareOp as Op, type Filter } from './filter.js';

/** A filter column: its non-null values and its definition levels (one level per row). */
export interface MaskColumn {
  /** Non-null values, converted. */
  readonly values: ArrayLike<unknown>;
  /** Definition levels; undefined when every row has a value. */
  readonly def: Uint8Array | undefined;
  /** Max definition level: a row has a value when its level equals it. */
  readonly maxDef: number;
}

/**
 * Evaluates `f` for rows `0..n-1`.
 * @param f - the filter.
 * @param cols - its columns by key ({@link columnKey}).
 * @param n - the number of rows.
 * @param decimals - DECIMAL columns' keys (compared as decimals, row by row).
 * @returns one byte per row, 1 where the row matches (where the filter is true: SQL's three-valued logic, a
 *   comparison with null is unknown and so is its `not`).
 */
export function filterMask(f: Filter, cols: ReadonlyMap<string, MaskColumn>, n: number, decimals: ReadonlySet<string>): Uint8Array {
  const slots = new Map<string, unknown[]>();
  /** A column's values spread over its rows (null where absent), for row-by-row evaluation. */
  const slotValues = (name: string): unknown[] => {
    let s = slots.get(name);
    if (s === undefined) {
      const { values, def, maxDef } = cols.get(name)!;
      s = new Array<unknown>(n);
      let vi = 0;
      for (let r = 0; r < n; r++) s[r] = def === undefined || def[r] === maxDef ? values[vi++] : null;
      slots.set(name, s);
    }
    return s;
  };
  // each row's truth value: FALSE, UNKNOWN or TRUE (and = min, or = max, not = TRUE - x)
  const evaluate = (g: Filter): Uint8Array => {
    if ('and' in g || 'or' in g) {
      const and = 'and' in g;
      const parts = (and ? g.and : g.or).map(evaluate);
      const out = new Uint8Array(n).fill(and ? TRUE : FALSE);
      for (const p of parts) {
        if (and) for (let r = 0; r < n; r++) out[r] = p[r]! < out[r]! ? p[r]! : out[r]!;
        else for (let r = 0; r < n; r++) out[r] = p[r]! > out[r]! ? p[r]! : out[r]!;
      }
      return out;
    }
    if ('not' in g) {
      const m = evaluate(g.not);
      for (let r = 0; r < n; r++) m[r] = TRUE - m[r]!;
      return m;
    }
    const key = columnKey(g.column);
    const col = cols.get(key)!;
    const out = new Uint8Array(n);
    if (g.op === 'is null' || g.op === 'is not null') {
      const want = g.op === 'is null' ? 1 : 0;
      const def = col.def;
      for (let r = 0; r < n; r++) out[r] = (def !== undefined && def[r] !== col.maxDef ? 1 : 0) === want ? TRUE : FALSE;
      return out;
    }
    if (g.op === 'in') {
      // one set lookup per value (filter.ts member), straight over the column's values (no value array per row)
      const { values, def, maxDef } = col;
      let vi = 0;
      for (let r = 0; r < n; r++) out[r] = def !== undefined && def[r] !== maxDef ? UNKNOWN : member(g, values[vi++], decimals);
      return out;
    }
    if (!decimals.has(key) && compareTyped(col, g.op, (g as { value: unknown }).value, n, out)) return out;
    const s = slotValues(key);
    let r = 0;
    const get = (): unknown => s[r];
    for (; r < n; r++) out[r] = truth(g, get, decimals);
    return out;
  };
  const t = evaluate(f);
  for (let r = 0; r < n; r++) t[r] = t[r] === TRUE ? 1 : 0;
  return t;
}

/**
 * One loop over a typed-array column for `value op bound` (TRUE or FALSE, UNKNOWN for a null row); false (nothing
 * written) when the column or the bound is not one this handles exactly.
 */
function compareTyped(col: MaskColumn, op: Op, bound: unknown, n: number, out: Uint8Array): boolean {
  const { values, def, maxDef } = col;
  if (values instanceof Int32Array || values instanceof Float32Array || values instanceof Float64Array) {
    let b: number;
    if (typeof bound === 'number') b = bound;
    else if (typeof bound === 'bigint' && bound >= BigInt(Number.MIN_SAFE_INTEGER) && bound <= BigInt(Number.MAX_SAFE_INTEGER)) b = Number(bound);
    else return false;
    // a bigint bound against a fractional value compares as numbers (compareValues does the same)
    const lt = outcome(op, -1);
    const gt = outcome(op, 1);
    const eq = outcome(op, 0);
    const nan = outcome(op, NaN);
    let vi = 0;
    if (def === undefined) {
      for (let r = 0; r < n; r++) {
        const v = values[r]!;
        out[r] = v < b ? lt : v > b ? gt : v === b ? eq : nan;
      }
      return true;
    }
    for (let r = 0; r < n; r++) {
      if (def[r] !== maxDef) {
        out[r] = UNKNOWN;
        continue;
      }
      const v = values[vi++]!;
      out[r] = v < b ? lt : v > b ? gt : v === b ? eq : nan;
    }
    return true;
  }
  if (values instanceof BigInt64Array || values instanceof BigUint64Array) {
    const signed = values instanceof BigInt64Array;
    let b: bigint;
    if (typeof bound === 'bigint') b = bound;
    else if (typeof bound === 'number' && Number.isSafeInteger(bound)) b = BigInt(bound);
    else return false; // fractional or huge number bounds: row by row
    const min = signed ? -(1n << 63n) : 0n;
    const max = signed ? (1n << 63n) - 1n : (1n << 64n) - 1n;
    // bounds outside the column's range: every value is on one side
    const side = b < min ? 1 : b > max ? -1 : 0;
    const lt = outcome(op, -1);
    const gt = outcome(op, 1);
    if (side !== 0) {
      const all = side < 0 ? lt : gt;
      for (let r = 0; r < n; r++) out[r] = def !== undefined && def[r] !== maxDef ? UNKNOWN : all;
      return true;
    }
    const eq = outcome(op, 0);
    const bh = signed ? Number(BigInt.asIntN(32, b >> 32n)) : Number(BigInt.asUintN(32, b >> 32n));
    // the low words compare as unsigned: as signed int32 once their top bits are flipped (the bound's too), which keeps
    // every value in the loop a small integer
    const bl = Number(BigInt.asIntN(32, b)) ^ 0x80000000;
    const w = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
    // an unsigned column's high words compare the same way
    const flip = signed ? 0 : 0x80000000;
    const bhs = (bh ^ flip) | 0;
    if (def === undefined) {
      for (let r = 0, j = 0; r < n; r++, j += 2) {
        const hi = w[j + 1]! ^ flip;
        const lo = w[j]! ^ 0x80000000;
        out[r] = hi < bhs ? lt : hi > bhs ? gt : lo < bl ? lt : lo > bl ? gt : eq;
      }
      return true;
    }
    for (let r = 0, j = 0; r < n; r++) {
      if (def[r] !== maxDef) {
        out[r] = UNKNOWN;
        continue;
      }
      const hi = w[j + 1]! ^ flip;
      const lo = w[j]! ^ 0x80000000;
      j += 2;
      out[r] = hi < bhs ? lt : hi > bhs ? gt : lo < bl ? lt : lo > bl ? gt : eq;
    }
    return true;
  }
  return false;
}

/** A comparison's truth value for a comparison result `c` (negative, zero, positive or NaN). */
function outcome(op: Op, c: number): number {
  return test(op, c) ? TRUE : FALSE;
}
