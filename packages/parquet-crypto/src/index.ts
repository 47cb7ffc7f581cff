/**
 * `@parquetry/parquet-crypto` — Parquet modular encryption (AES_GCM_V1, AES_GCM_CTR_V1) over WebCrypto.
 *
 * Not implemented yet: this package is a placeholder until its own issue lands.
 * It exports nothing so that nobody depends on an API that does not exist.
 *
 * @packageDocumentation
 */
export {};
