/**
 * The writer: row objects (in the shape the reader returns them) or columnar vectors (the reader's
 * `readRowGroupColumns` output) → levels and physical values per leaf → column writers → row groups laid out in a
 * sink, then the footer. Memory stays bounded by about one row group's compressed pages plus one open page per
 * column: a row group is written to the sink as soon as it is closed.
 *
 * A value that does not fit its column is a ParquetError naming the column path and row; the writer is then
 * failed, the sink aborted, and no footer is ever written, so nothing that looks like a valid file is left.
 *
 * The streaming writer's calls are queued, as a WHATWG WritableStream queues its writes: each call starts after the
 * one before it settled, so calls that overlap (not awaited one by one) write what awaiting each in turn writes.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (file layout, metadata).
 * @module
 */
import { columnOrderOf, fromJsValues, valueComparator, type ValueComparator } from '@parquetry/parquet-column/write';
import type { ColumnValues } from '@parquetry/parquet-encodings';
import {
  buildSchemaTree,
  isBinaryValues,
  shredColumnar,
  ShredScratch,
  shredRecords,
  type ColumnDescriptor,
  type ColumnarVector,
  type Field,
  type SchemaNode,
  type SchemaTree,
  type StructVector,
} from '@parquetry/parquet-levels';
import { ParquetError, Type, TypeNames, isParquetError, writeColumnIndex, writeColumnMetaData, writeOffsetIndex, type ColumnIndex, type OffsetIndex, type KeyValue, type FileMetaData, type RowGroup, type SchemaElement, type SortingColumn } from '@parquetry/thrift-compact';
import { ColumnWriter, type ClosedChunk, type JsValues } from './column-writer.js';
import { MAGIC, layOutRowGroup, plainFileTail, thriftBytes } from './layout.js';
import { ambiguousPath, checkWriterOptions, namedPaths, nearestPath, resolveOptions, type ResolvedOptions, type WriteOptions } from './options.js';
import { schemaElements, schemaFromElements, type SchemaSpec } from './schema.js';
import { inferRowSchema, type InferOptions, type InferredSchema } from './schema-infer.js';
import { Arena, memorySink, sinkAlloc, sinkRecycles, type ByteSink } from './sink.js';
import { variantRowEncoder } from './variant.js';
import { appendTarget, type AppendTarget } from './append.js';
import { ModuleType, type ColumnEncryptor, type FileEncryptionProperties, type FileEncryptor } from '@parquetry/parquet-crypto';

/** A schema as the writer accepts it. */
export type WriterSchema = SchemaSpec | readonly SchemaElement[] | SchemaTree;

/** Options of the streaming writer and {@link writeParquet}. */
export interface WriterOptions extends WriteOptions {
  /**
   * The schema: field specs (see `field`), a file's `SchemaElement` list or the reader's schema tree (to copy a
   * file's schema). When absent, it is inferred from the first rows written (see `inferSchema`).
   */
  schema?: WriterSchema;
  /** Options of schema inference (overrides by field, sample size) when `schema` is absent. */
  infer?: InferOptions;
  /**
   * Modular encryption (Encryption.md; `@parquetry/parquet-crypto`, loaded only when this is set): AES_GCM_V1 or
   * AES_GCM_CTR_V1, encrypted footer or signed plaintext footer, every column with the footer key or only the
   * columns given in `columnKeys` (the others stay plaintext), AAD prefix stored or left for readers to supply.
   * Every module is encrypted with its own AAD: page headers and pages, dictionary pages, column metadata, column and
   * offset indexes, bloom filter headers and bitsets.
   */
  encryption?: FileEncryptionProperties;
  /**
   * Append to an existing file (see {@link appendTarget}): the sink must already hold the file's bytes up to
   * `dataEnd`; the old row groups are kept, new ones follow, and a new footer listing all of them is written last.
   * The schema is the existing file's (a `schema` option must equal it).
   */
  append?: AppendTarget;
}

/** A row object: one property per top-level field. */
export type Row = Readonly<Record<string, unknown>>;

/** Columnar input: the reader's struct vector of a row group, or one vector per top-level field by name. */
export type ColumnarInput = StructVector | Readonly<Record<string, ColumnarVector>>;

/**
 * A streaming Parquet writer over a {@link ByteSink}.
 *
 * Calls run one after another in the order they were made, whether or not the caller awaits each before the next
 * (as a WHATWG `WritableStream` queues writes): `Promise.all([w.write(a), w.write(b)])` then `w.close()` writes the
 * file that awaiting each call in turn writes, and `close()` waits for the writes called before it. Once a call
 * failed, the writer is failed and the sink aborted: every later call rejects `WRITER_FAILED` (its cause the first
 * error) and no footer is written. A call after `close()` rejects `WRITER_CLOSED`.
 */
export interface ParquetWriter {
  /** The schema tree, once known (after the first write when it is inferred). */
  readonly schema: SchemaTree | undefined;
  /**
   * Writes rows; row groups are written to the sink as they fill.
   * @param rows - row objects, in the shape the reader returns: an array, or an iterable or async iterable of them.
   * @throws ParquetError `INVALID_VALUE` / `INVALID_RECORD` naming the column and row, `INVALID_ARGUMENT` for `rows`
   *   that is not an array or iterable; the writer is then failed and the sink aborted — also when the iterable itself
   *   throws (that error as is), so the rows it gave before failing never reach a file that looks whole.
   *   `WRITER_FAILED` after a failed call or `abort()`, `WRITER_CLOSED` after `close()`, `WRITER_ABORTED` when
   *   `abort()` stopped it under way; a sink's error as is.
   */
  write(rows: Iterable<Row> | AsyncIterable<Row>): Promise<void>;
  /**
   * Writes columnar data (copies a file's columns without per-value conversion where the types allow).
   * @param columns - the reader's vectors: its struct vector of a row group, or one vector per top-level field by name.
   * @throws ParquetError as {@link ParquetWriter.write}; `INVALID_ARGUMENT` for input that is not an object;
   *   `INVALID_VECTOR` for a name that is not a top-level field, a field without a vector, a value that is not a
   *   vector, vectors of different lengths, or vectors that do not fit the schema; `SCHEMA_REQUIRED` for vectors by
   *   name without the schema option.
   */
  writeColumns(columns: ColumnarInput): Promise<void>;
  /**
   * Closes the current row group (even when it is not full).
   * @throws ParquetError `WRITER_FAILED` / `WRITER_CLOSED` as {@link ParquetWriter.write}; a sink's error as is.
   */
  flushRowGroup(): Promise<void>;
  /**
   * Writes the last row group and the footer, then closes the sink; runs after the calls made before it.
   * @returns the FileMetaData written.
   * @throws ParquetError `WRITER_FAILED` when a call before it failed (no footer is written), `WRITER_CLOSED` when
   *   called twice, `SCHEMA_REQUIRED` for a file without rows and without a schema; a sink's error as is.
   */
  close(): Promise<FileMetaData>;
  /**
   * Abandons the file: calls not yet started reject `WRITER_FAILED`, a write under way stops at its next row group
   * (rejecting `WRITER_ABORTED`), then the sink is aborted (which removes what it wrote where it can). Resolves when the sink is aborted; does
   * nothing after a successful `close()` or a failure (the sink was aborted then). Idempotent.
   * @param reason - why.
   */
  abort(reason?: unknown): Promise<void>;
}

