import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeThrift, readFileMetaData } from '@parquetry/thrift-compact';
import type { FileMetaData } from '@parquetry/thrift-compact';

export const testing = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/parquet-testing');
export const HAVE_CORPUS = fs.existsSync(testing);
if (!HAVE_CORPUS) console.warn(`parquet-levels: skipping corpus tests, ${testing} not found`);

/** Reads a corpus file's footer with the generated thrift reader. */
export function footer(rel: string): { bytes: Uint8Array; meta: FileMetaData } {
  const bytes = new Uint8Array(fs.readFileSync(path.join(testing, rel)));
  const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
  const start = bytes.length - 8 - len;
  return { bytes, meta: decodeThrift(readFileMetaData, bytes, start, bytes.length - 8, 0).value };
}
