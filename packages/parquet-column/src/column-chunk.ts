/**
 * Decoding one column chunk: its pages (dictionary, data page V1 and V2), checksums, decompression, level
 * streams and values, into one set of definition/repetition levels and non-null physical values.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (pages, nested encoding) and
 * Encodings.md. Every size and count in a page header is untrusted and checked before use.
 *
 * @module
 */
import { crc32, decompressPage, type CodecMap } from '@parquetry/parquet-codecs';
import { applyDictionary, decodeBitPacked, decodeDictionaryIndices, decodeDictionaryValues, decodeRleHybrid, decodeRleHybridPrefixed, rleHybridAllEqual, decodeDictionaryPage, decodeValues, bitWidthOf, type ColumnValues } from '@parquetry/parquet-encodings';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import {
  Encoding,
  EncodingNames,
  PageType,
  ParquetError,
  Type,
  decodeThrift,
  isParquetError,
  readPageHeader,
  type ColumnMetaData,
  type PageHeader,
} from '@parquetry/thrift-compact';
import { concatValues, physicalLength } from './values.js';

/** Where a chunk is, for error messages. */
export interface ChunkLocation {
  /** Row group ordinal. */
  rowGroup: number;
  /** Dotted column path. */
  path: string;
  /** File offset of the chunk's first byte. */
  offset: number;
}

/** Options of {@link decodeColumnChunk}. */
export interface ChunkDecodeOptions {
  /** Codecs by CompressionCodec number. */
  codecs?: CodecMap | undefined;
  /** Verify page CRC32 checksums when present (default true). */
  verifyChecksums?: boolean | undefined;
  /** Largest number of values one page may claim (default 2^26). */
  maxPageValues?: number | undefined;
  /**
   * Decrypts one module of an encrypted chunk: `module` is the Encryption.md module type (2 data page,
   * 3 dictionary page, 4 data page header, 5 dictionary page header), `page` the data page ordinal.
   */
  decrypt?: ((module: number, page: number, bytes: Uint8Array) => Promise<Uint8Array>) | undefined;
}

/** A decoded column chunk. */
export interface DecodedChunk {
  /** Definition levels (undefined when the max definition level is 0 or every level is at the max). */
  def: Int32Array | undefined;
  /** Repetition levels (undefined when the max repetition level is 0). */
  rep: Int32Array | undefined;
  /** Number of level entries (values including nulls). */
  numLevels: number;
  /** The chunk's dictionary page values, when it has one. */
  dictionary: ColumnValues | undefined;
  /**
   * Non-null values, page after page: dictionary-encoded pages keep their indices (so each dictionary entry is
   * converted once), other pages their physical values. {@link chunkValues} materialises them.
   */
  segments: ValueSegment[];
  /** Number of non-null values. */
  numValues: number;
  /** Pages decoded (data pages only). */
  pages: number;
}

/** A run of non-null values: dictionary indices or physical values. */
export type ValueSegment = { indices: Int32Array; values?: undefined } | { values: ColumnValues; indices?: undefined };

/**
 * The chunk's non-null physical values as one array (dictionary indices resolved).
 * @param chunk - a decoded chunk.
 * @param column - its column.
 * @returns the values.
 */
export function chunkValues(chunk: DecodedChunk, column: ColumnDescriptor): ColumnValues {
  const parts = chunk.segments.map((s) => (s.indices ? applyDictionary(chunk.dictionary!, s.indices) : s.values!));
  return concatValues(parts, emptyValues(column.type, column.typeLength));
}

const DEFAULT_MAX_PAGE_VALUES = 1 << 26;

function emptyValues(type: number, typeLength: number | undefined): ColumnValues {
  switch (type) {
    case Type.BOOLEAN:
      return new Uint8Array(0);
    case Type.INT32:
      return new Int32Array(0);
    case Type.INT64:
      return new BigInt64Array(0);
    case Type.FLOAT:
      return new Float32Array(0);
    case Type.DOUBLE:
      return new Float64Array(0);
    case Type.BYTE_ARRAY:
      return { offsets: new Int32Array(1), data: new Uint8Array(0) };
    case Type.INT96:
      return { width: 12, data: new Uint8Array(0) };
    default:
      return { width: typeLength ?? 0, data: new Uint8Array(0) };
  }
}

/**
 * Decodes every page of one column chunk.
 * @param bytes - the chunk's bytes (from its first page header to the end of its last page).
 * @param column - the leaf column (max levels, physical type).
 * @param meta - the chunk's ColumnMetaData.
 * @param where - location for messages.
 * @param options - codecs, checksum verification, limits, decryption.
 * @returns levels and values of the whole chunk.
 * @throws ParquetError naming the row group, column path, page and file offset for any corrupt page.
 */
