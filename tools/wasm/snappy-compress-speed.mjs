#!/usr/bin/env node
// Measures SNAPPY compression of four 1 MiB page-like inputs: the TypeScript encoder, the WebAssembly kernel and
// native snappy (npm `snappy`, Google's C++), as the fastest of several runs (MiB/s), with the load average.
// Not a test. Runs on a compiled copy of the package (no build of dist/ needed):
//   (cd packages/parquet-codecs && npx tsc -p tsconfig.json --outDir /tmp/pc-dist --tsBuildInfoFile /tmp/pc-dist/.tsbuildinfo)
//   node tools/wasm/snappy-compress-speed.mjs [/tmp/pc-dist] [--before /tmp/pc-old] [--runs 40] [--sizes]
// --before adds the snappyCompress of another build (e.g. the commit before this kernel) as "TS before". The
// encoders take turns call by call, so the machine's load falls on all of them alike.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const opt = (name) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined);
const positional = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && ['--runs', '--before'].includes(args[i - 1])));
const dist = path.resolve(positional[0] ?? path.join(ROOT, 'packages/parquet-codecs/dist'));
const RUNS = Number(opt('--runs') ?? 40);
const before = opt('--before') ? await import(path.join(path.resolve(opt('--before')), 'snappy.js')) : undefined;
const { snappyCompress, snappyDecompress } = await import(path.join(dist, 'snappy.js'));
const mod = fs.existsSync(path.join(dist, 'snappy-compress.js')) ? await import(path.join(dist, 'snappy-compress.js')) : {};
const setEncoder = mod.setSnappyEncoder;
const snappy = createRequire(path.join(ROOT, 'package.json'))('snappy');

/** mulberry32 */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MiB = 1 << 20;

/** PLAIN INT64: sequential ids from 1e9 (low and high 32-bit words). */
function int64Ids() {
  const w = new Uint32Array(MiB / 4);
  for (let i = 0; i < MiB / 8; i++) w[2 * i] = 1_000_000_000 + i;
  return new Uint8Array(w.buffer);
}

/** PLAIN BYTE_ARRAY: 4-byte little-endian length 32, then 32 random lowercase hex digits, cut at 1 MiB. */
function hexStrings() {
  const r = rng(7);
  const out = new Uint8Array(MiB);
  const hex = '0123456789abcdef';
  for (let p = 0; p < MiB; ) {
    const rec = new Uint8Array(36);
    rec[0] = 32;
    for (let i = 0; i < 32; i++) rec[4 + i] = hex.charCodeAt((r() * 16) | 0);
    out.set(rec.subarray(0, Math.min(36, MiB - p)), p);
    p += 36;
  }
  return out;
}

/** PLAIN DOUBLE: uniform random doubles in [-1000, 1000). */
function randomDoubles() {
  const r = rng(8);
  const d = new Float64Array(MiB / 8);
  for (let i = 0; i < d.length; i++) d[i] = r() * 2000 - 1000;
  return new Uint8Array(d.buffer);
}

/**
 * RLE_DICTIONARY indices as a writer emits them: bit width 7 (a 100-entry dictionary), skewed (an index is the min of
 * two uniform draws), values in runs of geometric length (mean 4); runs that cover 8 or more values after filling
 * the pending bit-packed group become RLE runs, the rest is bit-packed in groups of 8 (at most 63 groups a run).
 */
