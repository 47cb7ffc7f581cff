/**
 * Columnar shredding: Arrow-style vectors (validity per slot, `Int32Array` offsets for lists and maps, slot-aligned
 * leaf values, as {@link assembleColumnar} builds them) → per-leaf definition levels, repetition levels and dense
 * non-null values, with the level semantics of
 * https://github.com/apache/parquet-format/blob/master/README.md#nested-encoding. It is the exact inverse of
 * {@link assembleColumnar}: for any levels and values a reader produces, shredding the assembled vectors gives them
 * back, so a file can be copied without one JavaScript value per row.
 *
 * Each leaf is shredded on its own: the path from the root to the leaf is cut into *slot spaces* (the rows, then the
 * elements of each enclosing list or map); within a space the nullable vectors on the path are checked outer to
 * inner, and a list or map opens the next space through its offsets.
 *
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';
import type { Field, LeafField, SchemaTree } from './schema.js';
import type { BinaryVector, ColumnarVector, LeafVector, StructVector } from './columnar.js';
import type { BinaryValues } from './validate.js';

/** Levels and dense non-null values of one leaf. */
export interface ShreddedLeaf {
  /**
   * Definition levels, exactly `numLevels` long; `undefined` when every level is at the column's max definition
   * level (no nulls, no empty lists; always so when the max is 0).
   */
  def: Int32Array | undefined;
  /** Repetition levels, exactly `numLevels` long; `undefined` when the column's max repetition level is 0. */
  rep: Int32Array | undefined;
  /** Number of level entries. */
  numLevels: number;
  /**
   * Non-null values in order, one per level at the max definition level: the leaf vector's own array (or a
   * subarray / slice of it) when no slot of the range is skipped, else a compacted array of the same kind;
   * {@link BinaryValues} for a {@link BinaryVector}, sharing its `data`.
   */
  values: ArrayLike<unknown> | BinaryValues;
}

/** A check of one vector's validity inside a slot space: a null slot emits `def`, or is an error when `def` < 0. */
interface Check {
  readonly validity: Uint8Array;
  readonly def: number;
  readonly field: Field;
}

/** One slot space on a leaf's path: the rows, or the elements of an enclosing list/map. */
interface Space {
  /** Validity checks of the vectors in this space, outer to inner. */
  readonly checks: readonly Check[];
  /** Slot range `[lo, hi)` of this space that the requested rows cover. */
  readonly lo: number;
  readonly hi: number;
  /** Offsets of the list/map that opens the next space (`null` in the leaf's space). */
  readonly offsets: Int32Array | null;
  /** Definition level of an empty list/map. */
  readonly emptyDef: number;
  /** Repetition level of the second and later elements. */
  readonly elementRep: number;
  /** The list/map field opening the next space (for messages), or `null`. */
  readonly field: Field | null;
}

type TypedArray =
  | Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array
  | BigInt64Array | BigUint64Array;

function pathOf(f: Field): string {
  return f.node.path.join('.') || '<root>';
}

function vectorError(f: Field, message: string, row?: number): ParquetError {
  return new ParquetError('INVALID_VECTOR', `parquet-levels: field '${pathOf(f)}': ${message}${row === undefined ? '' : `, at row ${row}`}`);
}

function isTypedArray(v: unknown): v is TypedArray {
  return ArrayBuffer.isView(v) && !(v instanceof DataView);
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v !== 'object') return typeof v;
  const kind = (v as { kind?: unknown }).kind;
  return typeof kind === 'string' ? `a '${kind}' vector` : 'an object without a vector kind';
}

/** The row of slot `slot` of space `k`, through the (already checked, non-decreasing) offsets of the spaces above. */
function rowOfSlot(spaces: readonly Space[], k: number, slot: number): number {
  let s = slot;
  for (let j = k - 1; j >= 0; j--) {
    const sp = spaces[j]!;
    const o = sp.offsets!;
    // the last slot of [lo, hi) whose range starts at or before s (empty slots before it share its start)
    let a = sp.lo;
    let b = sp.hi - 1;
    while (a < b) {
      const mid = (a + b + 1) >> 1;
      if (o[mid]! <= s) a = mid;
      else b = mid - 1;
    }
    s = a;
  }
  return s;
}

