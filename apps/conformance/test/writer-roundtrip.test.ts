/**
 * Writer round trip over the upstream corpus: every valid file the reader reads is read → written with
 * @parquetry/parquet-writer (its own schema copied as is) → read again, and the values must be identical (bigints,
 * NaN payload-insensitive but -0 ≠ +0, bytes, maps, nesting, decoded VARIANT values), through the rows path (`write`) and the columnar path
 * (`readRowGroupColumns` → `writeColumns`), with the default options and with each of: V2 pages, every codec,
 * dictionary off, and every applicable non-default encoding.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openParquet, type ParquetFile } from '@parquetry/parquet-reader';
import { createWriter, memorySink, writeParquet, type WriterOptions, type EncodingName } from '@parquetry/parquet-writer';
import { Type } from '@parquetry/thrift-compact';
import type { CodecMap } from '@parquetry/parquet-codecs';
import { allCodecs } from '../src/codecs.js';
import { mayHoldHugeStrings } from '../src/large-strings.js';
import { corpusDir, decryptionFor, listCases, readKnownFailures } from '../src/runner.js';
import { stableText } from '../src/stable-text.js';

const HAVE = fs.existsSync(corpusDir);
if (!HAVE) console.warn(`skipping the writer round trip: ${corpusDir} not found (set PARQUET_TESTING_DIR)`);
const known = readKnownFailures();
const cases = HAVE
  ? listCases().filter((c) => !c.rel.startsWith('bad_data/') && !/corrupt-checksum|-INVALID\.parquet$/.test(c.rel) && c.expectation?.expected?.error === undefined && !known.has(c.rel))
  : [];

/** Files above this size get the default options only (the matrix would take minutes). */
const MATRIX_MAX_BYTES = 2 << 20;

function hasVariant(f: ParquetFile): boolean {
  return f.schema.elements.some((e) => e.logicalType?.VARIANT !== undefined);
}

/** The options variants, each applied on top of the file's own schema. */
function variants(f: ParquetFile): [string, WriterOptions][] {
  const out: [string, WriterOptions][] = [
    ['defaults', {}],
    ['V2 pages', { pageVersion: 2 }],
    ['dictionary off', { dictionary: false }],
  ];
  for (const c of ['UNCOMPRESSED', 'GZIP', 'ZSTD', 'BROTLI', 'LZ4', 'LZ4_RAW', 'LZO'] as const) out.push([`codec ${c}`, { compression: c }]);
  const byEncoding: Partial<Record<EncodingName, string[]>> = {};
  for (const c of f.schema.columns) {
    const lt = c.node.logicalType;
    const add = (e: EncodingName) => (byEncoding[e] ??= []).push(c.pathString);
    if (c.type === Type.INT32 || c.type === Type.INT64) {
      add('DELTA_BINARY_PACKED');
      add('BYTE_STREAM_SPLIT');
    }
    if (c.type === Type.FLOAT || c.type === Type.DOUBLE) {
      add('BYTE_STREAM_SPLIT');
      add('ALP');
    }
    if (c.type === Type.BYTE_ARRAY) {
      add('DELTA_LENGTH_BYTE_ARRAY');
      add('DELTA_BYTE_ARRAY');
    }
    if (c.type === Type.FIXED_LEN_BYTE_ARRAY) {
      add('BYTE_STREAM_SPLIT');
      add('DELTA_BYTE_ARRAY');
    }
    if (c.type === Type.BOOLEAN) add('RLE');
    void lt;
  }
  for (const [e, cols] of Object.entries(byEncoding)) {
    out.push([`encoding ${e}`, { dictionary: false, columns: Object.fromEntries(cols!.map((p) => [p, { encoding: e as EncodingName }])) }]);
  }
  return out;
}