function isTree(s: WriterSchema): s is SchemaTree {
  return !Array.isArray(s) && typeof (s as SchemaTree).columns === 'object' && Array.isArray((s as SchemaTree).elements);
}

function treeOf(schema: WriterSchema): SchemaTree {
  if (Array.isArray(schema)) return buildSchemaTree(schemaFromElements(schema as readonly SchemaElement[]));
  if (isTree(schema as WriterSchema)) return buildSchemaTree(schemaFromElements(schema as SchemaTree));
  return buildSchemaTree(schemaElements(schema as SchemaSpec));
}

function flattenNode(n: SchemaNode, out: SchemaElement[]): void {
  out.push(n.element);
  for (const c of n.children) flattenNode(c, out);
}

/**
 * Rows shredded at once. Small enough that the per-slice arrays of values (one element per row) stay in V8's young
 * generation and die there: larger slices put them in the large-object space, where they cost major collections of
 * a heap that holds the caller's row objects (measured: ~10% of a 1M-row write).
 */
const ROW_SLICE = 8192;

/** Rows of columnar input shredded at once (views of the caller's arrays: no per-row garbage). */
const COLUMN_SLICE = 65536;

/** Rows of the first slice of a file: then the slices are sized by the bytes a row takes (see `Engine.room`). */
const FIRST_SLICE = 64;

/** Finds the row of the `k`-th non-null value of a shredded column (only on the error path). */
function rowOfValue(def: ArrayLike<number> | undefined, rep: ArrayLike<number> | undefined, maxDef: number, numLevels: number, k: number): number {
  let row = -1;
  let seen = -1;
  for (let i = 0; i < numLevels; i++) {
    if (rep === undefined || rep[i] === 0) row++;
    if (def === undefined || def[i] === maxDef) {
      seen++;
      if (seen === k) return row;
    }
  }
  return row;
}

/** A sort column checked by `checkSorting`: its leaf, declared order and comparator. */
interface SortKey {
  name: string;
  column: ColumnDescriptor;
  descending: boolean;
  nullsFirst: boolean;
  compare: ValueComparator;
}

const HEX = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** Value `i` of a column's physical values, for a message (text as a JSON string, other bytes in hex). */
function shown(col: ColumnDescriptor, v: ColumnValues, i: number): string {
  if (v instanceof Int32Array) return String(col.node.logicalType?.INTEGER?.isSigned === false ? v[i]! >>> 0 : v[i]!);
  if (v instanceof BigInt64Array) return String(col.node.logicalType?.INTEGER?.isSigned === false ? BigInt.asUintN(64, v[i]!) : v[i]!);
  if (v instanceof Float32Array || v instanceof Float64Array) return Object.is(v[i], -0) ? '-0' : String(v[i]!);
  if (v instanceof Uint8Array) return v[i] ? 'true' : 'false';
  const [s, e] = 'offsets' in v ? [v.offsets[i]!, v.offsets[i + 1]!] : [i * v.width, (i + 1) * v.width];
  const bytes = v.data.subarray(s, e);
  const lt = col.node.logicalType;
  if (lt?.STRING || lt?.ENUM || lt?.JSON) return JSON.stringify(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes));
  return `0x${HEX(bytes.subarray(0, 32))}${bytes.length > 32 ? '…' : ''}${lt?.DECIMAL ? ' (unscaled)' : ''}`;
}

/**
 * The leaf a sort column names (a dotted path, or field names as an array or JSON array text).
 * @throws ParquetError `UNKNOWN_COLUMN` for no leaf, `AMBIGUOUS_COLUMN` for a dotted path naming two.
 */
function sortLeaf(tree: SchemaTree, column: string | readonly string[]): ColumnDescriptor {
  const name = typeof column === 'string' ? column : JSON.stringify(column);
  const leaves = namedPaths(column, tree.columns).flatMap((p) => tree.columns.filter((c) => c.path.length === p.length && c.path.every((x, i) => x === p[i])));
  if (leaves.length > 1) throw ambiguousPath('sorting column', name, leaves.map((c) => c.path));
  if (leaves.length === 0) throw new ParquetError('UNKNOWN_COLUMN', `parquet-writer: sorting column '${name}' is not a leaf column of the schema`);
  return leaves[0]!;
}

/**
 * Every `columnKeys` entry of the encryption must name a leaf column by its dotted path: a column whose key is
 * misspelt, or given for a group, would otherwise be written in plaintext without a word (pyarrow refuses such a
 * key too: "Encrypted column … not in file schema").
 * @throws ParquetError `UNKNOWN_COLUMN` naming the key and the nearest leaf path, or the leaves under a group.
 */
function checkColumnKeys(keys: Readonly<Record<string, unknown>> | undefined, tree: SchemaTree): void {
  if (keys === undefined) return;
  const leaves = tree.columns.map((c) => c.pathString);
  for (const name of Object.keys(keys)) {
    if (leaves.includes(name)) continue;
    const under = tree.columns.filter((c) => namedPaths(name, [c]).some((p) => p.length < c.path.length)).map((c) => c.pathString);
    const hint = under.length > 0 ? `it is a group: give a key for each of its leaf columns (${under.join(', ')})` : `columns are named by their dotted leaf path${nearestPath(name, leaves) === undefined ? '' : ` (nearest: '${nearestPath(name, leaves)!}')`}`;
    throw new ParquetError('UNKNOWN_COLUMN', `parquet-writer: encryption columnKeys '${name}' is not a leaf column of the schema, so that column would be written unencrypted; ${hint}`);
  }
}

