/**
 * `parquetry` — Apache Parquet for TypeScript: reader, writer and every codec preset, plus the CLI.
 *
 * - {@link openParquet}: the reader (`@parquetry/parquet-reader`, where its options, sources and result types are
 *   documented) with every codec preset.
 * - {@link writeParquet}, {@link createWriter} and {@link appendParquet}: the writer (`@parquetry/parquet-writer`)
 *   with every codec preset, and everything else that package exports: the schema builder ({@link field}, {@link schemaElements},
 *   {@link schemaFromElements}), {@link inferSchema}, the sinks ({@link memorySink}, {@link writableSink}) and the
 *   option and schema types.
 * - {@link openDataset} / {@link writeDataset}: datasets of many files (`@parquetry/parquet-dataset`: hive partitions,
 *   schema evolution, `_metadata` summaries, pruning) with every codec preset, and its stores ({@link memoryStore},
 *   {@link urlStore}).
 * - {@link readCodecs} / {@link writeCodecs}: every codec of parquet.thrift with ZSTD and BROTLI loaded on first use
 *   (what the functions above use: a browser bundle loads no WebAssembly until a page needs it, and a codec that
 *   cannot load fails only its own pages); {@link allCodecs} (every codec, loaded now) and {@link syncCodecs} (all
 *   but BROTLI, no WebAssembly).
 * - `parquetry/node`: `openFile(path)`, `writeFile(path, rows)`, `createFileWriter(path)`, `fileSink(path)` and the
 *   `parquetry` command line (`schema`, `meta`, `head`, `count`, `convert`, `rewrite`).
 *
 * @packageDocumentation
 */
export { allCodecs, syncCodecs, type AllCodecsOptions } from './codecs.js';
export { readCodecs, writeCodecs, type PresetOptions, type WasmSource } from './presets.js';
export { openParquet } from './open.js';
// the writer package as is, but for the entry points that take codecs, which get every codec preset (local exports win)
export * from '@parquetry/parquet-writer';
export { appendParquet, createWriter, writeParquet } from './write.js';
export { openDataset, writeDataset } from './dataset.js';
export {
  memoryStore,
  urlStore,
  type Dataset,
  type DatasetOptions,
  type DatasetInput,
  type DatasetFile,
  type DatasetReadOptions,
  type DatasetBatchOptions,
  type DatasetRowBatch,
  type DatasetColumnBatch,
  type DatasetScanStats,
  type FetchCounts,
  type Partitioning,
  type PartitionField,
  type PartitionType,
  type DatasetStore,
  type WritableDatasetStore,
  type MemoryStore,
  type StoreEntry,
  type UrlStoreOptions,
  type WriteDatasetOptions,
  type WriteDatasetResult,
  type WrittenFile,
  type DatasetData,
} from '@parquetry/parquet-dataset';
