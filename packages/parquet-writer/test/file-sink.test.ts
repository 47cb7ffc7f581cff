// The Node file sink when the finished file cannot be put in place: close() rejects a ParquetError CANNOT_CREATE naming
// the final path (the Node error as its cause), and no temporary file is left behind. Also: the temporary file cannot
// be created, the file to append to cannot be opened, and calls after close or abort. (Writes the disk refuses:
// file-sink-io.test.ts.)
import { execFileSync } from 'node:child_process';
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
  test('the target became a directory while the file was written: close() rejects CANNOT_CREATE naming it, the temporary file is removed (failed before: a raw EISDIR naming the temporary path, which stayed)', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'd-'));
    const target = path.join(dir, 'target');
    const sink = await fileSink(target, { sync: false });
    // (a directory there already is refused by fileSink itself: see 'not a regular file' below)
    fs.mkdirSync(target);
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
    const w = createWriter(await fileSink(target), { schema: { id: field.int32() } });
    fs.mkdirSync(target);
    await w.write([{ id: 1 }]);
    const e = await rejection(w.close());
    expect(e.code).toBe('CANNOT_CREATE');
    expect(e.message).toMatch(/renaming the temporary file/);
    expect(fs.readdirSync(dir)).toEqual(['target']);
  });

  test('not a regular file (a device, a FIFO, a directory): fileSink rejects CANNOT_CREATE saying what it is, and it is left as it was (QA helper-84 F20: the rename replaced /dev/null, a FIFO, a symbolic link)', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'n-'));
    const fifo = path.join(dir, 'fifo.parquet');
    execFileSync('mkfifo', [fifo]);
    const sub = path.join(dir, 'sub');
    fs.mkdirSync(sub);
    // a character device of our own (/dev/null's numbers), where the system lets us make one (root): never the
    // system's /dev/null, which a failing run would replace
    const device = path.join(dir, 'null.parquet');
    let haveDevice = true;
    try {
      execFileSync('mknod', ['-m', '666', device, 'c', '1', '3'], { stdio: 'ignore' });
    } catch {
      haveDevice = false;
    }
    const cases: [string, string][] = [[fifo, 'a FIFO \\(named pipe\\)'], [sub, 'a directory'], ...(haveDevice ? [[device, 'a character device'] as [string, string]] : [])];
    for (const [target, kind] of cases) {
      const e = await rejection(fileSink(target));
      expect(e.code).toBe('CANNOT_CREATE');
      expect(e.message).toMatch(new RegExp(`^parquet-writer: cannot create '${target}': it is ${kind}; .*give the path of a regular file$`));
    }
    if (haveDevice) expect(fs.statSync(device).isCharacterDevice()).toBe(true);
    expect(fs.statSync(fifo).isFIFO()).toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(['fifo.parquet', ...(haveDevice ? ['null.parquet'] : []), 'sub']);
  });

  test('a symbolic link is followed: the file it leads to is written (or created), the link stays a link', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'l-'));
    const real = path.join(dir, 'real.parquet');
    fs.writeFileSync(real, 'old');
    const link = path.join(dir, 'link.parquet');
    fs.symlinkSync(real, link);
    const w = createWriter(await fileSink(link, { sync: false }), { schema: { id: field.int32() } });
    await w.write([{ id: 1 }]);
    await w.close();
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real).subarray(0, 4).toString()).toBe('PAR1');
    // a link to a file not there yet: created where it leads
    const later = path.join(dir, 'later.parquet');
    const dangling = path.join(dir, 'dangling.parquet');
    fs.symlinkSync('later.parquet', dangling);
    const w2 = createWriter(await fileSink(dangling, { sync: false }), { schema: { id: field.int32() } });
    await w2.write([{ id: 2 }]);
    await w2.close();
    expect(fs.lstatSync(dangling).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(later).subarray(0, 4).toString()).toBe('PAR1');
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