/** The writing engine: synchronous, producing closed row groups. */
class Engine {
  readonly columns: ColumnWriter[];
  /** The memory of columnar slices' shredded levels and compacted values, reused slice after slice. */
  private readonly shredScratch = new ShredScratch();
  rowsInGroup = 0;
  totalRows = 0;
  /** Closed row groups not yet written, each with the arena its page bodies are in (when the sink recycles them). */
  readonly ready: { chunks: ClosedChunk[]; rows: number; arena: Arena | undefined }[] = [];
  /** The arena of this row group's page bodies, when each row group gets its own (a sink that recycles chunks). */
  private arena: Arena | undefined;
  /** Sort keys to check rows against (`checkSorting`). */
  sortKeys: SortKey[] | undefined;
  /** When the schema was inferred: the check of rows for keys it lacks (which would be dropped). */
  checkKeys: InferredSchema['checkKeys'] | undefined;
  /** Turns decoded VARIANT values into their stored groups (undefined when the schema has no VARIANT). */
  private readonly encodeVariants: ((rows: readonly Row[], firstRow?: number) => Record<string, unknown>[]) | undefined;

  /**
   * @param tree - the schema.
   * @param o - resolved options.
   * @param alloc - where page bodies go: the sink's arena (a memory sink), `'per-row-group'` (an arena per row group,
   *   released once the row group is written: a sink that recycles chunks), else a new array per page.
   */
  constructor(
    readonly tree: SchemaTree,
    readonly o: ResolvedOptions,
    alloc?: ((length: number) => Uint8Array) | 'per-row-group',
  ) {
    o.checkColumns(tree.columns);
    if (alloc === 'per-row-group') {
      this.arena = new Arena();
      alloc = (length) => this.arena!.alloc(length);
    }
    this.columns = tree.columns.map((c) => new ColumnWriter(c, alloc ? { ...o.column(c), alloc } : o.column(c)));
    this.encodeVariants = variantRowEncoder(tree, o.rawVariants);
  }

  private bufferedBytes(): number {
    let n = 0;
    for (const c of this.columns) n += c.bufferedBytes;
    return n;
  }

  /** Buffered bytes per row of the rows written so far (this row group's, else the last one's); 0 before any. */
  private bytesPerRow = 0;

  /**
   * Rows of the next slice: at most `slice`, no more than the row group holds by row count, and — since the byte
   * limit is checked between slices — about as many as its bytes still hold, at the bytes per row written so far
   * (the first slice of a write is {@link FIRST_SLICE} rows, to learn that), so that a slice of wide rows never
   * overshoots `rowGroupBytes` or holds more than a row group's worth of them. parquet-java likewise re-checks the
   * buffered size at an interval it adapts to the row size.
   */
  room(slice: number): number {
    const rows = Math.min(slice, this.o.rowGroupRows - this.rowsInGroup);
    if (this.bytesPerRow === 0) return Math.min(rows, FIRST_SLICE);
    const fit = Math.floor((this.o.rowGroupBytes - this.bufferedBytes()) / this.bytesPerRow);
    return Math.max(1, Math.min(rows, fit));
  }

  private afterRows(n: number): void {
    this.rowsInGroup += n;
    this.totalRows += n;
    const bytes = this.bufferedBytes();
    if (bytes > 0) this.bytesPerRow = bytes / this.rowsInGroup;
    if (this.rowsInGroup >= this.o.rowGroupRows || bytes >= this.o.rowGroupBytes) this.closeRowGroup();
  }

  closeRowGroup(): void {
    if (this.rowsInGroup === 0) return;
    this.ready.push({ chunks: this.columns.map((c) => c.close()), rows: this.rowsInGroup, arena: this.arena });
    if (this.arena !== undefined) this.arena = new Arena();
    this.rowsInGroup = 0;
    this.lastKey = undefined;
  }

  /**
   * The sort key of the last row checked in this row group (for `checkSorting`): per key column, the physical values
   * of its slice and the row's value index in them (-1 for null). Undefined before the group's first row.
   */
  private lastKey: { values: readonly ColumnValues[]; index: Int32Array } | undefined;

  /**
   * Checks that the rows of a slice continue the declared sort order of the row group, comparing the values as they
   * are written (their physical values, in the column's sort order), not as they were given.
   * @param values - per sort key, the non-null physical values of the slice's rows in its column.
   * @param defs - per sort key, the rows' definition levels (undefined: every row has a value).
   * @param rows - rows in the slice.
   * @param rowBase - the file row of the slice's first row.
   * @throws ParquetError `NOT_SORTED` naming the column, the row and both values.
   */
  checkSorted(values: readonly ColumnValues[], defs: readonly (ArrayLike<number> | undefined)[], rows: number, rowBase: number): void {
    const keys = this.sortKeys!;
    const nk = keys.length;
    const next = new Int32Array(nk);
    const cur = new Int32Array(nk);
    // the previous row's values (the last group row's, before the slice's first) and their indexes
    let prevValues: readonly ColumnValues[] | undefined = this.lastKey?.values;
    const prevIndex = this.lastKey ? Int32Array.from(this.lastKey.index) : new Int32Array(nk);
    for (let r = 0; r < rows; r++) {
      for (let k = 0; k < nk; k++) {
        const def = defs[k];
        if (def === undefined || def[r] === keys[k]!.column.maxDef) {
          cur[k] = next[k]!;
          next[k] = next[k]! + 1;
        } else cur[k] = -1;
      }
      if (prevValues) {
        for (let k = 0; k < nk; k++) {
          const { name, column, descending, nullsFirst, compare } = keys[k]!;
          const ia = prevIndex[k]!;
          const ib = cur[k]!;
          let c: number;
          if (ia < 0 || ib < 0) c = ia < 0 && ib < 0 ? 0 : (ia < 0) === nullsFirst ? -1 : 1;
          else {
            c = compare(prevValues[k]!, ia, values[k]!, ib);
            if (c !== c) throw new ParquetError('NOT_SORTED', `parquet-writer: sorting column '${name}': row ${rowBase + r}: cannot order ${shown(column, values[k]!, ib)} after ${shown(column, prevValues[k]!, ia)} (NaN has no place in a sort order)`);
            if (descending) c = -c;
          }
          if (c < 0) break;
          if (c > 0) {
            const was = ia < 0 ? 'null' : shown(column, prevValues[k]!, ia);
            const now = ib < 0 ? 'null' : shown(column, values[k]!, ib);
            throw new ParquetError('NOT_SORTED', `parquet-writer: sorting column '${name}': row ${rowBase + r} (${now}) is out of the declared ${descending ? 'descending' : 'ascending'} order${ia < 0 || ib < 0 ? ` (nulls ${nullsFirst ? 'first' : 'last'})` : ''} after ${was}`);
          }
        }
      }
      prevValues = values;
      prevIndex.set(cur);
    }
    if (prevValues) this.lastKey = { values: prevValues, index: prevIndex };
  }

