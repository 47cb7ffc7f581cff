/**
 * The column chunk writer: one leaf column of one row group. It takes levels and non-null physical values batch by
 * batch, fills the open page (dictionary indices or the column's value encoding), cuts pages by bytes and rows —
 * always on a record boundary (a page starts at repetition level 0, as V2 pages and the page index require) —
 * feeds the page and chunk statistics, and hands finished pages to the page writer. The pages of the chunk stay in
 * memory (compressed) until the row group is laid out in the file.
 *
 * Dictionary: one dictionary per chunk. It is dropped after the first page when it does not pay for itself (its
 * page plus the indices are not smaller than the plain values, as parquet-java checks), and the chunk falls back to
 * the column's value encoding when the dictionary grows past its byte limit: pages already written stay
 * dictionary-encoded and the dictionary page (written first in the chunk) holds every entry they use.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md (column chunks, pages, nested encoding),
 * Encodings.md (dictionary encoding, RLE for levels and booleans).
 *
 * @module
 */
import type { CodecMap } from '@parquetry/parquet-codecs';
import {
  buildColumnIndex,
  GeospatialStatisticsBuilder,
  SizeStatisticsBuilder,
  StatisticsBuilder,
  dataPageV1,
  dataPageV2,
  dictionaryPage,
  type PageIndexEntry,
  type WrittenPage,
} from '@parquetry/parquet-column/write';
import { DictionaryEncoder, bitWidthOf, createValueEncoder, encodeRleHybrid, encodeRleHybridPrefixed, type ByteArrays, type ColumnValues, type ValueEncoder } from '@parquetry/parquet-encodings';
import type { ColumnDescriptor } from '@parquetry/parquet-levels';
import { BloomCollector, type BloomFilterOptions } from './bloom.js';
import { Chunker, type ContentDefinedChunking } from './cdc.js';
import type { SplitBlockBloomFilter } from '@parquetry/parquet-bloom';
import { ByteWriter, Encoding, EncodingNames, PageType, ParquetError, Type, TypeNames, isParquetError, type ColumnIndex, type GeospatialStatistics, type PageEncodingStats, type SizeStatistics, type Statistics } from '@parquetry/thrift-compact';

/** Resolved options of one column's writer. */
export interface ColumnWriterOptions {
  /** CompressionCodec number. */
  codec: number;
  /** Codecs by number. */
  codecs: CodecMap | undefined;
  /** Write page CRC32 checksums. */
  checksum: boolean;
  /** Where page bodies copied out of a codec's memory go (a memory sink's arena); default a new array per page. */
  alloc?: ((length: number) => Uint8Array) | undefined;
  /** Data page version. */
  pageVersion: 1 | 2;
  /** The value encoding of pages that are not dictionary-encoded. */
  encoding: Encoding;
  /** Start each chunk with dictionary encoding. */
  dictionary: boolean;
  /** Dictionary page byte limit; past it the chunk falls back to `encoding`. */
  dictionaryPageSize: number;
  /** Target page size in bytes (of encoded values and levels, before compression). */
  pageSize: number;
  /** Most rows in one page. */
  pageRows: number;
  /** Compute statistics. */
  statistics: boolean;
  /** Build the ColumnIndex of each chunk (the OffsetIndex is always built). */
  pageIndex: boolean;
  /** Also write each page's statistics into its header. */
  pageStatistics: boolean;
  /** Byte-array bounds longer than this are truncated. */
  truncateLength: number;
  /** Column-chunk key/value metadata. */
  keyValueMetadata?: { key: string; value: string }[] | undefined;
  /** Write a bloom filter per chunk, sized by these options. */
  bloomFilter?: BloomFilterOptions | undefined;
  /** Content-defined page boundaries (instead of cuts by rows and bytes), when set. */
  contentDefinedChunking?: ContentDefinedChunking | undefined;
}

/** Levels and dense non-null physical values of whole records of one leaf column. */
export interface ColumnBatch {
  /** Definition levels (undefined: every level is at the max definition level). */
  def: ArrayLike<number> | undefined;
  /** Repetition levels (undefined when the max repetition level is 0). */
  rep: ArrayLike<number> | undefined;
  /** Number of level entries. */
  numLevels: number;
  /** Non-null values, one per level at the max definition level: physical, or JavaScript strings to convert. */
  values: ColumnValues | JsValues;
}

