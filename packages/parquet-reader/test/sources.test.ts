import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { bufferSource, fetchSource, openParquet, readRanges } from '@parquetry/parquet-reader';
import { fileSource } from '@parquetry/parquet-reader/node';
import { readBytes, repo, typedError } from './helpers.js';

const samplePath = path.join(repo, 'fixtures/sample/sample.parquet');
const sample = readBytes(samplePath);

describe('HTTP range requests', () => {
  let server: http.Server;
  let url = '';
  const log: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      log.push(`${req.method} ${req.headers.range ?? ''}`);
      if (req.method === 'HEAD') {
        res.writeHead(200, { 'content-length': sample.length, 'accept-ranges': 'bytes' });
        return res.end();
      }
      const m = /^bytes=(\d*)-(\d+)$/.exec(req.headers.range ?? '');
      if (!m) {
        res.writeHead(200, { 'content-length': sample.length });
        return res.end(Buffer.from(sample));
      }
      // a suffix range (bytes=-N) is the last N bytes
      const start = m[1] === '' ? Math.max(0, sample.length - Number(m[2])) : Number(m[1]);
      const end = m[1] === '' ? sample.length - 1 : Math.min(Number(m[2]), sample.length - 1);
      res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${sample.length}`, 'content-length': end - start + 1 });
      res.end(Buffer.from(sample.subarray(start, end + 1)));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sample.parquet`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  test('the footer costs one suffix range request (no HEAD); a projection fetches only its chunks, coalesced', async () => {
    log.length = 0;
    // a tail guess below the file size, so that the columns are not in the tail
    const src = await fetchSource(url, { tailGuess: 4096 });
    expect(log).toEqual(['GET bytes=-4096']);
    const file = await openParquet(src, { codecs: builtinCodecs(), tailGuess: 4096 });
    expect(log.length).toBe(1);
    log.length = 0;
    const rows = await file.readRows({ columns: ['id', 'name'] });
    expect(rows.length).toBe(1000);
    expect(rows[999]).toEqual({ id: 999n, name: 'name-5' });
    // id and name are adjacent chunks: one request
    expect(log.length).toBe(1);
    const [, range] = log[0]!.split(' ');
    const [a, b] = range!.slice(6).split('-').map(Number);
    const md = file.metadata.row_groups[0]!.columns;
    expect(a).toBe(md[0]!.meta_data!.dictionary_page_offset ?? md[0]!.meta_data!.data_page_offset);
    expect(b! - a! + 1).toBeLessThan(sample.length / 2);
  });

  test('a small tail guess costs exactly one more request', async () => {
    log.length = 0;
    const file = await openParquet(await fetchSource(url, { byteLength: sample.length }), { tailGuess: 16 });
    expect(log.length).toBe(2);
    expect(file.numRows).toBe(1000);
  });

  test('a server that ignores ranges: the whole body kept (up to maxWholeBody), else a typed error', async () => {
    const ignoring = ((u: string, init?: RequestInit) => fetch(u, { ...init, headers: {} })) as typeof fetch;
    const src = await fetchSource(url, { byteLength: sample.length, fetch: ignoring });
    expect(await src.read(10, 20)).toEqual(sample.subarray(10, 20));
    const refused = await fetchSource(url, { byteLength: sample.length, fetch: ignoring, maxWholeBody: 1000 });
    const e = await typedError(() => refused.read(10, 20));
    expect(e.code).toBe('RANGE_NOT_SUPPORTED');
  });
});

describe('other sources', () => {
  test('fileSource reads by position', async () => {
    const src = await fileSource(samplePath);
    try {
      const file = await openParquet(src, { codecs: builtinCodecs() });
      const rows = await file.readRows({ columns: ['rec'], rowStart: 10, rowEnd: 12 });
      expect(rows).toEqual([{ rec: { a: 10n, b: 'x10' } }, { rec: { a: 11n, b: 'x11' } }]);
    } finally {
      await src.close();
    }
  });

  test('readRanges merges close ranges and returns each in the order asked', async () => {
    const calls: [number, number][] = [];
    const base = bufferSource(sample);
    const src = { byteLength: base.byteLength, read: (s: number, e: number) => (calls.push([s, e]), base.read(s, e)) };
    const out = await readRanges(src, [{ start: 500, end: 510 }, { start: 0, end: 10 }, { start: 20, end: 30 }, { start: 200000, end: 200001 }].filter((r) => r.end <= sample.length), 100);
    // 0-10 and 20-30 are 10 bytes apart: one request; 500-510 is 470 bytes further: a second one
    expect(calls).toEqual([[0, 30], [500, 510]]);
    expect(out[0]).toEqual(sample.subarray(500, 510));
    expect(out[2]).toEqual(sample.subarray(20, 30));
  });

  test('reads outside the source are typed errors', async () => {
    expect((await typedError(() => bufferSource(sample).read(0, sample.length + 1))).code).toBe('OUT_OF_BOUNDS');
  });
});
