/**
 * The decryption side of `@parquetry/parquet-crypto` that the reader uses, loaded with `import()` only when a file is
 * encrypted, and the decryption of encrypted column metadata. Importing these names (not the package's namespace)
 * lets a bundler leave the encryption side and the thrift struct writers it needs out of the lazy chunk.
 * Spec: https://github.com/apache/parquet-format/blob/master/Encryption.md
 * @module
 */
import type { ColumnDescriptor } from '@parquetry/parquet-levels/read';
import { ParquetError, decodeThrift, isParquetError, readColumnMetaData, type ColumnChunk, type ColumnMetaData } from '@parquetry/thrift-compact';

import type { ColumnDecryptor } from '@parquetry/parquet-crypto';

export { openEncryptedFooter, openSignedFooter } from '@parquetry/parquet-crypto';

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
