// The umbrella as a browser app uses it: parquetry's openParquet (every codec preset) over HTTP.
import { fetchSource } from '../../../../packages/parquet-reader/src/index.js';
import { openParquet } from '../../../../packages/parquetry/src/index.js';
import { capture, type ReadUrl } from './read.js';

const readUrl: ReadUrl = (url, columns) =>
  capture(async () => {
    const file = await openParquet(await fetchSource(url));
    return file.readRows({ values: 'json', ...(columns === undefined ? {} : { columns }) });
  });
(globalThis as unknown as { readUrl: ReadUrl }).readUrl = readUrl;
