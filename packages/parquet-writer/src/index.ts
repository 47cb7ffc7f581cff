/**
 * `@parquetry/parquet-writer` — write Parquet files: from row objects (in the shape the reader returns) or from
 * columnar vectors, to memory, a Node file (`@parquetry/parquet-writer/node`), a WHATWG WritableStream or any sink.
 *
 * ```ts
 * import { writeParquet, field } from '@parquetry/parquet-writer';
 * const bytes = await writeParquet(rows, { schema: { id: field.int64({ required: true }), name: field.string() } });
 * ```
 *
 * - {@link writeParquet}: a whole file in memory, in one call.
 * - {@link createWriter}: a streaming writer (`write`, `writeColumns`, `close`, `abort`) over a {@link ByteSink}.
 * - Schemas: {@link field} / {@link schemaElements} (typed builder), {@link schemaFromElements} (a file's schema as
 *   is), {@link inferSchema} (from rows, with overrides).
 * - VARIANT values: plain JSON-like values, plus the typed values {@link variantDate}, {@link variantTimestamp},
 *   {@link variantTime}, {@link variantUuid} and {@link variantDecimal} (re-exported from `@parquetry/parquet-variant`);
 *   a plain object is always a Variant object, whatever its keys.
 *
 * @packageDocumentation
 */
export type { ContentDefinedChunking } from './cdc.js';
export type { BloomFilterOptions } from './bloom.js';
export { appendTarget, type AppendTarget } from './append.js';
export { writeParquet, appendParquet, createWriter, type ParquetWriter, type WriterOptions, type WriterSchema, type Row, type ColumnarInput } from './writer.js';
export { memorySink, writableSink, type ByteSink, type MemorySink } from './sink.js';
export { CREATED_BY, VERSION, codecOf, WRITER_RULES as writerOptionRules, type SortingColumnSpec, type WriteOptions, type ColumnOptions, type CompressionName, type EncodingName } from './options.js';
export * from './schema.js';
export * from './schema-infer.js';
export { variantRowEncoder } from './variant.js';
// VARIANT values: the typed ones (dates, timestamps, times, UUIDs, decimals) are made with these factories (or read);
// every plain object is a Variant object
export {
  VARIANT_TYPED,
  isVariantTyped,
  variantDate,
  variantDecimal,
  variantTime,
  variantTimestamp,
  variantUuid,
  type VariantDate,
  type VariantDecimal,
  type VariantObject,
  type VariantTime,
  type VariantTimestamp,
  type VariantUuid,
  type VariantValue,
} from '@parquetry/parquet-variant';