/** Checks offsets over slots `[lo, hi]` of a vector: non-decreasing, from 0 up to `limit`. */
function checkOffsets(f: Field, what: string, o: Int32Array, lo: number, hi: number, limit: number, spaces: readonly Space[]): void {
  let prev = o[lo]!;
  if (prev < 0) throw vectorError(f, `${what} offset ${prev} is negative at slot ${lo}`, rowOfSlot(spaces, spaces.length - 1, lo));
  for (let s = lo + 1; s <= hi; s++) {
    const x = o[s]!;
    if (x < prev) throw vectorError(f, `${what} offsets decrease (${x} after ${prev}) at slot ${s - 1}`, rowOfSlot(spaces, spaces.length - 1, s - 1));
    prev = x;
  }
  if (prev > limit) {
    throw vectorError(f, `${what} offset ${prev} is past the end (${limit}) at slot ${hi - 1}`, rowOfSlot(spaces, spaces.length - 1, hi - 1));
  }
}

/** Shreds the levels of one leaf whose path crosses `spaces` (the last is the leaf's). */
class LevelEmitter {
  def: Int32Array;
  rep: Int32Array;
  n = 0;
  /** Levels below the max definition level. */
  stops = 0;
  /** Leaf slots that gave a value; `mask[s - leafLo]` is 1 for each. */
  taken = 0;
  readonly mask: Uint8Array;
  readonly leafLo: number;
  readonly last: number;
  row = 0;

  constructor(readonly spaces: readonly Space[], readonly leafDef: number, capacity: number) {
    this.def = new Int32Array(capacity);
    this.rep = new Int32Array(capacity);
    const leaf = spaces[spaces.length - 1]!;
    this.leafLo = leaf.lo;
    this.mask = new Uint8Array(leaf.hi - leaf.lo);
    this.last = spaces.length - 1;
  }

  /** Emits the levels of slot `s` of space `k`, whose first level has repetition level `r`. */
  emit(k: number, s: number, r: number): void {
    const sp = this.spaces[k]!;
    const checks = sp.checks;
    for (let i = 0; i < checks.length; i++) {
      const ch = checks[i]!;
      if (ch.validity[s] === 0) {
        if (ch.def < 0) throw nullError(ch.field, this.row);
        const n = this.n;
        this.def[n] = ch.def;
        this.rep[n] = r;
        this.n = n + 1;
        this.stops++;
        return;
      }
    }
    const n = this.n;
    if (k === this.last) {
      this.def[n] = this.leafDef;
      this.rep[n] = r;
      this.n = n + 1;
      this.mask[s - this.leafLo] = 1;
      this.taken++;
      return;
    }
    const o = sp.offsets!;
    const a = o[s]!;
    const b = o[s + 1]!;
    if (a === b) {
      this.def[n] = sp.emptyDef;
      this.rep[n] = r;
      this.n = n + 1;
      this.stops++;
      return;
    }
    this.emit(k + 1, a, r);
    const er = sp.elementRep;
    for (let j = a + 1; j < b; j++) this.emit(k + 1, j, er);
  }
}

function nullError(f: Field, row: number): ParquetError {
  return new ParquetError('INVALID_RECORD', `parquet-levels: field '${pathOf(f)}': null in a required ${f.kind}, at row ${row}`);
}

/**
 * Memory that {@link shredColumnar} may reuse from one call to the next for the arrays it returns: the definition and
 * repetition levels and the compacted values of each leaf. A writer that consumes each call's leaves before the next
 * call (as the columnar writer does, slice after slice) passes one scratch to every call and allocates these arrays
 * once instead of per call. The arrays a call returns are overwritten by the next call given the same scratch.
 */
export class ShredScratch {
  private readonly buffers = new Map<number, ArrayBuffer>();

  /**
   * At least `byteLength` bytes of this scratch's memory for `key` (grown as needed; contents unspecified).
   * @param key - which array: leaf column × 4 + slot.
   * @param byteLength - bytes needed.
   * @returns the buffer (the same one for a key until a call needs more).
   */
  buffer(key: number, byteLength: number): ArrayBuffer {
    let b = this.buffers.get(key);
    if (b === undefined || b.byteLength < byteLength) {
      // some headroom: the slices of one write differ in length by a few levels
      b = new ArrayBuffer(Math.max(byteLength + (byteLength >> 3), 64));
      this.buffers.set(key, b);
    }
    return b;
  }
}

/** The scratch of the {@link shredColumnar} call running (none: every array is new). */
let scratch: ShredScratch | undefined;

