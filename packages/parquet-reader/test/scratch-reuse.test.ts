// Buffer reuse across reads: the chunk decoder decompresses pages whose values it copies out into pooled scratch
// buffers that later pages, columns and files reuse, and decodes a whole chunk into chunk-level arrays. Nothing a
// read returned may still be a view of a pooled buffer. Every result of a read is kept — readRows, row batches,
// columnar batches, whole row-group columns, and the raw forms (strings as bytes, booleans as bits, typed integers)
// — while other files are read (concurrently, and with two cursors advanced in turn), then compared with the rows
// written (the independent expectation) or with a deep copy taken the moment it was handed out. Files: random
// schemas (nested, nullable, every physical type and annotation), tiny pages, V1 and V2, dictionary and plain with
// fallback, SNAPPY / GZIP / ZSTD / LZ4_RAW / UNCOMPRESSED, encrypted or not.
import { CompressionCodec, builtinCodecs, type CodecMap } from '@parquetry/parquet-codecs';
import fc from 'fast-check';
import { describe, test } from 'vitest';
import { createGzipCodec } from '../../codec-gzip/src/index.js';
import { createZstdCodec, zstdDecoder } from '../../codec-zstd/src/index.js';
import { openParquet, type ColumnBatch, type ParquetFile, type RowBatch } from '../src/index.js';
import { writeParquet, type Row, type SchemaSpec, type WriterOptions } from '../../parquet-writer/src/index.js';
import { optionsArb, rowsArb, schemaArb } from '../../parquet-writer/test/arbitraries.js';
import type { ColumnarVector } from '@parquetry/parquet-levels';
import { rowsOf, same } from './batch-helpers.js';

const footerKey = new Uint8Array(16).map((_, i) => i * 7 + 1);

/** A deep copy of JS values (typed arrays copied), so later changes to the memory under them do not show. */
function deepCopy(v: unknown): unknown {
  if (ArrayBuffer.isView(v)) return (v as Uint8Array).slice();
  if (Array.isArray(v)) return v.map(deepCopy);
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [deepCopy(k), deepCopy(x)]));
  if (v !== null && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) Object.defineProperty(o, k, { value: deepCopy(x), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return v;
}

const caseArb = schemaArb.chain((schema) =>
  fc.record({
    schema: fc.constant(schema),
    rows: rowsArb(schema, 1),
    options: optionsArb(schema),
    compression: fc.constantFrom('SNAPPY' as const, 'GZIP' as const, 'ZSTD' as const, 'LZ4_RAW' as const, 'UNCOMPRESSED' as const),
    encrypt: fc.boolean(),
    batchSize: fc.oneof(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 8, max: 200 })),
  }),
);
type Case = { schema: SchemaSpec; rows: Row[]; options: WriterOptions; compression: WriterOptions['compression']; encrypt: boolean; batchSize: number };

/** What one file's reads handed out, kept with copies taken when they were handed out. */
interface Kept {
  c: Case;
  rows: Record<string, unknown>[];
  batches: RowBatch[];
  columnBatches: ColumnBatch[];
  columnCopies: unknown[];
  groups: ColumnarVector[];
  groupCopies: unknown[];
  /** The raw forms (strings as bytes, booleans as bits, integers as typed arrays), rows and row-group columns. */
  raw: unknown[];
  rawCopies: unknown[];
}

const RAW = { strings: 'bytes', booleans: 'bits', integers: 'typed' } as const;