/**
 * Non-null JavaScript values of a text column (STRING, ENUM, JSON) not yet converted to bytes. While the chunk is
 * dictionary-encoded, strings are interned as JavaScript strings and only each new distinct string is converted;
 * otherwise (and for anything that is not a string) `convert` gives the physical values.
 */
export interface JsValues {
  /** Discriminant. */
  readonly kind: 'js';
  /** The values (one per level at the max definition level). */
  readonly values: ArrayLike<unknown>;
  /**
   * Converts values to the column's physical form.
   * @param values - values to convert (the batch's own, or a list of new distinct strings).
   * @param valueIndex - the batch value index of each converted value (for errors naming the row), or undefined when `values` is the batch's.
   */
  convert(values: ArrayLike<unknown>, valueIndex?: readonly number[]): ColumnValues;
}

function isJs(v: ColumnValues | JsValues): v is JsValues {
  return (v as JsValues).kind === 'js';
}

/** What one data page contributes to the page index. */
export interface PageInfo extends PageIndexEntry {
  /** Rows before the page within the chunk (the OffsetIndex's `first_row_index`). */
  firstRow: number;
  /** Rows in the page. */
  rows: number;
  /** Unencoded bytes of the page's BYTE_ARRAY values (SizeStatistics), when the column is BYTE_ARRAY. */
  byteArrayBytes: number | undefined;
}

/** A finished column chunk, waiting to be laid out. */
export interface ClosedChunk {
  /** The column. */
  column: ColumnDescriptor;
  /** The chunk's CompressionCodec number. */
  codec: number;
  /** Column-chunk key/value metadata. */
  keyValueMetadata: { key: string; value: string }[] | undefined;
  /** Pages in file order (the dictionary page first when there is one). */
  pages: WrittenPage[];
  /** Page-index facts of each data page. */
  pageInfo: PageInfo[];
  /** The chunk's ColumnIndex, or undefined when none may be written (or the page index is off). */
  columnIndex: ColumnIndex | undefined;
  /** Whether `pages[0]` is a dictionary page. */
  hasDictionary: boolean;
  /** Level entries in the chunk (ColumnMetaData.num_values). */
  numValues: number;
  /** Rows in the chunk. */
  numRows: number;
  /** Encodings used (ColumnMetaData.encodings). */
  encodings: Encoding[];
  /** Pages per type and encoding. */
  encodingStats: PageEncodingStats[];
  /** Chunk statistics. */
  statistics: Statistics | undefined;
  /** SizeStatistics. */
  sizeStatistics: SizeStatistics | undefined;
  /** GeospatialStatistics (GEOMETRY/GEOGRAPHY columns). */
  geospatialStatistics: GeospatialStatistics | undefined;
  /** The chunk's bloom filter, when the column asks for one. */
  bloomFilter: SplitBlockBloomFilter | undefined;
}

/** Slots of a column writer's string-interning cache (a power of two) and the hash shift that indexes them. */
const INTERN_CACHE = 1024;
const INTERN_SHIFT = 22;

/** Levels and values are handled in runs of about this many level entries (the page-cut granularity). */
const RUN = 1024;

/** A growable Int32Array. */
class IntBuffer {
  a = new Int32Array(1024);
  n = 0;
  reserve(k: number): void {
    if (this.n + k <= this.a.length) return;
    let cap = this.a.length * 2;
    while (cap < this.n + k) cap *= 2;
    const b = new Int32Array(cap);
    b.set(this.a.subarray(0, this.n));
    this.a = b;
  }
  append(src: ArrayLike<number>, start: number, end: number): void {
    const k = end - start;
    this.reserve(k);
    const a = this.a;
    let n = this.n;
    if (ArrayBuffer.isView(src)) a.set((src as Int32Array).subarray(start, end), n);
    else for (let i = start; i < end; i++) a[n++] = src[i]!;
    this.n += k;
  }
  fill(v: number, k: number): void {
    this.reserve(k);
    this.a.fill(v, this.n, this.n + k);
    this.n += k;
  }
}

function plainSize(values: ColumnValues, start: number, end: number, column: ColumnDescriptor): number {
  switch (column.type) {
    case Type.BOOLEAN:
      return (end - start) / 8;
    case Type.INT32:
    case Type.FLOAT:
      return (end - start) * 4;
    case Type.INT64:
    case Type.DOUBLE:
      return (end - start) * 8;
    case Type.INT96:
      return (end - start) * 12;
    case Type.FIXED_LEN_BYTE_ARRAY:
      return (end - start) * (column.typeLength ?? 0);
    default: {
      const o = (values as ByteArrays).offsets;
      return (end - start) * 4 + o[end]! - o[start]!;
    }
  }
}

