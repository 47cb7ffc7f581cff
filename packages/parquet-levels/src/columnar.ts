/**
 * Columnar assembly: per-leaf definition/repetition levels and values → Arrow-style
 * vectors (validity per slot, `Int32Array` offsets for lists and maps, slot-aligned leaf
 * values), without one JavaScript object per value. The level semantics are those of
 * https://github.com/apache/parquet-format/blob/master/README.md#nested-encoding; each
 * struct/list/map takes its validity and offsets from its first leaf column.
 *
 * @module
 */
import type { Field, SchemaTree, StructField } from './schema.js';
import { prepareColumns, structureError, withinEngineLimits } from './assemble.js';
import type { AssembleOptions, PreparedColumns } from './assemble.js';
import { countLevelBytes, neg } from './level-bytes.js';
import { defRangeError, isBinaryValues, validateColumnLevels, isBooleanBits, valueCountError, valuesLength, type BinaryValues, type BooleanBits, type ColumnData } from './validate.js';

/** What every vector has. */
export interface VectorBase {
  /** The logical field this vector holds. */
  readonly field: Field;
  /** Number of slots. */
  readonly length: number;
  /**
   * One byte per slot, 1 = present, 0 = null; `null` when no slot is null: the field is not nullable, or its
   * column gave no definition levels because every level is at the max (Arrow's "no validity buffer").
   */
  readonly validity: Uint8Array | null;
}

/** Slot-aligned primitive values. */
export interface LeafVector extends VectorBase {
  /** Discriminant. */
  readonly kind: 'leaf';
  /**
   * One value per slot. When no slot is null this is the decoder's own array (no copy);
   * otherwise a new array of the same kind where null slots hold `null` (plain arrays) or 0
   * (typed arrays). When `packed` is true, a `Uint8Array` of at least ⌈length / 8⌉ bytes holding one bit per
   * slot instead, least significant bit first (null slots 0).
   */
  readonly values: ArrayLike<unknown>;
  /**
   * True when `values` are booleans packed one bit per slot (Arrow's boolean layout): a column given as
   * `BooleanBits` (packed booleans), such as a BOOLEAN column of a reader's columnar read with `booleans: 'bits'`. Absent
   * otherwise.
   */
  readonly packed?: true;
}

/**
 * Byte values of a BYTE_ARRAY leaf in Arrow's binary layout (Utf8 for STRING/ENUM/JSON columns, Binary otherwise):
 * slot `i` holds `data[offsets[i]]` to `data[offsets[i + 1]]` (exclusive); a null slot is empty. `data` is the
 * decoder's buffer, shared, not copied; offsets need not start at 0.
 */
export interface BinaryVector extends VectorBase {
  /** Discriminant. */
  readonly kind: 'binary';
  /** `length + 1` offsets into `data`. */
  readonly offsets: Int32Array;
  /** The bytes of all values. */
  readonly data: Uint8Array;
  /** Whether the values are UTF-8 text (a STRING, ENUM or JSON column): Arrow's Utf8 rather than Binary. */
  readonly utf8: boolean;
}

/** A struct: one child vector per field, each of the struct's length. */
export interface StructVector extends VectorBase {
  /** Discriminant. */
  readonly kind: 'struct';
  /** Child vectors, parallel to the struct field's `fields`. */
  readonly children: readonly ColumnarVector[];
}

/** A list: slot `i` holds elements `offsets[i]` to `offsets[i + 1]` of `element`. */
export interface ListVector extends VectorBase {
  /** Discriminant. */
  readonly kind: 'list';
  /** `length + 1` offsets into `element`. */
  readonly offsets: Int32Array;
  /** All elements of all lists. */
  readonly element: ColumnarVector;
}

/** A map: slot `i` holds entries `offsets[i]` to `offsets[i + 1]` of `keys`/`values`. */
export interface MapVector extends VectorBase {
  /** Discriminant. */
  readonly kind: 'map';
  /** `length + 1` offsets into `keys` and `values`. */
  readonly offsets: Int32Array;
  /** All keys. */
  readonly keys: ColumnarVector;
  /** All values, or `undefined` for a key-only map. */
  readonly values: ColumnarVector | undefined;
}

/** Any vector. */
export type ColumnarVector = LeafVector | BinaryVector | StructVector | ListVector | MapVector;

interface Built {
  /** Per slot min(def, struct def), for structs whose later children are checked against it. */
  clamp: Int32Array | null;
  length: number;
  validity: Uint8Array | null;
  offsets: Int32Array | null;
  values: ArrayLike<unknown> | BinaryValues | BooleanBits | null;
}

const EMPTY_U8 = new Uint8Array(0);
const EMPTY_I32 = new Int32Array(0);

/** Spreads dense values over the slots whose presence byte is 1 (null / 0 elsewhere). */
function scatterValues(src: ArrayLike<unknown>, present: Uint8Array, slots: number): ArrayLike<unknown> {
  if (ArrayBuffer.isView(src)) {
    const out = new (src.constructor as new (n: number) => TypedArray)(slots);
    scatterTyped(src as unknown as TypedArray, present, out, slots);
    return out;
  }
  const out = new Array<unknown>(slots);
  let vi = 0;
  for (let s = 0; s < slots; s++) out[s] = present[s] === 1 ? src[vi++] : null;
  return out;
}

