// A dataset directory holding symbolic links (a Hugging Face cache snapshot is a folder of links to blobs): links to
// files and to directories are followed, as DuckDB's read_parquet('dir/**/*.parquet') follows them; a link back up
// the tree is walked once; a broken link is left out (QA helper-84 F16: links were skipped, so `count` gave 500 rows
// of 1,000 and a folder of links alone was NO_FILES).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, test } from 'vitest';
import { field, writeParquet } from '@parquetry/parquet-writer';
import { openDataset } from '../src/node.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-dataset-links-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const schema = { id: field.int32({ required: true }) };
const file = (from: number) => writeParquet(Array.from({ length: 500 }, (_, i) => ({ id: from + i })), { schema, compression: 'UNCOMPRESSED' });

describe('symbolic links in a dataset directory', () => {
  test('links to files and directories are read, as DuckDB reads them; a cycle and a broken link do not break the listing', async () => {
    const blobs = path.join(dir, 'blobs');
    fs.mkdirSync(path.join(blobs, 'more'), { recursive: true });
    fs.writeFileSync(path.join(blobs, 'b1'), await file(500));
    fs.writeFileSync(path.join(blobs, 'more', 'b2.parquet'), await file(1000));
    const ds = path.join(dir, 'ds');
    fs.mkdirSync(ds);
    fs.writeFileSync(path.join(ds, 'a.parquet'), await file(0));
    fs.symlinkSync(path.join(blobs, 'b1'), path.join(ds, 'b.parquet'));
    fs.symlinkSync(path.join(blobs, 'more'), path.join(ds, 'more'));
    fs.symlinkSync('.', path.join(ds, 'loop')); // a cycle: ds/loop/loop/…
    fs.symlinkSync(path.join(dir, 'nowhere.parquet'), path.join(ds, 'broken.parquet'));

    const ours = await openDataset(ds);
    const ids = (await ours.readRows({ columns: ['id'] })).map((r) => r['id'] as number).sort((a, b) => a - b);
    // a.parquet, b.parquet (a link to a file), more/b2.parquet (through a link to a directory); loop/ is the dataset
    // itself (not walked again)
    const con = await (await DuckDBInstance.create(':memory:')).connect();
    const duckIds = (await con.runAndReadAll(`select id from read_parquet(['${ds}/a.parquet', '${ds}/b.parquet', '${ds}/more/*.parquet']) order by id`)).getRows().map((r) => Number(r[0]));
    expect(duckIds.length).toBe(1500);
    expect(ids).toEqual(duckIds);
    expect(ours.files.map((f) => f.path).sort()).toEqual(['a.parquet', 'b.parquet', 'more/b2.parquet']);
  });

  test('a folder of links only is a dataset', async () => {
    const only = path.join(dir, 'only');
    fs.mkdirSync(only);
    const real = path.join(dir, 'real.parquet');
    fs.writeFileSync(real, await file(7));
    fs.symlinkSync(real, path.join(only, 'x.parquet'));
    const ds = await openDataset(only);
    expect((await ds.readRows()).length).toBe(500);
  });
});
