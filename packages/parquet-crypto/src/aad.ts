/**
 * Module AAD construction (Encryption.md §4.4 "Additional Authenticated Data").
 * Spec: https://github.com/apache/parquet-format/blob/master/Encryption.md#44-additional-authenticated-data
 *
 * ```
 * module AAD = aad_prefix ‖ aad_file_unique ‖ module type (1 byte)
 *              ‖ row group ordinal (i16 LE) ‖ column ordinal (i16 LE)   -- every module except the footer
 *              ‖ page ordinal (i16 LE)                                  -- data pages and data page headers only
 * ```
 * @module
 */
import { cryptoError } from './errors.js';
import { MODULE_NAMES, ModuleType, hasPageOrdinal } from './module-type.js';

/** The largest row group, column or page ordinal an AAD can carry (a signed 16-bit short). */
export const MAX_ORDINAL = 32767;

/**
 * Joins the AAD prefix and the file-unique id into the part of the AAD shared by every module of a file.
 * @param aadPrefix - the AAD prefix (stored in the file or supplied by the reader), or undefined.
 * @param aadFileUnique - the file's random unique id (`aad_file_unique`).
 * @returns `aadPrefix ‖ aadFileUnique` (a new array).
 */
export function fileAad(aadPrefix: Uint8Array | undefined, aadFileUnique: Uint8Array): Uint8Array {
  const p = aadPrefix === undefined ? 0 : aadPrefix.length;
  const out = new Uint8Array(p + aadFileUnique.length);
  if (aadPrefix !== undefined) out.set(aadPrefix, 0);
  out.set(aadFileUnique, p);
  return out;
}

function checkOrdinal(what: string, v: number, type: ModuleType): void {
  if (!Number.isInteger(v) || v < 0 || v > MAX_ORDINAL) {
    throw cryptoError(
      'ORDINAL_OUT_OF_RANGE',
      `${what} ordinal ${v} of a ${MODULE_NAMES[type] ?? 'module'} AAD is outside 0..${MAX_ORDINAL} (an encrypted file cannot have more than ${MAX_ORDINAL + 1} ${what}s${what === 'page' ? ' per column chunk' : ''})`,
    );
  }
}

/**
 * Builds the AAD of one module.
 * @param fileAadBytes - `aad_prefix ‖ aad_file_unique` from {@link fileAad}.
 * @param type - the module type.
 * @param rowGroup - row group ordinal (ignored for the footer).
 * @param column - column ordinal within the row group (ignored for the footer).
 * @param page - page ordinal within the column chunk, counting data pages only from 0 (used only for data pages and data page headers).
 * @returns the AAD bytes.
 * @throws ParquetError `ORDINAL_OUT_OF_RANGE` when an ordinal the module needs is not an integer in 0..32767,
 *   `INVALID_MODULE_TYPE` for a module type outside 0..9.
 */
export function moduleAad(fileAadBytes: Uint8Array, type: ModuleType, rowGroup: number, column: number, page: number): Uint8Array {
  if (!Number.isInteger(type) || type < 0 || type > 9) {
    throw cryptoError('INVALID_MODULE_TYPE', `module type ${String(type)} is not one of 0..9`);
  }
  const n = fileAadBytes.length;
  if (type === ModuleType.FOOTER) {
    const out = new Uint8Array(n + 1);
    out.set(fileAadBytes, 0);
    out[n] = 0;
    return out;
  }
  checkOrdinal('row group', rowGroup, type);
  checkOrdinal('column', column, type);
  const withPage = hasPageOrdinal(type);
  if (withPage) checkOrdinal('page', page, type);
  const out = new Uint8Array(n + (withPage ? 7 : 5));
  out.set(fileAadBytes, 0);
  out[n] = type;
  out[n + 1] = rowGroup & 0xff;
  out[n + 2] = rowGroup >>> 8;
  out[n + 3] = column & 0xff;
  out[n + 4] = column >>> 8;
  if (withPage) {
    out[n + 5] = page & 0xff;
    out[n + 6] = page >>> 8;
  }
  return out;
}
