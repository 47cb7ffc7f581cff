/**
 * `-f table` sizes and pads its columns in terminal columns, not UTF-16 code units (QA helper-84 F6): a CJK character
 * (East Asian Wide or Fullwidth) and an emoji take two columns, a combining mark and a zero-width joiner none, so the
 * columns line up on a terminal with CJK, emoji, flags, Hangul and decomposed accents in the cells and in the names.
 * A cut cell ends between grapheme clusters (never inside a surrogate pair, an emoji sequence or a base and its
 * combining mark) and a wide character that does not fit leaves the column a space short.
 *
 * The test measures with its own small rule for the characters it uses (CJK, kana, Hangul syllables, emoji clusters
 * two; combining marks and joiners inside a cluster nothing; the rest one) and compares whole lines, so that a table
 * measured in code units (before: `'名前テスト'` counted 5 and `'👨‍👩‍👧'` 8) fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { duckdb, lit, runWith } from './cli-helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-cli-table-width-'));
const file = path.join(dir, 'wide.parquet');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const FAMILY = '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}';
const CELLS = ['名前テスト', '😀x', `${FAMILY} family`, '🇫🇷🇩🇪', 'cafe\u0301', '한글', '❤️ ok', 'ｆｕｌｌ', 'plain'];
const LONG = [
  '漢字'.repeat(30),
  '😀'.repeat(30),
  FAMILY.repeat(30),
  'e\u0301'.repeat(60),
  `a${'漢'.repeat(40)}`,
];

beforeAll(async () => {
  const rows = [...CELLS, ...LONG].map((s, i) => `(${i + 1}, ${lit(s)}, ${lit(`z${i}`)})`).join(', ');
  await (await duckdb()).run(`COPY (SELECT id::INTEGER AS id, s AS 名前, z FROM (VALUES ${rows}) t(id, s, z)) TO ${lit(file)} (FORMAT parquet)`);
});

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Columns of text made of the test's characters (an independent, smaller rule than the CLI's table of ranges). */
function width(s: string): number {
  let w = 0;
  for (const { segment } of segmenter.segment(s)) {
    w += /[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3\uff01-\uff60]|\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(segment) ? 2 : 1;
  }
  return w;
}

/** The table on a terminal `columns` wide (55: id 5, 名前 40, z 6 for its type line and the gaps; long cells cut at 40). */
async function table(columns = 55): Promise<string[]> {
  const r = await runWith(['cat', file, '-f', 'table'], { columns });
  expect(r.err).toEqual([]);
  expect(r.code).toBe(0);
  return r.out;
}

/** The cells of a table line, split at the rule line's column places (in terminal columns). */
function cells(line: string, widths: readonly number[]): string[] {
  const out: string[] = [];
  let cell = '';
  let k = 0;
  let at = 0;
  for (const { segment } of segmenter.segment(line)) {
    const start = widths.slice(0, k).reduce((a, b) => a + b + 2, 0);
    if (k < widths.length - 1 && at >= start + widths[k]! + 2) {
      out.push(cell);
      cell = '';
      k++;
    }
    cell += segment;
    at += width(segment);
  }
  out.push(cell);
  return out;
}

describe('-f table: widths in terminal columns (QA helper-84 F6)', () => {
  test('the cells line up: each column starts where the rule line says, on every line', async () => {
    const lines = await table();
    const rule = lines[2]!;
    const widths = rule.split('  ').map((w) => w.length);
    expect(widths.length).toBe(3);
    // the long cells are cut at 40 columns (a share of the terminal)
    expect(widths).toEqual([5, 40, 6]);
    for (const line of [lines[0]!, lines[1]!, ...lines.slice(3, -1)]) {
      const c = cells(line, widths);
      expect(c.length, line).toBe(3);
      expect(width(c[0]!), line).toBe(widths[0]! + 2);
      // the middle column (left-aligned) is padded to its width exactly; the last one's text starts right after it
      expect(width(c[1]!), line).toBe(widths[1]! + 2);
      expect(c[2], line).toMatch(/^(z\d+|z|string)$/);
    }
    expect(lines[0]).toBe(`   id  名前${' '.repeat(38)}z`);
  });

  test('without a terminal width nothing is cut: the column is as wide as its widest cell in terminal columns', async () => {
    const r = await runWith(['cat', file, '-f', 'table']);
    const widths = r.out[2]!.split('  ').map((w) => w.length);
    // '漢字' × 30 and 😀 × 30 are 120 columns (before: 60 and 60, FAMILY × 30 240 code units)
    expect(widths).toEqual([5, 120, 6]);
    for (const line of r.out.slice(3, -1)) expect(width(cells(line, widths)[1]!), line).toBe(122);
  });

  test('short cells are printed whole, padded by their width', async () => {
    const lines = await table();
    const rows = lines.slice(3, -1);
    CELLS.forEach((s, i) => {
      expect(rows[i]).toBe(`${String(i + 1).padStart(5)}  ${s}${' '.repeat(40 - width(s))}  z${i}`);
    });
  });

  test('a long cell is cut between characters, wide ones counted twice, and ends in …', async () => {
    const rows = (await table()).slice(3, -1).slice(CELLS.length);
    const cut = rows.map((r) => cells(r, [5, 40, 6])[1]!.trimEnd());
    expect(cut).toEqual([
      `${'漢字'.repeat(9)}漢…`, // 19 wide characters and … = 39 columns
      `${'😀'.repeat(19)}…`,
      `${FAMILY.repeat(19)}…`, // whole families, never a joiner or a lone half
      `${'e\u0301'.repeat(39)}…`, // each e with its accent
      `a${'漢'.repeat(19)}…`, // 1 + 38 + 1 = 40
    ]);
    for (const c of cut) expect(width(c)).toBeLessThanOrEqual(40);
    for (const r of rows) expect(r).toMatch(/^(?:[^\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/);
  });

  test('a narrow terminal: the columns shrink, still measured in terminal columns', async () => {
    const lines = await table(30);
    const widths = lines[2]!.split('  ').map((w) => w.length);
    expect(widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1)).toBeLessThanOrEqual(30);
    for (const line of lines.slice(3, -1)) {
      const c = cells(line, widths);
      expect(width(c[0]!) + width(c[1]!), line).toBe(widths[0]! + widths[1]! + 4);
      expect(width(line.trimEnd()), line).toBeLessThanOrEqual(30);
    }
  });
});
