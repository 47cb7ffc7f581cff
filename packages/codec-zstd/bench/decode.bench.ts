// Our ZSTD decoder (decodeZstd) beside fzstd (the pure-JS decoder it replaced) and the reference decoder in WASM,
// on 1 MiB pages (text-like and numeric-like, levels 3 and 19) and on every ZSTD page of the corpus; and the cost of
// the content checksum (XXH64), which these pages do not carry.
// hz = pages/s; for the 1 MiB pages, hz = MiB/s.
import { bench, describe } from 'vitest';
import { Decompress, decompress as fzstdDecompress } from 'fzstd';
import { compress, decompress as wasmDecompress, init } from '@bokuweb/zstd-wasm';
import { CompressionCodec } from '@parquetry/parquet-codecs';
import { decodeZstd } from '../src/zstd-decode.js';
import { xxh64Low32 } from '../src/xxh64.js';
import { numericBytes, textBytes } from '../../parquet-codecs/test/inputs.js';
import { HAVE_CORPUS, corpusFiles, corpusPages } from '../../parquet-codecs/test/corpus-pages.js';

await init();

/**
 * fzstd the way codec-zstd drove it before our decoder: the frame re-headed as single-segment (so fzstd decodes into
 * one buffer instead of sliding a window), streamed block by block into `out`.
 */
function fzstdAsBefore(src: Uint8Array, out: Uint8Array): number {
  let at = 5;
  const fhd = src[4]!;
  if (!(fhd & 0x20)) at++;
  at += [0, 1, 2, 4][fhd & 3]!;
  const fcs = fhd >>> 6;
  at += fcs === 0 ? (fhd & 0x20 ? 1 : 0) : 1 << fcs;
  const copy = new Uint8Array(9 + src.length - at);
  copy.set([0x28, 0xb5, 0x2f, 0xfd, (2 << 6) | (1 << 5) | (fhd & 4)]);
  const size = out.length + 1;
  copy.set([size & 0xff, (size >>> 8) & 0xff, (size >>> 16) & 0xff, size >>> 24], 5);
  copy.set(src.subarray(at), 9);
  let op = 0;
  new Decompress((chunk) => {
    out.set(chunk, op);
    op += chunk.length;
  }).push(copy, true);
  return op;
}
const MiB = 1 << 20;
const out = new Uint8Array(MiB);

for (const [name, input] of [['text-like', textBytes(MiB, 41)], ['numeric-like', numericBytes(MiB, 42)]] as const) {
  for (const level of [3, 19]) {
    const packed = compress(input, level);
    const check = new Uint8Array(MiB);
    if (decodeZstd(packed, check) !== MiB || !Buffer.from(check).equals(Buffer.from(input))) throw new Error('bench setup: round trip');
    if (fzstdAsBefore(packed, check) !== MiB || !Buffer.from(check).equals(Buffer.from(input))) throw new Error('bench setup: fzstd');
    describe(`ZSTD decompress, 1 MiB ${name} page, level ${level} (${packed.length} bytes; hz = MiB/s)`, () => {
      bench('decodeZstd (ours)', () => {
        decodeZstd(packed, out);
      });
      bench('fzstd as codec-zstd drove it (single-segment re-header, streaming)', () => {
        fzstdAsBefore(packed, out);
      });
      bench('fzstd decompress (one-shot)', () => {
        fzstdDecompress(packed);
      });
      bench('@bokuweb/zstd-wasm decompress (reference C in WASM)', () => {
        wasmDecompress(packed);
      });
    });
  }
}

// the WASM compressor writes no content checksum: what verifying one costs is XXH64 over the page
describe('content checksum: XXH64 of 1 MiB (hz = MiB/s)', () => {
  const page = textBytes(MiB, 43);
  bench('xxh64Low32 (ours, 32-bit halves)', () => {
    xxh64Low32(page, 0, MiB);
  });
});

if (HAVE_CORPUS) {
  const pages: { body: Uint8Array; out: Uint8Array }[] = [];
  let bytes = 0;
  for (const file of corpusFiles()) {
    for (const p of corpusPages(file, [])) {
      if (p.codec !== CompressionCodec.ZSTD) continue;
      pages.push({ body: p.body, out: new Uint8Array(p.size) });
      bytes += p.size;
    }
  }
  describe(`ZSTD decompress, all ${pages.length} corpus pages (${bytes} bytes; hz = passes over all of them per s)`, () => {
    bench('decodeZstd (ours)', () => {
      for (const p of pages) decodeZstd(p.body, p.out);
    });
    bench('fzstd as codec-zstd drove it', () => {
      for (const p of pages) fzstdAsBefore(p.body, p.out);
    });
    bench('@bokuweb/zstd-wasm decompress', () => {
      for (const p of pages) wasmDecompress(p.body);
    });
  });
}
