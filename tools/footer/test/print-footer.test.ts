import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const script = path.join(repo, 'tools/footer/print-footer.mjs');

// `pnpm test` builds first, so the tool runs against the built @parquetry/thrift-compact, as the README's command does
test('the README main job prints the shipped sample footer', () => {
  const out = execFileSync(process.execPath, [script], { cwd: repo, encoding: 'utf8' });
  expect(out).toContain('1000 rows');
  expect(out).toMatch(/optional group pair \(LIST\)/);
  expect(out).toMatch(/name: BYTE_ARRAY SNAPPY \[PLAIN_DICTIONARY\] 1000 values/);
});

test('a file that is not Parquet gets a typed error and exit code 1', () => {
  let status = 0;
  let stderr = '';
  try {
    execFileSync(process.execPath, [script, path.join(repo, 'README.md')], { cwd: repo, encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    const err = e as { status: number; stderr: string };
    status = err.status;
    stderr = err.stderr;
  }
  expect(status).toBe(1);
  expect(stderr).toMatch(/error \[NOT_PARQUET\]/);
});
