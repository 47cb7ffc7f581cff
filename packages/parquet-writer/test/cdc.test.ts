// Content-defined chunking: after rows are inserted in the middle of a table, most pages of the rewritten file are
// byte-identical to the original's (they would all shift with count-based pages), every page still starts a record,
// and the values read back exactly.
import { createHash } from 'node:crypto';
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { PageReader } from '@parquetry/parquet-column';
import { openParquet } from '@parquetry/parquet-reader';
import { PageType } from '@parquetry/thrift-compact';
import { expect, test } from 'vitest';
import { field, writeParquet, type WriterOptions } from '../src/index.js';

const codecs = builtinCodecs();
const schema = { id: field.int64({ required: true }), name: field.string(), tags: field.list(field.string()) };
const mix = (x: number) => {
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  return (x ^ (x >>> 16)) >>> 0;
};
const rowAt = (i: number) => ({ id: BigInt(mix(i)) * 7n, name: mix(i + 1) % 7 === 0 ? null : `name-${mix(i + 2) % 100000}`, tags: Array.from({ length: mix(i + 3) % 4 }, (_, j) => `t${mix(i * 4 + j) % 50}`) });

async function pageDigests(bytes: Uint8Array): Promise<string[]> {
  const f = await openParquet(bytes, { codecs });
  const out: string[] = [];
  for (const [g, rg] of f.metadata.row_groups.entries()) {
    for (const cc of rg.columns) {
      const md = cc.meta_data!;
      const start = md.dictionary_page_offset ?? md.data_page_offset;
      const r = new PageReader(bytes.subarray(start, start + md.total_compressed_size), { rowGroup: g, path: '', offset: start }, { codec: md.codec, codecs, hasDictionaryPage: md.dictionary_page_offset !== undefined });
      for (let p = await r.next(); p; p = await r.next()) if (p.header.type !== PageType.DICTIONARY_PAGE) out.push(createHash('sha256').update(p.data).digest('hex'));
    }
  }
  return out;
}

async function shared(opts: WriterOptions): Promise<{ same: number; total: number }> {
  const a = Array.from({ length: 40_000 }, (_, i) => rowAt(i));
  const b = [...a.slice(0, 20_000), ...Array.from({ length: 25 }, (_, i) => rowAt(1_000_000 + i)), ...a.slice(20_000)];
  const fa = await writeParquet(a, { schema, dictionary: false, ...opts });
  const fb = await writeParquet(b, { schema, dictionary: false, ...opts });
  expect(await (await openParquet(fb, { codecs })).readRows()).toEqual(b);
  const da = await pageDigests(fa);
  const db = new Set(await pageDigests(fb));
  return { same: da.filter((d) => db.has(d)).length, total: da.length };
}

test('with content-defined chunking most pages survive an insertion; with count-based pages they do not', async () => {
  const cdc = await shared({ contentDefinedChunking: { minChunkSize: 4 * 1024, maxChunkSize: 32 * 1024 } });
  const fixed = await shared({ pageRows: 2000 });
  console.log(`content-defined chunking: ${cdc.same}/${cdc.total} pages unchanged after an insertion; count-based: ${fixed.same}/${fixed.total}`);
  expect(cdc.total).toBeGreaterThan(30);
  expect(cdc.same / cdc.total).toBeGreaterThan(0.85);
  expect(fixed.same / fixed.total).toBeLessThan(0.6);
});
