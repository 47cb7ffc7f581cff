/**
 * Writing side of Parquet modular encryption: one {@link FileEncryptor} per file, one {@link ColumnEncryptor}
 * per encrypted column chunk. The writer serializes each module, hands it to `encrypt`, and writes the framed
 * module it gets back; it holds no crypto code of its own.
 * Spec: https://github.com/apache/parquet-format/blob/master/Encryption.md (§4 algorithms, §5 file format)
 * @module
 */
import type { ColumnCryptoMetaData, EncryptionAlgorithm, FileCryptoMetaData, FileMetaData } from '@parquetry/thrift-compact';
import type { OptionRules } from '@parquetry/thrift-compact';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import { fileAad, moduleAad } from './aad.js';
import { SIGNATURE_LENGTH, checkKeyLength, encryptGcmModule, gcmTag, randomNonce } from './aes-gcm.js';
import { encryptCtrModule } from './aes-gcm-ctr.js';
import type { AlgorithmName } from './decryptor.js';
import { cryptoError } from './errors.js';
import { MAGIC_ENCRYPTED_FOOTER, MAGIC_PLAINTEXT_FOOTER, writeEncryptedFileTail } from './footer.js';
import { type ImportedKey, importKey, toBytes } from './keys.js';
import { ModuleType, isPageBody } from './module-type.js';

/** Bytes of the random `aad_file_unique` this package generates per file. */
export const AAD_FILE_UNIQUE_LENGTH = 8;

/** A column-specific key and the metadata stored with it so readers can find the key again. */
export interface ColumnEncryptionKey {
  /** The raw AES key (16, 24 or 32 bytes). */
  readonly key: Uint8Array;
  /** Stored as `EncryptionWithColumnKey.key_metadata` (e.g. a key id for the reader's KMS). */
  readonly keyMetadata?: Uint8Array;
}

/** How to encrypt one file. */
export interface FileEncryptionProperties {
  /** The footer key (16, 24 or 32 bytes); also the key of every column not listed in `columnKeys`-mode. */
  readonly footerKey: Uint8Array;
  /** Stored as `FileCryptoMetaData.key_metadata` / `FileMetaData.footer_signing_key_metadata`. */
  readonly footerKeyMetadata?: Uint8Array;
  /** Default `'AES_GCM_V1'`. */
  readonly algorithm?: AlgorithmName;
  /** Leave the footer readable and sign it ("PAR1" magic) instead of encrypting it ("PARE"). Default false. */
  readonly plaintextFooter?: boolean;
  /** The AAD prefix (bytes or a UTF-8 string) binding modules to this file's identity. */
  readonly aadPrefix?: Uint8Array | string;
  /** Store the AAD prefix in the file (default true); when false, readers must supply it. */
  readonly storeAadPrefix?: boolean;
  /**
   * Column keys by column path joined with '.'. When absent, every column is encrypted with the footer key
   * ("uniform encryption"); when present, only the listed columns are encrypted and the others stay plaintext.
   */
  readonly columnKeys?: Readonly<Record<string, ColumnEncryptionKey>>;
  /** The file-unique AAD part; 8 fresh random bytes when omitted (pass one only in tests). */
  readonly aadFileUnique?: Uint8Array;
}

const ENCRYPTION_RULES: OptionRules = {
  footerKey: 'any',
  footerKeyMetadata: 'any',
  algorithm: 'any',
  plaintextFooter: 'boolean',
  aadPrefix: 'any',
  storeAadPrefix: 'boolean',
  columnKeys: 'object',
  aadFileUnique: 'any',
};
const COLUMN_KEY_RULES: OptionRules = { key: 'any', keyMetadata: 'any' };

/** Encrypts the modules of one column chunk. */
export interface ColumnEncryptor {
  /** Row group ordinal used in AADs. */
  readonly rowGroup: number;
  /** Column ordinal used in AADs. */
  readonly column: number;
  /** Store as `ColumnChunk.crypto_metadata`. */
  readonly cryptoMetaData: ColumnCryptoMetaData;
  /**
   * Whether the `ColumnMetaData` must be encrypted into `encrypted_column_metadata` (module
   * {@link ModuleType.COLUMN_META_DATA}): true when the column key is not the footer key or the footer is plaintext
   * (then `meta_data` stays too, stripped of statistics). When false, `meta_data` is written as usual.
   */
  readonly encryptsColumnMetaData: boolean;
  /**
   * Encrypts one serialized module of this column chunk and frames it (length prefix included).
   * @param type - module type (not {@link ModuleType.FOOTER}).
   * @param pageOrdinal - for data pages and data page headers: the data page's ordinal in the chunk from 0
   *   (dictionary pages not counted); ignored otherwise.
   * @param plaintext - the serialized module (for a page body: the compressed page).
   * @returns the encrypted module; for page bodies its length is the page header's `compressed_page_size`.
   * @throws ParquetError `ORDINAL_OUT_OF_RANGE` past 32767, `INVALID_MODULE_TYPE`, `ENCRYPTION_FAILED`, `MODULE_TOO_LARGE`.
   */
  encrypt(type: ModuleType, pageOrdinal: number, plaintext: Uint8Array): Promise<Uint8Array>;
}

