/**
 * The fuzz entry points: what one input is for each, its seeds, and what running it means. Inputs that need
 * parameters (a physical type and count for a value decoder, an uncompressed size for a codec) carry them in a small
 * header before the payload, so a saved input replays alone and the parameters are mutated too.
 *
 * Oracle (checked in the worker): `run` returns or throws a ParquetError; anything else escaping is a finding. A
 * whole-file read that succeeds returns the row count the footer states (`rowsStated` = `rowsRead`) — a different
 * count without an error is a silent row-count change.
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';
import { createBrotliCodec } from '@parquetry/codec-brotli';
import { gzipCodec } from '@parquetry/codec-gzip';
import { createZstdCodec } from '@parquetry/codec-zstd';
import { builtinCodecs, decompressPage, type Codec, type CodecMap } from '@parquetry/parquet-codecs';
import { DECODERS, decodeRleHybrid, encodeRleHybrid, encodeValues, type ColumnValues } from '@parquetry/parquet-encodings';
import { assembleColumnar, assembleRecords, buildSchemaTree, type SchemaTree } from '@parquetry/parquet-levels';
import { decryptCtrModule, decryptGcmModule, encryptCtrModule, encryptGcmModule, importAesKey } from '@parquetry/parquet-crypto';
import { arrowSchemaOf, readArrowBatches, readArrowTable } from '@parquetry/arrow';
import { openParquet, type ParquetFile } from '@parquetry/parquet-reader';
import { decodeVariant, encodeVariant, type VariantValue } from '@parquetry/parquet-variant';
import { field, writeParquet, type WriterOptions } from '@parquetry/parquet-writer';
import { ByteWriter, CompressionCodec, Encoding, EncodingNames, ParquetError, Type, decodeThrift, readFileMetaData, readPageHeader, type FileMetaData } from '@parquetry/thrift-compact';
import { Prng } from './prng.js';
import type { Region, Seed } from './mutate.js';

/** What one execution observed. */
export interface Outcome {
  /** Rows the (mutated) footer states, for whole-file reads that read every row. */
  rowsStated?: number;
  /** Rows the read returned. */
  rowsRead?: number;
}

/** One entry point. */
export interface Entry {
  /** Its name (a directory name under fixtures/fuzz-regressions). */
  readonly name: string;
  /** Builds the seed inputs (deterministic). */
  seeds(ctx: SeedContext): Promise<Seed[]>;
  /** Runs one input: returns, or throws (a ParquetError is the only allowed error). */
  run(input: Uint8Array): Promise<Outcome | undefined> | Outcome | undefined;
}

/** What seed builders share: the corpus directory and the seed files, built once. */
export interface SeedContext {
  /** The corpus's data directory, or undefined when absent. */
  corpus: string | undefined;
  /** Largest corpus file taken as a whole-file seed. */
  maxFileBytes: number;
  /** The whole-file seeds (plaintext), with their regions. */
  files(): Promise<Seed[]>;
  /** The encrypted whole-file seeds. */
  encrypted(): Promise<Seed[]>;
}