export async function decodeColumnChunk(bytes: Uint8Array, column: ColumnDescriptor, meta: ColumnMetaData, where: ChunkLocation, options: ChunkDecodeOptions = {}): Promise<DecodedChunk> {
  const verify = options.verifyChecksums ?? true;
  const maxPageValues = options.maxPageValues ?? DEFAULT_MAX_PAGE_VALUES;
  const desc = column.typeLength === undefined ? { type: column.type } : { type: column.type, typeLength: column.typeLength };
  // numeric columns without a DECIMAL annotation convert each value on its own (or not at all): their dictionary
  // pages are resolved to values while decoding
  const gatherNumbers = (column.type === Type.INT32 || column.type === Type.INT64 || column.type === Type.FLOAT || column.type === Type.DOUBLE) && !column.node.logicalType?.DECIMAL;
  // a page whose levels are all at the max definition level keeps only its count
  const defParts: (Int32Array | number)[] = [];
  const repParts: Int32Array[] = [];
  const segments: ValueSegment[] = [];
  let numValues = 0;
  let dictionary: ColumnValues | undefined;
  let numLevels = 0;
  let pages = 0;
  let pos = 0;
  const total = meta.num_values;
  const fail = (code: string, msg: string, at: number, cause?: unknown): never => {
    throw new ParquetError(
      code,
      `parquet-column: row group ${where.rowGroup}, column '${where.path}', page ${pages} at byte ${where.offset + at}: ${msg}`,
      where.offset + at,
      cause === undefined ? undefined : { cause },
    );
  };

  while (pos < bytes.length && numLevels < total) {
    const headerAt = pos;
    let header: PageHeader;
    let bodyStart: number;
    try {
      if (options.decrypt) {
        // encrypted header module: 4-byte length + ciphertext
        const len = bytes.length - pos >= 4 ? (bytes[pos]! | (bytes[pos + 1]! << 8) | (bytes[pos + 2]! << 16) | (bytes[pos + 3]! << 24)) >>> 0 : -1;
        if (len < 0 || len > bytes.length - pos - 4) fail('CORRUPT_PAGE', `encrypted page header length ${len} exceeds the chunk`, pos);
        // the first page of a chunk with a dictionary is the dictionary page; its header has its own module type
        const dictHeader = dictionary === undefined && pages === 0 && pos === 0 && (meta.dictionary_page_offset ?? 0) > 0;
        const plain = await options.decrypt(dictHeader ? 5 : 4, pages, bytes.subarray(pos, pos + 4 + len));
        header = decodeThrift(readPageHeader, plain, 0, plain.length, 0).value;
        bodyStart = pos + 4 + len;
      } else {
        const r = decodeThrift(readPageHeader, bytes, pos, bytes.length, where.offset);
        header = r.value;
        bodyStart = r.end;
      }
    } catch (e) {
      if (isParquetError(e) && e.message.startsWith('parquet-column: row group')) throw e;
      // decryption errors keep their code (DECRYPTION_FAILED, KEY_MISSING, …); a malformed header is CORRUPT_PAGE
      const code = isParquetError(e) && !/^(THRIFT_|EOF|VARINT_|INT64_)/.test(e.code) ? e.code : 'CORRUPT_PAGE';
      return fail(code, `cannot read the page header: ${(e as Error).message}`, headerAt, e);
    }
    const csize = header.compressed_page_size;
    if (!(csize >= 0) || csize > bytes.length - bodyStart) {
      fail('CORRUPT_PAGE', `compressed_page_size ${csize} exceeds the ${bytes.length - bodyStart} bytes left in the chunk`, headerAt);
    }
    let body = bytes.subarray(bodyStart, bodyStart + csize);
    pos = bodyStart + csize;
    if (verify && header.crc !== undefined && (header.type === PageType.DATA_PAGE || header.type === PageType.DATA_PAGE_V2 || header.type === PageType.DICTIONARY_PAGE)) {
      const actual = crc32(body) | 0;
      if (actual !== header.crc) {
        fail('CHECKSUM_MISMATCH', `page CRC32 is ${(actual >>> 0).toString(16)}, the header says ${(header.crc >>> 0).toString(16)}`, headerAt);
      }
    }
    if (options.decrypt && header.type !== PageType.INDEX_PAGE) {
      body = await options.decrypt(header.type === PageType.DICTIONARY_PAGE ? 3 : 2, pages, body);
    }
    const usize = header.uncompressed_page_size;
    try {
      switch (header.type) {
        case PageType.DICTIONARY_PAGE: {
          const dh = header.dictionary_page_header;
          if (!dh) fail('CORRUPT_PAGE', 'dictionary page without dictionary_page_header', headerAt);
          if (dictionary !== undefined) fail('CORRUPT_PAGE', 'a second dictionary page in one column chunk', headerAt);
          const n = dh!.num_values;
          if (!(n >= 0 && n <= maxPageValues)) fail('CORRUPT_PAGE', `dictionary page claims ${n} values`, headerAt);
          const raw = decompressPage(options.codecs, meta.codec, body, usize, where.offset + bodyStart);
          dictionary = decodeDictionaryPage(raw, 0, raw.length, n, desc).values;
          break;
        }
        case PageType.DATA_PAGE: {
          const dh = header.data_page_header;
          if (!dh) fail('CORRUPT_PAGE', 'data page without data_page_header', headerAt);
          const n = dh!.num_values;
          if (!(n >= 0 && n <= maxPageValues)) fail('CORRUPT_PAGE', `data page claims ${n} values, more than the limit ${maxPageValues}`, headerAt);
          const raw = decompressPage(options.codecs, meta.codec, body, usize, where.offset + bodyStart);
          let p = 0;
          let rep: Int32Array | undefined;
          let def: Int32Array | undefined;
          if (column.maxRep > 0) {
            rep = new Int32Array(n);
            p = decodeLevelsV1(raw, p, column.maxRep, rep, n, dh!.repetition_level_encoding);
          }
          if (column.maxDef > 0) {
            const all = dh!.definition_level_encoding === Encoding.BIT_PACKED ? -1 : prefixedAllAt(raw, p, column.maxDef, n);
            if (all >= 0) p = all;
            else {
              def = new Int32Array(n);
              p = decodeLevelsV1(raw, p, column.maxDef, def, n, dh!.definition_level_encoding);
            }
          }
          const nonNull = def ? countAtLeast(def, n, column.maxDef) : n;
          segments.push(decodePageValues(dh!.encoding, raw, p, raw.length, nonNull, desc, dictionary, fail, headerAt, gatherNumbers));
          numValues += nonNull;
          if (rep) repParts.push(rep);
          if (column.maxDef > 0) defParts.push(def === undefined || nonNull === n ? n : def);
          numLevels += n;
          pages++;
          break;
        }
        case PageType.DATA_PAGE_V2: {
          const dh = header.data_page_header_v2;
          if (!dh) fail('CORRUPT_PAGE', 'data page V2 without data_page_header_v2', headerAt);
          const n = dh!.num_values;
          if (!(n >= 0 && n <= maxPageValues)) fail('CORRUPT_PAGE', `data page V2 claims ${n} values, more than the limit ${maxPageValues}`, headerAt);
          const rl = dh!.repetition_levels_byte_length;
          const dl = dh!.definition_levels_byte_length;
          if (!(rl >= 0 && dl >= 0 && rl + dl <= body.length)) {
            fail('CORRUPT_PAGE', `level byte lengths ${rl} + ${dl} exceed the page body (${body.length} bytes)`, headerAt);
          }
          let rep: Int32Array | undefined;
          let def: Int32Array | undefined;
          if (column.maxRep > 0) {
            rep = new Int32Array(n);
            decodeRleHybrid(body, 0, rl, bitWidthOf(column.maxRep), rep, 0, n);
          }
          if (column.maxDef > 0 && !rleHybridAllEqual(body, rl, rl + dl, bitWidthOf(column.maxDef), n, column.maxDef)) {
            def = new Int32Array(n);
            decodeRleHybrid(body, rl, rl + dl, bitWidthOf(column.maxDef), def, 0, n);
          }
          const compressed = body.subarray(rl + dl);
          const valuesSize = usize - rl - dl;
          const raw = dh!.is_compressed === false || compressed.length === 0 && valuesSize === 0
            ? checkUncompressed(compressed, valuesSize, fail, headerAt)
            : decompressPage(options.codecs, meta.codec, compressed, valuesSize, where.offset + bodyStart + rl + dl);
          const nonNull = def ? countAtLeast(def, n, column.maxDef) : n;
          segments.push(decodePageValues(dh!.encoding, raw, 0, raw.length, nonNull, desc, dictionary, fail, headerAt, gatherNumbers));
          numValues += nonNull;
          if (rep) repParts.push(rep);
          if (column.maxDef > 0) defParts.push(def === undefined || nonNull === n ? n : def);
          numLevels += n;
          pages++;
          break;
        }
        default:
          // INDEX_PAGE and unknown page types carry nothing a reader needs
          break;
      }
    } catch (e) {
      if (isParquetError(e) && /^(CORRUPT_PAGE|CHECKSUM_MISMATCH)$/.test(e.code) && e.message.startsWith('parquet-column: row group')) throw e;
      if (isParquetError(e)) fail(e.code, e.message, headerAt, e);
      fail('CORRUPT_PAGE', String((e as Error)?.message ?? e), headerAt, e);
    }
  }
  return {
    def: column.maxDef > 0 ? concatDefs(defParts, numLevels, column.maxDef) : undefined,
    rep: column.maxRep > 0 ? concatLevels(repParts, numLevels) : undefined,
    numLevels,
    dictionary,
    segments,
    numValues,
    pages,
  };
}

