// MB/s of one module encrypt / decrypt through this package (WebCrypto) vs node:crypto's
// createCipheriv / createDecipheriv (OpenSSL, synchronous) in the same run. Module sizes follow real
// page sizes: 8 KiB (small pages, e.g. alltypes_tiny_pages), 64 KiB, 1 MiB (parquet-java / arrow default page).
// MB/s = hz × size. Both sides produce / consume the full framed module (length ‖ nonce ‖ ct ‖ tag).
import { createCipheriv, createDecipheriv, randomFillSync } from 'node:crypto';
import { bench, describe } from 'vitest';
import { ModuleType, createFileDecryptor, createFileEncryptor } from '../src/index.js';

const SIZES: [string, number][] = [
  ['8 KiB', 8 << 10],
  ['64 KiB', 64 << 10],
  ['1 MiB', 1 << 20],
];
const rawKey = randomFillSync(new Uint8Array(16));
const opts = (size: number) => ({ time: size >= 1 << 20 ? 600 : 300, warmupTime: 100 });

function frame(nonce: Uint8Array, parts: Uint8Array[]): Uint8Array {
  let n = nonce.length;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(4 + n);
  new DataView(out.buffer).setUint32(0, n, true);
  out.set(nonce, 4);
  let o = 4 + nonce.length;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

for (const algorithm of ['AES_GCM_V1', 'AES_GCM_CTR_V1'] as const) {
  const cipher = algorithm === 'AES_GCM_V1' ? 'GCM' : 'CTR';
  const fe = createFileEncryptor({ footerKey: rawKey, algorithm, aadFileUnique: new Uint8Array(8) });
  const ce = fe.columnEncryptor(0, 0, ['x'])!;
  const cd = createFileDecryptor({ footerKey: rawKey }, fe.algorithm).columnDecryptor(0, 0, ce.cryptoMetaData);
  // the AAD the package builds for data page 0 of column 0, row group 0 (GCM only)
  const aad = new Uint8Array([...new Uint8Array(8), ModuleType.DATA_PAGE, 0, 0, 0, 0, 0, 0]);
  const nodeAlg = algorithm === 'AES_GCM_V1' ? 'aes-128-gcm' : 'aes-128-ctr';

  for (const [label, size] of SIZES) {
    const plain = randomFillSync(new Uint8Array(size));
    const module = await ce.encrypt(ModuleType.DATA_PAGE, 0, plain);

    describe(`${cipher} encrypt, ${label} page`, () => {
      bench('parquet-crypto (WebCrypto)', async () => {
        await ce.encrypt(ModuleType.DATA_PAGE, 0, plain);
      }, opts(size));
      bench('node:crypto createCipheriv', () => {
        const nonce = randomFillSync(new Uint8Array(12));
        if (algorithm === 'AES_GCM_V1') {
          const c = createCipheriv('aes-128-gcm', rawKey, nonce);
          c.setAAD(aad);
          frame(nonce, [c.update(plain), c.final(), c.getAuthTag()]);
        } else {
          const iv = new Uint8Array(16);
          iv.set(nonce);
          iv[15] = 1;
          const c = createCipheriv(nodeAlg, rawKey, iv);
          frame(nonce, [c.update(plain), c.final()]);
        }
      }, opts(size));
    });

    describe(`${cipher} decrypt, ${label} page`, () => {
      bench('parquet-crypto (WebCrypto)', async () => {
        await cd.decrypt(ModuleType.DATA_PAGE, 0, module);
      }, opts(size));
      bench('node:crypto createDecipheriv', () => {
        const nonce = module.subarray(4, 16);
        if (algorithm === 'AES_GCM_V1') {
          const d = createDecipheriv('aes-128-gcm', rawKey, nonce);
          d.setAAD(aad);
          d.setAuthTag(module.subarray(module.length - 16));
          d.update(module.subarray(16, module.length - 16));
          d.final();
        } else {
          const iv = new Uint8Array(16);
          iv.set(nonce);
          iv[15] = 1;
          const d = createDecipheriv(nodeAlg, rawKey, iv);
          d.update(module.subarray(16));
          d.final();
        }
      }, opts(size));
    });
  }
}

// WebCrypto's cost includes a fixed latency per call (Node runs each job on libuv's thread pool). Does a reader
// gain by keeping several modules in flight? 16 small pages, one after another vs all at once.
{
  const fe = createFileEncryptor({ footerKey: rawKey, aadFileUnique: new Uint8Array(8) });
  const ce = fe.columnEncryptor(0, 0, ['x'])!;
  const cd = createFileDecryptor({ footerKey: rawKey }, fe.algorithm).columnDecryptor(0, 0, ce.cryptoMetaData);
  const size = 8 << 10;
  const modules = await Promise.all(Array.from({ length: 16 }, (_, i) => ce.encrypt(ModuleType.DATA_PAGE, i, randomFillSync(new Uint8Array(size)))));
  const aads = modules.map((_, i) => new Uint8Array([...new Uint8Array(8), ModuleType.DATA_PAGE, 0, 0, 0, 0, i, 0]));
  describe('GCM decrypt, 16 × 8 KiB pages', () => {
    bench('parquet-crypto, awaited one by one', async () => {
      for (let i = 0; i < 16; i++) await cd.decrypt(ModuleType.DATA_PAGE, i, modules[i]!);
    }, opts(size));
    bench('parquet-crypto, 16 in flight (Promise.all)', async () => {
      await Promise.all(modules.map((m, i) => cd.decrypt(ModuleType.DATA_PAGE, i, m)));
    }, opts(size));
    bench('node:crypto createDecipheriv', () => {
      for (let i = 0; i < 16; i++) {
        const m = modules[i]!;
        const d = createDecipheriv('aes-128-gcm', rawKey, m.subarray(4, 16));
        d.setAAD(aads[i]!);
        d.setAuthTag(m.subarray(m.length - 16));
        d.update(m.subarray(16, m.length - 16));
        d.final();
      }
    }, opts(size));
  });
}
