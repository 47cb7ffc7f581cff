/**
 * Datasets (`@parquetry/parquet-dataset`) and Arrow. Writing: an Arrow table or stream of record batches through the
 * dataset writer, as `pyarrow.parquet.write_to_dataset` writes one. Reading: a dataset (many files, hive partitions,
 * schema evolution) → Arrow, as `pyarrow.dataset`'s `to_table()` / `to_batches()` read one: the dataset's unified
 * schema mapped to Arrow types as a file's is (`arrow-schema.ts`), the partition columns last unless `columns` orders
 * them (`int64`, `date` and `string` partitions as Int64, Date32 and Utf8, as DuckDB types them; pyarrow infers Int32
 * for integer partitions), and each batch of the dataset's columnar read (columns a file lacks all null, narrower types widened, partition
 * columns constant) converted as a file's columnar batch is (`to-arrow.ts`): fixed-width values, offsets and bytes are
 * the decoder's buffers.
 *
 * The files' stored `ARROW:schema`s apply by field name, each field taking its type from the first file (in dataset
 * order) that stores one for it, as `pa.unify_schemas` merges schemas field by field: time zones, `large_string`,
 * dictionaries, durations and the like come back where the unified type allows them (a column widened across files
 * keeps its widened type), also for a column that files after the first added (see {@link arrowSchemaOfDataset}).
 *
 * @module
 */
import { RecordBatch, Schema as ArrowSchema, Table, type Field as ArrowField, type Schema } from 'apache-arrow';
import { writeDataset, type Dataset, type DatasetColumnBatch, type DatasetReadOptions, type WritableDatasetStore, type WriteDatasetOptions, type WriteDatasetResult } from '@parquetry/parquet-dataset';
import { buildSchemaTree, type StructVector } from '@parquetry/parquet-levels';
import { ParquetError } from '@parquetry/thrift-compact';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import { planArrowRead, storedArrowSchema, type ArrowReadPlan } from './arrow-schema.js';
import { batchVector, parquetSchemaOf } from './from-arrow.js';
import { ARROW_SCHEMA_KEY, encodeArrowSchema } from './ipc-schema.js';
import { toRecordBatch } from './read.js';
import { batchesOf, sameSchema, type ArrowInput } from './write.js';
import { DATASET_READ_RULES, DATASET_SCHEMA_RULES, DATASET_WRITE_RULES } from './options.js';

/** Options of {@link readDatasetArrowTable} and {@link readDatasetArrowBatches}. */
export interface ArrowDatasetReadOptions {
  /**
   * Columns to read: top-level names or dotted paths of the files' columns, and partition column names (default:
   * every column, then the partition columns). The list also sets the order of the schema's fields, as
   * `pyarrow.dataset`'s `to_table(columns=[…])` does: each top-level field (partition columns too) at its first
   * mention; a nested path (`s.b`) places `s`, whose fields keep their schema order; a field named twice is read once.
   */
  columns?: readonly (string | readonly string[])[];
  /**
   * Rows matching this filter only; it may name partition columns (files whose partition values rule it out are never
   * opened) and columns some files lack (null there).
   */
  filter?: DatasetReadOptions['filter'];
  /** The pruning stages (partitions are always pruned), as the dataset's reads take them (default: all on). */
  prune?: DatasetReadOptions['prune'];
  /**
   * Read BYTE_ARRAY (Utf8/Binary) leaves as Arrow `Dictionary<Int32, …>`: `true` for every such leaf, or the dotted
   * paths of the columns (each batch has its own dictionary).
   */
  dictionary?: boolean | readonly (string | readonly string[])[];
  /**
   * Rows per record batch: {@link readDatasetArrowBatches} defaults to the reader's 10,000; {@link readDatasetArrowTable}
   * reads one batch per row group unless this is given. Batches never span files or row groups.
   */
  batchSize?: number;
  /** Called once when the read ends with the dataset's scan statistics (files opened and skipped, requests, bytes). */
  onScan?: DatasetReadOptions['onScan'];
  /**
   * Apply the files' stored `ARROW:schema`s by field name (default true; see {@link arrowSchemaOfDataset}): the types
   * the writer started from come back where the unified Parquet type allows them.
   */
  arrowSchema?: boolean;
}