function decodeLevelsV1(src: Uint8Array, pos: number, maxLevel: number, out: Int32Array, n: number, encoding: number): number {
  const width = bitWidthOf(maxLevel);
  if (encoding === Encoding.BIT_PACKED) {
    return decodeBitPacked(src, pos, src.length, width, out, 0, n);
  }
  return decodeRleHybridPrefixed(src, pos, src.length, width, out, 0, n);
}

/**
 * Whether length-prefixed (data page V1, RLE) definition levels are all `maxDef`, judged from their run headers.
 * @returns the position after the levels when they are, -1 otherwise (decode them then).
 */
function prefixedAllAt(src: Uint8Array, pos: number, maxDef: number, n: number): number {
  if (src.length - pos < 4) return -1;
  const len = (src[pos]! | (src[pos + 1]! << 8) | (src[pos + 2]! << 16) | (src[pos + 3]! << 24)) >>> 0;
  const start = pos + 4;
  if (len > src.length - start) return -1;
  return rleHybridAllEqual(src, start, start + len, bitWidthOf(maxDef), n, maxDef) ? start + len : -1;
}

function countAtLeast(levels: Int32Array, n: number, max: number): number {
  let c = 0;
  for (let i = 0; i < n; i++) if (levels[i] === max) c++;
  return c;
}