/**
 * Spreads typed values over the present slots (`present` bytes of 0 or 1, as many 1s as values), zero elsewhere.
 * Without a branch per slot: every slot takes the next value masked by its presence byte (`& -p`), and the value
 * index moves on by `p` (an optional column's nulls are unpredictable: 0.42 → 0.17 ms per 122,880 slots with 30%
 * nulls). The loop ends at the last value; the slots after it stay zero.
 */
function scatterTyped(src: TypedArray, present: Uint8Array, out: TypedArray, slots: number): void {
  // one monomorphic loop per element size, moving 32-bit words (no BigInt or NaN canonicalisation per value)
  const w = src.BYTES_PER_ELEMENT;
  if (w === 4 || w === 8) {
    const v = new Int32Array(src.buffer, src.byteOffset, (src.length * w) >> 2);
    const o = new Int32Array(out.buffer, out.byteOffset, (out.length * w) >> 2);
    if (w === 4) {
      const nv = v.length;
      for (let s = 0, vi = 0; s < slots && vi < nv; s++) {
        const p = present[s]!;
        o[s] = v[vi]! & -p;
        vi += p;
      }
    } else {
      const nv = v.length;
      for (let s = 0, vi = 0; s < slots && vi < nv; s++) {
        const p = present[s]!;
        const m = -p;
        o[2 * s] = v[vi]! & m;
        o[2 * s + 1] = v[vi + 1]! & m;
        vi += 2 * p;
      }
    }
    return;
  }
  const o = out as Uint8Array;
  const v = src as Uint8Array;
  const nv = v.length;
  for (let s = 0, vi = 0; s < slots && vi < nv; s++) {
    const p = present[s]!;
    o[s] = v[vi]! & -p;
    vi += p;
  }
}

/** Slot-aligned offsets for binary values: present slots take the next value, null slots are empty. */
function scatterBinary(src: BinaryValues, present: Uint8Array, slots: number): BinaryValues {
  const so = src.offsets;
  const offsets = new Int32Array(slots + 1);
  offsets[0] = so[0]!;
  const s = scatterOffsets(so, present, slots, offsets);
  // the slots after the last value are null: empty
  if (s < slots) offsets.fill(offsets[s]!, s + 1);
  return { offsets, data: src.data };
}

/**
 * {@link scatterBinary}'s loop, without a branch per slot (as {@link scatterTyped}): every slot's offset moves on by
 * the next value's length masked by its presence byte. Null elements of a list of strings are unpredictable: 9 x
 * 163,840 slots (in-process alternating): 10% null 3.9-4.1 -> 2.9-3.0 ms, 30% null 6.8-8.7 -> 3.0-5.3, 1% null
 * 2.9 -> 3.0. The loop ends at the last value (its own function, with nothing
 * after it but the return: see countWordLoop in level-bytes.ts).
 * @returns the slots done.
 */
function scatterOffsets(so: Int32Array, present: Uint8Array, slots: number, offsets: Int32Array): number {
  const nv = so.length - 1;
  let at = offsets[0]!;
  let vi = 0;
  let s = 0;
  for (; s < slots && vi < nv; s++) {
    const p = present[s]!;
    at += (so[vi + 1]! - so[vi]!) & -p;
    vi += p;
    offsets[s + 1] = at;
  }
  return s;
}

/** Packed booleans spread over the slots whose presence byte is 1 (0 bits elsewhere). */
function scatterBits(src: BooleanBits, present: Uint8Array, slots: number): BooleanBits {
  const sb = src.bits;
  const bits = new Uint8Array((slots + 7) >> 3);
  let vi = 0;
  for (let s = 0; s < slots; s++) {
    if (present[s] === 1) {
      bits[s >> 3]! |= ((sb[vi >> 3]! >> (vi & 7)) & 1) << (s & 7);
      vi++;
    }
  }
  return { bits, count: slots };
}

type TypedArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array | BigInt64Array | BigUint64Array;

/** Chains: for each leaf, the fields on its path it owns (is the first leaf of), with slot thresholds. */
type Link = { f: Field; slotDef: number; check?: StructField };

/** What the chains of one assembly share: the prepared columns, and the fields built so far. */
interface Assembly extends PreparedColumns {
  readonly schema: SchemaTree;
  readonly built: Map<Field, Built>;
}

/** A later child of a struct must agree with the struct's first column on which ancestor is null. */
function checkAgainstStruct(a: Assembly, c: number, head: Link, levels: () => ArrayLike<number>, rep: ArrayLike<number>, n: number): void {
  const built = a.built;
  const s = head.check!;
  const clamp = built.get(s)?.clamp;
  if (!clamp) return; // the struct and everything above it are never null here
  const def = levels();
  const sd = s.def;
  const t0d = head.slotDef;
  const t0r = head.f.repDepth;
  let slot = 0;
  for (let i = 0; i < n; i++) {
    const d = def[i]!;
    if (d < t0d || rep[i]! > t0r) continue;
    const cd = d < sd ? d : sd;
    if (slot >= clamp.length || clamp[slot] !== cd) {
      throw structureError(head.f, c, i, `definition level ${d} disagrees with column ${s.leaves[0]!} on whether '${s.node.path.join('.')}' or an enclosing value is null`);
    }
    slot++;
  }
}

