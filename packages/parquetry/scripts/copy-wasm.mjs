// Build step: puts the ZSTD WebAssembly beside the lazy ZSTD module (dist/lazy/zstd.wasm), where
// `new URL('./zstd.wasm', import.meta.url)` in dist/lazy/zstd.js finds it (and Vite and webpack emit it from).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const fromCodec = createRequire(createRequire(import.meta.url).resolve('@parquetry/codec-zstd/package.json'));
const src = path.join(path.dirname(fromCodec.resolve('@bokuweb/zstd-wasm')), 'zstd.wasm');
const dest = path.join(here, '..', 'dist', 'lazy', 'zstd.wasm');
fs.mkdirSync(path.dirname(dest), { recursive: true });
fs.copyFileSync(src, dest);
