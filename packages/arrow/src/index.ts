/**
 * `@parquetry/arrow` — Parquet ⇄ Apache Arrow (`apache-arrow`, a peer dependency).
 *
 * ```ts
 * import { openParquet } from '@parquetry/parquet-reader';
 * import { readArrowTable, writeArrowTable } from '@parquetry/arrow';
 * const table = await readArrowTable(await openParquet(bytes, { codecs }), { columns: ['id', 'name'] });
 * const copy = await writeArrowTable(table, { compression: 'ZSTD', codecs });
 * ```
 *
 * - {@link readArrowTable} / {@link readArrowBatches}: a file, row groups, a projection, a row range or a filtered
 *   read into an Arrow `Table` or `RecordBatch`es; every Parquet type mapped as Arrow C++ maps it
 *   ({@link arrowSchemaOf}), the `ARROW:schema` metadata applied.
 * - {@link readDatasetArrowTable} / {@link readDatasetArrowBatches}: a dataset of many files
 *   (`@parquetry/parquet-dataset`: hive partitions, schema evolution, summaries) into one Arrow table or its batches,
 *   as `pyarrow.dataset` reads one ({@link arrowSchemaOfDataset}); {@link writeArrowDataset} writes one from Arrow,
 *   partitioned and rolled, as `pyarrow.parquet.write_to_dataset` does.
 * - {@link writeArrowTable}: an Arrow `Table` or a stream of `RecordBatch`es through the writer, with the Parquet
 *   schema pyarrow derives ({@link parquetSchemaOf}) and `ARROW:schema` stored.
 * - {@link decodeArrowSchema} / {@link encodeArrowSchema}: the `ARROW:schema` value itself.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/LogicalTypes.md (types), Arrow's columnar format.
 *
 * @packageDocumentation
 */
export { readArrowTable, readArrowBatches, arrowSchemaOf, type ArrowReadOptions } from './read.js';
export { readDatasetArrowTable, readDatasetArrowBatches, arrowSchemaOfDataset, writeArrowDataset, type ArrowDatasetReadOptions, type ArrowDatasetWriteOptions } from './dataset.js';
export { FIELD_ID_KEY, EXTENSION_NAME_KEY, EXTENSION_METADATA_KEY, type ArrowSchemaOptions } from './arrow-schema.js';
export { ARROW_SCHEMA_KEY, decodeArrowSchema, encodeArrowSchema } from './ipc-schema.js';
export { writeArrowTable, type ArrowWriteOptions, type ArrowInput } from './write.js';
export { parquetSchemaOf } from './from-arrow.js';