/** Builds the chains of the leaves under `f` (module-level, not a closure per assembly: its loops stay optimized). */
function walk(a: Assembly, f: Field, slotDef: number, chain: Link[], check?: StructField): void {
  const owned = f.leaves[0] !== undefined;
  if (!owned) return;
  const link: Link = check ? { f, slotDef, check } : { f, slotDef };
  switch (f.kind) {
    case 'leaf': buildChain(a, f.column, [...chain, link]); return;
    case 'struct':
      // A struct's children have a slot for each struct slot, null or not (Arrow layout).
      // Later children start their own chain and are checked against the struct's nulls.
      f.fields.forEach((c, i) => (i === 0 ? walk(a, c, slotDef, [...chain, link]) : walk(a, c, slotDef, [], f)));
      return;
    case 'list': walk(a, f.element, f.elementDef, [...chain, link]); return;
    case 'map':
      walk(a, f.key, f.elementDef, [...chain, link]);
      if (f.value) walk(a, f.value, f.elementDef, []);
      return;
  }
}

/** Whether column `c`'s chain is a flat top-level column: no repetition, no thresholds, only the leaf records validity. */
function isFlat(a: Assembly, c: number, m: number, thrDef: Int32Array, validity: Uint8Array[], offsets: Int32Array[], clamps: Int32Array[]): boolean {
  const schema = a.schema;
  if (m > 2 || schema.columns[c]!.maxRep !== 0) return false;
  for (let k = 0; k < m; k++) {
    if (thrDef[k] !== 0 || offsets[k]!.length > 0 || clamps[k]!.length > 0) return false;
    if (k < m - 1 && validity[k]!.length > 0) return false;
  }
  return true;
}

/*
 * The level loops of buildChain, each a function of its own: one function holding them all was compiled on stack
 * replacement for one loop and thrown back to the interpreter at the next (no type feedback there yet), every row group.
 */

/*
 * slots3 and slots2 are branch-free: every depth writes its validity, offset and clamp at its current slot whatever
 * the level, and its slot counter moves on by 0 or 1 computed from the thresholds (a write whose counter does not
 * move is overwritten by the next slot's, or is past the depth's length). Definition and repetition levels of real
 * lists are unpredictable (empty, null and long lists mixed): the branchy loop took 12.3 ms for 1.47M random levels
 * of an optional list of optional strings, this one 4.3 (the mixed file's periodic tags: 4.6 -> 4.5). A slot index
 * never passes the level index (a depth's slots are some of the levels before it), so every write is within arrays of
 * `n` entries. Thresholds never decrease along a chain, so a level reaching depth k's slot threshold reaches every
 * shallower one: depth k takes a slot exactly when d >= thrDef[k] and r <= thrRep[k]. `a >= b` is the sign bit of
 * b - 1 - a, `a <= b` that of b - a - 1 (levels are small integers). The last depth is the leaf: no offsets, no clamp.
 */

/**
 * Clears the byte or number a branch-free loop left past a depth's last slot (an uncommitted write), so that the
 * arrays hold what a branchy loop leaves there: 0.
 */
function clearTail(a: Uint8Array | Int32Array, len: number): void {
  if (len < a.length) a[len] = 0;
}

/**
 * Slots, validity, offsets and clamps of a struct > list/map > leaf chain (`count` receives the slots per depth).
 * @returns the leaf slots whose level reaches the leaf's definition level (its present values).
 * @internal (exported for its tests)
 */
export function slots3(def: ArrayLike<number>, rep: ArrayLike<number>, n: number, thrDef: Int32Array, thrRep: Int32Array, presentDef: Int32Array, validity: Uint8Array[], offsets: Int32Array[], clamps: Int32Array[], count: Int32Array): number {
  const t0d = thrDef[0]!, t0r = thrRep[0]!, t1d = thrDef[1]!, t1r = thrRep[1]!, t2d = thrDef[2]!, t2r = thrRep[2]!;
  const p0 = presentDef[0]!, p1 = presentDef[1]!, p2 = presentDef[2]!;
  const v0 = validity[0]!, v1 = validity[1]!, v2 = validity[2]!;
  const o0 = offsets[0]!, o1 = offsets[1]!;
  const cl0 = clamps[0]!, cl1 = clamps[1]!, hc0 = cl0.length > 0, hc1 = cl1.length > 0;
  const hv0 = v0.length > 0, hv1 = v1.length > 0, hv2 = v2.length > 0, ho0 = o0.length > 0, ho1 = o1.length > 0;
  let c0 = 0, c1 = 0, c2 = 0, present = 0;
  for (let i = 0; i < n; i++) {
    const d = def[i]!;
    const r = rep[i]!;
    if (hv0) v0[c0] = neg(p0 - 1 - d);
    if (ho0) o0[c0] = c1;
    if (hc0) cl0[c0] = d < p0 ? d : p0;
    c0 += neg(t0d - 1 - d) & neg(r - t0r - 1);
    if (hv1) v1[c1] = neg(p1 - 1 - d);
    if (ho1) o1[c1] = c2;
    if (hc1) cl1[c1] = d < p1 ? d : p1;
    c1 += neg(t1d - 1 - d) & neg(r - t1r - 1);
    const p = neg(p2 - 1 - d);
    const s = neg(t2d - 1 - d) & neg(r - t2r - 1);
    if (hv2) v2[c2] = p;
    c2 += s;
    present += p & s;
  }
  count[0] = c0; count[1] = c1; count[2] = c2;
  if (hv0) clearTail(v0, c0);
  if (hc0) clearTail(cl0, c0);
  if (hv1) clearTail(v1, c1);
  if (hc1) clearTail(cl1, c1);
  if (hv2) clearTail(v2, c2);
  return present;
}

