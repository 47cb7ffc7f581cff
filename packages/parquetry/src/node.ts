/**
 * Node-only entry of `parquetry`: local files ({@link openFile}, {@link writeFile}, {@link createFileWriter},
 * {@link fileSink}, {@link appendFileSink}: pass it to `createWriter(sink, { append: sink.append })`), datasets in
 * local directories ({@link openDataset}, {@link writeDataset}, {@link directoryStore}) and the `parquetry` command
 * line ({@link main}).
 *
 * ```
 * parquetry schema <file>                      the schema tree (every element): repetition, physical and logical types
 * parquetry meta <file>                        rows, row groups, column chunks (codec, encodings, sizes)
 * parquetry head <file> [-n N] [--columns a,b] the first N rows (default 10) as JSON lines
 * parquetry count <file>                       the number of rows, counted by reading the pages
 * parquetry pages <file> [column]              the page index: each page's rows, bytes, nulls and bounds
 * parquetry bloom <file> <column> <value>      per row group: may the bloom filter contain the value
 * parquetry convert <in> <out> [options]       CSV, NDJSON, JSON or Parquet → Parquet (streaming)
 * parquetry rewrite <in> <out> [options]       a Parquet file re-encoded, row group by row group
 * ```
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (the file layout read and written).
 * @module
 */
export { openFile, writeFile, createFileWriter, type LocalParquetFile, type WriteFileOptions } from './node/files.js';
export { fileSink, appendFileSink, type FileSink, type AppendFileSink, type FileSinkOptions } from '@parquetry/parquet-writer/node';
export { main, type MainIO } from './node/cli.js';
export { openDataset, writeDataset } from './node/dataset.js';
export { directoryStore, type DirectoryStore, type DirectoryStoreOptions } from '@parquetry/parquet-dataset/node';