function dictIndices() {
  const W = 7;
  const r = rng(9);
  const out = new Uint8Array(MiB + 1024);
  out[0] = W; // the bit width byte that starts a data page's indices
  let p = 1;
  const uvarint = (v) => {
    while (v >= 0x80) {
      out[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    out[p++] = v;
  };
  let pending = [];
  const flushPacked = () => {
    if (pending.length === 0) return;
    while (pending.length % 8) pending.push(0);
    uvarint(((pending.length / 8) << 1) | 1);
    let acc = 0;
    let bits = 0;
    for (const v of pending) {
      acc |= v << bits;
      bits += W;
      while (bits >= 8) {
        out[p++] = acc & 0xff;
        acc >>>= 8;
        bits -= 8;
      }
    }
    pending = [];
  };
  while (p < MiB) {
    const v = Math.min((r() * 100) | 0, (r() * 100) | 0);
    let len = 1;
    while (r() > 1 / 4) len++;
    const fill = (8 - (pending.length % 8)) % 8;
    if (len >= 8 + fill) {
      for (let i = 0; i < fill; i++) pending.push(v);
      flushPacked();
      uvarint((len - fill) << 1);
      out[p++] = v;
    } else {
      for (let i = 0; i < len; i++) {
        pending.push(v);
        if (pending.length >= 504) flushPacked();
      }
    }
  }
  return out.slice(0, MiB);
}

const INPUTS = [
  ['PLAIN INT64 sequential ids', int64Ids()],
  ['PLAIN BYTE_ARRAY 32-char hex', hexStrings()],
  ['PLAIN DOUBLE random', randomDoubles()],
  ['RLE_DICTIONARY indices (7 bits)', dictIndices()],
];

/** The fastest call of each function, taking turns call by call; after 5 warm-up calls each. */
function bestMsEach(fns, runs) {
  for (const f of fns) for (let i = 0; i < 5; i++) f();
  const best = fns.map(() => Infinity);
  for (let r = 0; r < runs; r++) {
    fns.forEach((f, i) => {
      const t = performance.now();
      f();
      best[i] = Math.min(best[i], performance.now() - t);
    });
  }
  return best;
}

function roundTrips(packed, input) {
  const back = snappy.uncompressSync(Buffer.from(packed.buffer, packed.byteOffset, packed.length));
  const ours = new Uint8Array(input.length);
  snappyDecompress(packed, ours);
  return Buffer.compare(back, input) === 0 && Buffer.compare(ours, input) === 0;
}

const impls = [];
if (before) impls.push(['TS before', (s) => before.snappyCompress(s)]);
if (setEncoder) {
  impls.push(['TS', (s) => (setEncoder('ts'), snappyCompress(s))]);
  impls.push(['WASM', (s) => (setEncoder('auto'), snappyCompress(s))]);
} else {
  impls.push(['TS', (s) => snappyCompress(s)]);
}
impls.push(['native', (s) => snappy.compressSync(Buffer.from(s.buffer, s.byteOffset, s.length))]);

console.log(`${dist}  (WebAssembly kernel: ${setEncoder ? mod.snappyCompressWasmAvailable() : 'n/a'}), min of ${RUNS} runs`);
console.log(`load average before: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
for (const [label, input] of INPUTS) {
  const sizes = impls.map(([name, f]) => {
    const packed = new Uint8Array(f(input));
    if (!roundTrips(packed, input)) throw new Error(`${name} does not round-trip ${label}`);
    return packed.length;
  });
  const ms = bestMsEach(
    impls.map(([, f]) => () => f(input)),
    RUNS,
  );
  const cells = impls.map(([name], i) => `${name} ${(input.length / MiB / (ms[i] / 1000)).toFixed(0).padStart(5)} MiB/s ${String(sizes[i]).padStart(8)} B`);
  console.log(`${label.padEnd(34)} ${cells.join(' | ')}`);
}
if (setEncoder && args.includes('--sizes')) {
  // per-call cost on small pages, where the copies and the call itself weigh most
  const small = impls.filter(([name]) => name === 'TS' || name === 'WASM');
  for (const n of [0, 16, 100, 1000, 4096, 16384, 65536]) {
    const s = INPUTS[0][1].subarray(0, n);
    const reps = Math.max(1, (1 << 16) / Math.max(n, 64));
    const ms = bestMsEach(
      small.map(([, f]) => () => {
        for (let i = 0; i < reps; i++) f(s);
      }),
      15,
    );
    console.log(`${String(n).padStart(6)} bytes: ${small.map(([name], i) => `${name} ${((ms[i] * 1000) / reps).toFixed(2)} us`).join(' | ')}`);
  }
}
console.log(`load average after: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
setEncoder?.('auto');
