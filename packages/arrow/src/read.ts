/**
 * Parquet file → Arrow `Table` / `RecordBatch`es through the reader's columnar reads (`readRowGroupColumns`,
 * `iterateBatches({ form: 'columns' })`): projection, row groups, row ranges, filters with the whole pruning
 * pipeline, batch sizes and scan statistics pass straight through. Types follow `arrow-schema.ts` (as Arrow C++ maps
 * https://github.com/apache/parquet-format/blob/master/LogicalTypes.md), values `to-arrow.ts`.
 *
 * @module
 */
import { makeData, RecordBatch, Schema, Struct, Table, type Field as ArrowField } from 'apache-arrow';
import type { ColumnBatch, Filter, ParquetFile, PruneOptions, ReadOptions, ScanStats } from '@parquetry/parquet-reader';
import type { StructVector } from '@parquetry/parquet-levels';
import { ParquetError } from '@parquetry/thrift-compact';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import { planArrowRead, type ArrowReadPlan, type ArrowSchemaOptions } from './arrow-schema.js';
import { toArrowData } from './to-arrow.js';
import { READ_RULES, SCHEMA_RULES } from './options.js';

/** Options of {@link readArrowTable} and {@link readArrowBatches}. */
export interface ArrowReadOptions extends ArrowSchemaOptions {
  /** Row groups to read, by ordinal (default: all). */
  rowGroups?: readonly number[];
  /** First row to return, counted over the whole file (default 0). */
  rowStart?: number;
  /** Row after the last one to return (default: all). */
  rowEnd?: number;
  /**
   * Only rows matching this filter (evaluated exactly; row groups, pages and rows that cannot match are skipped by the
   * reader's pruning pipeline). Filter columns need not be in `columns`.
   */
  filter?: Filter;
  /** The pruning stages a filtered or row-ranged read uses (default: all on), as in the reader. */
  prune?: boolean | PruneOptions;
  /** Called when the read ends, with its scan statistics (bytes, requests, row groups and pages read and skipped). */
  onScan?: (stats: ScanStats) => void;
  /**
   * Rows per record batch: {@link readArrowBatches} decodes page by page, one batch at a time (default: the reader's
   * 10,000); {@link readArrowTable} reads whole row groups, one batch each, unless this is given.
   */
  batchSize?: number;
  /** A budget of decoded bytes per batch (see the reader's `batchBytes`); implies batch-wise reading. */
  batchBytes?: number;
}

/**
 * The reader options of a read: the default value mapping, with the reader's Arrow layouts where it has them (binary
 * vectors, packed booleans, integer typed arrays of their width), which become Arrow buffers without a copy.
 */
function readerOptions(options: ArrowReadOptions): ReadOptions {
  const o: ReadOptions = { binary: 'vector', variants: 'raw', booleans: 'bits', integers: 'typed' };
  if (options.columns !== undefined) o.columns = options.columns;
  if (options.rowGroups !== undefined) o.rowGroups = options.rowGroups;
  if (options.rowStart !== undefined) o.rowStart = options.rowStart;
  if (options.rowEnd !== undefined) o.rowEnd = options.rowEnd;
  if (options.filter !== undefined) o.filter = options.filter;
  if (options.prune !== undefined) o.prune = options.prune;
  if (options.onScan !== undefined) o.onScan = options.onScan;
  return o;
}

/** One record batch from the root vector of a columnar read (internal: the dataset reads use it too). */
export function toRecordBatch(plan: ArrowReadPlan, root: StructVector): RecordBatch {
  const fields = plan.schema.fields as ArrowField[];
  const children = plan.root.fields.map((f, i) => {
    const v = root.children.find((c) => c.field.node === f.node);
    if (!v) {
      // a column the read selected but the reader did not return: cannot happen for a consistent reader
      throw new ParquetError('INVALID_VECTOR', `arrow: the reader returned no vector for column '${f.node.path.join('.')}' (${root.children.length} vectors for ${plan.root.fields.length} fields)`);
    }
    return toArrowData(v, fields[i]!, f);
  });
  const data = makeData({ type: new Struct(fields), length: root.length, nullCount: 0, children });
  return new RecordBatch(plan.schema, data);
}