/** A level array of `n` entries for `column` (`slot` 0: definition, 1: repetition); contents unspecified when reused. */
function levelArray(column: number, slot: number, n: number): Int32Array {
  return scratch === undefined ? new Int32Array(n) : new Int32Array(scratch.buffer(column * 4 + slot, 4 * n), 0, n);
}

/**
 * Shreds Arrow-style vectors into one level/value stream per leaf column: the inverse of {@link assembleColumnar}.
 *
 * Leaves without enclosing lists and without nulls give their values array as is (a subarray or slice for a row
 * range); typed values with nulls are compacted in one loop moving 32-bit words; a {@link BinaryVector} gives
 * `{ offsets, data }` over its own bytes (new offsets, same `data`, when there are nulls with empty slots).
 *
 * @param schema - the schema tree the vectors were assembled for.
 * @param root - the root {@link StructVector} (one slot per row), or the top-level vectors parallel to
 *   `schema.field.fields`. Vector kinds must match the fields: `leaf` or `binary` for leaves, `struct`, `list`, `map`.
 * @param rowStart - first row to shred (default 0).
 * @param rowEnd - row after the last to shred (default: the row count); for nested columns the list/map offsets of the
 *   rows pick the element ranges.
 * @param reuse - memory to reuse for the returned arrays (see {@link ShredScratch}): the leaves of an earlier call
 *   given the same scratch are overwritten.
 * @returns one {@link ShreddedLeaf} per leaf column, in column order.
 * @throws ParquetError `INVALID_VECTOR` when a vector's kind does not match its field, a struct has the wrong number
 *   of children, lengths disagree (children of a struct, keys and values of a map, validity or values shorter than
 *   the vector), or offsets decrease, are negative or run past their child / bytes; `INVALID_RECORD` when a row or a
 *   value of a required field is null; `INVALID_ARGUMENT` when the row range is not within the rows. Messages name
 *   the field path and, where one applies, the row (an index into the vectors, not into the range).
 */
export function shredColumnar(
  schema: SchemaTree,
  root: StructVector | readonly ColumnarVector[],
  rowStart?: number,
  rowEnd?: number,
  reuse?: ShredScratch,
): ShreddedLeaf[] {
  scratch = reuse;
  try {
    return shredAll(schema, root, rowStart, rowEnd);
  } finally {
    scratch = undefined;
  }
}

function shredAll(schema: SchemaTree, root: StructVector | readonly ColumnarVector[], rowStart: number | undefined, rowEnd: number | undefined): ShreddedLeaf[] {
  const top = schema.field;
  let tops: readonly unknown[];
  let rows: number;
  let rootValidity: Uint8Array | null = null;
  if (Array.isArray(root)) {
    tops = root;
    const first: unknown = tops[0];
    rows = first !== null && typeof first === 'object' && isCount((first as { length?: unknown }).length) ? (first as { length: number }).length : 0;
  } else {
    const r: unknown = root;
    if (r === null || typeof r !== 'object' || (r as { kind?: unknown }).kind !== 'struct') {
      throw vectorError(top, `expected the root struct vector or an array of top-level vectors, got ${describe(r)}`);
    }
    const sv = r as StructVector;
    if (!Array.isArray(sv.children)) throw vectorError(top, 'struct vector has no children array');
    if (!isCount(sv.length)) throw vectorError(top, `struct vector length ${String(sv.length)} is not a non-negative integer`);
    tops = sv.children;
    rows = sv.length;
    rootValidity = checkValidity(top, sv.validity, rows);
  }
  if (tops.length !== top.fields.length) {
    throw vectorError(top, `${tops.length} top-level vectors for ${top.fields.length} top-level fields`);
  }
  const lo = rowStart ?? 0;
  const hi = rowEnd ?? rows;
  if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || lo < 0 || hi < lo || hi > rows) {
    throw new ParquetError('INVALID_ARGUMENT', `parquet-levels: row range [${lo}, ${hi}) is not within the ${rows} rows of the vectors`);
  }
  if (rootValidity) {
    for (let s = lo; s < hi; s++) if (rootValidity[s] === 0) throw new ParquetError('INVALID_RECORD', `parquet-levels: row is null (validity 0 in the root struct), at row ${s}`);
  }
  const out: ShreddedLeaf[] = new Array<ShreddedLeaf>(schema.columns.length);
  const space0: Space = { checks: [], lo, hi, offsets: null, emptyDef: 0, elementRep: 0, field: null };
  for (let i = 0; i < top.fields.length; i++) {
    const f = top.fields[i]!;
    const v = tops[i];
    const len = vectorLength(f, v);
    if (len !== rows) throw vectorError(f, `top-level vector has ${len} slots for ${rows} rows`);
    visit(f, v as ColumnarVector, [space0], 0, out);
  }
  return out;
}

