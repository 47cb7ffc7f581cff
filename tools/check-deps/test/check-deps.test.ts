import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { checkPackages, importsOf, loadPackages, type PackageInfo } from '../check-deps.js';

const packagesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../packages');

describe('package layering', () => {
  test('the workspace has no forbidden import, undeclared dependency or cycle', () => {
    const pkgs = loadPackages(packagesDir);
    expect(pkgs.map((p) => p.dir)).toContain('thrift-compact');
    expect(checkPackages(pkgs)).toEqual([]);
  });

  const pkg = (dir: string, deps: string[], specs: string[]): PackageInfo => ({
    dir,
    name: dir === 'parquetry' ? dir : `@parquetry/${dir}`,
    deps,
    imports: specs.map((spec) => ({ file: `${dir}/src/index.ts`, spec })),
  });

  test('a reader importing the writer is rejected', () => {
    const problems = checkPackages([
      pkg('parquet-reader', ['@parquetry/parquet-writer'], ['@parquetry/parquet-writer']),
      pkg('parquet-writer', [], []),
    ]);
    expect(problems.some((p) => p.includes('parquet-reader') && p.includes('parquet-writer'))).toBe(true);
  });

  test('an undeclared import, an escaping relative import and a node: import are rejected', () => {
    const problems = checkPackages([pkg('parquet-encodings', [], ['@parquetry/thrift-compact', '../../parquet-levels/src/x.js', 'node:fs']), pkg('thrift-compact', [], [])]);
    expect(problems).toHaveLength(3);
  });

  test('a lower layer importing a higher one is rejected, and cycles are found', () => {
    const problems = checkPackages([
      pkg('thrift-compact', ['@parquetry/parquet-encodings'], []),
      pkg('parquet-encodings', ['@parquetry/thrift-compact'], []),
    ]);
    expect(problems.some((p) => p.startsWith('thrift-compact: depends on'))).toBe(true);
    expect(problems.some((p) => p.startsWith('cycle:'))).toBe(true);
  });

  test('import extraction sees static, type-only, re-export and dynamic imports', () => {
    const src = `/** example: import { x } from 'in-a-comment'; */\n// import 'line-comment';\nimport { a } from './a.js';\nimport type { B } from "@parquetry/x";\nexport * from './c.js';\nconst d = await import('fflate');\nimport 'side';`;
    expect(importsOf(src)).toEqual(['./a.js', '@parquetry/x', './c.js', 'fflate', 'side']);
  });
});