/** Every codec: the built-in ones and the codec-* packages. */
let codecMap: CodecMap | undefined;
export async function allCodecs(): Promise<CodecMap> {
  codecMap ??= { ...builtinCodecs(), [CompressionCodec.GZIP]: gzipCodec, [CompressionCodec.ZSTD]: await createZstdCodec(), [CompressionCodec.BROTLI]: await createBrotliCodec() };
  return codecMap;
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
/** The corpus's keys (MANIFEST.md), used for the generated encrypted files too. */
export const DECRYPTION = { footerKey: enc('0123456789012345'), columnKeys: { double_field: enc('1234567890123450'), float_field: enc('1234567890123451') } };

/** Reads of a whole file are bounded: files stating more rows or bytes are read only in part. */
const MAX_ROWS = 100_000;
const MAX_BYTES = 64 << 20;

/**
 * The rows a file's row groups state, and whether the file is small enough to read whole (files stating more rows or
 * bytes than a fuzz input should decode are read in part).
 */
function footerTotals(file: ParquetFile): { stated: number; small: boolean } {
  const md = file.metadata;
  let stated = 0;
  let size = 0;
  for (const rg of md.row_groups) {
    stated += rg.num_rows;
    size += Math.max(rg.total_byte_size, rg.total_compressed_size ?? 0);
  }
  return { stated, small: file.numRows <= MAX_ROWS && stated <= MAX_ROWS && size <= MAX_BYTES && md.row_groups.length <= 1000 };
}

/** The whole-file read: open, statistics, every row group's columns, then every row (when the file is small enough). */
async function readWhole(bytes: Uint8Array, decryption: boolean): Promise<Outcome> {
  const codecs = await allCodecs();
  const file: ParquetFile = await openParquet(bytes, { codecs, maxPageValues: 1 << 16, verifyChecksums: (bytes.length & 1) === 0, ...(decryption ? { decryption: DECRYPTION } : {}) });
  const md = file.metadata;
  const { stated, small } = footerTotals(file);
  for (let g = 0; g < Math.min(md.row_groups.length, 4); g++) {
    for (let c = 0; c < Math.min(file.schema.columns.length, 16); c++) await file.statistics(g, c);
  }
  if (!small) {
    // a bounded read of the first rows only
    await file.readRows({ rowStart: 0, rowEnd: Math.min(1000, file.numRows) });
    return {};
  }
  if (md.row_groups.length > 0 && md.row_groups[0]!.num_rows > 0) await file.readRowGroupColumns(0);
  // filtered reads: statistics, page indexes and bloom filters (the generated files' id column has one)
  const first = file.schema.columns[0];
  if (first !== undefined && first.path.length === 1) await file.readRows({ filter: { column: first.pathString, op: 'is not null' }, columns: [first.pathString] });
  if (file.schema.columns.some((c) => c.pathString === 'id' && c.type === Type.INT64)) {
    await file.readRows({ filter: { or: [{ column: 'id', op: '=', value: 3n }, { column: 'id', op: '>', value: 10_000n }] }, columns: ['id'] });
  }
  const rows = await file.readRows();
  // the rows a read returns are the row groups' (as the reference readers read them); a file-level count that
  // disagrees is silent too, but for 0: the old parquet-rs writer's (repeated_no_annotation.parquet in the corpus,
  // which pyarrow reads as its row group's 6 rows)
  if (file.numRows !== stated && file.numRows !== 0) return { rowsStated: file.numRows, rowsRead: rows.length };
  return { rowsStated: stated, rowsRead: rows.length };
}

/** Byte regions of a plaintext file: footer, its length, and each page's header and body. */
function fileRegions(bytes: Uint8Array, md: FileMetaData): Region[] {
  const n = bytes.length;
  const footerLen = new DataView(bytes.buffer, bytes.byteOffset).getUint32(n - 8, true);
  const regions: Region[] = [
    { kind: 'footer', start: n - 8 - footerLen, end: n - 8 },
    { kind: 'footer-length', start: n - 8, end: n - 4 },
  ];
  for (const rg of md.row_groups) {
    for (const cc of rg.columns) {
      const m = cc.meta_data;
      if (!m) continue;
      let pos = m.dictionary_page_offset ?? m.data_page_offset;
      const end = Math.min(n, pos + m.total_compressed_size);
      while (pos < end) {
        let hdr;
        try {
          hdr = decodeThrift(readPageHeader, bytes, pos, end);
        } catch {
          break;
        }
        const dict = hdr.value.type === 2;
        regions.push({ kind: dict ? 'dict-header' : 'page-header', start: pos, end: hdr.end });
        const bodyEnd = hdr.end + hdr.value.compressed_page_size;
        regions.push({ kind: dict ? 'dict-body' : 'page-body', start: hdr.end, end: Math.min(bodyEnd, end) });
        pos = bodyEnd;
      }
    }
  }
  return regions;
}

/** A file seed with its regions (undefined when it does not open). */
async function fileSeed(name: string, bytes: Uint8Array): Promise<Seed | undefined> {
  try {
    const f = await openParquet(bytes, { codecs: await allCodecs() });
    // files that decompress to more than the read budget even unmutated (large_string_map.brotli.parquet: 4 KB
    // holding 2 GiB of strings) are the reader's budget tests, not fuzz seeds: every mutation of them would cost
    // seconds and gigabytes
    let uncompressed = 0;
    for (const rg of f.metadata.row_groups) for (const cc of rg.columns) uncompressed += cc.meta_data?.total_uncompressed_size ?? 0;
    if (uncompressed > MAX_BYTES) return undefined;
    return { name, bytes, regions: fileRegions(bytes, f.metadata) };
  } catch {
    return undefined;
  }
}

/** Runs `f` with `crypto.getRandomValues` drawing from a seeded stream (encrypted seeds are then reproducible). */
async function withSeededRandom<T>(seed: number, f: () => Promise<T>): Promise<T> {
  const rng = new Prng(seed);
  const c = globalThis.crypto as { getRandomValues: <A extends ArrayBufferView | null>(a: A) => A };
  const original = c.getRandomValues;
  c.getRandomValues = <A extends ArrayBufferView | null>(a: A): A => {
    if (a) {
      const u8 = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      for (let i = 0; i < u8.length; i++) u8[i] = rng.below(256);
    }
    return a;
  };
  try {
    return await f();
  } finally {
    c.getRandomValues = original;
  }
}

/** Rows for the generated files: every type, nulls, lists, a struct, a map. */
function generatedRows(n: number): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    rows.push({
      id: BigInt(i * 37 - 500),
      i32: i % 5 === 0 ? null : (i * 7919) % 1000 - 300,
      flag: i % 3 === 0,
      float_field: i % 7 === 0 ? null : i / 4,
      double_field: (i * 1.25) % 77,
      s: i % 4 === 0 ? null : `v${i % 13}-${'x'.repeat(i % 5)}`,
      fx: enc(`f${String(i % 100).padStart(3, '0')}`),
      tags: i % 6 === 0 ? null : Array.from({ length: i % 4 }, (_, j) => (j === 1 ? null : `t${(i + j) % 9}`)),
      st: i % 8 === 0 ? null : { a: i % 11, b: i % 3 === 0 ? null : `b${i}` },
      m: new Map(Array.from({ length: i % 3 }, (_, j) => [`k${j}`, i + j])),
      v: i % 9 === 0 ? null : i % 3 === 0 ? { a: i, b: [`x${i % 4}`, i % 2 === 0] } : i % 3 === 1 ? `s${i}` : i * 0.5,
    });
  }
  return rows;
}

