// The Node file sink when the finished file cannot be put in place: close() rejects a ParquetError CANNOT_CREATE naming
// the final path (the Node error as its cause), and no temporary file is left behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { rejection } from './rejection.js';
import { createWriter, field } from '../src/index.js';
import { fileSink } from '../src/node.js';

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
});
