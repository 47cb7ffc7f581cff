// Types for workspace-plugin.mjs, so TypeScript tests can import it.
import type { BuildOptions, Plugin } from 'esbuild';

/** The repository's root directory. */
export declare const REPO: string;
/**
 * An esbuild plugin for scripts bundled to run in a child process: `@parquetry/x` and `@parquetry/x/sub` resolve to
 * `packages/x/src/{index,sub}.ts` under `sources` (default the repository); other packages stay external at their
 * resolved absolute paths (resolved from the repository when `sources` is a copy without node_modules).
 */
export declare function workspacePlugin(options?: { sources?: string }): Plugin;
/**
 * Bundles a script for a child process: ESM for Node, with {@link workspacePlugin} (workspace packages from source).
 * @param input - the script: `entryPoints` or `stdin`.
 * @param outfile - where the bundle goes.
 */
export declare function bundleChild(input: Pick<BuildOptions, 'entryPoints' | 'stdin'>, outfile: string): Promise<void>;
