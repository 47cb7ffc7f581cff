/**
 * Shredding (the "record shredding" half of Dremel, as used by Parquet:
 * https://github.com/apache/parquet-format/blob/master/README.md#nested-encoding and
 * Melnik et al., "Dremel: Interactive Analysis of Web-Scale Datasets", VLDB 2010, §4.1):
 * nested JavaScript records → per-leaf definition levels, repetition levels and values.
 *
 * Record conventions: a struct is an object (a missing property reads as null), a list
 * is an array (or a typed array), a map is a `Map` or a plain object, and `null` or
 * `undefined` at any optional depth is null.
 *
 * Two implementations give the same output: {@link shredRecordsGeneric}, a direct recursive walk (the reference,
 * and the one that reports errors), and the fast path of {@link shredRecords}: rows read once each, top-level leaves
 * written inline into levels and values sized to the row count, other fields through a plan of one object shape
 * with lists of leaves unrolled. On any record the fast path does not accept it hands over to the generic walk,
 * which produces the same output or the error naming the first bad record.
 *
 * @module
 */
import { ParquetError } from '@parquetry/thrift-compact';
import type { Field, ListField, MapField, SchemaTree, StructField } from './schema.js';
import type { ShredScratch, ShreddedLeaf } from './shred-columnar.js';

/** The levels and non-null values of one column, as produced by shredding or page decoding. */
export interface ShreddedColumn {
  /**
   * Definition levels (`numLevels` used; from {@link shredRecords} exactly `numLevels` long, zeros when the column's
   * max definition level is 0).
   */
  def: Int32Array;
  /**
   * Repetition levels (`numLevels` used; from {@link shredRecords} exactly `numLevels` long, zeros when the column's
   * max repetition level is 0).
   */
  rep: Int32Array;
  /** Non-null leaf values in order (one per level equal to the column's max definition level). */
  values: unknown[];
  /** Number of level entries. */
  numLevels: number;
}

/** Options of {@link shredRecords}. */
export interface ShredOptions {
  /**
   * Leave out level arrays a writer does not need: `def` is `undefined` when every level is at the column's max
   * definition level (no nulls, no empty lists), `rep` when the max repetition level is 0. The result is then
   * {@link ShreddedLeaf}s, as from {@link shredColumnar}. Default false: both arrays always.
   */
  omitTrivialLevels?: boolean | undefined;
  /**
   * Memory reused call after call (a writer shredding slice after slice): the level and value arrays of nested
   * columns keep their size from one call to the next instead of growing again. The result's arrays then belong to
   * the scratch: they are valid until the next call with it. Default: every array is new.
   */
  scratch?: ShredScratch | undefined;
}

/** Where shredding is: row `row` of `rows` (for growing buffers by projection). */
interface Progress {
  row: number;
  rows: number;
}

/**
 * Growable levels and values of one column. The values array is allocated with the level capacity and written by
 * index (values never outnumber levels); when full, everything grows to the size the rows so far project for all
 * rows (at least 1.5×), so a column of 1M rows grows once or twice instead of a dozen times.
 */
class ColumnBuilder {
  def: Int32Array;
  rep: Int32Array;
  values: unknown[];
  numLevels = 0;
  /** Levels pushed below the max definition level. */
  stops = 0;
  /** Values written. */
  count = 0;

  constructor(capacity: number, readonly progress: Progress) {
    this.def = new Int32Array(capacity);
    this.rep = new Int32Array(capacity);
    this.values = new Array<unknown>(capacity);
  }

  /** Makes room for `extra` more levels (and values). */
  grow(extra: number): void {
    const n = this.numLevels;
    const { row, rows } = this.progress;
    const len = this.def.length;
    let cap = len + (len >> 1);
    // project from a fair sample of the rows, up to 4 levels per row (beyond that 2× at a time: a few huge lists
    // first must not make it allocate for the whole batch)
    if (rows > row && (row >= 4096 || row * 64 >= rows) && row > 0) {
      const projected = Math.min(Math.ceil((n / row) * rows * 1.1), Math.max(len * 2, rows * 4));
      if (projected > cap) cap = projected;
    }
    if (cap < n + extra) cap = n + extra;
    if (cap < 64) cap = 64;
    const nd = new Int32Array(cap);
    nd.set(this.def.subarray(0, n));
    this.def = nd;
    const nr = new Int32Array(cap);
    nr.set(this.rep.subarray(0, n));
    this.rep = nr;
    const vals = this.values;
    const nv = new Array<unknown>(cap);
    for (let i = 0; i < this.count; i++) nv[i] = vals[i];
    this.values = nv;
  }

