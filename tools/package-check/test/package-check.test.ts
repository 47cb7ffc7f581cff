/**
 * The publishable packages as a user gets them: their metadata and LICENSE, the tarballs `pnpm pack` makes (the
 * packer `pnpm publish` and `changeset publish` use, which rewrites `workspace:^`), publint and
 * are-the-types-wrong (esm-only profile) on each tarball, and a scratch project outside the repository that installs
 * the tarballs with plain npm and runs the README examples (see RELEASING.md).
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  exportTargets,
  extractExamples,
  fencedBlocks,
  manifestProblems,
  plainEnv,
  publishablePackages,
  readManifest,
  readmeProblems,
  readTarball,
  tarballProblems,
  type Example,
  type Manifest,
} from '../package-check.js';
import { withStandardFields } from '../metadata.mjs';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const rootManifest = readManifest(path.join(root, 'package.json'));
const license = fs.readFileSync(path.join(root, 'LICENSE'), 'utf8');
const packages = publishablePackages(root);
/** The READMEs whose examples the scratch project runs: the root one, then every publishable package's. */
const READMES = ['README.md', ...packages.map((p) => `packages/${p.dir}/README.md`)];

describe('package metadata', () => {
  test('every publishable package has the standard metadata, the LICENSE and a README that opens as it should', () => {
    expect(packages.map((p) => p.dir)).toEqual(expect.arrayContaining(['parquet-reader', 'parquet-writer', 'parquetry']));
    expect(license).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
    const problems: string[] = [];
    for (const p of packages) {
      problems.push(...manifestProblems(p.manifest, p.dir, rootManifest.engines));
      const lic = path.join(root, 'packages', p.dir, 'LICENSE');
      if (!fs.existsSync(lic) || fs.readFileSync(lic, 'utf8') !== license) problems.push(`packages/${p.dir}/LICENSE is missing or differs from the root LICENSE (node tools/package-check/metadata.mjs ${p.dir} copies it)`);
      problems.push(...readmeProblems(fs.readFileSync(path.join(root, 'packages', p.dir, 'README.md'), 'utf8'), p.name));
    }
    expect(problems).toEqual([]);
  });

  test('a manifest missing the metadata, pinning a workspace dependency or publishing build info is refused', () => {
    const good = JSON.parse(withStandardFields(JSON.stringify({ name: '@parquetry/x', version: '1.2.3', description: 'A package for the test.', license: 'Apache-2.0', files: ['dist', 'src'], dependencies: { '@parquetry/y': 'workspace:^' } }), 'x', { node: '>=20' })) as Manifest;
    expect(manifestProblems(good, 'x', { node: '>=20' })).toEqual([]);
    expect(good.files).toEqual(['dist', '!dist/.tsbuildinfo', 'src']);
    const bad: Manifest = { ...good, repository: undefined, files: ['dist', 'test'], dependencies: { '@parquetry/y': 'workspace:*' }, publishConfig: undefined };
    const problems = manifestProblems(bad, 'x', { node: '>=20' });
    expect(problems.some((p) => p.includes('repository is undefined'))).toBe(true);
    expect(problems.some((p) => p.includes('must include "dist" and "!dist/.tsbuildinfo"'))).toBe(true);
    expect(problems.some((p) => p.includes('workspace:*'))).toBe(true);
    expect(problems.some((p) => p.includes('publishConfig'))).toBe(true);
    expect(manifestProblems(good, 'x', { node: '>=22' }).some((p) => p.includes('engines'))).toBe(true);
  });

  test('a README is read for its title, install line and examples', () => {
    const md = ['# @parquetry/x', '', 'What the package is, in a sentence of forty characters or more.', '', '```sh', 'npm install @parquetry/x', '```', '',
      '```ts run', "console.log('a');", '```', '', '```text output', 'a', '```', '', '````ts check', 'const x: number = 1;', '```ts', '````', '```ts', 'not run', '```'].join('\n');
    expect(readmeProblems(md, '@parquetry/x')).toEqual([]);
    expect(fencedBlocks(md, 'x').map((b) => [b.info, b.line, b.endLine])).toEqual([['sh', 5, 7], ['ts run', 9, 11], ['text output', 13, 15], ['ts check', 17, 20], ['ts', 21, 23]]);
    expect(extractExamples(md, 'x.md')).toEqual([
      { where: 'x.md:9', mode: 'run', code: "console.log('a');", output: 'a' },
      { where: 'x.md:17', mode: 'check', code: 'const x: number = 1;\n```ts' },
    ]);
    expect(readmeProblems(md.replace('npm install @parquetry/x', 'npm i other'), '@parquetry/x')).toHaveLength(1);
    expect(readmeProblems(md.replace('```ts run', '```ts'), '@parquetry/x')).toHaveLength(1);
    expect(readmeProblems(md.replace('# @parquetry/x', '# x'), '@parquetry/x')).toHaveLength(1);
    expect(() => extractExamples('```ts run\nx\n```\ntext\n```text output\nx\n```', 'y.md')).toThrow(/y\.md:5: a `text output` block must follow/);
    expect(() => fencedBlocks('```ts\nx', 'z.md')).toThrow(/z\.md:1: code block not closed/);
  });

  test('the scratch npm gets a plain environment: pnpm variables dropped, deliberate npm settings kept', () => {
    const env = plainEnv({ PATH: '/bin', npm_config_user_agent: 'pnpm/12', npm_lifecycle_event: 'test', pnpm_config_verify_deps_before_run: 'false', PNPM_PACKAGE_NAME: 'x', npm_config_registry: 'https://mirror.example/', NPM_CONFIG_CACHE: '/c', INIT_CWD: '/w' });
    expect(env).toEqual({ PATH: '/bin', npm_config_registry: 'https://mirror.example/', NPM_CONFIG_CACHE: '/c' });
  });

  test('every README example the scratch project runs is found', () => {
    const counts = Object.fromEntries(READMES.map((r) => [r, extractExamples(fs.readFileSync(path.join(root, r), 'utf8'), r).filter((e) => e.mode === 'run').length]));
    for (const r of ['README.md', 'packages/parquet-reader/README.md', 'packages/parquet-writer/README.md', 'packages/parquetry/README.md']) {
      expect(counts[r], `${r} has no \`\`\`ts run example`).toBeGreaterThan(0);
    }
  });
});