function vectorLength(f: Field, v: unknown): number {
  if (v === null || typeof v !== 'object') throw vectorError(f, `expected a vector, got ${describe(v)}`);
  const len = (v as { length?: unknown }).length;
  if (!isCount(len)) throw vectorError(f, `vector length ${String(len)} is not a non-negative integer`);
  return len;
}

/** The validity array if it has a null, `null` if none; checks its type and length. */
function checkValidity(f: Field, validity: unknown, length: number): Uint8Array | null {
  if (validity === null || validity === undefined) return null;
  if (!(validity instanceof Uint8Array)) throw vectorError(f, `validity is ${describe(validity)}, expected a Uint8Array or null`);
  if (validity.length < length) throw vectorError(f, `validity has ${validity.length} bytes for ${length} slots`);
  return validity;
}

/** Whether `validity` has a 0 in `[lo, hi)`. */
function hasNull(validity: Uint8Array, lo: number, hi: number): boolean {
  for (let s = lo; s < hi; s++) if (validity[s] === 0) return true;
  return false;
}

/** `spaces` with a check added to the last (current) space when `validity` has a null in its range. */
function withCheck(spaces: readonly Space[], f: Field, validity: Uint8Array | null, parentDef: number): readonly Space[] {
  const cur = spaces[spaces.length - 1]!;
  if (validity === null || !hasNull(validity, cur.lo, cur.hi)) return spaces;
  // an absent unannotated repeated field has zero occurrences (as when shredding records)
  const def = f.kind === 'list' && f.rule === 'unannotated-repeated' ? f.def : f.nullable ? parentDef : -1;
  const next = spaces.slice();
  next[next.length - 1] = { ...cur, checks: [...cur.checks, { validity, def, field: f }] };
  return next;
}

/** Walks field and vector together down to each leaf. `v` has been checked to be an object with a valid length. */
function visit(f: Field, v: ColumnarVector, spaces: readonly Space[], parentDef: number, out: ShreddedLeaf[]): void {
  const kind: unknown = v.kind;
  const expected = f.kind === 'leaf' ? "a 'leaf' or 'binary'" : `a '${f.kind}'`;
  if (f.kind === 'leaf' ? kind !== 'leaf' && kind !== 'binary' : kind !== f.kind) throw vectorError(f, `expected ${expected} vector, got ${describe(v)}`);
  const length = v.length;
  const sp = withCheck(spaces, f, checkValidity(f, v.validity, length), parentDef);
  switch (f.kind) {
    case 'leaf': {
      out[f.column] = shredLeaf(f, v as LeafVector | BinaryVector, sp);
      return;
    }
    case 'struct': {
      const children: unknown = (v as StructVector).children;
      if (!Array.isArray(children)) throw vectorError(f, 'struct vector has no children array');
      if (children.length !== f.fields.length) throw vectorError(f, `struct vector has ${children.length} children for ${f.fields.length} fields`);
      for (let i = 0; i < f.fields.length; i++) {
        const c = f.fields[i]!;
        const cv: unknown = children[i];
        const len = vectorLength(c, cv);
        if (len !== length) throw vectorError(c, `struct child has ${len} slots, its struct has ${length}`);
        visit(c, cv as ColumnarVector, sp, f.def, out);
      }
      return;
    }
    case 'list':
    case 'map': {
      const offsets: unknown = (v as { offsets?: unknown }).offsets;
      if (!(offsets instanceof Int32Array)) throw vectorError(f, `${f.kind} offsets are ${describe(offsets)}, expected an Int32Array`);
      if (offsets.length < length + 1) throw vectorError(f, `${offsets.length} ${f.kind} offsets for ${length} slots, expected ${length + 1}`);
      const children: [Field, unknown][] = [];
      if (f.kind === 'list') {
        children.push([f.element, (v as { element?: unknown }).element]);
      } else {
        children.push([f.key, (v as { keys?: unknown }).keys]);
        const values: unknown = (v as { values?: unknown }).values;
        if (f.value === undefined) {
          if (values !== undefined && values !== null) throw vectorError(f, 'map vector has values but the map has no value field');
        } else {
          children.push([f.value, values]);
        }
      }
      const childLength = vectorLength(children[0]![0], children[0]![1]);
      for (const [cf, cv] of children) {
        const len = vectorLength(cf, cv);
        if (len !== childLength) throw vectorError(cf, `map has ${len} values for ${childLength} keys`);
      }
      const cur = sp[sp.length - 1]!;
      checkOffsets(f, f.kind, offsets, cur.lo, cur.hi, childLength, sp);
      const opened: Space = { ...cur, offsets, emptyDef: f.def, elementRep: f.elementRep, field: f };
      const inner: Space = { checks: [], lo: offsets[cur.lo]!, hi: offsets[cur.hi]!, offsets: null, emptyDef: 0, elementRep: 0, field: null };
      const next = [...sp.slice(0, -1), opened, inner];
      for (const [cf, cv] of children) visit(cf, cv as ColumnarVector, next, f.elementDef, out);
      return;
    }
  }
}

