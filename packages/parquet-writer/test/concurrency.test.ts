// Overlapping calls on one writer: write(), writeColumns(), flushRowGroup(), close() and abort() not awaited one by
// one run in call order, and the file is byte for byte the one that awaiting each call in turn writes. Read back with
// our reader and, when PARQUETRY_PYTHON is set, with pyarrow. A call after close() or after a failure rejects, and a
// failure in one of several queued calls leaves no file that looks valid.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { afterAll, describe, expect, test } from 'vitest';
import { rejection } from './rejection.js';
import { appendParquet, createWriter, field, memorySink, writableSink, writeParquet, type ByteSink, type ParquetWriter, type WriterOptions } from '../src/index.js';
import { appendFileSink, fileSink } from '../src/node.js';

const codecs = builtinCodecs();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parquetry-writer-conc-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const PYTHON = process.env.PARQUETRY_PYTHON;
if (PYTHON === undefined) console.warn('parquet-writer: PARQUETRY_PYTHON (a python with pyarrow) is not set, the pyarrow checks of overlapping writes are skipped');

const schema = { id: field.int32({ required: true }) };
const ids = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => ({ id: a + i }));
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A sink that waits `ms` in every write (a slow disk or network), keeping copies of what it was given. */
function slowSink(ms = 1): ByteSink & { parts: Uint8Array[]; calls: string[]; bytes(): Uint8Array } {
  const parts: Uint8Array[] = [];
  const calls: string[] = [];
  return {
    parts,
    calls,
    async write(c) {
      calls.push('write');
      await sleep(ms);
      parts.push(c.slice());
    },
    async close() {
      calls.push('close');
      await sleep(ms);
    },
    async abort() {
      calls.push('abort');
    },
    bytes: () => Buffer.concat(parts),
  };
}

/** The file written by awaiting each step in turn (the reference for the overlapping calls). */
async function sequential(options: WriterOptions, steps: ((w: ParquetWriter) => Promise<unknown>)[]): Promise<Uint8Array> {
  const sink = memorySink();
  const w = createWriter(sink, options);
  for (const s of steps) await s(w);
  return sink.bytes();
}

/** Rows (ids) and row group sizes as our reader sees them. */
async function ours(bytes: Uint8Array): Promise<{ ids: unknown[]; groups: number[] }> {
  const f = await openParquet(bytes, { codecs });
  return { ids: (await f.readRows()).map((r) => r.id), groups: f.metadata.row_groups.map((g) => Number(g.num_rows)) };
}

/** Rows (ids) and row group sizes as pyarrow sees them. */
function pyarrow(bytes: Uint8Array): { ids: unknown[]; groups: number[] } {
  const file = path.join(tmp, `py-${Math.random().toString(36).slice(2)}.parquet`);
  fs.writeFileSync(file, bytes);
  const out = execFileSync(PYTHON!, ['-c', `
import pyarrow.parquet as pq, json, sys
f = pq.ParquetFile(sys.argv[1])
print(json.dumps({"ids": f.read().column("id").to_pylist(), "groups": [f.metadata.row_group(i).num_rows for i in range(f.num_row_groups)]}))
`, file], { encoding: 'utf8' });
  return JSON.parse(out) as { ids: unknown[]; groups: number[] };
}

/** Checks `bytes` against the sequential file: the same bytes, the same rows for our reader and pyarrow. */
async function expectSequential(bytes: Uint8Array, reference: Uint8Array, want: { ids: number[]; groups: number[] }): Promise<void> {
  expect(await ours(reference)).toEqual(want);
  expect(await ours(bytes)).toEqual(want);
  if (PYTHON !== undefined) expect(pyarrow(bytes)).toEqual(want);
  expect(Buffer.from(bytes).equals(Buffer.from(reference))).toBe(true);
}

