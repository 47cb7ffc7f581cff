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

import { parquetMetadata } from 'hyparquet';
import { CompressionCodec, ConvertedType, FieldRepetitionType, Type } from '@parquetry/thrift-compact';
import type { ColumnChunk, SchemaElement } from '@parquetry/thrift-compact';

const named = <T>(o: object, k: unknown): T | undefined => (k === undefined ? undefined : (o as Record<string, T>)[String(k)]);

/**
 * hyparquet's (lenient) footer parse mapped to the fields this package's tests use, for bad files whose
 * footer the strict generated reader rejects: schema elements, and per row group its num_rows and the
 * columns' codec, num_values and page offsets.
 */
export function lenientFooter(rel: string): { bytes: Uint8Array; schema: SchemaElement[]; rowGroups: { num_rows: number; columns: ColumnChunk[] }[] } {
  const bytes = new Uint8Array(fs.readFileSync(path.join(testing, rel)));
  const md = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  const schema = md.schema.map((e): SchemaElement => {
    const o: SchemaElement = { name: e.name };
    const t = named<Type>(Type, e.type);
    if (t !== undefined) o.type = t;
    const r = named<FieldRepetitionType>(FieldRepetitionType, e.repetition_type);
    if (r !== undefined) o.repetition_type = r;
    const c = named<ConvertedType>(ConvertedType, e.converted_type);
    if (c !== undefined) o.converted_type = c;
    if (e.num_children !== undefined) o.num_children = e.num_children;
    if (e.type_length !== undefined) o.type_length = e.type_length;
    return o;
  });
  const rowGroups = md.row_groups.map((rg) => ({
    num_rows: Number(rg.num_rows),
    columns: rg.columns.map((cc) => {
      const m = cc.meta_data!;
      return {
        file_offset: 0,
        meta_data: {
          codec: named<number>(CompressionCodec, m.codec) ?? -1,
          num_values: Number(m.num_values),
          data_page_offset: Number(m.data_page_offset),
          ...(m.dictionary_page_offset === undefined ? {} : { dictionary_page_offset: Number(m.dictionary_page_offset) }),
        },
      } as unknown as ColumnChunk;
    }),
  }));
  return { bytes, schema, rowGroups };
}