/** The physical types each value encoding takes (Encodings.md), for the message when a column's type is not one. */
const ENCODING_TYPES: Readonly<Partial<Record<Encoding, readonly Type[]>>> = {
  [Encoding.RLE]: [Type.BOOLEAN],
  [Encoding.DELTA_BINARY_PACKED]: [Type.INT32, Type.INT64],
  [Encoding.DELTA_LENGTH_BYTE_ARRAY]: [Type.BYTE_ARRAY],
  [Encoding.DELTA_BYTE_ARRAY]: [Type.BYTE_ARRAY, Type.FIXED_LEN_BYTE_ARRAY],
  [Encoding.BYTE_STREAM_SPLIT]: [Type.FLOAT, Type.DOUBLE, Type.INT32, Type.INT64, Type.FIXED_LEN_BYTE_ARRAY],
  [Encoding.ALP]: [Type.FLOAT, Type.DOUBLE],
};

/**
 * The column's value encoder.
 * @throws ParquetError `INVALID_OPTION` naming the column, its physical type and the types the encoding takes, when
 *   the encoding cannot write the column's type.
 */
function valueEncoder(column: ColumnDescriptor, encoding: Encoding, desc: { type: Type; typeLength?: number }): ValueEncoder {
  try {
    return createValueEncoder(encoding, desc);
  } catch (e) {
    if (!isParquetError(e) || e.code !== 'ENCODING_UNSUPPORTED') throw e;
    const name = EncodingNames[encoding] ?? String(encoding);
    const takes = ENCODING_TYPES[encoding];
    throw new ParquetError(
      'INVALID_OPTION',
      `parquet-writer: column '${column.pathString}': encoding ${name} cannot write its physical type ${TypeNames[column.type] ?? column.type}` +
        `${takes ? ` (${name} takes ${takes.map((t) => TypeNames[t]).join(', ')})` : ''}; ` +
        `give this column another encoding with columns: { '${column.pathString}': { encoding: … } }, or leave it PLAIN`,
      undefined,
      { cause: e },
    );
  }
}

function isGeospatial(column: ColumnDescriptor): boolean {
  const lt = column.node.logicalType;
  return lt?.GEOMETRY !== undefined || lt?.GEOGRAPHY !== undefined;
}

/** Writes the pages of one leaf column, chunk after chunk (one chunk per row group). */
export class ColumnWriter {
  private readonly desc: { type: Type; typeLength?: number };
  private readonly o: ColumnWriterOptions;
  // open page
  private readonly def = new IntBuffer();
  private readonly rep = new IntBuffer();
  private readonly indices = new IntBuffer();
  private pageLevels = 0;
  private pageNonNull = 0;
  private pageRows = 0;
  private pagePlainBytes = 0;
  private readonly encoder: ValueEncoder;
  private readonly pageStats: StatisticsBuilder | undefined;
  private readonly w = new ByteWriter(1 << 16);
  private readonly lw = new ByteWriter(1 << 12);
  // chunk
  private dict: DictionaryEncoder | undefined;
  private dictDecided = false;
  private pages: WrittenPage[] = [];
  private pageInfo: PageInfo[] = [];
  private chunkRows = 0;
  private chunkLevels = 0;
  private dictPages = 0;
  private plainPages = 0;
  private compressedBytes = 0;
  private readonly chunkStats: StatisticsBuilder | undefined;
  private readonly sizeStats: SizeStatisticsBuilder;
  /** The open page's level histograms and byte-array bytes (merged into the chunk's when the page is cut). */
  private readonly pageSizeStats: SizeStatisticsBuilder;
  private readonly geoStats: GeospatialStatisticsBuilder | undefined;
  private readonly chunker: Chunker | undefined;
  private readonly bloom: BloomCollector | undefined;

