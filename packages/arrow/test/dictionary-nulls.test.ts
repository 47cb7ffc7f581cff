// Arrow allows nulls among a dictionary's values, not only among its indices: a slot whose index points at a null
// value is null. Before, only the indices' validity was taken, and such slots were written as '' or 0 (QA helper-80
// F1; pyarrow refuses to write such a column, so the expectation is Arrow's own reading of the slots, toArray()).
import { Dictionary, Int64, Int8, Table, Utf8, makeData, makeVector, vectorFromArray } from 'apache-arrow';
import { describe, expect, test } from 'vitest';
import { syncCodecs } from 'parquetry';
import { openParquet } from '@parquetry/parquet-reader';
import { writeArrowTable } from '../src/index.js';

const codecs = syncCodecs();

describe('null dictionary values', () => {
  test('string and int64 dictionaries with a null value: those slots read back null, as Arrow reads them', async () => {
    const strings = makeData({ type: new Dictionary(new Utf8(), new Int8()), length: 4, nullCount: 1, nullBitmap: Uint8Array.of(0b1011), data: Int8Array.of(0, 1, 0, 2), dictionary: vectorFromArray(['a', null, 'c'], new Utf8()) });
    const ints = makeData({ type: new Dictionary(new Int64(), new Int8()), length: 4, nullCount: 0, data: Int8Array.of(1, 0, 1, 0), dictionary: vectorFromArray([10n, null], new Int64()) });
    const table = new Table({ s: makeVector(strings), n: makeVector(ints) });
    const expected = table.toArray().map((r) => ({ s: r.s as string | null, n: r.n as bigint | null }));
    expect(expected).toEqual([
      { s: 'a', n: null },
      { s: null, n: 10n },
      { s: null, n: null },
      { s: 'c', n: 10n },
    ]);
    const file = await openParquet(await writeArrowTable(table), { codecs });
    expect(await file.readRows()).toEqual(expected);
  });
});