  /** The sort keys' physical values and definition levels of a shredded slice, then the check (`checkSorting`). */
  private checkSlice(leaves: readonly { def?: ArrayLike<number> | undefined; rep?: ArrayLike<number> | undefined; values: unknown; numLevels: number }[], rows: number, rowBase: number): void {
    const keys = this.sortKeys!;
    const values: ColumnValues[] = [];
    const defs: (ArrayLike<number> | undefined)[] = [];
    for (const key of keys) {
      const s = leaves[key.column.index]!;
      const v = this.values(key.column, s.values as ArrayLike<unknown>, s.def, s.rep, s.numLevels, rowBase);
      values.push('kind' in v ? v.convert(v.values) : v);
      defs.push(key.column.maxDef > 0 ? s.def : undefined);
    }
    this.checkSorted(values, defs, rows, rowBase);
  }

  private values(col: ColumnDescriptor, values: ArrayLike<unknown> | { offsets: Int32Array; data: Uint8Array }, def: ArrayLike<number> | undefined, rep: ArrayLike<number> | undefined, numLevels: number, rowBase: number): ColumnValues | JsValues {
    if (isBinaryValues(values as ArrayLike<unknown>)) {
      if (col.type === Type.BYTE_ARRAY) {
        // as they are, text columns' values checked for UTF-8 (fromJsValues)
        const v = values as { offsets: Int32Array; data: Uint8Array };
        return fromJsValues(v, 0, v.offsets.length - 1, col, { strictUtf8: this.o.strictUtf8 }, (k) => rowBase + rowOfValue(def, rep, col.maxDef, numLevels, k));
      }
      throw new ParquetError('INVALID_VALUE', `parquet-writer: column '${col.pathString}': binary vector given for a ${TypeNames[col.type] ?? col.type} column`);
    }
    const arr = values as ArrayLike<unknown>;
    const lt = col.node.logicalType;
    if (col.type === Type.BYTE_ARRAY && Array.isArray(arr) && (lt?.STRING || lt?.ENUM || lt?.JSON)) {
      // text from JavaScript strings: the column writer interns them while its chunk is dictionary-encoded
      const opts = { strictUtf8: this.o.strictUtf8 };
      return {
        kind: 'js',
        values: arr,
        convert: (v, at) => fromJsValues(v, 0, v.length, col, opts, (k) => rowBase + rowOfValue(def, rep, col.maxDef, numLevels, at ? at[k]! : k)),
      };
    }
    return fromJsValues(arr, 0, arr.length, col, { strictUtf8: this.o.strictUtf8 }, (k) => rowBase + rowOfValue(def, rep, col.maxDef, numLevels, k));
  }

  /** Writes rows `[start, end)` of `rows` (at most {@link ROW_SLICE}, within the row group). */
  writeRowSlice(rows: readonly Row[], start: number, end: number): void {
    const rowBase = this.totalRows;
    if (this.checkKeys) this.checkKeys(rows, start, end, rowBase);
    let slice = start === 0 && end === rows.length ? rows : rows.slice(start, end);
    if (this.encodeVariants) slice = this.encodeVariants(slice, rowBase);
    let shredded;
    try {
      // the leaves are consumed before the next slice: nested columns' arrays reuse one scratch
      shredded = shredRecords(this.tree, slice, { omitTrivialLevels: true, scratch: this.shredScratch });
    } catch (e) {
      throw relocate(e, rowBase);
    }
    if (this.sortKeys) this.checkSlice(shredded, end - start, rowBase);
    const cols = this.tree.columns;
    for (let i = 0; i < cols.length; i++) {
      const s = shredded[i]!;
      const col = cols[i]!;
      const values = this.values(col, s.values, s.def, s.rep, s.numLevels, rowBase);
      this.columns[i]!.write({ def: col.maxDef > 0 ? s.def : undefined, rep: col.maxRep > 0 ? s.rep : undefined, numLevels: s.numLevels, values });
    }
    this.afterRows(end - start);
  }

  /** Writes rows `[start, end)` of columnar input. */
  writeColumnSlice(root: StructVector | readonly ColumnarVector[], start: number, end: number): void {
    const rowBase = this.totalRows;
    // the leaves are consumed before the next slice: their level and value arrays reuse one scratch
    const leaves = shredColumnar(this.tree, root, start, end, this.shredScratch);
    if (this.sortKeys) this.checkSlice(leaves, end - start, rowBase);
    const cols = this.tree.columns;
    for (let i = 0; i < cols.length; i++) {
      const s = leaves[i]!;
      const col = cols[i]!;
      const values = this.values(col, s.values, s.def, s.rep, s.numLevels, rowBase);
      this.columns[i]!.write({ def: col.maxDef > 0 ? s.def : undefined, rep: col.maxRep > 0 ? s.rep : undefined, numLevels: s.numLevels, values });
    }
    this.afterRows(end - start);
  }
}

/** Shifts "record N" in a shredding error to the file's row number. */
function relocate(e: unknown, rowBase: number): unknown {
  if (!isParquetError(e)) return e;
  const msg = e.message.replace(/of record (\d+)/, (_, n: string) => `of row ${rowBase + Number(n)}`);
  return new ParquetError(e.code, msg, e.offset, { cause: e });
}

/** The file-level state shared by the streaming writer and {@link writeParquet}. */
class FileWriter {
  engine: Engine | undefined;
  readonly o: ResolvedOptions;
  offset = 0;
  readonly rowGroups: RowGroup[] = [];
  /** The page indexes of the row groups written, laid out after the last row group. */
  private readonly indexes: { rowGroup: RowGroup; columnIndexes: (ColumnIndex | undefined)[]; offsetIndexes: OffsetIndex[]; encryptors: (ColumnEncryptor | undefined)[] }[] = [];
  private failed: unknown;
  private closed = false;
  private started = false;
  /** The last queued call settled (see {@link FileWriter.enqueue}). */
  private queue: Promise<void> = Promise.resolve();
  /** Set by `abort()`: calls not started yet reject and a write under way stops at its next row group. */
  private aborting = false;
  private abortReason: unknown;
  /** The sink was closed or aborted: nothing more goes to it. */
  private sinkDone = false;

