/**
 * `writeDataset`: rows or columns written as a dataset of Parquet files — partitioned into hive `key=value/`
 * folders (the partition columns live in the paths, not in the files), rolled into new files by rows or bytes,
 * each file written through the store's sink (atomic per file with the Node directory store: a temporary file
 * renamed when complete), and an optional `_metadata` / `_common_metadata` summary written last.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (each file; `file_path` in the summary).
 * @module
 */
import { ParquetError, type FileMetaData, type SchemaElement } from '@parquetry/thrift-compact';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import { buildSchemaTree, type ColumnarVector, type SchemaNode, type SchemaTree, type StructVector } from '@parquetry/parquet-levels';
import { createWriter, inferSchema, schemaElements, schemaFromElements, type ColumnarInput, type ParquetWriter, type Row, type WriterOptions, type WriterSchema } from '@parquetry/parquet-writer';
import { formatPartitionValue, parseHivePath, partitionFormatOf, type PartitionFormat } from './hive.js';
import { COMMON_METADATA_FILE, METADATA_FILE, buildSummary, commonMetadata, encodeSummary } from './summary.js';
import type { WritableDatasetStore } from './store.js';
import { slotValue, takeVector } from './take.js';
import { writeDatasetOptionRules } from './options.js';

/** Options of {@link writeDataset}. */
export interface WriteDatasetOptions extends Omit<WriterOptions, 'append' | 'encryption'> {
  /**
   * Top-level columns to partition by, outermost first: each row goes to `k1=v1/k2=v2/` (values URL-encoded, DATE
   * columns as `YYYY-MM-DD`, TIMESTAMP, TIME and BOOLEAN as the values they stand for (see `formatPartitionValue`),
   * null as `__HIVE_DEFAULT_PARTITION__`); the files leave these columns out. A name starting with `_` or `.` is
   * `INVALID_OPTION`: dataset listings hide such folders.
   */
  partitionBy?: readonly string[];
  /** Start a new file once a file holds this many rows (default: no limit). */
  maxRowsPerFile?: number;
  /**
   * Start a new file once a file's bytes reach this size (checked as row groups are written; row groups are then
   * capped at an eighth of it, so a file ends at most about one such row group past the limit). Default: no limit.
   */
  maxBytesPerFile?: number;
  /** Write `_metadata` (every file's row groups, `file_path` set) and `_common_metadata` (the schema) last (default false). */
  summary?: boolean;
  /**
   * File names: `{i}` is replaced by a counter over the dataset's files (default `part-{i}.parquet`; with
   * `existing: 'add'`, `part-{uuid}-{i}.parquet` so that names never meet earlier ones).
   */
  basename?: string;
  /** When the store already holds files: `'error'` (default, refuse) or `'add'` (write new files beside them). */
  existing?: 'error' | 'add';
}

/** A file written by {@link writeDataset}. */
export interface WrittenFile {
  /** Its path below the dataset root. */
  path: string;
  /** Rows in it. */
  rows: number;
  /** Its size in bytes. */
  bytes: number;
  /** Its partition values as written in the path (decoded; null for `__HIVE_DEFAULT_PARTITION__`). */
  partition: Record<string, string | null>;
  /** Its footer. */
  metadata: FileMetaData;
}

/** What {@link writeDataset} wrote. */
export interface WriteDatasetResult {
  /** The files, in the order they were started. */
  files: WrittenFile[];
  /** Rows written. */
  rows: number;
  /** The `_metadata` summary, when written. */
  summary: FileMetaData | undefined;
}

/**
 * Columnar input in batches (record batches of one schema, in order): partitioned and rolled as one input, so that a
 * partition's rows of every batch go to the same files.
 */
export interface ColumnBatches {
  /** The batches: each a `StructVector`, or vectors by top-level name (with the `schema` option). */
  readonly batches: Iterable<ColumnarInput> | AsyncIterable<ColumnarInput>;
}

/** Rows or columns to write. */
export type DatasetData = readonly Row[] | Iterable<Row> | AsyncIterable<Row> | ColumnarInput | ColumnBatches;

