/**
 * The docs site in headless Chromium (Debian's /usr/bin/chromium driven by playwright-core; CI installs it in .ci/run):
 * the landing page renders with its links to every guide, typedoc's search finds `openParquet` and opens its page, a
 * guide page loads with its examples, and the guides' `ts browser` examples run in the browser (bundled with esbuild
 * from the workspace sources, served with fixtures/sample/sample.parquet by a local range server) and print what the
 * guide shows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { guideExamples, guideFiles, rangeServer, repoRoot } from './guides.js';
import { ensureSite } from './site.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
// CI installs Chromium (.ci/run); a developer machine without it skips, CI never does
const RUN = fs.existsSync(CHROMIUM) || process.env.CI !== undefined;
const browserExamples = guideFiles().flatMap((g) => guideExamples(g)).filter((e) => e.kind === 'browser');

/** Workspace packages from source, as vitest resolves them. */
const workspaceSource: esbuild.Plugin = {
  name: 'workspace-source',
  setup(build) {
    build.onResolve({ filter: /^(@parquetry\/[a-z0-9-]+|parquetry)(\/[a-z0-9-]+)?$/ }, (args) => {
      const m = /^(?:@parquetry\/([a-z0-9-]+)|(parquetry))(?:\/([a-z0-9-]+))?$/.exec(args.path)!;
      return { path: path.join(repoRoot, 'packages', m[1] ?? m[2]!, 'src', `${m[3] ?? 'index'}.ts`) };
    });
  },
};

let browser: Browser | undefined;
let server: Awaited<ReturnType<typeof rangeServer>> | undefined;
let tmp = '';

beforeAll(async () => {
  if (!RUN) return;
  const site = await ensureSite();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-docs-site-'));
  const extra: Record<string, { body: Uint8Array; type: string }> = {
    '/examples/sample.parquet': { body: fs.readFileSync(path.join(repoRoot, 'fixtures/sample/sample.parquet')), type: 'application/octet-stream' },
  };
  for (const [i, e] of browserExamples.entries()) {
    const entry = path.join(tmp, `example-${i}.ts`);
    fs.writeFileSync(entry, `${e.code}\nexport {};\n`);
    const out = await esbuild.build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, plugins: [workspaceSource], logLevel: 'silent' });
    extra[`/examples/example-${i}.js`] = { body: out.outputFiles[0]!.contents, type: 'text/javascript' };
    const html = `<!doctype html><meta charset="utf-8"><title>example ${i}</title><script type="module">import('./example-${i}.js').then(() => console.log('__done__'), (e) => console.log('__error__ ' + (e && e.stack || e)));</script>`;
    extra[`/examples/example-${i}.html`] = { body: new TextEncoder().encode(html), type: 'text/html' };
  }
  server = await rangeServer(site, extra);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

async function open(url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser!.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // every failed request by URL (the browser's own favicon request aside: typedoc sets no favicon)
  page.on('response', (r) => {
    if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) errors.push(`${r.status()} ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  await page.goto(`${server!.base}/${url}`);
  return { page, errors };
}

describe.skipIf(!RUN)('the docs site in headless Chromium', () => {
  test('the landing page renders with a link to every guide, and a guide page loads', async () => {
    const { page, errors } = await open('index.html');
    await expect.poll(() => page.title()).toBe('Parquetry');
    expect(await page.locator('h1').first().textContent()).toContain('Parquetry');
    const guides = await page.locator('.tsd-panel a[href^="documents/"]').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(guides.map(([text]) => text)).toEqual(expect.arrayContaining(['Getting started', 'Reading', 'Writing', 'The command line', 'Architecture']));
    expect(guides.length).toBeGreaterThanOrEqual(guideFiles().length - 1);
    // follow the first guide link
    await page.locator('.tsd-panel a[href^="documents/"]', { hasText: 'Getting started' }).first().click();
    await page.waitForURL(/documents\/.*\.html$/);
    expect(await page.locator('h1').first().textContent()).toBe('Getting started');
    expect(await page.locator('pre code').count()).toBeGreaterThan(3);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  test("typedoc's search finds openParquet and opens its page", async () => {
    const { page, errors } = await open('index.html');
    await page.locator('#tsd-search-trigger').click();
    await page.locator('#tsd-search-input').fill('openParquet');
    const hit = page.locator('#tsd-search-results li a', { hasText: 'openParquet' }).first();
    await hit.waitFor({ timeout: 30_000 });
    const results = await page.locator('#tsd-search-results li').allTextContents();
    expect(results.some((r) => r.includes('openParquet'))).toBe(true);
    // the names read as imported: no ".index" level
    expect(results.join('\n')).not.toMatch(/\.index\b/);
    await hit.click();
    await page.waitForURL(/functions\/.*openParquet\.html$/);
    expect(await page.locator('h1').first().textContent()).toMatch(/openParquet/);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  test('the guides\' browser examples run in Chromium and print what the guide shows', async () => {
    expect(browserExamples.length).toBeGreaterThan(0);
    for (const [i, e] of browserExamples.entries()) {
      const page = await browser!.newPage();
      const printed: string[] = [];
      page.on('pageerror', (err) => printed.push(`__error__ ${String(err)}`));
      const done = new Promise<void>((resolve) => {
        page.on('console', (m) => {
          const text = m.text();
          if (text === '__done__' || text.startsWith('__error__')) resolve();
          if (text !== '__done__') printed.push(text);
        });
      });
      await page.goto(`${server!.base}/examples/example-${i}.html`);
      await done;
      const where = `guides/${e.guide}:${e.line}`;
      expect(printed.filter((l) => l.startsWith('__error__')), `${where} failed in Chromium`).toEqual([]);
      if (e.output !== undefined) expect(printed.join('\n'), `${where} printed something else in Chromium`).toBe(e.output.replace(/\n+$/, ''));
      await page.close();
    }
  }, 240_000);
});