  /**
   * @param column - the leaf column.
   * @param options - resolved options.
   */
  constructor(
    readonly column: ColumnDescriptor,
    options: ColumnWriterOptions,
  ) {
    this.o = options;
    this.desc = column.typeLength === undefined ? { type: column.type } : { type: column.type, typeLength: column.typeLength };
    let encoding = options.encoding;
    // BOOLEAN values: bit-packed PLAIN in V1 pages, RLE in V2 pages (as arrow-rs and parquet-java write them)
    if (column.type === Type.BOOLEAN && encoding === Encoding.PLAIN && options.pageVersion === 2) encoding = Encoding.RLE;
    this.encoder = valueEncoder(column, encoding, this.desc);
    // GEOMETRY/GEOGRAPHY have no sort order: their Statistics carry null_count only (the builder writes no min/max
    // for an undefined order, Geospatial.md), and the bounding box goes into GeospatialStatistics
    const stats = options.statistics;
    const so = { truncateLength: options.truncateLength };
    this.pageStats = stats ? new StatisticsBuilder(column, so) : undefined;
    this.chunkStats = stats ? new StatisticsBuilder(column, so) : undefined;
    this.sizeStats = new SizeStatisticsBuilder(column);
    this.pageSizeStats = new SizeStatisticsBuilder(column);
    this.geoStats = options.statistics && isGeospatial(column) ? new GeospatialStatisticsBuilder(column) : undefined;
    this.chunker = options.contentDefinedChunking ? new Chunker(options.contentDefinedChunking) : undefined;
    this.bloom = options.bloomFilter && column.type !== Type.BOOLEAN ? new BloomCollector(column.type, options.bloomFilter) : undefined;
    this.startChunk();
  }

  // string interning (text columns fed JavaScript strings, while the chunk is dictionary-encoded)
  private intern: Map<string, number> | undefined;
  /**
   * A direct-mapped cache in front of `intern` (cleared with it): the string last found in each slot (by its length,
   * first and last two characters) and its dictionary index. A hit is one comparison, mostly of the same string object.
   */
  private readonly cacheKeys: (string | undefined)[] = new Array<string | undefined>(INTERN_CACHE).fill(undefined);
  private readonly cacheIdx = new Int32Array(INTERN_CACHE);
  private readonly fresh: string[] = [];
  private readonly freshAt: number[] = [];
  private freshIdx = new Int32Array(64);
  /** Per page: dictionary entries used by interned values (their statistics are taken at the page's end). */
  private used = new Uint8Array(0);
  private readonly usedList = new IntBuffer();

  private startChunk(): void {
    this.intern = undefined;
    this.dict = this.o.dictionary && this.column.type !== Type.BOOLEAN ? new DictionaryEncoder(this.desc) : undefined;
    this.dictDecided = this.dict === undefined;
    this.pages = [];
    this.pageInfo = [];
    this.chunkRows = 0;
    this.chunkLevels = 0;
    this.dictPages = 0;
    this.plainPages = 0;
    this.compressedBytes = 0;
    this.chunkStats?.reset();
    this.sizeStats.reset();
    this.geoStats?.reset();
  }

  /** Compressed bytes of the chunk's finished pages plus the open page's estimated size. */
  get bufferedBytes(): number {
    return this.compressedBytes + this.openPageSize() + (this.dict ? this.dict.byteSize : 0);
  }

  /** Rows written to the current chunk (finished pages and the open page). */
  get rows(): number {
    return this.chunkRows + this.pageRows;
  }

  private openPageSize(): number {
    const levels = ((this.column.maxDef > 0 ? bitWidthOf(this.column.maxDef) : 0) + (this.column.maxRep > 0 ? bitWidthOf(this.column.maxRep) : 0)) * this.pageLevels / 8;
    if (this.dict) return levels + (this.pageNonNull * Math.max(1, bitWidthOf(Math.max(0, this.dict.size - 1)))) / 8;
    return levels + this.encoder.estimatedSize();
  }

