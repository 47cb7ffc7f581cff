// memorySink's arena: a writer copies page bodies into 4 MiB blocks of the sink, and `take()` after the writer's close
// hands them to later memory sinks. The files must be byte for byte those written to a sink without an arena (each
// chunk copied at write), whatever blocks were reused, interleaved or taken early, and read back as the rows.
import { CompressionCodec, builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { describe, expect, test } from 'vitest';
import { createWriter, field, memorySink, writeParquet, type ByteSink, type WriterOptions } from '../src/index.js';
import { prng } from './arbitraries.js';

const codecs = builtinCodecs();

/** A sink without an arena: each chunk copied as it arrives. */
function copyingSink(): ByteSink & { bytes(): Uint8Array } {
  const parts: Uint8Array[] = [];
  return {
    write: (c) => void parts.push(c.slice()),
    bytes: () => new Uint8Array(Buffer.concat(parts)),
  };
}

const schema = { id: field.int64(), name: field.string(), x: field.double(), hex: field.string() };
type R = { id: bigint; name: string | null; x: number; hex: string };

function rowsOf(n: number, seed: number): R[] {
  const r = prng(seed);
  return Array.from({ length: n }, (_, i) => ({
    id: BigInt(seed * 1_000_000 + i),
    name: r() < 0.2 ? null : `name-${(r() * 40) | 0}`,
    x: r() * 1000 - 500,
    hex: Array.from({ length: 32 }, () => '0123456789abcdef'[(r() * 16) | 0]).join(''),
  }));
}

const CASES: [string, WriterOptions][] = [
  ['SNAPPY, V1, checksums', { compression: 'SNAPPY' }],
  ['SNAPPY, V2, no checksums, small pages', { compression: 'SNAPPY', pageVersion: 2, checksum: false, pageSize: 4096 }],
  ['UNCOMPRESSED, V1', { compression: 'UNCOMPRESSED' }],
  ['LZ4_RAW, V1, 3 MiB pages (bodies larger than half a block get arrays of their own)', { compression: 'LZ4_RAW', pageSize: 3 << 20, dictionary: false }],
];

async function reference(rows: R[], o: WriterOptions, split = rows.length): Promise<Uint8Array> {
  const sink = copyingSink();
  const w = createWriter(sink, { schema, codecs, ...o });
  // the same write calls as the writer compared with (page boundaries may follow them)
  await w.write(rows.slice(0, split));
  if (split < rows.length) await w.write(rows.slice(split));
  await w.close();
  return sink.bytes();
}

async function expectRows(bytes: Uint8Array, rows: R[]): Promise<void> {
  const f = await openParquet(bytes, { codecs });
  expect(await f.readRows()).toEqual(rows);
}

describe.each(CASES)('memory sink arena: %s', (_label, o) => {
  test('writeParquet gives the bytes of a sink without an arena, file after file, earlier results untouched', async () => {
    const sets = [rowsOf(120_000, 1), rowsOf(3_000, 2), rowsOf(90_000, 3), rowsOf(120_000, 4)];
    const refs = await Promise.all(sets.map((rows) => reference(rows, o)));
    const got: Uint8Array[] = [];
    const copies: Uint8Array[] = [];
    for (let round = 0; round < 2; round++) {
      for (const rows of sets) {
        const b = await writeParquet(rows, { schema, codecs, ...o });
        got.push(b);
        copies.push(b.slice());
      }
    }
    got.forEach((b, i) => {
      expect(Buffer.from(b).equals(Buffer.from(refs[i % sets.length]!)), `file ${i}`).toBe(true);
      expect(Buffer.from(b).equals(Buffer.from(copies[i]!)), `file ${i} unchanged`).toBe(true);
      expect(b.byteOffset).toBe(0);
      expect(b.buffer.byteLength).toBe(b.length);
    });
    await expectRows(got[0]!, sets[0]!);
  });

  test('two writers interleaved, and a take() before close, leave every file intact', async () => {
    const a = rowsOf(20_000, 5);
    const b = rowsOf(20_000, 6);
    const ra = await reference(a, { ...o, rowGroupRows: 8_000 }, 10_000);
    const rb = await reference(b, o, 6_000);
    const sa = memorySink();
    const sb = memorySink();
    const wa = createWriter(sa, { schema, codecs, ...o, rowGroupRows: 8_000 });
    const wb = createWriter(sb, { schema, codecs, ...o });
    await wa.write(a.slice(0, 10_000));
    await wb.write(b.slice(0, 6_000));
    // the first row group is out: take it early (the blocks stay with this sink: the pages of rows 8,000-10,000 lie there)
    const head = sa.take();
    // another file written meanwhile, taking blocks from the pool
    const other = rowsOf(60_000, 7);
    expect(Buffer.from(await writeParquet(other, { schema, codecs, ...o })).equals(Buffer.from(await reference(other, o)))).toBe(true);
    await wa.write(a.slice(10_000));
    await wb.write(b.slice(6_000));
    await wa.close();
    await wb.close();
    const tail = sa.take();
    const fa = new Uint8Array(head.length + tail.length);
    fa.set(head, 0);
    fa.set(tail, head.length);
    const fb1 = sb.bytes();
    const fb2 = sb.take();
    expect(Buffer.from(fa).equals(Buffer.from(ra)), "fa").toBe(true);
    expect(Buffer.from(fb1).equals(Buffer.from(rb)), "fb1").toBe(true);
    expect(Buffer.from(fb2).equals(Buffer.from(rb))).toBe(true);
    expect(fb1).not.toBe(fb2);
    expect(sb.take().length).toBe(0);
    await expectRows(fa, a);
    await expectRows(fb2, b);
  });
});

test('bytes() keeps the sink: twice gives equal, separate arrays', async () => {
  const s = memorySink();
  const w = createWriter(s, { schema, codecs, compression: CompressionCodec.SNAPPY === 1 ? 'SNAPPY' : 'SNAPPY' });
  const rows = rowsOf(20_000, 8);
  await w.write(rows);
  await w.close();
  const x = s.bytes();
  const y = s.bytes();
  expect(x).not.toBe(y);
  expect(Buffer.from(x).equals(Buffer.from(y))).toBe(true);
  await expectRows(x, rows);
});