/** Encrypts or signs the footer and hands out column encryptors for one file. */
export interface FileEncryptor {
  /** The algorithm union to store (without the AAD prefix when it is not stored). */
  readonly algorithm: EncryptionAlgorithm;
  /** Whether the footer stays plaintext and is signed. */
  readonly plaintextFooter: boolean;
  /** `aad_prefix ‖ aad_file_unique`. */
  readonly fileAad: Uint8Array;
  /** Stored with the footer key (FileCryptoMetaData.key_metadata or FileMetaData.footer_signing_key_metadata). */
  readonly footerKeyMetadata: Uint8Array | undefined;
  /** Returns the `FileCryptoMetaData` written before an encrypted footer. */
  fileCryptoMetaData(): FileCryptoMetaData;
  /**
   * Encrypts the serialized `FileMetaData` into the footer module.
   * @param footer - the serialized footer.
   * @returns the framed module.
   * @throws ParquetError `ENCRYPTION_FAILED`, `INVALID_KEY`.
   */
  encryptFooter(footer: Uint8Array): Promise<Uint8Array>;
  /**
   * Signs a plaintext footer: a fresh nonce ‖ the GCM tag over the footer with the footer AAD.
   * @param footer - the serialized footer, with `encryption_algorithm` and `footer_signing_key_metadata` set.
   * @returns the 28-byte signature.
   * @throws ParquetError `ENCRYPTION_FAILED`, `INVALID_KEY`.
   */
  signFooter(footer: Uint8Array): Promise<Uint8Array>;
  /**
   * Builds the end of the file: {@link writeEncryptedFileTail} with this encryptor, so a writer needs no other
   * import from this package.
   * @param fileMetaData - the footer, with every column's crypto fields set.
   * @returns the bytes after the last column chunk, final magic included.
   * @throws ParquetError `ENCRYPTION_FAILED`, `INVALID_KEY`, `THRIFT_REQUIRED_FIELD`.
   */
  fileTail(fileMetaData: FileMetaData): Promise<Uint8Array>;
  /** The magic the file starts with: "PARE" for an encrypted footer, "PAR1" for a plaintext one. */
  readonly magic: Uint8Array;
  /**
   * Returns the encryptor of one column chunk, or undefined when that column stays plaintext.
   * @param rowGroup - row group ordinal (0..32767).
   * @param column - column ordinal (0..32767).
   * @param path - the column's `path_in_schema`.
   * @returns the column encryptor, or undefined for a plaintext column.
   * @throws ParquetError `ORDINAL_OUT_OF_RANGE`.
   */
  columnEncryptor(rowGroup: number, column: number, path: readonly string[]): ColumnEncryptor | undefined;
}

/**
 * Creates the encryptor of one file: checks the keys and draws the file-unique AAD part.
 * @param props - keys, algorithm, footer mode and AAD prefix.
 * @returns the file encryptor.
 * @throws ParquetError `INVALID_KEY` for a key that is not 16, 24 or 32 bytes; `INVALID_OPTION` for an unknown
 *   property.
 */
export function createFileEncryptor(props: FileEncryptionProperties): FileEncryptor {
  checkOptions(props, ENCRYPTION_RULES, 'parquet-crypto: encryption', 'INVALID_OPTION');
  checkKeyLength(props.footerKey, 'footer');
  if (props.columnKeys !== undefined) {
    for (const [name, k] of Object.entries(props.columnKeys)) {
      if (ArrayBuffer.isView(k) || k instanceof ArrayBuffer) {
        throw cryptoError('INVALID_OPTION', `encryption columnKeys '${name}': give { key } (and keyMetadata if any), not the key's bytes themselves: columnKeys: { '${name}': { key } }`);
      }
      checkOptions(k, COLUMN_KEY_RULES, `parquet-crypto: encryption columnKeys '${name}'`, 'INVALID_OPTION');
      checkKeyLength(k.key, `column '${name}'`);
    }
  }
  return new FileEncryptorImpl(props);
}

class FileEncryptorImpl implements FileEncryptor {
  readonly algorithm: EncryptionAlgorithm;
  readonly plaintextFooter: boolean;
  readonly fileAad: Uint8Array;
  readonly footerKeyMetadata: Uint8Array | undefined;
  readonly name: AlgorithmName;
  private readonly keys = new Map<string, Promise<ImportedKey>>();