  /**
   * Appends whole records.
   * @param batch - levels and values; the first level entry must start a record (repetition level 0).
   * @throws ParquetError from the encoders and codecs.
   */
  write(batch: ColumnBatch): void {
    const { def, rep, numLevels: n } = batch;
    const input = batch.values;
    // physical values of the whole batch, converted when first needed (never, while every string is interned)
    let phys: ColumnValues | undefined = isJs(input) ? undefined : input;
    const physical = (): ColumnValues => (phys ??= (input as JsValues).convert((input as JsValues).values));
    const internable = isJs(input) && !this.chunker;
    const maxDef = this.column.maxDef;
    const maxRep = this.column.maxRep;
    const cdc = this.chunker;
    const pageRows = cdc ? Infinity : this.o.pageRows;
    let li = 0;
    let vi = 0;
    while (li < n) {
      // one run of whole records, within the page's row limit
      const room = cdc ? RUN : Math.max(1, pageRows - this.pageRows);
      let end: number;
      let rows: number;
      if (maxRep === 0 || rep === undefined) {
        end = Math.min(n, li + Math.min(RUN, room, cdc || this.dict ? RUN : this.entriesThatFit(def, maxDef, physical(), li, vi, n)));
        rows = end - li;
      } else if (room >= RUN && !cdc) {
        // a run holds at most RUN records: it ends at the first record start at or after li + RUN (its rows are
        // counted with the levels' histogram below)
        end = li + RUN;
        if (end >= n) end = n;
        else while (end < n && rep[end] !== 0) end++;
        rows = -1;
      } else {
        rows = 0;
        end = li;
        while (end < n) {
          if (rep[end] === 0) {
            if (rows === room || end - li >= RUN) break;
            rows++;
          }
          end++;
        }
      }
      let cut = false;
      if (cdc) {
        // content-defined boundary: the page ends at the first record boundary after it
        const at = cdc.scan(this.column.type, maxDef > 0 ? def : undefined, maxRep > 0 ? rep : undefined, maxDef, physical(), li, end, vi);
        if (at < end) {
          if (maxRep > 0 && rep !== undefined) {
            for (let i = at; i < end; i++) if (rep[i] === 0) rows--;
          } else rows = at - li;
          end = at;
          cut = true;
        }
      }
      if (maxDef > 0) {
        if (def === undefined) this.def.fill(maxDef, end - li);
        else this.def.append(def, li, end);
      }
      if (maxRep > 0) this.rep.append(rep!, li, end);
      // the level histograms, which also count the values (levels at the max definition level) and the rows
      // (repetition level 0) of the run
      const repZeros = maxRep > 0 ? this.pageSizeStats.repetitionZeros : 0;
      const nn = this.pageSizeStats.addLevels(maxDef > 0 ? def : undefined, maxRep > 0 ? rep : undefined, li, end);
      if (rows < 0) rows = (this.pageSizeStats.repetitionZeros - repZeros) | 0;
      if (!(internable && this.dict && this.internStrings(input as JsValues, vi, vi + nn))) this.putValues(physical(), vi, vi + nn);
      this.pageLevels += end - li;
      this.pageNonNull += nn;
      this.pageRows += rows;
      li = end;
      vi += nn;
      if (this.dict && this.dict.byteSize > this.o.dictionaryPageSize) {
        // the dictionary is full: this page keeps its indices, later pages use the fallback encoding
        this.flushPage();
        this.dictDecided = true;
        this.fallback();
      } else if (cdc ? cut : this.pageRows >= pageRows || this.openPageSize() >= this.o.pageSize) {
        this.flushPage();
      }
    }
  }

  /**
   * How many level entries from `li` fit in what is left of the page's byte budget (at least one), so that pages of
   * wide values do not overshoot `pageSize` by a whole run. Dictionary-encoded pages hold small indices: a full run.
   */
  private entriesThatFit(def: ArrayLike<number> | undefined, maxDef: number, values: ColumnValues, li: number, vi: number, n: number): number {
    if (this.dict) return RUN;
    const left = this.o.pageSize - this.openPageSize();
    if (left <= 0) return 1;
    const t = this.column.type;
    if (t !== Type.BYTE_ARRAY) {
      const width = t === Type.BOOLEAN ? 1 / 8 : t === Type.INT32 || t === Type.FLOAT ? 4 : t === Type.INT96 ? 12 : t === Type.FIXED_LEN_BYTE_ARRAY ? (this.column.typeLength ?? 1) : 8;
      return Math.max(1, Math.floor(left / width));
    }
    // byte arrays: walk the values until the budget is spent (4-byte length + bytes each)
    const o = (values as ByteArrays).offsets;
    const stop = Math.min(n, li + RUN);
    // unless the next RUN values (at most one per level) fit in any case: offsets never decrease (checked when the
    // values were shredded), so these bytes bound those of the values of the run
    const most = Math.min(RUN, o.length - 1 - vi);
    if (4 * RUN + o[vi + most]! - o[vi]! < left) return stop - li;
    let bytes = 0;
    let k = li;
    let v = vi;
    while (k < stop) {
      if (def === undefined || maxDef === 0 || def[k] === maxDef) {
        bytes += 4 + o[v + 1]! - o[v]!;
        v++;
      }
      k++;
      if (bytes >= left) break;
    }
    return Math.max(1, k - li);
  }