  /** Empties the builder for a new call, keeping its memory. */
  reset(): void {
    this.numLevels = 0;
    this.stops = 0;
    this.count = 0;
  }

  /** Pushes a level at the max definition level with its value. */
  value(d: number, r: number, v: unknown): void {
    const n = this.numLevels;
    if (n === this.def.length) this.grow(1);
    this.def[n] = d;
    this.rep[n] = r;
    this.numLevels = n + 1;
    this.values[this.count++] = v;
  }

  /** Pushes a level below the max definition level (a null or an empty list/map). */
  stop(d: number, r: number): void {
    const n = this.numLevels;
    if (n === this.def.length) this.grow(1);
    this.def[n] = d;
    this.rep[n] = r;
    this.numLevels = n + 1;
    this.stops++;
  }
}

function recordError(field: Field, message: string, row: number): ParquetError {
  const path = field.node.path.join('.') || '<root>';
  return new ParquetError('INVALID_RECORD', `parquet-levels: ${message}, at field '${path}' of record ${row}`);
}

function isListValue(v: unknown): v is ArrayLike<unknown> {
  return Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
}

/** What a record value of field `f` is pushed with: the shared writer of both implementations. */
type Writer = (f: Field, v: unknown, r: number, parentDef: number) => void;

/** The recursive writer over `cols`; `rowOf()` names the record in messages. */
function genericWriter(cols: readonly ColumnBuilder[], progress: Progress): { write: Writer; writeStruct: (f: StructField, v: unknown, r: number) => void } {
  const rowOf = (): number => progress.row;
  const nulls = (f: Field, d: number, r: number): void => {
    const leaves = f.leaves;
    for (let i = 0; i < leaves.length; i++) cols[leaves[i]!]!.stop(d, r);
  };

  const write = (f: Field, v: unknown, r: number, parentDef: number): void => {
    if (v === null || v === undefined) {
      if (f.kind === 'list' && f.rule === 'unannotated-repeated') {
        nulls(f, f.def, r); // an absent unannotated repeated field has zero occurrences
        return;
      }
      if (!f.nullable) throw recordError(f, `required ${f.kind} is ${v === null ? 'null' : 'undefined'}`, rowOf());
      nulls(f, parentDef, r);
      return;
    }
    switch (f.kind) {
      case 'leaf': {
        cols[f.column]!.value(f.def, r, v);
        return;
      }
      case 'struct': writeStruct(f, v, r); return;
      case 'list': writeList(f, v, r); return;
      case 'map': writeMap(f, v, r); return;
    }
  };

  const writeStruct = (f: StructField, v: unknown, r: number): void => {
    if (!isStructValue(v)) throw recordError(f, `struct value is not an object (${describe(v)})`, rowOf());
    const obj = v as Record<string, unknown>;
    const fields = f.fields;
    for (let i = 0; i < fields.length; i++) {
      const c = fields[i]!;
      write(c, INHERITED.has(c.name) ? ownField(obj, c.name) : obj[c.name], r, f.def);
    }
  };

  const writeList = (f: ListField, v: unknown, r: number): void => {
    if (!isListValue(v)) throw recordError(f, `list value is not an array (${describe(v)})`, rowOf());
    const n = v.length;
    if (n === 0) {
      nulls(f, f.def, r);
      return;
    }
    const e = f.element;
    write(e, v[0], r, f.elementDef);
    for (let i = 1; i < n; i++) write(e, v[i], f.elementRep, f.elementDef);
  };

  const writeMap = (f: MapField, v: unknown, r: number): void => {
    let entries: Iterable<[unknown, unknown]>;
    if (v instanceof Map) entries = v as Map<unknown, unknown>;
    else if (typeof v === 'object' && !isListValue(v)) entries = Object.entries(v as object);
    else throw recordError(f, `map value is not a Map or object (${describe(v)})`, rowOf());
    let rr = r;
    let any = false;
    for (const [k, val] of entries) {
      write(f.key, k, rr, f.elementDef);
      if (f.value) write(f.value, val, rr, f.elementDef);
      rr = f.elementRep;
      any = true;
    }
    if (!any) nulls(f, f.def, r);
  };

  return { write, writeStruct };
}

