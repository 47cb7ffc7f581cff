// The Node file sink when the disk refuses the bytes: a write, an append's copy or an append's new bytes that fail
// reject a ParquetError CANNOT_CREATE naming the final path and the step (the Node error as its cause), the temporary
// file is removed, the writer is failed (later calls WRITER_FAILED), and nothing appears at (or changes in) the
// target. The failure is real: a child process runs with a file size limit (`ulimit -f`, RLIMIT_FSIZE), so the
// kernel fails its write(2) past the limit with EFBIG, as a full disk fails it with ENOSPC — no mount, no root, no
// stand-in for the file handle. (Node ignores SIGXFSZ, so the process gets the error instead of being killed.) The
// child is this package's TypeScript source bundled with esbuild, so the test sees the code as it is now.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bundleChild } from '../../../tools/testing/workspace-plugin.mjs';
import { appendParquet, createWriter, field, memorySink } from '../src/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The child's file size limit in 512-byte blocks (POSIX sh's unit; bash's own is 1 KiB): 32 or 64 KiB. */
const LIMIT_BLOCKS = 64;

/** What the child does: `sink` writes to a bare file sink, `write` / `append` go through a writer. */
const CHILD = `
import fs from 'node:fs';
import { createWriter, field } from './src/index.js';
import { appendFileSink, fileSink } from './src/node.js';

const [mode, target] = process.argv.slice(2);
const report = (e) => (e !== null && typeof e === 'object' ? { code: e.code, message: e.message, cause: e.cause?.code } : { thrown: String(e) });
const out = {};
const schema = { id: field.int64({ required: true }), s: field.string() };
// about 1 MB of pages, far past the limit
const rows = Array.from({ length: 20000 }, (_, i) => ({ id: BigInt(i), s: 'row ' + i + ' ' + 'x'.repeat(40) }));
try {
  if (mode === 'sink') {
    const sink = await fileSink(target);
    out.tempPath = sink.tempPath;
    try {
      await sink.write(new Uint8Array(1 << 20).fill(7));
    } catch (e) {
      out.error = report(e);
    }
    out.tempLeft = fs.existsSync(sink.tempPath);
    try {
      await sink.write(new Uint8Array(8));
    } catch (e) {
      out.later = report(e);
    }
    try {
      await sink.close();
      out.closed = true;
    } catch (e) {
      out.close = report(e);
    }
  } else {
    const sink = mode === 'append' ? await appendFileSink(target) : await fileSink(target);
    out.tempPath = sink.tempPath;
    const options = { schema, rowGroupRows: 1000, compression: 'UNCOMPRESSED' };
    const w = createWriter(sink, mode === 'append' ? { ...options, append: sink.append } : options);
    try {
      await w.write(rows);
      await w.close();
      out.closed = true;
    } catch (e) {
      out.error = report(e);
    }
    out.tempLeft = fs.existsSync(sink.tempPath);
    try {
      await w.write(rows.slice(0, 1));
    } catch (e) {
      out.later = report(e);
    }
    try {
      await w.close();
    } catch (e) {
      out.close = report(e);
    }
    await w.abort();
  }
} catch (e) {
  out.error = report(e);
}
console.log(JSON.stringify(out));
`;

interface Reported {
  code?: string;
  message?: string;
  cause?: string;
  thrown?: string;
}
interface ChildOut {
  tempPath?: string;
  tempLeft?: boolean;
  closed?: boolean;
  error?: Reported;
  later?: Reported;
  close?: Reported;
}

let tmp: string;
let child: string;
beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-file-sink-io-'));
  child = path.join(tmp, 'child.mjs');
  await bundleChild({
    stdin: { contents: CHILD, loader: 'ts', resolveDir: path.resolve(here, '..'), sourcefile: 'file-sink-io-child.ts' },
  }, child);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Runs the child under the file size limit and returns what it printed. */