/**
 * Slots, validity, offsets and clamps of a list/map > leaf chain (`count` receives the slots per depth).
 * @returns the leaf slots whose level reaches the leaf's definition level (its present values).
 * @internal (exported for its tests)
 */
export function slots2(def: ArrayLike<number>, rep: ArrayLike<number>, n: number, thrDef: Int32Array, thrRep: Int32Array, presentDef: Int32Array, validity: Uint8Array[], offsets: Int32Array[], clamps: Int32Array[], count: Int32Array): number {
  const t0d = thrDef[0]!, t0r = thrRep[0]!, t1d = thrDef[1]!, t1r = thrRep[1]!;
  const p0 = presentDef[0]!, p1 = presentDef[1]!;
  const v0 = validity[0]!, v1 = validity[1]!, o0 = offsets[0]!, cl0 = clamps[0]!;
  const hv0 = v0.length > 0, hv1 = v1.length > 0, ho0 = o0.length > 0, hc0 = cl0.length > 0;
  let c0 = 0, c1 = 0, present = 0;
  for (let i = 0; i < n; i++) {
    const d = def[i]!;
    const r = rep[i]!;
    if (hv0) v0[c0] = neg(p0 - 1 - d);
    if (ho0) o0[c0] = c1;
    if (hc0) cl0[c0] = d < p0 ? d : p0;
    c0 += neg(t0d - 1 - d) & neg(r - t0r - 1);
    const p = neg(p1 - 1 - d);
    const s = neg(t1d - 1 - d) & neg(r - t1r - 1);
    if (hv1) v1[c1] = p;
    c1 += s;
    present += p & s;
  }
  count[0] = c0; count[1] = c1;
  if (hv0) clearTail(v0, c0);
  if (hc0) clearTail(cl0, c0);
  if (hv1) clearTail(v1, c1);
  return present;
}

/**
 * Slots and validity of a chain of the leaf alone (a later child of a struct inside a list, a map's values),
 * branch-free as {@link slots2}; validity it does not record goes to a throwaway array. The slots go to
 * {@link listSlots0} (a module variable: see there).
 * @returns the slots whose level reaches the leaf's definition level (its present values).
 * @internal (exported for its tests)
 */
export function slots1(def: ArrayLike<number>, rep: ArrayLike<number>, n: number, t0d: number, t0r: number, p0: number, v0: Uint8Array): number {
  let c0 = 0, present = 0;
  for (let i = 0; i < n; i++) {
    const d = def[i]!;
    const r = rep[i]!;
    const p = neg(p0 - 1 - d);
    const s = neg(t0d - 1 - d) & neg(r - t0r - 1);
    v0[c0] = p;
    c0 += s;
    present += p & s;
  }
  listSlots0 = c0;
  return present;
}

/** Levels per call of {@link listSlots} while no null has been seen (a null costs at most this many levels again). */
const LIST_BLOCK = 4096;

/**
 * Slots, validity and offsets of depths `k` (a list or map: offsets, no clamp) and `k + 1` (the leaf) of a chain,
 * branch-free as {@link slots2}. Depths before `k` record nothing. The levels are read in blocks by
 * {@link listSlots}, which writes only the offsets, until a block has a null at a depth that records validity: the
 * validity of the slots before it is all 1s (filled after), and {@link listFull} takes the levels from that block on.
 * The mixed file's tags (1.47M levels, no null list or element; micro-benchmark of the loops): 4.5 ms with the
 * validity written per level, 3.5 in blocks. listFull has no test per level of which arrays the depths record: a depth
 * that records no validity writes it into a throwaway array (the tests alone cost ~1 ms on the same levels).
 * @returns the leaf slots whose level reaches the leaf's definition level (its present values), or -1 when the leaf
 *   records no validity (not counted).
 * @internal (exported for its tests)
 */
