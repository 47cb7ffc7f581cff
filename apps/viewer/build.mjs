#!/usr/bin/env node
/**
 * Builds the viewer: `src/main.ts` bundled by esbuild (ESM, minified, with code splitting so the WebAssembly codecs
 * stay in lazy chunks) plus `static/` (index.html, viewer.css) into one directory of static files.
 * Workspace packages are bundled from their TypeScript sources, as the tests import them, so no build of the
 * packages is needed first.
 *
 * Command line: `node apps/viewer/build.mjs [--out DIR]` (default `apps/viewer/out`); prints the files written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

/** Maps `@parquetry/x` to `packages/x/src/index.ts` (and `@parquetry/x/y` to `src/y.ts`), as vitest does. */
const workspaceSources = {
  name: 'workspace-sources',
  setup(build) {
    build.onResolve({ filter: /^@parquetry\/[a-z0-9-]+(\/[a-z0-9-]+)?$/ }, (args) => {
      const [, pkg, sub] = /^@parquetry\/([a-z0-9-]+)(?:\/([a-z0-9-]+))?$/.exec(args.path);
      const file = path.join(root, 'packages', pkg, 'src', `${sub ?? 'index'}.ts`);
      return fs.existsSync(file) ? { path: file } : undefined;
    });
  },
};

/**
 * Builds the viewer into a directory (emptied first).
 * @param {string} [outDir] - where to write (default `apps/viewer/out`).
 * @returns {Promise<{ outDir: string, files: string[] }>} the directory and the files written (relative to it).
 */
export async function buildViewer(outDir = path.join(here, 'out')) {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  await esbuild.build({
    entryPoints: { viewer: path.join(here, 'src', 'main.ts') },
    bundle: true,
    format: 'esm',
    splitting: true,
    minify: true,
    sourcemap: true,
    platform: 'browser',
    target: 'es2022',
    outdir: outDir,
    chunkNames: 'chunks/[name]-[hash]',
    assetNames: 'assets/[name]-[hash]',
    loader: { '.wasm': 'file' },
    plugins: [workspaceSources],
    logLevel: 'warning',
  });
  for (const f of fs.readdirSync(path.join(here, 'static'))) fs.copyFileSync(path.join(here, 'static', f), path.join(outDir, f));
  const files = fs.readdirSync(outDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.relative(outDir, path.join(d.parentPath, d.name))).sort();
  return { outDir, files };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const i = process.argv.indexOf('--out');
  const out = i > 0 && process.argv[i + 1] ? path.resolve(process.argv[i + 1]) : undefined;
  const { outDir, files } = await buildViewer(out);
  for (const f of files) console.log(`${path.join(outDir, f)}  ${fs.statSync(path.join(outDir, f)).size} bytes`);
}
