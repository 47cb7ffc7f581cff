// The committed src/wasm/snappy-wasm.ts must be exactly what tools/wasm/build-wasm.mjs makes from src/wasm/snappy.wat
// (re-assembled here with wabt), and the kernel must stay small enough for synchronous compilation in browsers.
import fs from 'node:fs';
import { expect, test } from 'vitest';
import { assemble, renderTs, OUT_PATH, WAT_PATH } from '../../../tools/wasm/build-wasm.mjs';
import { snappyWasmBytes } from '../src/wasm/snappy-wasm.js';

test('committed snappy-wasm.ts matches snappy.wat (run node tools/wasm/build-wasm.mjs after editing the WAT)', async () => {
  const bytes = await assemble(fs.readFileSync(WAT_PATH, 'utf8'));
  expect(Buffer.from(snappyWasmBytes()).equals(Buffer.from(bytes))).toBe(true);
  expect(fs.readFileSync(OUT_PATH, 'utf8')).toBe(renderTs(bytes));
});

test('the kernel is a valid module well under 4 KB with the expected exports', () => {
  const bytes = snappyWasmBytes();
  expect(bytes.length).toBeLessThan(2048);
  const mod = new WebAssembly.Module(bytes);
  expect(WebAssembly.Module.imports(mod)).toEqual([]);
  expect(WebAssembly.Module.exports(mod).map((e) => `${e.name}:${e.kind}`).sort()).toEqual(['decompress:function', 'errA:global', 'errB:global', 'errPos:global', 'memory:memory']);
});
