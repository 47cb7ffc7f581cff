/**
 * `ParquetFile.pageIndex` and `ParquetFile.bloomFilter`: a chunk's page index and bloom filter as the file stores
 * them, decrypted when the column is encrypted.
 *
 * Expectations come from the rows (read through the data pages, which the conformance suite checks against the
 * upstream expectations), not from the structures themselves:
 * - the OffsetIndex's pages tile the chunk in order, first rows ascending from 0 below the row count, and the
 *   ColumnIndex's bounds hold every value of each page's rows (its boundary order holds too);
 * - a bloom filter answers "may contain" for every value of the chunk (a split-block filter has no false negatives)
 *   and "definitely absent" for most values that are not in it.
 * The upstream file `encrypt_columns_and_footer_bloom_filter` (parquet-java: columns encrypted with their own keys,
 * page indexes and bloom filters as encrypted modules) and its keys from the corpus MANIFEST.md; the plaintext
 * `data_index_bloom_encoding_stats` for the same checks without encryption; damaged bytes for the errors.
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { bufferSource, openParquet, type ParquetFile } from '@parquetry/parquet-reader';
import { Type } from '@parquetry/thrift-compact';
import { gzipCodec } from '../../codec-gzip/src/index.js';
import { HAVE_CORPUS, corpus, readBytes, typedError } from './helpers.js';

const enc = (s: string) => new TextEncoder().encode(s);
const data = path.join(corpus, 'data');
const ENCRYPTED = path.join(data, 'encrypt_columns_and_footer_bloom_filter.parquet.encrypted');
const PLAIN = path.join(data, 'data_index_bloom_encoding_stats.parquet');
const keys = { footerKey: enc('0123456789012345'), columnKeys: { double_field: enc('1234567890123450'), float_field: enc('1234567890123451') } };

/** A bound's PLAIN bytes as a comparable value (numbers, or strings compared as UTF-8 bytes would be). */
function boundOf(type: Type, b: Uint8Array): number | string {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (type === Type.DOUBLE) return v.getFloat64(0, true);
  if (type === Type.FLOAT) return v.getFloat32(0, true);
  if (type === Type.INT32) return v.getInt32(0, true);
  if (type === Type.BYTE_ARRAY) return Buffer.from(b).toString('latin1');
  throw new Error(`no bound decoding for type ${type}`);
}

/** A row value in the form of {@link boundOf} (strings as their UTF-8 bytes in latin1, which sorts as bytes do). */
const comparable = (v: unknown): number | string => (typeof v === 'string' ? Buffer.from(v, 'utf8').toString('latin1') : (v as number));

/** Checks every chunk's page index and bloom filter of a flat file against its rows; returns what it checked. */
async function checkAgainstRows(file: ParquetFile): Promise<{ indexes: number; pages: number; filters: number; absent: number; probed: number }> {
  const rows = await file.readRows();
  const seen = { indexes: 0, pages: 0, filters: 0, absent: 0, probed: 0 };
  let rowBase = 0;
  for (let g = 0; g < file.metadata.row_groups.length; g++) {
    const numRows = Number(file.metadata.row_groups[g]!.num_rows);
    for (const col of file.schema.columns) {
      const values = rows.slice(rowBase, rowBase + numRows).map((r) => r[col.pathString]);
      const index = await file.pageIndex(g, col.pathString);
      if (index) {
        seen.indexes++;
        const md = file.columnMetaData(g, col.index);
        const locs = index.offsetIndex.page_locations;
        const chunkStart = Number(md.dictionary_page_offset ?? md.data_page_offset);
        let prevEnd = chunkStart;
        locs.forEach((loc, k) => {
          expect(Number(loc.offset)).toBeGreaterThanOrEqual(prevEnd);
          prevEnd = Number(loc.offset) + loc.compressed_page_size;
          if (k > 0) expect(Number(loc.first_row_index)).toBeGreaterThan(Number(locs[k - 1]!.first_row_index));
        });
        expect(Number(locs[0]!.first_row_index)).toBe(0);
        expect(Number(locs.at(-1)!.first_row_index)).toBeLessThan(numRows);
        expect(prevEnd).toBeLessThanOrEqual(chunkStart + Number(md.total_compressed_size));
        const ci = index.columnIndex;
        if (ci) {
          expect(ci.null_pages.length).toBe(locs.length);
          locs.forEach((loc, k) => {
            seen.pages++;
            const end = k + 1 < locs.length ? Number(locs[k + 1]!.first_row_index) : numRows;
            const page = values.slice(Number(loc.first_row_index), end).filter((v) => v !== null && v !== undefined);
            if (ci.null_pages[k]) {
              expect(page).toEqual([]);
              return;
            }
            const lo = boundOf(col.type, ci.min_values[k]!);
            const hi = boundOf(col.type, ci.max_values[k]!);
            for (const v of page) {
              expect(comparable(v) >= lo && comparable(v) <= hi, `page ${k} of '${col.pathString}': ${String(v)} within [${lo}, ${hi}]`).toBe(true);
            }
            if (ci.null_counts) expect(Number(ci.null_counts[k])).toBe(end - Number(loc.first_row_index) - page.length);
          });
        }
      }
      const filter = await file.bloomFilter(g, col.index);
      if (filter) {
        seen.filters++;
        const probe = (v: unknown): boolean => {
          if (col.type === Type.DOUBLE) return filter.mightContainDouble(v as number);
          if (col.type === Type.FLOAT) return filter.mightContainFloat(v as number);
          const b = enc(String(v));
          return filter.mightContainBytes(b, 0, b.length);
        };
        const present = values.filter((v) => v !== null && v !== undefined);
        for (const v of present) expect(probe(v), `'${col.pathString}' may contain ${String(v)}`).toBe(true);
        const set = new Set(present.map(String));
        for (let k = 0; k < 1000; k++) {
          const v = col.type === Type.BYTE_ARRAY ? `not-a-value-${k}` : 1e6 + k + 0.5;
          if (set.has(String(v))) continue;
          seen.probed++;
          if (!probe(v)) seen.absent++;
        }
      }
    }
    rowBase += numRows;
  }
  return seen;
}

