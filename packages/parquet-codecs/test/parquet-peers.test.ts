// What our compressors write, real Parquet readers read: a one-column file (BYTE_ARRAY, PLAIN, one data page)
// per codec, its page compressed by the preset codecs, read back by DuckDB and by arrow-rs (parquet-wasm).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  ConvertedType,
  Encoding,
  FieldRepetitionType,
  PageType,
  Type,
  encodeThrift,
  writeFileMetaData,
  writePageHeader,
} from '@parquetry/thrift-compact';
import { type CodecMap, CompressionCodec, compressPage, compressionCodecName } from '@parquetry/parquet-codecs';
import { allCodecs } from '../../parquetry/src/codecs.js';
import { concat, rng } from './inputs.js';

const N = 3000;
const r = rng(5);
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'parquet', 'page', 'codec', 'row', 'group'];
const VALUES = Array.from({ length: N }, (_, i) => `row ${i} ${WORDS[(r() * WORDS.length) | 0]} ${WORDS[(r() * WORDS.length) | 0]} ${(r() * 1000) | 0}`);

function plainByteArrays(values: string[]): Uint8Array {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  for (const v of values) {
    const b = enc.encode(v);
    const len = new Uint8Array(4);
    new DataView(len.buffer).setUint32(0, b.length, true);
    parts.push(len, b);
  }
  return concat(...parts);
}

function parquetFile(codecs: CodecMap, codec: number): Uint8Array {
  const plain = plainByteArrays(VALUES);
  const body = compressPage(codecs, codec, plain);
  const header = encodeThrift(writePageHeader, {
    type: PageType.DATA_PAGE,
    uncompressed_page_size: plain.length,
    compressed_page_size: body.length,
    data_page_header: { num_values: N, encoding: Encoding.PLAIN, definition_level_encoding: Encoding.RLE, repetition_level_encoding: Encoding.RLE },
  });
  const footer = encodeThrift(writeFileMetaData, {
    version: 1,
    schema: [
      { name: 'schema', num_children: 1 },
      { name: 's', type: Type.BYTE_ARRAY, repetition_type: FieldRepetitionType.REQUIRED, converted_type: ConvertedType.UTF8 },
    ],
    num_rows: N,
    row_groups: [
      {
        columns: [
          {
            file_offset: 4,
            meta_data: {
              type: Type.BYTE_ARRAY,
              encodings: [Encoding.PLAIN, Encoding.RLE],
              path_in_schema: ['s'],
              codec: codec as CompressionCodec,
              num_values: N,
              total_uncompressed_size: header.length + plain.length,
              total_compressed_size: header.length + body.length,
              data_page_offset: 4,
            },
          },
        ],
        total_byte_size: header.length + plain.length,
        num_rows: N,
      },
    ],
    created_by: 'parquetry codec interop test',
  });
  const magic = new TextEncoder().encode('PAR1');
  const len = new Uint8Array(4);
  new DataView(len.buffer).setUint32(0, footer.length, true);
  return concat(magic, header, body, footer, len, magic);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-codecs-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const codecs = await allCodecs();
const named = (list: number[]) => list.map((c) => [compressionCodecName(c), c] as const);
const { SNAPPY, GZIP, LZO, BROTLI, LZ4, ZSTD, LZ4_RAW } = CompressionCodec;

describe('DuckDB reads pages we compressed', async () => {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await db.connect();
  // DuckDB 1.5 reads neither the deprecated LZ4 (Hadoop) nor LZO: it says so, and these tests pin that.
  test.each(named([LZ4, LZO]))('%s is refused by DuckDB (not supported there)', async (name, codec) => {
    const file = path.join(dir, `duckdb-${name}.parquet`);
    fs.writeFileSync(file, parquetFile(codecs, codec));
    await expect(conn.runAndReadAll(`SELECT s FROM read_parquet('${file}')`)).rejects.toThrow(/Unsupported compression codec/);
  });
  test.each(named([SNAPPY, GZIP, BROTLI, ZSTD, LZ4_RAW]))('%s', async (name, codec) => {
    const file = path.join(dir, `duckdb-${name}.parquet`);
    fs.writeFileSync(file, parquetFile(codecs, codec));
    let rows: unknown[][];
    try {
      rows = (await conn.runAndReadAll(`SELECT s FROM read_parquet('${file}')`)).getRows();
    } catch (e) {
      console.log(`DuckDB ${name}: ${(e as Error).message.split('\n')[0]}`);
      throw e;
    }
    expect(rows.map((row) => row[0])).toEqual(VALUES);
  });
});

describe('arrow-rs (parquet-wasm) reads pages we compressed', async () => {
  const { readParquet } = await import('parquet-wasm/node');
  const { tableFromIPC } = await import('apache-arrow');
  test('LZO is refused by arrow-rs (not supported there)', () => {
    expect(() => readParquet(parquetFile(codecs, LZO))).toThrow(/LZO is not supported/);
  });
  // LZ4 here is our Hadoop framing: arrow-rs parses it (a raw-block fallback could not decode a framed page).
  test.each(named([SNAPPY, GZIP, BROTLI, LZ4, ZSTD, LZ4_RAW]))('%s', (name, codec) => {
    let values: unknown[];
    try {
      const t = tableFromIPC(readParquet(parquetFile(codecs, codec)).intoIPCStream());
      values = t.getChild('s')!.toArray() as unknown[];
    } catch (e) {
      console.log(`parquet-wasm ${name}: ${String((e as Error)?.message ?? e).split('\n')[0]}`);
      throw e;
    }
    expect([...values]).toEqual(VALUES);
  });
});
