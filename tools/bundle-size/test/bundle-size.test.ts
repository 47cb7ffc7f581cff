/**
 * The bundle budgets (issue 14): every entry under `entries/ours/` bundled for the browser with esbuild, its initial
 * load measured minified and gzip -9 against `budgets.json`, hyparquet's equivalent beside it. Prints the table.
 */
import { describe, expect, test } from 'vitest';
import { entryNames, formatTable, measureAll, measureEntry, readBudgets } from '../bundle-size.mjs';
import type { Row } from '../bundle-size.mjs';
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('bundle budgets', () => {
  let rows: Row[] = [];

  test('every entry has a budget and every budget an entry', () => {
    expect(Object.keys(readBudgets()).sort()).toEqual(entryNames());
  });

  test('each entry fits its budget and holds no forbidden module (prints the table)', async () => {
    rows = await measureAll();
    console.log(`bundle sizes (esbuild --bundle --format=esm --minify --platform=browser, initial load; gzip -9):\n${formatTable(rows)}`);
    for (const r of rows) {
      expect(r.budget, `${r.name}: no budget in budgets.json`).toBeDefined();
      expect(r.forbidden, `${r.name}: its initial load holds modules its budget forbids`).toEqual([]);
      expect(r.ours.gz, `${r.name}: ${r.ours.gz} gzip bytes, budget ${r.budget}`).toBeLessThanOrEqual(r.budget!);
      // a budget far above the measure hides a regression: say so (not a failure: work in progress elsewhere moves it)
      if (r.budget! > r.ours.gz * 1.15) console.warn(`${r.name}: budget ${r.budget} is over 15% above the ${r.ours.gz} bytes measured; lower it`);
    }
  }, 120_000);

  test('the measure counts what it should: a lazy import() is not in the initial load, a static one is', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-size-test-'));
    try {
      const big = `export const big = ${JSON.stringify('x'.repeat(5000).split('').map((_, i) => (i * 7919) % 1000))};`;
      fs.writeFileSync(path.join(dir, 'big.js'), big);
      fs.writeFileSync(path.join(dir, 'lazy.js'), `export async function f() { return (await import('./big.js')).big.length; }`);
      fs.writeFileSync(path.join(dir, 'eager.js'), `import { big } from './big.js'; export function f() { return big.length; }`);
      const lazy = await measureEntry(path.join(dir, 'lazy.js'));
      const eager = await measureEntry(path.join(dir, 'eager.js'));
      expect(lazy.lazyChunks).toBe(1);
      expect(lazy.min).toBeLessThan(200);
      expect(lazy.lazyMin).toBeGreaterThan(big.length / 2);
      expect(eager.lazyChunks).toBe(0);
      expect(eager.min).toBeGreaterThan(big.length / 2);
      expect(Object.keys(eager.inputs).some((k) => k.endsWith('big.js'))).toBe(true);
      expect(Object.keys(lazy.inputs).some((k) => k.endsWith('big.js'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('entries exist for both sides where hyparquet has an equivalent', () => {
    const peers = fs.readdirSync(path.join(here, '..', 'entries', 'hyparquet')).map((f) => f.replace(/\.js$/, ''));
    for (const p of peers) expect(entryNames()).toContain(p);
  });
});