/** A top-level leaf of the fast path: one level per row, levels only where a null made them necessary. */
class FlatLeaf {
  /** Definition levels, allocated at the first null (filled with the max up to it). */
  def: Int32Array | null = null;
  readonly values: unknown[];
  count = 0;

  constructor(readonly rows: number, readonly maxDef: number) {
    this.values = new Array<unknown>(rows);
  }

  /** Definition levels from row `i` on (the first null is at `i`). */
  firstNull(i: number): Int32Array {
    const def = new Int32Array(this.rows);
    def.fill(this.maxDef, 0, i);
    this.def = def;
    return def;
  }
}

/** Levels of exactly `n` entries (a view: at most the growth margin is kept). */
function exact(a: Int32Array, n: number): Int32Array {
  return n === a.length ? a : a.subarray(0, n);
}

/** Cuts the columns to their level counts and gives the requested form. */
function finish(schema: SchemaTree, cols: readonly (ColumnBuilder | FlatLeaf)[], omit: boolean): ShreddedColumn[] | ShreddedLeaf[] {
  return cols.map((c, i) => {
    const values = c.values;
    if (values.length !== c.count) values.length = c.count;
    if (c instanceof FlatLeaf) {
      const n = c.rows;
      if (omit) return { def: c.def ?? undefined, rep: undefined, values, numLevels: n };
      let def = c.def;
      if (def === null) {
        def = new Int32Array(n);
        if (c.maxDef !== 0) def.fill(c.maxDef);
      }
      return { def, rep: new Int32Array(n), values, numLevels: n };
    }
    const n = c.numLevels;
    const def = exact(c.def, n);
    const rep = exact(c.rep, n);
    if (!omit) return { def, rep, values, numLevels: n };
    return { def: c.stops === 0 ? undefined : def, rep: schema.columns[i]!.maxRep === 0 ? undefined : rep, values, numLevels: n };
  }) as ShreddedColumn[] | ShreddedLeaf[];
}

/**
 * The reference shredder: a direct recursive walk of each record. Same output and errors as {@link shredRecords}
 * (which hands over to it on any record its fast path does not accept); kept for that and as the tests' reference.
 *
 * @param schema - the schema tree ({@link buildSchemaTree}).
 * @param records - the records (objects for the root struct).
 * @param options - {@link ShredOptions}.
 * @returns one {@link ShreddedColumn} per leaf, in column order ({@link ShreddedLeaf}s with `omitTrivialLevels`).
 * @throws ParquetError `INVALID_RECORD` when a required value is null/undefined, a struct is not an object,
 *   a list is not an array, or a map is not a `Map`/object (the message names the field and record).
 */
export function shredRecordsGeneric(schema: SchemaTree, records: Iterable<unknown>, options?: ShredOptions): ShreddedColumn[] | ShreddedLeaf[] {
  // with an array, buffers grow by projection to the whole batch
  const progress: Progress = { row: 0, rows: Array.isArray(records) ? records.length : 0 };
  const cols = schema.columns.map(() => new ColumnBuilder(64, progress));
  const { writeStruct } = genericWriter(cols, progress);
  for (const rec of records) {
    writeStruct(schema.field, rec, 0);
    progress.row++;
  }
  return finish(schema, cols, options?.omitTrivialLevels === true);
}

// ---- fast path ------------------------------------------------------------------------------------------------

