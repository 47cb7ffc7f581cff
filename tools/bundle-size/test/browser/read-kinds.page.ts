// The budget table's reader-snappy entry (openParquet + fetchSource + snappyDecoder, imported as there) with one
// function per kind of read, to measure in Chromium what each kind loads on top of the initial load. Methods of the
// opened file add nothing to the initial load: this page's initial load is the entry's plus this file (~200 B gzip).
import { snappyDecoder } from '../../../../packages/parquet-codecs/src/index.js';
import { fetchSource, openParquet } from '../../../../packages/parquet-reader/src/index.js';

/** The kinds of read the page runs. */
export type ReadKind = 'rows' | 'columns' | 'batches' | 'filter';

/**
 * Opens the file at `url` and reads it one way.
 * @param url - the file.
 * @param kind - how to read it.
 * @returns the rows read, as JSON (INT64 as strings).
 */
export async function read(url: string, kind: ReadKind): Promise<string> {
  const file = await openParquet(await fetchSource(url), { codecs: { [snappyDecoder.codec]: snappyDecoder } });
  let out: unknown;
  if (kind === 'rows') out = await file.readRows();
  else if (kind === 'filter') out = await file.readRows({ filter: { column: 'id', op: '>=', value: 2n } });
  else if (kind === 'columns') out = (await file.readRowGroupColumns(0)).length;
  else {
    const rows: unknown[] = [];
    for await (const b of file.iterateBatches({ batchSize: 2 })) rows.push(...b.rows);
    out = rows;
  }
  return JSON.stringify(out, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
}
