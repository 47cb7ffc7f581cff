/**
 * A column chunk's page index as the file stores it, for inspection (`ParquetFile.pageIndex`): the OffsetIndex
 * and ColumnIndex structures, decrypted (Encryption.md module types 7 and 6) when the column is encrypted and the
 * file was opened with its key. Reads use page-index.ts instead, which checks the structures and drops one that does
 * not agree with the chunk; this returns what the file says, and a structure that does not decode is an error.
 *
 * Loaded with `import()` (see optional.ts) only by a call of `pageIndex`.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/PageIndex.md, parquet.thrift `ColumnIndex`, `OffsetIndex`.
 * @module
 */
import './file.js';
import { ParquetError, decodeThrift, isParquetError, readColumnIndex, readOffsetIndex, type ColumnIndex, type CompactReader, type OffsetIndex } from '@parquetry/thrift-compact';
import type { ScanContext } from './pipeline.js';
import type { KindRange } from './scan.js';

/** A column chunk's page index: the structures of PageIndex.md, decoded. */
export interface PageIndex {
  /** The OffsetIndex: each page's location, size and first row. */
  offsetIndex: OffsetIndex;
  /** The ColumnIndex (each page's bounds and null counts), when the chunk has one. */
  columnIndex: ColumnIndex | undefined;
}

/**
 * Reads one column chunk's page index (`ParquetFile.pageIndex`).
 * @param ctx - the file's scan context.
 * @param rowGroup - row group ordinal (checked by the caller).
 * @param column - leaf column ordinal (checked by the caller).
 * @returns the structures, or undefined when the chunk has no OffsetIndex.
 * @throws ParquetError `CORRUPT_PAGE_INDEX` for a structure outside the data region or that does not decode, the
 *   source's errors, and decryption errors (a wrong key, a tampered index).
 */
export async function readChunkPageIndex(ctx: ScanContext, rowGroup: number, column: number): Promise<PageIndex | undefined> {
  const cc = ctx.metadata.row_groups[rowGroup]!.columns[column]!;
  const path = ctx.schema.columns[column]!.pathString;
  if (cc.offset_index_offset === undefined) return undefined;
  const where = `parquet-reader: row group ${rowGroup}, column '${path}'`;
  const range = (what: string, off: number, len: number | undefined): KindRange => {
    if (!(Number.isSafeInteger(off) && off >= 4 && len !== undefined && Number.isSafeInteger(len) && len > 0 && off + len <= ctx.footerOffset)) {
      throw new ParquetError('CORRUPT_PAGE_INDEX', `${where}: ${what} [${off}, ${len === undefined ? '?' : off + len}) is not inside the data region [4, ${ctx.footerOffset})`, off);
    }
    return { start: off, end: off + len, kind: 'index' };
  };
  const ranges = [range('OffsetIndex', cc.offset_index_offset, cc.offset_index_length)];
  if (cc.column_index_offset !== undefined) ranges.push(range('ColumnIndex', cc.column_index_offset, cc.column_index_length));
  const bytes = await ctx.io.fetch(ranges, undefined);
  const dec = ctx.decrypt(rowGroup, column);
  const decode = async <T>(read: (r: CompactReader) => T, k: number, module: 6 | 7, what: string): Promise<T> => {
    const at = ranges[k]!.start;
    // decryption errors (a wrong key, a tampered index) pass through: only a plaintext that does not decode is corrupt
    const plain = dec ? await dec(module, 0, bytes[k]!) : bytes[k]!;
    try {
      return decodeThrift(read, plain, 0, plain.length, dec ? 0 : at).value;
    } catch (e) {
      if (!isParquetError(e)) throw e;
      throw new ParquetError('CORRUPT_PAGE_INDEX', `${where}: the ${what} at byte ${at} does not decode: ${e.message}`, at, { cause: e });
    }
  };
  const offsetIndex = await decode(readOffsetIndex, 0, 7, 'OffsetIndex');
  const columnIndex = ranges.length > 1 ? await decode(readColumnIndex, 1, 6, 'ColumnIndex') : undefined;
  return { offsetIndex, columnIndex };
}