/** Plan codes. */
const Code = {
  /** A leaf. */
  LEAF: 0,
  /** A struct of planned children. */
  STRUCT: 1,
  /** A list of a planned element. */
  LIST: 2,
  /** A list of leaves, unrolled. */
  LIST_LEAF: 3,
  /** Anything else (maps): the generic writer. */
  GENERIC: 4,
} as const;

/** Thrown inside the fast path on a record it does not accept: the generic walk takes over. */
const HAND_OVER = Symbol('hand over to the generic shredder');

/**
 * Names that plain objects inherit from `Object.prototype` ('constructor', 'toString', '__proto__', …): a record
 * field with such a name is read only as an own property, so a missing one is null, not the inherited member.
 */
const INHERITED: ReadonlySet<string> = /*#__PURE__*/ new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__']);

/** Reads a record field that may be shadowed by an inherited member: own properties only. */
function ownField(obj: Record<string, unknown>, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, name) ? obj[name] : undefined;
}

/** One field of the fast path; every plan has this one shape. */
class Plan {
  readonly children: Plan[] = [];
  /** Leaf column (LEAF, LIST_LEAF). */
  readonly col: ColumnBuilder | null;
  /** Builders of every leaf under the field (for nulls and empty lists). */
  readonly leafCols: ColumnBuilder[];
  readonly name: string;
  /** The name is also an inherited member of plain objects: read it as an own property only. */
  readonly inherited: boolean;
  readonly nullable: boolean;
  readonly def: number;
  /** List: a null is an empty list (unannotated repeated field). */
  readonly nullIsEmpty: boolean;
  readonly elementDef: number;
  readonly elementRep: number;
  /** LIST_LEAF: element nullability and the leaf's definition level. */
  readonly elementNullable: boolean;
  readonly leafDef: number;

  constructor(readonly code: number, readonly field: Field, cols: readonly ColumnBuilder[]) {
    this.name = field.name;
    this.inherited = INHERITED.has(field.name);
    this.nullable = field.nullable;
    this.def = field.def;
    this.leafCols = field.leaves.map((c) => cols[c]!);
    this.col = field.kind === 'leaf' ? cols[field.column]! : null;
    this.nullIsEmpty = field.kind === 'list' && field.rule === 'unannotated-repeated';
    this.elementDef = field.kind === 'list' || field.kind === 'map' ? field.elementDef : 0;
    this.elementRep = field.kind === 'list' || field.kind === 'map' ? field.elementRep : 0;
    const e = field.kind === 'list' && field.element.kind === 'leaf' ? field.element : undefined;
    this.elementNullable = e?.nullable ?? false;
    this.leafDef = e?.def ?? field.def;
    if (e) this.col = cols[e.column]!;
  }
}

function plan(f: Field, cols: readonly ColumnBuilder[]): Plan {
  switch (f.kind) {
    case 'leaf': return new Plan(Code.LEAF, f, cols);
    case 'struct': {
      const p = new Plan(Code.STRUCT, f, cols);
      for (const c of f.fields) p.children.push(plan(c, cols));
      return p;
    }
    case 'list': {
      if (f.element.kind === 'leaf') return new Plan(Code.LIST_LEAF, f, cols);
      const p = new Plan(Code.LIST, f, cols);
      p.children.push(plan(f.element, cols));
      return p;
    }
    case 'map': return new Plan(Code.GENERIC, f, cols);
  }
}

/**
 * What a struct value may be, in one test: an object, but not an array, typed array, Map, Set or Date (a Date or Set
 * has no own properties, so it would be written as a struct of nulls without a word).
 */
function isStructValue(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v) && !(v instanceof Map) && !(v instanceof Date) && !(v instanceof Set);
}

function nullsOf(p: Plan, d: number, r: number): void {
  const cols = p.leafCols;
  for (let i = 0; i < cols.length; i++) cols[i]!.stop(d, r);
}

