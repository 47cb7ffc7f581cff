/**
 * The decryption side of `@parquetry/parquet-crypto` that the reader uses, loaded with `import()` only when a file is
 * encrypted. Importing these names (not the package's namespace) lets a bundler leave the encryption side and the
 * thrift struct writers it needs out of the lazy chunk.
 * Spec: https://github.com/apache/parquet-format/blob/master/Encryption.md
 * @module
 */
export { openEncryptedFooter, openSignedFooter } from '@parquetry/parquet-crypto';
