/**
 * The hover text of each part of the picture, as lines: a row group's rows and bytes; a chunk's codec, encodings,
 * values, statistics, page index and bloom filter presence; a page's type, encoding, sizes, values and statistics
 * (from its header or from the ColumnIndex); any other region's bytes. Values are shown in the reader's JSON-safe
 * form (`values: 'json'`).
 * @module
 */
import type { ColumnStatistics } from '@parquetry/parquet-reader';
import { columnStatistics } from '@parquetry/parquet-reader/values';
import { CompressionCodecNames, EncodingNames, PageType, type ColumnMetaData, type Statistics } from '@parquetry/thrift-compact';
import { SegmentKind, type ChunkLayout, type Segment } from './layout.js';
import type { LoadedFile } from './load.js';

/**
 * Formats a byte count: `1234` → `1.2 KiB (1,234 B)`; under 1 KiB just `N B`.
 * @param n - bytes.
 * @returns the text.
 */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n.toLocaleString('en-US')} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB (${n.toLocaleString('en-US')} B)`;
  return `${(n / (1024 * 1024)).toFixed(2)} MiB (${n.toLocaleString('en-US')} B)`;
}

/**
 * The name of an encoding number.
 * @param e - a parquet.thrift `Encoding`.
 * @returns its name, or `encoding N` for an unknown one.
 */
export function encodingName(e: number | undefined): string {
  return e === undefined ? 'unknown' : (EncodingNames[e] ?? `encoding ${e}`);
}

/**
 * The name of a codec number.
 * @param c - a parquet.thrift `CompressionCodec`.
 * @returns its name, or `codec N` for an unknown one.
 */
export function codecName(c: number): string {
  return CompressionCodecNames[c] ?? `codec ${c}`;
}

/** A statistics value as shown: JSON (strings quoted), `undefined` as "unknown". */
function show(v: unknown): string {
  return v === undefined ? 'unknown' : JSON.stringify(v);
}

function statLines(s: ColumnStatistics | undefined, prefix: string): string[] {
  if (!s) return [`${prefix}statistics: none`];
  const lines = [`${prefix}min: ${show(s.min)}${s.min !== undefined && !s.minExact ? ' (a bound)' : ''}`, `${prefix}max: ${show(s.max)}${s.max !== undefined && !s.maxExact ? ' (a bound)' : ''}`];
  lines.push(`${prefix}null count: ${s.nullCount ?? 'unknown'}`);
  if (s.distinctCount !== undefined) lines.push(`${prefix}distinct count: ${s.distinctCount}`);
  if (s.nanCount !== undefined && s.nanCount > 0) lines.push(`${prefix}NaN count: ${s.nanCount}`);
  return lines;
}

function safeStatistics(loaded: LoadedFile, chunk: ChunkLayout, stats: Statistics): ColumnStatistics | undefined {
  const column = loaded.file.schema.columns[chunk.column];
  if (!column) return undefined;
  try {
    return columnStatistics(loaded.file.metadata, column, { ...chunk.meta, statistics: stats } satisfies ColumnMetaData, { values: 'json' });
  } catch {
    return undefined; // a bound that cannot be decoded is shown as none
  }
}

/**
 * The hover lines of a column chunk.
 * @param loaded - the file.
 * @param chunk - the chunk.
 * @returns the lines (the first is the title).
 */
export function chunkLines(loaded: LoadedFile, chunk: ChunkLayout): string[] {
  const { rowGroup: g, column: c, meta } = chunk;
  const cc = loaded.file.metadata.row_groups[g]?.columns[c];
  const lines = [`Row group ${g} · column ${chunk.path}`];
  lines.push(`bytes [${chunk.start.toLocaleString('en-US')}, ${chunk.end.toLocaleString('en-US')}): ${formatBytes(chunk.end - chunk.start)} compressed, ${formatBytes(meta.total_uncompressed_size)} uncompressed`);
  lines.push(`codec: ${codecName(meta.codec)}`);
  lines.push(`encodings: ${meta.encodings.map(encodingName).join(', ')}`);
  lines.push(`num_values: ${meta.num_values.toLocaleString('en-US')}`);
  // decoded when the file was opened (ParquetFile.statistics is asynchronous)
  const st = loaded.statistics[g]?.[c];
  // say why (a column key not given, a corrupt bound), never show "none" for statistics that exist
  if (st !== undefined && 'error' in st) lines.push(`statistics: unreadable (${st.error})`);
  else lines.push(...statLines(st?.stats, ''));
  lines.push(`pages: ${chunk.pages ? `${chunk.pages.pages.length} (from the ${chunk.pages.from === 'offset-index' ? 'offset index' : 'page headers'})` : 'unknown'}`);
  lines.push(`column index: ${cc?.column_index_offset !== undefined ? `yes, ${formatBytes(cc.column_index_length ?? 0)} at byte ${cc.column_index_offset}` : 'no'}`);
  lines.push(`offset index: ${cc?.offset_index_offset !== undefined ? `yes, ${formatBytes(cc.offset_index_length ?? 0)} at byte ${cc.offset_index_offset}` : 'no'}`);
  const bloomLength = meta.bloom_filter_length ?? loaded.details.bloomLengths?.[g]?.[c];
  lines.push(`bloom filter: ${meta.bloom_filter_offset !== undefined ? `yes, ${bloomLength === undefined ? 'unknown size' : formatBytes(bloomLength)} at byte ${meta.bloom_filter_offset}` : 'no'}`);
  return lines;
}

const PAGE_TYPES: Record<number, string> = { [PageType.DATA_PAGE]: 'data page', [PageType.DATA_PAGE_V2]: 'data page V2', [PageType.DICTIONARY_PAGE]: 'dictionary page', [PageType.INDEX_PAGE]: 'index page' };

/**
 * The hover lines of a page.
 * @param loaded - the file.
 * @param chunk - its chunk.
 * @param page - the page's position in the chunk's page list.
 * @returns the lines (the first is the title).
 */
export function pageLines(loaded: LoadedFile, chunk: ChunkLayout, page: number): string[] {
  const p = chunk.pages?.pages[page];
  if (!p) return [`Row group ${chunk.rowGroup} · column ${chunk.path} · page ${page}`];
  const fromIndex = chunk.pages?.from === 'offset-index' && p.type !== PageType.DICTIONARY_PAGE;
  const type = fromIndex ? 'data page' : (PAGE_TYPES[p.type] ?? `page type ${p.type}`);
  const lines = [`Row group ${chunk.rowGroup} · column ${chunk.path} · page ${page} (${type})`];
  lines.push(`bytes [${p.offset.toLocaleString('en-US')}, ${(p.offset + p.size).toLocaleString('en-US')}): ${formatBytes(p.size)}${p.headerSize !== undefined ? ` (header ${p.headerSize} B)` : ''}`);
  if (p.uncompressedSize !== undefined) lines.push(`uncompressed body: ${formatBytes(p.uncompressedSize)}`);
  lines.push(`encoding: ${encodingName(p.encoding)} · codec: ${codecName(chunk.meta.codec)}`);
  if (p.numValues !== undefined) lines.push(`num_values: ${p.numValues.toLocaleString('en-US')}`);
  if (p.numNulls !== undefined) lines.push(`num_nulls: ${p.numNulls.toLocaleString('en-US')}`);
  if (p.numRows !== undefined) lines.push(`num_rows: ${p.numRows.toLocaleString('en-US')}`);
  if (p.firstRowIndex !== undefined) lines.push(`first row: ${p.firstRowIndex.toLocaleString('en-US')} (offset index)`);
  if (p.crc !== undefined) lines.push(`CRC32: ${p.crc ? 'yes' : 'no'}`);
  if (p.statistics) lines.push(...statLines(safeStatistics(loaded, chunk, p.statistics), 'header '));
  // the ColumnIndex lists data pages only, in order
  const ci = loaded.details.columnIndexes[chunk.rowGroup]?.[chunk.column];
  if (ci && p.type !== PageType.DICTIONARY_PAGE) {
    const first = chunk.pages!.pages[0]?.type === PageType.DICTIONARY_PAGE ? 1 : 0;
    const k = page - first;
    if (ci.null_pages[k] === true) lines.push('column index: only nulls');
    else if (k >= 0 && k < ci.min_values.length) {
      const nulls = ci.null_counts?.[k];
      const s = safeStatistics(loaded, chunk, { min_value: ci.min_values[k]!, max_value: ci.max_values[k]!, ...(nulls === undefined ? {} : { null_count: nulls }) });
      if (s) s.minExact = s.maxExact = false; // page index bounds may be truncated
      lines.push(...statLines(s, 'column index '));
    }
  }
  return lines;
}

const REGION_NAMES: Record<string, string> = {
  [SegmentKind.MAGIC]: 'Magic "PAR1"',
  [SegmentKind.TAIL]: 'Footer length and magic',
  [SegmentKind.FOOTER]: 'Footer (FileMetaData)',
  [SegmentKind.COLUMN_INDEX]: 'Column index',
  [SegmentKind.OFFSET_INDEX]: 'Offset index',
  [SegmentKind.BLOOM_FILTER]: 'Bloom filter',
  [SegmentKind.CHUNK_METADATA]: 'Column chunk metadata copy',
  [SegmentKind.CHUNK_REST]: 'Chunk bytes outside any listed page',
  [SegmentKind.GAP]: 'Bytes nothing points at',
};

/**
 * The hover lines of a region that is not a page (magic, footer, indexes, bloom filters, gaps).
 * @param loaded - the file.
 * @param seg - the segment.
 * @returns the lines (the first is the title).
 */
export function regionLines(loaded: LoadedFile, seg: Segment): string[] {
  const lines = [REGION_NAMES[seg.kind] ?? seg.kind];
  if (seg.rowGroup !== undefined && seg.column !== undefined) {
    const path = loaded.file.schema.columns[seg.column]?.pathString ?? String(seg.column);
    lines[0] += ` · row group ${seg.rowGroup} · column ${path}`;
  }
  lines.push(`bytes [${seg.start.toLocaleString('en-US')}, ${seg.end.toLocaleString('en-US')}): ${formatBytes(seg.end - seg.start)}`);
  if (seg.kind === SegmentKind.FOOTER) {
    const m = loaded.file.metadata;
    lines.push(`created_by: ${m.created_by ?? 'unknown'}`, `version: ${m.version}`, `rows: ${m.num_rows.toLocaleString('en-US')}`, `row groups: ${m.row_groups.length}`);
  }
  return lines;
}

/**
 * The hover lines of a row group.
 * @param loaded - the file.
 * @param g - the row group ordinal.
 * @returns the lines (the first is the title).
 */
export function rowGroupLines(loaded: LoadedFile, g: number): string[] {
  const rg = loaded.layout.rowGroups[g];
  if (!rg) return [`Row group ${g}`];
  const meta = loaded.file.metadata.row_groups[g];
  return [
    `Row group ${g}`,
    `rows: ${rg.numRows.toLocaleString('en-US')}`,
    `bytes [${rg.start.toLocaleString('en-US')}, ${rg.end.toLocaleString('en-US')}): ${formatBytes(rg.end - rg.start)}`,
    `column chunks: ${rg.chunks.length}`,
    ...(meta?.sorting_columns?.length ? [`sorted by: ${meta.sorting_columns.map((s) => `${loaded.file.schema.columns[s.column_idx]?.pathString ?? s.column_idx}${s.descending ? ' desc' : ''}`).join(', ')}`] : []),
  ];
}