export function listLeaf(def: ArrayLike<number>, rep: ArrayLike<number>, n: number, k: number, thrDef: Int32Array, thrRep: Int32Array, presentDef: Int32Array, validity: Uint8Array[], offsets: Int32Array[], count: Int32Array): number {
  const t0d = thrDef[k]!, t0r = thrRep[k]!, t1d = thrDef[k + 1]!, t1r = thrRep[k + 1]!;
  const p0 = presentDef[k]!, p1 = presentDef[k + 1]!;
  const hv0 = validity[k]!.length > 0, hv1 = validity[k + 1]!.length > 0;
  const o0 = offsets[k]!;
  // a depth that records no validity has no null to look for (definition levels are not negative: 0 finds none)
  const q0 = hv0 ? p0 : 0, q1 = hv1 ? p1 : 0;
  const block = hv0 || hv1 ? LIST_BLOCK : n;
  let i = 0, c0 = 0, c1 = 0;
  while (i < n) {
    const to = n - i > block ? i + block : n;
    if (listSlots(def, rep, i, to, c0, c1, t0d, t0r, t1d, t1r, q0, q1, o0) !== 0) break;
    c0 = listSlots0; c1 = listSlots1; i = to;
  }
  if (hv0) validity[k]!.fill(1, 0, c0);
  if (hv1) validity[k + 1]!.fill(1, 0, c1);
  let present = c1;
  if (i < n) {
    const v0 = hv0 ? validity[k]! : new Uint8Array(n), v1 = hv1 ? validity[k + 1]! : new Uint8Array(n);
    present += listFull(def, rep, i, n, c0, c1, t0d, t0r, p0, t1d, t1r, p1, v0, o0, v1);
    c0 = listSlots0; c1 = listSlots1;
    if (hv0) clearTail(v0, c0);
    if (hv1) clearTail(v1, c1);
  }
  count[k] = c0; count[k + 1] = c1;
  return hv1 ? present : -1;
}

/*
 * The slots of the two depths after listSlots or listFull: module variables, stored after their loops (an array
 * store there, compiled on stack replacement before it ever ran, would have no type feedback: see countWordLoop).
 */
let listSlots0 = 0;
let listSlots1 = 0;

/** The depth-0 slots of the last {@link slots1}, {@link listSlots} or {@link listFull}. @internal (exported for its tests) */
export function lastSlots(): number {
  return listSlots0;
}

/**
 * The offsets of levels `from` to `to` of a list > leaf pair of depths, the slots counted on from `c0` and `c1`.
 * @returns nonzero when some slot of depth 0 is below `q0` or one of depth 1 below `q1` (a null where validity is
 *   recorded).
 */
function listSlots(def: ArrayLike<number>, rep: ArrayLike<number>, from: number, to: number, c0: number, c1: number, t0d: number, t0r: number, t1d: number, t1r: number, q0: number, q1: number, o0: Int32Array): number {
  let nulls = 0;
  for (let i = from; i < to; i++) {
    const d = def[i]!;
    const r = rep[i]!;
    o0[c0] = c1;
    const a = neg(t0d - 1 - d) & neg(r - t0r - 1);
    const b = neg(t1d - 1 - d) & neg(r - t1r - 1);
    nulls |= (a & neg(d - q0)) | (b & neg(d - q1));
    c0 += a;
    c1 += b;
  }
  listSlots0 = c0;
  listSlots1 = c1;
  return nulls;
}

/**
 * The validity and offsets of levels `from` to `n` of a list > leaf pair of depths, the slots counted on from `c0`
 * and `c1`.
 * @returns the depth-1 slots among them at or past `p1` (present).
 */
function listFull(def: ArrayLike<number>, rep: ArrayLike<number>, from: number, n: number, c0: number, c1: number, t0d: number, t0r: number, p0: number, t1d: number, t1r: number, p1: number, v0: Uint8Array, o0: Int32Array, v1: Uint8Array): number {
  let present = 0;
  for (let i = from; i < n; i++) {
    const d = def[i]!;
    const r = rep[i]!;
    v0[c0] = neg(p0 - 1 - d);
    o0[c0] = c1;
    c0 += neg(t0d - 1 - d) & neg(r - t0r - 1);
    const p = neg(p1 - 1 - d);
    const s = neg(t1d - 1 - d) & neg(r - t1r - 1);
    v1[c1] = p;
    c1 += s;
    present += p & s;
  }
  listSlots0 = c0;
  listSlots1 = c1;
  return present;
}

/**
 * Slots, validity, offsets and clamps of a chain of any depth (`count` receives the slots per depth).
 * @internal (exported for the tests of the unrolled loops)
 */
export function slotsAny(def: ArrayLike<number>, rep: ArrayLike<number>, n: number, m: number, thrDef: Int32Array, thrRep: Int32Array, presentDef: Int32Array, validity: Uint8Array[], offsets: Int32Array[], clamps: Int32Array[], count: Int32Array): void {
  for (let i = 0; i < n; i++) {
    const d = def[i]!;
    const r = rep[i]!;
    for (let k = 0; k < m; k++) {
      if (d < thrDef[k]!) break;
      if (r > thrRep[k]!) continue;
      const slot = count[k]!;
      count[k] = slot + 1;
      const v = validity[k]!;
      if (v.length > 0) v[slot] = d >= presentDef[k]! ? 1 : 0;
      const o = offsets[k]!;
      if (o.length > 0) o[slot] = count[k + 1]!;
      const cl = clamps[k]!;
      if (cl.length > 0) cl[slot] = d < presentDef[k]! ? d : presentDef[k]!;
    }
  }
}

