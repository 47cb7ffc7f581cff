/**
 * The built site (apps/docs/out) for the tests that inspect it: built here when it is missing (CI builds it with
 * `pnpm run docs` before the tests), never silently skipped.
 * @module
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { docsDir, repoRoot } from './guides.js';

/** The site's directory. */
export const outDir = path.join(docsDir, 'out');

/**
 * The site's directory, after building it with typedoc when `out/index.html` is absent.
 * @throws Error with typedoc's output when the build fails.
 */
export async function ensureSite(): Promise<string> {
  if (fs.existsSync(path.join(outDir, 'index.html')) && fs.existsSync(path.join(outDir, 'viewer/index.html'))) return outDir;
  const typedoc = path.join(repoRoot, 'node_modules/typedoc/bin/typedoc');
  try {
    await promisify(execFile)(process.execPath, [typedoc], { cwd: docsDir, maxBuffer: 1 << 26 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`apps/docs: the site is not built and typedoc failed:\n${e.stdout ?? ''}${e.stderr ?? String(err)}`, { cause: err });
  }
  if (!fs.existsSync(path.join(outDir, 'index.html'))) throw new Error('apps/docs: typedoc ran but wrote no out/index.html');
  // the file-layout viewer, built into the site after typedoc as the docs script does
  if (!fs.existsSync(path.join(outDir, 'viewer/index.html'))) {
    await promisify(execFile)(process.execPath, [path.join(repoRoot, 'apps/viewer/build.mjs'), '--out', path.join(outDir, 'viewer')], { cwd: docsDir, maxBuffer: 1 << 26 });
  }
  return outDir;
}

/** Every file under a directory, as paths relative to it with `/` separators. */
export function walk(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...walk(dir, rel));
    else out.push(rel);
  }
  return out;
}

/** The rows of typedoc's search index (`assets/search.js`: base64 of deflated JSON). */
export async function searchRows(site: string): Promise<{ kind: number; name: string; url: string; parent?: string }[]> {
  const { inflateSync } = await import('node:zlib');
  const text = fs.readFileSync(path.join(site, 'assets/search.js'), 'utf8');
  const m = /window\.searchData\s*=\s*"([^"]+)"/.exec(text);
  if (!m) throw new Error('apps/docs: assets/search.js holds no searchData');
  const data = JSON.parse(inflateSync(Buffer.from(m[1]!, 'base64')).toString('utf8')) as { rows: { kind: number; name: string; url: string; parent?: string }[] };
  return data.rows;
}
