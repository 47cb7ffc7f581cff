// A small test harness (not a reader): walks the pages of one column chunk, decodes the level
// streams with this package's decoders and the values with @parquetry/parquet-encodings, and
// returns the column's levels and values for assembly. Full file reading belongs to parquet-reader.
import zlib from 'node:zlib';
import snappy from 'snappy';
import { CompressionCodec, Encoding, PageType, ParquetError, decodeThrift, readPageHeader } from '@parquetry/thrift-compact';
import type { ColumnChunk } from '@parquetry/thrift-compact';
import { decodeDictionaryPage, decodeValues } from '@parquetry/parquet-encodings';
import type { ColumnValues } from '@parquetry/parquet-encodings';
import { decodeLevelsV1, decodeLevelsV2 } from '../src/index.js';
import type { ColumnData, ColumnDescriptor } from '../src/index.js';

function decompress(codec: number, src: Uint8Array, size: number): Uint8Array {
  if (codec === CompressionCodec.UNCOMPRESSED) return src;
  if (size === 0) return new Uint8Array(0);
  if (codec === CompressionCodec.SNAPPY) return new Uint8Array(snappy.uncompressSync(Buffer.from(src)) as Buffer);
  if (codec === CompressionCodec.GZIP) return new Uint8Array(zlib.gunzipSync(src));
  throw new Error(`harness: codec ${codec} not handled`);
}

const utf8 = new TextDecoder();
function toJs(v: ColumnValues, column: ColumnDescriptor): unknown[] {
  if ('offsets' in v) {
    const out: unknown[] = [];
    const str = column.node.logicalType?.STRING !== undefined;
    for (let i = 0; i + 1 < v.offsets.length; i++) {
      const b = v.data.subarray(v.offsets[i]!, v.offsets[i + 1]!);
      out.push(str ? utf8.decode(b) : b);
    }
    return out;
  }
  if ('width' in v) {
    const out: unknown[] = [];
    for (let i = 0; i * v.width < v.data.length; i++) out.push(v.data.subarray(i * v.width, (i + 1) * v.width));
    return out;
  }
  if (column.type === 0) return Array.from(v as Uint8Array, (x) => x === 1);
  return Array.from(v as ArrayLike<unknown>);
}

/** Levels and values of one column chunk, plus the row count of each page. */
export function readChunk(bytes: Uint8Array, chunk: ColumnChunk, column: ColumnDescriptor): ColumnData & { numLevels: number; def: Int32Array; rep: Int32Array; values: unknown[] } {
  const md = chunk.meta_data!;
  const total = md.num_values;
  if (total > bytes.length * 8) throw new ParquetError('CORRUPT', `harness: num_values ${total} is impossible for the file size`);
  let def = new Int32Array(total);
  let rep = new Int32Array(total);
  // Pages are trusted over the chunk's num_values (so that level validation sees what they hold);
  // the arrays grow, bounded by the page sizes.
  const grow = (k: number): void => {
    if (n + k <= def.length) return;
    const d2 = new Int32Array(n + k);
    d2.set(def);
    def = d2;
    const r2 = new Int32Array(n + k);
    r2.set(rep);
    rep = r2;
  };
  const values: unknown[] = [];
  let dict: ColumnValues | undefined;
  let pos = md.dictionary_page_offset !== undefined && md.dictionary_page_offset > 0 ? Math.min(md.dictionary_page_offset, md.data_page_offset) : md.data_page_offset;
  let n = 0;
  let pages = 0;
  const desc = { type: column.type, ...(column.typeLength === undefined ? {} : { typeLength: column.typeLength }) };
  while (n < total) {
    const { value: h, end } = decodeThrift(readPageHeader, bytes, pos);
    const pageEnd = end + h.compressed_page_size;
    if (pageEnd > bytes.length) throw new ParquetError('CORRUPT', `harness: page at ${pos} runs past the file`);
    const raw = bytes.subarray(end, pageEnd);
    if (h.type === PageType.DICTIONARY_PAGE) {
      const page = decompress(md.codec, raw, h.uncompressed_page_size);
      dict = decodeDictionaryPage(page, 0, page.length, h.dictionary_page_header!.num_values, desc).values;
    } else if (h.type === PageType.DATA_PAGE) {
      const ph = h.data_page_header!;
      const page = decompress(md.codec, raw, h.uncompressed_page_size);
      const k = ph.num_values;
      if (k > page.length * 8) throw new ParquetError('INVALID_LEVELS', `harness: page num_values ${k} impossible for ${page.length} bytes`);
      grow(k);
      let p = decodeLevelsV1(page, 0, page.length, column.maxRep, rep, n, k, ph.repetition_level_encoding, 'repetition');
      p = decodeLevelsV1(page, p, page.length, column.maxDef, def, n, k, ph.definition_level_encoding);
      let present = 0;
      for (let i = n; i < n + k; i++) if (def[i] === column.maxDef) present++;
      const enc = ph.encoding === Encoding.PLAIN_DICTIONARY ? Encoding.RLE_DICTIONARY : ph.encoding;
      values.push(...toJs(decodeValues(enc, page, p, page.length, present, desc, dict).values, column));
      n += k;
    } else if (h.type === PageType.DATA_PAGE_V2) {
      const ph = h.data_page_header_v2!;
      const k = ph.num_values;
      if (k > raw.length * 8 + 64) throw new ParquetError('INVALID_LEVELS', `harness: page num_values ${k} impossible for ${raw.length} bytes`);
      grow(k);
      let p = decodeLevelsV2(raw, 0, ph.repetition_levels_byte_length, column.maxRep, rep, n, k, 'repetition');
      p = decodeLevelsV2(raw, p, ph.definition_levels_byte_length, column.maxDef, def, n, k);
      const vals = ph.is_compressed === false ? raw.subarray(p) : decompress(md.codec, raw.subarray(p), h.uncompressed_page_size - p);
      const present = k - ph.num_nulls;
      const enc = ph.encoding === Encoding.PLAIN_DICTIONARY ? Encoding.RLE_DICTIONARY : ph.encoding;
      values.push(...toJs(decodeValues(enc, vals, 0, vals.length, present, desc, dict).values, column));
      n += k;
    }
    pos = pageEnd;
    if (h.type === PageType.DATA_PAGE || h.type === PageType.DATA_PAGE_V2) pages++;
    if (n >= total && pages > 0) break;
  }
  return { def, rep, values, numLevels: n };
}
