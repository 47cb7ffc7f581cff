// Arrow tables are zero-copy over the reader's arrays, and the reader decompresses pages into pooled scratch buffers
// that later reads reuse: a table (or a pruned / filtered / batched read) kept while other files are read — at once —
// must not change. Each table is serialized the moment it is returned and again after the other reads; its string,
// binary, id and boolean columns are also compared with the rows written (the independent expectation), as are the
// reader's pruned readRows (page-index row ranges, filters). Files: many types (strings, binary, UUID, FLOAT16,
// DECIMAL as fixed and binary, INT96, nullable, lists), tiny pages, V1/V2, dictionary or plain, SNAPPY / GZIP / ZSTD /
// UNCOMPRESSED.
import fc from 'fast-check';
import { Table } from 'apache-arrow';
import { describe, expect, test } from 'vitest';
import { CompressionCodec, builtinCodecs, type CodecMap } from '../../parquet-codecs/src/index.js';
import { openParquet, type ParquetFile } from '@parquetry/parquet-reader';
import { createGzipCodec } from '../../codec-gzip/src/index.js';
import { createZstdCodec, zstdDecoder } from '../../codec-zstd/src/index.js';
import { writeParquet, type Row, type SchemaSpec, type WriterOptions } from '../../parquet-writer/src/index.js';
import { readArrowBatches, readArrowTable } from '../src/index.js';

const schema: SchemaSpec = {
  id: { type: 'int64', required: true },
  s: { type: 'string' },
  bin: { type: 'binary' },
  b: { type: 'boolean' },
  u: { type: 'uuid' },
  h: { type: 'float16' },
  dec: { type: 'decimal', precision: 30, scale: 2 },
  decb: { type: 'decimal', precision: 12, scale: 3, physical: 'binary' },
  t96: { type: 'int96' },
  d: { type: 'double' },
  i: { type: 'int32' },
  ls: { type: 'list', element: { type: 'string' } },
};

const hex = (n: number): string => n.toString(16).padStart(8, '0');

/** Rows from a seed: ids in order, values of every kind (strings long and short, one-value pages likely). */
function rowsOf(n: number, seed: number, strings: readonly string[]): Row[] {
  let x = seed >>> 0;
  const rnd = (): number => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), x / 2 ** 32);
  return Array.from({ length: n }, (_, i) => {
    const pick = rnd();
    const str = strings.length > 0 && pick < 0.5 ? strings[Math.floor(rnd() * strings.length)]! : `${seed}:${i}:${'x'.repeat(Math.floor(rnd() * 40))}`;
    return {
      id: BigInt(i),
      s: pick > 0.9 ? null : str,
      bin: pick > 0.85 ? null : new TextEncoder().encode(`b${i % 17}-${seed}`),
      b: pick > 0.8 ? null : rnd() < 0.5,
      u: pick > 0.9 ? null : `${hex(seed)}-${hex(i).slice(0, 4)}-4000-8000-${hex(i)}${hex(seed).slice(0, 4)}`,
      h: pick > 0.9 ? null : Math.round(rnd() * 64) / 4,
      dec: pick > 0.9 ? null : `${Math.floor(rnd() * 1e9)}.${String(i % 100).padStart(2, '0')}`,
      decb: pick > 0.9 ? null : `${i % 1000}.${String(seed % 1000).padStart(3, '0')}`,
      t96: pick > 0.9 ? null : BigInt(seed) * 1_000_000_000n + BigInt(i),
      d: pick > 0.9 ? null : rnd() * 1e6,
      i: pick > 0.9 ? null : (seed ^ i) | 0,
      ls: pick > 0.85 ? null : Array.from({ length: i % 4 }, (_, j) => (j === 1 ? null : `${str}/${j}`)),
    };
  });
}

/** The table as a string, every value copied out (bigints, bytes and nested vectors included). */
function serialize(t: Table): string {
  return JSON.stringify(t.toArray(), (_, v: unknown) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (ArrayBuffer.isView(v)) return Array.from(v as Uint8Array);
    return v;
  });
}

const optionsArb = fc.record({
  n: fc.integer({ min: 1, max: 600 }),
  seed: fc.integer({ min: 1, max: 2 ** 30 }),
  strings: fc.array(fc.string({ maxLength: 30 }), { maxLength: 6 }),
  compression: fc.constantFrom('SNAPPY' as const, 'GZIP' as const, 'ZSTD' as const, 'UNCOMPRESSED' as const),
  pageVersion: fc.constantFrom(1 as const, 2 as const),
  dictionary: fc.boolean(),
  pageRows: fc.integer({ min: 1, max: 50 }),
  rowGroupRows: fc.integer({ min: 20, max: 400 }),
  range: fc.tuple(fc.nat(), fc.nat()),
  batchSize: fc.integer({ min: 1, max: 97 }),
});
type Opts = typeof optionsArb extends fc.Arbitrary<infer T> ? T : never;

