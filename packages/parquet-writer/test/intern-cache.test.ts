// The column writer's string-interning cache: strings new to a batch (seen twice in it), strings that collide in the
// cache (same length, first and last two characters), chunks and a dictionary fallback in between — every row reads
// back as written, and the file is the one written without repetition of cached strings' objects.
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { openParquet } from '@parquetry/parquet-reader';
import { describe, expect, test } from 'vitest';
import { createWriter, field, memorySink, writeParquet } from '../src/index.js';

const codecs = builtinCodecs();
const readRows = async (b: Uint8Array) => (await openParquet(b, { codecs })).readRows();

describe('string interning cache', () => {
  test('colliding and repeated strings across batches, row groups and a fallback read back equal', async () => {
    // 'aXYzz' variants share length, first and last two characters: the same cache slot
    const names = Array.from({ length: 300 }, (_, k) => `a${String.fromCharCode(65 + (k % 26))}${String.fromCharCode(65 + Math.floor(k / 26))}zz`);
    const rows: { s: string; l: string[] }[] = [];
    for (let i = 0; i < 40000; i++) {
      const k = (i * 7919) % names.length;
      rows.push({ s: names[k]!, l: [names[(k + 1) % names.length]!, names[k]!, `${names[k]}`.slice(0)] });
    }
    const schema = { s: field.string({ required: true }), l: field.list(field.string({ required: true })) };
    const bytes = await writeParquet(rows, { schema, rowGroupRows: 15000 });
    expect(await readRows(bytes)).toEqual(rows);
    // written in small batches (each with strings new to it, twice), then a dictionary that overflows its page
    const sink = memorySink();
    const w = createWriter(sink, { schema, dictionaryPageSize: 600 });
    for (let i = 0; i < rows.length; i += 333) await w.write(rows.slice(i, i + 333));
    await w.close();
    expect(await readRows(sink.take())).toEqual(rows);
  });

  test('the same strings as different objects: the same file', async () => {
    const rows = Array.from({ length: 20000 }, (_, i) => ({ s: `key-${i % 37}` }));
    const again = rows.map((r) => ({ s: [...r.s].join('') }));
    const schema = { s: field.string({ required: true }) };
    expect(Buffer.from(await writeParquet(again, { schema })).equals(Buffer.from(await writeParquet(rows, { schema })))).toBe(true);
  });
});
