import { ParquetError, isParquetError } from '@parquetry/thrift-compact';
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

  test('any other failure is PART_UNAVAILABLE naming the purpose, the load error its cause; a ParquetError passes through', async () => {
    const boom = new Error('syntax error in the module');
    const e = await optionalPart(() => Promise.reject(boom), '@parquetry/parquet-bloom', 'a filter probing bloom filters')().catch((x: unknown) => x);
    expect(e).toMatchObject({ name: 'ParquetError', code: 'PART_UNAVAILABLE', message: 'parquet-reader: cannot load the part of the reader for a filter probing bloom filters (a later read tries again): syntax error in the module' });
    expect((e as Error).cause).toBe(boom);
    // a missing module that is another package is not this package missing
    const other = missing('some-other-package');
    const e2 = await optionalPart(() => Promise.reject(other), '@parquetry/parquet-bloom', 'x')().catch((x: unknown) => x);
    expect(e2).toMatchObject({ code: 'PART_UNAVAILABLE' });
    expect((e2 as Error).cause).toBe(other);
    const typed = new ParquetError('CORRUPT_PAGE', 'parquet-reader: already typed');
    await expect(optionalPart(() => Promise.reject(typed), '@parquetry/parquet-bloom', 'x')()).rejects.toBe(typed);
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