/**
 * A leaf of packed booleans (`packed: true`, one bit per slot as the reader's `booleans: 'bits'` gives them) with its
 * slots `[lo, hi)` as one byte (0/1) each (the other slots unspecified), in the scratch when there is one: the bits
 * read as bytes would be other values, or other booleans when every byte is 0 or 1. Unpacked per call, so a caller
 * may change the bits between calls.
 */
function unpackedLeaf(f: LeafField, v: LeafVector, lo: number, hi: number): LeafVector {
  const bits: unknown = v.values;
  const n = v.length;
  if (!(bits instanceof Uint8Array)) throw vectorError(f, `packed boolean values are ${describe(bits)}, expected a Uint8Array`);
  if (!isCount(n) || bits.length < Math.ceil(n / 8)) throw vectorError(f, `${bits.length} bytes of packed booleans for ${String(n)} slots, expected at least ${Math.ceil(n / 8)}`);
  const out = scratch === undefined ? new Uint8Array(n) : new Uint8Array(scratch.buffer(f.column * 4 + 3, n), 0, n);
  for (let i = lo; i < hi; i++) out[i] = (bits[i >> 3]! >> (i & 7)) & 1;
  return { kind: 'leaf', field: v.field, length: n, validity: v.validity, values: out };
}

/** Levels and values of one leaf, its path cut into `spaces`. */
function shredLeaf(f: LeafField, v: LeafVector | BinaryVector, spaces: readonly Space[]): ShreddedLeaf {
  const leaf = spaces[spaces.length - 1]!;
  const lo = leaf.lo;
  const hi = leaf.hi;
  if (v.kind === 'leaf' && v.packed === true) v = unpackedLeaf(f, v, lo, hi);
  checkLeafValues(f, v, spaces);
  const leafDef = f.def;
  if (spaces.length === 1) {
    // No enclosing list: one level per row.
    const n = hi - lo;
    const checks = leaf.checks;
    if (checks.length === 0) return { def: undefined, rep: undefined, numLevels: n, values: sliceValues(v, lo, hi) };
    const def = levelArray(f.column, 0, n);
    let mask: Uint8Array;
    let taken = 0;
    if (checks.length === 1) {
      const { validity, def: nd } = checks[0]!;
      if (nd < 0) {
        for (let s = lo; s < hi; s++) if (validity[s] === 0) throw nullError(checks[0]!.field, s);
      }
      for (let i = 0; i < n; i++) {
        const present = validity[lo + i] !== 0;
        def[i] = present ? leafDef : nd;
        taken += present ? 1 : 0;
      }
      mask = validity.subarray(lo, hi);
    } else {
      mask = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        let d = leafDef;
        for (let k = 0; k < checks.length; k++) {
          const ch = checks[k]!;
          if (ch.validity[lo + i] === 0) {
            if (ch.def < 0) throw nullError(ch.field, lo + i);
            d = ch.def;
            break;
          }
        }
        def[i] = d;
        if (d === leafDef) {
          mask[i] = 1;
          taken++;
        }
      }
    }
    return {
      def: taken === n ? undefined : def,
      rep: undefined,
      numLevels: n,
      values: taken === n ? sliceValues(v, lo, hi) : compactValues(v, lo, hi, mask, taken, f.column),
    };
  }
  // Every level is a stop (null / empty) or a leaf value at a distinct slot of some space: the ranges bound the count.
  let capacity = 0;
  for (const sp of spaces) capacity += sp.hi - sp.lo;
  if (spaces.length === 2) return shredOneList(spaces, v, leafDef, capacity, f.column);
  const e = new LevelEmitter(spaces, leafDef, capacity);
  const rows = spaces[0]!;
  for (let s = rows.lo; s < rows.hi; s++) {
    e.row = s;
    e.emit(0, s, 0);
  }
  const n = e.n;
  const range = hi - lo;
  return {
    def: e.stops === 0 ? undefined : exact(e.def, n),
    rep: exact(e.rep, n),
    numLevels: n,
    values: e.taken === range ? sliceValues(v, lo, hi) : compactValues(v, lo, hi, e.mask, e.taken, f.column),
  };
}