/**
 * The validity of a flat optional column (max definition level 1) from its levels, checked to be 0 or 1.
 * @returns the levels at 1, or -(i + 1) for the first level `i` out of range.
 */
function flatOptional(def: ArrayLike<number>, n: number, vl: Uint8Array): number {
  let p = 0;
  for (let i = 0; i < n; i++) {
    const d = def[i]!;
    if (d === 1) {
      vl[i] = 1;
      p++;
    } else if (d > 1 || d < 0 || d !== d) return -i - 1;
  }
  return p;
}

/**
 * The levels at 1 of the first `n` bytes when every one is 0 or 1, else -1: a sum and an OR, without a branch per
 * level (a flat optional column's nulls are unpredictable: 0.40 → 0.07 ms per 122,880 levels with 30% nulls).
 * @internal (exported for its tests)
 */
export function presentBits(def: Uint8Array, n: number): number {
  const p = sumBytes(def, n);
  return bytesOr > 1 ? -1 : p;
}

/** The OR of the bytes {@link sumBytes} added up last. */
let bytesOr = 0;

/**
 * The sum of the first `n` bytes (their OR in {@link bytesOr}), 4 per aligned 32-bit word: two 16-bit lanes of sums
 * (about 2.5x the byte loop).
 */
function sumBytes(b: Uint8Array, n: number): number {
  let sum = 0;
  let or = 0;
  let i = 0;
  const off = b.byteOffset;
  for (; i < n && ((off + i) & 3) !== 0; i++) {
    sum += b[i]!;
    or |= b[i]!;
  }
  const words = (n - i) >> 2;
  if (words > 1) {
    const w32 = new Int32Array(b.buffer, off + i, words);
    let wor = 0;
    for (let w = 0; w < words; w++) {
      const x = w32[w]!;
      const s = (x & 0x00ff00ff) + ((x >>> 8) & 0x00ff00ff);
      sum += (s + (s >>> 16)) & 0xffff;
      wor |= x;
    }
    // a bit of the words' OR above the lowest of its byte: some byte over 1
    or |= (wor & 0xfefefefe) !== 0 ? 2 : wor & 1;
    i += words << 2;
  }
  for (; i < n; i++) {
    sum += b[i]!;
    or |= b[i]!;
  }
  bytesOr = or;
  return sum;
}

/** The validity of a flat column: 1 where the level reaches `pl`. */
function flatValidity(def: ArrayLike<number>, n: number, vl: Uint8Array, pl: number): void {
  for (let i = 0; i < n; i++) vl[i] = def[i]! >= pl ? 1 : 0;
}

/** Levels of `n` entries up to `max`: bytes when they hold it. */
function levelArray(n: number, max: number): Uint8Array | Int32Array {
  return max <= 255 ? new Uint8Array(n) : new Int32Array(n);
}

/** The present slots (bytes of 1) of the first `n` of a validity (the sum of its bytes). @internal (exported for its tests) */
export function countPresent(present: Uint8Array, n: number): number {
  return sumBytes(present, n);
}

