// The umbrella's codec presets load ZSTD and BROTLI on first use (readCodecs / writeCodecs): opening a file and
// reading its metadata and statistics loads nothing; the first ZSTD page loads the WebAssembly once (fetched from
// a local HTTP server that counts requests); a WebAssembly that cannot load fails only the ZSTD pages, with
// CODEC_UNAVAILABLE naming the codec and the URL, located at the column — the SNAPPY pages of the same file still
// read; writers load the codecs their options name. Files written here are read back by hyparquet (with
// hyparquet-compressors) to equal values; the corpus's nested ZSTD file equals what the eager codecs read.
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { CodecErrorCode, CompressionCodec, isParquetError, type Codec } from '@parquetry/parquet-codecs';
import { zstdDecoder } from '@parquetry/codec-zstd';
import { allCodecs, field, openParquet, readCodecs, writeCodecs, writeParquet } from 'parquetry';

const require = createRequire(import.meta.url);
const zstdWasm = fs.readFileSync(path.join(path.dirname(require.resolve('@bokuweb/zstd-wasm', { paths: [path.resolve(__dirname, '../../codec-zstd')] })), 'zstd.wasm'));
const CORPUS = path.resolve(__dirname, '../../../../shared/parquet-testing/data');
const HAVE_CORPUS = fs.existsSync(CORPUS);