  private putValues(values: ColumnValues, start: number, end: number): void {
    if (end === start) return;
    const dict = this.dict;
    const t = this.column.type;
    // byte arrays in a dictionary-encoded page: statistics from the distinct entries the page uses (at its end),
    // not one byte comparison per value (not FIXED_LEN_BYTE_ARRAY: FLOAT16 counts NaN values, not distinct ones)
    const statsFromEntries = dict !== undefined && t === Type.BYTE_ARRAY;
    if (!statsFromEntries) this.pageStats?.update(values, start, end);
    if (this.geoStats) this.geoStats.update(values as ByteArrays, start, end);
    if (this.bloom) this.bloom.update(values, start, end);
    if (t === Type.BYTE_ARRAY) {
      const o = (values as ByteArrays).offsets;
      this.pageSizeStats.addByteArrayBytes(o[end]! - o[start]!);
    }
    if (dict) {
      if (!this.dictDecided) this.pagePlainBytes += plainSize(values, start, end, this.column);
      this.indices.reserve(end - start);
      const first = this.indices.n;
      const before = dict.size;
      dict.put(values, start, end, this.indices.a, first);
      this.indices.n += end - start;
      if (statsFromEntries && this.pageStats) this.markUsed(dict, first, this.indices.n, before);
    } else {
      this.encoder.put(values, start, end);
    }
  }

  /**
   * Records the dictionary entries that indices `[from, to)` of the open page use (`before`: the dictionary's size
   * before they were interned).
   */
  private markUsed(dict: DictionaryEncoder, from: number, to: number, before: number): void {
    if (this.used.length < dict.size) {
      const u = new Uint8Array(Math.max(dict.size, this.used.length * 2, 64));
      u.set(this.used);
      this.used = u;
    }
    const used = this.used;
    const list = this.usedList;
    if (list.n === before) {
      // the page already uses every older entry: the indices can only add the entries just created, all of them used
      const size = dict.size;
      list.reserve(size - before);
      for (let e = before; e < size; e++) {
        used[e] = 1;
        list.a[list.n++] = e;
      }
      return;
    }
    const idx = this.indices.a;
    for (let p = from; p < to; p++) {
      const e = idx[p]!;
      if (used[e] === 0) {
        used[e] = 1;
        list.reserve(1);
        list.a[list.n++] = e;
      }
    }
  }

  /**
   * Interns JavaScript strings `[start, end)` of a batch: each distinct string is looked up once per chunk as a
   * JavaScript string, and only strings new to the chunk are converted to UTF-8 and put into the dictionary.
   * @returns false (nothing done) when a value is not a string.
   */
  private internStrings(input: JsValues, start: number, end: number): boolean {
    const js = input.values;
    for (let i = start; i < end; i++) if (typeof js[i] !== 'string') return false;
    if (end === start) return true;
    const dict = this.dict!;
    const before = dict.size;
    const keys = this.cacheKeys;
    const cached = this.cacheIdx;
    if (this.intern === undefined) keys.fill(undefined);
    const map = (this.intern ??= new Map());
    const count = end - start;
    this.indices.reserve(count);
    const idx = this.indices.a;
    const first = this.indices.n;
    const fresh = this.fresh;
    const freshAt = this.freshAt;
    fresh.length = 0;
    freshAt.length = 0;
    let o = first;
    for (let i = start; i < end; i++) {
      const s = js[i] as string;
      const len = s.length;
      const h = len === 0 ? 0 : Math.imul(len ^ (s.charCodeAt(len - 1) << 4) ^ (s.charCodeAt(len - 2) << 11) ^ (s.charCodeAt(0) << 18), 0x9e3779b1) >>> INTERN_SHIFT;
      if (keys[h] === s) {
        idx[o++] = cached[h]!;
        continue;
      }
      let k = map.get(s);
      if (k === undefined) {
        k = -1 - fresh.length;
        fresh.push(s);
        freshAt.push(i);
        map.set(s, k);
      } else if (k >= 0) {
        // (a negative k is a string new in this batch: its index is known only once the dictionary has it)
        keys[h] = s;
        cached[h] = k;
      }
      idx[o++] = k;
    }
    const m = fresh.length;
    if (m > 0) {
      let bytes: ColumnValues;
      try {
        bytes = input.convert(fresh, freshAt);
      } catch (e) {
        for (let j = 0; j < m; j++) map.delete(fresh[j]!);
        throw e;
      }
      if (this.freshIdx.length < m) this.freshIdx = new Int32Array(Math.max(m, this.freshIdx.length * 2));
      const real = this.freshIdx;
      dict.put(bytes, 0, m, real, 0);
      if (this.bloom) this.bloom.update(bytes, 0, m);
      for (let j = 0; j < m; j++) map.set(fresh[j]!, real[j]!);
      for (let p = first; p < o; p++) if (idx[p]! < 0) idx[p] = real[-1 - idx[p]!]!;
    }
    this.indices.n = o;
    // byte sizes, and the entries this page uses (for its statistics)
    let bytes = 0;
    for (let p = first; p < o; p++) bytes += dict.valueLength(idx[p]!);
    if (this.pageStats) this.markUsed(dict, first, o, before);
    this.pageSizeStats.addByteArrayBytes(bytes);
    if (!this.dictDecided) this.pagePlainBytes += 4 * count + bytes;
    return true;
  }

