/**
 * `@parquetry/parquet-levels` — Parquet schema tree, definition/repetition levels, Dremel shredding and assembly.
 *
 * Not implemented yet: this package is a placeholder until its own issue lands.
 * It exports nothing so that nobody depends on an API that does not exist.
 *
 * @packageDocumentation
 */
export {};
