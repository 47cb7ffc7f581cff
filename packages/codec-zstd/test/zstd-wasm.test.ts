// createZstdCodec({ wasm }): the WebAssembly fetched from a URL (a local HTTP server) or given as bytes is checked
// before use — a 404, an unreachable host, bytes that do not compile or another module are CODEC_UNAVAILABLE naming
// the URL, and a later call with the right module still loads (a failure is not cached).
import http from 'node:http';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CodecErrorCode, CompressionCodec, decompressPage } from '@parquetry/parquet-codecs';
import { createZstdCodec } from '@parquetry/codec-zstd';
import { textBytes, same } from '../../parquet-codecs/test/inputs.js';

const require = createRequire(import.meta.url);
const wasmBytes = fs.readFileSync(path.join(path.dirname(require.resolve('@bokuweb/zstd-wasm')), 'zstd.wasm'));
// the smallest valid module: magic + version, no sections
const emptyModule = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

let server: http.Server;
let base = '';
const seen: string[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/zstd.wasm') {
      res.writeHead(200, { 'content-type': 'application/wasm' });
      res.end(wasmBytes);
    } else {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

test('a missing, unreachable, invalid or foreign module is CODEC_UNAVAILABLE naming it; then the right one loads', async () => {
  const missing = `${base}/missing/zstd.wasm`;
  await expect(createZstdCodec({ wasm: missing })).rejects.toMatchObject({ code: CodecErrorCode.UNAVAILABLE, message: expect.stringContaining(`${missing}: HTTP 404`) });
  await expect(createZstdCodec({ wasm: new URL('http://127.0.0.1:1/zstd.wasm') })).rejects.toMatchObject({ code: CodecErrorCode.UNAVAILABLE, message: expect.stringContaining('http://127.0.0.1:1/zstd.wasm') });
  await expect(createZstdCodec({ wasm: new Uint8Array([1, 2, 3, 4]) })).rejects.toMatchObject({ code: CodecErrorCode.UNAVAILABLE, message: expect.stringMatching(/does not compile/) });
  await expect(createZstdCodec({ wasm: emptyModule.buffer })).rejects.toMatchObject({ code: CodecErrorCode.UNAVAILABLE, message: expect.stringMatching(/not the zstd module/) });
  expect(seen).toEqual(['/missing/zstd.wasm']);
  const zstd = await createZstdCodec({ wasm: `${base}/zstd.wasm`, level: 5 });
  expect(seen).toEqual(['/missing/zstd.wasm', '/zstd.wasm']);
  const input = textBytes(50_000, 2);
  const packed = zstd.compress(input);
  expect(packed.length).toBeLessThan(input.length / 2);
  expect(same(decompressPage({ [CompressionCodec.ZSTD]: zstd }, CompressionCodec.ZSTD, packed, input.length), input)).toBe(true);
});