/**
 * The Arrow schema the dataset's files store, merged by field name (see {@link arrowSchemaOfDataset}), or undefined
 * when no footer read stores one.
 */
async function datasetArrowSchema(dataset: Dataset): Promise<Schema | undefined> {
  if (dataset.files.length === 0) return undefined;
  const first = await dataset.openFile(0);
  const fields = new Map<string, ArrowField>();
  let metadata: Map<string, string> | undefined;
  const take = (s: Schema | undefined): void => {
    if (!s) return;
    metadata ??= s.metadata;
    // the first file to store a field wins, whatever later files store for it
    for (const f of s.fields) if (!fields.has(f.name)) fields.set(f.name, f);
  };
  take(storedArrowSchema(first.metadata));
  // the columns the first file lacks (added by later files), partition columns aside
  const parts = new Set(dataset.partitions.map((p) => p.name));
  const own = new Set(first.schema.field.fields.map((f) => f.name));
  const added = dataset.schema.field.fields.filter((f) => !parts.has(f.name) && !own.has(f.name)).map((f) => f.name);
  for (let i = 1; i < dataset.files.length && added.some((n) => !fields.has(n)); i++) {
    take(storedArrowSchema((await dataset.openFile(i)).metadata));
  }
  return metadata === undefined ? undefined : new ArrowSchema([...fields.values()], metadata);
}

/** The plan of a dataset read: the unified schema's types, refined by the files' stored Arrow schemas. */
async function planOf(dataset: Dataset, options: ArrowDatasetReadOptions): Promise<ArrowReadPlan> {
  const o = { ...(options.columns !== undefined ? { columns: options.columns } : {}), ...(options.dictionary !== undefined ? { dictionary: options.dictionary } : {}) };
  const stored = options.arrowSchema === false ? undefined : await datasetArrowSchema(dataset);
  return planArrowRead(dataset.schema, {}, { ...o, arrowSchema: stored !== undefined }, stored);
}

/**
 * The Arrow schema of a dataset read, before reading any data: the dataset's unified schema mapped to Arrow types as
 * a file's is, each field refined by the `ARROW:schema` the files store, merged by field name: a field takes its
 * stored type from the first file in dataset order that stores one of its name, and the schema's metadata is the
 * first stored schema's.
 *
 * This is `pa.unify_schemas` over the files' stored schemas, not pyarrow.dataset's default: `pyarrow.dataset`
 * takes its schema from the first fragment alone, so a column that only later files have is dropped (or, when the
 * unified schema is given as `schema=`, read with the type given there) unless the schemas are unified; we follow
 * unify-by-name. Where two files store different types for one field, `pa.unify_schemas` raises `ArrowTypeError`;
 * here the first file's type is kept and nothing is thrown (the Parquet-derived type still decides what a stored
 * type may refine, as for a single file).
 *
 * Footers read for it: the first file's, then, only while a column the first file does not have lacks a stored type,
 * the next files' in dataset order, through `dataset.openFile`, which keeps each file opened. With the default
 * `schema: 'union'` (every footer fetched when the dataset is opened) or a `_metadata` summary they are all at hand
 * and cost no request; otherwise each is fetched once, up to the file that stores the column's type (every file when
 * none does), and the read reuses it.
 * A column the first file has takes the first file's stored type or none: no other footer is read for it (a first
 * file without `ARROW:schema` is read with the Parquet types, as pyarrow reads its first fragment).
 * @param dataset - an opened dataset (`openDataset`).
 * @param options - projection, dictionary columns, whether to apply the stored schema.
 * @returns the schema of {@link readDatasetArrowTable}'s table and {@link readDatasetArrowBatches}' batches.
 * @throws ParquetError `INVALID_ARGUMENT` for an option it does not take (naming the nearest one and its list) or a
 *   value outside its set, before any footer is read;
 *   `UNKNOWN_COLUMN` for a projection path naming no column; `UNSUPPORTED_TYPE` for a column Arrow
 *   cannot hold; the reader's open errors for a file whose footer is read (naming it).
 */
