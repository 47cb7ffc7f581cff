/**
 * Footer decoding: a DuckDB-written file with 1,000 row groups x 50 columns (every chunk with statistics),
 * decoded by @parquetry/thrift-compact and by hyparquet's parquetMetadata from the same bytes in the same run.
 * hyparquet also converts statistics to typed values and builds its schema objects; we decode the raw model.
 */
import fs from 'node:fs';
import { parquetMetadata } from 'hyparquet';
import { bench, describe } from 'vitest';
import { decodeThrift, readFileMetaData } from '@parquetry/thrift-compact';
// @ts-expect-error: plain .mjs tool without types
import { WIDE_FOOTER, makeWideFooter } from '../../../tools/fixtures/make-wide-footer.mjs';

if (!fs.existsSync(WIDE_FOOTER as string)) await makeWideFooter();
const fd = fs.openSync(WIDE_FOOTER as string, 'r');
const size = fs.fstatSync(fd).size;
const tail = Buffer.alloc(8);
fs.readSync(fd, tail, 0, 8, size - 8);
const len = tail.readUInt32LE(0);
// footer + length + magic, the region both decoders need
const region = new Uint8Array(len + 8);
fs.readSync(fd, region, 0, len + 8, size - 8 - len);
fs.closeSync(fd);
const ab = region.buffer.slice(region.byteOffset, region.byteOffset + region.byteLength);

describe(`decode a ${(len / 1e6).toFixed(1)} MB footer (1,000 row groups x 50 columns)`, () => {
  bench('parquetry decodeThrift(readFileMetaData)', () => {
    const m = decodeThrift(readFileMetaData, region, 0, len).value;
    if (m.row_groups.length !== 1000) throw new Error('wrong row group count');
  });
  bench('hyparquet parquetMetadata', () => {
    const m = parquetMetadata(ab);
    if (m.row_groups.length !== 1000) throw new Error('wrong row group count');
  });
});