const generatedSchema = {
  id: field.int64({ required: true }),
  i32: field.int32(),
  flag: field.boolean(),
  float_field: field.float(),
  double_field: field.double(),
  s: field.string(),
  fx: field.fixed(4),
  tags: field.list(field.string()),
  st: field.struct({ a: field.int32(), b: field.string() }),
  m: field.map(field.string({ required: true }), field.int64()),
  v: field.variant(),
};

/** Writer variants: each encoding on the columns it applies to, every codec, V1/V2 pages, dictionaries on/off. */
function writerVariants(): { name: string; options: WriterOptions }[] {
  const compressions = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'ZSTD', 'BROTLI', 'LZ4', 'LZ4_RAW', 'LZO'] as const;
  const out: { name: string; options: WriterOptions }[] = [];
  const encodings: { name: string; columns: NonNullable<WriterOptions['columns']> }[] = [
    { name: 'dictionary', columns: {} },
    { name: 'plain', columns: Object.fromEntries(['id', 'i32', 'float_field', 'double_field', 's', 'fx', 'tags', 'st', 'm'].map((c) => [c, { dictionary: false }])) },
    { name: 'delta', columns: { id: { encoding: 'DELTA_BINARY_PACKED', dictionary: false }, i32: { encoding: 'DELTA_BINARY_PACKED', dictionary: false }, s: { encoding: 'DELTA_LENGTH_BYTE_ARRAY', dictionary: false }, fx: { encoding: 'DELTA_BYTE_ARRAY', dictionary: false } } },
    { name: 'split', columns: { float_field: { encoding: 'BYTE_STREAM_SPLIT', dictionary: false }, double_field: { encoding: 'BYTE_STREAM_SPLIT', dictionary: false }, id: { encoding: 'BYTE_STREAM_SPLIT', dictionary: false }, fx: { encoding: 'BYTE_STREAM_SPLIT', dictionary: false } } },
    { name: 'alp-rle', columns: { float_field: { encoding: 'ALP', dictionary: false }, double_field: { encoding: 'ALP', dictionary: false }, flag: { encoding: 'RLE' }, s: { encoding: 'DELTA_BYTE_ARRAY', dictionary: false } } },
  ];
  let k = 0;
  for (const e of encodings) {
    for (const pageVersion of [1, 2] as const) {
      const compression = compressions[k++ % compressions.length]!;
      out.push({ name: `${e.name}-v${pageVersion}-${compression}`, options: { schema: generatedSchema, columns: { ...e.columns, id: { ...e.columns.id, bloomFilter: k % 2 === 1 } }, pageVersion, compression, pageRows: 40, rowGroupRows: 120, checksum: k % 3 === 0, pageIndex: k % 2 === 0 } });
    }
  }
  return out;
}

