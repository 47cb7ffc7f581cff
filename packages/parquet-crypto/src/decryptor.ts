/**
 * Reading side of Parquet modular encryption: one {@link FileDecryptor} per file, one {@link ColumnDecryptor}
 * per column chunk. The reader hands each encrypted module (length prefix included) to `decrypt` and gets the
 * plaintext module back; it holds no crypto code of its own.
 * Spec: https://github.com/apache/parquet-format/blob/master/Encryption.md (§4.4 AAD, §5 file format)
 * @module
 */
import type { ColumnCryptoMetaData, EncryptionAlgorithm } from '@parquetry/thrift-compact';
import type { OptionRules } from '@parquetry/thrift-compact';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import { fileAad, moduleAad } from './aad.js';
import { NONCE_LENGTH, SIGNATURE_LENGTH, decryptGcmModule, equalBytes, gcmTag } from './aes-gcm.js';
import { decryptCtrModule } from './aes-gcm-ctr.js';
import { cryptoError } from './errors.js';
import { type ImportedKey, KeyCache, type KeyRetriever, toBytes } from './keys.js';
import { MODULE_NAMES, ModuleType, isPageBody } from './module-type.js';

/** The two Parquet encryption algorithms, named as the `EncryptionAlgorithm` union members. */
export type AlgorithmName = 'AES_GCM_V1' | 'AES_GCM_CTR_V1';

/** What a reader knows about the keys of the files it opens. */
export interface FileDecryptionProperties {
  /** The footer key (16, 24 or 32 bytes). When absent, {@link FileDecryptionProperties.keyRetriever} is asked. */
  readonly footerKey?: Uint8Array;
  /** Column keys by column path joined with '.', e.g. `{ 'double_field': key }`. Absent ones go to the retriever. */
  readonly columnKeys?: Readonly<Record<string, Uint8Array>>;
  /** Resolves keys from their stored `key_metadata` (the application's KMS). */
  readonly keyRetriever?: KeyRetriever;
  /**
   * The AAD prefix (bytes or a UTF-8 string). Required when the file sets `supply_aad_prefix`; when the file stores
   * a prefix too, the two must be equal (that is how a reader checks the file's identity).
   */
  readonly aadPrefix?: Uint8Array | string;
  /** Verify a plaintext footer's signature when the footer key is known (default true). */
  readonly verifyFooterSignature?: boolean;
  /**
   * Read a file that is not encrypted at all (default false). Without it, a reader given these properties refuses an
   * unencrypted file (`PLAINTEXT_FILE`), as parquet-java and Arrow C++ do unless plaintext files are allowed: a file
   * replaced by an unencrypted one would otherwise be read as if it had been authenticated.
   */
  readonly allowPlaintextFiles?: boolean;
  /**
   * How long the key retriever may take for one key, in ms (default 60,000; `Infinity`: no limit): past it the read
   * fails with `KEY_RETRIEVAL_FAILED` and the retriever's `signal` is aborted, instead of waiting forever on a KMS
   * that never answers.
   */
  readonly keyTimeout?: number;
}

/** Decrypts the modules of one column chunk. */
export interface ColumnDecryptor {
  /** Row group ordinal used in AADs. */
  readonly rowGroup: number;
  /** Column ordinal used in AADs. */
  readonly column: number;
  /** The column's path, when known (for messages). */
  readonly path: readonly string[] | undefined;
  /**
   * Authenticates and decrypts one module of this column chunk.
   * @param type - module type (not {@link ModuleType.FOOTER}).
   * @param pageOrdinal - for data pages and data page headers: the data page's ordinal in the chunk, from 0,
   *   dictionary pages not counted; ignored for other modules.
   * @param module - the encrypted module, length prefix included and nothing after it
   *   (for a page body: exactly `compressed_page_size` bytes; see {@link encryptedModuleSize} for headers).
   * @returns the plaintext module.
   * @throws ParquetError `DECRYPTION_FAILED` (authentication failed: wrong key, tampered or misplaced module;
   *   bad framing), `KEY_MISSING`, `KEY_RETRIEVAL_FAILED`, `INVALID_KEY`, `ORDINAL_OUT_OF_RANGE`, `INVALID_MODULE_TYPE`.
   */
  decrypt(type: ModuleType, pageOrdinal: number, module: Uint8Array): Promise<Uint8Array>;
}

