/**
 * Every example of the guides (apps/docs/guides/*.md) is compiled and run (see test/guides.ts for the block kinds):
 * - all `ts run` and `ts browser` blocks are compiled by tsc with the repository's strict settings against the
 *   workspace packages' sources (one program; a type error fails with the guide's line);
 * - `ts run` blocks run in Node, each guide's in order in a fresh working directory, and what they print must equal
 *   the `text output` block after them;
 * - `sh run` blocks run each `parquetry …` line through the CLI's `main` from source in the same directory.
 * HTTP: the guides fetch from `https://data.example.com/…`; here `fetch` sends those requests to a local range
 * server over the guide's working directory (nothing else is redirected, and no other request leaves the machine).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { format, promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
// from source, as the examples run (the vitest config maps `parquetry` and `@parquetry/*/*` to sources, not `parquetry/node`)
import { main } from '../../../packages/parquetry/src/node.js';
import { docsDir, guideExamples, guideFiles, rangeServer, repoRoot, shellWords, type GuideExample } from './guides.js';

const EXAMPLE_HOST = 'https://data.example.com/';
const examplesDir = path.join(docsDir, '.examples');
const guides = guideFiles();
const all = guides.flatMap((g) => guideExamples(g));
const id = (e: GuideExample): string => `${e.guide.replace(/\.md$/, '')}-${e.line}`;
const where = (e: GuideExample): string => `guides/${e.guide}:${e.line}`;

// the examples as files (line k of <guide>-<L>.ts is line L + k of the guide): as written for tsc (whose paths map
// them to sources), and for import() with `parquetry/node` pointed at its source too (the vitest config maps
// `parquetry` and `@parquetry/x/y` to sources, but `parquetry/node` would resolve to the package's built dist/)
fs.rmSync(examplesDir, { recursive: true, force: true });
fs.mkdirSync(path.join(examplesDir, 'run'), { recursive: true });
const nodeEntry = path.join(repoRoot, 'packages/parquetry/src/node.ts');
for (const e of all) {
  if (e.kind === 'sh') continue;
  fs.writeFileSync(path.join(examplesDir, `${id(e)}.ts`), `${e.code}\nexport {};\n`);
  fs.writeFileSync(path.join(examplesDir, 'run', `${id(e)}.ts`), `${e.code.replace(/(from\s+)(['"])parquetry\/node\2/g, `$1'${nodeEntry}'`)}\nexport {};\n`);
}
const rel = (p: string): string => path.relative(examplesDir, path.join(repoRoot, p));
fs.writeFileSync(
  path.join(examplesDir, 'tsconfig.json'),
  JSON.stringify(
    {
      extends: rel('tsconfig.base.json'),
      compilerOptions: {
        noEmit: true,
        types: ['node'],
        rootDir: rel('.'),
        paths: workspacePaths(),
      },
      include: ['*.ts'],
    },
    null,
    2,
  ),
);

/**
 * tsc `paths` from every workspace package's `exports` to its sources (`@parquetry/x/sub` → packages/x/src/sub.ts), as
 * the vitest config resolves them: an import left to resolve to a built dist/ would mix two copies of the same types.
 */
function workspacePaths(): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  for (const dir of fs.readdirSync(path.join(repoRoot, 'packages'))) {
    const manifest = path.join(repoRoot, 'packages', dir, 'package.json');
    if (!fs.existsSync(manifest)) continue;
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string; exports?: Record<string, unknown> };
    if (!pkg.name || !pkg.exports) continue;
    for (const key of Object.keys(pkg.exports)) {
      const sub = key === '.' ? 'index' : key.slice(2);
      const src = `packages/${dir}/src/${sub}.ts`;
      if (fs.existsSync(path.join(repoRoot, src))) paths[key === '.' ? pkg.name : `${pkg.name}/${sub}`] = [rel(src)];
    }
  }
  return paths;
}

afterAll(() => {
  fs.rmSync(examplesDir, { recursive: true, force: true });
});

describe('guide examples', () => {
  test('the guides have examples of every kind, and every guide but the landing page has one', () => {
    expect(guides).toContain('index.md');
    for (const g of guides.filter((g) => g !== 'index.md')) {
      expect(guideExamples(g).length, `guides/${g} has no example`).toBeGreaterThan(0);
    }
    expect(all.filter((e) => e.kind === 'run').length).toBeGreaterThanOrEqual(15);
    expect(all.some((e) => e.kind === 'browser')).toBe(true);
    expect(all.some((e) => e.kind === 'sh')).toBe(true);
  });

  test('every TypeScript example compiles (strict, against the workspace packages)', { timeout: 600_000 }, async () => {
    const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
    try {
      await promisify(execFile)(process.execPath, [tsc, '-p', path.join(examplesDir, 'tsconfig.json'), '--pretty', 'false'], { cwd: repoRoot, maxBuffer: 1 << 24 });
    } catch (err) {
      const out = String((err as { stdout?: string }).stdout ?? err);
      // name the guide line of each error: .examples/<guide>-<L>.ts(k,c) is guides/<guide>.md line L + k
      const mapped = out.replace(/(?:apps\/docs\/)?\.examples\/([a-z-]+)-(\d+)\.ts\((\d+),(\d+)\)/g, (_, g: string, l: string, k: string, c: string) => `guides/${g}.md:${Number(l) + Number(k)}:${c}`);
      expect.fail(`the guide examples do not compile:\n${mapped}`);
    }
  });

  test('the command-line guide lists exactly the commands `parquetry help` lists', async () => {
    let usage = '';
    expect(await main(['help'], (l) => void (usage += `${l}\n`))).toBe(0);
    // the command lines of the usage: two-space indented words before the key options
    const fromHelp = new Set<string>();
    for (const line of usage.split('\n')) {
      if (/^key options/.test(line)) break;
      const m = /^ {2}([a-z][a-z-]*)\b/.exec(line);
      if (m) fromHelp.add(m[1]!);
    }
    const guide = fs.readFileSync(path.join(docsDir, 'guides/cli.md'), 'utf8');
    const fromGuide = new Set([...guide.matchAll(/^\| `parquetry ([a-z][a-z-]*)\b/gm)].map((m) => m[1]!));
    expect(fromHelp.size).toBeGreaterThanOrEqual(8);
    expect([...fromGuide].sort(), 'guides/cli.md\'s command table against `parquetry help`').toEqual([...fromHelp].sort());
    // and every command's own help exists (what the guide tells readers to run)
    for (const cmd of fromHelp) expect(await main(['help', cmd], () => {}, { error: () => {} }), `parquetry help ${cmd}`).toBe(0);
  });

  for (const guide of guides) {
    const examples = guideExamples(guide).filter((e) => e.kind !== 'browser');
    if (examples.length === 0) continue;
    test(`guides/${guide}: the examples run and print what the guide shows`, { timeout: 300_000 }, async () => {
      const cwd = fs.mkdtempSync(path.join(os.tmpdir(), `pq-guide-${guide.replace(/\.md$/, '')}-`));
      const server = await rangeServer(cwd);
      const realFetch = globalThis.fetch;
      const realLog = console.log;
      const home = process.cwd();
      let printed: string[] = [];
      globalThis.fetch = (input: string | URL | Request, init?: RequestInit) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (!url.startsWith(EXAMPLE_HOST)) throw new Error(`an example fetched ${url}: only ${EXAMPLE_HOST} is served in this test`);
        return realFetch(`${server.base}/${url.slice(EXAMPLE_HOST.length)}`, init);
      };
      console.log = (...args: unknown[]) => void printed.push(format(...args));
      process.chdir(cwd);
      try {
        for (const e of examples) {
          printed = [];
          if (e.kind === 'run') {
            try {
              await import(pathToFileURL(path.join(examplesDir, 'run', `${id(e)}.ts`)).href);
            } catch (err) {
              throw new Error(`${where(e)}: the example failed: ${(err as Error).stack ?? String(err)}`, { cause: err });
            }
          } else {
            for (const line of e.code.split('\n')) {
              if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
              const words = shellWords(line.replace(/\s+#.*$/, ''));
              expect(words[0], `${where(e)}: a sh run line runs parquetry: ${line}`).toBe('parquetry');
              const errors: string[] = [];
              const code = await main(words.slice(1), (l) => void printed.push(l), { error: (l) => void errors.push(l), outputIsTTY: false, progressIsTTY: false });
              expect(code, `${where(e)}: ${line} exited ${code}: ${errors.join('\n')}`).toBe(0);
            }
          }
          const got = printed.join('\n').replace(/\n+$/, '');
          // DOCS_PRINTED=<dir>: what each example printed, one file per example, to compare with the guide by eye
          if (process.env.DOCS_PRINTED) fs.writeFileSync(path.join(process.env.DOCS_PRINTED, `${id(e)}.txt`), `${got}\n`);
          if (e.output !== undefined) {
            expect(got, `${where(e)} printed something else than the text output block after it`).toBe(e.output.replace(/\n+$/, ''));
          }
        }
      } finally {
        process.chdir(home);
        console.log = realLog;
        globalThis.fetch = realFetch;
        await server.close();
        fs.rmSync(cwd, { recursive: true, force: true });
      }
    });
  }
});
