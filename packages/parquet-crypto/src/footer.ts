/**
 * File-level footer helpers for encrypted files: the encrypted-footer layout ("PARE") and the signed
 * plaintext-footer layout ("PAR1").
 * Spec: https://github.com/apache/parquet-format/blob/master/Encryption.md#54-encrypted-footer-mode (§5.4, §5.5)
 *
 * ```
 * encrypted footer:  ... ‖ FileCryptoMetaData ‖ footer module (GCM) ‖ len (4, LE) ‖ "PARE"
 * plaintext footer:  ... ‖ FileMetaData ‖ nonce (12) ‖ tag (16)    ‖ len (4, LE) ‖ "PAR1"
 * ```
 * `len` covers everything between the column data and itself.
 * @module
 */
import {
  type FileMetaData,
  decodeThrift,
  encodeThrift,
  readFileCryptoMetaData,
  readFileMetaData,
  writeFileCryptoMetaData,
  writeFileMetaData,
} from '@parquetry/thrift-compact';
import { SIGNATURE_LENGTH } from './aes-gcm.js';
import { type FileDecryptionProperties, type FileDecryptor, createFileDecryptor } from './decryptor.js';
import type { FileEncryptor } from './encryptor.js';
import { cryptoError } from './errors.js';

/** The magic bytes of a file with an encrypted footer: "PARE". */
export const MAGIC_ENCRYPTED_FOOTER: Uint8Array = /*#__PURE__*/ new Uint8Array([0x50, 0x41, 0x52, 0x45]);
/** The magic bytes of a plaintext-footer file (encrypted or not): "PAR1". */
export const MAGIC_PLAINTEXT_FOOTER: Uint8Array = /*#__PURE__*/ new Uint8Array([0x50, 0x41, 0x52, 0x31]);

/** A decrypted (or verified) footer with the decryptor for the rest of the file. */
export interface OpenedFooter {
  /** The file metadata. */
  readonly fileMetaData: FileMetaData;
  /** Decrypts the file's column modules. */
  readonly decryptor: FileDecryptor;
  /** Plaintext footer only: whether its signature was verified (false when no footer key was available or verification was switched off). */
  readonly signatureVerified: boolean;
}

/**
 * Opens an encrypted footer ("PARE" files).
 * @param footer - the `len` bytes before the final length and magic: `FileCryptoMetaData ‖ footer module`.
 * @param props - the reader's keys and AAD prefix.
 * @param baseOffset - file offset of `footer[0]`, for error offsets.
 * @returns the decrypted `FileMetaData` and the file decryptor.
 * @throws ParquetError `DECRYPTION_FAILED`, `KEY_MISSING`, `AAD_PREFIX_REQUIRED`, `AAD_PREFIX_MISMATCH`,
 *   `UNSUPPORTED_ENCRYPTION`, and the thrift-compact codes for a malformed `FileCryptoMetaData` or `FileMetaData`.
 */
export async function openEncryptedFooter(footer: Uint8Array, props: FileDecryptionProperties, baseOffset = 0): Promise<OpenedFooter> {
  const { value: fcmd, end } = decodeThrift(readFileCryptoMetaData, footer, 0, footer.length, baseOffset);
  const decryptor = createFileDecryptor(props, fcmd.encryption_algorithm, fcmd.key_metadata);
  const plain = await decryptor.decryptFooter(footer.subarray(end));
  const fileMetaData = decodeThrift(readFileMetaData, plain).value;
  return { fileMetaData, decryptor, signatureVerified: false };
}

/**
 * Opens a signed plaintext footer of an encrypted "PAR1" file and verifies its signature when the footer key is
 * known (and `props.verifyFooterSignature` is not false).
 * @param footer - the `len` bytes before the final length and magic: `FileMetaData ‖ 28-byte signature`.
 * @param props - the reader's keys and AAD prefix.
 * @param baseOffset - file offset of `footer[0]`, for error offsets.
 * @returns the `FileMetaData`, the file decryptor and whether the signature was verified.
 * @throws ParquetError `NOT_ENCRYPTED` when the footer has no `encryption_algorithm`, `DECRYPTION_FAILED` when the
 *   signature does not verify or the footer does not end where the signature begins, plus the codes of
 *   {@link createFileDecryptor} and thrift-compact.
 */
