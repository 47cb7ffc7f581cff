/**
 * Decoding one column chunk: its pages (dictionary, data page V1 and V2), checksums, decompression, level
 * streams and values, into one set of definition/repetition levels and non-null physical values.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (pages, nested encoding) and
 * Encodings.md. Every size and count in a page header is untrusted and checked before use.
 *
 * @module
 */
import type { CodecMap } from '@parquetry/parquet-codecs';
import { applyDictionary, decodeDictionaryIndices, decodeDictionaryValues, rleHybridAllEqual, decodeDictionaryPage, decodeValues, bitWidthOf, type ColumnValues } from '@parquetry/parquet-encodings';
import { decodeLevelsV1, decodeLevelsV2, type ColumnDescriptor } from '@parquetry/parquet-levels';
import { Encoding, EncodingNames, PageType, Type, isParquetError, type ColumnMetaData } from '@parquetry/thrift-compact';
import { PageReader, type ChunkLocation, type PageDecrypt } from './page-reader.js';
import { concatValues, physicalLength } from './values.js';

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
  decrypt?: PageDecrypt | undefined;
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
  const desc = column.typeLength === undefined ? { type: column.type } : { type: column.type, typeLength: column.typeLength };
  // numeric columns without a DECIMAL annotation convert each value on its own (or not at all): their dictionary
  // pages are resolved to values while decoding
  const gatherNumbers = (column.type === Type.INT32 || column.type === Type.INT64 || column.type === Type.FLOAT || column.type === Type.DOUBLE) && !column.node.logicalType?.DECIMAL;
  const pages = new PageReader(bytes, where, {
    codec: meta.codec,
    codecs: options.codecs,
    verifyChecksums: options.verifyChecksums,
    maxPageValues: options.maxPageValues,
    hasDictionaryPage: (meta.dictionary_page_offset ?? 0) > 0,
    decrypt: options.decrypt,
  });
  const fail = (code: string, msg: string, at: number, cause?: unknown): never => pages.fail(code, msg, at, cause);
  // a page whose levels are all at the max definition level keeps only its count
  const defParts: (Int32Array | number)[] = [];
  const repParts: Int32Array[] = [];
  const segments: ValueSegment[] = [];
  let numValues = 0;
  let dictionary: ColumnValues | undefined;
  let numLevels = 0;
  const total = meta.num_values;
  const { maxDef, maxRep } = column;

  while (numLevels < total) {
    const page = await pages.next();
    if (page === undefined) break;
    const { header, at } = page;
    const n = page.numValues;
    try {
      switch (header.type) {
        case PageType.DICTIONARY_PAGE: {
          if (dictionary !== undefined) fail('CORRUPT_PAGE', 'a second dictionary page in one column chunk', at);
          dictionary = decodeDictionaryPage(page.data, 0, page.data.length, n, desc).values;
          break;
        }
        case PageType.DATA_PAGE: {
          const dh = header.data_page_header!;
          const raw = page.data;
          let p = 0;
          let rep: Int32Array | undefined;
          let def: Int32Array | undefined;
          if (maxRep > 0) {
            rep = new Int32Array(n);
            p = decodeLevelsV1(raw, p, raw.length, maxRep, rep, 0, n, dh.repetition_level_encoding, 'repetition');
          }
          if (maxDef > 0) {
            const all = dh.definition_level_encoding === Encoding.BIT_PACKED ? -1 : prefixedAllAt(raw, p, maxDef, n);
            if (all >= 0) p = all;
            else {
              def = new Int32Array(n);
              p = decodeLevelsV1(raw, p, raw.length, maxDef, def, 0, n, dh.definition_level_encoding, 'definition');
            }
          }
          const nonNull = def ? countAtLeast(def, n, maxDef) : n;
          segments.push(decodePageValues(dh.encoding, raw, p, raw.length, nonNull, desc, dictionary, fail, at, gatherNumbers));
          numValues += nonNull;
          if (rep) repParts.push(rep);
          if (maxDef > 0) defParts.push(def === undefined || nonNull === n ? n : def);
          numLevels += n;
          break;
        }
        case PageType.DATA_PAGE_V2: {
          const dh = header.data_page_header_v2!;
          const levels = page.levels!;
          const rl = dh.repetition_levels_byte_length;
          const dl = dh.definition_levels_byte_length;
          let rep: Int32Array | undefined;
          let def: Int32Array | undefined;
          if (maxRep > 0) {
            rep = new Int32Array(n);
            decodeLevelsV2(levels, 0, rl, maxRep, rep, 0, n, 'repetition');
          }
          if (maxDef > 0 && !rleHybridAllEqual(levels, rl, rl + dl, bitWidthOf(maxDef), n, maxDef)) {
            def = new Int32Array(n);
            decodeLevelsV2(levels, rl, dl, maxDef, def, 0, n, 'definition');
          }
          const raw = page.data;
          const nonNull = def ? countAtLeast(def, n, maxDef) : n;
          segments.push(decodePageValues(dh.encoding, raw, 0, raw.length, nonNull, desc, dictionary, fail, at, gatherNumbers));
          numValues += nonNull;
          if (rep) repParts.push(rep);
          if (maxDef > 0) defParts.push(def === undefined || nonNull === n ? n : def);
          numLevels += n;
          break;
        }
        default:
          break;
      }
    } catch (e) {
      if (PageReader.located(e)) throw e;
      if (isParquetError(e)) fail(e.code, e.message, at, e);
      fail('CORRUPT_PAGE', String((e as Error)?.message ?? e), at, e);
    }
  }
  return {
    def: maxDef > 0 ? concatDefs(defParts, numLevels, maxDef) : undefined,
    rep: maxRep > 0 ? concatLevels(repParts, numLevels) : undefined,
    numLevels,
    dictionary,
    segments,
    numValues,
    pages: pages.dataPages,
  };
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