export async function arrowSchemaOfDataset(dataset: Dataset, options: Pick<ArrowDatasetReadOptions, 'columns' | 'dictionary' | 'arrowSchema'> = {}): Promise<Schema> {
  checkOptions(options, DATASET_SCHEMA_RULES, 'arrow: arrowSchemaOfDataset');
  return (await planOf(dataset, options)).schema;
}

/**
 * Reads a dataset as Arrow record batches: files in dataset order, each file's rows in order, `batchSize` rows at a
 * time (decoded page by page).
 * @param dataset - an opened dataset (`openDataset`).
 * @param options - projection, filter and pruning, dictionary columns, batch size, `onScan`.
 * @returns the batches, all with the schema {@link arrowSchemaOfDataset} gives.
 * @throws ParquetError `INVALID_ARGUMENT` for an option it does not take (naming the nearest one and its list) or a
 *   value outside its set, before any footer is read;
 *   `UNKNOWN_COLUMN`, `UNSUPPORTED_TYPE` (see {@link arrowSchemaOfDataset}), the dataset's errors
 *   (`FILTER_INVALID`, `SCHEMA_MISMATCH`, `INVALID_PARTITION`, `FILTER_UNSUPPORTED`) and the reader's (naming the
 *   file).
 */
export async function* readDatasetArrowBatches(dataset: Dataset, options: ArrowDatasetReadOptions = {}): AsyncGenerator<RecordBatch> {
  checkOptions(options, DATASET_READ_RULES, 'arrow: readDatasetArrowBatches');
  yield* batches(dataset, await planOf(dataset, options), options);
}

async function* batches(dataset: Dataset, plan: ArrowReadPlan, options: ArrowDatasetReadOptions): AsyncGenerator<RecordBatch> {
  const o: DatasetReadOptions & { form: 'columns'; batchSize?: number } = { form: 'columns', binary: 'vector', variants: 'raw', booleans: 'bits', integers: 'typed' };
  if (options.columns !== undefined) o.columns = options.columns;
  if (options.filter !== undefined) o.filter = options.filter;
  if (options.prune !== undefined) o.prune = options.prune;
  if (options.batchSize !== undefined) o.batchSize = options.batchSize;
  if (options.onScan !== undefined) o.onScan = options.onScan;
  for await (const b of dataset.iterateBatches(o) as AsyncGenerator<DatasetColumnBatch>) yield toRecordBatch(plan, b.columns);
}

/**
 * Reads a dataset into one Arrow table: a record batch per row group read (or per `batchSize` rows when given).
 * @param dataset - an opened dataset (`openDataset`).
 * @param options - as {@link readDatasetArrowBatches}.
 * @returns the table, with the schema {@link arrowSchemaOfDataset} gives (an empty table when no row is read).
 * @throws ParquetError as {@link readDatasetArrowBatches}.
 */
export async function readDatasetArrowTable(dataset: Dataset, options: ArrowDatasetReadOptions = {}): Promise<Table> {
  checkOptions(options, DATASET_READ_RULES, 'arrow: readDatasetArrowTable');
  const plan = await planOf(dataset, options);
  const out: RecordBatch[] = [];
  for await (const b of batches(dataset, plan, { ...options, batchSize: options.batchSize ?? Infinity })) out.push(b);
  return new Table(plan.schema, out);
}

