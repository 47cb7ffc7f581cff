/**
 * What an entry's initial load holds, module by module: `node tools/bundle-size/analyze.mjs reader-snappy [--all]`.
 *
 * The entry is bundled as `bundle-size.mjs` bundles it (esbuild, minified, code splitting), with a source map. Every
 * byte of the initial-load output files is attributed to the source module the map places it in (bytes the map does
 * not place, esbuild's own glue, count as `(runtime)`). Per module it prints:
 * - `min`: minified bytes in the initial load;
 * - `gz alone`: gzip -9 of the module's bytes on their own (an upper bound of what it costs);
 * - `gz saved`: how much smaller the gzip -9 of the initial load gets when the module's bytes are cut out of it — the
 *   marginal cost, what moving the module to a lazy chunk would save (the sum over modules is less than the total:
 *   modules compress against each other).
 *
 * The lazy chunks are listed after, one line each with the modules they hold. `--all` lists every module (default:
 * those over 0.1% of the minified load).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildEntry } from './bundle-size.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_VALUE = new Map([...B64].map((c, i) => [c, i]));

/**
 * Decodes a source map's `mappings` into, per generated line, the segments [column, source index] (source -1 for a
 * segment that maps nowhere).
 * @param {string} mappings
 * @returns {Array<Array<[number, number]>>}
 */
function decodeMappings(mappings) {
  const lines = [];
  let source = 0;
  for (const line of mappings.split(';')) {
    const segs = [];
    let col = 0;
    for (const seg of line.split(',')) {
      if (seg === '') continue;
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const ch of seg) {
        const d = B64_VALUE.get(ch);
        if (d === undefined) throw new Error(`analyze: bad source map character '${ch}'`);
        value += (d & 31) << shift;
        if (d & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      col += fields[0];
      if (fields.length >= 4) {
        source += fields[1];
        segs.push([col, source]);
      } else segs.push([col, -1]);
    }
    lines.push(segs);
  }
  return lines;
}

/**
 * Splits an output file's text into the pieces each source module produced.
 * @param {string} code - the output file.
 * @param {{sources: string[], mappings: string, dir: string}} map - its source map (`dir`: where the file is).
 * @returns {Map<string, Array<[number, number]>>} [start, end) character ranges of `code` by module path (relative
 *   to the repository), `(runtime)` for unmapped ones.
 */
function piecesByModule(code, map) {
  const out = new Map();
  const add = (k, start, end) => {
    if (end <= start) return;
    const a = out.get(k);
    if (a) a.push([start, end]);
    else out.set(k, [[start, end]]);
  };
  const lines = code.split('\n');
  const segs = decodeMappings(map.mappings);
  let lineStart = 0;
  for (let l = 0; l < lines.length; l++) {
    const text = lines[l];
    const s = segs[l] ?? [];
    let at = 0;
    let who = '(runtime)';
    for (const [col, src] of s) {
      add(who, lineStart + at, lineStart + col);
      at = col;
      who = src < 0 ? '(runtime)' : path.relative(root, path.resolve(map.dir, map.sources[src]));
    }
    const end = lineStart + text.length + (l < lines.length - 1 ? 1 : 0);
    add(who, lineStart + at, end);
    lineStart = end;
  }
  return out;
}

/** The text with the given [start, end) ranges cut out. */
function cutOut(text, ranges) {
  let out = '';
  let at = 0;
  for (const [s, e] of [...ranges].sort((a, b) => a[0] - b[0])) {
    out += text.slice(at, s);
    at = e;
  }
  return out + text.slice(at);
}

const gz = (s) => gzipSync(Buffer.from(s), { level: 9 }).length;

/**
 * Bundles an entry and attributes its initial load to modules.
 * @param {string} entry - entry file.
 * @returns {Promise<{ min: number, gz: number, modules: Array<{ module: string, min: number, gzAlone: number, gzSaved: number }>, lazy: Array<{ file: string, min: number, gz: number, modules: string[] }> }>}
 */
export async function analyzeEntry(entry) {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-analyze-'));
  try {
    const { metafile, initial } = await buildEntry(entry, outdir, { sourcemap: true });
    const outputs = metafile.outputs;
    // every initial output file's text, split by module
    const texts = [];
    const byModule = new Map();
    for (const o of initial) {
      const file = path.resolve(process.cwd(), o);
      const code = fs.readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n');
      const map = JSON.parse(fs.readFileSync(`${file}.map`, 'utf8'));
      map.dir = path.dirname(file);
      const t = texts.push(code) - 1;
      for (const [k, ranges] of piecesByModule(code, map)) {
        const m = byModule.get(k) ?? new Map();
        m.set(t, ranges);
        byModule.set(k, m);
      }
    }
    const total = texts.map(gz).reduce((a, b) => a + b, 0);
    const min = texts.map((t) => Buffer.byteLength(t)).reduce((a, b) => a + b, 0);
    const modules = [];
    for (const [module, byText] of byModule) {
      let own = '';
      for (const [t, ranges] of byText) for (const [s, e] of ranges) own += texts[t].slice(s, e);
      // the load without this module's pieces
      const without = texts.map((text, t) => gz(byText.has(t) ? cutOut(text, byText.get(t)) : text)).reduce((a, b) => a + b, 0);
      modules.push({ module, min: Buffer.byteLength(own), gzAlone: gz(own), gzSaved: total - without });
    }
    modules.sort((a, b) => b.gzSaved - a.gzSaved || b.min - a.min);
    const lazy = Object.keys(outputs)
      .filter((o) => o.endsWith('.js') && !initial.has(o))
      .map((o) => {
        const bytes = fs.readFileSync(path.resolve(process.cwd(), o));
        return { file: path.basename(o), min: bytes.length, gz: gzipSync(bytes, { level: 9 }).length, modules: Object.keys(outputs[o].inputs).map((k) => path.relative(root, path.resolve(process.cwd(), k))) };
      });
    return { min, gz: total, modules, lazy };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const name = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'reader-snappy';
  const which = process.argv.includes('--hyparquet') ? 'hyparquet' : 'ours';
  const r = await analyzeEntry(path.join(here, 'entries', which, `${name}.js`));
  const kb = (n) => (n / 1024).toFixed(1);
  console.log(`${name} (${which}) initial load: ${r.min} B min (${kb(r.min)} KB), ${r.gz} B gzip -9 (${kb(r.gz)} KB)`);
  console.log(`${'min'.padStart(8)} ${'gz alone'.padStart(9)} ${'gz saved'.padStart(9)}  module`);
  const all = process.argv.includes('--all');
  let rest = { n: 0, min: 0 };
  for (const m of r.modules) {
    if (!all && m.min < r.min / 1000) {
      rest = { n: rest.n + 1, min: rest.min + m.min };
      continue;
    }
    console.log(`${String(m.min).padStart(8)} ${String(m.gzAlone).padStart(9)} ${String(m.gzSaved).padStart(9)}  ${m.module}`);
  }
  if (rest.n > 0) console.log(`${String(rest.min).padStart(8)} ${''.padStart(9)} ${''.padStart(9)}  (${rest.n} smaller modules)`);
  for (const c of r.lazy) console.log(`lazy ${c.file}: ${c.min} B min, ${c.gz} B gzip: ${c.modules.join(', ')}`);
}
