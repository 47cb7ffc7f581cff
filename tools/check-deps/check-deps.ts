/**
 * The layering check. Each package may import only packages it declares as
 * dependencies, only from lower layers, and never in a cycle. Runs as a test.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Which workspace packages each package may depend on (by directory name). */
export const ALLOWED: Record<string, readonly string[]> = {
  'thrift-compact': [],
  'parquet-codecs': [],
  'parquet-encodings': ['thrift-compact'],
  'parquet-levels': ['thrift-compact', 'parquet-encodings'],
  'parquet-bloom': ['thrift-compact'],
  'parquet-crypto': ['thrift-compact'],
  'parquet-variant': ['thrift-compact'],
  'parquet-column': ['thrift-compact', 'parquet-encodings', 'parquet-levels', 'parquet-codecs'],
  'parquet-reader': ['thrift-compact', 'parquet-encodings', 'parquet-levels', 'parquet-codecs', 'parquet-column', 'parquet-bloom', 'parquet-crypto', 'parquet-variant'],
  'parquet-writer': ['thrift-compact', 'parquet-encodings', 'parquet-levels', 'parquet-codecs', 'parquet-column', 'parquet-bloom', 'parquet-crypto', 'parquet-variant'],
  'parquet-dataset': ['thrift-compact', 'parquet-encodings', 'parquet-levels', 'parquet-codecs', 'parquet-column', 'parquet-reader', 'parquet-writer'],
  arrow: ['thrift-compact', 'parquet-encodings', 'parquet-levels', 'parquet-codecs', 'parquet-column', 'parquet-reader', 'parquet-writer', 'parquet-dataset'],
};

/** Allowed edges for a package directory; codec wrappers (`codec-*`) sit on parquet-codecs; the umbrella sits on everything. */
export function allowedFor(dir: string, all: readonly string[]): readonly string[] | undefined {
  if (dir === 'parquetry') return all.filter((d) => d !== 'parquetry');
  if (dir.startsWith('codec-')) return ['parquet-codecs'];
  return ALLOWED[dir];
}

/** A workspace package as the check sees it. */
export interface PackageInfo {
  dir: string;
  name: string;
  deps: string[];
  /** module specifiers imported by each source file */
  imports: { file: string; spec: string }[];
}

const IMPORT_RE = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Extracts module specifiers from TypeScript source text. */
export function importsOf(source: string): string[] {
  const out: string[] = [];
  // comments may hold example code (TSDoc): drop them first
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  for (const m of code.matchAll(IMPORT_RE)) out.push((m[1] ?? m[2])!);
  return out;
}

function walk(dir: string, acc: string[] = []): string[] {
  if (!fs.existsSync(dir)) return acc;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, acc);
    else if (/\.(ts|mts|js|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts')) acc.push(p);
  }
  return acc;
}

/** Reads every package under `packagesDir`. */
export function loadPackages(packagesDir: string): PackageInfo[] {
  return fs
    .readdirSync(packagesDir)
    .filter((d) => fs.existsSync(path.join(packagesDir, d, 'package.json')))
    .map((dir) => {
      const pj = JSON.parse(fs.readFileSync(path.join(packagesDir, dir, 'package.json'), 'utf8')) as {
        name: string;
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      const imports = walk(path.join(packagesDir, dir, 'src')).flatMap((file) =>
        importsOf(fs.readFileSync(file, 'utf8')).map((spec) => ({ file: path.relative(packagesDir, file), spec })),
      );
      return { dir, name: pj.name, deps: [...Object.keys(pj.dependencies ?? {}), ...Object.keys(pj.peerDependencies ?? {})], imports };
    });
}

/** Node-only source files: a `node.ts` entry or anything under `src/node/`. */
function isNodeOnly(file: string): boolean {
  return /[/\\]src[/\\](node\.ts|node[/\\])/.test(file);
}

/** Returns every layering violation, as readable lines (empty when clean). */
export function checkPackages(pkgs: readonly PackageInfo[]): string[] {
  const problems: string[] = [];
  const byName = new Map(pkgs.map((p) => [p.name, p]));
  const dirs = pkgs.map((p) => p.dir);
  for (const p of pkgs) {
    const allowed = allowedFor(p.dir, dirs);
    if (!allowed) {
      problems.push(`${p.dir}: not in the layer table (tools/check-deps/check-deps.ts)`);
      continue;
    }
    for (const d of p.deps) {
      const dep = byName.get(d);
      if (dep && !allowed.includes(dep.dir)) problems.push(`${p.dir}: depends on ${d}, which its layer may not use`);
    }
    for (const { file, spec } of p.imports) {
      if (spec.startsWith('.')) {
        const resolved = path.normalize(path.join(path.dirname(file), spec));
        if (!resolved.startsWith(p.dir + path.sep)) problems.push(`${file}: relative import '${spec}' leaves the package`);
        continue;
      }
      if (spec.startsWith('node:')) {
        if (!isNodeOnly(file)) problems.push(`${file}: imports '${spec}' outside a Node-only entry (src/node.ts or src/node/)`);
        continue;
      }
      const pkgName = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
      if (!p.deps.includes(pkgName)) problems.push(`${file}: imports '${spec}' but ${p.name} does not declare ${pkgName} as a dependency`);
      const dep = byName.get(pkgName);
      if (dep && !allowed.includes(dep.dir)) problems.push(`${file}: imports ${pkgName}, which ${p.dir}'s layer may not use`);
    }
  }
  // cycles over declared workspace dependencies
  const state = new Map<string, 1 | 2>();
  const visit = (name: string, stack: string[]): void => {
    if (state.get(name) === 2) return;
    if (state.get(name) === 1) {
      problems.push(`cycle: ${[...stack.slice(stack.indexOf(name)), name].join(' -> ')}`);
      return;
    }
    state.set(name, 1);
    for (const d of byName.get(name)?.deps ?? []) if (byName.has(d)) visit(d, [...stack, name]);
    state.set(name, 2);
  };
  for (const p of pkgs) visit(p.name, []);
  return problems;
}
