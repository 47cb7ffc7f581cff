// Test helper: has DuckDB (@duckdb/node-api) write a tiny uncompressed Parquet file, then locates
// its pages by hand (footer → column chunks → page headers, decoded with the thrift-compact model)
// so that tests can run our decoders on bytes produced by a peer writer.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { compressors } from 'hyparquet-compressors';
import { decodeThrift, PageType, readFileMetaData, readPageHeader, type FileMetaData } from '@parquetry/thrift-compact';
import { decodeRleHybridPrefixed } from '../src/index.js';

/** The values area of one data page, plus its dictionary page when there is one. */
export interface PeerPage {
  column: string;
  type: number;
  typeLength?: number;
  encoding: number;
  src: Uint8Array;
  pos: number;
  end: number;
  /** non-null values in the page */
  count: number;
  dictionary?: { src: Uint8Array; count: number };
}

function decompress(codec: number, body: Uint8Array, size: number): Uint8Array {
  if (codec === 0) return body;
  if (codec === 2) return new Uint8Array(gunzipSync(body));
  if (codec === 6) return compressors.ZSTD!(body, size);
  throw new Error(`test helper: codec ${codec} not handled`);
}

/** Reads the data pages of every row group of a Parquet file (flat schema; uncompressed, GZIP or ZSTD). */
export function pagesOf(bytes: Uint8Array): { meta: FileMetaData; pages: PeerPage[] } {
  const magic = new TextDecoder().decode(bytes.subarray(0, 4));
  if (magic !== 'PAR1') throw new Error('not a parquet file');
  const footerLen = new DataView(bytes.buffer, bytes.byteOffset).getInt32(bytes.length - 8, true);
  const meta = decodeThrift(readFileMetaData, bytes, bytes.length - 8 - footerLen, bytes.length - 8).value;
  const pages: PeerPage[] = [];
  const leaves = meta.schema.slice(1);
  for (const rg of meta.row_groups) {
    rg.columns.forEach((chunk, ci) => {
      const cm = chunk.meta_data!;
      const leaf = leaves[ci]!;
      const optional = leaf.repetition_type === 1;
      const base = { column: leaf.name, type: leaf.type!, ...(leaf.type_length !== undefined ? { typeLength: leaf.type_length } : {}) };
      let p = cm.dictionary_page_offset || cm.data_page_offset;
      let seen = 0;
      let dict: { src: Uint8Array; count: number } | undefined;
      while (seen < cm.num_values) {
        const { value: h, end } = decodeThrift(readPageHeader, bytes, p);
        const bodyEnd = end + h.compressed_page_size;
        const body = bytes.subarray(end, bodyEnd);
        if (h.type === PageType.DICTIONARY_PAGE) {
          dict = { src: decompress(cm.codec, body, h.uncompressed_page_size), count: h.dictionary_page_header!.num_values };
        } else if (h.type === PageType.DATA_PAGE) {
          const dh = h.data_page_header!;
          const src = decompress(cm.codec, body, h.uncompressed_page_size);
          let pos = 0;
          let count = dh.num_values;
          if (optional) {
            const levels = new Int32Array(dh.num_values);
            pos = decodeRleHybridPrefixed(src, 0, src.length, 1, levels, 0, dh.num_values);
            count = levels.reduce((a, b) => a + b, 0);
          }
          pages.push({ ...base, encoding: dh.encoding, src, pos, end: src.length, count, ...(dict ? { dictionary: dict } : {}) });
          seen += dh.num_values;
        } else if (h.type === PageType.DATA_PAGE_V2) {
          const dh = h.data_page_header_v2!;
          const lv = dh.definition_levels_byte_length + dh.repetition_levels_byte_length;
          const values = dh.is_compressed === false ? body.subarray(lv) : decompress(cm.codec, body.subarray(lv), h.uncompressed_page_size - lv);
          pages.push({ ...base, encoding: dh.encoding, src: values, pos: 0, end: values.length, count: dh.num_values - (dh.num_nulls ?? 0), ...(dict ? { dictionary: dict } : {}) });
          seen += dh.num_values;
        }
        p = bodyEnd;
      }
    });
  }
  return { meta, pages };
}

/** Reads a file with DuckDB: column names and rows. */
export async function duckdbRead(file: string): Promise<{ rows: unknown[][]; columns: string[] }> {
  const inst = await DuckDBInstance.create(':memory:');
  const c = await inst.connect();
  const reader = await c.runAndReadAll(`SELECT * FROM read_parquet('${file.replace(/'/g, "''")}')`);
  const rows = reader.getRows() as unknown[][];
  const columns = reader.columnNames();
  c.closeSync();
  inst.closeSync();
  return { rows, columns };
}

/** Runs `COPY (select) TO file (FORMAT parquet, COMPRESSION uncompressed, options)` and returns the file's pages and DuckDB's own rows. */
export async function duckdbPages(select: string, options = ''): Promise<{ pages: PeerPage[]; rows: unknown[][]; columns: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'pq-enc-'));
  try {
    const file = join(dir, 't.parquet');
    const inst = await DuckDBInstance.create(':memory:');
    const c = await inst.connect();
    await c.run(`COPY (${select}) TO '${file}' (FORMAT parquet, COMPRESSION uncompressed${options ? ', ' + options : ''})`);
    const reader = await c.runAndReadAll(`SELECT * FROM read_parquet('${file}')`);
    const rows = reader.getRows() as unknown[][];
    const columns = reader.columnNames();
    c.closeSync();
    inst.closeSync();
    const bytes = new Uint8Array(readFileSync(file));
    return { pages: pagesOf(bytes).pages, rows, columns };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