/** Writes list `v` (not null) of plan `p`, a list of leaves: one loop over the elements. */
function writeListOfLeaves(p: Plan, v: unknown, r: number): void {
  if (!Array.isArray(v) && !isListValue(v)) throw HAND_OVER;
  const len = v.length;
  const c = p.col!;
  if (len === 0) {
    c.stop(p.def, r);
    return;
  }
  if (c.numLevels + len > c.def.length) c.grow(len);
  const def = c.def;
  const rep = c.rep;
  const vals = c.values;
  const ld = p.leafDef;
  const ed = p.elementDef;
  const er = p.elementRep;
  let n = c.numLevels;
  let k = c.count;
  for (let j = 0; j < len; j++) {
    const e: unknown = v[j];
    if (e === null || e === undefined) {
      if (!p.elementNullable) throw HAND_OVER;
      def[n] = ed;
    } else {
      def[n] = ld;
      vals[k++] = e;
    }
    rep[n] = j === 0 ? r : er;
    n++;
  }
  c.stops += len - (k - c.count);
  c.numLevels = n;
  c.count = k;
}

/** Writes value `v` of plan `p` (the fast path's counterpart of the generic `write`). */
function writePlan(p: Plan, v: unknown, r: number, parentDef: number, generic: Writer): void {
  if (v === null || v === undefined) {
    if (p.nullIsEmpty) nullsOf(p, p.def, r);
    else if (p.nullable) nullsOf(p, parentDef, r);
    else throw HAND_OVER;
    return;
  }
  switch (p.code) {
    case Code.LEAF: {
      p.col!.value(p.def, r, v);
      return;
    }
    case Code.STRUCT: {
      if (!isStructValue(v)) throw HAND_OVER;
      const ch = p.children;
      for (let i = 0; i < ch.length; i++) {
        const c = ch[i]!;
        writePlan(c, c.inherited ? ownField(v, c.name) : v[c.name], r, p.def, generic);
      }
      return;
    }
    case Code.LIST_LEAF:
      writeListOfLeaves(p, v, r);
      return;
    case Code.LIST: {
      if (!Array.isArray(v) && !isListValue(v)) throw HAND_OVER;
      const len = v.length;
      if (len === 0) {
        nullsOf(p, p.def, r);
        return;
      }
      const e = p.children[0]!;
      const ed = p.elementDef;
      writePlan(e, v[0], r, ed, generic);
      for (let j = 1; j < len; j++) writePlan(e, v[j], p.elementRep, ed, generic);
      return;
    }
    default:
      generic(p.field, v, r, parentDef);
  }
}

/**
 * Shreds records into one level/value stream per leaf column.
 *
 * Each record is read once; top-level leaves go straight into levels and values sized to the row count, and lists
 * of leaves are written in one loop. A record the fast path does not accept (a typed array or `Map` where it does
 * not expect one, a bad value) is handed to the generic recursive walk, so the output and errors are exactly the
 * generic walk's.
 *
 * @param schema - the schema tree ({@link buildSchemaTree}).
 * @param records - the records (objects for the root struct).
 * @returns one {@link ShreddedColumn} per leaf, in column order, levels exactly `numLevels` long.
 * @throws ParquetError `INVALID_RECORD` when a required value is null/undefined, a struct is not an object,
 *   a list is not an array, or a map is not a `Map`/object (the message names the field and record).
 */
export function shredRecords(schema: SchemaTree, records: Iterable<unknown>): ShreddedColumn[];
/**
 * Shreds records into one level/value stream per leaf column, leaving out trivial level arrays when asked.
 *
 * @param schema - the schema tree ({@link buildSchemaTree}).
 * @param records - the records (objects for the root struct).
 * @param options - `omitTrivialLevels: true` gives {@link ShreddedLeaf}s: `def` undefined when every level is at the
 *   max, `rep` undefined when the max repetition level is 0.
 * @returns one {@link ShreddedLeaf} per leaf, in column order.
 * @throws ParquetError `INVALID_RECORD` as for the other overload.
 */
export function shredRecords(schema: SchemaTree, records: Iterable<unknown>, options: ShredOptions): ShreddedLeaf[];
export function shredRecords(schema: SchemaTree, records: Iterable<unknown>, options?: ShredOptions): ShreddedColumn[] | ShreddedLeaf[] {
  const rows: readonly unknown[] = Array.isArray(records) ? records : Array.from(records);
  try {
    return shredFast(schema, rows, options?.omitTrivialLevels === true, options?.scratch);
  } catch (e) {
    if (e !== HAND_OVER && !(e instanceof ParquetError)) throw e;
    return shredRecordsGeneric(schema, rows, options);
  }
}