describe('packed tarballs', () => {
  let packDir = '';
  const tarballs = new Map<string, string>();

  beforeAll(async () => {
    packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-pack-'));
    for (const p of packages) {
      // the packer of `pnpm publish` / `changeset publish`: rewrites workspace:^ to the version, honours `files`
      await run('pnpm', ['pack', '--pack-destination', packDir], { cwd: path.join(root, 'packages', p.dir), env: { ...process.env, CI: 'true' } });
      const file = path.join(packDir, `${p.name.replace(/^@/, '').replace('/', '-')}-${String(p.manifest.version)}.tgz`);
      if (!fs.existsSync(file)) throw new Error(`pnpm pack of packages/${p.dir} made no ${path.basename(file)} (made: ${fs.readdirSync(packDir).join(', ')})`);
      tarballs.set(p.name, file);
    }
  });
  afterAll(() => {
    if (packDir) fs.rmSync(packDir, { recursive: true, force: true });
  });

  test('the tar reader lists what the system tar lists', () => {
    const file = tarballs.get('parquetry')!;
    const ours = readTarball(fs.readFileSync(file)).map((e) => e.path).sort();
    const theirs = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).split('\n').filter((l) => l !== '' && !l.endsWith('/')).sort();
    expect(ours).toEqual(theirs);
    const bin = readTarball(fs.readFileSync(file)).find((e) => e.path === 'package/bin/parquetry.mjs')!;
    expect(new TextDecoder().decode(bin.data)).toBe(fs.readFileSync(path.join(root, 'packages/parquetry/bin/parquetry.mjs'), 'utf8'));
  });

  test('no workspace: specifier, build info, test or benchmark; the LICENSE, README, exports and bins are there', () => {
    const problems: string[] = [];
    for (const p of packages) {
      const entries = readTarball(fs.readFileSync(tarballs.get(p.name)!));
      problems.push(...tarballProblems(entries, p.name, license));
      const packed = JSON.parse(new TextDecoder().decode(entries.find((e) => e.path === 'package/package.json')!.data)) as Manifest;
      // workspace:^ became ^<version of the package depended on>
      for (const [dep, spec] of Object.entries(packed.dependencies ?? {})) {
        const target = packages.find((q) => q.name === dep);
        if (target && spec !== `^${String(target.manifest.version)}`) problems.push(`${p.name}: packed dependency ${dep} is "${spec}", expected "^${String(target.manifest.version)}"`);
      }
      expect(exportTargets(packed.exports)).toContain('dist/index.js');
    }
    expect(problems).toEqual([]);
    // the checker itself sees a leftover workspace: specifier and build info
    const entries = readTarball(fs.readFileSync(tarballs.get('@parquetry/parquet-reader')!));
    const pj = entries.find((e) => e.path === 'package/package.json')!;
    const doctored = [
      ...entries.filter((e) => e !== pj),
      { ...pj, data: new TextEncoder().encode(new TextDecoder().decode(pj.data).replace(/"\^0\.0\.0"/, '"workspace:^"')) },
      { path: 'package/dist/.tsbuildinfo', mode: 0o644, data: new Uint8Array(1) },
    ];
    const found = tarballProblems(doctored, '@parquetry/parquet-reader', license);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^@parquetry\/parquet-reader: packed dependencies\.@parquetry\/[a-z-]+ is "workspace:\^" \(only pnpm can resolve it\)$/);
    expect(found[1]).toBe('@parquetry/parquet-reader: the tarball holds build info package/dist/.tsbuildinfo');
  });

  test('publint finds nothing to report, suggestions included', async () => {
    const report: string[] = [];
    for (const p of packages) {
      const buf = fs.readFileSync(tarballs.get(p.name)!);
      const { messages, pkg } = await publint({ pack: { tarball: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) }, level: 'suggestion', strict: true });
      for (const m of messages) report.push(`${p.name}: ${m.type} ${m.code}: ${formatMessage(m, pkg, { color: false }) ?? ''}`);
    }
    expect(report).toEqual([]);
  });

  test('are-the-types-wrong (esm-only profile) finds no problem', { timeout: 240_000 }, async () => {
    const attw = path.join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js');
    const failures: string[] = [];
    const queue = [...packages];
    const worker = async (): Promise<void> => {
      for (let p = queue.shift(); p; p = queue.shift()) {
        try {
          await run(process.execPath, [attw, tarballs.get(p.name)!, '--profile', 'esm-only', '--format', 'ascii'], { env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' }, maxBuffer: 16 << 20 });
        } catch (e) {
          const err = e as { stdout?: string; stderr?: string; message: string };
          failures.push(`${p.name}:\n${err.stdout ?? ''}${err.stderr ?? err.message}`);
        }
      }
    };
    await Promise.all([worker(), worker()]);
    expect(failures).toEqual([]);
  });

  test('a scratch project outside the repository installs the tarballs with plain npm and runs the README examples', { timeout: 240_000 }, async (ctx) => {
    const env: NodeJS.ProcessEnv = { ...plainEnv(process.env), FORCE_COLOR: '0', NO_COLOR: '1', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
    const tsVersion = rootManifest.devDependencies?.typescript ?? '5.9.3';
    const nodeTypes = rootManifest.devDependencies?.['@types/node'] ?? '^20.19.0';
    // our packages come from the tarballs; typescript, @types/node and the codecs' third-party dependencies from
    // the npm registry: without it the test cannot run, and says so
    try {
      await run('npm', ['view', `typescript@${tsVersion}`, 'version', '--fetch-retries', '1'], { env, timeout: 30_000 });
    } catch (e) {
      const err = e as { stderr?: string; message: string };
      const code = /npm error (?:code|errno) (\S+)/.exec(err.stderr ?? '')?.[1];
      const why = `the npm registry is unreachable (npm view typescript@${tsVersion}: ${code ?? err.message.split('\n')[0]})`;
      console.warn(`SKIPPED: the scratch install of the packed tarballs — ${why}`);
      ctx.skip(`scratch install skipped: ${why}`);
    }
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-scratch-'));
    expect(path.relative(root, scratch).startsWith('..')).toBe(true);
    const started = performance.now();
    const dependencies = Object.fromEntries(packages.map((p) => [p.name, `file:${tarballs.get(p.name)!}`]));
    fs.writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module', dependencies, devDependencies: { typescript: tsVersion, '@types/node': nodeTypes } }, null, 2));
    await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: scratch, env, timeout: 180_000, maxBuffer: 16 << 20 });
    const installed = performance.now();
    // a user's strict TypeScript setup (the lib default of tsc, which includes DOM)
    fs.writeFileSync(path.join(scratch, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true, skipLibCheck: false, types: ['node'], outDir: 'out', rootDir: 'examples',
      },
      include: ['examples'],
    }, null, 2));
    fs.mkdirSync(path.join(scratch, 'examples'));
    const examples: { readme: string; id: string; line: number; example: Example; sh: boolean }[] = [];
    for (const readme of READMES) {
      // a package's README as published (from its tarball), the root one from the repository
      const pkg = packages.find((p) => readme === `packages/${p.dir}/README.md`);
      const text = pkg ? fs.readFileSync(path.join(scratch, 'node_modules', pkg.name, 'README.md'), 'utf8') : fs.readFileSync(path.join(root, readme), 'utf8');
      const tag = pkg ? pkg.dir : 'root';
      const own: { readme: string; id: string; line: number; example: Example; sh: boolean }[] = [];
      for (const example of extractExamples(text, readme)) {
        const line = Number(example.where.split(':').pop());
        // line k of examples/<tag>-<L>.ts is line L + k of the README
        fs.writeFileSync(path.join(scratch, 'examples', `${tag}-${line}.ts`), `${example.code}\nexport {};\n// ${example.where}\n`);
        own.push({ readme: tag, id: `${tag}-${line}`, line, example, sh: false });
      }
      for (const b of fencedBlocks(text, readme).filter((x) => x.info === 'sh run')) {
        own.push({ readme: tag, id: `${tag}-${b.line}`, line: b.line, example: { where: `${readme}:${b.line}`, mode: 'run', code: b.code }, sh: true });
      }
      examples.push(...own.sort((x, y) => x.line - y.line));
    }
    expect(examples.filter((e) => e.example.mode === 'run').length).toBeGreaterThanOrEqual(4);
    try {
      await run(process.execPath, [path.join(scratch, 'node_modules/typescript/bin/tsc'), '-p', scratch], { cwd: scratch, env, timeout: 120_000 });
    } catch (e) {
      throw new Error(`the README examples do not compile against the installed packages (line k of examples/<dir>-<L>.ts is line L + k of that README):\n${(e as { stdout?: string }).stdout ?? String(e)}`);
    }
    const compiled = performance.now();
    // each README's runnable examples in order, in a directory of its own (a later one may read a file an
    // earlier one wrote), the shell ones with the installed bins on PATH
    const failures: string[] = [];
    for (const { readme, id, example, sh } of examples) {
      if (example.mode !== 'run') continue;
      const cwd = path.join(scratch, 'run', readme);
      fs.mkdirSync(cwd, { recursive: true });
      const runEnv = { ...env, PATH: `${path.join(scratch, 'node_modules/.bin')}${path.delimiter}${env.PATH ?? ''}` };
      try {
        const { stdout } = sh
          ? await run('bash', ['-euo', 'pipefail', '-c', example.code], { cwd, env: runEnv, timeout: 60_000 })
          : await run(process.execPath, [path.join(scratch, 'out', `${id}.js`)], { cwd, env: runEnv, timeout: 60_000 });
        if (example.output !== undefined && stdout.trimEnd() !== example.output.trimEnd()) {
          failures.push(`${example.where}: printed\n${stdout}\nexpected (the text output block after it)\n${example.output}`);
        }
      } catch (e) {
        const err = e as { stdout?: string; stderr?: string; message: string };
        failures.push(`${example.where}: failed\n${err.stderr || err.message}`);
      }
    }
    const done = performance.now();
    console.log(`scratch project (${scratch}): npm install ${((installed - started) / 1000).toFixed(1)} s, tsc ${((compiled - installed) / 1000).toFixed(1)} s, ` +
      `${examples.filter((e) => e.example.mode === 'run').length} examples run in ${((done - compiled) / 1000).toFixed(1)} s, ${examples.filter((e) => e.example.mode === 'check').length} compiled only`);
    expect(failures).toEqual([]);
    fs.rmSync(scratch, { recursive: true, force: true });
  });
});
