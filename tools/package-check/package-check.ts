/**
 * Checks that make the publishable packages (`packages/*`, not private) fit to publish: their package.json
 * metadata, the tarballs `pnpm pack` makes of them (what the release flow of RELEASING.md publishes), and the
 * runnable examples of their READMEs, extracted here and run by the test against the installed tarballs.
 * The test is `test/package-check.test.ts`; this module holds the pure parts it is built from.
 * @module
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { standardFields } from './metadata.mjs';

/** The parts of a package.json this check reads. */
export interface Manifest {
  name?: unknown;
  version?: unknown;
  private?: unknown;
  description?: unknown;
  license?: unknown;
  author?: unknown;
  repository?: unknown;
  homepage?: unknown;
  bugs?: unknown;
  engines?: unknown;
  keywords?: unknown;
  files?: unknown;
  exports?: unknown;
  bin?: unknown;
  publishConfig?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** A publishable workspace package: its directory name under `packages/`, its name and its manifest. */
export interface PublishablePackage {
  dir: string;
  name: string;
  manifest: Manifest;
}

/** Reads a JSON file as a manifest. */
export function readManifest(file: string): Manifest {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

/**
 * Every package under `root/packages` whose package.json is not `private`, sorted by directory: those git tracks
 * (what a commit would publish; a package someone is still creating is not one yet), or every directory with a
 * package.json when the tree is not a git checkout.
 */
export function publishablePackages(root: string): PublishablePackage[] {
  const dir = path.join(root, 'packages');
  let dirs: string[];
  try {
    const tracked = execFileSync('git', ['-C', root, 'ls-files', '--', 'packages/*/package.json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    dirs = tracked.split('\n').filter((l) => /^packages\/[^/]+\/package\.json$/.test(l)).map((l) => l.split('/')[1]!);
  } catch {
    dirs = fs.readdirSync(dir).filter((d) => fs.existsSync(path.join(dir, d, 'package.json')));
  }
  return dirs
    .sort()
    .map((d) => ({ dir: d, manifest: readManifest(path.join(dir, d, 'package.json')) }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ dir: d, manifest }) => ({ dir: d, name: String(manifest.name), manifest }));
}

const DEP_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What is wrong with a publishable package's manifest (empty when nothing).
 * @param m - the package.json.
 * @param dir - its directory under `packages/`.
 * @param rootEngines - the root package.json's `engines`, which every package repeats.
 */
export function manifestProblems(m: Manifest, dir: string, rootEngines: unknown): string[] {
  const out: string[] = [];
  const where = `packages/${dir}/package.json`;
  const expectEq = (field: string, actual: unknown, expected: unknown): void => {
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      out.push(`${where}: ${field} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)} (node tools/package-check/metadata.mjs ${dir} writes it)`);
    }
  };
  if (typeof m.name !== 'string' || !/^(@parquetry\/)?[a-z0-9-]+$/.test(m.name)) out.push(`${where}: name ${JSON.stringify(m.name)} is not parquetry or @parquetry/*`);
  if (typeof m.version !== 'string' || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(m.version)) out.push(`${where}: version ${JSON.stringify(m.version)} is not semver`);
  if (typeof m.description !== 'string' || m.description.length < 10) out.push(`${where}: no description`);
  expectEq('license', m.license, 'Apache-2.0');
  const std = standardFields(dir, String(m.name), rootEngines, m.keywords);
  for (const [field, value] of Object.entries(std)) expectEq(field, (m as Record<string, unknown>)[field], value);
  if (!Array.isArray(m.keywords) || !m.keywords.every((k) => typeof k === 'string')) out.push(`${where}: keywords must be strings`);
  if (typeof m.name === 'string' && !m.name.startsWith('@') && m.publishConfig !== undefined) out.push(`${where}: an unscoped package needs no publishConfig`);
  if (!Array.isArray(m.files) || !m.files.includes('dist') || !m.files.includes('!dist/.tsbuildinfo')) {
    out.push(`${where}: files ${JSON.stringify(m.files)} must include "dist" and "!dist/.tsbuildinfo"`);
  } else {
    for (const f of m.files) if (typeof f !== 'string' || /(^|\/)(test|bench)(\/|$)/.test(f)) out.push(`${where}: files entry ${JSON.stringify(f)} publishes tests or benchmarks`);
  }
  for (const field of DEP_FIELDS) {
    for (const [dep, spec] of Object.entries(m[field] ?? {})) {
      if (dep.startsWith('@parquetry/') && spec !== 'workspace:^') out.push(`${where}: ${field}.${dep} is "${spec}", expected "workspace:^" (rewritten by pnpm at pack time)`);
    }
  }
  return out;
}

/**
 * What is wrong with the opening of a publishable package's README (empty when nothing): it must open with the
 * package name as its title, say what the package is, give the install line and then a runnable example.
 * @param readme - the README text.
 * @param name - the package name.
 */
export function readmeProblems(readme: string, name: string): string[] {
  const out: string[] = [];
  const lines = readme.split('\n');
  if (lines[0] !== `# ${name}`) out.push(`README of ${name}: the first line is ${JSON.stringify(lines[0])}, expected "# ${name}"`);
  const firstFence = lines.findIndex((l) => l.startsWith('```'));
  const intro = lines.slice(1, firstFence < 0 ? lines.length : firstFence).join(' ').trim();
  if (intro.length < 40) out.push(`README of ${name}: no paragraph saying what the package is before its first code block`);
  const blocks = fencedBlocks(readme, name);
  const install = blocks[0];
  if (!install || !/^(sh|bash|shell)$/.test(install.info) || !install.code.split('\n').some((l) => l.trim() === `npm install ${name}` || l.trim().startsWith(`npm install ${name} `))) {
    out.push(`README of ${name}: the first code block must be the install line (\`\`\`sh with "npm install ${name}")`);
  }
  const firstTs = blocks.find((b) => /^(ts|typescript)\b/.test(b.info));
  if (!firstTs || firstTs.info !== 'ts run') out.push(`README of ${name}: the first TypeScript block must be a runnable example (\`\`\`ts run)`);
  return out;
}

/** A fenced code block of a Markdown file. */
export interface FencedBlock {
  /** the info string after the opening fence, trimmed (`ts run`) */
  info: string;
  /** the block's text, without the fences */
  code: string;
  /** the 1-based line of the opening fence */
  line: number;
  /** the 1-based line of the closing fence */
  endLine: number;
}

/**
 * The fenced code blocks (``` fences at the start of a line) of a Markdown text.
 * @param markdown - the text.
 * @param source - its name, for the error of an unclosed fence.
 * @throws Error when a fence is not closed.
 */
export function fencedBlocks(markdown: string, source: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const out: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    let j = i + 1;
    while (j < lines.length && !(lines[j]!.startsWith(fence) && lines[j]!.slice(fence.length).trim() === '')) j++;
    if (j === lines.length) throw new Error(`${source}:${i + 1}: code block not closed`);
    out.push({ info: open[2]!.trim(), code: lines.slice(i + 1, j).join('\n'), line: i + 1, endLine: j + 1 });
    i = j;
  }
  return out;
}

/** A README example the check compiles (`ts check`) or compiles and runs (`ts run`). */
export interface Example {
  /** where it is: `README.md:12` */
  where: string;
  mode: 'run' | 'check';
  code: string;
  /** what a `ts run` example must print (the ```text output block right after it), when there is one */
  output?: string;
}

/**
 * The examples of a README: ```ts run blocks (compiled with tsc and run with node in the scratch project) and
 * ```ts check blocks (compiled only: they need a server or a file the reader has). A ```text output block right
 * after a `ts run` block (blank lines between) is what it must print.
 * @param markdown - the README text.
 * @param source - its name in messages.
 * @throws Error on a `text output` block that does not follow a `ts run` block.
 */
export function extractExamples(markdown: string, source: string): Example[] {
  const blocks = fencedBlocks(markdown, source);
  const lines = markdown.split('\n');
  const out: Example[] = [];
  for (let k = 0; k < blocks.length; k++) {
    const b = blocks[k]!;
    if (b.info === 'text output') {
      const prev = blocks[k - 1];
      const between = prev ? lines.slice(prev.endLine, b.line - 1) : [];
      if (!prev || prev.info !== 'ts run' || between.some((l) => l.trim() !== '')) {
        throw new Error(`${source}:${b.line}: a \`text output\` block must follow a \`ts run\` block directly`);
      }
      out[out.length - 1]!.output = b.code;
      continue;
    }
    const m = /^ts (run|check)$/.exec(b.info);
    if (m) out.push({ where: `${source}:${b.line}`, mode: m[1] as 'run' | 'check', code: b.code });
  }
  return out;
}

/** A file of a tarball. */
export interface TarEntry {
  /** its path inside the archive (`package/dist/index.js`) */
  path: string;
  /** its permission bits */
  mode: number;
  data: Uint8Array;
}

const ascii = (b: Uint8Array, from: number, len: number): string => {
  let s = '';
  for (let i = from; i < from + len && b[i] !== 0; i++) s += String.fromCharCode(b[i]!);
  return s;
};

/**
 * The regular files of a gzipped tar archive (ustar, with pax `path` records), as `npm pack` and `pnpm pack`
 * write them.
 * @param gz - the .tgz bytes.
 * @returns the files in archive order.
 * @throws Error when the archive is truncated or a header checksum is wrong.
 */
export function readTarball(gz: Uint8Array): TarEntry[] {
  const tar = gunzipSync(gz);
  const out: TarEntry[] = [];
  let pos = 0;
  let paxPath: string | undefined;
  while (pos + 512 <= tar.length) {
    if (tar.subarray(pos, pos + 512).every((x) => x === 0)) break;
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : tar[pos + i]!;
    const stored = parseInt(ascii(tar, pos + 148, 8).trim(), 8);
    if (sum !== stored) throw new Error(`tarball: header checksum ${stored} at byte ${pos}, computed ${sum}`);
    const size = parseInt(ascii(tar, pos + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(tar[pos + 156]!);
    const prefix = ascii(tar, pos + 345, 155);
    const name = (prefix ? `${prefix}/` : '') + ascii(tar, pos + 0, 100);
    const mode = parseInt(ascii(tar, pos + 100, 8).trim() || '0', 8);
    const start = pos + 512;
    if (start + size > tar.length) throw new Error(`tarball: ${name} needs ${size} bytes at ${start}, the archive has ${tar.length}`);
    const data = tar.subarray(start, start + size);
    if (type === 'x') {
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(new TextDecoder().decode(data));
      paxPath = m?.[1];
    } else {
      if (type === '0' || type === '\0') out.push({ path: paxPath ?? name, mode, data });
      paxPath = undefined;
    }
    pos = start + Math.ceil(size / 512) * 512;
  }
  return out;
}

/** Every file path an `exports` map (or a string) points at, without `./`. */
export function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports.replace(/^\.\//, '')];
  if (Array.isArray(exports)) return exports.flatMap(exportTargets);
  if (isRecord(exports)) return Object.values(exports).flatMap(exportTargets);
  return [];
}

/**
 * What is wrong with a packed tarball (empty when nothing): `workspace:`/`file:`/`link:` specifiers left in its
 * package.json, build info, tests or benchmarks in it, a missing or different LICENSE, a missing README, an
 * `exports`/`bin` target that is not in it, a bin that is not executable.
 * @param entries - the tarball's files.
 * @param name - the package name.
 * @param license - the root LICENSE text every package must carry.
 */
export function tarballProblems(entries: readonly TarEntry[], name: string, license: string): string[] {
  const out: string[] = [];
  const byPath = new Map(entries.map((e) => [e.path, e]));
  const text = (p: string): string | undefined => {
    const e = byPath.get(`package/${p}`);
    return e && new TextDecoder().decode(e.data);
  };
  const pj = text('package.json');
  if (pj === undefined) return [`${name}: the tarball has no package/package.json`];
  const m = JSON.parse(pj) as Manifest;
  if (m.name !== name) out.push(`${name}: the packed package.json names ${JSON.stringify(m.name)}`);
  for (const field of [...DEP_FIELDS, 'devDependencies'] as const) {
    for (const [dep, spec] of Object.entries(m[field] ?? {})) {
      if (/^(workspace|file|link|portal|catalog):/.test(spec)) out.push(`${name}: packed ${field}.${dep} is "${spec}" (only pnpm can resolve it)`);
    }
  }
  for (const e of entries) {
    if (/\.tsbuildinfo$/.test(e.path)) out.push(`${name}: the tarball holds build info ${e.path}`);
    if (/^package\/(test|bench|scripts)\//.test(e.path) || /\.(test|bench)\.[cm]?[jt]s$/.test(e.path)) out.push(`${name}: the tarball holds ${e.path} (tests and benchmarks are not published)`);
  }
  const lic = text('LICENSE');
  if (lic === undefined) out.push(`${name}: the tarball has no LICENSE`);
  else if (lic !== license) out.push(`${name}: the tarball's LICENSE differs from the repository's`);
  if (text('README.md') === undefined) out.push(`${name}: the tarball has no README.md`);
  for (const t of exportTargets(m.exports)) if (!byPath.has(`package/${t}`)) out.push(`${name}: exports target ${t} is not in the tarball (run pnpm build first)`);
  const bins = typeof m.bin === 'string' ? [m.bin] : isRecord(m.bin) ? Object.values(m.bin) : [];
  for (const b of bins) {
    const e = byPath.get(`package/${String(b).replace(/^\.\//, '')}`);
    if (!e) out.push(`${name}: bin ${String(b)} is not in the tarball`);
    else if ((e.mode & 0o111) === 0) out.push(`${name}: bin ${String(b)} is not executable in the tarball (mode ${e.mode.toString(8)})`);
  }
  return out;
}

/** npm settings a person sets on purpose (a registry mirror, a cache, proxies, certificates): kept for the scratch npm. */
const KEPT_NPM_SETTINGS = /^npm_config_(registry|cache|userconfig|globalconfig|proxy|https_proxy|noproxy|strict_ssl|cafile|ca)$/i;

/**
 * The environment for a plain `npm` run in the scratch project: the caller's, less the `npm_*`/`pnpm_*` variables a
 * package manager running the tests passes down (its user agent, lifecycle and package variables, its own
 * settings), but for the deliberate npm settings of {@link KEPT_NPM_SETTINGS}.
 * @param env - the environment to start from.
 */
export function plainEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) {
    if (/^(npm_|pnpm_)/i.test(k) && !KEPT_NPM_SETTINGS.test(k)) continue;
    if (k === 'INIT_CWD' || k === 'PNPM_SCRIPT_SRC_DIR') continue;
    out[k] = v;
  }
  return out;
}