/** The shared seed context (files generated and corpus files read once per process). */
export function seedContext(corpus: string | undefined, maxFileBytes: number): SeedContext {
  let files: Promise<Seed[]> | undefined;
  let encrypted: Promise<Seed[]> | undefined;
  return {
    corpus,
    maxFileBytes,
    files: () =>
      (files ??= (async () => {
        const codecs = await allCodecs();
        const out: Seed[] = [];
        const rows = generatedRows(300);
        for (const v of writerVariants()) {
          const bytes = await writeParquet(rows, { ...v.options, codecs, createdBy: 'parquetry fuzz seed' });
          const s = await fileSeed(`generated/${v.name}`, bytes);
          if (s) out.push(s);
        }
        if (corpus !== undefined) {
          for (const name of fs.readdirSync(corpus).sort()) {
            if (!name.endsWith('.parquet')) continue;
            const p = path.join(corpus, name);
            if (fs.statSync(p).size > maxFileBytes) continue;
            const s = await fileSeed(`corpus/${name}`, new Uint8Array(fs.readFileSync(p)));
            if (s) out.push(s);
          }
        }
        return out;
      })()),
    encrypted: () =>
      (encrypted ??= (async () => {
        const codecs = await allCodecs();
        const out: Seed[] = [];
        const rows = generatedRows(200);
        let k = 0;
        for (const algorithm of ['AES_GCM_V1', 'AES_GCM_CTR_V1'] as const) {
          for (const plaintextFooter of [false, true]) {
            const columnKeys = { double_field: { key: DECRYPTION.columnKeys.double_field }, float_field: { key: DECRYPTION.columnKeys.float_field } };
            const bytes = await withSeededRandom(k++, () =>
              writeParquet(rows, { schema: generatedSchema, codecs, compression: 'SNAPPY', pageRows: 50, rowGroupRows: 100, createdBy: 'parquetry fuzz seed', encryption: { footerKey: DECRYPTION.footerKey, algorithm, plaintextFooter, ...(k % 2 === 0 ? { columnKeys } : {}) } }),
            );
            out.push(await encryptedSeed(`generated/encrypted-${algorithm}-${plaintextFooter ? 'plaintext' : 'encrypted'}-footer`, bytes));
          }
        }
        if (corpus !== undefined) {
          for (const name of fs.readdirSync(corpus).sort()) {
            if (!name.endsWith('.parquet.encrypted')) continue;
            const bytes = new Uint8Array(fs.readFileSync(path.join(corpus, name)));
            try {
              await readWhole(bytes, true);
              out.push(await encryptedSeed(`corpus/${name}`, bytes));
            } catch {
              // needs keys or an AAD prefix from elsewhere
            }
          }
        }
        return out;
      })()),
  };
}

async function encryptedSeed(name: string, bytes: Uint8Array): Promise<Seed> {
  const n = bytes.length;
  const footerLen = new DataView(bytes.buffer, bytes.byteOffset).getUint32(n - 8, true);
  return { name, bytes, regions: [{ kind: 'footer', start: n - 8 - footerLen, end: n - 8 }, { kind: 'footer-length', start: n - 8, end: n - 4 }, { kind: 'page-body', start: 4, end: n - 8 - footerLen }] };
}

/** A parameter header: `[type u8][count u16 LE][typeLength u8][dictSize u8][bitWidth u8]` then the payload. */
const PARAMS = 6;

function dictionaryOf(type: number, size: number, typeLength: number): ColumnValues {
  const rng = new Prng(size * 31 + type);
  switch (type) {
    case Type.BOOLEAN:
      return Uint8Array.from({ length: size }, () => rng.below(2));
    case Type.INT32:
      return Int32Array.from({ length: size }, () => rng.u32() | 0);
    case Type.INT64:
      return BigInt64Array.from({ length: size }, () => BigInt(rng.u32() | 0) * 65537n);
    case Type.FLOAT:
      return Float32Array.from({ length: size }, () => rng.u32() / 7);
    case Type.DOUBLE:
      return Float64Array.from({ length: size }, () => rng.u32() / 3);
    case Type.BYTE_ARRAY: {
      const offsets = new Int32Array(size + 1);
      for (let i = 0; i < size; i++) offsets[i + 1] = offsets[i]! + (i % 5);
      return { offsets, data: Uint8Array.from({ length: offsets[size]! }, () => rng.below(256)) };
    }
    default: {
      const width = type === Type.INT96 ? 12 : Math.max(1, typeLength);
      return { width, data: Uint8Array.from({ length: size * width }, () => rng.below(256)) };
    }
  }
}

