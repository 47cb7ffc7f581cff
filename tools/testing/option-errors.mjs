/**
 * Test helpers for the option checks of the packages that wrap the reader and writer (parquet-dataset, arrow,
 * parquetry): the error a call fails with, and the assertions on an unknown-option message.
 */
import { expect } from 'vitest';

/**
 * The error `run` throws or rejects with (a generator's on its first step); the test fails when it is no
 * ParquetError-shaped error (a `code` and a `message`) or when `run` succeeds.
 * @param {() => unknown} run
 * @returns {Promise<Error & { code: string }>}
 */
export async function errorOf(run) {
  try {
    const r = run();
    if (r !== null && typeof r === 'object' && Symbol.asyncIterator in r) await r.next();
    else await r;
  } catch (e) {
    expect(e).toHaveProperty('name', 'ParquetError');
    return e;
  }
  throw new Error('expected an error');
}

/**
 * Asserts an unknown-option error: its code, where, the option, the nearest name, and the list of options taken
 * (holding every name of `takes` and none of `notTaken`).
 * @param {{ code: string, message: string }} e
 * @param {string} code
 * @param {string} where
 * @param {string} name
 * @param {string | undefined} near
 * @param {readonly string[]} takes
 * @param {readonly string[]} notTaken
 */
export function expectUnknown(e, code, where, name, near, takes, notTaken) {
  expect(e.code).toBe(code);
  expect(e.message).toContain(`${where}: unknown option '${name}'${near === undefined ? '' : ` (did you mean '${near}'?)`}; it takes `);
  const list = e.message.slice(e.message.indexOf('; it takes ') + '; it takes '.length).split(', ');
  for (const t of takes) expect(list).toContain(t);
  for (const t of notTaken) expect(list).not.toContain(t);
}
