/**
 * `parquetry` — Apache Parquet for TypeScript: reader, writer and every codec preset, plus the CLI.
 *
 * Not implemented yet: this package is a placeholder until its own issue lands.
 * It exports nothing so that nobody depends on an API that does not exist.
 *
 * @packageDocumentation
 */
export {};