/**
 * The Arrow schema a read of `file` gives (before reading any data).
 * @param file - an opened Parquet file (`openParquet`).
 * @param options - projection, dictionary columns, whether to apply `ARROW:schema`.
 * @returns the schema of {@link readArrowTable}'s table and {@link readArrowBatches}' batches.
 * @throws ParquetError `INVALID_ARGUMENT` for an option it does not take (naming the nearest one and its list) or a
 *   value outside its set; `UNKNOWN_COLUMN` for a projection path naming no column; `UNSUPPORTED_TYPE` for a column
 *   Arrow cannot hold (a map with optional keys, a DECIMAL over 76 digits).
 */
export function arrowSchemaOf(file: ParquetFile, options: ArrowSchemaOptions = {}): Schema {
  checkOptions(options, SCHEMA_RULES, 'arrow: arrowSchemaOf');
  return planArrowRead(file.schema, file.metadata, options).schema;
}

/**
 * Reads a Parquet file (or part of it) as Arrow record batches, one batch of at most `batchSize` rows at a time
 * (decoded page by page; a batch never spans row groups).
 * @param file - an opened Parquet file (`openParquet`).
 * @param options - projection, row groups, row range, filter and pruning, batch size, dictionary columns,
 *   `ARROW:schema` use.
 * @returns the batches, in file order, all with the schema {@link arrowSchemaOf} gives.
 * @throws ParquetError `INVALID_ARGUMENT` for an option it does not take (naming the nearest one and its list) or a
 *   value outside its set, before anything is read; `UNKNOWN_COLUMN`, `UNSUPPORTED_TYPE` (see {@link arrowSchemaOf}); `INVALID_VALUE` for a value
 *   that does not fit its Arrow type (a decimal wider than the stored Arrow width); `VALUE_TOO_LARGE` when a batch
 *   has more distinct values than the stored dictionary index type holds; `INVALID_VECTOR` when the reader's vectors
 *   do not have the shape the schema needs; and the reader's errors
 *   (`FILTER_UNSUPPORTED`, `INVALID_ARGUMENT`, corrupt data).
 */
export function readArrowBatches(file: ParquetFile, options: ArrowReadOptions = {}): AsyncGenerator<RecordBatch> {
  checkOptions(options, READ_RULES, 'arrow: readArrowBatches');
  return batches(file, planArrowRead(file.schema, file.metadata, options), options);
}

/** The batches of a read, all with the plan's schema (one schema object: a table of them needs equal schemas). */
async function* batches(file: ParquetFile, plan: ArrowReadPlan, options: ArrowReadOptions): AsyncGenerator<RecordBatch> {
  const o = readerOptions(options);
  const it = file.iterateBatches({
    ...o,
    form: 'columns',
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    ...(options.batchBytes !== undefined ? { batchBytes: options.batchBytes } : {}),
  }) as AsyncGenerator<ColumnBatch>;
  for await (const b of it) yield toRecordBatch(plan, b.columns);
}

/**
 * Reads a Parquet file (or part of it) into an Arrow table: one record batch per row group (or per `batchSize`
 * rows when given). Fixed-width values, list offsets and UTF-8/binary bytes are the decoder's buffers, not copies.
 * @param file - an opened Parquet file (`openParquet`).
 * @param options - projection, row groups, row range, filter and pruning, dictionary columns, `ARROW:schema` use.
 * @returns the table, with the schema {@link arrowSchemaOf} gives (an empty table when no row is read).
 * @throws ParquetError as {@link readArrowBatches}.
 */
export async function readArrowTable(file: ParquetFile, options: ArrowReadOptions = {}): Promise<Table> {
  checkOptions(options, READ_RULES, 'arrow: readArrowTable');
  const plan = planArrowRead(file.schema, file.metadata, options);
  const out: RecordBatch[] = [];
  const whole = options.batchSize === undefined && options.batchBytes === undefined;
  if (whole && options.filter === undefined && options.rowStart === undefined && options.rowEnd === undefined && options.onScan === undefined) {
    // whole row groups, no pruning to do: the plain columnar read of each (with onScan, the batch read reports once)
    const o = readerOptions(options);
    const groups = options.rowGroups ?? file.metadata.row_groups.map((_, i) => i);
    for (const g of groups) out.push(toRecordBatch(plan, await file.readRowGroupColumns(g, o)));
  } else {
    const o = whole ? { ...options, batchSize: Infinity } : options;
    for await (const b of batches(file, plan, o)) out.push(b);
  }
  return new Table(plan.schema, out);
}
