// Upstream corpus (../shared/parquet-testing): decode the pages of encoding test files with our
// decoders and compare with DuckDB's reading of the same file, the upstream *_expect.csv, or the
// PLAIN-encoded sibling column in the same file.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { decodeDictionaryPage, decodeValues, type ByteArrays, type ColumnValues } from '../src/index.js';
import { duckdbRead, pagesOf, type PeerPage } from './peer.js';

const DIR = join(import.meta.dirname, '../../../../shared/parquet-testing/data');
const HAVE = existsSync(DIR);
if (!HAVE) console.log(`corpus tests skipped: ${DIR} is absent`);

function decodePages(pages: PeerPage[]): ColumnValues[] {
  return pages.map((p) => {
    const col = { type: p.type as Type, ...(p.typeLength !== undefined ? { typeLength: p.typeLength } : {}) };
    const dict = p.dictionary ? decodeDictionaryPage(p.dictionary.src, 0, p.dictionary.src.length, p.dictionary.count, col).values : undefined;
    const r = decodeValues(p.encoding, p.src, p.pos, p.end, p.count, col, dict);
    expect(r.pos).toBeLessThanOrEqual(p.end);
    return r.values;
  });
}

function toJs(values: ColumnValues, type: number): unknown[] {
  if (type === Type.BYTE_ARRAY) {
    const v = values as ByteArrays;
    const td = new TextDecoder();
    return Array.from({ length: v.offsets.length - 1 }, (_, i) => td.decode(v.data.subarray(v.offsets[i]!, v.offsets[i + 1]!)));
  }
  if (type === Type.BOOLEAN) return Array.from(values as Uint8Array, (b) => b === 1);
  return Array.from(values as ArrayLike<unknown>);
}

function bytesOf(v: ColumnValues): string {
  if ('offsets' in v || 'width' in v) return Buffer.from(v.data).toString('hex');
  return Buffer.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)).toString('hex');
}


describe.skipIf(!HAVE)('parquet-testing corpus vs DuckDB', () => {
  test.each([
    'delta_binary_packed.parquet',
    'delta_byte_array.parquet',
    'delta_encoding_optional_column.parquet',
    'delta_encoding_required_column.parquet',
    'delta_length_byte_array.parquet',
    'rle_boolean_encoding.parquet',
    'byte_stream_split.zstd.parquet',
  ])('%s', async (name) => {
    const file = join(DIR, name);
    const { meta, pages } = pagesOf(new Uint8Array(readFileSync(file)));
    const { rows, columns } = await duckdbRead(file);
    const leaves = meta.schema.slice(1);
    let checked = 0;
    leaves.forEach((leaf) => {
      const ps = pages.filter((p) => p.column === leaf.name);
      const ci = columns.indexOf(leaf.name);
      const expected = rows.map((r) => r[ci]).filter((v) => v !== null);
      const got = decodePages(ps).flatMap((v) => toJs(v, leaf.type!));
      expect(got, leaf.name).toEqual(expected);
      checked++;
    });
    expect(checked).toBe(leaves.length);
  });

  test('delta_binary_packed.parquet matches delta_binary_packed_expect.csv', () => {
    const { meta, pages } = pagesOf(new Uint8Array(readFileSync(join(DIR, 'delta_binary_packed.parquet'))));
    const csv = readFileSync(join(DIR, 'delta_binary_packed_expect.csv'), 'utf8').trim().split('\n');
    const header = csv[0]!.split(',');
    const body = csv.slice(1).map((l) => l.split(','));
    for (const leaf of meta.schema.slice(1)) {
      const got = decodePages(pages.filter((p) => p.column === leaf.name)).flatMap((v) => toJs(v, leaf.type!)).map(String);
      const ci = header.indexOf(leaf.name);
      expect(got, leaf.name).toEqual(body.map((r) => r[ci]));
    }
    expect(meta.schema.length).toBeGreaterThan(60);
  });

  test('byte_stream_split_extended.gzip.parquet: each *_byte_stream_split column equals its *_plain sibling', () => {
    const { meta, pages } = pagesOf(new Uint8Array(readFileSync(join(DIR, 'byte_stream_split_extended.gzip.parquet'))));
    let pairs = 0;
    for (const leaf of meta.schema.slice(1)) {
      if (!leaf.name.endsWith('_byte_stream_split')) continue;
      const split = pages.filter((p) => p.column === leaf.name);
      const plain = pages.filter((p) => p.column === leaf.name.replace('_byte_stream_split', '_plain'));
      expect(split.every((p) => p.encoding === 9)).toBe(true);
      expect(decodePages(split).map(bytesOf).join(''), leaf.name).toBe(decodePages(plain).map(bytesOf).join(''));
      pairs++;
    }
    expect(pairs).toBe(7);
  });
});
