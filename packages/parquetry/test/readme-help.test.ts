/**
 * The README's copy of `parquetry help convert` is what the command prints (it had drifted: no `--header`, no key
 * options, the old `--encoding` wording).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { repo, run } from './cli-helpers.js';

test('README: the help convert block equals the command output', async () => {
  const readme = fs.readFileSync(path.join(repo, 'packages/parquetry/README.md'), 'utf8');
  const marker = '`parquetry help convert`:\n\n```\n';
  const at = readme.indexOf(marker);
  expect(at).toBeGreaterThan(0);
  const block = readme.slice(at + marker.length, readme.indexOf('```', at + marker.length));
  const r = await run('help', 'convert');
  expect(r.code).toBe(0);
  expect(block).toBe(`${r.out.join('\n')}\n`);
});