describe('pooled decompression buffers: what a read returned stays valid while other reads reuse the buffers', async () => {
  const zstd = await createZstdCodec();
  const writeCodecs: CodecMap = { ...builtinCodecs(), [CompressionCodec.GZIP]: createGzipCodec(), [CompressionCodec.ZSTD]: zstd };
  // the reader's ZSTD is the package's own decoder (as the umbrella presets it)
  const readCodecs: CodecMap = { ...builtinCodecs(), [CompressionCodec.GZIP]: createGzipCodec(), [CompressionCodec.ZSTD]: zstdDecoder };

  async function open(c: Case): Promise<ParquetFile> {
    const options: WriterOptions = { ...c.options, schema: c.schema, codecs: writeCodecs, ...(c.compression ? { compression: c.compression } : {}) };
    if (c.encrypt) options.encryption = { footerKey };
    const bytes = await writeParquet(c.rows, options);
    return openParquet(bytes, c.encrypt ? { codecs: readCodecs, decryption: { footerKey } } : { codecs: readCodecs });
  }

  /** Every kind of read of one file, kept; copies of the columnar results taken as they are handed out. */
  async function readAll(c: Case, file: ParquetFile): Promise<Kept> {
    const rows = await file.readRows();
    const batches: RowBatch[] = [];
    for await (const b of file.iterateBatches({ batchSize: c.batchSize })) batches.push(b);
    const columnBatches: ColumnBatch[] = [];
    const columnCopies: unknown[] = [];
    for await (const b of file.iterateBatches({ form: 'columns', batchSize: c.batchSize })) {
      columnBatches.push(b);
      columnCopies.push(deepCopy(rowsOf(b.columns)));
    }
    const groups: ColumnarVector[] = [];
    const groupCopies: unknown[] = [];
    for (let g = 0; g < file.metadata.row_groups.length; g++) {
      const v = await file.readRowGroupColumns(g);
      groups.push(v);
      groupCopies.push(deepCopy(rowsOf(v)));
    }
    const rawRows = await file.readRows(RAW);
    const raw: unknown[] = [rawRows];
    const rawCopies: unknown[] = [deepCopy(rawRows)];
    for (let g = 0; g < file.metadata.row_groups.length; g++) {
      const v = await file.readRowGroupColumns(g, RAW);
      raw.push(v);
      rawCopies.push(deepCopy(rowsOf(v)));
    }
    return { c, rows, batches, columnBatches, columnCopies, groups, groupCopies, raw, rawCopies };
  }

  function check(k: Kept, what: string): void {
    same(k.c.rows, k.rows, `${what}: readRows`);
    same(k.c.rows, k.batches.flatMap((b) => b.rows), `${what}: row batches`);
    same(k.columnCopies, k.columnBatches.map((b) => rowsOf(b.columns)), `${what}: columnar batches`);
    same(k.groupCopies, k.groups.map((v) => rowsOf(v)), `${what}: row-group columns`);
    // the columnar reads as copied agree with each other (the batches of a row group are its whole read, in order)
    same(k.groupCopies.flat(), k.columnCopies.flat(), `${what}: columnar batches against row-group columns`);
    same(k.rawCopies, k.raw.map((x, i) => (i === 0 ? x : rowsOf(x as ColumnarVector))), `${what}: raw forms`);
  }

  test('property: reads kept across later reads of other files, concurrent reads and interleaved cursors', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, caseArb, caseArb, async (a, b, c) => {
        const [fa, fb, fc2] = await Promise.all([open(a), open(b), open(c)]);
        const ka = await readAll(a, fa);
        check(ka, 'A as read');
        // B and C read at once, and A again: their columns decode at the same time, through the same pool
        const [kb, kc] = await Promise.all([readAll(b, fb), readAll(c, fc2), readAll(a, fa)]);
        // two cursors advanced in turn: each batch handed out while the other file's pages decode
        const itA = fa.iterateBatches({ batchSize: a.batchSize });
        const itB = fb.iterateBatches({ form: 'columns', batchSize: b.batchSize });
        const gotA: RowBatch[] = [];
        const gotB: ColumnBatch[] = [];
        const copiesB: unknown[] = [];
        for (let doneA = false, doneB = false; !doneA || !doneB; ) {
          if (!doneA) {
            const r = await itA.next();
            if (r.done) doneA = true;
            else gotA.push(r.value);
          }
          if (!doneB) {
            const r = await itB.next();
            if (r.done) doneB = true;
            else {
              gotB.push(r.value);
              copiesB.push(deepCopy(rowsOf(r.value.columns)));
            }
          }
        }
        await readAll(c, fc2);
        check(ka, 'A after B, C and A read again');
        check(kb!, 'B');
        check(kc!, 'C');
        same(a.rows, gotA.flatMap((x) => x.rows), 'A: cursor interleaved with B');
        same(copiesB, gotB.map((x) => rowsOf(x.columns)), 'B: columnar cursor interleaved with A');
        same(kb!.columnCopies, copiesB, 'B: interleaved columnar batches against its own read');
      }),
      { numRuns: Number(process.env.PARQUETRY_PROPERTY_RUNS ?? '') || 40 },
    );
  }, 300_000);
});
