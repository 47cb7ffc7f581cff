// ScanStats.columns gives each leaf its own entry, also where a field name has a dot: a top-level `a.b` and the `b` of
// a struct `a` share the dotted path 'a.b', so the first is keyed by its JSON path. Before, both counted into 'a.b'.
import { builtinCodecs } from '@parquetry/parquet-codecs';
import { describe, expect, test } from 'vitest';
import { field, writeParquet } from '../../parquet-writer/src/index.js';
import { openParquet, type ScanStats } from '../src/index.js';

describe('per-column scan statistics keys', () => {
  test('two leaves with one dotted path count apart', async () => {
    const bytes = await writeParquet([{ 'a.b': 1, a: { b: 'x' }, c: 2 }], { schema: { 'a.b': field.int32(), a: field.struct({ b: field.string() }), c: field.int32() }, pageRows: 1 });
    const file = await openParquet(bytes, { codecs: builtinCodecs() });
    let stats: ScanStats | undefined;
    await file.readRows({ onScan: (s) => (stats = s) });
    expect(Object.keys(stats!.columns).sort()).toEqual(['["a.b"]', 'a.b', 'c']);
    for (const k of ['["a.b"]', 'a.b', 'c']) expect(stats!.columns[k]).toMatchObject({ chunks: 1, pagesRead: 1 });
  });
});
