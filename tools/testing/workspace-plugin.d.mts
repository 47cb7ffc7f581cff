// Types for workspace-plugin.mjs, so TypeScript tests can import it.
import type { Plugin } from 'esbuild';

/** The repository's root directory. */
export declare const REPO: string;
/**
 * An esbuild plugin for scripts bundled to run in a child process: `@parquetry/x` and `@parquetry/x/sub` resolve to
 * `packages/x/src/{index,sub}.ts` under `sources` (default the repository); other packages stay external at their
 * resolved absolute paths (resolved from the repository when `sources` is a copy without node_modules).
 */
export declare function workspacePlugin(options?: { sources?: string }): Plugin;