function checkUncompressed(body: Uint8Array, size: number, fail: (code: string, msg: string, at: number) => never, at: number): Uint8Array {
  if (body.length !== size) fail('CORRUPT_PAGE', `uncompressed V2 page values hold ${body.length} bytes, the header declares ${size}`, at);
  return body;
}

function decodePageValues(
  encoding: number,
  raw: Uint8Array,
  pos: number,
  end: number,
  count: number,
  desc: { type: Type; typeLength?: number },
  dictionary: ColumnValues | undefined,
  fail: (code: string, msg: string, at: number) => never,
  at: number,
  gatherNumbers: boolean,
): ValueSegment {
  const isDict = encoding === Encoding.PLAIN_DICTIONARY || encoding === Encoding.RLE_DICTIONARY;
  if (isDict) {
    if (count === 0) return { values: emptyValues(desc.type, desc.typeLength) };
    if (dictionary === undefined) fail('CORRUPT_PAGE', `${EncodingNames[encoding]} data page but the chunk has no dictionary page`, at);
    if (gatherNumbers && (dictionary instanceof Int32Array || dictionary instanceof Float32Array || dictionary instanceof Float64Array || dictionary instanceof BigInt64Array)) {
      // plain numbers: no per-entry conversion to save, so gather the values right away
      return { values: decodeDictionaryValues(raw, pos, end, count, dictionary, at) };
    }
    const indices = new Int32Array(count);
    decodeDictionaryIndices(raw, pos, end, indices, 0, count);
    const size = physicalLength(dictionary!);
    for (let i = 0; i < count; i++) {
      if (indices[i]! >>> 0 >= size) fail('DICTIONARY_INDEX', `dictionary index ${indices[i]} (value ${i}) out of range: the dictionary has ${size} values`, at);
    }
    return { indices };
  }
  const { values } = decodeValues(encoding, raw, pos, end, count, desc);
  if (physicalLength(values) !== count) fail('CORRUPT_PAGE', `decoded ${physicalLength(values)} values, expected ${count}`, at);
  return { values };
}

/** Definition levels of the whole chunk; undefined when every page had all its levels at the max. */
function concatDefs(parts: (Int32Array | number)[], n: number, maxDef: number): Int32Array | undefined {
  if (parts.every((p) => typeof p === 'number')) return undefined;
  if (parts.length === 1 && (parts[0] as Int32Array).length === n) return parts[0] as Int32Array;
  const out = new Int32Array(n);
  let at = 0;
  for (const p of parts) {
    if (typeof p === 'number') {
      out.fill(maxDef, at, at + p);
      at += p;
    } else {
      out.set(p, at);
      at += p.length;
    }
  }
  return out;
}

function concatLevels(parts: Int32Array[], n: number): Int32Array {
  if (parts.length === 1 && parts[0]!.length === n) return parts[0]!;
  const out = new Int32Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