  constructor(
    readonly sink: ByteSink,
    readonly options: WriterOptions,
  ) {
    checkWriterOptions(options);
    this.o = resolveOptions(options);
    this.createdBy = this.o.createdBy;
    const append = options.append;
    if (append && options.encryption) throw new ParquetError('INVALID_OPTION', 'parquet-writer: appending to a file cannot encrypt it (write a new encrypted file instead)');
    if (append) {
      const old = append.metadata;
      const tree = treeOf(old.schema);
      if (options.schema !== undefined && JSON.stringify(treeOf(options.schema).elements) !== JSON.stringify(tree.elements)) {
        throw new ParquetError('SCHEMA_MISMATCH', 'parquet-writer: cannot append: the schema option differs from the existing file\'s schema');
      }
      this.engine = this.newEngine(tree, this.o);
      this.engine.totalRows = old.num_rows;
      this.rowGroups.push(...old.row_groups);
      this.offset = append.dataEnd;
      this.started = true;
      this.keyValues = old.key_value_metadata;
      // the footer keeps naming the writer of the rows already there: readers key their workarounds for a writer's
      // known defects (statistics in the wrong byte order, PARQUET-251; chunk sizes without the dictionary page
      // header, PARQUET-816; …) on created_by, for every row group of the file
      if (options.createdBy === undefined) this.createdBy = old.created_by;
    } else if (options.schema !== undefined) {
      this.engine = this.newEngine(treeOf(options.schema), this.o);
    }
  }

  /** Key/value metadata of an appended-to file (the new options' keys win). */
  private keyValues: KeyValue[] | undefined;

  /** The footer's created_by: the option's (or ours), or an appended-to file's own (none when it had none). */
  private createdBy: string | undefined;

  get schema(): SchemaTree | undefined {
    return this.engine?.tree;
  }

