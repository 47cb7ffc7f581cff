// Test helper: re-encrypts a plaintext Parquet file module by module through the writer-side API — what a
// writer does with a FileEncryptor — keeping its pages (so any reader can check the values). Page indexes
// and bloom filters of the input are dropped.
import {
  type ColumnChunk,
  type ColumnMetaData,
  type FileMetaData,
  type PageHeader,
  PageType,
  decodeThrift,
  encodeThrift,
  readFileMetaData,
  readPageHeader,
  writeColumnMetaData,
  writePageHeader,
} from '@parquetry/thrift-compact';
import { type FileEncryptionProperties, MAGIC_ENCRYPTED_FOOTER, MAGIC_PLAINTEXT_FOOTER, ModuleType, createFileEncryptor, writeEncryptedFileTail } from '../src/index.js';

export async function reEncrypt(plain: Uint8Array, props: FileEncryptionProperties): Promise<Uint8Array> {
  const len = new DataView(plain.buffer, plain.byteOffset).getUint32(plain.length - 8, true);
  const fmd = decodeThrift(readFileMetaData, plain, plain.length - 8 - len, plain.length - 8).value;
  const fe = createFileEncryptor(props);
  const parts: Uint8Array[] = [fe.plaintextFooter ? MAGIC_PLAINTEXT_FOOTER : MAGIC_ENCRYPTED_FOOTER];
  let pos = 4;
  const push = (b: Uint8Array) => {
    const at = pos;
    parts.push(b);
    pos += b.length;
    return at;
  };
  const out: FileMetaData = { ...fmd, row_groups: [] };
  for (const [r, rg] of fmd.row_groups.entries()) {
    const columns: ColumnChunk[] = [];
    const rgStart = pos;
    for (const [c, chunk] of rg.columns.entries()) {
      const meta = chunk.meta_data!;
      const ce = fe.columnEncryptor(r, c, meta.path_in_schema);
      let p = meta.dictionary_page_offset ?? meta.data_page_offset;
      const end = p + meta.total_compressed_size;
      const start = pos;
      let ordinal = 0;
      let dictOffset: number | undefined;
      let dataOffset: number | undefined;
      while (p < end) {
        const { value: header, end: bodyStart } = decodeThrift(readPageHeader, plain, p);
        const body = plain.subarray(bodyStart, bodyStart + header.compressed_page_size);
        p = bodyStart + header.compressed_page_size;
        const isDict = header.type === PageType.DICTIONARY_PAGE;
        let at: number;
        if (ce !== undefined) {
          const encBody = await ce.encrypt(isDict ? ModuleType.DICTIONARY_PAGE : ModuleType.DATA_PAGE, ordinal, body);
          const h: PageHeader = { ...header, compressed_page_size: encBody.length };
          at = push(await ce.encrypt(isDict ? ModuleType.DICTIONARY_PAGE_HEADER : ModuleType.DATA_PAGE_HEADER, ordinal, encodeThrift(writePageHeader, h)));
          push(encBody);
        } else {
          at = push(encodeThrift(writePageHeader, header));
          push(body);
        }
        if (isDict) dictOffset = at;
        else {
          dataOffset ??= at;
          ordinal++;
        }
      }
      const { bloom_filter_offset: _b, bloom_filter_length: _bl, dictionary_page_offset: _d, ...kept } = meta;
      const newMeta: ColumnMetaData = { ...kept, data_page_offset: dataOffset!, total_compressed_size: pos - start, ...(dictOffset !== undefined ? { dictionary_page_offset: dictOffset } : {}) };
      const nc: ColumnChunk = { file_offset: start };
      if (ce === undefined) nc.meta_data = newMeta;
      else {
        nc.crypto_metadata = ce.cryptoMetaData;
        if (ce.encryptsColumnMetaData) {
          nc.encrypted_column_metadata = await ce.encrypt(ModuleType.COLUMN_META_DATA, 0, encodeThrift(writeColumnMetaData, newMeta));
          if (fe.plaintextFooter) {
            const { statistics: _s, ...stripped } = newMeta;
            nc.meta_data = stripped;
          }
        } else nc.meta_data = newMeta;
      }
      columns.push(nc);
    }
    out.row_groups.push({ ...rg, columns, file_offset: rgStart, total_compressed_size: pos - rgStart, ordinal: r });
  }
  parts.push(await writeEncryptedFileTail(fe, out));
  const file = new Uint8Array(pos + parts[parts.length - 1]!.length);
  let o = 0;
  for (const b of parts) {
    file.set(b, o);
    o += b.length;
  }
  return file;
}