/** Builds the validity, offsets and slot-aligned values of the fields column `c` owns along `chain`. */
function buildChain(a: Assembly, c: number, chain: Link[]): void {
  const { schema, defs, allDefined, reps, vals, counts, deferred, built } = a;
  const m = chain.length;
  const n = counts[c]!;
  const rep = reps[c]!;
  // a column without definition levels (all at the max) has none here; built only where a walk reads them
  const given = defs[c];
  let filled: Uint8Array | Int32Array | undefined;
  // (bytes, as a reader's decoded levels are, so that the level loops see one array kind)
  const levels = (): ArrayLike<number> => given ?? (filled ??= levelArray(n, schema.columns[c]!.maxDef).fill(schema.columns[c]!.maxDef));
  const thrDef = new Int32Array(m);
  const thrRep = new Int32Array(m);
  const presentDef = new Int32Array(m);
  const count = new Int32Array(m + 1);
  // Monomorphic per-depth arrays: EMPTY stands for "not recorded at this depth".
  const validity: Uint8Array[] = [];
  const offsets: Int32Array[] = [];
  const clamps: Int32Array[] = [];
  const leaf = chain[m - 1]!.f;
  const leafDef = leaf.def;
  const src = vals[c]!;
  // Slot-aligned values need a scatter when some leaf slots have no value: a nullable leaf, or a
  // required leaf under a nullable struct (its slots exist for null structs too).
  const scatter = chain[m - 1]!.slotDef < leafDef;
  // every level at the max definition level: every slot at every depth is present (no validity needed)
  const noNulls = allDefined[c]!;
  // a deferred (flat optional) column's levels as bytes, which are its validity when they are all 0 or 1
  const levelBytes = deferred[c] && given instanceof Uint8Array && given.length >= n ? given.subarray(0, n) : undefined;
  for (let k = 0; k < m; k++) {
    const { f, slotDef } = chain[k]!;
    thrDef[k] = slotDef;
    thrRep[k] = f.repDepth;
    presentDef[k] = f.def;
    // (a column without nulls records no validity: nothing would read it)
    // (a deferred column's byte levels may be its validity themselves: the flat loop below decides, see there)
    validity.push(!noNulls && (f.nullable || (k === m - 1 && scatter)) ? (k === m - 1 && levelBytes ? levelBytes : new Uint8Array(n)) : EMPTY_U8);
    offsets.push(f.kind === 'list' || f.kind === 'map' ? new Int32Array(n + 1) : EMPTY_I32);
    clamps.push(f.kind === 'struct' && f.fields.length > 1 && f.def > slotDef ? new Int32Array(n) : EMPTY_I32);
  }
  const head = chain[0]!;
  if (head.check) checkAgainstStruct(a, c, head, levels, rep, n);
  // slots with a value, when a loop below counted them (-1: not counted)
  let known = -1;
  // present leaf slots counted by slots3/slots2 (-1: not counted); not `known`, which also says the flat loop checked the levels
  let counted = -1;
  // the level loops other than the flat one write the validity: not into the levels
  if (levelBytes !== undefined && validity[m - 1] === levelBytes && !(m <= 2 && isFlat(a, c, m, thrDef, validity, offsets, clamps))) validity[m - 1] = new Uint8Array(n);
  if (m === 3) {
    // Common shape, unrolled: struct > list/map > leaf (e.g. a top-level list<int32>).
    if (validity[0]!.length === 0 && offsets[0]!.length === 0 && clamps[0]!.length === 0 && thrDef[0] === thrDef[1] && thrRep[0] === thrRep[1] && offsets[1]!.length > 0 && clamps[1]!.length === 0) {
      // the root (records nothing, a slot wherever the list has one) > list/map > leaf: the list loop, and the root's slots are the list's
      counted = listLeaf(levels(), rep, n, 1, thrDef, thrRep, presentDef, validity, offsets, count);
      count[0] = count[1]!;
    } else {
      counted = slots3(levels(), rep, n, thrDef, thrRep, presentDef, validity, offsets, clamps, count);
    }
  } else if (m === 4 && validity[0]!.length === 0 && offsets[0]!.length === 0 && clamps[0]!.length === 0 && thrDef[0] === thrDef[1] && thrRep[0] === thrRep[1]) {
    // the root (records nothing, a slot wherever the next depth has one) > three depths (e.g. list<struct<...>>'s
    // first leaf): slots3 on those, and the root's slots are the next depth's. With slots1 below, readArrowTable of a
    // 1M-row list<struct<a: int32, b: string>> with nulls at every depth (DuckDB, 122,880-row groups): 188-194 ->
    // 132-137 ms (slotsAny before, its branch per depth and level)
    const from = (x: Int32Array): Int32Array => x.subarray(1);
    counted = slots3(levels(), rep, n, from(thrDef), from(thrRep), from(presentDef), validity.slice(1), offsets.slice(1), clamps.slice(1), count.subarray(1));
    count[0] = count[1]!;
  } else if (m === 1 && !isFlat(a, c, m, thrDef, validity, offsets, clamps)) {
    // the leaf alone, not flat: a later child of a struct inside a list, a map's values
    const v0 = validity[0]!;
    counted = slots1(levels(), rep, n, thrDef[0]!, thrRep[0]!, presentDef[0]!, v0.length > 0 ? v0 : new Uint8Array(n));
    count[0] = listSlots0;
    if (v0.length > 0) clearTail(v0, count[0]!);
  } else if (m === 2 && !isFlat(a, c, m, thrDef, validity, offsets, clamps)) {
    // Common shape, unrolled: list/map > leaf at the top level (e.g. list<string>)
    counted = offsets[0]!.length > 0 && clamps[0]!.length === 0
      ? listLeaf(levels(), rep, n, 0, thrDef, thrRep, presentDef, validity, offsets, count)
      : slots2(levels(), rep, n, thrDef, thrRep, presentDef, validity, offsets, clamps, count);
  } else if (isFlat(a, c, m, thrDef, validity, offsets, clamps)) {
    // Flat top-level column (root > leaf or the leaf alone, no repetition): one slot per level entry at every depth.
    const vl = validity[m - 1]!;
    if (deferred[c] && vl.length > 0) {
      // a flat optional column (max definition level 1) prepareColumns left unchecked: the levels are the
      // validity; their range is checked and the present slots counted in the same pass
      const def = given!;
      // byte levels (a reader's decoded ones) all 0 or 1 are the validity itself, not copied (the loop above made
      // the validity a view of them)
      if (vl === levelBytes) known = presentBits(vl, n);
      if (known < 0) {
        // other levels, or a level out of range to find
        const own = vl === levelBytes ? (validity[m - 1] = new Uint8Array(n)) : vl;
        const p = flatOptional(def, n, own);
        if (p < 0) throw defRangeError(schema.columns[c]!, def[-p - 1]!, -p - 1);
        known = p;
      }
    } else if (vl.length > 0 && !noNulls) {
      flatValidity(levels(), n, vl, presentDef[m - 1]!);
    }
    for (let k = 0; k < m; k++) count[k] = n;
  } else {
    slotsAny(levels(), rep, n, m, thrDef, thrRep, presentDef, validity, offsets, clamps, count);
  }
  // a deferred column always takes the flat loop; were it ever not to, its levels are checked here as prepareColumns would have
  if (deferred[c] && known < 0) validateColumnLevels(schema.columns[c]!, { def: given, values: src, numLevels: n });
  const leafSlots = count[m - 1]!;
  let out: ArrayLike<unknown> | BinaryValues | BooleanBits = src;
  const srcLength = valuesLength(src);
  let vi = leafSlots;
  if (scatter && !noNulls) {
    const present = validity[m - 1]!;
    if (known >= 0) vi = known;
    else if (counted >= 0) vi = counted;
    else vi = countPresent(present, leafSlots);
    // every slot has a value (no nulls): the decoder's array is already slot-aligned
    if (vi === srcLength && vi !== leafSlots) {
      out = isBinaryValues(src) ? scatterBinary(src, present, leafSlots) : isBooleanBits(src) ? scatterBits(src, present, leafSlots) : scatterValues(src, present, leafSlots);
    }
  }
  if (vi !== srcLength) {
    if (deferred[c]) throw valueCountError(schema.columns[c]!, vi, srcLength);
    throw structureError(leaf, c, n, `${vi} levels at the max definition level but ${srcLength} values`);
  }
  for (let k = 0; k < m; k++) {
    const f = chain[k]!.f;
    const len = count[k]!;
    const o = offsets[k]!.length > 0 ? offsets[k]! : null;
    if (o) o[len] = count[k + 1]!;
    const v = f.nullable && !noNulls ? validity[k]! : null;
    const cl = clamps[k]!;
    built.set(f, {
      clamp: cl.length > 0 ? cl : null,
      length: len,
      validity: v && v.length !== len ? v.subarray(0, len) : v,
      offsets: o && o.length !== len + 1 ? o.subarray(0, len + 1) : o,
      values: k === m - 1 ? out : null,
    });
  }
}