let server: http.Server;
let base = '';
const requests: string[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/ok/zstd.wasm') {
      res.writeHead(200, { 'content-type': 'application/wasm' });
      res.end(zstdWasm);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const schema = { id: field.int64({ required: true }), name: field.string(), tags: field.list(field.string()) };
const rows = Array.from({ length: 3000 }, (_, i) => ({ id: BigInt(i), name: i % 7 === 0 ? null : `name ${i % 113}`, tags: i % 5 === 0 ? [] : [`t${i % 3}`, `u${i % 11}`] }));

async function viaHyparquet(bytes: Uint8Array): Promise<unknown[]> {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return parquetReadObjects({ file, compressors });
}

/**
 * A Zstandard frame of raw blocks (RFC 8878 §3.1.1: frame header with an 8-byte content size, single segment; raw
 * blocks of at most 128 KiB), so that ZSTD files are written here without the WebAssembly this test loads later.
 */
function rawZstdFrame(src: Uint8Array): Uint8Array {
  const MAX = 128 * 1024;
  const blocks = Math.max(1, Math.ceil(src.length / MAX));
  const out = new Uint8Array(4 + 1 + 8 + blocks * 3 + src.length);
  out.set([0x28, 0xb5, 0x2f, 0xfd, 0xe0]); // magic; descriptor: FCS field 8 bytes, single segment, no checksum
  new DataView(out.buffer).setBigUint64(5, BigInt(src.length), true);
  let o = 13;
  for (let b = 0; b < blocks; b++) {
    const part = src.subarray(b * MAX, Math.min(src.length, (b + 1) * MAX));
    const header = (part.length << 3) | (0 << 1) | (b === blocks - 1 ? 1 : 0); // Raw_Block
    out[o] = header & 0xff;
    out[o + 1] = (header >>> 8) & 0xff;
    out[o + 2] = (header >>> 16) & 0xff;
    out.set(part, o + 3);
    o += 3 + part.length;
  }
  return out;
}
const rawZstd: Codec = { codec: CompressionCodec.ZSTD, compress: rawZstdFrame, decompress: zstdDecoder.decompress };

// the order matters: the ZSTD WebAssembly is instantiated once per process, so the failing load comes first
describe('lazy presets', () => {
  let mixed: Uint8Array; // id SNAPPY, name and tags ZSTD (raw blocks)
  test('a file with SNAPPY and ZSTD columns, read by hyparquet', async () => {
    mixed = await writeParquet(rows, { schema, compression: 'SNAPPY', columns: { name: { compression: 'ZSTD' }, tags: { compression: 'ZSTD' } }, rowGroupRows: 1000, codecs: { [CompressionCodec.ZSTD]: rawZstd } });
    expect(await viaHyparquet(mixed)).toEqual(rows);
    expect(requests).toEqual([]);
  });

  test('a ZSTD WebAssembly that cannot load fails only the ZSTD pages, located and naming the URL', async () => {
    const missing = `${base}/missing/zstd.wasm`;
    const codecs = readCodecs({ zstdWasm: missing });
    const file = await openParquet(mixed, { codecs });
    expect(file.metadata.num_rows).toBe(3000);
    expect(requests).toEqual([]); // opening loads nothing
    expect(await file.readRows({ columns: ['id'] })).toEqual(rows.map((r) => ({ id: r.id })));
    expect(requests).toEqual([]); // SNAPPY pages load nothing
    const e = await file.readRows({ columns: ['id', 'name'] }).catch((x: unknown) => x);
    expect(isParquetError(e)).toBe(true);
    expect((e as { code: string }).code).toBe(CodecErrorCode.UNAVAILABLE);
    expect((e as Error).message).toContain(missing);
    expect((e as Error).message).toMatch(/ZSTD/);
    expect((e as Error).message).toMatch(/row group 0, column 'name'/);
    expect(requests).toEqual(['/missing/zstd.wasm']);
    // not cached: the next read tries again, and SNAPPY still reads
    await expect(file.readRows({ columns: ['tags'] })).rejects.toMatchObject({ code: CodecErrorCode.UNAVAILABLE });
    expect(requests).toEqual(['/missing/zstd.wasm', '/missing/zstd.wasm']);
    expect(await file.readRows({ columns: ['id'], rowEnd: 2 })).toEqual([{ id: 0n }, { id: 1n }]);
  });

  test('the first ZSTD page loads the WebAssembly once; metadata and statistics load nothing', async () => {
    requests.length = 0;
    const codecs = readCodecs({ zstdWasm: `${base}/ok/zstd.wasm` });
    const file = await openParquet(mixed, { codecs });
    await file.readRows({ columns: ['id'] });
    expect(requests).toEqual([]);
    expect(await file.readRows()).toEqual(rows);
    expect(await file.readRows({ columns: ['name'], rowStart: 2500 })).toEqual(rows.slice(2500).map((r) => ({ name: r.name })));
    expect(requests).toEqual(['/ok/zstd.wasm']);
  });

  test('writers load the codecs their options name; hyparquet reads equal values', async () => {
    for (const compression of ['ZSTD', 'BROTLI', 'GZIP'] as const) {
      const bytes = await writeParquet(rows, { schema, compression });
      expect(await viaHyparquet(bytes)).toEqual(rows);
      expect(await (await openParquet(bytes)).readRows()).toEqual(rows);
    }
    const perColumn = await writeParquet(rows, { schema, columns: { tags: { compression: 'BROTLI' } } });
    expect(await viaHyparquet(perColumn)).toEqual(rows);
  });

  test('writeCodecs: levels checked up front; compress before the load is CODEC_UNAVAILABLE', async () => {
    expect(() => writeCodecs({ zstdLevel: 23 })).toThrow(expect.objectContaining({ code: CodecErrorCode.SIZE }));
    expect(() => writeCodecs({ brotliQuality: -1 })).toThrow(expect.objectContaining({ code: CodecErrorCode.SIZE }));
    const codecs = writeCodecs({ brotliQuality: 9 });
    const brotli = codecs[CompressionCodec.BROTLI]!;
    expect(() => brotli.compress(new Uint8Array(10))).toThrow(expect.objectContaining({ code: CodecErrorCode.UNAVAILABLE }));
    await brotli.load!();
    const input = new TextEncoder().encode('lazy '.repeat(500));
    const packed = brotli.compress(input);
    const out = new Uint8Array(input.length);
    expect(brotli.decompress(packed, out)).toBe(input.length);
    expect(out).toEqual(input);
  });
});

describe.skipIf(!HAVE_CORPUS)('corpus through the lazy presets', () => {
  test.each(['nested_structs.rust.parquet', 'byte_stream_split.zstd.parquet', 'delta_length_byte_array.parquet', 'page_v2_empty_compressed.parquet'])(
    '%s (ZSTD) equals the eager codecs',
    async (name) => {
      const bytes = new Uint8Array(fs.readFileSync(path.join(CORPUS, name)));
      const lazy = await (await openParquet(bytes)).readRows();
      const eager = await (await openParquet(bytes, { codecs: await allCodecs() })).readRows();
      expect(lazy).toEqual(eager);
      expect(lazy.length).toBeGreaterThan(0);
    },
  );
});