/** Whether `d` is {@link ColumnBatches} (an object whose `batches` is an iterable, not a vector). */
function isColumnBatches(d: DatasetData): d is ColumnBatches {
  if (typeof d !== 'object' || d === null || Array.isArray(d) || !('batches' in d)) return false;
  const b = (d as { batches: unknown }).batches;
  return typeof b === 'object' && b !== null && (b as { kind?: unknown }).kind === undefined && (Symbol.iterator in b || Symbol.asyncIterator in b);
}

/** The schema tree a `StructVector` carries (columns by name carry none). */
function treeOfColumns(input: ColumnarInput): SchemaTree {
  const s = input as StructVector;
  if (s.kind !== 'struct' || !Array.isArray(s.children)) throw new ParquetError('SCHEMA_REQUIRED', 'parquet-dataset: columns given by name need the schema option (a StructVector carries its own)');
  const els: SchemaElement[] = [];
  flatten(s.field.node, els);
  return buildSchemaTree(els);
}

const CHUNK = 8192;

function flatten(n: SchemaNode, out: SchemaElement[]): void {
  out.push(n.element);
  for (const c of n.children) flatten(c, out);
}

function toTree(schema: WriterSchema): SchemaTree {
  if (Array.isArray(schema)) return buildSchemaTree(schemaFromElements(schema as readonly SchemaElement[]));
  if (typeof (schema as SchemaTree).elements === 'object' && Array.isArray((schema as SchemaTree).elements)) return buildSchemaTree(schemaFromElements(schema as SchemaTree));
  return buildSchemaTree(schemaElements(schema as Parameters<typeof schemaElements>[0]));
}

/** The element list without the top-level fields named in `drop`. */
function withoutFields(tree: SchemaTree, drop: ReadonlySet<string>): SchemaElement[] {
  const kept = tree.root.children.filter((c) => !drop.has(c.name));
  const out: SchemaElement[] = [{ ...tree.root.element, num_children: kept.length }];
  for (const c of kept) flatten(c, out);
  return out;
}

function isRowSource(d: DatasetData): d is readonly Row[] | Iterable<Row> | AsyncIterable<Row> {
  return Array.isArray(d) || (typeof d === 'object' && d !== null && (Symbol.iterator in d || Symbol.asyncIterator in d));
}

