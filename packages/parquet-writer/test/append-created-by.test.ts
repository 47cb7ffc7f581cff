// Appending keeps the file's created_by: readers key their workarounds for a writer's known defects on it, for every
// row group. Before, the appended file said parquetry wrote it all, so pyarrow trusted the BYTE_ARRAY statistics of
// a parquet-mr 1.6 row group (computed in the signed byte order, PARQUET-251) that it ignores in the original file.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { afterAll, describe, expect, test } from 'vitest';
import { CREATED_BY, appendParquet, field, writeParquet } from '../src/index.js';

const codecs = builtinCodecs();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-append-cb-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const schema = { b: field.string() };
const OLD_MR = 'parquet-mr version 1.6.0 (build 6aa21f8776625b5fa6b18059cfebe7549f2e00cb)';
const createdBy = async (bytes: Uint8Array) => (await openParquet(bytes, { codecs })).metadata.created_by;

describe('appending keeps the footer created_by', () => {
  test("another writer's created_by is kept; an explicit createdBy wins; a new file has ours", async () => {
    const old = await writeParquet([{ b: 'é' }, { b: 'b' }], { schema, createdBy: OLD_MR });
    const appended = await appendParquet(old, [{ b: 'z' }]);
    expect(await createdBy(appended)).toBe(OLD_MR);
    expect((await openParquet(appended, { codecs })).metadata.row_groups).toHaveLength(2);
    // an explicit createdBy still wins
    expect(await createdBy(await appendParquet(old, [{ b: 'z' }], { createdBy: 'me' }))).toBe('me');
    // a new file: ours
    expect(await createdBy(await writeParquet([{ b: 'z' }], { schema }))).toBe(CREATED_BY);
  });

  const PYTHON = process.env.PARQUETRY_PYTHON;
  test.skipIf(PYTHON === undefined)('pyarrow applies the old writer\'s statistics rule to the old row group after an append as before it (skipped without PARQUETRY_PYTHON)', async () => {
    const old = await writeParquet([{ b: 'é' }, { b: 'b' }], { schema, createdBy: OLD_MR });
    const before = path.join(tmp, 'before.parquet');
    const after = path.join(tmp, 'after.parquet');
    fs.writeFileSync(before, old);
    fs.writeFileSync(after, await appendParquet(old, [{ b: 'z' }]));
    const out = execFileSync(PYTHON!, ['-c', `
import pyarrow.parquet as pq, json, sys
res = []
for f in sys.argv[1:]:
    md = pq.ParquetFile(f).metadata
    res.append([md.created_by, md.row_group(0).column(0).statistics is not None and md.row_group(0).column(0).statistics.has_min_max, pq.read_table(f).column('b').to_pylist()])
print(json.dumps(res))
`, before, after]).toString();
    const [b, a] = JSON.parse(out) as [string, boolean, string[]][];
    expect(a![0]).toBe(OLD_MR);
    // whatever pyarrow decides for parquet-mr 1.6's BYTE_ARRAY statistics, it decides the same after the append
    expect(a![1]).toBe(b![1]);
    expect(a![2]).toEqual(['é', 'b', 'z']);
  });
});