/** Decrypts the footer and hands out column decryptors for one file. */
export interface FileDecryptor {
  /** The file's algorithm. */
  readonly algorithm: AlgorithmName;
  /** `aad_prefix ‖ aad_file_unique`, the part of the AAD common to all modules. */
  readonly fileAad: Uint8Array;
  /**
   * Decrypts an encrypted footer module (the bytes after `FileCryptoMetaData`, up to the footer length).
   * @param module - the footer module, length prefix included.
   * @returns the serialized `FileMetaData`.
   * @throws ParquetError `DECRYPTION_FAILED`, `KEY_MISSING`, `KEY_RETRIEVAL_FAILED`, `INVALID_KEY`;
   *   `UNSUPPORTED_ENCRYPTION` when the file stores no AAD parts and its footer was encrypted with no AAD at all
   *   (DuckDB 1.x's encrypted files, which leave out the module AAD and the columns' `crypto_metadata`).
   */
  decryptFooter(module: Uint8Array): Promise<Uint8Array>;
  /**
   * Verifies a plaintext footer's 28-byte signature (nonce ‖ GCM tag over the serialized footer).
   * @param footer - the serialized `FileMetaData` exactly as stored.
   * @param signature - the 28 bytes after it.
   * @returns true when verified, false when skipped because no footer key is available.
   * @throws ParquetError `DECRYPTION_FAILED` when the signature does not match, `KEY_RETRIEVAL_FAILED`, `INVALID_KEY`.
   */
  verifyFooterSignature(footer: Uint8Array, signature: Uint8Array): Promise<boolean>;
  /**
   * Returns the decryptor of one encrypted column chunk (one with `crypto_metadata`).
   * @param rowGroup - row group ordinal (`RowGroup.ordinal`, or its index when unset).
   * @param column - column ordinal within the row group.
   * @param crypto - the chunk's `crypto_metadata`.
   * @param path - the column path, for messages (taken from the crypto metadata when it has one).
   * @returns the column decryptor; its key is resolved on first use.
   * @throws ParquetError `UNSUPPORTED_ENCRYPTION` when the crypto metadata has no known member,
   *   `ORDINAL_OUT_OF_RANGE` for ordinals outside 0..32767.
   */
  columnDecryptor(rowGroup: number, column: number, crypto: ColumnCryptoMetaData, path?: readonly string[]): ColumnDecryptor;
}

/**
 * Reads the algorithm union: which member is set, and its parameters.
 * @param algorithm - the file's `EncryptionAlgorithm`.
 * @returns the algorithm name and its AES parameters.
 * @throws ParquetError `UNSUPPORTED_ENCRYPTION` when neither known member is set.
 */
export function algorithmParams(algorithm: EncryptionAlgorithm): {
  name: AlgorithmName;
  aadPrefix: Uint8Array | undefined;
  aadFileUnique: Uint8Array | undefined;
  supplyAadPrefix: boolean;
} {
  const gcm = algorithm.AES_GCM_V1;
  const ctr = algorithm.AES_GCM_CTR_V1;
  const p = gcm ?? ctr;
  if (p === undefined) throw cryptoError('UNSUPPORTED_ENCRYPTION', 'the encryption algorithm is neither AES_GCM_V1 nor AES_GCM_CTR_V1');
  return { name: gcm !== undefined ? 'AES_GCM_V1' : 'AES_GCM_CTR_V1', aadPrefix: p.aad_prefix, aadFileUnique: p.aad_file_unique, supplyAadPrefix: p.supply_aad_prefix === true };
}

/**
 * Creates the decryptor of one file.
 * @param props - keys, key retriever and AAD prefix.
 * @param algorithm - `FileCryptoMetaData.encryption_algorithm` (encrypted footer) or
 *   `FileMetaData.encryption_algorithm` (plaintext footer).
 * @param footerKeyMetadata - `FileCryptoMetaData.key_metadata` or `FileMetaData.footer_signing_key_metadata`.
 * @returns the file decryptor. No key is fetched until a module needs it.
 * @throws ParquetError `INVALID_OPTION` (an unknown property), `UNSUPPORTED_ENCRYPTION`, `AAD_PREFIX_REQUIRED` (the file says the reader must supply the
 *   prefix and none was given), `AAD_PREFIX_MISMATCH` (the supplied prefix differs from the stored one, or the file
 *   was encrypted without a prefix).
 */