export async function openSignedFooter(footer: Uint8Array, props: FileDecryptionProperties, baseOffset = 0): Promise<OpenedFooter> {
  if (footer.length < SIGNATURE_LENGTH) {
    throw cryptoError('DECRYPTION_FAILED', `a signed plaintext footer needs at least ${SIGNATURE_LENGTH} bytes, got ${footer.length}`);
  }
  const metaEnd = footer.length - SIGNATURE_LENGTH;
  const { value: fileMetaData, end } = decodeThrift(readFileMetaData, footer, 0, metaEnd, baseOffset);
  if (fileMetaData.encryption_algorithm === undefined) {
    throw cryptoError('NOT_ENCRYPTED', 'this plaintext footer has no encryption_algorithm: the file is not encrypted');
  }
  if (end !== metaEnd) {
    throw cryptoError('DECRYPTION_FAILED', `plaintext footer ends at byte ${baseOffset + end}, but its signature starts at byte ${baseOffset + metaEnd}`);
  }
  const decryptor = createFileDecryptor(props, fileMetaData.encryption_algorithm, fileMetaData.footer_signing_key_metadata);
  const signatureVerified = props.verifyFooterSignature === false ? false : await decryptor.verifyFooterSignature(footer.subarray(0, metaEnd), footer.subarray(metaEnd));
  return { fileMetaData, decryptor, signatureVerified };
}

/**
 * What a reader takes as its decryption option: footer openers bound to the application's keys. The reader
 * imports only this type, so a reader that never receives one bundles no crypto code.
 */
export interface FileDecryption {
  /** The keys and AAD prefix these openers use. */
  readonly properties: FileDecryptionProperties;
  /**
   * {@link openEncryptedFooter} with these properties.
   * @param footer - `FileCryptoMetaData ‖ footer module`.
   * @param baseOffset - file offset of `footer[0]`.
   * @returns the footer and the file decryptor.
   */
  openEncryptedFooter(footer: Uint8Array, baseOffset?: number): Promise<OpenedFooter>;
  /**
   * {@link openSignedFooter} with these properties.
   * @param footer - `FileMetaData ‖ 28-byte signature`.
   * @param baseOffset - file offset of `footer[0]`.
   * @returns the footer, the file decryptor and whether the signature was verified.
   */
  openSignedFooter(footer: Uint8Array, baseOffset?: number): Promise<OpenedFooter>;
}

/**
 * Binds decryption properties to the footer openers, for injection into a reader.
 * @param properties - the reader's keys, key retriever and AAD prefix.
 * @returns the {@link FileDecryption}.
 */
export function createFileDecryption(properties: FileDecryptionProperties): FileDecryption {
  return {
    properties,
    openEncryptedFooter: (footer, baseOffset = 0) => openEncryptedFooter(footer, properties, baseOffset),
    openSignedFooter: (footer, baseOffset = 0) => openSignedFooter(footer, properties, baseOffset),
  };
}

function tail(body: Uint8Array[], magic: Uint8Array): Uint8Array {
  let len = 0;
  for (const b of body) len += b.length;
  const out = new Uint8Array(len + 8);
  let pos = 0;
  for (const b of body) {
    out.set(b, pos);
    pos += b.length;
  }
  out[pos] = len & 0xff;
  out[pos + 1] = (len >>> 8) & 0xff;
  out[pos + 2] = (len >>> 16) & 0xff;
  out[pos + 3] = len >>> 24;
  out.set(magic, pos + 4);
  return out;
}

/**
 * Builds the end of a file written with `encryptor`: the encrypted footer (or the signed plaintext footer),
 * its length and the final magic. For a plaintext footer, `encryption_algorithm` and
 * `footer_signing_key_metadata` are set on a copy of `fileMetaData` before it is serialized and signed.
 * @param encryptor - the file's encryptor.
 * @param fileMetaData - the footer, with every column's `crypto_metadata` / `encrypted_column_metadata` set.
 * @returns the bytes to append after the last column chunk (the file starts with the matching magic,
 *   "PARE" for an encrypted footer and "PAR1" for a plaintext one).
 * @throws ParquetError `ENCRYPTION_FAILED`, `INVALID_KEY`, `THRIFT_REQUIRED_FIELD`.
 */
export async function writeEncryptedFileTail(encryptor: FileEncryptor, fileMetaData: FileMetaData): Promise<Uint8Array> {
  if (encryptor.plaintextFooter) {
    const signed: FileMetaData = {
      ...fileMetaData,
      encryption_algorithm: encryptor.algorithm,
      ...(encryptor.footerKeyMetadata !== undefined ? { footer_signing_key_metadata: encryptor.footerKeyMetadata } : {}),
    };
    const bytes = encodeThrift(writeFileMetaData, signed);
    return tail([bytes, await encryptor.signFooter(bytes)], MAGIC_PLAINTEXT_FOOTER);
  }
  const { encryption_algorithm: _a, footer_signing_key_metadata: _k, ...rest } = fileMetaData;
  const footer = await encryptor.encryptFooter(encodeThrift(writeFileMetaData, rest));
  return tail([encodeThrift(writeFileCryptoMetaData, encryptor.fileCryptoMetaData()), footer], MAGIC_ENCRYPTED_FOOTER);
}
