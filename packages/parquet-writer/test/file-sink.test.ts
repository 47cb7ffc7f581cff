// The Node file sink when the finished file cannot be put in place: close() rejects a ParquetError CANNOT_CREATE naming
// the final path (the Node error as its cause), and no temporary file is left behind. Also: the temporary file cannot
// be created, the file to append to cannot be opened, and calls after close or abort. (Writes the disk refuses:
// file-sink-io.test.ts.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { rejection } from './rejection.js';
import { createWriter, field } from '../src/index.js';
import { appendFileSink, fileSink } from '../src/node.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-file-sink-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('file sink failures', () => {
  test('the target is a directory: close() rejects CANNOT_CREATE naming it, the temporary file is removed (failed before: a raw EISDIR naming the temporary path, which stayed)', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'd-'));
    const target = path.join(dir, 'target');
    fs.mkdirSync(target);
    const sink = await fileSink(target, { sync: false });
    const w = createWriter(sink, { schema: { id: field.int32() } });
    await w.write([{ id: 1 }, { id: 2 }]);
    const e = await rejection(w.close());
    expect(e.code).toBe('CANNOT_CREATE');
    expect(e.message).toContain(`cannot create '${target}'`);
    expect(e.message).not.toContain('.tmp');
    expect((e.cause as { code?: string }).code).toBe('EISDIR');
    expect(fs.readdirSync(dir)).toEqual(['target']);
    expect(fs.readdirSync(target)).toEqual([]);
    expect(fs.existsSync(sink.tempPath)).toBe(false);
    // the writer is failed: later calls reject, abort does nothing more
    expect((await rejection(w.write([{ id: 3 }]))).code).toBe('WRITER_FAILED');
    await w.abort();
    expect(fs.readdirSync(dir)).toEqual(['target']);
  });

  test('the same with sync on (the default): the fsync passes, the rename fails, nothing is left', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'd-'));
    const target = path.join(dir, 'target');
    fs.mkdirSync(target);
    const w = createWriter(await fileSink(target), { schema: { id: field.int32() } });
    await w.write([{ id: 1 }]);
    const e = await rejection(w.close());
    expect(e.code).toBe('CANNOT_CREATE');
    expect(e.message).toMatch(/renaming the temporary file/);
    expect(fs.readdirSync(dir)).toEqual(['target']);
  });

  test('a missing parent directory: fileSink rejects CANNOT_CREATE naming the target, the ENOENT as its cause (failed before: a raw ENOENT naming the temporary path)', async () => {
    const target = path.join(tmp, 'no-such-dir', 'o.parquet');
    const e = await rejection(fileSink(target));
    expect(e.code).toBe('CANNOT_CREATE');
    expect(e.message).toMatch(/^parquet-writer: cannot create '.*o\.parquet': ENOENT: /);
    expect(e.message).toContain(`'${target}'`);
    expect(e.message).not.toContain('.tmp');
    expect((e.cause as { code?: string }).code).toBe('ENOENT');
    expect(fs.existsSync(path.join(tmp, 'no-such-dir'))).toBe(false);
  });

  test('appending to a file that cannot be opened or read: CANNOT_OPEN naming it, the Node error as its cause (failed before: a raw ENOENT / EISDIR)', async () => {
    const missing = path.join(tmp, 'missing.parquet');
    const e = await rejection(appendFileSink(missing));
    expect(e.code).toBe('CANNOT_OPEN');
    expect(e.message).toBe(`parquet-writer: cannot open '${missing}' to append to it: ENOENT: no such file or directory`);
    expect((e.cause as { code?: string }).code).toBe('ENOENT');
    const dir = fs.mkdtempSync(path.join(tmp, 'd-'));
    const e2 = await rejection(appendFileSink(dir));
    expect(e2.code).toBe('CANNOT_OPEN');
    expect(e2.message).toMatch(/^parquet-writer: cannot open '.*' to append to it: EISDIR: /);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('calls after close or abort: write() after close() rejects WRITER_CLOSED; write() and close() after abort() reject WRITER_FAILED and leave nothing (failed before: a TypeError, and close() after abort() resolved)', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'd-'));
    const closed = await fileSink(path.join(dir, 'a.parquet'), { sync: false });
    await closed.write(new Uint8Array([1, 2, 3]));
    await closed.close();
    await closed.close(); // idempotent
    expect((await rejection(closed.write(new Uint8Array(1)))).code).toBe('WRITER_CLOSED');
    expect(fs.readFileSync(path.join(dir, 'a.parquet'))).toEqual(Buffer.from([1, 2, 3]));
    const aborted = await fileSink(path.join(dir, 'b.parquet'), { sync: false });
    await aborted.write(new Uint8Array([1, 2, 3]));
    await aborted.abort();
    await aborted.abort(); // idempotent
    const w = await rejection(aborted.write(new Uint8Array(1)));
    expect(w.code).toBe('WRITER_FAILED');
    expect(w.message).toContain(`'${path.join(dir, 'b.parquet')}' after it was aborted`);
    expect((await rejection(aborted.close())).code).toBe('WRITER_FAILED');
    expect(fs.readdirSync(dir)).toEqual(['a.parquet']);
    // abort() and a second close() while a close is under way: the close finishes, both settle with it
    const racing = await fileSink(path.join(dir, 'c.parquet'));
    await racing.write(new Uint8Array([4, 5]));
    await Promise.all([racing.close(), racing.abort(), racing.close()]);
    expect(fs.readFileSync(path.join(dir, 'c.parquet'))).toEqual(Buffer.from([4, 5]));
    expect(fs.readdirSync(dir).sort()).toEqual(['a.parquet', 'c.parquet']);
  });
});