export function createFileDecryptor(props: FileDecryptionProperties, algorithm: EncryptionAlgorithm, footerKeyMetadata?: Uint8Array): FileDecryptor {
  checkOptions(props, DECRYPTION_RULES, 'parquet-crypto: decryption', 'INVALID_OPTION');
  const t = props.keyTimeout;
  if (t !== undefined && !(typeof t === 'number' && t > 0)) {
    throw cryptoError('INVALID_OPTION', `decryption.keyTimeout must be a positive number of milliseconds (or Infinity), not ${String(t)}`);
  }
  const a = algorithmParams(algorithm);
  const supplied = props.aadPrefix === undefined ? undefined : toBytes(props.aadPrefix);
  if (a.supplyAadPrefix && supplied === undefined) {
    throw cryptoError('AAD_PREFIX_REQUIRED', 'this file was written with an AAD prefix that is not stored in it (supply_aad_prefix): pass aadPrefix');
  }
  if (supplied !== undefined && a.aadPrefix !== undefined && !equalBytes(supplied, a.aadPrefix)) {
    throw cryptoError('AAD_PREFIX_MISMATCH', `the supplied AAD prefix (${supplied.length} bytes) differs from the one stored in the file (${a.aadPrefix.length} bytes)`);
  }
  if (supplied !== undefined && a.aadPrefix === undefined && !a.supplyAadPrefix) {
    // (Arrow C++ and parquet-java refuse it the same way: every module would fail to authenticate)
    throw cryptoError('AAD_PREFIX_MISMATCH', `an AAD prefix (${supplied.length} bytes) was supplied, but the file was encrypted without one (it neither stores a prefix nor sets supply_aad_prefix)`);
  }
  return new FileDecryptorImpl(props, a.name, fileAad(supplied ?? a.aadPrefix, a.aadFileUnique ?? new Uint8Array(0)), footerKeyMetadata);
}

const DECRYPTION_RULES: OptionRules = { footerKey: 'any', columnKeys: 'object', keyRetriever: 'function', aadPrefix: 'any', verifyFooterSignature: 'boolean', allowPlaintextFiles: 'boolean', keyTimeout: 'any' };

class FileDecryptorImpl implements FileDecryptor {
  private readonly keys: KeyCache;
  constructor(
    private readonly props: FileDecryptionProperties,
    readonly algorithm: AlgorithmName,
    readonly fileAad: Uint8Array,
    private readonly footerKeyMetadata: Uint8Array | undefined,
  ) {
    this.keys = new KeyCache(algorithm === 'AES_GCM_CTR_V1', props.keyTimeout);
  }

  footerKey(): Promise<ImportedKey> {
    return this.keys.get('\0footer', 'footer', async (signal) => this.props.footerKey ?? (await this.props.keyRetriever?.(this.footerKeyMetadata, { kind: 'footer' }, signal)));
  }

  columnKey(path: readonly string[], keyMetadata: Uint8Array | undefined): Promise<ImportedKey> {
    const name = path.join('.');
    const explicit = this.props.columnKeys;
    const own = explicit !== undefined && Object.prototype.hasOwnProperty.call(explicit, name) ? explicit[name] : undefined;
    return this.keys.get(`col:${name}`, `column '${name}'`, async (signal) => own ?? (await this.props.keyRetriever?.(keyMetadata, { kind: 'column', path }, signal)));
  }

