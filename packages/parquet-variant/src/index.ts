/**
 * `@parquetry/parquet-variant` — the Parquet VARIANT binary encoding and shredding.
 *
 * Not implemented yet: this package is a placeholder until its work lands. It exports nothing.
 *
 * @packageDocumentation
 */
export {};
