#!/usr/bin/env node
// The package.json metadata every publishable package carries (repository, homepage, bugs, author, engines,
// keywords, files without build info, public access) and the LICENSE copy beside it. Run
// `node tools/package-check/metadata.mjs [dir…]` after adding a package under packages/: it writes the missing
// fields and the LICENSE (of every publishable package, or of the directories named); `tools/package-check/test/package-check.test.ts` fails until they are there.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository every package points at. */
export const REPOSITORY = 'https://github.com/parquetry/parquetry';
/** The `author` of every package (the root README's License section). */
export const AUTHOR = 'The Parquetry authors';

/** Keywords by package directory; a package not listed gets the first two. */
const KEYWORDS = {
  parquetry: ['parquet', 'apache-parquet', 'reader', 'writer', 'cli', 'columnar', 'arrow'],
  'parquet-reader': ['parquet', 'apache-parquet', 'reader', 'columnar', 'http', 'range-requests'],
  'parquet-writer': ['parquet', 'apache-parquet', 'writer', 'columnar', 'streaming'],
  'parquet-codecs': ['parquet', 'apache-parquet', 'compression', 'snappy', 'lz4', 'lzo'],
  'codec-gzip': ['parquet', 'apache-parquet', 'compression', 'gzip'],
  'codec-zstd': ['parquet', 'apache-parquet', 'compression', 'zstd'],
  'codec-brotli': ['parquet', 'apache-parquet', 'compression', 'brotli'],
  'parquet-encodings': ['parquet', 'apache-parquet', 'encoding', 'rle', 'delta', 'dictionary'],
  'parquet-levels': ['parquet', 'apache-parquet', 'dremel', 'nested', 'schema'],
  'parquet-bloom': ['parquet', 'apache-parquet', 'bloom-filter', 'xxhash'],
  'parquet-crypto': ['parquet', 'apache-parquet', 'encryption', 'aes-gcm'],
  'parquet-variant': ['parquet', 'apache-parquet', 'variant', 'semi-structured'],
  'parquet-column': ['parquet', 'apache-parquet', 'column', 'statistics'],
  'thrift-compact': ['parquet', 'apache-parquet', 'thrift', 'compact-protocol'],
};

/**
 * The standard fields of a publishable package's package.json.
 * @param {string} dir - its directory under packages/
 * @param {string} name - its name
 * @param {unknown} engines - the root package.json's engines
 * @param {unknown} keywords - its current keywords (kept when they include "parquet")
 */
export function standardFields(dir, name, engines, keywords) {
  const kw = Array.isArray(keywords) && keywords.includes('parquet') ? keywords : (KEYWORDS[dir] ?? ['parquet', 'apache-parquet']);
  return {
    author: AUTHOR,
    repository: { type: 'git', url: `git+${REPOSITORY}.git`, directory: `packages/${dir}` },
    homepage: `${REPOSITORY}/tree/main/packages/${dir}#readme`,
    bugs: { url: `${REPOSITORY}/issues` },
    keywords: kw,
    engines,
    ...(name.startsWith('@') ? { publishConfig: { access: 'public' } } : {}),
  };
}

/**
 * The package.json text with the standard fields set (after `license`) and `!dist/.tsbuildinfo` in `files`.
 * @param {string} text - the current package.json
 * @param {string} dir - the package directory under packages/
 * @param {unknown} engines - the root package.json's engines
 */
export function withStandardFields(text, dir, engines) {
  const pj = JSON.parse(text);
  const std = standardFields(dir, pj.name, engines, pj.keywords);
  const out = {};
  for (const [k, v] of Object.entries(pj)) {
    if (k in std) continue;
    out[k] = v;
    if (k === 'license') Object.assign(out, std);
  }
  if (!('author' in out)) Object.assign(out, std);
  const files = Array.isArray(out.files) ? out.files : ['dist'];
  if (!files.includes('!dist/.tsbuildinfo')) files.splice(files.indexOf('dist') + 1, 0, '!dist/.tsbuildinfo');
  out.files = files;
  return `${JSON.stringify(out, null, 2)}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const engines = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).engines;
  const license = fs.readFileSync(path.join(root, 'LICENSE'));
  const only = process.argv.slice(2);
  for (const dir of fs.readdirSync(path.join(root, 'packages')).sort()) {
    if (only.length > 0 && !only.includes(dir)) continue;
    const file = path.join(root, 'packages', dir, 'package.json');
    if (!fs.existsSync(file)) continue;
    const text = fs.readFileSync(file, 'utf8');
    if (JSON.parse(text).private === true) continue;
    const next = withStandardFields(text, dir, engines);
    if (next !== text) {
      fs.writeFileSync(file, next);
      console.log(`updated packages/${dir}/package.json`);
    }
    const lic = path.join(root, 'packages', dir, 'LICENSE');
    if (!fs.existsSync(lic) || !fs.readFileSync(lic).equals(license)) {
      fs.writeFileSync(lic, license);
      console.log(`wrote packages/${dir}/LICENSE`);
    }
  }
}