/** Row chunks of at most {@link CHUNK} rows from any row source. */
async function* rowChunks(d: readonly Row[] | Iterable<Row> | AsyncIterable<Row>): AsyncGenerator<readonly Row[]> {
  if (Array.isArray(d)) {
    for (let i = 0; i < d.length; i += CHUNK) yield d.slice(i, i + CHUNK);
    return;
  }
  let chunk: Row[] = [];
  for await (const r of d as AsyncIterable<Row>) {
    chunk.push(r);
    if (chunk.length === CHUNK) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

function randomToken(): string {
  const b = new Uint8Array(8);
  globalThis.crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** One partition's file being written. */
interface OpenFile {
  path: string;
  partition: Record<string, string | null>;
  writer: ParquetWriter;
  rows: number;
  bytes: { n: number };
}

/**
 * Writes rows or columns as a dataset.
 * @param data - rows (an array, iterable or async iterable of row objects), columnar input (a `StructVector`, or
 *   vectors by top-level name with the `schema` option), or columnar input in batches (`{ batches }`), partition
 *   columns included.
 * @param store - where the files go (`memoryStore`, or the Node entry's directory).
 * @param options - partitioning, rolling, summary, names, and the writer's options (`schema` covers the partition
 *   columns too; inferred from the first rows when absent).
 * @returns the files written, rows, and the summary.
 * @throws ParquetError `INVALID_OPTION` (an option it does not take, naming the nearest one and its list, or a value
 *   outside its set, checked before anything is listed or written; a partition column that is not a top-level leaf),
 *   `DATASET_EXISTS` (files already there and `existing` is not `'add'`), `INVALID_PARTITION` (a value with no
 *   path form), `SCHEMA_REQUIRED`, and the writer's errors; files already closed stay, the others are aborted.
 */
export async function writeDataset(data: DatasetData, store: WritableDatasetStore, options: WriteDatasetOptions = {}): Promise<WriteDatasetResult> {
  checkOptions(options, writeDatasetOptionRules, 'parquet-dataset: writeDataset', 'INVALID_OPTION');
  const { partitionBy = [], maxRowsPerFile, maxBytesPerFile, summary, basename, existing = 'error', schema, infer, ...writerOptions } = options;
  const positive = (name: string, v: number | undefined) => {
    if (v !== undefined && !(Number.isSafeInteger(v) && v > 0)) throw new ParquetError('INVALID_OPTION', `parquet-dataset: ${name} must be a positive integer, got ${String(v)}`);
  };
  positive('maxRowsPerFile', maxRowsPerFile);
  positive('maxBytesPerFile', maxBytesPerFile);
  if (existing === 'add' && summary) throw new ParquetError('INVALID_OPTION', "parquet-dataset: summary files cover the files of one write: they cannot be written with existing: 'add'");
  if (store.list && existing !== 'add') {
    const there = await store.list();
    if (there.length > 0) throw new ParquetError('DATASET_EXISTS', `parquet-dataset: ${store.location} already holds ${there.length} file(s) (e.g. '${there[0]!.path}'): pass existing: 'add' to write beside them`);
  }
  const template = basename ?? (existing === 'add' ? `part-${randomToken()}-{i}.parquet` : 'part-{i}.parquet');
  if (!template.includes('{i}')) throw new ParquetError('INVALID_OPTION', `parquet-dataset: basename '${template}' has no {i}: files would overwrite each other`);

  // the full schema (partition columns included)
  let full: SchemaTree | undefined = schema ? toTree(schema) : undefined;
  const batched = isColumnBatches(data);
  const rowInput = !batched && isRowSource(data);
  if (!full && !rowInput && !batched) full = treeOfColumns(data as ColumnarInput);

  const files: WrittenFile[] = [];
  const open = new Map<string, OpenFile>();
  let counter = 0;
  let total = 0;
  let fileElements: SchemaElement[] = [];
  let partIdx: { name: string; format: PartitionFormat }[] = [];

  const settle = (tree: SchemaTree): void => {
    full = tree;
    partIdx = partitionBy.map((name) => {
      const f = tree.field.fields.find((x) => x.name === name);
      if (!f || f.kind !== 'leaf' || f.repDepth > 0) throw new ParquetError('INVALID_OPTION', `parquet-dataset: partitionBy '${name}' is not a top-level column of one value per row (the schema's top-level fields: ${tree.field.fields.map((x) => x.name).join(', ')})`);
      // a directory starting with '_' or '.' is hidden from dataset listings (ours, pyarrow's, Spark's): the rows
      // written under it would never be read back
      if (name.startsWith('_') || name.startsWith('.')) throw new ParquetError('INVALID_OPTION', `parquet-dataset: partitionBy '${name}': directories whose names start with '_' or '.' are hidden from dataset listings (here, in pyarrow and in Spark), so its rows would not be read back; rename the column`);
      return { name, format: partitionFormatOf(f.node) };
    });
    fileElements = withoutFields(tree, new Set(partitionBy));
    if (fileElements.length === 1) throw new ParquetError('INVALID_OPTION', 'parquet-dataset: every column is a partition column: the files would have no columns');
    buildSchemaTree(fileElements);
  };
  if (full) settle(full);

  const rowGroupBytes = maxBytesPerFile === undefined ? writerOptions.rowGroupBytes : Math.max(1, Math.min(writerOptions.rowGroupBytes ?? Infinity, Math.floor(maxBytesPerFile / 8)));
  /** Bytes a row has taken in the files written so far (0 before any row group was written). */
  let bytesPerRow = 0;

  const startFile = async (dir: string, partition: Record<string, string | null>): Promise<OpenFile> => {
    const path = `${dir}${template.replace(/\{i\}/g, String(counter++))}`;
    const sink = await store.create(path);
    const bytes = { n: 0 };
    const counting = {
      write(c: Uint8Array) {
        bytes.n += c.length;
        return sink.write(c);
      },
      close: () => sink.close?.(),
      abort: (r?: unknown) => sink.abort?.(r),
    };
    const writer = createWriter(counting, { ...writerOptions, ...(rowGroupBytes === undefined ? {} : { rowGroupBytes }), schema: fileElements });
    return { path, partition, writer, rows: 0, bytes };
  };

  const closeFile = async (dir: string, f: OpenFile): Promise<void> => {
    open.delete(dir);
    const metadata = await f.writer.close();
    files.push({ path: f.path, rows: f.rows, bytes: f.bytes.n, partition: f.partition, metadata });
  };

  /** Writes `n` rows to a partition, rolling files at the limits; `write(a, b)` writes rows [a, b) of the group. */
  const feed = async (dir: string, n: number, write: (w: ParquetWriter, a: number, b: number) => Promise<void>): Promise<void> => {
    let at = 0;
    while (at < n) {
      let f = open.get(dir);
      if (!f) {
        const partition: Record<string, string | null> = {};
        for (const s of parseHivePath(`${dir}x`)) Object.defineProperty(partition, s.key, { value: s.value, enumerable: true, writable: true, configurable: true });
        f = await startFile(dir, partition);
        open.set(dir, f);
      }
      const room = maxRowsPerFile === undefined ? n - at : Math.min(n - at, maxRowsPerFile - f.rows);
      // with a byte limit, write in slices of about one row group (the writer closes its row groups at
      // rowGroupBytes, an eighth of the limit) so that the size is checked that often: rows per slice from the bytes
      // a row has taken so far in this write (64 rows to learn that)
      const step = maxBytesPerFile === undefined ? room : Math.min(room, 1024, bytesPerRow > 0 ? Math.max(1, Math.floor((rowGroupBytes ?? maxBytesPerFile) / bytesPerRow)) : 64);
      await write(f.writer, at, at + step);
      f.rows += step;
      at += step;
      if (f.bytes.n > 0) bytesPerRow = f.bytes.n / f.rows;
      if ((maxRowsPerFile !== undefined && f.rows >= maxRowsPerFile) || (maxBytesPerFile !== undefined && f.bytes.n >= maxBytesPerFile)) await closeFile(dir, f);
    }
  };

  const dirOf = (values: readonly unknown[], where: string): string => {
    let dir = '';
    for (let k = 0; k < partIdx.length; k++) {
      const p = partIdx[k]!;
      dir += `${encodeURIComponent(p.name)}=${formatPartitionValue(values[k], p.format, `${where}, partition column '${p.name}'`)}/`;
    }
    return dir;
  };

  try {
    if (rowInput) {
      for await (const chunk of rowChunks(data as readonly Row[] | Iterable<Row> | AsyncIterable<Row>)) {
        if (!full) settle(buildSchemaTree(schemaElements(inferSchema(chunk, infer ?? {}))));
        const groups = new Map<string, Row[]>();
        for (let i = 0; i < chunk.length; i++) {
          const row = chunk[i]!;
          if (row === null || typeof row !== 'object') throw new ParquetError('INVALID_RECORD', `parquet-dataset: row ${total + i} is ${row === null ? 'null' : typeof row}, expected an object`);
          const dir = partIdx.length === 0 ? '' : dirOf(partIdx.map((p) => row[p.name]), `row ${total + i}`);
          let g = groups.get(dir);
          if (!g) groups.set(dir, (g = []));
          g.push(row);
        }
        for (const [dir, rows] of groups) await feed(dir, rows.length, (w, a, b) => w.write(a === 0 && b === rows.length ? rows : rows.slice(a, b)));
        total += chunk.length;
      }
    } else {
      const inputs: Iterable<ColumnarInput> | AsyncIterable<ColumnarInput> = batched ? (data as ColumnBatches).batches : [data as ColumnarInput];
      for await (const input of inputs) {
        // batches without the schema option: the first one's StructVector gives it
        if (!full) settle(treeOfColumns(input));
        const tree = full!;
        const byName = columnsByName(input, tree);
        const n = byName.length;
        const keep = tree.field.fields.filter((f) => !partitionBy.includes(f.name)).map((f) => f.name);
        const groups = new Map<string, number[]>();
        const partVectors = partIdx.map((p) => byName.vectors.get(p.name)!);
        for (let i = 0; i < n; i++) {
          const dir = partIdx.length === 0 ? '' : dirOf(partVectors.map((v) => slotValue(v, i)), `row ${total + i}`);
          let g = groups.get(dir);
          if (!g) groups.set(dir, (g = []));
          g.push(i);
        }
        for (const [dir, rows] of groups) {
          const idx = Int32Array.from(rows);
          await feed(dir, idx.length, (w, a, b) => {
            const slice = idx.subarray(a, b);
            const cols: Record<string, ColumnarVector> = {};
            for (const name of keep) cols[name] = takeVector(byName.vectors.get(name)!, slice);
            return w.writeColumns(cols);
          });
        }
        total += n;
      }
    }
    if (!full) throw new ParquetError('SCHEMA_REQUIRED', 'parquet-dataset: no rows were written and no schema was given');
    // a write of no rows at all still writes one (empty) file, so that the dataset has a schema
    if (files.length === 0 && open.size === 0) {
      const f = await startFile('', {});
      open.set('', f);
    }
    for (const [dir, f] of [...open]) await closeFile(dir, f);
  } catch (err) {
    await Promise.all([...open.values()].map((f) => f.writer.abort(err).catch(() => undefined)));
    throw err;
  }
  files.sort((a, b) => fileNumber(a.path, template) - fileNumber(b.path, template));
  let summaryMeta: FileMetaData | undefined;
  if (summary) {
    summaryMeta = buildSummary(files.map((f) => ({ path: f.path, metadata: f.metadata })));
    for (const [name, meta] of [[COMMON_METADATA_FILE, commonMetadata(summaryMeta)], [METADATA_FILE, summaryMeta]] as const) {
      const sink = await store.create(name);
      try {
        await sink.write(encodeSummary(meta));
        await sink.close?.();
      } catch (err) {
        await sink.abort?.(err);
        throw err;
      }
    }
  }
  return { files, rows: total, summary: summaryMeta };
}

/** The counter in a file name made from the template (files come out in the order they were started). */
function fileNumber(path: string, template: string): number {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const [pre, post] = template.split('{i}') as [string, string];
  return Number(name.slice(pre.length, name.length - post.length));
}

/** Columnar input as vectors by top-level name, checked against the schema. */
function columnsByName(input: ColumnarInput, tree: SchemaTree): { vectors: Map<string, ColumnarVector>; length: number } {
  const vectors = new Map<string, ColumnarVector>();
  if ((input as StructVector).kind === 'struct' && Array.isArray((input as StructVector).children)) {
    const s = input as StructVector;
    s.children.forEach((c, i) => vectors.set((s.field.kind === 'struct' ? s.field.fields[i]?.name : undefined) ?? c.field.name, c));
  } else for (const [k, v] of Object.entries(input as Record<string, ColumnarVector>)) vectors.set(k, v);
  let length = -1;
  for (const f of tree.field.fields) {
    const v = vectors.get(f.name);
    if (!v || typeof v !== 'object' || typeof v.length !== 'number') throw new ParquetError('INVALID_VECTOR', `parquet-dataset: no vector for top-level column '${f.name}'`);
    if (length >= 0 && v.length !== length) throw new ParquetError('INVALID_VECTOR', `parquet-dataset: the vector of '${f.name}' has ${v.length} rows, expected ${length}`);
    length = v.length;
  }
  return { vectors, length: Math.max(0, length) };
}