/** Values of a type for a seed. */
function valuesOf(type: number, count: number, typeLength: number, rng: Prng): ColumnValues {
  const small = rng.below(2) === 0;
  switch (type) {
    case Type.BOOLEAN:
      return Uint8Array.from({ length: count }, () => rng.below(2));
    case Type.INT32:
      return Int32Array.from({ length: count }, (_, i) => (small ? i * 3 + rng.below(5) : rng.u32() | 0));
    case Type.INT64:
      return BigInt64Array.from({ length: count }, (_, i) => (small ? BigInt(i * 1000 + rng.below(7)) : (BigInt(rng.u32()) << 31n) - BigInt(rng.u32())));
    case Type.FLOAT:
      return Float32Array.from({ length: count }, (_, i) => (small ? Math.round(i * 1.5 * 100) / 100 : rng.u32() / 13));
    case Type.DOUBLE:
      return Float64Array.from({ length: count }, (_, i) => (small ? Math.round(i * 2.25 * 100) / 100 : rng.u32() / 11));
    case Type.BYTE_ARRAY: {
      const offsets = new Int32Array(count + 1);
      const parts: number[] = [];
      for (let i = 0; i < count; i++) {
        const s = `val${i % 17}${'abc'.slice(0, i % 4)}`;
        for (const ch of s) parts.push(ch.charCodeAt(0));
        offsets[i + 1] = parts.length;
      }
      return { offsets, data: Uint8Array.from(parts) };
    }
    default: {
      const width = type === Type.INT96 ? 12 : typeLength;
      return { width, data: Uint8Array.from({ length: count * width }, (_, i) => (small ? (i / width) & 0xff : rng.below(256))) };
    }
  }
}

const DICTIONARY_ENCODINGS: number[] = [Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY];

/** An entry for one value decoder (parquet-encodings), over every physical type it supports. */
function encodingEntry(encoding: number): Entry {
  const decoder = DECODERS[encoding]!;
  const isDict = DICTIONARY_ENCODINGS.includes(encoding);
  return {
    name: `encoding-${EncodingNames[encoding] ?? encoding}`,
    async seeds() {
      const out: Seed[] = [];
      const rng = new Prng(encoding * 1009);
      for (let type = 0; type <= 7; type++) {
        if (!decoder.supports(type as Type)) continue;
        for (const count of [0, 1, 7, 100, 1000]) {
          const typeLength = type === Type.FIXED_LEN_BYTE_ARRAY ? 1 + rng.below(16) : 0;
          const bitWidth = type === Type.BOOLEAN ? 1 : 0;
          const w = new ByteWriter(256);
          let dictSize = 0;
          try {
            if (isDict) {
              dictSize = 1 + rng.below(200);
              encodeValues(encoding, Int32Array.from({ length: count }, () => rng.below(dictSize)), { type: type as Type }, w);
            } else {
              encodeValues(encoding, valuesOf(type, count, typeLength, rng), { type: type as Type, typeLength, bitWidth }, w);
            }
          } catch {
            continue;
          }
          const payload = w.finish();
          const bytes = new Uint8Array(PARAMS + payload.length);
          bytes.set([type, count & 0xff, count >> 8, typeLength, dictSize, bitWidth], 0);
          bytes.set(payload, PARAMS);
          out.push({ name: `${TypeNamesShort[type]}-${count}`, bytes, regions: [{ kind: 'params', start: 0, end: PARAMS }, { kind: 'page-body', start: PARAMS, end: bytes.length }] });
        }
      }
      return out;
    },
    run(input) {
      if (input.length < PARAMS) return undefined;
      const type = input[0]! & 7;
      if (!decoder.supports(type as Type)) return undefined;
      const count = input[1]! | (input[2]! << 8);
      const typeLength = input[3]!;
      const dictionary = isDict ? dictionaryOf(type, input[4]!, typeLength) : undefined;
      decoder.decode(input, PARAMS, input.length, count, { type: type as Type, typeLength, bitWidth: input[5]! }, dictionary);
      return undefined;
    },
  };
}

const TypeNamesShort = ['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'];

/** Sample page payloads to compress for the codec seeds. */
function samplePayloads(): Uint8Array[] {
  const rng = new Prng(77);
  const text = enc(Array.from({ length: 400 }, (_, i) => `row ${i % 37} value-${(i * 7) % 23};`).join(''));
  const zeros = new Uint8Array(5000);
  const random = Uint8Array.from({ length: 3000 }, () => rng.below(256));
  const ints = new Uint8Array(Int32Array.from({ length: 1500 }, (_, i) => i * 3).buffer);
  return [new Uint8Array(0), Uint8Array.of(1), text, zeros, random, ints];
}