const CODEC_NUMBER: Record<string, number> = { UNCOMPRESSED: 0, SNAPPY: 1, GZIP: 2, LZO: 3, BROTLI: 4, LZ4: 5, ZSTD: 6, LZ4_RAW: 7 };
const ENCODING_NUMBER: Record<string, number> = { PLAIN: 0, RLE: 3, DELTA_BINARY_PACKED: 5, DELTA_LENGTH_BYTE_ARRAY: 6, DELTA_BYTE_ARRAY: 7, BYTE_STREAM_SPLIT: 9, ALP: 10 };

/** The written file really uses the codec, page version and encodings asked for (so the round trip tests them). */
function checkOptionsTookEffect(f: ParquetFile, name: string, opts: WriterOptions): void {
  for (const rg of f.metadata.row_groups) {
    rg.columns.forEach((cc, i) => {
      const md = cc.meta_data!;
      const path = f.schema.columns[i]!.pathString;
      expect(md.codec, `${name}: codec of ${path}`).toBe(CODEC_NUMBER[opts.compression ?? 'SNAPPY']);
      const pageTypes = new Set(md.encoding_stats!.map((s) => s.page_type));
      pageTypes.delete(2); // dictionary page
      expect([...pageTypes], `${name}: page type of ${path}`).toEqual([opts.pageVersion === 2 ? 3 : 0]);
      const e = opts.columns?.[path]?.encoding;
      const nonNull = (md.statistics?.null_count ?? 0) < md.num_values;
      if (e !== undefined && nonNull) expect(md.encodings, `${name}: encodings of ${path}`).toContain(ENCODING_NUMBER[e]);
      if (opts.dictionary === false) expect(md.dictionary_page_offset, `${name}: no dictionary for ${path}`).toBeUndefined();
    });
  }
}

async function rowsText(f: ParquetFile): Promise<string[]> {
  const rows = await f.readRows();
  return rows.map((r) => stableText(r));
}

describe.skipIf(!HAVE)('writer round trip over the corpus', () => {
  let codecs: CodecMap;
  test('codecs', async () => {
    codecs = await allCodecs();
  });
  for (const { rel } of cases) {
    test(rel, async () => {
      const bytes = new Uint8Array(fs.readFileSync(path.join(corpusDir, rel)));
      const decryption = decryptionFor(rel);
      const file = await openParquet(bytes, { codecs, ...(decryption ? { decryption } : {}) });
      if (mayHoldHugeStrings(file)) return; // strings longer than a JavaScript string can hold: not as rows
      // VARIANT values decoded: the writer encodes them again (and shreds them as the file's schema says)
      const rows = await file.readRows();
      const want = rows.map((r) => stableText(r));
      const matrix = bytes.length <= MATRIX_MAX_BYTES ? variants(file) : [['defaults', {}] as [string, WriterOptions]];
      for (const [name, opts] of matrix) {
        const out = await writeParquet(rows, { schema: file.metadata.schema, codecs, ...opts });
        const back = await openParquet(out, { codecs });
        checkOptionsTookEffect(back, name, opts);
        const got = await rowsText(back);
        expect(got.length, `${name}: row count`).toBe(want.length);
        for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) expect(got[i], `${name}: row ${i}`).toBe(want[i]);
      }
      // the columnar path: each row group's vectors written as they are read
      for (const [name, opts] of [['defaults', {}], ['V2 pages', { pageVersion: 2 }]] as [string, WriterOptions][]) {
        const sink = memorySink();
        const w = createWriter(sink, { schema: file.metadata.schema, codecs, ...opts });
        for (let g = 0; g < file.metadata.row_groups.length; g++) await w.writeColumns(await file.readRowGroupColumns(g));
        await w.close();
        const back = await openParquet(sink.bytes(), { codecs });
        const got = await rowsText(back);
        expect(got.length, `columns ${name}: row count`).toBe(want.length);
        for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) expect(got[i], `columns ${name}: row ${i}`).toBe(want[i]);
      }
      void hasVariant;
    });
  }
});
