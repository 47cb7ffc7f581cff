import { isParquetError } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { isMissingPackage, loadBloomStage, loadDecryption, optionalPart } from '../src/optional.js';

const missing = (pkg: string): Error => Object.assign(new Error(`Cannot find package '${pkg}' imported from /app/node_modules/@parquetry/parquet-reader/dist/optional.js`), { code: 'ERR_MODULE_NOT_FOUND' });

describe('optional parts (crypto, bloom, variant) loaded on demand', () => {
  test('a missing package is DEPENDENCY_MISSING naming the package and the need', async () => {
    let calls = 0;
    const load = optionalPart<{ x: number }>(
      () => {
        calls++;
        return Promise.reject(missing('@parquetry/parquet-crypto'));
      },
      '@parquetry/parquet-crypto',
      'this file is encrypted: decrypting it',
    );
    const e = await load().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isParquetError(e)).toBe(true);
    expect((e as { code: string }).code).toBe('DEPENDENCY_MISSING');
    expect((e as Error).message).toContain('@parquetry/parquet-crypto');
    expect((e as Error).message).toContain('decrypting');
    expect((e as Error).message).toContain('npm install @parquetry/parquet-crypto');
    // a failed load is retried, not cached
    await expect(load()).rejects.toThrow(/DEPENDENCY_MISSING|not installed/);
    expect(calls).toBe(2);
  });

  test('a real unresolvable import is recognised as missing', async () => {
    const pkg = '@parquetry/no-such-package-for-this-test';
    const load = optionalPart(() => import(/* @vite-ignore */ pkg), pkg, 'this test');
    await expect(load()).rejects.toMatchObject({ code: 'DEPENDENCY_MISSING' });
  });

  test('any other failure passes through unchanged', async () => {
    const boom = new Error('syntax error in the module');
    await expect(optionalPart(() => Promise.reject(boom), '@parquetry/parquet-bloom', 'x')()).rejects.toBe(boom);
    // a missing module that is another package is not this package missing
    const other = missing('some-other-package');
    await expect(optionalPart(() => Promise.reject(other), '@parquetry/parquet-bloom', 'x')()).rejects.toBe(other);
  });

  test('isMissingPackage', () => {
    expect(isMissingPackage(missing('p'), 'p')).toBe(true);
    expect(isMissingPackage(new TypeError('Failed to fetch dynamically imported module: https://x/node_modules/p/index.js'), 'p')).toBe(true);
    expect(isMissingPackage(new Error('Could not resolve "p"'), 'p')).toBe(true);
    expect(isMissingPackage(new Error('p: unexpected token'), 'p')).toBe(false);
    expect(isMissingPackage('Cannot find p', 'p')).toBe(false);
    expect(isMissingPackage(null, 'p')).toBe(false);
  });

  test('the installed parts load once and give their functions', async () => {
    const a = await loadDecryption();
    expect(typeof a.openEncryptedFooter).toBe('function');
    expect(await loadDecryption()).toBe(a);
    const b = await loadBloomStage();
    expect(typeof b.readBloomFilters).toBe('function');
    expect(typeof b.bloomProbeValues).toBe('function');
  });
});