/** Options of {@link writeArrowDataset}: the dataset writer's (partitions, rolling, summary, names) and the writer's. */
export interface ArrowDatasetWriteOptions extends Omit<WriteDatasetOptions, 'schema' | 'infer'> {
  /**
   * Store the Arrow schema (without the partition columns, as pyarrow's `write_to_dataset` does) as `ARROW:schema` in
   * every file (default true).
   */
  arrowSchema?: boolean;
  /** The Arrow schema of the batches, for a stream that may yield none (otherwise the first batch's, or the table's). */
  schema?: Schema;
}

/**
 * Writes an Arrow table (or a stream of record batches) as a dataset, as `pyarrow.parquet.write_to_dataset` does:
 * partitioned into `key=value/` folders by `partitionBy` (the files leave those columns out), files rolled by rows or
 * bytes, with the Parquet schema pyarrow derives and the Arrow schema stored in each file.
 * @param data - the table, or record batches of one schema (sync or async iterable).
 * @param store - where the files go (`memoryStore`, `@parquetry/parquet-dataset/node`'s directory store, or any
 *   writable store).
 * @param options - partitioning, rolling, summary, names, the writer's options, and whether to store `ARROW:schema`.
 * @returns the files written, rows, and the summary.
 * @throws ParquetError `INVALID_OPTION` for an option it does not take (naming the nearest one and its list) or a
 *   value outside its set, before anything is read or written; `UNSUPPORTED_TYPE` (an Arrow type without a Parquet type), `SCHEMA_MISMATCH` (a batch of another
 *   schema), `SCHEMA_REQUIRED` (an empty stream without the `schema` option), and the dataset writer's
 *   (`INVALID_OPTION`, `DATASET_EXISTS`, `INVALID_PARTITION`) and the writer's errors.
 */
export async function writeArrowDataset(data: ArrowInput, store: WritableDatasetStore, options: ArrowDatasetWriteOptions = {}): Promise<WriteDatasetResult> {
  checkOptions(options, DATASET_WRITE_RULES, 'arrow: writeArrowDataset', 'INVALID_OPTION');
  const it = batchesOf(data);
  const first = await it.next();
  const schema = data instanceof Table ? data.schema : first.done ? options.schema : first.value.schema;
  if (!schema) throw new ParquetError('SCHEMA_REQUIRED', 'arrow: writeArrowDataset: no record batches and no schema option: the Parquet schema cannot be derived');
  const { arrowSchema, schema: _s, ...datasetOptions } = options;
  const elements = parquetSchemaOf(schema);
  const root = buildSchemaTree(elements).field;
  let kv: Record<string, string> = {};
  if (arrowSchema !== false) {
    for (const [k, v] of schema.metadata) kv[k] = v;
    const parts = new Set(options.partitionBy ?? []);
    kv[ARROW_SCHEMA_KEY] = encodeArrowSchema(new ArrowSchema(schema.fields.filter((f) => !parts.has(f.name)), schema.metadata));
  }
  if (options.keyValueMetadata) kv = { ...kv, ...options.keyValueMetadata };
  async function* vectors(): AsyncGenerator<StructVector> {
    let r = first;
    for (let i = 0; !r.done; i++, r = await it.next()) {
      const batch = r.value;
      if (!(batch instanceof RecordBatch)) throw new ParquetError('INVALID_ARGUMENT', `arrow: writeArrowDataset: item ${i} of the stream is not a RecordBatch`);
      if (!sameSchema(batch.schema, schema!)) {
        throw new ParquetError('SCHEMA_MISMATCH', `arrow: writeArrowDataset: batch ${i}'s schema (${batch.schema.fields.map((f) => `${f.name}: ${String(f.type)}`).join(', ')}) differs from the first's (${schema!.fields.map((f) => `${f.name}: ${String(f.type)}`).join(', ')})`);
      }
      if (batch.numRows > 0) yield batchVector(batch.data, root);
    }
  }
  return writeDataset({ batches: vectors() }, store, { ...datasetOptions, schema: elements, keyValueMetadata: kv });
}
