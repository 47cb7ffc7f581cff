#!/usr/bin/env node
// Measures SNAPPY page decompression: the TypeScript loop, the WebAssembly kernel and native snappy (npm `snappy`,
// Google's C++), over every SNAPPY data page of the generated benchmark files; then the per-call crossover between
// the TypeScript loop and the kernel on small outputs. Not a test. Needs the built dists:
//   (cd packages/thrift-compact && npx tsc -b) && (cd packages/parquet-codecs && npx tsc -b)
//   node tools/wasm/snappy-speed.mjs [file.parquet ...]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { snappyDecompress, snappyCompress, setSnappyDecoder, snappyWasmAvailable } = await import(path.join(ROOT, 'packages/parquet-codecs/dist/snappy.js'));
const { CompressionCodec } = await import(path.join(ROOT, 'packages/parquet-codecs/dist/compression-codec.js'));
const { PageType, decodeThrift, readFileMetaData, readPageHeader } = await import(path.join(ROOT, 'packages/thrift-compact/dist/index.js'));
const snappy = createRequire(path.join(ROOT, 'package.json'))('snappy');

/** The compressed body and declared size of every SNAPPY data page (v1, and v2 after its level bytes). */
function snappyPages(file) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const n = bytes.length;
  const footerLen = new DataView(bytes.buffer, bytes.byteOffset).getUint32(n - 8, true);
  const meta = decodeThrift(readFileMetaData, bytes, n - 8 - footerLen, n - 8).value;
  const pages = [];
  for (const rg of meta.row_groups) {
    for (const cc of rg.columns) {
      const md = cc.meta_data;
      if (!md || md.codec !== CompressionCodec.SNAPPY) continue;
      const dict = md.dictionary_page_offset;
      let pos = dict !== undefined && dict > 0 && dict < md.data_page_offset ? dict : md.data_page_offset;
      const end = pos + md.total_compressed_size;
      while (pos < end) {
        const d = decodeThrift(readPageHeader, bytes, pos, n);
        const h = d.value;
        pos = d.end;
        let body = bytes.subarray(pos, pos + h.compressed_page_size);
        let size = h.uncompressed_page_size;
        pos += h.compressed_page_size;
        if (h.type === PageType.DATA_PAGE) {
          pages.push({ body, size });
        } else if (h.type === PageType.DATA_PAGE_V2 && h.data_page_header_v2 && h.data_page_header_v2.is_compressed !== false) {
          const lv = h.data_page_header_v2.definition_levels_byte_length + h.data_page_header_v2.repetition_levels_byte_length;
          pages.push({ body: body.subarray(lv), size: size - lv });
        }
      }
    }
  }
  return pages;
}

function bestOf(runs, fn) {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

const files = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['fixtures/generated/numeric-10m.snappy.parquet', 'fixtures/generated/mixed-1m.snappy.parquet'].map((f) => path.join(ROOT, f));
console.log(`WebAssembly kernel available: ${await snappyWasmAvailable()}`);
for (const file of files) {
  const pages = snappyPages(file);
  const total = pages.reduce((s, p) => s + p.size, 0);
  const outs = pages.map((p) => new Uint8Array(p.size));
  // the three decoders must agree before they are timed
  setSnappyDecoder('ts');
  const ref = pages.map((p) => {
    const o = new Uint8Array(p.size);
    snappyDecompress(p.body, o);
    return o;
  });
  setSnappyDecoder('auto');
  pages.forEach((p, i) => {
    snappyDecompress(p.body, outs[i]);
    if (Buffer.compare(outs[i], ref[i]) !== 0) throw new Error(`wasm differs on page ${i}`);
    if (Buffer.compare(snappy.uncompressSync(Buffer.from(p.body.buffer, p.body.byteOffset, p.body.length)), ref[i]) !== 0) throw new Error(`native differs on page ${i}`);
  });
  const rows = [];
  for (const [label, m] of [['TypeScript loop', 'ts'], ['WebAssembly kernel (auto)', 'auto']]) {
    setSnappyDecoder(m);
    const ms = bestOf(5, () => {
      for (let i = 0; i < pages.length; i++) snappyDecompress(pages[i].body, outs[i]);
    });
    rows.push([label, ms]);
  }
  const bufs = pages.map((p) => Buffer.from(p.body.buffer, p.body.byteOffset, p.body.length));
  rows.push(['native snappy (C++)', bestOf(5, () => {
    for (const b of bufs) snappy.uncompressSync(b);
  })]);
  console.log(`\n${path.basename(file)}: ${pages.length} SNAPPY data pages, ${(total / 1e6).toFixed(1)} MB uncompressed (best of 5)`);
  for (const [label, ms] of rows) console.log(`  ${label.padEnd(26)} ${ms.toFixed(1).padStart(8)} ms  ${(total / 1e6 / (ms / 1000)).toFixed(0).padStart(6)} MB/s`);
}

// Crossover: per-call cost on small outputs (numeric-like bytes, as short pages and dictionary pages hold).
console.log('\nsmall outputs: ns per call (best of 5 x 20000 calls)');
const dv = new DataView(new ArrayBuffer(8192));
let v = 1_700_000_000;
for (let i = 0; i < 8192; i += 4) dv.setUint32(i, (v += (i * 7919) % 97), true);
const sample = new Uint8Array(dv.buffer);
for (const size of [0, 16, 64, 256, 1024, 4096]) {
  const packed = snappyCompress(sample.subarray(0, size));
  const out = new Uint8Array(size);
  const line = [];
  for (const m of ['ts', 'auto']) {
    setSnappyDecoder(m);
    const ms = bestOf(5, () => {
      for (let i = 0; i < 20000; i++) snappyDecompress(packed, out);
    });
    line.push(`${m} ${((ms * 1e6) / 20000).toFixed(0).padStart(6)}`);
  }
  console.log(`  ${String(size).padStart(5)} B: ${line.join('  ')}`);
}
setSnappyDecoder('auto');