/** An entry for one codec's decompression (through decompressPage, as the page reader calls it). */
function codecEntry(name: string, codecNo: number): Entry {
  return {
    name: `codec-${name}`,
    async seeds() {
      const codec = (await allCodecs())[codecNo as CompressionCodec] as Codec;
      return samplePayloads().map((p, i) => {
        const c = codec.compress(p);
        const bytes = new Uint8Array(3 + c.length);
        bytes.set([p.length & 0xff, (p.length >> 8) & 0xff, p.length >> 16], 0);
        bytes.set(c, 3);
        return { name: `payload-${i}`, bytes, regions: [{ kind: 'params', start: 0, end: 3 }, { kind: 'page-body', start: 3, end: bytes.length }] };
      });
    },
    async run(input) {
      if (input.length < 3) return undefined;
      const size = input[0]! | (input[1]! << 8) | (input[2]! << 16);
      decompressPage(await allCodecs(), codecNo, input.subarray(3), size);
      return undefined;
    },
  };
}

/**
 * Levels: `a: optional list<optional int32>` (max repetition 1, max definition 3). Input:
 * `[count u16][repLen u16][rep levels, RLE width 1][def levels, RLE width 2]`; the levels decoded, then assembled
 * into rows and into columnar vectors.
 */
const levelSchema: SchemaTree = buildSchemaTree([
  { name: 'schema', num_children: 1 },
  { name: 'a', repetition_type: 1, num_children: 1, converted_type: 3 },
  { name: 'list', repetition_type: 2, num_children: 1 },
  { name: 'element', type: Type.INT32, repetition_type: 1 },
] as FileMetaData['schema']);

const levelsEntry: Entry = {
  name: 'levels',
  async seeds() {
    const out: Seed[] = [];
    const rng = new Prng(4242);
    for (const rows of [1, 5, 50, 400]) {
      const rep: number[] = [];
      const def: number[] = [];
      for (let r = 0; r < rows; r++) {
        const kind = rng.below(4);
        if (kind === 0) rep.push(0), def.push(0);
        else if (kind === 1) rep.push(0), def.push(1);
        else {
          const k = 1 + rng.below(5);
          for (let j = 0; j < k; j++) rep.push(j === 0 ? 0 : 1), def.push(rng.below(4) === 0 ? 2 : 3);
        }
      }
      const w1 = new ByteWriter(64);
      encodeRleHybrid(Int32Array.from(rep), 0, rep.length, 1, w1);
      const w2 = new ByteWriter(64);
      encodeRleHybrid(Int32Array.from(def), 0, def.length, 2, w2);
      const r1 = w1.finish();
      const r2 = w2.finish();
      const bytes = new Uint8Array(4 + r1.length + r2.length);
      bytes.set([rep.length & 0xff, rep.length >> 8, r1.length & 0xff, r1.length >> 8], 0);
      bytes.set(r1, 4);
      bytes.set(r2, 4 + r1.length);
      out.push({ name: `rows-${rows}`, bytes, regions: [{ kind: 'params', start: 0, end: 4 }, { kind: 'page-body', start: 4, end: bytes.length }] });
    }
    return out;
  },
  run(input) {
    if (input.length < 4) return undefined;
    const count = input[0]! | (input[1]! << 8);
    const repLen = input[2]! | (input[3]! << 8);
    const rep = new Int32Array(count);
    const def = new Int32Array(count);
    const repEnd = Math.min(input.length, 4 + repLen);
    decodeRleHybrid(input, 4, repEnd, 1, rep, 0, count);
    decodeRleHybrid(input, repEnd, input.length, 2, def, 0, count);
    let n = 0;
    for (let i = 0; i < count; i++) if (def[i] === 3) n++;
    const values = Int32Array.from({ length: n }, (_, i) => i);
    assembleRecords(levelSchema, [{ def, rep, values }]);
    assembleColumnar(levelSchema, [{ def, rep, values }]);
    return undefined;
  },
};