  /**
   * Runs `op` after every call queued before it has settled (one promise per call, none per value): overlapping
   * calls on the writer never interleave at their awaits.
   * @param op - the call.
   * @returns what `op` returns.
   */
  enqueue<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op);
    this.queue = run.then(ignore, ignore);
    return run;
  }

  check(): void {
    if (this.failed !== undefined) throw new ParquetError('WRITER_FAILED', 'parquet-writer: the writer failed earlier and was aborted; start a new file', undefined, { cause: this.failed });
    if (this.closed) throw new ParquetError('WRITER_CLOSED', 'parquet-writer: the writer is closed');
    if (this.aborting) throw new ParquetError('WRITER_FAILED', 'parquet-writer: the writer was aborted; start a new file', undefined, { cause: this.abortReason });
  }

  /** Stops a write under way when `abort()` was called during it (the queued abort then aborts the sink). */
  private checkAborting(): void {
    if (this.aborting) throw new ParquetError('WRITER_ABORTED', 'parquet-writer: aborted during this write', undefined, { cause: this.abortReason });
  }

  private async emit(bytes: Uint8Array): Promise<void> {
    const r = this.sink.write(bytes);
    if (r !== undefined) await r;
    this.offset += bytes.length;
  }

  /** The file's encryptor, created on first use (the crypto code is imported only for encrypted files). */
  private encryptor: FileEncryptor | undefined;

  private async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    if (this.options.encryption) {
      const { createFileEncryptor } = await import('@parquetry/parquet-crypto');
      this.encryptor = createFileEncryptor(this.options.encryption);
      await this.emit(this.encryptor.magic);
    } else {
      await this.emit(MAGIC);
    }
  }

  /** The column encryptors of one row group (undefined for plaintext columns or files). */
  private columnEncryptors(tree: SchemaTree, ordinal: number): (ColumnEncryptor | undefined)[] {
    const fe = this.encryptor;
    return tree.columns.map((c) => fe?.columnEncryptor(ordinal, c.index, c.path));
  }

  /** Lays out and writes the row groups the engine closed. */
  async drain(): Promise<void> {
    const e = this.engine;
    if (!e) return;
    while (e.ready.length > 0) {
      const { chunks, rows, arena } = e.ready.shift()!;
      await this.start();
      const ordinal = this.rowGroups.length;
      const encryptors = this.columnEncryptors(e.tree, ordinal);
      const laid = await layOutRowGroup(chunks, rows, {
        offset: this.offset,
        ordinal,
        sortingColumns: this.sortingColumns(e.tree),
        encryptor: (c) => {
          const ce = encryptors[c];
          return ce ? (m, o, b) => ce.encrypt(m as ModuleType, o, b) : undefined;
        },
      });
      for (const p of laid.parts) await this.emit(p);
      // the sink is done with the page bodies (it recycles chunks): the next row groups' pages reuse their memory
      arena?.release();
      await this.encryptColumnMetaData(laid.rowGroup, encryptors);
      this.rowGroups.push(laid.rowGroup);
      this.indexes.push({ rowGroup: laid.rowGroup, columnIndexes: laid.columnIndexes, offsetIndexes: laid.offsetIndexes, encryptors });
    }
  }

  /**
   * Encrypted columns: `crypto_metadata` set; the ColumnMetaData encrypted into `encrypted_column_metadata` when the
   * column has its own key or the footer is plaintext — then `meta_data` is dropped (encrypted footer) or kept
   * without its statistics (plaintext footer), as Encryption.md prescribes.
   */
  private async encryptColumnMetaData(rowGroup: RowGroup, encryptors: readonly (ColumnEncryptor | undefined)[]): Promise<void> {
    for (let c = 0; c < encryptors.length; c++) {
      const ce = encryptors[c];
      if (!ce) continue;
      const cc = rowGroup.columns[c]!;
      cc.crypto_metadata = ce.cryptoMetaData;
      if (!ce.encryptsColumnMetaData) continue;
      const meta = cc.meta_data!;
      cc.encrypted_column_metadata = await ce.encrypt(ModuleType.COLUMN_META_DATA, 0, thriftBytes(writeColumnMetaData, meta));
      if (this.encryptor!.plaintextFooter) {
        const { statistics: _s, size_statistics: _z, geospatial_statistics: _g, ...rest } = meta;
        cc.meta_data = rest;
      } else {
        delete cc.meta_data;
      }
    }
  }

  private newEngine(tree: SchemaTree, o: ResolvedOptions): Engine {
    checkColumnKeys(this.options.encryption?.columnKeys, tree);
    const e = new Engine(tree, o, sinkRecycles(this.sink) ? 'per-row-group' : sinkAlloc(this.sink));
    e.sortKeys = this.sortKeysFor(tree);
    return e;
  }

  /**
   * Resolves `checkSorting` for an engine: each sort column with its comparator (the column's sort order).
   * @throws ParquetError `UNKNOWN_COLUMN`; `INVALID_OPTION` for a column inside a list or map (a row has no single
   *   value there) or one without a sort order (INT96, INTERVAL, VARIANT, geospatial, …).
   */
  private sortKeysFor(tree: SchemaTree): SortKey[] | undefined {
    if (!this.options.checkSorting || !this.options.sortingColumns) return undefined;
    return this.options.sortingColumns.map(({ column, descending, nullsFirst }) => {
      const c = sortLeaf(tree, column);
      const name = typeof column === 'string' ? column : JSON.stringify(column);
      if (c.maxRep > 0) throw new ParquetError('INVALID_OPTION', `parquet-writer: checkSorting: sorting column '${name}' is inside a list or map, where a row has no single value to order by`);
      const compare = valueComparator(c);
      if (!compare) throw new ParquetError('INVALID_OPTION', `parquet-writer: checkSorting: sorting column '${name}' (${TypeNames[c.type] ?? c.type}${c.node.logicalType ? ` ${Object.keys(c.node.logicalType)[0]}` : ''}) has no sort order in Parquet, so no order can be checked`);
      return { name, column: c, descending: descending ?? false, nullsFirst: nullsFirst ?? false, compare };
    });
  }

  private sortingColumns(tree: SchemaTree): SortingColumn[] | undefined {
    const s = this.options.sortingColumns;
    if (!s) return undefined;
    return s.map(({ column, descending, nullsFirst }) => ({ column_idx: sortLeaf(tree, column).index, descending: descending ?? false, nulls_first: nullsFirst ?? false }));
  }

  /**
   * The page index, after the last row group: every ColumnIndex, then every OffsetIndex (as parquet-java lays them
   * out, so a reader fetches each kind in one range), with their offsets and lengths in the column chunks.
   */
  private async writePageIndexes(): Promise<void> {
    for (const { rowGroup, columnIndexes, encryptors } of this.indexes) {
      for (let c = 0; c < columnIndexes.length; c++) {
        const ci = columnIndexes[c];
        if (!ci) continue;
        const ce = encryptors[c];
        const plain = thriftBytes(writeColumnIndex, ci);
        const bytes = ce ? await ce.encrypt(ModuleType.COLUMN_INDEX, 0, plain) : plain;
        rowGroup.columns[c]!.column_index_offset = this.offset;
        rowGroup.columns[c]!.column_index_length = bytes.length;
        await this.emit(bytes);
      }
    }
    for (const { rowGroup, offsetIndexes, encryptors } of this.indexes) {
      for (let c = 0; c < offsetIndexes.length; c++) {
        const ce = encryptors[c];
        const plain = thriftBytes(writeOffsetIndex, offsetIndexes[c]!);
        const bytes = ce ? await ce.encrypt(ModuleType.OFFSET_INDEX, 0, plain) : plain;
        rowGroup.columns[c]!.offset_index_offset = this.offset;
        rowGroup.columns[c]!.offset_index_length = bytes.length;
        await this.emit(bytes);
      }
    }
  }

  private keyValueMetadata(): KeyValue[] | undefined {
    const mine = this.o.keyValueMetadata;
    if (!this.keyValues) return mine;
    const keys = new Set(mine?.map((kv) => kv.key));
    return [...this.keyValues.filter((kv) => !keys.has(kv.key)), ...(mine ?? [])];
  }

  async fail(e: unknown): Promise<never> {
    // abort() called during the call: the abort queued after it aborts the sink, with its reason
    if (this.aborting && this.failed === undefined) throw e;
    if (this.failed === undefined) this.failed = e;
    if (!this.sinkDone) {
      this.sinkDone = true;
      try {
        await this.sink.abort?.(e);
      } catch {
        // the original error matters more
      }
    }
    throw e;
  }

  private ensureEngine(rows: readonly Row[]): Engine {
    if (!this.engine) {
      const inferred = inferRowSchema(rows, this.options.infer);
      this.engine = this.newEngine(buildSchemaTree(schemaElements(inferred.spec)), this.o);
      this.engine.checkKeys = inferred.checkKeys;
    }
    return this.engine;
  }

  async writeRows(rows: readonly Row[]): Promise<void> {
    this.check();
    try {
      if (rows.length === 0 && !this.engine) return;
      const e = this.ensureEngine(rows);
      let i = 0;
      while (i < rows.length) {
        const n = Math.min(e.room(ROW_SLICE), rows.length - i);
        e.writeRowSlice(rows, i, i + n);
        i += n;
        if (e.ready.length > 0) {
          await this.drain();
          this.checkAborting();
        }
      }
    } catch (err) {
      await this.fail(err);
    }
  }

  async writeColumns(columns: ColumnarInput): Promise<void> {
    this.check();
    try {
      if (columns === null || typeof columns !== 'object' || Array.isArray(columns)) {
        throw new ParquetError('INVALID_ARGUMENT', `parquet-writer: writeColumns: expected a struct vector or an object of vectors by top-level field name, got ${columns === null ? 'null' : Array.isArray(columns) ? 'an array' : typeof columns}`);
      }
      if (!this.engine) {
        if (!isStructVector(columns)) {
          throw new ParquetError('SCHEMA_REQUIRED', 'parquet-writer: columns given by name need the schema option (a StructVector from the reader carries its own)');
        }
        const elements: SchemaElement[] = [];
        flattenNode((columns as StructVector).field.node, elements);
        this.engine = this.newEngine(buildSchemaTree(schemaFromElements(elements)), this.o);
      }
      const e = this.engine;
      const root = columnarRoot(columns, e.tree);
      if (Array.isArray(root)) e.tree.field.fields.forEach((f, i) => checkVectorField((root as readonly ColumnarVector[])[i]!, f, f.name));
      else checkVectorField(root as StructVector, e.tree.field, '');
      const total = columnarLength(root, e.tree);
      let i = 0;
      while (i < total) {
        const n = Math.min(e.room(COLUMN_SLICE), total - i);
        e.writeColumnSlice(root, i, i + n);
        i += n;
        if (e.ready.length > 0) {
          await this.drain();
          this.checkAborting();
        }
      }
    } catch (err) {
      await this.fail(err);
    }
  }

  async flushRowGroup(): Promise<void> {
    this.check();
    try {
      this.engine?.closeRowGroup();
      await this.drain();
    } catch (err) {
      await this.fail(err);
    }
  }

  async close(): Promise<FileMetaData> {
    this.check();
    try {
      if (!this.engine) throw new ParquetError('SCHEMA_REQUIRED', 'parquet-writer: no rows were written and no schema was given: pass the schema option to write a file without rows');
      const e = this.engine;
      e.closeRowGroup();
      await this.drain();
      await this.start();
      if (this.o.pageIndex) await this.writePageIndexes();
      const meta: FileMetaData = {
        version: this.o.pageVersion === 2 ? 2 : 1,
        schema: e.tree.elements.map((el) => ({ ...el })),
        num_rows: e.totalRows,
        row_groups: this.rowGroups,
        ...(this.keyValueMetadata() ? { key_value_metadata: this.keyValueMetadata()! } : {}),
        ...(this.createdBy !== undefined ? { created_by: this.createdBy } : {}),
        column_orders: e.tree.columns.map((c) => columnOrderOf(c)),
      };
      await this.emit(this.encryptor ? await this.encryptor.fileTail(meta) : plainFileTail(meta));
      this.closed = true;
      const r = this.sink.close?.();
      if (r !== undefined) await r;
      this.sinkDone = true;
      return meta;
    } catch (err) {
      return this.fail(err);
    }
  }

  /**
   * Marks the writer aborting at once (calls queued before this one reject when they start, a write under way stops
   * at its next row group), then aborts the sink once the call under way has settled.
   * @param reason - why.
   * @returns when the sink is aborted.
   */
  abort(reason?: unknown): Promise<void> {
    if (!this.aborting && !this.closed && this.failed === undefined) {
      this.aborting = true;
      this.abortReason = reason ?? new ParquetError('WRITER_ABORTED', 'parquet-writer: aborted');
    }
    return this.enqueue(async () => {
      if (this.sinkDone) return;
      this.sinkDone = true;
      if (this.failed === undefined) this.failed = this.abortReason;
      await this.sink.abort?.(reason);
    });
  }
}