/** The first failing check of slot `s` (its definition level, or -1 when every check passes); throws for a required null. */
function stopAt(checks: readonly Check[], s: number, row: number): number {
  for (let k = 0; k < checks.length; k++) {
    const ch = checks[k]!;
    if (ch.validity[s] === 0) {
      if (ch.def < 0) throw nullError(ch.field, row);
      return ch.def;
    }
  }
  return -1;
}

/**
 * The common nested shape, one list or map on the path (list<leaf>, struct<list<leaf>>, map keys and values,
 * list<struct<leaf>>): rows, then elements, in one loop without recursion.
 */
function shredOneList(spaces: readonly Space[], v: LeafVector | BinaryVector, leafDef: number, capacity: number, column: number): ShreddedLeaf {
  const rows = spaces[0]!;
  const elems = spaces[1]!;
  const c0 = rows.checks;
  const c1 = elems.checks;
  const n0 = c0.length;
  const n1 = c1.length;
  const o = rows.offsets!;
  const emptyDef = rows.emptyDef;
  const er = rows.elementRep;
  const lo1 = elems.lo;
  if (n1 === 0) return shredDenseList(rows, v, leafDef, lo1, elems.hi, column);
  const def = new Int32Array(capacity);
  const rep = new Int32Array(capacity);
  const mask = new Uint8Array(elems.hi - lo1);
  let n = 0;
  let stops = 0;
  let taken = 0;
  for (let s = rows.lo; s < rows.hi; s++) {
    const d0 = n0 === 0 ? -1 : stopAt(c0, s, s);
    const a = o[s]!;
    const b = o[s + 1]!;
    if (d0 >= 0 || a === b) {
      def[n] = d0 >= 0 ? d0 : emptyDef;
      rep[n++] = 0;
      stops++;
      continue;
    }
    for (let j = a; j < b; j++) {
      const d1 = n1 === 0 ? -1 : stopAt(c1, j, s);
      rep[n] = j === a ? 0 : er;
      if (d1 >= 0) {
        def[n++] = d1;
        stops++;
      } else {
        def[n++] = leafDef;
        mask[j - lo1] = 1;
        taken++;
      }
    }
  }
  return {
    def: stops === 0 ? undefined : exact(def, n),
    rep: exact(rep, n),
    numLevels: n,
    values: taken === elems.hi - lo1 ? sliceValues(v, lo1, elems.hi) : compactValues(v, lo1, elems.hi, mask, taken, column),
  };
}

/**
 * {@link shredOneList} when no element can be null (no validity below the list, the usual list of required or
 * non-null primitives): every element of a present, non-empty list is a value at `leafDef`, so the element loop
 * writes levels only; the elements spanned by null lists (Arrow lets a null slot keep a non-empty range) are the
 * only ones skipped, and a mask of them is built only when there are any. A first pass over the rows counts the
 * levels, so the level arrays are allocated at their exact length (no over-allocation cut by a copy), and no
 * definition levels at all when every list is present and non-empty.
 */
