// Bytes written by a peer (DuckDB via @duckdb/node-api): locate the pages by hand and decode
// their values with our decoders, comparing with what DuckDB reads back.
import { Encoding, Type } from '@parquetry/thrift-compact';
import { beforeAll, describe, expect, test } from 'vitest';
import { decodeDictionaryPage, decodeValues, type ByteArrays, type ColumnValues } from '../src/index.js';
import { duckdbPages, type PeerPage } from './peer.js';

const SELECT = `SELECT i::INT AS a, (i * 1000000007 - 5)::BIGINT AS b, (i / 7)::FLOAT AS f, (i / 3 - 100)::DOUBLE AS d,
  'x' || (i % 5) AS s, 's' || (i * i) AS u, (i % 3 = 0) AS bo,
  (i % 4 - 2)::BIGINT AS k, ((i % 3) / 4 - 1)::DOUBLE AS kd, (i % 6)::INT AS ki FROM range(0, 3000) t(i)`;

function toJs(values: ColumnValues, type: number): unknown[] {
  if (type === Type.BYTE_ARRAY) {
    const v = values as ByteArrays;
    const td = new TextDecoder();
    return Array.from({ length: v.offsets.length - 1 }, (_, i) => td.decode(v.data.subarray(v.offsets[i]!, v.offsets[i + 1]!)));
  }
  if (type === Type.BOOLEAN) return Array.from(values as Uint8Array, (b) => b === 1);
  return Array.from(values as ArrayLike<unknown>);
}

function decodeColumn(pages: PeerPage[], name: string, seen: Set<number>): unknown[] {
  const out: unknown[] = [];
  for (const p of pages.filter((q) => q.column === name)) {
    seen.add(p.encoding);
    const col = { type: p.type as Type, ...(p.typeLength !== undefined ? { typeLength: p.typeLength } : {}) };
    const dict = p.dictionary ? decodeDictionaryPage(p.dictionary.src, 0, p.dictionary.src.length, p.dictionary.count, col).values : undefined;
    const r = decodeValues(p.encoding, p.src, p.pos, p.end, p.count, col, dict);
    expect(r.pos).toBeLessThanOrEqual(p.end);
    out.push(...toJs(r.values, p.type));
  }
  return out;
}

describe.each(['V1', 'V2'])('DuckDB-written pages, PARQUET_VERSION %s', (version) => {
  let data: Awaited<ReturnType<typeof duckdbPages>>;
  beforeAll(async () => {
    data = await duckdbPages(SELECT, `PARQUET_VERSION ${version}`);
  });
  test.each(['a', 'b', 'f', 'd', 's', 'u', 'bo', 'k', 'kd', 'ki'])('column %s', (name) => {
    const ci = data.columns.indexOf(name);
    const expected = data.rows.map((r) => r[ci]);
    const seen = new Set<number>();
    expect(decodeColumn(data.pages, name, seen)).toEqual(expected);
    expect(seen.size).toBeGreaterThan(0);
    allSeen[version]!.push(...seen);
  });
});

const allSeen: Record<string, number[]> = { V1: [], V2: [] };
test('DuckDB emitted the encodings we expect to have covered', () => {
  expect(new Set(allSeen.V1)).toEqual(new Set([Encoding.PLAIN, Encoding.PLAIN_DICTIONARY]));
  expect(new Set(allSeen.V2)).toEqual(new Set([Encoding.PLAIN, Encoding.RLE_DICTIONARY, Encoding.DELTA_BINARY_PACKED, Encoding.DELTA_LENGTH_BYTE_ARRAY, Encoding.BYTE_STREAM_SPLIT]));
});
