/**
 * `@parquetry/parquet-crypto` — Parquet modular encryption (AES_GCM_V1, AES_GCM_CTR_V1) over WebCrypto.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/Encryption.md
 *
 * - Injection: a reader takes a {@link FileDecryption} (from {@link createFileDecryption}) and a writer a
 *   {@link FileEncryptor}; both import only types from this package, so unencrypted files bundle no AES code.
 * - Reading: {@link openEncryptedFooter} / {@link openSignedFooter} (or {@link createFileDecryptor}) give a
 *   {@link FileDecryptor}; `columnDecryptor(rowGroup, column, crypto_metadata)` gives a {@link ColumnDecryptor}
 *   whose `decrypt(moduleType, pageOrdinal, module)` returns each plaintext module.
 * - Writing: {@link createFileEncryptor} gives a {@link FileEncryptor}; `columnEncryptor(rowGroup, column, path)`
 *   gives a {@link ColumnEncryptor} whose `encrypt(moduleType, pageOrdinal, plaintext)` returns each framed module;
 *   {@link writeEncryptedFileTail} writes the footer.
 * - Primitives: {@link moduleAad}, {@link encryptGcmModule} / {@link decryptGcmModule},
 *   {@link encryptCtrModule} / {@link decryptCtrModule}, {@link encryptedModuleSize}.
 * - Key management: {@link createKeyToolsRetriever} reads parquet-java key-tools key metadata (PKMT1, internal
 *   or external key material, single or double wrapping) through a {@link KmsClient};
 *   {@link createInMemoryKms} is the test KMS; {@link generateWrappedDataKey} writes such metadata.
 *
 * Error codes: `DECRYPTION_FAILED` (authentication failed or bad framing), `KEY_MISSING`,
 * `KEY_RETRIEVAL_FAILED`, `INVALID_KEY`, `AAD_PREFIX_REQUIRED`, `AAD_PREFIX_MISMATCH`, `ORDINAL_OUT_OF_RANGE`,
 * `INVALID_MODULE_TYPE`, `UNSUPPORTED_ENCRYPTION`, `NOT_ENCRYPTED`, `ENCRYPTION_FAILED`, `MODULE_TOO_LARGE`,
 * `KEY_MATERIAL_INVALID`,
 * `CRYPTO_UNAVAILABLE`.
 *
 * @packageDocumentation
 */
export { ModuleType, hasPageOrdinal, isPageBody } from './module-type.js';
export { MAX_ORDINAL, fileAad, moduleAad } from './aad.js';
export {
  type Describe,
  GCM_OVERHEAD,
  LENGTH_PREFIX,
  NONCE_LENGTH,
  SIGNATURE_LENGTH,
  TAG_LENGTH,
  decryptGcmModule,
  encryptGcmModule,
  encryptedModuleSize,
  gcmTag,
  importAesKey,
} from './aes-gcm.js';
export { CTR_OVERHEAD, decryptCtrModule, encryptCtrModule } from './aes-gcm-ctr.js';
export type { KeyRetriever, KeyTarget } from './keys.js';
export {
  type AlgorithmName,
  type ColumnDecryptor,
  type FileDecryptionProperties,
  type FileDecryptor,
  algorithmParams,
  createFileDecryptor,
} from './decryptor.js';
export {
  AAD_FILE_UNIQUE_LENGTH,
  type ColumnEncryptionKey,
  type ColumnEncryptor,
  type FileEncryptionProperties,
  type FileEncryptor,
  createFileEncryptor,
} from './encryptor.js';
export {
  type KeyToolsOptions,
  type KmsClient,
  type WrappedDataKey,
  createInMemoryKms,
  createKeyToolsRetriever,
  generateWrappedDataKey,
  unwrapKeyLocally,
  wrapKeyLocally,
} from './key-tools.js';
export {
  type FileDecryption,
  createFileDecryption,
  MAGIC_ENCRYPTED_FOOTER,
  MAGIC_PLAINTEXT_FOOTER,
  type OpenedFooter,
  openEncryptedFooter,
  openSignedFooter,
  writeEncryptedFileTail,
} from './footer.js';