function shredDenseList(rows: Space, v: LeafVector | BinaryVector, leafDef: number, lo1: number, hi1: number, column: number): ShreddedLeaf {
  const c0 = rows.checks;
  const n0 = c0.length;
  const o = rows.offsets!;
  const emptyDef = rows.emptyDef;
  const er = rows.elementRep;
  // level count: one per null or empty list, one per element of the others
  let count = 0;
  let stops = 0;
  for (let s = rows.lo; s < rows.hi; s++) {
    const len = o[s + 1]! - o[s]!;
    if (len === 0 || (n0 !== 0 && stopAt(c0, s, s) >= 0)) {
      count++;
      stops++;
    } else count += len;
  }
  const def = stops === 0 ? undefined : levelArray(column, 0, count);
  const rep = levelArray(column, 1, count);
  let n = 0;
  let skipped = 0;
  if (def === undefined) {
    // every list present and non-empty: the first element of each at repetition level 0, the others at er
    rep.fill(er);
    for (let s = rows.lo; s < rows.hi; s++) {
      rep[n] = 0;
      n += o[s + 1]! - o[s]!;
    }
  } else if (n0 === 0) {
    // no nulls to check: every element's levels are (leafDef, er) but the first of each list's (rep 0), and an empty
    // list is one level (emptyDef, 0): fill both arrays, then one or two stores per list instead of per element
    def.fill(leafDef);
    rep.fill(er);
    for (let s = rows.lo; s < rows.hi; s++) {
      const len = o[s + 1]! - o[s]!;
      rep[n] = 0;
      if (len === 0) def[n++] = emptyDef;
      else n += len;
    }
  } else {
    for (let s = rows.lo; s < rows.hi; s++) {
      const a = o[s]!;
      const b = o[s + 1]!;
      const d0 = n0 === 0 ? -1 : stopAt(c0, s, s);
      if (d0 >= 0 || a === b) {
        def[n] = d0 >= 0 ? d0 : emptyDef;
        rep[n++] = 0;
        skipped += b - a;
        continue;
      }
      def[n] = leafDef;
      rep[n++] = 0;
      for (let j = a + 1; j < b; j++) {
        def[n] = leafDef;
        rep[n++] = er;
      }
    }
  }
  let values: ArrayLike<unknown> | BinaryValues;
  if (skipped === 0) values = sliceValues(v, lo1, hi1);
  else {
    const mask = new Uint8Array(hi1 - lo1).fill(1);
    for (let s = rows.lo; s < rows.hi; s++) {
      const a = o[s]!;
      const b = o[s + 1]!;
      if (b > a && stopAt(c0, s, s) >= 0) mask.fill(0, a - lo1, b - lo1);
    }
    values = compactValues(v, lo1, hi1, mask, hi1 - lo1 - skipped, column);
  }
  return { def, rep, numLevels: n, values };
}

/** `a` cut to `n` entries (a copy when that frees much memory, a view otherwise). */
function exact(a: Int32Array, n: number): Int32Array {
  if (n === a.length) return a;
  return n >= a.length - (a.length >> 3) ? a.subarray(0, n) : a.slice(0, n);
}

/** Checks a leaf vector's values cover its slots (and binary offsets over the used range). */
function checkLeafValues(f: Field, v: LeafVector | BinaryVector, spaces: readonly Space[]): void {
  const leaf = spaces[spaces.length - 1]!;
  if (v.kind === 'binary') {
    const offsets: unknown = v.offsets;
    const data: unknown = v.data;
    if (!(offsets instanceof Int32Array)) throw vectorError(f, `binary offsets are ${describe(offsets)}, expected an Int32Array`);
    if (!(data instanceof Uint8Array)) throw vectorError(f, `binary data is ${describe(data)}, expected a Uint8Array`);
    if (offsets.length < v.length + 1) throw vectorError(f, `${offsets.length} binary offsets for ${v.length} slots, expected ${v.length + 1}`);
    checkOffsets(f, 'binary', offsets, leaf.lo, leaf.hi, data.length, spaces);
    return;
  }
  const values: unknown = v.values;
  const ok = Array.isArray(values) || isTypedArray(values) || (values !== null && typeof values === 'object' && isCount((values as { length?: unknown }).length));
  if (!ok) throw vectorError(f, `leaf values are ${describe(values)}, expected an array or typed array`);
  const len = (values as ArrayLike<unknown>).length;
  if (len < v.length) throw vectorError(f, `${len} leaf values for ${v.length} slots`);
}

/** The values of slots `[lo, hi)`, all of which have a value. */
function sliceValues(v: LeafVector | BinaryVector, lo: number, hi: number): ArrayLike<unknown> | BinaryValues {
  if (v.kind === 'binary') {
    const o = v.offsets;
    return { offsets: lo === 0 && hi + 1 === o.length ? o : o.subarray(lo, hi + 1), data: v.data };
  }
  const values = v.values;
  if (lo === 0 && hi === values.length) return values;
  if (isTypedArray(values)) return values.subarray(lo, hi);
  if (Array.isArray(values)) return values.slice(lo, hi);
  const out = new Array<unknown>(hi - lo);
  for (let s = lo; s < hi; s++) out[s - lo] = values[s];
  return out;
}