describe.skipIf(!HAVE_CORPUS)('page index and bloom filter of a chunk', () => {
  test('encrypted columns (upstream, parquet-java): decrypted structures agree with the rows', async () => {
    const file = await openParquet(bufferSource(readBytes(ENCRYPTED)), { codecs: builtinCodecs(), decryption: keys });
    const seen = await checkAgainstRows(file);
    // 4 columns with page indexes (2 encrypted with column keys); bloom filters on the two encrypted columns
    expect(seen.indexes).toBe(4);
    expect(seen.pages).toBeGreaterThanOrEqual(8);
    expect(seen.filters).toBe(2);
    expect(seen.absent / seen.probed).toBeGreaterThan(0.9);
  });

  test('plaintext (upstream data_index_bloom_encoding_stats): the same checks', async () => {
    const file = await openParquet(bufferSource(readBytes(PLAIN)), { codecs: { ...builtinCodecs(), [gzipCodec.codec]: gzipCodec } });
    const seen = await checkAgainstRows(file);
    expect(seen.indexes).toBeGreaterThanOrEqual(1);
    expect(seen.filters).toBeGreaterThanOrEqual(1);
    expect(seen.absent / seen.probed).toBeGreaterThan(0.9);
  });

  test('a chunk without them: undefined', async () => {
    const file = await openParquet(bufferSource(readBytes(path.join(data, 'alltypes_plain.parquet'))), { codecs: builtinCodecs() });
    expect(await file.pageIndex(0, 0)).toBeUndefined();
    expect(await file.bloomFilter(0, 'id')).toBeUndefined();
  });

  test('a column whose key was not given: KEY_MISSING naming the column; a wrong key: DECRYPTION_FAILED', async () => {
    const footerOnly = await openParquet(bufferSource(readBytes(ENCRYPTED)), { codecs: builtinCodecs(), decryption: { footerKey: keys.footerKey } });
    const e1 = await typedError(() => footerOnly.pageIndex(0, 'double_field'));
    expect(e1.code).toBe('KEY_MISSING');
    expect(e1.message).toContain('double_field');
    expect((await typedError(() => footerOnly.bloomFilter(0, 'float_field'))).code).toBe('KEY_MISSING');
    // a column under the footer key still reads
    expect((await footerOnly.pageIndex(0, 'name'))?.offsetIndex.page_locations.length).toBeGreaterThan(0);
    const wrong = await openParquet(bufferSource(readBytes(ENCRYPTED)), { codecs: builtinCodecs(), decryption: { ...keys, columnKeys: { ...keys.columnKeys, double_field: enc('1234567890123459') } } });
    expect((await typedError(() => wrong.pageIndex(0, 'double_field'))).code).toBe('DECRYPTION_FAILED');
    expect((await typedError(() => wrong.bloomFilter(0, 'double_field'))).code).toBe('DECRYPTION_FAILED');
    expect(await wrong.bloomFilter(0, 'float_field')).toBeDefined();
  });

  test('bad arguments: OUT_OF_RANGE and UNKNOWN_COLUMN', async () => {
    const file = await openParquet(bufferSource(readBytes(PLAIN)), { codecs: builtinCodecs() });
    expect((await typedError(() => file.pageIndex(5, 0))).code).toBe('OUT_OF_RANGE');
    expect((await typedError(() => file.bloomFilter(0, 'nope'))).code).toBe('UNKNOWN_COLUMN');
  });

  test('an OffsetIndex that does not decode: CORRUPT_PAGE_INDEX with where it is', async () => {
    const bytes = readBytes(PLAIN);
    const file = await openParquet(bufferSource(bytes), { codecs: builtinCodecs() });
    const cc = file.metadata.row_groups[0]!.columns[0]!;
    const at = Number(cc.offset_index_offset);
    const damaged = bytes.slice();
    // a field header of compact type 13 (a map) with a size past the end, then garbage
    damaged.fill(0xfd, at, at + Number(cc.offset_index_length));
    const bad = await openParquet(bufferSource(damaged), { codecs: builtinCodecs() });
    const e = await typedError(() => bad.pageIndex(0, 0));
    expect(e.code).toBe('CORRUPT_PAGE_INDEX');
    expect(e.message).toContain(`row group 0, column '${file.schema.columns[0]!.pathString}'`);
    expect(e.message).toContain(`byte ${at}`);
    expect(e.offset).toBe(at);
  });
});
