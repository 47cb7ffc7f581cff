// Test helper: opens an encrypted corpus file with this package and walks every module of it
// (footer, column metadata, page headers, pages, column/offset indexes, bloom filters) using the
// generated Parquet model to parse what comes out. Not part of the package.
import {
  type ColumnMetaData,
  type FileMetaData,
  type PageHeader,
  decodeThrift,
  readBloomFilterHeader,
  readColumnIndex,
  readColumnMetaData,
  readOffsetIndex,
  readPageHeader,
} from '@parquetry/thrift-compact';
import {
  type ColumnDecryptor,
  type FileDecryptionProperties,
  ModuleType,
  encryptedModuleSize,
  openEncryptedFooter,
  openSignedFooter,
} from '../src/index.js';

export interface WalkedPage {
  header: PageHeader;
  /** The page body after decryption (still compressed). */
  body: Uint8Array;
  /** File offset of the page header. */
  offset: number;
  /** Bytes of header module + page module in the file. */
  size: number;
}

export interface WalkedColumn {
  rowGroup: number;
  column: number;
  path: string[];
  encrypted: boolean;
  meta: ColumnMetaData;
  pages: WalkedPage[];
  columnIndex: boolean;
  offsetIndex: { offset: number; compressed_page_size: number }[] | undefined;
  bloomBitset: Uint8Array | undefined;
  modules: number;
  /** Whether the ColumnMetaData came from encrypted_column_metadata. */
  separateMeta: boolean;
}

/** Where one encrypted module sits in the file. */
export interface ModuleSpan {
  offset: number;
  size: number;
  type: number;
  column: number;
}

export interface Walked {
  /** Every encrypted module read from the file (column metadata inside the footer excluded). */
  spans: ModuleSpan[];
  fileMetaData: FileMetaData;
  signatureVerified: boolean;
  encryptedFooter: boolean;
  columns: WalkedColumn[];
}