/** The values of the slots of `[lo, hi)` whose `mask[s - lo]` is not 0 (`count` of them), in order. */
function compactValues(v: LeafVector | BinaryVector, lo: number, hi: number, mask: Uint8Array, count: number, column: number): ArrayLike<unknown> | BinaryValues {
  const n = hi - lo;
  if (v.kind === 'binary') return compactBinary(v.offsets, v.data, lo, n, mask, count);
  const values = v.values;
  if (isTypedArray(values)) return compactTyped(values, lo, n, mask, count, column);
  const out = new Array<unknown>(count);
  let j = 0;
  for (let i = 0; i < n; i++) if (mask[i] !== 0) out[j++] = values[lo + i];
  return out;
}

function compactTyped(src: TypedArray, lo: number, n: number, mask: Uint8Array, count: number, column: number): TypedArray {
  const w = src.BYTES_PER_ELEMENT;
  const out = scratch === undefined
    ? new (src.constructor as new (length: number) => TypedArray)(count)
    : new (src.constructor as new (buffer: ArrayBuffer, byteOffset: number, length: number) => TypedArray)(scratch.buffer(column * 4 + 2, count * w), 0, count);
  if (w === 8) {
    // two 32-bit words per value: no BigInt, no NaN canonicalisation
    const s32 = new Int32Array(src.buffer, src.byteOffset + lo * 8, n * 2);
    const o32 = new Int32Array(out.buffer, out.byteOffset, count * 2);
    let j = 0;
    for (let i = 0; i < n; i++) {
      if (mask[i] !== 0) {
        o32[j] = s32[2 * i]!;
        o32[j + 1] = s32[2 * i + 1]!;
        j += 2;
      }
    }
  } else if (w === 4) {
    const s32 = new Int32Array(src.buffer, src.byteOffset + lo * 4, n);
    const o32 = new Int32Array(out.buffer, out.byteOffset, count);
    let j = 0;
    for (let i = 0; i < n; i++) if (mask[i] !== 0) o32[j++] = s32[i]!;
  } else if (w === 2) {
    const s16 = new Uint16Array(src.buffer, src.byteOffset + lo * 2, n);
    const o16 = new Uint16Array(out.buffer, out.byteOffset, count);
    let j = 0;
    for (let i = 0; i < n; i++) if (mask[i] !== 0) o16[j++] = s16[i]!;
  } else {
    const s8 = new Uint8Array(src.buffer, src.byteOffset + lo, n);
    const o8 = new Uint8Array(out.buffer, out.byteOffset, count);
    let j = 0;
    for (let i = 0; i < n; i++) if (mask[i] !== 0) o8[j++] = s8[i]!;
  }
  return out;
}

/**
 * Binary values of the kept slots. When every skipped slot is empty (as {@link assembleColumnar} leaves null slots)
 * the kept bytes are contiguous: new offsets over the same `data`. Otherwise the kept bytes are copied run by run.
 */
function compactBinary(so: Int32Array, data: Uint8Array, lo: number, n: number, mask: Uint8Array, count: number): BinaryValues {
  const offsets = new Int32Array(count + 1);
  let skippedBytes = 0;
  for (let i = 0; i < n; i++) if (mask[i] === 0) skippedBytes += so[lo + i + 1]! - so[lo + i]!;
  if (skippedBytes === 0) {
    let at = so[lo]!;
    offsets[0] = at;
    let j = 0;
    for (let i = 0; i < n; i++) {
      if (mask[i] !== 0) {
        at += so[lo + i + 1]! - so[lo + i]!;
        offsets[++j] = at;
      }
    }
    return { offsets, data };
  }
  const total = so[lo + n]! - so[lo]! - skippedBytes;
  const bytes = new Uint8Array(total);
  let at = 0;
  let j = 0;
  let i = 0;
  while (i < n) {
    if (mask[i] === 0) {
      i++;
      continue;
    }
    // one run of kept slots: one copy
    const start = i;
    while (i < n && mask[i] !== 0) {
      at += so[lo + i + 1]! - so[lo + i]!;
      offsets[++j] = at;
      i++;
    }
    bytes.set(data.subarray(so[lo + start]!, so[lo + i]!), at - (so[lo + i]! - so[lo + start]!));
  }
  return { offsets, data: bytes };
}