function runLimited(mode: 'sink' | 'write' | 'append', target: string): ChildOut {
  const r = spawnSync('sh', ['-c', `ulimit -f ${LIMIT_BLOCKS} && exec "$0" "$@"`, process.execPath, child, mode, target], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(r.signal, r.stderr).toBeNull();
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ChildOut;
}

/** A small Parquet file of `n` rows (under the limit when `n` is small). */
async function parquetFile(n: number): Promise<Uint8Array> {
  const sink = memorySink();
  const w = createWriter(sink, { schema: { id: field.int64({ required: true }), s: field.string() }, compression: 'UNCOMPRESSED' });
  await w.write(Array.from({ length: n }, (_, i) => ({ id: BigInt(i), s: `old ${i}` })));
  await w.close();
  return sink.bytes();
}

describe.skipIf(process.platform === 'win32')('file sink I/O failures (a real EFBIG past RLIMIT_FSIZE)', () => {
  test('a write the disk refuses: write() rejects CANNOT_CREATE naming the target and the step, the temporary file is removed, the writer is failed, no file appears (failed before: a raw EFBIG)', () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'w-'));
    const target = path.join(dir, 'out.parquet');
    const out = runLimited('write', target);
    expect(out.closed).toBeUndefined();
    expect(out.error?.code).toBe('CANNOT_CREATE');
    expect(out.error?.message).toMatch(new RegExp(`^parquet-writer: cannot create '${escape(target)}': EFBIG: file too large, write \\(writing the temporary file at byte \\d+\\)$`));
    expect(out.error?.cause).toBe('EFBIG');
    expect(out.tempLeft).toBe(false);
    expect(out.later?.code).toBe('WRITER_FAILED');
    expect(out.close?.code).toBe('WRITER_FAILED');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('a bare file sink: the failed write removes the temporary file itself; later write() and close() reject WRITER_FAILED with the failure as cause (failed before: a raw EFBIG, the partial temporary file left, close() renamed it into place)', () => {
    const dir = fs.mkdtempSync(path.join(tmp, 's-'));
    const target = path.join(dir, 'out.parquet');
    const out = runLimited('sink', target);
    expect(out.error?.code).toBe('CANNOT_CREATE');
    expect(out.error?.message).toContain(`cannot create '${target}': EFBIG`);
    expect(out.error?.message).not.toContain('.tmp');
    expect(out.tempLeft).toBe(false);
    expect(out.later).toMatchObject({ code: 'WRITER_FAILED', cause: 'CANNOT_CREATE' });
    expect(out.close).toMatchObject({ code: 'WRITER_FAILED', cause: 'CANNOT_CREATE' });
    expect(out.closed).toBeUndefined();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('an append whose new row groups the disk refuses: CANNOT_CREATE, the old file unchanged, no temporary file (failed before: a raw EFBIG)', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'a-'));
    const target = path.join(dir, 'old.parquet');
    const old = await parquetFile(10);
    expect(old.length).toBeLessThan(LIMIT_BLOCKS * 512);
    fs.writeFileSync(target, old);
    const out = runLimited('append', target);
    expect(out.error?.code).toBe('CANNOT_CREATE');
    expect(out.error?.message).toMatch(/\(writing the temporary file at byte \d+\)$/);
    expect(out.error?.cause).toBe('EFBIG');
    expect(out.tempLeft).toBe(false);
    expect(out.later?.code).toBe('WRITER_FAILED');
    expect(fs.readdirSync(dir)).toEqual(['old.parquet']);
    expect(new Uint8Array(fs.readFileSync(target))).toEqual(old);
  });

  test('an append whose copy of the old file the disk refuses: appendFileSink rejects CANNOT_CREATE naming the file and the copy, the partial copy removed (failed before: a raw EFBIG naming both paths)', async () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'c-'));
    const target = path.join(dir, 'big.parquet');
    // past the limit: the copy beside it cannot be made
    let big = await parquetFile(10);
    while (big.length <= LIMIT_BLOCKS * 1024) big = await appendParquet(big, Array.from({ length: 5000 }, (_, i) => ({ id: BigInt(i), s: `more ${i}` })));
    fs.writeFileSync(target, big);
    const out = runLimited('append', target);
    expect(out.tempPath).toBeUndefined();
    expect(out.error?.code).toBe('CANNOT_CREATE');
    expect(out.error?.message).toMatch(new RegExp(`^parquet-writer: cannot create '${escape(target)}': EFBIG: file too large \\(copying it to the temporary file\\)$`));
    expect(out.error?.cause).toBe('EFBIG');
    expect(fs.readdirSync(dir)).toEqual(['big.parquet']);
    expect(new Uint8Array(fs.readFileSync(target))).toEqual(big);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