function ignore(): void {}

/**
 * Writes the rows of an iterable in batches, as one queued call. Whatever fails the call — the iterable itself
 * throwing (a generator's error, a stream's), a value that is not an iterable, a bad row — fails the writer as a
 * failed array write does: the sink is aborted and later calls reject, so rows taken from the iterable before it
 * failed never end up in a file that looks whole.
 */
async function writeIterable(f: FileWriter, rows: Iterable<Row> | AsyncIterable<Row>): Promise<void> {
  f.check();
  try {
    if (rows === null || typeof rows !== 'object' || !(Symbol.iterator in rows || Symbol.asyncIterator in rows)) {
      const got = rows === null ? 'null' : typeof rows === 'object' ? 'an object that is not iterable (one row? pass an array of rows)' : typeof rows;
      throw new ParquetError('INVALID_ARGUMENT', `parquet-writer: write: expected an array, iterable or async iterable of row objects, got ${got}`);
    }
    let batch: Row[] = [];
    for await (const r of rows as AsyncIterable<Row>) {
      batch.push(r);
      if (batch.length === COLUMN_SLICE) {
        await f.writeRows(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await f.writeRows(batch);
  } catch (err) {
    await f.fail(err);
  }
}

const isStructVector = (c: ColumnarInput): c is StructVector =>
  'kind' in c && (c as StructVector).kind === 'struct' && Array.isArray((c as StructVector).children);

/** A logical type as canonical text (keys sorted at every depth), for comparing two columns' annotations. */
function typeText(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'undefined';
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${k}:${typeText(o[k])}`)
    .join(',')}}`;
}

/** A leaf's physical and logical type, as the messages name it. */
function leafType(f: Field): string {
  const e = f.node.element;
  const lt = f.node.logicalType;
  let name = lt ? Object.keys(lt)[0]! : undefined;
  // a signed INTEGER of the physical type's own width (INT_32 / INT_64 of old files) says what no annotation says
  const int = lt?.INTEGER;
  if (int && int.isSigned && int.bitWidth === (e.type === Type.INT32 ? 32 : e.type === Type.INT64 ? 64 : 0)) name = undefined;
  return `${TypeNames[e.type ?? -1] ?? String(e.type)}${e.type_length !== undefined ? `(${e.type_length})` : ''}${name ? ` ${name}${typeText(lt![name as keyof typeof lt])}` : ''}`;
}

/**
 * A vector that carries its field (a reader's columnar read) must hold what the schema's field is: the same struct
 * member names in the same order at every depth, the same kinds, and leaves of the same physical and logical type.
 * Columnar shredding pairs a struct's children with the schema's fields by position, so a vector of `{ a, b }` written
 * under a schema `{ b, a }` (or `{ x, y }`) would put each column's values under the other's name, and a TIMESTAMP
 * in milliseconds written into a microseconds column would keep its raw counts (pyarrow refuses such a table: "Table
 * schema does not match schema used to create file"). Vectors without a field (built by hand) are matched by
 * position, as documented.
 * @throws ParquetError `INVALID_VECTOR` naming the field path and both sides.
 */
function checkVectorField(v: ColumnarVector, f: Field, path: string): void {
  const vf = (v as { field?: Field }).field;
  if (vf === undefined || typeof vf !== 'object' || vf === null || typeof (vf as { kind?: unknown }).kind !== 'string') return;
  const at = path === '' ? 'the root' : `field '${path}'`;
  const fail = (what: string) => new ParquetError('INVALID_VECTOR', `parquet-writer: writeColumns: ${at}: ${what}`);
  const sub = (name: string) => (path === '' ? name : `${path}.${name}`);
  if (vf.kind !== f.kind) throw fail(`the vector holds a ${vf.kind}, the schema has a ${f.kind}`);
  switch (f.kind) {
    case 'struct': {
      const names = (vf as typeof f).fields.map((x) => x.name);
      const want = f.fields.map((x) => x.name);
      if (names.length !== want.length || names.some((n, i) => n !== want[i])) {
        throw fail(`the vector's fields (${names.join(', ')}) are not the schema's (${want.join(', ')}): columnar input is matched to the schema by position, so the names and their order must agree`);
      }
      const children = (v as StructVector).children;
      if (Array.isArray(children)) f.fields.forEach((x, i) => children[i] !== undefined && checkVectorField(children[i]!, x, sub(x.name)));
      return;
    }
    case 'list': {
      const element = (v as { element?: ColumnarVector }).element;
      if (element !== undefined) checkVectorField(element, f.element, sub('element'));
      return;
    }
    case 'map': {
      const m = v as { keys?: ColumnarVector; values?: ColumnarVector };
      if (m.keys !== undefined) checkVectorField(m.keys, f.key, sub('key'));
      if (m.values !== undefined && f.value !== undefined) checkVectorField(m.values, f.value, sub('value'));
      return;
    }
    default: {
      const a = leafType(vf);
      const b = leafType(f);
      if (a !== b) throw fail(`the vector holds ${a}, the schema's column is ${b}: values are written as given, not converted between types or units`);
    }
  }
}

/** The top-level vectors in schema order: a struct vector as is, vectors given by name matched to the fields by name. */
function columnarRoot(columns: ColumnarInput, tree: SchemaTree): StructVector | readonly ColumnarVector[] {
  if (isStructVector(columns)) return columns;
  const byName = columns as Readonly<Record<string, ColumnarVector>>;
  const fields = tree.field.fields;
  for (const name of Object.keys(byName)) {
    if (!fields.some((f) => f.name === name)) {
      throw new ParquetError('INVALID_VECTOR', `parquet-writer: writeColumns: no top-level field '${name}' in the schema (its fields: ${fields.map((f) => `'${f.name}'`).join(', ')})`);
    }
  }
  return fields.map((f) => {
    if (!Object.prototype.hasOwnProperty.call(byName, f.name)) throw new ParquetError('INVALID_VECTOR', `parquet-writer: writeColumns: no vector for top-level field '${f.name}'`);
    return byName[f.name]!;
  });
}

/** Rows of the top-level vectors (all of them must have the same length). */
function columnarLength(root: StructVector | readonly ColumnarVector[], tree: SchemaTree): number {
  if (!Array.isArray(root)) return (root as StructVector).length;
  let rows = -1;
  (root as readonly unknown[]).forEach((v, i) => {
    const name = tree.field.fields[i]!.name;
    const length = v !== null && typeof v === 'object' ? (v as { length?: unknown }).length : undefined;
    if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
      throw new ParquetError('INVALID_VECTOR', `parquet-writer: writeColumns: the value given for top-level field '${name}' is not a vector (no row count)`);
    }
    if (rows >= 0 && length !== rows) {
      throw new ParquetError('INVALID_VECTOR', `parquet-writer: writeColumns: the vector of top-level field '${name}' has ${length} rows, expected ${rows} as the vector of '${tree.field.fields[0]!.name}'`);
    }
    rows = length;
  });
  return Math.max(rows, 0);
}

/**
 * A sink must have a `write` method; `close` and `abort`, when present, must be methods.
 * @throws ParquetError `INVALID_ARGUMENT` naming what is wrong.
 */
function checkSink(sink: unknown): void {
  const what = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);
  if (sink === null || typeof sink !== 'object') throw new ParquetError('INVALID_ARGUMENT', `parquet-writer: createWriter: the sink must be an object with a write method (memorySink(), writableSink(stream), fileSink(path), or your own { write, close?, abort? }), got ${what(sink)}`);
  for (const name of ['write', 'close', 'abort'] as const) {
    const m = (sink as Record<string, unknown>)[name];
    if (name === 'write' ? typeof m !== 'function' : m !== undefined && typeof m !== 'function') {
      throw new ParquetError('INVALID_ARGUMENT', `parquet-writer: createWriter: the sink's ${name} must be a function, got ${what(m)}`);
    }
  }
}

/**
 * Creates a streaming writer.
 * @param sink - where the bytes go (`memorySink`, `writableSink`, the Node file sink, or any `{ write, close, abort }`).
 * @param options - schema and write options.
 * @returns the writer.
 * @throws ParquetError `INVALID_OPTION`, `INVALID_SCHEMA` for bad options or schema; `INVALID_ARGUMENT` for a sink without a
 *   `write` method.
 */
export function createWriter(sink: ByteSink, options: WriterOptions = {}): ParquetWriter {
  checkSink(sink);
  const f = new FileWriter(sink, options);
  return {
    get schema() {
      return f.schema;
    },
    // every call is queued behind the ones before it (FileWriter.enqueue); abort queues itself
    write: (rows) => f.enqueue(() => (Array.isArray(rows) ? f.writeRows(rows as readonly Row[]) : writeIterable(f, rows))),
    writeColumns: (c) => f.enqueue(() => f.writeColumns(c)),
    flushRowGroup: () => f.enqueue(() => f.flushRowGroup()),
    close: () => f.enqueue(() => f.close()),
    abort: (reason) => f.abort(reason),
  };
}

/**
 * Writes a whole file into memory in one call.
 * @param data - row objects (in the shape the reader returns) or columnar input.
 * @param options - schema (inferred from the rows when absent) and write options.
 * @returns the file's bytes.
 * @throws ParquetError `INVALID_VALUE` / `INVALID_RECORD` naming the column and row, `INVALID_SCHEMA`, `INVALID_OPTION`,
 *   `INVALID_ARGUMENT` / `INVALID_VECTOR` for columnar input that is not an object or does not match the schema
 *   (see {@link ParquetWriter.writeColumns}), codec errors.
 */
export async function writeParquet(data: readonly Row[] | ColumnarInput, options: WriterOptions = {}): Promise<Uint8Array> {
  const sink = memorySink();
  await writeAll(createWriter(sink, options), data);
  return sink.take();
}

async function writeAll(w: ParquetWriter, data: readonly Row[] | ColumnarInput): Promise<void> {
  if (Array.isArray(data)) await w.write(data as readonly Row[]);
  else await w.writeColumns(data as ColumnarInput);
  await w.close();
}

/**
 * Appends rows (or columns) to a file held in memory: its row groups are kept, new ones are added, and a new footer
 * is written. The existing bytes are not modified.
 * @param existing - the whole existing file (plaintext footer).
 * @param data - rows or columnar input, in the file's schema.
 * @param options - write options (the schema is the file's).
 * @returns the new file's bytes.
 * @throws ParquetError as {@link appendTarget} and {@link writeParquet}, `SCHEMA_MISMATCH` when `options.schema` differs from the file's.
 */
export async function appendParquet(existing: Uint8Array, data: readonly Row[] | ColumnarInput, options: Omit<WriterOptions, 'append'> = {}): Promise<Uint8Array> {
  const target = appendTarget(existing);
  const sink = memorySink();
  sink.write(existing.subarray(0, target.dataEnd));
  await writeAll(createWriter(sink, { ...options, append: target }), data);
  return sink.take();
}