const le32 = (b: Uint8Array, p: number) => (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;

/** Returns the footer region (between column data and the final length) and whether it is encrypted. */
export function footerRegion(file: Uint8Array): { footer: Uint8Array; start: number; encrypted: boolean } {
  const len = le32(file, file.length - 8);
  const start = file.length - 8 - len;
  return { footer: file.subarray(start, file.length - 8), start, encrypted: file[file.length - 1] === 0x45 };
}

export async function walkFile(file: Uint8Array, props: FileDecryptionProperties): Promise<Walked> {
  const { footer, start, encrypted } = footerRegion(file);
  const opened = encrypted ? await openEncryptedFooter(footer, props, start) : await openSignedFooter(footer, props, start);
  const fmd = opened.fileMetaData;
  const columns: WalkedColumn[] = [];
  const spans: ModuleSpan[] = [];
  for (let r = 0; r < fmd.row_groups.length; r++) {
    const rg = fmd.row_groups[r]!;
    const rgOrdinal = rg.ordinal ?? r;
    for (let c = 0; c < rg.columns.length; c++) {
      const chunk = rg.columns[c]!;
      let cd: ColumnDecryptor | undefined;
      let meta: ColumnMetaData;
      let modules = 0;
      if (chunk.crypto_metadata !== undefined) {
        cd = opened.decryptor.columnDecryptor(rgOrdinal, c, chunk.crypto_metadata, chunk.meta_data?.path_in_schema);
        if (chunk.encrypted_column_metadata !== undefined) {
          meta = decodeThrift(readColumnMetaData, await cd.decrypt(ModuleType.COLUMN_META_DATA, 0, chunk.encrypted_column_metadata)).value;
          modules++;
        } else {
          meta = chunk.meta_data!;
        }
      } else {
        meta = chunk.meta_data!;
      }
      const dict = meta.dictionary_page_offset;
      let pos = dict !== undefined && dict > 0 && dict < meta.data_page_offset ? dict : meta.data_page_offset;
      const end = pos + meta.total_compressed_size;
      const pages: WalkedPage[] = [];
      let ordinal = 0;
      while (pos < end) {
        const offset = pos;
        const isDict = pos === dict;
        let header: PageHeader;
        if (cd !== undefined) {
          const size = encryptedModuleSize(file, pos);
          const type = isDict ? ModuleType.DICTIONARY_PAGE_HEADER : ModuleType.DATA_PAGE_HEADER;
          spans.push({ offset: pos, size, type, column: c });
          header = decodeThrift(readPageHeader, await cd.decrypt(type, ordinal, file.subarray(pos, pos + size))).value;
          pos += size;
          modules++;
        } else {
          const d = decodeThrift(readPageHeader, file, pos);
          header = d.value;
          pos = d.end;
        }
        const raw = file.subarray(pos, pos + header.compressed_page_size);
        pos += header.compressed_page_size;
        const body = cd !== undefined ? await cd.decrypt(isDict ? ModuleType.DICTIONARY_PAGE : ModuleType.DATA_PAGE, ordinal, raw) : raw;
        if (cd !== undefined) {
          modules++;
          spans.push({ offset: pos - header.compressed_page_size, size: header.compressed_page_size, type: isDict ? ModuleType.DICTIONARY_PAGE : ModuleType.DATA_PAGE, column: c });
        }
        if (!isDict) ordinal++;
        pages.push({ header, body, offset, size: pos - offset });
      }
      if (pos !== end) throw new Error(`walk overran column chunk ${r}/${c}: ${pos} vs ${end}`);
      let columnIndex = false;
      if (chunk.column_index_offset !== undefined && chunk.column_index_length !== undefined) {
        const bytes = file.subarray(chunk.column_index_offset, chunk.column_index_offset + chunk.column_index_length);
        const plain = cd !== undefined ? await cd.decrypt(ModuleType.COLUMN_INDEX, 0, bytes) : bytes;
        if (cd !== undefined) {
          modules++;
          spans.push({ offset: chunk.column_index_offset, size: chunk.column_index_length, type: ModuleType.COLUMN_INDEX, column: c });
        }
        decodeThrift(readColumnIndex, plain);
        columnIndex = true;
      }
      let offsetIndex: WalkedColumn['offsetIndex'];
      if (chunk.offset_index_offset !== undefined && chunk.offset_index_length !== undefined) {
        const bytes = file.subarray(chunk.offset_index_offset, chunk.offset_index_offset + chunk.offset_index_length);
        const plain = cd !== undefined ? await cd.decrypt(ModuleType.OFFSET_INDEX, 0, bytes) : bytes;
        if (cd !== undefined) {
          modules++;
          spans.push({ offset: chunk.offset_index_offset, size: chunk.offset_index_length, type: ModuleType.OFFSET_INDEX, column: c });
        }
        offsetIndex = decodeThrift(readOffsetIndex, plain).value.page_locations;
      }
      let bloomBitset: Uint8Array | undefined;
      if (meta.bloom_filter_offset !== undefined) {
        let p = meta.bloom_filter_offset;
        if (cd !== undefined) {
          const hsize = encryptedModuleSize(file, p);
          spans.push({ offset: p, size: hsize, type: ModuleType.BLOOM_FILTER_HEADER, column: c });
          const header = decodeThrift(readBloomFilterHeader, await cd.decrypt(ModuleType.BLOOM_FILTER_HEADER, 0, file.subarray(p, p + hsize))).value;
          p += hsize;
          const bsize = encryptedModuleSize(file, p);
          spans.push({ offset: p, size: bsize, type: ModuleType.BLOOM_FILTER_BITSET, column: c });
          bloomBitset = await cd.decrypt(ModuleType.BLOOM_FILTER_BITSET, 0, file.subarray(p, p + bsize));
          modules += 2;
          if (bloomBitset.length !== header.numBytes) throw new Error(`bitset ${bloomBitset.length} bytes, header says ${header.numBytes}`);
        } else {
          const d = decodeThrift(readBloomFilterHeader, file, p);
          bloomBitset = file.subarray(d.end, d.end + d.value.numBytes);
        }
      }
      columns.push({ rowGroup: r, column: c, path: meta.path_in_schema, encrypted: cd !== undefined, meta, pages, columnIndex, offsetIndex, bloomBitset, modules, separateMeta: chunk.encrypted_column_metadata !== undefined && cd !== undefined });
    }
  }
  return { spans, fileMetaData: fmd, signatureVerified: opened.signatureVerified, encryptedFooter: encrypted, columns };
}
