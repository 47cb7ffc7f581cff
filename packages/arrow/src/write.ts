/**
 * Arrow `Table` / `RecordBatch`es → Parquet through the writer's columnar input (`writeColumns`), with the schema
 * pyarrow derives (from-arrow.ts) and the Arrow schema stored as `ARROW:schema` in the footer's key/value metadata
 * (https://github.com/apache/parquet-format/blob/master/README.md#metadata), so Arrow readers get the exact types
 * back.
 *
 * @module
 */
import { RecordBatch, type Schema, Table, type DataType, type Field as ArrowField } from 'apache-arrow';
import { createWriter, memorySink, type ByteSink, type WriterOptions } from '@parquetry/parquet-writer';
import { ParquetError, type FileMetaData } from '@parquetry/thrift-compact';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import { batchVector, parquetSchemaOf } from './from-arrow.js';
import { ARROW_SCHEMA_KEY, encodeArrowSchema } from './ipc-schema.js';
import { WRITE_RULES } from './options.js';

/** Options of {@link writeArrowTable}: the writer's options (compression, row groups, pages, …) without a schema. */
export interface ArrowWriteOptions extends Omit<WriterOptions, 'schema' | 'infer' | 'append'> {
  /**
   * Store the Arrow schema as `ARROW:schema` and its metadata as key/value metadata (default true), as pyarrow does;
   * `false` writes neither (pyarrow's `store_schema=False`).
   */
  arrowSchema?: boolean;
  /**
   * The Arrow schema of the batches, for a stream that may yield none (otherwise the first batch's schema, or the
   * table's).
   */
  schema?: Schema;
}

/** A table, or record batches (sync or async), all of one schema. */
export type ArrowInput = Table | Iterable<RecordBatch> | AsyncIterable<RecordBatch>;

function isSink(x: unknown): x is ByteSink {
  return typeof x === 'object' && x !== null && typeof (x as { write?: unknown }).write === 'function';
}

/** A description of a type, parameters and children included (for comparing batch schemas). */
function typeKey(t: DataType): string {
  const kids = (t.children ?? []) as ArrowField[];
  return `${String(t)}(${kids.map((c) => `${c.name}:${typeKey(c.type as DataType)}:${c.nullable}`).join(',')})`;
}

/** Whether two Arrow schemas have the same field names and types (internal: the dataset writer checks batches too). */
export function sameSchema(a: Schema, b: Schema): boolean {
  if (a === b) return true;
  if (a.fields.length !== b.fields.length) return false;
  return a.fields.every((f, i) => {
    const g = b.fields[i]!;
    return f.name === g.name && typeKey(f.type as DataType) === typeKey(g.type as DataType);
  });
}

/** The record batches of a table or a stream (internal: the dataset writer reads them too). */
export async function* batchesOf(data: ArrowInput): AsyncGenerator<RecordBatch> {
  if (data instanceof Table) {
    yield* data.batches;
    return;
  }
  if (typeof (data as AsyncIterable<RecordBatch>)[Symbol.asyncIterator] === 'function') {
    yield* data as AsyncIterable<RecordBatch>;
    return;
  }
  if (typeof (data as Iterable<RecordBatch>)[Symbol.iterator] === 'function') {
    yield* data as Iterable<RecordBatch>;
    return;
  }
  throw new ParquetError('INVALID_ARGUMENT', `arrow: writeArrowTable: expected an Arrow Table or an iterable of RecordBatches, got ${data === null ? 'null' : typeof data}`);
}

/**
 * Writes an Arrow table (or a stream of record batches) as Parquet to memory.
 * @param data - the table, or record batches of one schema (sync or async iterable).
 * @param options - the writer's options (compression, row groups, …) and whether to store `ARROW:schema`.
 * @returns the file's bytes.
 * @throws ParquetError as the sink form.
 */
