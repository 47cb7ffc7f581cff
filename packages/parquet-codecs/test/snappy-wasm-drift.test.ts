// Each committed generated module (src/wasm/snappy-wasm.ts, src/wasm/snappy-compress-wasm.ts) must be exactly what
// tools/wasm/build-wasm.mjs makes from its WAT (re-assembled here with wabt), and each kernel must stay small
// enough for synchronous compilation in browsers (Chrome refuses sync compiles over 4 KB on the main thread).
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { KERNELS, assemble, renderTs } from '../../../tools/wasm/build-wasm.mjs';
import { base64Bytes } from '../src/wasm/base64.js';
import { snappyCompressWasmBytes } from '../src/wasm/snappy-compress-wasm.js';
import { snappyWasmBytes } from '../src/wasm/snappy-wasm.js';

const LOADED: Record<string, () => Uint8Array> = { 'snappy.wat': snappyWasmBytes, 'snappy-compress.wat': snappyCompressWasmBytes };

test('the build covers both kernels', () => {
  expect(KERNELS.map((k) => path.basename(k.wat)).sort()).toEqual(Object.keys(LOADED).sort());
});

test.each(KERNELS.map((k) => [path.basename(k.wat), k] as const))('committed module matches %s (run node tools/wasm/build-wasm.mjs after editing the WAT)', async (name, kernel) => {
  const bytes = await assemble(fs.readFileSync(kernel.wat, 'utf8'), name);
  expect(Buffer.from(LOADED[name]!()).equals(Buffer.from(bytes))).toBe(true);
  expect(fs.readFileSync(kernel.out, 'utf8')).toBe(renderTs(bytes, kernel));
});

test('the decompression kernel is a valid module under 2 KB with the expected exports', () => {
  const bytes = snappyWasmBytes();
  expect(bytes.length).toBeLessThan(2048);
  const mod = new WebAssembly.Module(bytes);
  expect(WebAssembly.Module.imports(mod)).toEqual([]);
  expect(WebAssembly.Module.exports(mod).map((e) => `${e.name}:${e.kind}`).sort()).toEqual(['byteArrays:function', 'decompress:function', 'memory:memory']);
});

test('the compression kernel is a valid module under 2 KB with the expected exports', () => {
  const bytes = snappyCompressWasmBytes();
  expect(bytes.length).toBeLessThan(2048);
  const mod = new WebAssembly.Module(bytes);
  expect(WebAssembly.Module.imports(mod)).toEqual([]);
  expect(WebAssembly.Module.exports(mod).map((e) => `${e.name}:${e.kind}`).sort()).toEqual(['compress:function', 'crc32:function', 'memory:memory']);
});

test('base64Bytes decodes what Buffer encodes (every length mod 3, every alphabet character, padding)', () => {
  for (let n = 0; n < 70; n++) {
    const b = new Uint8Array(n).map((_, i) => (i * 37 + n * 11) & 0xff);
    expect(Buffer.from(base64Bytes(Buffer.from(b).toString('base64'))).equals(Buffer.from(b))).toBe(true);
  }
  const all = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', 'base64');
  expect(Buffer.from(base64Bytes('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')).equals(all)).toBe(true);
});
