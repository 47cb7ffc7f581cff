/**
 * What the docs tests share: the guides (apps/docs/guides/*.md) and their examples, a local HTTP range server, and
 * the command lines of `sh run` blocks.
 *
 * Example blocks (the convention of the READMEs, run there by tools/package-check):
 * - ```ts run: compiled (strict tsc against the workspace packages' sources) and run in Node, the examples of a guide
 *   in order in one working directory of their own (a later example may read a file an earlier one wrote);
 * - ```ts browser: compiled, then run in headless Chromium by test/site.test.ts (bundled from source);
 * - ```sh run: `parquetry …` command lines, run through the CLI's `main` from source in the guide's directory;
 * - ```text output right after one of those: what it must print.
 * A guide has no other ```ts blocks (no example that is only shown).
 * @module
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fencedBlocks } from '../../../tools/package-check/package-check.js';

/** The docs app's directory. */
export const docsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The repository root. */
export const repoRoot = path.resolve(docsDir, '../..');
/** The guides' directory. */
export const guidesDir = path.join(docsDir, 'guides');

/** A guide's example. */
export interface GuideExample {
  /** the guide's file name */
  guide: string;
  /** 1-based line of the opening fence */
  line: number;
  kind: 'run' | 'browser' | 'sh';
  code: string;
  /** the ```text output block right after it */
  output?: string;
}

/** Every guide file name (`index.md`, the landing page, included), sorted. */
export function guideFiles(): string[] {
  return fs.readdirSync(guidesDir).filter((f) => f.endsWith('.md')).sort();
}

/**
 * The examples of one guide.
 * @throws Error for a ts block that is neither `ts run` nor `ts browser`, or a misplaced `text output` block.
 */
export function guideExamples(guide: string): GuideExample[] {
  const text = fs.readFileSync(path.join(guidesDir, guide), 'utf8');
  const lines = text.split('\n');
  const blocks = fencedBlocks(text, guide);
  const out: GuideExample[] = [];
  let last: GuideExample | undefined;
  let lastEnd = -1;
  for (const b of blocks) {
    const lang = b.info.split(/\s+/)[0] ?? '';
    if (b.info === 'text output') {
      const between = lines.slice(lastEnd, b.line - 1);
      if (!last || last.output !== undefined || between.some((l) => l.trim() !== '')) {
        throw new Error(`${guide}:${b.line}: a \`text output\` block must follow a \`ts run\` or \`sh run\` block directly`);
      }
      last.output = b.code;
      last = undefined;
      continue;
    }
    last = undefined;
    if (b.info === 'ts run' || b.info === 'ts browser') {
      last = { guide, line: b.line, kind: b.info === 'ts run' ? 'run' : 'browser', code: b.code };
    } else if (b.info === 'sh run') {
      last = { guide, line: b.line, kind: 'sh', code: b.code };
    } else if (['ts', 'typescript', 'js', 'javascript', 'tsx', 'mjs'].includes(lang)) {
      throw new Error(`${guide}:${b.line}: a \`${b.info}\` block: every TypeScript example is \`ts run\` or \`ts browser\``);
    }
    if (last) out.push(last);
    lastEnd = b.endLine;
  }
  return out;
}

/**
 * The words of one command line, as a POSIX shell splits them (single and double quotes, backslash escapes; no
 * expansions).
 * @throws Error for an unclosed quote.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const j = line.indexOf("'", i + 1);
      if (j < 0) throw new Error(`unclosed ' in ${line}`);
      cur += line.slice(i + 1, j);
      i = j;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1]!)) j++;
        cur += line[j];
      }
      if (j >= line.length) throw new Error(`unclosed " in ${line}`);
      i = j;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (c === ' ' || c === '\t') {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

/** A local HTTP server of a directory's files, with single range requests (suffix ranges included), as a CDN serves. */
export async function rangeServer(root: string, extra: Record<string, { body: Uint8Array; type: string }> = {}): Promise<{ base: string; close(): Promise<void>; requests: string[] }> {
  const requests: string[] = [];
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`${req.method} ${url.pathname}${req.headers.range ? ` ${req.headers.range}` : ''}`);
    let pathname = decodeURIComponent(url.pathname);
    let body: Uint8Array | undefined;
    let type = 'application/octet-stream';
    const own = extra[pathname];
    if (own) {
      body = own.body;
      type = own.type;
    } else {
      if (pathname.endsWith('/')) pathname += 'index.html';
      const file = path.join(root, pathname);
      if (file.startsWith(root + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()) {
        body = fs.readFileSync(file);
        type = types[path.extname(file)] ?? type;
      }
    }
    if (!body) return void res.writeHead(404).end();
    const size = body.length;
    const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (!m || (m[1] === '' && m[2] === '')) {
      return void res.writeHead(200, { 'Content-Type': type, 'Content-Length': size, 'Accept-Ranges': 'bytes' }).end(req.method === 'HEAD' ? undefined : body);
    }
    const start = m[1] === '' ? Math.max(0, size - Number(m[2])) : Number(m[1]);
    const end = m[1] === '' || m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (start > end) return void res.writeHead(416, { 'Content-Range': `bytes */${size}` }).end();
    res.writeHead(206, { 'Content-Type': type, 'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Accept-Ranges': 'bytes' });
    res.end(req.method === 'HEAD' ? undefined : body.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
