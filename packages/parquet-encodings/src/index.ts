/**
 * `@parquetry/parquet-encodings` — Every Parquet value encoding (PLAIN, RLE hybrid, dictionary, DELTA_*, BYTE_STREAM_SPLIT, ALP), decode and encode.
 *
 * Not implemented yet: this package is a placeholder until its own issue lands.
 * It exports nothing so that nobody depends on an API that does not exist.
 *
 * @packageDocumentation
 */
export {};