/** What a {@link ShredScratch} keeps for {@link shredRecords}: the builders of nested columns and their plans. */
interface RecordState {
  readonly schema: SchemaTree;
  readonly progress: Progress;
  /** One builder per nested column (undefined for top-level leaves). */
  readonly builders: (ColumnBuilder | undefined)[];
  readonly plans: Plan[];
}

/** The record-shredding state of each scratch (kept apart from its columnar buffers). */
const recordStates = /*#__PURE__*/ new WeakMap<ShredScratch, RecordState>();

/** Builders of the nested columns and the plans of the top-level fields (empty builders, sized for `nRows`). */
function recordState(schema: SchemaTree, nRows: number, scratch: ShredScratch | undefined): RecordState {
  let state = scratch === undefined ? undefined : recordStates.get(scratch);
  if (state !== undefined && state.schema === schema) {
    state.progress.row = 0;
    state.progress.rows = nRows;
    const b = state.builders;
    for (let c = 0; c < b.length; c++) b[c]?.reset();
    return state;
  }
  const top = schema.field.fields;
  const progress: Progress = { row: 0, rows: nRows };
  const builders = new Array<ColumnBuilder | undefined>(schema.columns.length).fill(undefined);
  const flat = new Set<number>();
  for (const f of top) if (f.kind === 'leaf') flat.add(f.column);
  const initial = Math.max(64, Math.min(nRows, 1 << 16));
  for (let c = 0; c < builders.length; c++) if (!flat.has(c)) builders[c] = new ColumnBuilder(initial, progress);
  const plans = top.map((f) => plan(f, builders as ColumnBuilder[]));
  state = { schema, progress, builders, plans };
  if (scratch !== undefined) recordStates.set(scratch, state);
  return state;
}

function shredFast(schema: SchemaTree, rows: readonly unknown[], omit: boolean, scratch: ShredScratch | undefined): ShreddedColumn[] | ShreddedLeaf[] {
  const nRows = rows.length;
  const top = schema.field.fields;
  const { progress, builders: nested, plans } = recordState(schema, nRows, scratch);
  const cols = new Array<ColumnBuilder | FlatLeaf>(schema.columns.length);
  // a top-level leaf has exactly one level per row: values sized once, levels only if needed
  for (const f of top) if (f.kind === 'leaf') cols[f.column] = new FlatLeaf(nRows, f.def);
  for (let c = 0; c < cols.length; c++) cols[c] ??= nested[c]!;
  // nested leaves are all builders
  const builders = cols as ColumnBuilder[];
  const flats = top.map((f) => (f.kind === 'leaf' ? (cols[f.column] as FlatLeaf) : null));
  const nTop = plans.length;
  const { write } = genericWriter(builders, progress);
  for (let i = 0; i < nRows; i++) {
    const rec = rows[i];
    if (!isStructValue(rec)) throw HAND_OVER;
    progress.row = i;
    for (let k = 0; k < nTop; k++) {
      const p = plans[k]!;
      const v = p.inherited ? ownField(rec, p.name) : rec[p.name];
      const fl = flats[k];
      if (fl) {
        // top-level leaf: level i is the max unless null (then 0, and the levels exist from here on)
        if (v === null || v === undefined) {
          if (!p.nullable) throw HAND_OVER;
          if (fl.def === null) fl.firstNull(i);
        } else {
          if (fl.def !== null) fl.def[i] = p.def;
          fl.values[fl.count++] = v;
        }
      } else if (p.code === Code.LIST_LEAF && v !== null && v !== undefined) {
        writeListOfLeaves(p, v, 0);
      } else {
        writePlan(p, v, 0, 0, write);
      }
    }
  }
  return finish(schema, cols, omit);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? (v.constructor?.name ?? 'object') : typeof v;
}