  /** Feeds the page statistics with the distinct entries interned values of this page used, and forgets them. */
  private flushUsed(dict: DictionaryEncoder): void {
    const list = this.usedList;
    if (list.n === 0) return;
    if (this.pageStats) this.pageStats.update(dict.gather(list.a, list.n), 0, list.n);
    const used = this.used;
    for (let k = 0; k < list.n; k++) used[list.a[k]!] = 0;
    list.n = 0;
  }

  /** Stops dictionary encoding for the rest of the chunk (the dictionary page keeps what earlier pages use). */
  private fallback(): void {
    this.intern = undefined;
    this.dictFrozen = this.dict;
    this.dict = undefined;
  }

  /** The dictionary of pages already written, after a fallback. */
  private dictFrozen: DictionaryEncoder | undefined;

  private flushPage(): void {
    const n = this.pageLevels;
    if (n === 0) return;
    const col = this.column;
    const nn = this.pageNonNull;
    let dict = this.dict;
    if (dict) this.flushUsed(dict);
    if (dict && !this.dictDecided) {
      // the first page decides whether the dictionary pays for itself
      this.dictDecided = true;
      const cost = dict.byteSize + (nn * Math.max(1, bitWidthOf(Math.max(0, dict.size - 1)))) / 8;
      if (cost >= this.pagePlainBytes) {
        const values = dict.gather(this.indices.a, nn);
        this.encoder.put(values, 0, nn);
        this.dict = dict = undefined;
        this.intern = undefined;
      }
    }
    const v2 = this.o.pageVersion === 2;
    const w = this.w;
    w.pos = 0;
    let repLength = 0;
    const lw = v2 ? this.lw : w;
    lw.pos = 0;
    // the levels were range-checked as they came in (the page's size statistics), and the indices come from the
    // dictionary: both go straight to the RLE hybrid, without the checking passes of encodeLevelsV1/V2 and
    // encodeDictionaryIndices (V1: 4-byte length + hybrid; V2: the raw hybrid)
    if (col.maxRep > 0) {
      const at = lw.pos;
      if (v2) encodeRleHybrid(this.rep.a, 0, n, bitWidthOf(col.maxRep), lw);
      else encodeRleHybridPrefixed(this.rep.a, 0, n, bitWidthOf(col.maxRep), lw);
      repLength = lw.pos - at;
    }
    if (col.maxDef > 0) {
      if (v2) encodeRleHybrid(this.def.a, 0, n, bitWidthOf(col.maxDef), lw);
      else encodeRleHybridPrefixed(this.def.a, 0, n, bitWidthOf(col.maxDef), lw);
    }
    let encoding: Encoding;
    // the page's values straight from the encoder's buffer when nothing precedes them in the page (no levels, or V2
    // pages, whose levels stay apart): the page writer copies them (into the codec, or out) before the next put
    let body: Uint8Array | undefined;
    if (dict) {
      const bw = Math.max(1, bitWidthOf(Math.max(0, dict.size - 1)));
      w.u8(bw);
      encodeRleHybrid(this.indices.a, 0, nn, bw, w);
      encoding = Encoding.RLE_DICTIONARY;
      this.dictPages++;
    } else {
      if (w.pos === 0) body = this.encoder.take?.();
      if (body === undefined) this.encoder.flush(w);
      encoding = this.encoder.encoding;
      this.plainPages++;
    }
    body ??= w.finish();
    const stats = this.pageStats;
    if (stats) stats.addNulls(n - nn);
    const statistics = this.o.pageStatistics && stats ? stats.toThrift() : undefined;
    const opts = { codec: this.o.codec, codecs: this.o.codecs, checksum: this.o.checksum, alloc: this.o.alloc };
    const page = v2
      ? dataPageV2({ numValues: n, numNulls: n - nn, numRows: this.pageRows, encoding, levels: lw.finish(), repetitionLength: repLength, values: body, statistics }, opts)
      : dataPageV1({ numValues: n, encoding, body, statistics }, opts);
    this.pages.push(page);
    this.compressedBytes += page.body.length;
    const size = this.pageSizeStats.toThrift();
    this.pageInfo.push({
      firstRow: this.chunkRows,
      rows: this.pageRows,
      valueCount: nn,
      nullCount: n - nn,
      nanCount: stats?.nanCount ?? 0,
      min: stats?.minBytes(),
      max: stats?.maxBytes(),
      defHistogram: size.definition_level_histogram,
      repHistogram: size.repetition_level_histogram,
      byteArrayBytes: size.unencoded_byte_array_data_bytes,
    });
    this.sizeStats.merge(this.pageSizeStats);
    this.pageSizeStats.reset();
    if (stats) {
      this.chunkStats!.merge(stats);
      stats.reset();
    }
    this.chunkRows += this.pageRows;
    this.chunkLevels += n;
    this.def.n = 0;
    this.rep.n = 0;
    this.indices.n = 0;
    this.pageLevels = 0;
    this.pageNonNull = 0;
    this.pageRows = 0;
    this.pagePlainBytes = 0;
    this.chunker?.reset();
  }