describe('Arrow tables and pruned reads stay valid while other reads reuse the decompression buffers', async () => {
  const zstd = await createZstdCodec();
  const writeCodecs: CodecMap = { ...builtinCodecs(), [CompressionCodec.GZIP]: createGzipCodec(), [CompressionCodec.ZSTD]: zstd };
  const readCodecs: CodecMap = { ...builtinCodecs(), [CompressionCodec.GZIP]: createGzipCodec(), [CompressionCodec.ZSTD]: zstdDecoder };

  async function make(o: Opts): Promise<{ file: ParquetFile; rows: Row[] }> {
    const rows = rowsOf(o.n, o.seed, o.strings);
    const options: WriterOptions = { schema, codecs: writeCodecs, compression: o.compression, pageVersion: o.pageVersion, dictionary: o.dictionary, pageRows: o.pageRows, rowGroupRows: o.rowGroupRows };
    return { file: await openParquet(await writeParquet(rows, options), { codecs: readCodecs }), rows };
  }

  /** Every kind of read of a file, each serialized as returned. */
  async function readAll(file: ParquetFile, rows: Row[], o: Opts) {
    const lo = Math.min(o.range[0] % rows.length, o.range[1] % rows.length);
    const hi = Math.max(o.range[0] % rows.length, o.range[1] % rows.length) + 1;
    const tables: [Table, string][] = [];
    const keep = (t: Table): void => void tables.push([t, serialize(t)]);
    keep(await readArrowTable(file));
    keep(await readArrowTable(file, { rowStart: lo, rowEnd: hi }));
    keep(await readArrowTable(file, { filter: { column: 'id', op: '>=', value: BigInt(lo) } }));
    for await (const b of readArrowBatches(file, { batchSize: o.batchSize })) keep(new Table(b));
    const ranged = await file.readRows({ rowStart: lo, rowEnd: hi });
    const filtered = await file.readRows({ filter: { column: 'id', op: '<', value: BigInt(hi) } });
    return { tables, lo, hi, ranged, filtered };
  }

  function check(k: Awaited<ReturnType<typeof readAll>>, rows: Row[], what: string): void {
    for (const [i, [t, before]] of k.tables.entries()) expect(serialize(t), `${what}: table ${i}`).toBe(before);
    // the whole table against the rows written
    const whole = k.tables[0]![0];
    expect(whole.numRows).toBe(rows.length);
    expect(whole.getChild('s')!.toArray(), `${what}: s`).toEqual(rows.map((r) => r.s));
    expect(Array.from(whole.getChild('id')!.toArray() as BigInt64Array), `${what}: id`).toEqual(rows.map((r) => r.id));
    expect(Array.from(whole.getChild('b')!.toArray() as ArrayLike<unknown>), `${what}: b`).toEqual(rows.map((r) => r.b));
    expect(whole.getChild('bin')!.toArray().map((v: Uint8Array | null) => (v === null ? null : Array.from(v))), `${what}: bin`).toEqual(rows.map((r) => (r.bin === null ? null : Array.from(r.bin as Uint8Array))));
    expect(k.tables[1]![0].numRows).toBe(k.hi - k.lo);
    expect(k.tables[1]![0].getChild('s')!.toArray(), `${what}: ranged s`).toEqual(rows.slice(k.lo, k.hi).map((r) => r.s));
    expect(k.tables[2]![0].numRows).toBe(rows.length - k.lo);
    expect(k.ranged, `${what}: readRows row range`).toEqual(rows.slice(k.lo, k.hi));
    expect(k.filtered, `${what}: readRows filter`).toEqual(rows.slice(0, k.hi));
  }

  test('property: kept across concurrent reads of other files', async () => {
    await fc.assert(
      fc.asyncProperty(optionsArb, optionsArb, optionsArb, async (oa, ob, oc) => {
        const [a, b, c] = await Promise.all([make(oa), make(ob), make(oc)]);
        const ka = await readAll(a.file, a.rows, oa);
        check(ka, a.rows, 'A as read');
        const [kb, kc] = await Promise.all([readAll(b.file, b.rows, ob), readAll(c.file, c.rows, oc), readAll(a.file, a.rows, oa)]);
        check(ka, a.rows, 'A after B and C');
        check(kb, b.rows, 'B');
        check(kc, c.rows, 'C');
      }),
      { numRuns: Number(process.env.PARQUETRY_PROPERTY_RUNS ?? '') || 15 },
    );
  }, 300_000);
});