const variantEntry: Entry = {
  name: 'variant',
  async seeds() {
    const values: VariantValue[] = [
      null,
      true,
      42,
      -7n,
      3.5,
      'short',
      'a longer string that needs the long string header, more than sixty-three bytes of text',
      [1, 'two', [3, null], { x: 1 }],
      { name: 'n', tags: ['a', 'b'], nested: { deep: { deeper: [1, 2, { k: 'v' }] } }, n: 12345678901234n },
      Array.from({ length: 300 }, (_, i) => i),
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key${i}`, i % 2 === 0 ? i : `s${i}`])),
    ] as VariantValue[];
    const out: Seed[] = [];
    values.forEach((v, i) => {
      const { metadata, value } = encodeVariant(v);
      const bytes = new Uint8Array(2 + metadata.length + value.length);
      bytes.set([metadata.length & 0xff, metadata.length >> 8], 0);
      bytes.set(metadata, 2);
      bytes.set(value, 2 + metadata.length);
      out.push({ name: `value-${i}`, bytes, regions: [{ kind: 'params', start: 0, end: 2 }, { kind: 'page-header', start: 2, end: 2 + metadata.length }, { kind: 'page-body', start: 2 + metadata.length, end: bytes.length }] });
    });
    return out;
  },
  run(input) {
    if (input.length < 2) return undefined;
    const mdLen = input[0]! | (input[1]! << 8);
    const md = input.subarray(2, Math.min(input.length, 2 + mdLen));
    decodeVariant(md, input.subarray(Math.min(input.length, 2 + mdLen)));
    return undefined;
  },
};

/** The footer's Thrift (FileMetaData) and the schema built from it. */
const footerEntry: Entry = {
  name: 'thrift-footer',
  async seeds(ctx) {
    return (await ctx.files()).map((s) => {
      const r = s.regions.find((x) => x.kind === 'footer')!;
      return { name: s.name, bytes: s.bytes.slice(r.start, r.end), regions: [] };
    });
  },
  run(input) {
    const { value } = decodeThrift(readFileMetaData, input);
    buildSchemaTree(value.schema);
    return undefined;
  },
};

/** Page headers' Thrift (PageHeader), from every page of the seed files. */
const pageHeaderEntry: Entry = {
  name: 'thrift-page-header',
  async seeds(ctx) {
    const out: Seed[] = [];
    for (const s of await ctx.files()) {
      for (const r of s.regions) {
        if ((r.kind === 'page-header' || r.kind === 'dict-header') && out.length < 2000) out.push({ name: `${s.name}@${r.start}`, bytes: s.bytes.slice(r.start, r.end), regions: [] });
      }
    }
    return out;
  },
  run(input) {
    decodeThrift(readPageHeader, input);
    return undefined;
  },
};

const fileEntry: Entry = {
  name: 'file',
  seeds: (ctx) => ctx.files(),
  run: (input) => readWhole(input, false),
};

/**
 * A file read into Arrow (`@parquetry/arrow`): the schema mapping, the whole table (a row group's worth of batches
 * each), and the same rows again in small batches through the reader's batch path. Both must hold the rows the
 * footer states, and agree with each other; then the middle third of the rows, as a row range (pages skipped by the
 * page index), must hold that many rows.
 */
async function readArrow(bytes: Uint8Array): Promise<Outcome> {
  const file = await openParquet(bytes, { codecs: await allCodecs(), maxPageValues: 1 << 16, verifyChecksums: (bytes.length & 1) === 0 });
  const { stated, small } = footerTotals(file);
  arrowSchemaOf(file);
  // files stating more rows or bytes than a fuzz input should decode: their first rows only
  const range = small ? {} : { rowStart: 0, rowEnd: Math.min(1000, file.numRows) };
  const table = await readArrowTable(file, range);
  let batched = 0;
  for await (const b of readArrowBatches(file, { ...range, batchSize: 7 + (bytes.length % 50) })) batched += b.numRows;
  // the two reads of the same rows disagreeing is a silent change of one of them
  if (batched !== table.numRows) return { rowsStated: table.numRows, rowsRead: batched };
  if (!small) return {};
  if (file.numRows !== stated && file.numRows !== 0) return { rowsStated: file.numRows, rowsRead: table.numRows };
  if (table.numRows !== stated) return { rowsStated: stated, rowsRead: table.numRows };
  // a row range in the middle: page indexes (where the seed has them) decide which pages are read; the range must
  // hold exactly its rows
  const from = Math.floor(stated / 3);
  const to = from + Math.ceil(stated / 3);
  const part = await readArrowTable(file, { rowStart: from, rowEnd: to });
  return { rowsStated: to - from, rowsRead: part.numRows };
}

const arrowEntry: Entry = {
  name: 'arrow',
  seeds: (ctx) => ctx.files(),
  run: (input) => readArrow(input),
};

const decryptionEntry: Entry = {
  name: 'decryption',
  seeds: (ctx) => ctx.encrypted(),
  run: (input) => readWhole(input, true),
};

/**
 * One encrypted module (parquet-crypto), as the reader decrypts pages and metadata: `[algorithm u8: 0 GCM, 1 CTR]
 * [AAD length u8][AAD][module: 4-byte length, nonce, ciphertext, (GCM) tag]`, decrypted with the corpus's footer key.
 */
const cryptoModuleEntry: Entry = {
  name: 'crypto-module',
  async seeds() {
    const out: Seed[] = [];
    const rng = new Prng(99);
    for (const alg of [0, 1]) {
      const key = await importAesKey(DECRYPTION.footerKey, alg === 0 ? 'AES-GCM' : 'AES-CTR', 'fuzz key');
      for (const size of [0, 1, 16, 100, 3000]) {
        const pt = Uint8Array.from({ length: size }, () => rng.below(256));
        const aad = Uint8Array.from({ length: 10 + rng.below(20) }, () => rng.below(256));
        const nonce = Uint8Array.from({ length: 12 }, () => rng.below(256));
        const module = alg === 0 ? await encryptGcmModule(key, pt, aad, nonce) : await encryptCtrModule(key, pt, nonce);
        const bytes = new Uint8Array(2 + aad.length + module.length);
        bytes.set([alg, aad.length], 0);
        bytes.set(aad, 2);
        bytes.set(module, 2 + aad.length);
        out.push({ name: `${alg === 0 ? 'gcm' : 'ctr'}-${size}`, bytes, regions: [{ kind: 'params', start: 0, end: 2 + aad.length }, { kind: 'footer-length', start: 2 + aad.length, end: 6 + aad.length }, { kind: 'page-body', start: 6 + aad.length, end: bytes.length }] });
      }
    }
    return out;
  },
  async run(input) {
    if (input.length < 2) return undefined;
    const gcm = (input[0]! & 1) === 0;
    const aadEnd = Math.min(input.length, 2 + input[1]!);
    const key = await importAesKey(DECRYPTION.footerKey, gcm ? 'AES-GCM' : 'AES-CTR', 'fuzz key');
    const module = input.subarray(aadEnd);
    if (gcm) await decryptGcmModule(key, module, input.subarray(2, aadEnd), 'fuzz module');
    else await decryptCtrModule(key, module, 'fuzz module');
    return undefined;
  },
};

/**
 * The harness's own check (only with PARQUETRY_FUZZ_SELFTEST=1): by its first byte, an input returns, throws a
 * ParquetError, throws a TypeError, reads a row count other than it states, hangs, grows its memory without bound or
 * kills its process, so that a test can see each caught and attributed to its input.
 */
const selftestEntry: Entry = {
  name: 'selftest',
  async seeds() {
    return [0, 1, 2, 3, 4, 5, 6].map((k) => ({ name: `behaviour-${k}`, bytes: Uint8Array.of(k, 0, 0, 0), regions: [{ kind: 'params', start: 1, end: 4 }] }));
  },
  run(input) {
    switch ((input[0] ?? 0) % 7) {
      case 1:
        throw new ParquetError('SELFTEST', 'fuzz selftest: a ParquetError');
      case 2:
        throw new TypeError('fuzz selftest: a TypeError');
      case 3:
        return { rowsStated: 10, rowsRead: 9 };
      case 4:
        for (;;) {
          // hangs
        }
      case 5: {
        const keep: Uint8Array[] = [];
        for (;;) keep.push(new Uint8Array(64 << 20).fill(1));
      }
      case 6:
        process.exit(70);
      // falls through: process.exit does not return
      default:
        return undefined;
    }
  },
};

/** Every entry point by name. */
export function allEntries(): Entry[] {
  const out: Entry[] = [footerEntry, pageHeaderEntry];
  for (const e of Object.keys(DECODERS).map(Number).sort((a, b) => a - b)) out.push(encodingEntry(e));
  for (const [name, no] of [
    ['SNAPPY', CompressionCodec.SNAPPY],
    ['GZIP', CompressionCodec.GZIP],
    ['LZO', CompressionCodec.LZO],
    ['BROTLI', CompressionCodec.BROTLI],
    ['LZ4', CompressionCodec.LZ4],
    ['ZSTD', CompressionCodec.ZSTD],
    ['LZ4_RAW', CompressionCodec.LZ4_RAW],
  ] as const) {
    out.push(codecEntry(name, no));
  }
  out.push(levelsEntry, variantEntry, cryptoModuleEntry, decryptionEntry, fileEntry, arrowEntry);
  if (process.env.PARQUETRY_FUZZ_SELFTEST === '1') out.push(selftestEntry);
  return out;
}

/** Throws unless `e` is a ParquetError (used by the worker's oracle). */
export function isAllowed(e: unknown): e is ParquetError {
  return e instanceof Error && e.name === 'ParquetError' && typeof (e as { code?: unknown }).code === 'string';
}