  /**
   * Finishes the chunk: flushes the open page, puts the dictionary page first, and starts a new chunk.
   * @returns the chunk's pages and metadata.
   */
  close(): ClosedChunk {
    this.flushPage();
    const dict = this.dict ?? this.dictFrozen;
    const pages = this.pages;
    const hasDictionary = dict !== undefined && this.dictPages > 0;
    if (hasDictionary) {
      const w = this.w;
      w.pos = 0;
      dict.flushDictionary(w);
      pages.unshift(dictionaryPage(dict.size, w.finish(), { codec: this.o.codec, codecs: this.o.codecs, checksum: this.o.checksum, alloc: this.o.alloc }));
    }
    const pageType = this.o.pageVersion === 2 ? PageType.DATA_PAGE_V2 : PageType.DATA_PAGE;
    const encodings = new Set<Encoding>();
    const encodingStats: PageEncodingStats[] = [];
    if (hasDictionary) {
      encodings.add(Encoding.PLAIN);
      encodings.add(Encoding.RLE_DICTIONARY);
      encodingStats.push({ page_type: PageType.DICTIONARY_PAGE, encoding: Encoding.PLAIN, count: 1 });
      encodingStats.push({ page_type: pageType, encoding: Encoding.RLE_DICTIONARY, count: this.dictPages });
    }
    if (this.plainPages > 0) {
      encodings.add(this.encoder.encoding);
      encodingStats.push({ page_type: pageType, encoding: this.encoder.encoding, count: this.plainPages });
    }
    if (this.column.maxDef > 0 || this.column.maxRep > 0) encodings.add(Encoding.RLE);
    const stats = this.chunkStats;
    const out: ClosedChunk = {
      column: this.column,
      codec: this.o.codec,
      keyValueMetadata: this.o.keyValueMetadata,
      pages,
      pageInfo: this.pageInfo,
      columnIndex: this.o.pageIndex && stats ? buildColumnIndex(this.column, this.pageInfo, this.o.truncateLength) : undefined,
      hasDictionary,
      numValues: this.chunkLevels,
      numRows: this.chunkRows,
      encodings: [...encodings].sort((a, b) => a - b),
      encodingStats,
      statistics: stats ? stats.toThrift() : undefined,
      sizeStatistics: this.sizeStats.toThrift(),
      geospatialStatistics: this.geoStats?.toThrift(),
      bloomFilter: this.bloom && this.chunkLevels > 0 ? this.bloom.finish() : undefined,
    };
    this.dictFrozen = undefined;
    this.startChunk();
    return out;
  }
}
