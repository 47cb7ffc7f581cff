/**
 * `@parquetry/parquet-codecs` — The Parquet compression Codec interface and dependency-free codecs (SNAPPY, LZ4_RAW, Hadoop LZ4, LZO).
 *
 * Not implemented yet: this package is a placeholder until its own issue lands.
 * It exports nothing so that nobody depends on an API that does not exist.
 *
 * @packageDocumentation
 */
export {};
