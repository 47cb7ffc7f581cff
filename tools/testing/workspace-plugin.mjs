// An esbuild plugin for tests that bundle a script to run in a child process (to catch hangs and measure memory
// outside vitest): workspace packages resolve to their TypeScript sources, as vitest's aliases resolve them, and
// every other package stays external at its resolved absolute path, so Node loads it (and any WebAssembly file it
// reads beside itself) from node_modules.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (this file is tools/testing/workspace-plugin.mjs). */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const WORKSPACE = /^@parquetry\/([a-z0-9-]+)(?:\/([a-z0-9-]+))?$/;

/**
 * @param {{ sources?: string }} [options] `sources`: the tree whose packages/ to bundle (default the repository);
 *   npm packages are still resolved from the repository's node_modules when the sources are a copy without them.
 * @returns {import('esbuild').Plugin}
 */
export function workspacePlugin(options = {}) {
  const sources = options.sources ?? REPO;
  return {
    name: 'parquetry-workspace-source',
    setup(build) {
      build.onResolve({ filter: WORKSPACE }, (args) => {
        const m = WORKSPACE.exec(args.path);
        return { path: path.join(sources, 'packages', m[1], 'src', `${m[2] ?? 'index'}.ts`) };
      });
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith('@parquetry/') || args.path.startsWith('node:') || args.pluginData?.skip) return undefined;
        const resolveDir = sources !== REPO && args.resolveDir.startsWith(sources + path.sep)
          ? path.join(REPO, path.relative(sources, args.resolveDir))
          : args.resolveDir;
        const r = await build.resolve(args.path, { resolveDir, kind: args.kind, pluginData: { skip: true } });
        if (r.errors.length > 0 || !path.isAbsolute(r.path)) return { path: args.path, external: true };
        return { path: r.path, external: true };
      });
    },
  };
}

/**
 * Bundles a script for a child process (ESM for Node, workspace packages from source, see {@link workspacePlugin}).
 * @param {Pick<import('esbuild').BuildOptions, 'entryPoints' | 'stdin'>} input the script: `entryPoints` or `stdin`.
 * @param {string} outfile where the bundle goes.
 * @returns {Promise<void>}
 */
export async function bundleChild(input, outfile) {
  const esbuild = await import('esbuild');
  await esbuild.build({ ...input, bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'error', plugins: [workspacePlugin()] });
}
