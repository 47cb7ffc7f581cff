/**
 * `fetchOptionRules`: the option list `fetchSource` checks, exported as the other entry points' lists are
 * (`openOptionRules`, `readOptionRules`, `batchOptionRules`), naming every option of `FetchSourceOptions`.
 */
import { expect, test } from 'vitest';
import { fetchOptionRules, fetchSource, openOptionRules, type FetchSourceOptions } from '@parquetry/parquet-reader';
import { typedError } from './helpers.js';

test('fetchOptionRules names every FetchSourceOptions option, and fetchSource checks against it', async () => {
  // a record with every option of the type: the compiler fails this test when an option is added without its rule
  const every: Record<keyof FetchSourceOptions, true> = {
    byteLength: true,
    headers: true,
    fetch: true,
    tailGuess: true,
    signal: true,
    timeout: true,
    retries: true,
    retryDelay: true,
    maxRetryDelay: true,
    maxWholeBody: true,
    detectChanges: true,
    checkMagic: true,
  };
  expect(Object.keys(fetchOptionRules).sort()).toEqual(Object.keys(every).sort());
  expect(Object.keys(openOptionRules)).not.toContain('retries');
  // a misspelt option is refused before any request, naming the list's nearest
  const e = await typedError(() => fetchSource('http://127.0.0.1:9/x.parquet', { retrys: 2 } as FetchSourceOptions));
  expect(e.code).toBe('INVALID_OPTION');
  expect(e.message).toContain('retries');
  // a value of the wrong kind for a rule with a kind
  const k = await typedError(() => fetchSource('http://127.0.0.1:9/x.parquet', { detectChanges: 'yes' } as unknown as FetchSourceOptions));
  expect(k.code).toBe('INVALID_OPTION');
});
