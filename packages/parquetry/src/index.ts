/**
 * `parquetry` — Apache Parquet for TypeScript: reader, writer and every codec preset, plus the CLI.
 *
 * - {@link openParquet}: the reader (`@parquetry/parquet-reader`, where its options, sources and result types are
 *   documented) with every codec preset.
 * - {@link allCodecs} (every codec of parquet.thrift, both directions) and {@link syncCodecs} (all but BROTLI, no
 *   WebAssembly).
 * - `parquetry/node`: `openFile(path)` and the `parquetry` command line (`schema`, `meta`, `head`, `count`).
 *
 * The writer lands with its own issue.
 *
 * @packageDocumentation
 */
export { allCodecs, syncCodecs, type AllCodecsOptions } from './codecs.js';
export { openParquet } from './open.js';