  constructor(private readonly props: FileEncryptionProperties) {
    this.name = props.algorithm ?? 'AES_GCM_V1';
    if (this.name !== 'AES_GCM_V1' && this.name !== 'AES_GCM_CTR_V1') {
      throw cryptoError('UNSUPPORTED_ENCRYPTION', `unknown algorithm ${String(this.name)}`);
    }
    this.plaintextFooter = props.plaintextFooter === true;
    this.footerKeyMetadata = props.footerKeyMetadata;
    const unique = props.aadFileUnique ?? crypto.getRandomValues(new Uint8Array(AAD_FILE_UNIQUE_LENGTH));
    const prefix = props.aadPrefix === undefined ? undefined : toBytes(props.aadPrefix);
    this.fileAad = fileAad(prefix, unique);
    const store = props.storeAadPrefix !== false;
    const params = {
      ...(prefix !== undefined && store ? { aad_prefix: prefix } : {}),
      aad_file_unique: unique,
      ...(prefix !== undefined && !store ? { supply_aad_prefix: true } : {}),
    };
    this.algorithm = this.name === 'AES_GCM_V1' ? { AES_GCM_V1: params } : { AES_GCM_CTR_V1: params };
  }

  key(id: string, raw: Uint8Array, what: string): Promise<ImportedKey> {
    let p = this.keys.get(id);
    if (p === undefined) {
      p = importKey(raw, this.name === 'AES_GCM_CTR_V1', what);
      this.keys.set(id, p);
    }
    return p;
  }

  get magic(): Uint8Array {
    return this.plaintextFooter ? MAGIC_PLAINTEXT_FOOTER.slice() : MAGIC_ENCRYPTED_FOOTER.slice();
  }

  fileTail(fileMetaData: FileMetaData): Promise<Uint8Array> {
    return writeEncryptedFileTail(this, fileMetaData);
  }

  fileCryptoMetaData(): FileCryptoMetaData {
    return { encryption_algorithm: this.algorithm, ...(this.footerKeyMetadata !== undefined ? { key_metadata: this.footerKeyMetadata } : {}) };
  }

  async encryptFooter(footer: Uint8Array): Promise<Uint8Array> {
    const k = await this.key('\0footer', this.props.footerKey, 'footer');
    return encryptGcmModule(k.gcm, footer, moduleAad(this.fileAad, ModuleType.FOOTER, 0, 0, 0));
  }

  async signFooter(footer: Uint8Array): Promise<Uint8Array> {
    const k = await this.key('\0footer', this.props.footerKey, 'footer');
    const nonce = randomNonce();
    const tag = await gcmTag(k.gcm, footer, moduleAad(this.fileAad, ModuleType.FOOTER, 0, 0, 0), nonce);
    const out = new Uint8Array(SIGNATURE_LENGTH);
    out.set(nonce, 0);
    out.set(tag, nonce.length);
    return out;
  }

  columnEncryptor(rowGroup: number, column: number, path: readonly string[]): ColumnEncryptor | undefined {
    moduleAad(this.fileAad, ModuleType.COLUMN_META_DATA, rowGroup, column, 0);
    const keys = this.props.columnKeys;
    if (keys === undefined) {
      return new ColumnEncryptorImpl(this, rowGroup, column, { ENCRYPTION_WITH_FOOTER_KEY: {} }, this.plaintextFooter, () =>
        this.key('\0footer', this.props.footerKey, 'footer'),
      );
    }
    const name = path.join('.');
    const ck = Object.prototype.hasOwnProperty.call(keys, name) ? keys[name] : undefined;
    if (ck === undefined) return undefined;
    const crypto: ColumnCryptoMetaData = {
      ENCRYPTION_WITH_COLUMN_KEY: { path_in_schema: [...path], ...(ck.keyMetadata !== undefined ? { key_metadata: ck.keyMetadata } : {}) },
    };
    return new ColumnEncryptorImpl(this, rowGroup, column, crypto, true, () => this.key(`col:${name}`, ck.key, `column '${name}'`));
  }
}

class ColumnEncryptorImpl implements ColumnEncryptor {
  constructor(
    private readonly file: FileEncryptorImpl,
    readonly rowGroup: number,
    readonly column: number,
    readonly cryptoMetaData: ColumnCryptoMetaData,
    readonly encryptsColumnMetaData: boolean,
    private readonly key: () => Promise<ImportedKey>,
  ) {}

  async encrypt(type: ModuleType, pageOrdinal: number, plaintext: Uint8Array): Promise<Uint8Array> {
    if (type === ModuleType.FOOTER) throw cryptoError('INVALID_MODULE_TYPE', 'the footer is not a column module: use FileEncryptor.encryptFooter');
    const ctrPage = this.file.name === 'AES_GCM_CTR_V1' && isPageBody(type);
    const aad = ctrPage ? undefined : moduleAad(this.file.fileAad, type, this.rowGroup, this.column, pageOrdinal);
    if (ctrPage) {
      // CTR pages carry no AAD, but the page ordinal limit still holds (their headers are GCM modules).
      moduleAad(this.file.fileAad, ModuleType.DATA_PAGE, this.rowGroup, this.column, type === ModuleType.DATA_PAGE ? pageOrdinal : 0);
    }
    const k = await this.key();
    return aad === undefined ? encryptCtrModule(k.ctr!, plaintext) : encryptGcmModule(k.gcm, plaintext, aad);
  }
}
