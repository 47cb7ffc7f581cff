/**
 * `@parquetry/parquet-bloom` — Parquet split-block bloom filters with xxHash64.
 *
 * Not implemented yet: this package is a placeholder until its own issue lands.
 * It exports nothing so that nobody depends on an API that does not exist.
 *
 * @packageDocumentation
 */
export {};
