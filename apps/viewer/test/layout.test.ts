/**
 * The layout computation against offsets read independently: hyparquet's footer and OffsetIndex decoders give the
 * chunk ranges, index regions, bloom filter regions and page locations; Apache Thrift's TCompactProtocol walks the
 * page headers of chunks without an offset index (and reads bloom filter headers); the footer length comes from the
 * file's last 8 bytes with Buffer.readUInt32LE. For every readable corpus file and files from our writer (fixed ones
 * and random ones from fast-check), the segments must tile the file exactly, each page segment must be the page the
 * peers find, and bytes no metadata points at must be zero padding. Synthetic metadata checks the overlap, clipping
 * and unknown-pages paths.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { bufferSource } from '@parquetry/parquet-reader';
import { field, writeParquet, type WriteOptions } from '@parquetry/parquet-writer';
import { allCodecs } from 'parquetry';
import type { ColumnChunk, FileMetaData } from '@parquetry/thrift-compact';
import { computeLayout, SegmentKind, type Layout, type Segment } from '../src/layout.js';
import { loadFileLayout } from '../src/load.js';
import { peerChunks } from './peers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const corpus = path.resolve(repo, '../shared/parquet-testing/data');

// ---- checks

function expectTiles(layout: Layout, size: number): void {
  expect(layout.segments.length).toBeGreaterThan(0);
  expect(layout.segments[0]!.start).toBe(0);
  for (let i = 1; i < layout.segments.length; i++) {
    const s = layout.segments[i]!;
    expect(s.start, `segment ${i} (${s.kind})`).toBe(layout.segments[i - 1]!.end);
    expect(s.end).toBeGreaterThan(s.start);
  }
  expect(layout.segments.at(-1)!.end).toBe(size);
}

const range = (s: Segment) => [s.start, s.end];

function expectMatchesPeers(layout: Layout, bytes: Uint8Array, options: { problems?: boolean } = {}): void {
  const size = bytes.length;
  expectTiles(layout, size);
  if (options.problems !== true) expect(layout.problems).toEqual([]);
  const footerLength = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).readUInt32LE(size - 8);
  expect(layout.segments.filter((s) => s.kind === SegmentKind.FOOTER).map(range)).toEqual([[size - 8 - footerLength, size - 8]]);
  expect(layout.segments.filter((s) => s.kind === SegmentKind.TAIL).map(range)).toEqual([[size - 8, size]]);
  expect(layout.segments[0]).toMatchObject({ kind: SegmentKind.MAGIC, start: 0, end: 4 });
  const peers = peerChunks(bytes);
  expect(layout.rowGroups.length).toBe(peers.length);
  const of = (kind: SegmentKind, g: number, c: number) => layout.segments.filter((s) => s.kind === kind && s.rowGroup === g && s.column === c).map(range);
  peers.forEach((cols, g) => {
    expect(layout.rowGroups[g]!.chunks.length).toBe(cols.length);
    cols.forEach((peer, c) => {
      const ch = layout.rowGroups[g]!.chunks[c]!;
      expect([ch.start, ch.end], `row group ${g} column ${c}`).toEqual([peer.start, peer.end]);
      const pageSegs = ch.pageSegments.map((i) => layout.segments[i]!);
      expect(pageSegs.map((s) => ({ offset: s.start, size: s.end - s.start })), `row group ${g} column ${c} pages`).toEqual(peer.pages.map((p) => ({ offset: p.offset, size: p.size })));
      const kinds = { 0: SegmentKind.DATA_PAGE, 2: SegmentKind.DICTIONARY_PAGE, 3: SegmentKind.DATA_PAGE_V2 } as Record<number, string>;
      peer.pages.forEach((p, i) => {
        if (p.type !== undefined) expect(pageSegs[i]!.kind).toBe(kinds[p.type] ?? SegmentKind.OTHER_PAGE);
      });
      expect(of(SegmentKind.COLUMN_INDEX, g, c)).toEqual(peer.columnIndex ? [peer.columnIndex] : []);
      expect(of(SegmentKind.OFFSET_INDEX, g, c)).toEqual(peer.offsetIndex ? [peer.offsetIndex] : []);
      expect(of(SegmentKind.BLOOM_FILTER, g, c)).toEqual(peer.bloom ? [peer.bloom] : []);
    });
  });
  // what no metadata points at is padding
  for (const s of layout.segments.filter((x) => x.kind === SegmentKind.GAP)) {
    expect(bytes.subarray(s.start, s.end).every((b) => b === 0), `gap [${s.start}, ${s.end}) is not zero padding`).toBe(true);
  }
}

async function layoutOf(bytes: Uint8Array): Promise<{ layout: Layout; errors: string[] }> {
  const loaded = await loadFileLayout(bufferSource(bytes), {});
  return { layout: loaded.layout, errors: loaded.details.errors };
}

// ---- corpus

const SKIP: Record<string, string> = {};
const corpusFiles = fs.existsSync(corpus) ? fs.readdirSync(corpus).filter((f) => f.endsWith('.parquet')).sort() : [];

describe('corpus files', () => {
  test('the corpus is there', () => {
    expect(corpusFiles.length).toBeGreaterThan(60);
  });

  test.each(corpusFiles.filter((f) => !(f in SKIP)))('%s: segments tile the file and match the peers', async (name) => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(corpus, name)));
    const { layout, errors } = await layoutOf(bytes);
    if (name === 'nation.dict-malformed.parquet') {
      // two chunks' sizes in the footer are 15 bytes short of their last page
      expect(errors).toHaveLength(2);
      expect(layout.problems).toEqual([
        "row group 0, column 'name': page 1 ends at byte 466, past the chunk's end 451",
        "row group 0, column 'comment_col': page 1 ends at byte 2608, past the chunk's end 2593",
      ]);
      expectTiles(layout, bytes.length);
      return;
    }
    expect(errors).toEqual([]);
    expectMatchesPeers(layout, bytes);
  });

  test('a file with the page index: pages from the OffsetIndex, a dictionary page from its header', async () => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(corpus, 'alltypes_tiny_pages.parquet')));
    const { layout } = await layoutOf(bytes);
    const chunks = layout.rowGroups.flatMap((g) => g.chunks);
    expect(chunks.every((c) => c.pages?.from === 'offset-index')).toBe(true);
    // 12 of the 13 columns have a ColumnIndex
    expect(layout.segments.filter((s) => s.kind === SegmentKind.COLUMN_INDEX)).toHaveLength(12);
    expect(layout.segments.filter((s) => s.kind === SegmentKind.OFFSET_INDEX)).toHaveLength(chunks.length);
    expect(layout.segments.filter((s) => s.kind === SegmentKind.DICTIONARY_PAGE).length).toBeGreaterThan(0);
  });

  test('metadata copies after the chunks (parquet-java / Impala ColumnChunk, arrow-rs ColumnMetaData) are named', async () => {
    for (const name of ['alltypes_plain.parquet', 'data_index_bloom_encoding_with_length.parquet']) {
      const bytes = new Uint8Array(fs.readFileSync(path.join(corpus, name)));
      const { layout } = await layoutOf(bytes);
      const copies = layout.segments.filter((s) => s.kind === SegmentKind.CHUNK_METADATA);
      expect(copies.length, name).toBe(layout.rowGroups.reduce((a, g) => a + g.chunks.length, 0));
      // each starts where its chunk ends
      for (const s of copies) expect(s.start).toBe(layout.rowGroups[s.rowGroup!]!.chunks[s.column!]!.end);
    }
  });
});

// ---- our writer

const schema = { id: field.int64({ required: true }), name: field.string(), score: field.double(), tags: field.list(field.string()) };
function rowsOf(n: number, seed: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    id: BigInt(i * 7 + seed),
    name: i % 5 === 0 ? null : `name-${(i * 13 + seed) % 37}`,
    score: i % 7 === 0 ? null : ((i * 31 + seed) % 1000) / 10,
    tags: Array.from({ length: i % 3 }, (_, k) => `t${(i + k) % 4}`),
  }));
}

describe('files from our writer', async () => {
  const codecs = await allCodecs();
  const configs: [string, WriteOptions][] = [
    ['defaults (page index, dictionary, SNAPPY)', {}],
    ['small pages and row groups, page V2, ZSTD, bloom filters', { pageRows: 50, rowGroupRows: 400, pageVersion: 2, compression: 'ZSTD', bloomFilter: true }],
    ['no page index, no dictionary, GZIP, page statistics', { pageIndex: false, dictionary: false, compression: 'GZIP', pageRows: 100, pageStatistics: true }],
    ['uncompressed, no statistics, no checksum', { compression: 'UNCOMPRESSED', statistics: false, checksum: false, rowGroupRows: 333 }],
  ];
  test.each(configs)('%s', async (_name, options) => {
    const bytes = await writeParquet(rowsOf(1000, 3), { schema, codecs, ...options });
    const { layout, errors } = await layoutOf(bytes);
    expect(errors).toEqual([]);
    expectMatchesPeers(layout, bytes);
    const chunks = layout.rowGroups.flatMap((g) => g.chunks);
    expect(chunks.every((c) => c.pages?.from === (options.pageIndex === false ? 'page-headers' : 'offset-index'))).toBe(true);
    if (options.bloomFilter) expect(layout.segments.filter((s) => s.kind === SegmentKind.BLOOM_FILTER)).toHaveLength(chunks.length);
  });

  test('random files: the segments tile the file and equal the peers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 600 }),
        fc.record({
          pageRows: fc.integer({ min: 1, max: 300 }),
          rowGroupRows: fc.integer({ min: 1, max: 700 }),
          pageVersion: fc.constantFrom(1 as const, 2 as const),
          compression: fc.constantFrom('UNCOMPRESSED' as const, 'SNAPPY' as const, 'GZIP' as const, 'LZ4_RAW' as const),
          dictionary: fc.boolean(),
          pageIndex: fc.boolean(),
          bloomFilter: fc.boolean(),
          pageStatistics: fc.boolean(),
        }),
        async (n, options) => {
          const bytes = await writeParquet(rowsOf(n, n), { schema, codecs, ...options });
          const { layout, errors } = await layoutOf(bytes);
          expect(errors).toEqual([]);
          expectMatchesPeers(layout, bytes);
        },
      ),
      { numRuns: 25 },
    );
  });
});

// ---- the pure function on synthetic metadata

function chunk(offset: number, size: number, extra: Partial<ColumnChunk> = {}): ColumnChunk {
  return {
    file_offset: offset,
    meta_data: { type: 1, encodings: [0], path_in_schema: ['a'], codec: 0, num_values: 1, total_uncompressed_size: size, total_compressed_size: size, data_page_offset: offset },
    ...extra,
  };
}
function meta(columns: ColumnChunk[][]): FileMetaData {
  return { version: 1, schema: [{ name: 'root', num_children: 1 }, { name: 'a', type: 1 }], num_rows: 1, row_groups: columns.map((c) => ({ columns: c, total_byte_size: 0, num_rows: 1 })) };
}

describe('computeLayout', () => {
  test('unknown pages: each chunk is one segment; unclaimed bytes are gaps', () => {
    const l = computeLayout({ fileSize: 100, footerLength: 20, metadata: meta([[chunk(4, 30)], [chunk(40, 20)]]) });
    expect(l.segments.map((s) => [s.kind, s.start, s.end])).toEqual([
      ['magic', 0, 4],
      ['chunk-rest', 4, 34],
      ['gap', 34, 40],
      ['chunk-rest', 40, 60],
      ['gap', 60, 72],
      ['footer', 72, 92],
      ['tail', 92, 100],
    ]);
    expect(l.rowGroups.map((g) => [g.start, g.end])).toEqual([
      [4, 34],
      [40, 60],
    ]);
    expect(l.problems).toEqual([]);
  });

  test('overlapping regions are cut and reported; a region outside the file is clipped and reported', () => {
    const l = computeLayout({
      fileSize: 100,
      footerLength: 20,
      metadata: meta([[chunk(4, 30, { column_index_offset: 20, column_index_length: 10, offset_index_offset: 95, offset_index_length: 10 })]]),
    });
    expectTiles(l, 100);
    expect(l.problems).toEqual([
      "row group 0, column 'a': column index: bytes [20, 30) overlap the region before",
      "row group 0, column 'a': offset index: bytes [95, 105) reach outside the 100-byte file",
      "row group 0, column 'a': offset index: bytes [95, 100) overlap the region before",
    ]);
  });

  test('pages: bytes before a page and after the last are chunk rest; a page past its chunk is reported', () => {
    const l = computeLayout({
      fileSize: 100,
      footerLength: 20,
      metadata: meta([[chunk(4, 40)]]),
      pages: [[{ from: 'page-headers', pages: [{ offset: 8, size: 10, type: 2 }, { offset: 18, size: 30, type: 0 }] }]],
    });
    expect(l.segments.slice(1, 5).map((s) => [s.kind, s.start, s.end, s.page])).toEqual([
      ['chunk-rest', 4, 8, undefined],
      ['dictionary-page', 8, 18, 0],
      ['data-page', 18, 48, 1],
      ['gap', 48, 72, undefined],
    ]);
    expect(l.rowGroups[0]!.chunks[0]!.pageSegments).toEqual([2, 3]);
    expect(l.problems).toEqual(["row group 0, column 'a': page 1 ends at byte 48, past the chunk's end 44"]);
  });

  test('a row group of 200,000 chunks (more than a call takes arguments)', () => {
    const n = 200_000;
    const cols = Array.from({ length: n }, (_, i) => chunk(4 + i * 10, 10));
    const size = 4 + n * 10 + 100 + 8;
    const l = computeLayout({ fileSize: size, footerLength: 100, metadata: meta([cols]) });
    expectTiles(l, size);
    expect(l.rowGroups[0]).toMatchObject({ start: 4, end: 4 + n * 10 });
    expect(l.segments).toHaveLength(n + 3);
  });
});
