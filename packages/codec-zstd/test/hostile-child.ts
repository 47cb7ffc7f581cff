// Run by zstd-hostile.test.ts in a child process (bundled with esbuild), so that a decoder that hangs is killed by
// the parent's timeout instead of freezing vitest. Prints one JSON line.
//   node child.mjs file <path>            — a fuzz-style input (3-byte little-endian page size, then the page)
//   node child.mjs hex <hex> <size>        — one stream
//   node child.mjs mutate <seeds.json> <runs> <seed> — fast-check: random mutations of valid streams decode or throw
//                                            a ParquetError, each call bounded, and agree with the reference decoder
//                                            (WASM): both decode to the same bytes, or both refuse
import fs from 'node:fs';
import fc from 'fast-check';
import { decompress as referenceDecompress, init as referenceInit } from '@bokuweb/zstd-wasm';
import { zstdDecoder } from '@parquetry/codec-zstd';
import { decodeZstd } from '../src/zstd-decode.js';

interface Outcome {
  code: string;
  ms: number;
}

function run(src: Uint8Array, size: number, through: 'decoder' | 'codec'): Outcome {
  const t = performance.now();
  let code = 'ok';
  try {
    const out = new Uint8Array(size);
    const n = through === 'codec' ? zstdDecoder.decompress(src, out) : decodeZstd(src, out);
    if (!(n >= 0 && n <= size)) code = `BAD_LENGTH ${n}`;
  } catch (e) {
    code = (e as Error)?.name === 'ParquetError' ? `${(e as { code: string }).code} ${(e as Error).message}` : `UNTYPED ${String(e)}`;
  }
  return { code, ms: performance.now() - t };
}

const [mode, a, b, c] = process.argv.slice(2);
if (mode === 'file') {
  const bytes = new Uint8Array(fs.readFileSync(a!));
  const size = bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16);
  console.log(JSON.stringify({ decoder: run(bytes.subarray(3), size, 'decoder'), codec: run(bytes.subarray(3), size, 'codec') }));
} else if (mode === 'hex') {
  const bytes = new Uint8Array(Buffer.from(a!, 'hex'));
  console.log(JSON.stringify({ decoder: run(bytes, Number(b), 'decoder'), codec: run(bytes, Number(b), 'codec') }));
} else if (mode === 'mutate') {
  const seeds = (JSON.parse(fs.readFileSync(a!, 'utf8')) as { hex: string; size: number }[]).map((x) => ({ bytes: new Uint8Array(Buffer.from(x.hex, 'hex')), size: x.size }));
  await referenceInit();
  let runs = 0;
  let maxMs = 0;
  let decoded = 0;
  const codes = new Map<string, number>();
  const mutation = fc.record({
    kind: fc.constantFrom('set', 'flip', 'truncate', 'insert', 'delete', 'splice'),
    at: fc.nat(),
    value: fc.integer({ min: 0, max: 255 }),
    len: fc.integer({ min: 1, max: 16 }),
  });
  fc.assert(
    fc.property(fc.nat(seeds.length - 1), fc.array(mutation, { minLength: 1, maxLength: 6 }), fc.integer({ min: -64, max: 64 }), (which, muts, slack) => {
      const seed = seeds[which]!;
      let bytes = seed.bytes.slice();
      for (const m of muts) {
        if (bytes.length === 0) break;
        const at = m.at % bytes.length;
        if (m.kind === 'set') bytes[at] = m.value;
        else if (m.kind === 'flip') bytes[at]! ^= 1 << (m.value & 7);
        else if (m.kind === 'truncate') bytes = bytes.slice(0, at);
        else if (m.kind === 'insert') bytes = new Uint8Array([...bytes.subarray(0, at), ...new Array<number>(m.len).fill(m.value), ...bytes.subarray(at)]);
        else if (m.kind === 'delete') bytes = new Uint8Array([...bytes.subarray(0, at), ...bytes.subarray(at + m.len)]);
        else bytes.set(seeds[m.value % seeds.length]!.bytes.subarray(0, Math.min(m.len, bytes.length - at)), at);
      }
      const size = Math.max(0, seed.size + slack);
      const out = new Uint8Array(size);
      const t = performance.now();
      let r: Outcome;
      let n = -1;
      try {
        n = decodeZstd(bytes, out);
        r = { code: 'ok', ms: performance.now() - t };
      } catch (e) {
        r = { code: (e as Error)?.name === 'ParquetError' ? `${(e as { code: string }).code} ${(e as Error).message}` : `UNTYPED ${String(e)}`, ms: performance.now() - t };
      }
      // the reference decoder, given room for one byte more than the page so that a longer output shows
      let ref: Uint8Array | undefined;
      try {
        ref = referenceDecompress(bytes, { defaultHeapSize: size + 1 });
      } catch {
        ref = undefined;
      }
      const refOk = ref !== undefined && ref.length <= size;
      if (refOk !== (r.code === 'ok')) {
        throw new Error(`disagreement: ours ${r.code}, reference ${ref === undefined ? 'fails' : `${ref.length} bytes`} on ${Buffer.from(bytes).toString('hex')} (size ${size})`);
      }
      if (refOk && (n !== ref!.length || !Buffer.from(out.subarray(0, n)).equals(Buffer.from(ref!)))) {
        throw new Error(`different bytes from the reference on ${Buffer.from(bytes).toString('hex')} (size ${size})`);
      }
      runs++;
      maxMs = Math.max(maxMs, r.ms);
      const code = r.code.split(' ')[0]!;
      if (code === 'ok') decoded++;
      codes.set(code, (codes.get(code) ?? 0) + 1);
      if (code !== 'ok' && code !== 'CODEC_CORRUPT' && code !== 'CODEC_OVERRUN') throw new Error(`${r.code} on ${Buffer.from(bytes).toString('hex')} (size ${size})`);
    }),
    { numRuns: Number(b), seed: Number(c) },
  );
  console.log(JSON.stringify({ runs, maxMs, decoded, codes: Object.fromEntries(codes) }));
}