export function writeArrowTable(data: ArrowInput, options?: ArrowWriteOptions): Promise<Uint8Array>;
/**
 * Writes an Arrow table (or a stream of record batches) as Parquet to a sink (a file, a stream, memory).
 * @param data - the table, or record batches of one schema (sync or async iterable).
 * @param sink - where the bytes go (`memorySink`, `writableSink`, the Node `fileSink`, or any `{ write, close, abort }`).
 * @param options - the writer's options and whether to store `ARROW:schema`.
 * @returns the footer written.
 * @throws ParquetError `INVALID_OPTION` for an option it does not take (naming the nearest one and its list) or a value
 *   outside its set, before any batch is read; `UNSUPPORTED_TYPE` for an Arrow type without a Parquet type (intervals, unions); `SCHEMA_MISMATCH`
 *   when a batch's schema differs from the first's; `SCHEMA_REQUIRED` for an empty stream without the `schema` option;
 *   `INVALID_ARGUMENT` for input that is neither a table nor batches; the writer's errors (`INVALID_RECORD` for a
 *   null in a non-nullable field, `VALUE_TOO_LARGE`, …). The sink is aborted on any error.
 */
export function writeArrowTable(data: ArrowInput, sink: ByteSink, options?: ArrowWriteOptions): Promise<FileMetaData>;
export async function writeArrowTable(data: ArrowInput, sinkOrOptions?: ByteSink | ArrowWriteOptions, maybeOptions?: ArrowWriteOptions): Promise<Uint8Array | FileMetaData> {
  if (isSink(sinkOrOptions)) return writeTo(data, sinkOrOptions, maybeOptions ?? {});
  const sink = memorySink();
  await writeTo(data, sink, sinkOrOptions ?? {});
  return sink.take();
}

async function writeTo(data: ArrowInput, sink: ByteSink, options: ArrowWriteOptions): Promise<FileMetaData> {
  try {
    checkOptions(options, WRITE_RULES, 'arrow: writeArrowTable', 'INVALID_OPTION');
  } catch (e) {
    await sink.abort?.(e);
    throw e;
  }
  const it = batchesOf(data);
  let first = await it.next().catch(async (e: unknown) => {
    await sink.abort?.(e);
    throw e;
  });
  const schema = data instanceof Table ? data.schema : first.done ? options.schema : first.value.schema;
  if (!schema) {
    const e = new ParquetError('SCHEMA_REQUIRED', 'arrow: writeArrowTable: no record batches and no schema option: the Parquet schema cannot be derived');
    await sink.abort?.(e);
    throw e;
  }
  const { arrowSchema, schema: _s, ...writerOptions } = options;
  let kv: Record<string, string> = {};
  let w;
  try {
    const elements = parquetSchemaOf(schema);
    // the schema's metadata goes with the stored schema (pyarrow's store_schema=False writes neither)
    if (arrowSchema !== false) for (const [k, v] of schema.metadata) kv[k] = v;
    if (options.keyValueMetadata) kv = { ...kv, ...options.keyValueMetadata };
    if (arrowSchema !== false) kv[ARROW_SCHEMA_KEY] = encodeArrowSchema(schema);
    w = createWriter(sink, { ...writerOptions, schema: elements, keyValueMetadata: kv });
  } catch (e) {
    await sink.abort?.(e);
    throw e;
  }
  const tree = w.schema!;
  try {
    let batchIndex = 0;
    while (!first.done) {
      const batch = first.value;
      if (!(batch instanceof RecordBatch)) {
        throw new ParquetError('INVALID_ARGUMENT', `arrow: writeArrowTable: item ${batchIndex} of the stream is not a RecordBatch`);
      }
      if (!sameSchema(batch.schema, schema)) {
        throw new ParquetError('SCHEMA_MISMATCH', `arrow: writeArrowTable: batch ${batchIndex}'s schema (${batch.schema.fields.map((f) => `${f.name}: ${String(f.type)}`).join(', ')}) differs from the first's (${schema.fields.map((f) => `${f.name}: ${String(f.type)}`).join(', ')})`);
      }
      if (batch.numRows > 0) await w.writeColumns(batchVector(batch.data, tree.field));
      batchIndex++;
      first = await it.next();
    }
  } catch (e) {
    await w.abort(e);
    throw e;
  }
  return w.close();
}
