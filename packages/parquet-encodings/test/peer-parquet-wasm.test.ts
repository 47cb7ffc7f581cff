// Bytes written by a second peer, arrow-rs (parquet-wasm 0.8), with each encoding forced per column:
// locate the pages by hand and decode them with our decoders, comparing with the JS input values.
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { Compression, Encoding as WasmEncoding, Table, WriterPropertiesBuilder, WriterVersion, writeParquet } from 'parquet-wasm/node';
import { Encoding, Type } from '@parquetry/thrift-compact';
import { describe, expect, test } from 'vitest';
import { decodeValues, type ByteArrays } from '../src/index.js';
import { pagesOf } from './peer.js';

const N = 3000;
const input = {
  bo: Array.from({ length: N }, (_, i) => i % 7 < 3 || i > 2500),
  i32: Int32Array.from({ length: N }, (_, i) => (i * 2654435761) | 0),
  i64: BigInt64Array.from({ length: N }, (_, i) => BigInt(i) * 1_000_000_007n - (1n << 62n)),
  f32: Float32Array.from({ length: N }, (_, i) => i / 7),
  f64: Float64Array.from({ length: N }, (_, i) => Math.sin(i) * 1e6),
  s1: Array.from({ length: N }, (_, i) => `prefix-${Math.floor(i / 10)}-${i % 10}`),
  s2: Array.from({ length: N }, (_, i) => 'x'.repeat(i % 50) + i),
};

const forced: Record<string, [WasmEncoding, number]> = {
  bo: [WasmEncoding.RLE, Encoding.RLE],
  i32: [WasmEncoding.DELTA_BINARY_PACKED, Encoding.DELTA_BINARY_PACKED],
  i64: [WasmEncoding.DELTA_BINARY_PACKED, Encoding.DELTA_BINARY_PACKED],
  f32: [WasmEncoding.BYTE_STREAM_SPLIT, Encoding.BYTE_STREAM_SPLIT],
  f64: [WasmEncoding.BYTE_STREAM_SPLIT, Encoding.BYTE_STREAM_SPLIT],
  s1: [WasmEncoding.DELTA_BYTE_ARRAY, Encoding.DELTA_BYTE_ARRAY],
  s2: [WasmEncoding.DELTA_LENGTH_BYTE_ARRAY, Encoding.DELTA_LENGTH_BYTE_ARRAY],
};

function write(version: WriterVersion): Uint8Array {
  const ipc = tableToIPC(tableFromArrays(input), 'stream');
  let props = new WriterPropertiesBuilder().setCompression(Compression.UNCOMPRESSED).setDictionaryEnabled(false).setWriterVersion(version);
  for (const [col, [enc]] of Object.entries(forced)) props = props.setColumnEncoding(col, enc);
  return writeParquet(Table.fromIPCStream(ipc), props.build());
}

describe.each([
  ['V1', WriterVersion.V1],
  ['V2', WriterVersion.V2],
])('arrow-rs (parquet-wasm) pages, writer %s', (_name, version) => {
  const { pages } = pagesOf(write(version));
  test.each(Object.keys(forced))('column %s', (col) => {
    const ps = pages.filter((p) => p.column === col);
    expect(ps.length).toBeGreaterThan(0);
    const got: unknown[] = [];
    for (const p of ps) {
      expect(p.encoding).toBe(forced[col]![1]);
      const r = decodeValues(p.encoding, p.src, p.pos, p.end, p.count, { type: p.type as Type });
      expect(r.pos).toBeLessThanOrEqual(p.end);
      if (p.type === Type.BYTE_ARRAY) {
        const v = r.values as ByteArrays;
        const td = new TextDecoder();
        for (let i = 0; i < v.offsets.length - 1; i++) got.push(td.decode(v.data.subarray(v.offsets[i]!, v.offsets[i + 1]!)));
      } else if (p.type === Type.BOOLEAN) got.push(...Array.from(r.values as Uint8Array, (b) => b === 1));
      else got.push(...Array.from(r.values as ArrayLike<unknown>));
    }
    expect(got).toEqual(Array.from(input[col as keyof typeof input] as ArrayLike<unknown>));
  });
});
