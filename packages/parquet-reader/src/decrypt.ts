/**
 * The decryption side of `@parquetry/parquet-crypto` that the reader uses, loaded with `import()` only when a file is
 * encrypted, and the decryption of encrypted column metadata. Importing these names (not the package's namespace)
 * lets a bundler leave the encryption side and the thrift struct writers it needs out of the lazy chunk.
 * Spec: https://github.com/apache/parquet-format/blob/master/Encryption.md
 * @module
 */
import './file.js';
import type { ColumnDescriptor } from '@parquetry/parquet-levels/read';
import { ParquetError, decodeThrift, isParquetError, readColumnMetaData, type ColumnChunk, type ColumnMetaData, type FileMetaData } from '@parquetry/thrift-compact';

import { openEncryptedFooter, openSignedFooter, type ColumnDecryptor, type FileDecryptor } from '@parquetry/parquet-crypto';
import type { File, OpenOptions } from './file.js';
import type { RawFooter } from './footer.js';

export { openEncryptedFooter, openSignedFooter };

/**
 * Opens an encrypted file (openParquet's path for a footer encrypted with the footer key, "PARE", or a plaintext
 * footer naming an encryption algorithm, whose signature is verified when the footer key is known), then decrypts
 * every chunk's `encrypted_column_metadata` once, all at the same time (a key is resolved once per column, not per
 * chunk). A chunk that cannot be decrypted keeps its error, thrown when its metadata is asked for: the file opens
 * whatever keys it was given, and its other columns stay readable.
 * @param raw - the footer's bytes.
 * @param options - the open options (`decryption` is required for "PARE": openParquet checks it).
 * @param open - makes the file from the decrypted footer and its decryptor.
 * @returns the file.
 * @throws ParquetError the footer decryption's codes.
 */
export async function openEncrypted(raw: RawFooter, options: OpenOptions, open: (md: FileMetaData, decryptor: FileDecryptor | undefined) => File): Promise<File> {
  const opened = raw.magic === 'PARE' ? await openEncryptedFooter(raw.bytes, options.decryption!, raw.offset) : await openSignedFooter(raw.bytes, options.decryption ?? {}, raw.offset);
  const file = open(opened.fileMetaData, opened.decryptor);
  const ncols = file.schema.columns.length;
  const jobs: Promise<void>[] = [];
  file.metadata.row_groups.forEach((rg, g) => {
    const row: (typeof file.encryptedMeta)[number] = (file.encryptedMeta[g] = []);
    rg.columns.forEach((cc, i) => {
      if (i >= ncols || cc.encrypted_column_metadata === undefined || cc.crypto_metadata === undefined) return;
      jobs.push(decryptMeta(file, g, i, cc).then((md) => void (row[i] = { md }), (error: ParquetError) => void (row[i] = { error })));
    });
  });
  await Promise.all(jobs);
  return file;
}

/**
 * Decrypts and decodes one chunk's `encrypted_column_metadata` with the file's decryptor.
 * @param file - the file.
 * @param g - row group ordinal.
 * @param i - leaf column index.
 * @param cc - the column chunk.
 * @returns the decrypted ColumnMetaData.
 * @throws ParquetError as {@link decryptColumnMeta}.
 */
export function decryptMeta(file: File, g: number, i: number, cc: ColumnChunk): Promise<ColumnMetaData> {
  const col = file.schema.columns[i]!;
  return decryptColumnMeta(file.decryptor ? () => file.columnDecryptor(g, col, cc) : undefined, g, col, cc);
}

/**
 * Decrypts and decodes one chunk's `encrypted_column_metadata` (module type ColumnMetaData, AAD with the row group
 * and column ordinals).
 * @param columnDecryptor - makes the chunk's decryptor (undefined when the file names no encryption algorithm).
 * @param g - row group ordinal, for messages.
 * @param col - the chunk's column.
 * @param cc - the column chunk.
 * @returns the decrypted ColumnMetaData.
 * @throws ParquetError the decryption codes (`DECRYPTION_FAILED` for any other failure), `MISSING_METADATA` without a
 *   decryptor, `CORRUPT_METADATA` when the plaintext does not decode, each naming the row group, column and key.
 */
export async function decryptColumnMeta(columnDecryptor: (() => ColumnDecryptor) | undefined, g: number, col: ColumnDescriptor, cc: ColumnChunk): Promise<ColumnMetaData> {
  const where = `parquet-reader: row group ${g}, column '${col.pathString}'`;
  let plain: Uint8Array;
  try {
    if (!columnDecryptor) throw new ParquetError('MISSING_METADATA', 'the file names no encryption algorithm');
    plain = await columnDecryptor().decrypt(1 /* COLUMN_META_DATA */, 0, cc.encrypted_column_metadata!);
  } catch (e) {
    const code = isParquetError(e) ? e.code : 'DECRYPTION_FAILED';
    const key = cc.crypto_metadata?.ENCRYPTION_WITH_COLUMN_KEY ? `the column key of '${cc.crypto_metadata.ENCRYPTION_WITH_COLUMN_KEY.path_in_schema.join('.')}'` : 'the footer key';
    throw new ParquetError(code, `${where}: its ColumnMetaData is encrypted with ${key} and cannot be decrypted: ${e instanceof Error ? e.message : String(e)}`, undefined, { cause: e });
  }
  try {
    return decodeThrift(readColumnMetaData, plain).value;
  } catch (e) {
    throw new ParquetError('CORRUPT_METADATA', `${where}: the decrypted ColumnMetaData (${plain.length} bytes) does not decode: ${e instanceof Error ? e.message : String(e)}`, undefined, { cause: e });
  }
}