  async decryptFooter(module: Uint8Array): Promise<Uint8Array> {
    const key = await this.footerKey();
    try {
      return await decryptGcmModule(key.gcm, module, moduleAad(this.fileAad, ModuleType.FOOTER, 0, 0, 0), 'footer');
    } catch (e) {
      // A file with no AAD parts at all may have been encrypted with no AAD (DuckDB 1.x writes such files): name that
      // instead of blaming the key. One more decryption, only on this failure.
      if (this.fileAad.length === 0 && (await decryptGcmModule(key.gcm, module, new Uint8Array(0), 'footer').then(() => true, () => false))) {
        throw cryptoError(
          'UNSUPPORTED_ENCRYPTION',
          'footer: the key is right but the footer was encrypted without the AAD Encryption.md requires (module type 0; the file stores no aad_file_unique), as DuckDB 1.x writes its encrypted files; such files do not follow the Parquet encryption spec and are not read',
          e,
        );
      }
      throw e;
    }
  }

  async verifyFooterSignature(footer: Uint8Array, signature: Uint8Array): Promise<boolean> {
    if (signature.length !== SIGNATURE_LENGTH) {
      throw cryptoError('DECRYPTION_FAILED', `plaintext footer signature must be ${SIGNATURE_LENGTH} bytes, got ${signature.length}`);
    }
    let key: ImportedKey;
    try {
      key = await this.footerKey();
    } catch (e) {
      if ((e as { code?: unknown }).code === 'KEY_MISSING') return false;
      throw e;
    }
    const tag = await gcmTag(key.gcm, footer, moduleAad(this.fileAad, ModuleType.FOOTER, 0, 0, 0), signature.subarray(0, NONCE_LENGTH));
    if (!equalBytes(tag, signature.subarray(NONCE_LENGTH))) {
      throw cryptoError('DECRYPTION_FAILED', 'plaintext footer signature does not verify (wrong footer key, wrong AAD prefix, or a tampered footer)');
    }
    return true;
  }

  columnDecryptor(rowGroup: number, column: number, crypto: ColumnCryptoMetaData, path?: readonly string[]): ColumnDecryptor {
    // Validate the ordinals now, so a bad file fails before any key is fetched.
    moduleAad(this.fileAad, ModuleType.COLUMN_META_DATA, rowGroup, column, 0);
    const withColumnKey = crypto.ENCRYPTION_WITH_COLUMN_KEY;
    if (withColumnKey !== undefined) {
      const p = withColumnKey.path_in_schema;
      return new ColumnDecryptorImpl(this, rowGroup, column, p, () => this.columnKey(p, withColumnKey.key_metadata));
    }
    if (crypto.ENCRYPTION_WITH_FOOTER_KEY !== undefined) {
      return new ColumnDecryptorImpl(this, rowGroup, column, path, () => this.footerKey());
    }
    throw cryptoError('UNSUPPORTED_ENCRYPTION', `column ${column} of row group ${rowGroup}: crypto_metadata names neither the footer key nor a column key`);
  }
}

class ColumnDecryptorImpl implements ColumnDecryptor {
  constructor(
    private readonly file: FileDecryptorImpl,
    readonly rowGroup: number,
    readonly column: number,
    readonly path: readonly string[] | undefined,
    private readonly key: () => Promise<ImportedKey>,
  ) {}

  async decrypt(type: ModuleType, pageOrdinal: number, module: Uint8Array): Promise<Uint8Array> {
    if (type === ModuleType.FOOTER) throw cryptoError('INVALID_MODULE_TYPE', 'the footer is not a column module: use FileDecryptor.decryptFooter');
    const ctrPage = this.file.algorithm === 'AES_GCM_CTR_V1' && isPageBody(type);
    // The AAD is built (and its ordinals checked) before the key is fetched.
    const aad = ctrPage ? undefined : moduleAad(this.file.fileAad, type, this.rowGroup, this.column, pageOrdinal);
    const key = await this.key();
    // Built only when an error is thrown: no string work on the hot path.
    const what = () =>
      `${MODULE_NAMES[type] ?? 'module'}, row group ${this.rowGroup}, column ${this.column}${this.path ? ` (${this.path.join('.')})` : ''}${type === ModuleType.DATA_PAGE || type === ModuleType.DATA_PAGE_HEADER ? `, page ${pageOrdinal}` : ''}`;
    if (aad === undefined) return decryptCtrModule(key.ctr!, module, what);
    return decryptGcmModule(key.gcm, module, aad, what);
  }
}
