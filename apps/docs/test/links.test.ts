/**
 * The built site has no broken link: every page of apps/docs/out is parsed, and
 * - every internal `href`/`src` resolves to a file of the site (a directory to its index.html), and a `#anchor` to an
 *   element with that id (or name) on the target page;
 * - every external link is a well-formed http(s) URL whose host is a host name, not a file name that a Markdown
 *   linkifier turned into one (`README.md` → `http://README.md`); nothing is fetched (CI has no network).
 * It also checks what the site is made of: the landing page links every guide, each guide is a page, and API names
 * read as they are imported (`@parquetry/parquet-reader.fetchSource`, not `….index.fetchSource`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { guideFiles } from './guides.js';
import { ensureSite, searchRows, walk } from './site.js';

/** Top-level domains that are file extensions in this repository: a link to such a "host" is a linkified file name. */
const FILE_EXTENSIONS = new Set(['md', 'ts', 'mts', 'js', 'mjs', 'cjs', 'json', 'html', 'parquet', 'csv', 'tsv', 'ndjson', 'txt', 'yaml', 'yml', 'toml', 'thrift', 'py', 'rs', 'wasm', 'lock', 'sh']);

let site = '';
let pages: string[] = [];
const ids = new Map<string, Set<string>>();
const html = new Map<string, string>();

/** The attribute values of `href` and `src` in a page (tags and attributes as HTML serialises them). */
function links(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/<(?:a|link|script|img|iframe|source)\b[^>]*?\s(?:href|src)="([^"]*)"/g)) out.push(m[1]!.replace(/&amp;/g, '&'));
  return out;
}

function anchorsOf(page: string): Set<string> {
  let set = ids.get(page);
  if (!set) {
    set = new Set();
    for (const m of html.get(page)!.matchAll(/\s(?:id|name)="([^"]*)"/g)) set.add(decodeURIComponent(m[1]!.replace(/&amp;/g, '&')));
    ids.set(page, set);
  }
  return set;
}

beforeAll(async () => {
  site = await ensureSite();
  pages = walk(site).filter((f) => f.endsWith('.html'));
  for (const p of pages) html.set(p, fs.readFileSync(path.join(site, p), 'utf8'));
}, 900_000);

describe('the docs site', () => {
  test('every internal link and anchor resolves, every external link is a well-formed URL', () => {
    const broken: string[] = [];
    let internal = 0;
    let external = 0;
    for (const page of pages) {
      for (const link of links(html.get(page)!)) {
        if (/^(mailto|data|javascript):/i.test(link)) continue;
        if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('//')) {
          external++;
          let url: URL;
          try {
            url = new URL(link.startsWith('//') ? `https:${link}` : link);
          } catch {
            broken.push(`${page}: malformed URL ${link}`);
            continue;
          }
          if (url.protocol !== 'https:' && url.protocol !== 'http:') broken.push(`${page}: ${link} is not http(s)`);
          const labels = url.hostname.split('.');
          if (labels.length < 2 && url.hostname !== 'localhost') broken.push(`${page}: ${link}: the host is not a domain name`);
          else if (FILE_EXTENSIONS.has(labels[labels.length - 1]!.toLowerCase())) broken.push(`${page}: ${link}: a file name linkified as a host`);
          continue;
        }
        internal++;
        const [target, anchor] = link.split('#', 2) as [string, string | undefined];
        const pathPart = target.split('?')[0]!;
        let resolved = pathPart === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURIComponent(pathPart)));
        if (resolved.startsWith('..')) {
          broken.push(`${page}: ${link} leaves the site`);
          continue;
        }
        const abs = path.join(site, resolved);
        if (fs.existsSync(abs) && fs.statSync(abs).isDirectory()) resolved = path.posix.join(resolved, 'index.html');
        if (!fs.existsSync(path.join(site, resolved))) {
          broken.push(`${page}: ${link} → ${resolved} does not exist`);
          continue;
        }
        if (anchor && resolved.endsWith('.html') && html.has(resolved) && !anchorsOf(resolved).has(decodeURIComponent(anchor))) {
          broken.push(`${page}: ${link} → no element with id "${anchor}" in ${resolved}`);
        }
      }
    }
    console.log(`docs site: ${pages.length} pages, ${internal} internal and ${external} external links checked`);
    expect(pages.length).toBeGreaterThan(100);
    expect(internal).toBeGreaterThan(1000);
    expect(broken, broken.slice(0, 50).join('\n')).toEqual([]);
  });

  test('the landing page links every guide, and every guide is a page of the site', () => {
    const index = html.get('index.html')!;
    expect(index).toContain('Apache Parquet for TypeScript');
    // the file-layout viewer is part of the site, linked from the landing page (the link check above resolves it)
    expect(index).toContain('<a href="viewer/index.html">file-layout viewer</a>');
    const guidePages = pages.filter((p) => p.startsWith('documents/'));
    const titles = guideFiles()
      .filter((g) => g !== 'index.md')
      .map((g) => /^title: (.+)$/m.exec(fs.readFileSync(path.join(site, '../guides', g), 'utf8'))?.[1]);
    expect(titles.every((t) => t !== undefined)).toBe(true);
    expect(guidePages.length).toBe(titles.length);
    for (const page of guidePages) {
      expect(links(index), `index.html links ${page}`).toContain(page);
    }
    for (const title of titles) {
      expect(guidePages.some((p) => html.get(p)!.includes(`<h1 id=`) && html.get(p)!.includes(`<title>${title!.replace(/&/g, '&amp;')} | Parquetry</title>`)), `a page titled ${title}`).toBe(true);
    }
  });

  test('API names read as they are imported (no ".index" module level)', async () => {
    const rows = await searchRows(site);
    const named = (name: string, parent: string) => rows.find((r) => r.name === name && r.parent === parent);
    expect(named('fetchSource', '@parquetry/parquet-reader')?.url).toBe('functions/_parquetry_parquet-reader.fetchSource.html');
    expect(named('fileSource', '@parquetry/parquet-reader/node')).toBeDefined();
    expect(named('openFile', 'parquetry/node')).toBeDefined();
    expect(named('openParquet', 'parquetry')).toBeDefined();
    expect(named('writeDataset', '@parquetry/parquet-dataset/node')).toBeDefined();
    expect(rows.filter((r) => /\.(index|node)$/.test(r.parent ?? '')).map((r) => `${r.parent}.${r.name}`)).toEqual([]);
    // the guides are searchable too
    expect(rows.some((r) => r.name === 'Getting started' && r.url.startsWith('documents/'))).toBe(true);
  });
});
