/**
 * A `_metadata` summary older than a data file it names is not trusted: a file rewritten after the summary was
 * written, to the very same size (so that the listing's paths and sizes still agree), is read through its own footer.
 * Trusting the summary there read the new bytes with the old footer and statistics: a filter the new values match
 * skipped the file by the old statistics, and the read returned nothing.
 */
import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { field, writeParquet, type WriterOptions } from '@parquetry/parquet-writer';
import { memoryStore, openDataset as openStore } from '../src/index.js';
import { directoryStore, openDataset, writeDataset } from '../src/node.js';

const codecs = builtinCodecs();
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const schema = { id: field.int32({ required: true }), v: field.int32({ required: true }) };
// fixed-width values, no dictionary, no compression: other values of the same widths make a file of the same size
const layout: WriterOptions = { compression: 'UNCOMPRESSED', dictionary: false, codecs };
const filter = { column: 'v', op: '>=', value: 30 } as const;

describe('a data file modified after _metadata', () => {
  test('rewritten to the same size: the summary is ignored, naming the file, and the read sees the new values', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pq-summary-mtime-'));
    dirs.push(dir);
    const rows = [{ id: 1, v: 10 }, { id: 2, v: 20 }, { id: 3, v: 11 }, { id: 4, v: 21 }];
    await writeDataset(rows, dir, { schema, ...layout, maxRowsPerFile: 2, summary: true });
    const fresh = await openDataset(dir, { codecs });
    expect([fresh.summary, fresh.summaryIgnored]).toEqual(['metadata', undefined]);

    // part-0 rewritten with the same layout and other values, then dated after _metadata
    const target = path.join(dir, 'part-0.parquet');
    const before = (await stat(target)).size;
    const bytes = await writeParquet([{ id: 1, v: 30 }, { id: 2, v: 40 }], { schema, ...layout });
    expect(bytes.length).toBe(before);
    await writeFile(target, bytes);
    const summaryTime = (await stat(path.join(dir, '_metadata'))).mtime;
    const later = new Date(summaryTime.getTime() + 10_000);
    await utimes(target, later, later);

    // the listing gives the times
    const listed = await directoryStore(dir).list();
    expect(Math.abs(listed.find((f) => f.path === 'part-0.parquet')!.modified! - later.getTime())).toBeLessThan(1);
    expect(typeof listed.find((f) => f.path === '_metadata')?.modified).toBe('number');

    const ds = await openDataset(dir, { codecs });
    expect(ds.summary).toBe('common');
    expect(ds.summaryIgnored?.reason).toBe('files modified');
    expect(ds.summaryIgnored?.message).toMatch(/^_metadata is stale: 1 data file modified after it \(first 'part-0\.parquet', modified .*, \d+ ms after _metadata\)/);
    expect(await ds.readRows({ filter })).toEqual([{ id: 1, v: 30 }, { id: 2, v: 40 }]);
    expect(await ds.readRows()).toEqual([{ id: 1, v: 30 }, { id: 2, v: 40 }, { id: 3, v: 11 }, { id: 4, v: 21 }]);
  });

  test('files dated before or with _metadata keep the one-request plan', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pq-summary-mtime-'));
    dirs.push(dir);
    await writeDataset([{ id: 1, v: 1 }, { id: 2, v: 2 }], dir, { schema, ...layout, maxRowsPerFile: 1, summary: true });
    // part-0 with _metadata's time (as a file system gives it back: to the millisecond, give or take its rounding)
    const t = (await stat(path.join(dir, '_metadata'))).mtimeMs / 1000;
    await utimes(path.join(dir, 'part-0.parquet'), t, t);
    await utimes(path.join(dir, 'part-1.parquet'), t - 60, t - 60);
    const ds = await openDataset(dir, { codecs });
    expect([ds.summary, ds.summaryIgnored?.message]).toEqual(['metadata', undefined]);
  });

  test('the memory store dates its files: one replaced after _metadata is seen', async () => {
    const store = memoryStore();
    const { writeDataset: write } = await import('../src/index.js');
    await write([{ id: 1, v: 10 }, { id: 2, v: 20 }], store, { schema, ...layout, summary: true });
    expect((await openStore(store, { codecs })).summary).toBe('metadata');
    await new Promise((r) => setTimeout(r, 5));
    store.files.set('part-0.parquet', await writeParquet([{ id: 1, v: 30 }, { id: 2, v: 40 }], { schema, ...layout }));
    const ds = await openStore(store, { codecs });
    expect([ds.summary, ds.summaryIgnored?.reason]).toEqual(['common', 'files modified']);
    expect(await ds.readRows({ filter })).toEqual([{ id: 1, v: 30 }, { id: 2, v: 40 }]);
    // files given together (a copy of a dataset) are dated together: the summary is trusted
    const copy = memoryStore(new Map([...(await (async () => {
      const s = memoryStore();
      await write([{ id: 1, v: 10 }], s, { schema, ...layout, maxRowsPerFile: 1, summary: true });
      return s;
    })()).files].reverse()));
    expect([(await openStore(copy, { codecs })).summary, new Set((await copy.list()).map((f) => f.modified)).size]).toEqual(['metadata', 1]);
  });
});