/**
 * Assembles columns into Arrow-style vectors.
 *
 * @param schema - the schema tree.
 * @param columns - levels and non-null values per column index (`undefined` for columns not read).
 * @param options - validation and expected row count (`maps` is ignored).
 * @returns the root struct vector, one slot per row. Arrays given may be part of it, not copied: a leaf's values
 *   when no slot is null, and the validity of a flat optional column (max definition level 1) whose levels are a
 *   `Uint8Array` of 0s and 1s is a view of those levels.
 * @throws ParquetError `INVALID_LEVELS` naming the column when levels are invalid or columns of one struct/list
 *   disagree on its length; `ROW_COUNT_MISMATCH` when columns disagree on the row count; `LIMIT_EXCEEDED` when the
 *   vectors are more than JavaScript can hold.
 */
export function assembleColumnar(
  schema: SchemaTree,
  columns: readonly (ColumnData | undefined)[],
  options?: AssembleOptions,
): StructVector {
  return withinEngineLimits('vectors', () => assembleColumnarOf(schema, columns, options));
}

function assembleColumnarOf(
  schema: SchemaTree,
  columns: readonly (ColumnData | undefined)[],
  options?: AssembleOptions,
): StructVector {
  // flat optional columns' levels are checked by the flat loop below, which reads each of them once anyway
  const { root, defs, allDefined, reps, vals, counts, rows, deferred } = prepareColumns(schema, columns, options, true, false, true, countLevelBytes);
  const built = new Map<Field, Built>();


  if (root.leaves.length === 0) return { kind: 'struct', field: root, length: 0, validity: null, children: [] };
  walk({ schema, root, defs, allDefined, reps, vals, counts, rows, deferred, built }, root, 0, []);

  const make = (f: Field): ColumnarVector => {
    const b = built.get(f)!;
    const base = { field: f, length: b.length, validity: b.validity };
    switch (f.kind) {
      case 'leaf': {
        const v = b.values!;
        if (isBooleanBits(v)) return { kind: 'leaf', ...base, values: v.bits, packed: true };
        if (!isBinaryValues(v)) return { kind: 'leaf', ...base, values: v };
        const lt = f.node.logicalType;
        return { kind: 'binary', ...base, offsets: v.offsets, data: v.data, utf8: !!(lt?.STRING || lt?.ENUM || lt?.JSON) };
      }
      case 'struct': {
        const children = f.fields.map(make);
        for (const ch of children) {
          if (ch.length !== b.length) {
            throw structureError(ch.field, ch.field.leaves[0]!, 0, `has ${ch.length} slots but its struct's first column gives ${b.length}`);
          }
        }
        return { kind: 'struct', ...base, children };
      }
      case 'list': {
        const element = make(f.element);
        return { kind: 'list', ...base, offsets: b.offsets!, element };
      }
      case 'map': {
        const keys = make(f.key);
        const values = f.value === undefined ? undefined : make(f.value);
        if (values && values.length !== keys.length) {
          throw structureError(values.field, values.field.leaves[0]!, 0, `has ${values.length} map values for ${keys.length} keys`);
        }
        return { kind: 'map', ...base, offsets: b.offsets!, keys, values };
      }
    }
  };
  const rootVec = make(root);
  return rootVec as StructVector;
}