describe('overlapping calls run in call order', () => {
  test('two overlapping writes to the Node file sink: the file is the sequential one (failed before: the second write laid out a row group at offset 0 over the magic)', async () => {
    const options = { schema, rowGroupRows: 1000 };
    const target = path.join(tmp, 'conc.parquet');
    const w = createWriter(await fileSink(target, { sync: false }), options);
    await Promise.all([w.write(ids(0, 2500)), w.write(ids(2500, 5000))]);
    const meta = await w.close();
    expect(meta.num_rows).toBe(5000);
    const reference = await sequential(options, [(w) => w.write(ids(0, 2500)), (w) => w.write(ids(2500, 5000)), (w) => w.close()]);
    await expectSequential(new Uint8Array(fs.readFileSync(target)), reference, { ids: range(0, 5000), groups: [1000, 1000, 1000, 1000, 1000] });
    expect(fs.readdirSync(tmp).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  test('two overlapping writes to a slow sink (failed before: CORRUPT_METADATA, chunks overlapping)', async () => {
    const options = { schema, rowGroupRows: 1000 };
    const sink = slowSink();
    const w = createWriter(sink, options);
    await Promise.all([w.write(ids(0, 2500)), w.write(ids(2500, 5000))]);
    await w.close();
    const reference = await sequential(options, [(w) => w.write(ids(0, 2500)), (w) => w.write(ids(2500, 5000)), (w) => w.close()]);
    await expectSequential(sink.bytes(), reference, { ids: range(0, 5000), groups: [1000, 1000, 1000, 1000, 1000] });
  });

  test('close() while a write is pending waits for it (failed before: a footer of num_rows 1000 and no row groups)', async () => {
    const options = { schema, rowGroupRows: 1000 };
    const sink = slowSink();
    const w = createWriter(sink, options);
    const pending = w.write(ids(0, 2500));
    const meta = await w.close();
    await pending;
    expect(meta.num_rows).toBe(2500);
    expect(meta.row_groups.length).toBe(3);
    expect(sink.calls.at(-1)).toBe('close');
    const reference = await sequential(options, [(w) => w.write(ids(0, 2500)), (w) => w.close()]);
    await expectSequential(sink.bytes(), reference, { ids: range(0, 2500), groups: [1000, 1000, 500] });
  });

  test('three overlapping writes to a memory sink keep their order (failed before: rows [1,2,3,5,4])', async () => {
    const options = { schema, rowGroupRows: 3 };
    const s = memorySink();
    const w = createWriter(s, options);
    await Promise.all([w.write([{ id: 1 }, { id: 2 }]), w.write([{ id: 3 }, { id: 4 }]), w.write([{ id: 5 }])]);
    await w.close();
    const reference = await sequential(options, [(w) => w.write([{ id: 1 }, { id: 2 }]), (w) => w.write([{ id: 3 }, { id: 4 }]), (w) => w.write([{ id: 5 }]), (w) => w.close()]);
    await expectSequential(s.bytes(), reference, { ids: [1, 2, 3, 4, 5], groups: [3, 2] });
  });

  test('every kind of call, none awaited: rows, an async iterable, columns, flushRowGroup, close', async () => {
    const options = { schema, rowGroupRows: 700 };
    async function* gen(a: number, b: number) {
      for (let i = a; i < b; i++) {
        if (i % 100 === 0) await sleep(0);
        yield { id: i };
      }
    }
    const steps: ((w: ParquetWriter) => Promise<unknown>)[] = [
      (w) => w.write(ids(0, 500)),
      (w) => w.write(gen(500, 1200)),
      (w) => w.flushRowGroup(),
      (w) => w.writeColumns({ id: { kind: 'leaf', length: 300, validity: null, values: Int32Array.from(range(1200, 1500)) } as never }),
      (w) => w.write(ids(1500, 2000)),
      (w) => w.close(),
    ];
    const sink = slowSink();
    const w = createWriter(sink, options);
    await Promise.all(steps.map((s) => s(w)));
    const reference = await sequential(options, steps);
    const want = await ours(reference);
    expect(want.ids).toEqual(range(0, 2000));
    await expectSequential(sink.bytes(), reference, { ids: range(0, 2000), groups: want.groups });
  });
  test('overlapping writes appending to a file through the Node append sink: the file appendParquet gives', async () => {
    const target = path.join(tmp, 'append.parquet');
    const first = await writeParquet(ids(0, 300), { schema, rowGroupRows: 200 });
    fs.writeFileSync(target, first);
    const sink = await appendFileSink(target, { sync: false });
    const w = createWriter(sink, { append: sink.append, rowGroupRows: 200 });
    await Promise.all([w.write(ids(300, 650)), w.write(ids(650, 800)), w.close()]);
    const reference = await appendParquet(first, ids(300, 800), { rowGroupRows: 200 });
    await expectSequential(new Uint8Array(fs.readFileSync(target)), reference, { ids: range(0, 800), groups: [200, 100, 200, 200, 100] });
  });

  test('overlapping writes to a WHATWG WritableStream with backpressure (highWaterMark 1, a slow underlying sink)', async () => {
    const options = { schema, rowGroupRows: 250 };
    const parts: Uint8Array[] = [];
    const stream = new WritableStream<Uint8Array>({ async write(c) { await sleep(1); parts.push(c.slice()); } }, new CountQueuingStrategy({ highWaterMark: 1 }));
    const w = createWriter(writableSink(stream), options);
    const all = Promise.all([w.write(ids(0, 600)), w.write(ids(600, 1000)), w.flushRowGroup(), w.write(ids(1000, 1100))]);
    const meta = await w.close();
    await all;
    expect(meta.num_rows).toBe(1100);
    const reference = await sequential(options, [(w) => w.write(ids(0, 600)), (w) => w.write(ids(600, 1000)), (w) => w.flushRowGroup(), (w) => w.write(ids(1000, 1100)), (w) => w.close()]);
    await expectSequential(Buffer.concat(parts), reference, { ids: range(0, 1100), groups: [250, 250, 250, 250, 100] });
  });
});

describe('calls after close or failure reject', () => {
  test('a write or close after close() rejects WRITER_CLOSED, whether close() has resolved or is still pending', async () => {
    const sink = slowSink();
    const w = createWriter(sink, { schema });
    const first = w.write(ids(0, 10));
    const closing = w.close();
    const late = w.write(ids(10, 20));
    const again = w.close();
    expect((await closing).num_rows).toBe(10);
    await first;
    expect((await rejection(late)).code).toBe('WRITER_CLOSED');
    expect((await rejection(again)).code).toBe('WRITER_CLOSED');
    expect((await rejection(w.write(ids(20, 30)))).code).toBe('WRITER_CLOSED');
    expect((await rejection(w.writeColumns({ id: { kind: 'leaf', length: 0, validity: null, values: new Int32Array(0) } as never }))).code).toBe('WRITER_CLOSED');
    expect((await rejection(w.flushRowGroup())).code).toBe('WRITER_CLOSED');
    expect(sink.calls.filter((c) => c === 'close')).toEqual(['close']);
    expect((await ours(sink.bytes())).ids).toEqual(range(0, 10));
  });

  test('a sink failing during one of several overlapping writes: that write rejects with its error, every later call WRITER_FAILED, the sink is aborted and never closed', async () => {
    let writes = 0;
    const calls: string[] = [];
    const boom = new Error('disk full');
    const sink: ByteSink = {
      async write() {
        await sleep(1);
        if (++writes === 4) throw boom;
        calls.push('write');
      },
      close: () => void calls.push('close'),
      abort: () => void calls.push('abort'),
    };
    const w = createWriter(sink, { schema, rowGroupRows: 100 });
    const results = await Promise.allSettled([w.write(ids(0, 150)), w.write(ids(150, 300)), w.write(ids(300, 450)), w.flushRowGroup(), w.close()]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toBe(boom);
    for (const r of results.slice(2)) {
      const e = (r as PromiseRejectedResult).reason as { code: string; cause: unknown };
      expect(e.code).toBe('WRITER_FAILED');
      expect(e.cause).toBe(boom);
    }
    expect(calls.filter((c) => c === 'abort')).toEqual(['abort']);
    expect(calls).not.toContain('close');
    expect(calls.at(-1)).toBe('abort');
    expect((await rejection(w.write(ids(0, 1)))).code).toBe('WRITER_FAILED');
  });

  test('a sink failing during overlapping writes to the Node file sink leaves no file at all', async () => {
    const target = path.join(tmp, 'failing.parquet');
    const inner = await fileSink(target, { sync: false });
    let writes = 0;
    const sink: ByteSink = {
      write: (c) => (++writes === 3 ? Promise.reject(new Error('EIO')) : inner.write(c)),
      close: () => inner.close!(),
      abort: (r) => inner.abort!(r),
    };
    const w = createWriter(sink, { schema, rowGroupRows: 100 });
    const results = await Promise.allSettled([w.write(ids(0, 250)), w.write(ids(250, 500)), w.close()]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.existsSync(inner.tempPath)).toBe(false);
  });

  test('a bad value in the second of three overlapping writes: the first is written, the rest reject, close() writes no footer', async () => {
    const sink = slowSink();
    const w = createWriter(sink, { schema, rowGroupRows: 100 });
    const results = await Promise.allSettled([w.write(ids(0, 150)), w.write([{ id: 1 }, { id: 'x' }]), w.write(ids(150, 300)), w.close()]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'INVALID_VALUE' });
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'WRITER_FAILED' });
    expect((results[3] as PromiseRejectedResult).reason).toMatchObject({ code: 'WRITER_FAILED' });
    expect(sink.calls).not.toContain('close');
    expect(sink.calls.at(-1)).toBe('abort');
  });

  test('abort() while a write is in flight: no sink write after the abort, the queued calls reject, the file is removed', async () => {
    const target = path.join(tmp, 'aborted.parquet');
    const inner = await fileSink(target, { sync: false });
    const calls: string[] = [];
    const sink: ByteSink = {
      async write(c) {
        calls.push('write');
        await sleep(1);
        await inner.write(c);
      },
      close: () => (calls.push('close'), inner.close!()),
      abort: (r) => (calls.push('abort'), inner.abort!(r)),
    };
    const w = createWriter(sink, { schema, rowGroupRows: 100 });
    const writing = w.write(ids(0, 1000));
    const queued = w.write(ids(1000, 1100));
    const closing = w.close();
    await sleep(3);
    const reason = new Error('cancelled');
    await w.abort(reason);
    // the write under way stopped at its next row group (1000 rows in row groups of 100 take longer than 3 ms here)
    const stopped = await rejection(writing);
    expect(stopped.code).toBe('WRITER_ABORTED');
    expect(stopped.cause).toBe(reason);
    expect(calls.filter((c) => c === 'abort')).toEqual(['abort']);
    expect(calls.at(-1)).toBe('abort');
    expect(calls).not.toContain('close');
    expect((await rejection(queued)).code).toBe('WRITER_FAILED');
    expect((await rejection(closing)).code).toBe('WRITER_FAILED');
    expect(fs.existsSync(inner.tempPath)).toBe(false);
    expect(fs.existsSync(target)).toBe(false);
    await w.abort();
    expect(calls.filter((c) => c === 'abort')).toEqual(['abort']);
  });
});
