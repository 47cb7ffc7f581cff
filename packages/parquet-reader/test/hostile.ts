// Tiny hostile Parquet files, written byte by byte from parquet.thrift (FileMetaData and PageHeader through the
// compact protocol) and Encodings.md (RLE hybrid runs, PLAIN), after the cases of issue 16: each is a few hundred
// bytes whose counts claim (or whose RLE runs honestly encode) tens of millions of values.
import { CompressionCodec } from '@parquetry/parquet-codecs';
import { ConvertedType, Encoding, FieldRepetitionType, Type, encodeThrift, writeFileMetaData, writePageHeader, type PageHeader, type SchemaElement } from '@parquetry/thrift-compact';

type EncodingNumber = (typeof Encoding)[keyof typeof Encoding];

export const cat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
export const u32 = (n: number) => new Uint8Array([n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24]);
export const varint = (x: number): Uint8Array => {
  const out: number[] = [];
  for (; x >= 0x80; x = Math.floor(x / 128)) out.push((x & 0x7f) | 0x80);
  out.push(x);
  return new Uint8Array(out);
};
/** One RLE run of `count` copies of `value` (bit width ≤ 8: one value byte). */
export const rleRun = (count: number, value: number) => cat(varint(count * 2), new Uint8Array([value]));
/** A data page V1 level stream: its 4-byte length and the hybrid runs. */
export const levelsV1 = (...runs: Uint8Array[]) => {
  const body = cat(...runs);
  return cat(u32(body.length), body);
};

const MAGIC = new Uint8Array([0x50, 0x41, 0x52, 0x31]);

/** A data page V1 with its header. */
export function dataPage(body: Uint8Array, numValues: number, opts: { encoding?: EncodingNumber; uncompressed?: number } = {}): Uint8Array {
  const header: PageHeader = {
    type: 0,
    uncompressed_page_size: opts.uncompressed ?? body.length,
    compressed_page_size: body.length,
    data_page_header: { num_values: numValues, encoding: opts.encoding ?? Encoding.PLAIN, definition_level_encoding: Encoding.RLE, repetition_level_encoding: Encoding.RLE },
  };
  return cat(encodeThrift(writePageHeader, header), body);
}

/** A one-column, one-row-group file: the magic, the pages, the footer, its length and the magic. */
export function oneColumnFile(schema: SchemaElement[], type: number, pages: Uint8Array, numValues: number, numRows: number, codec = 0, fileRows = numRows): Uint8Array {
  const path = schema.slice(1).map((s) => s.name);
  const footer = encodeThrift(writeFileMetaData, {
    version: 1,
    schema,
    num_rows: fileRows,
    row_groups: [
      {
        columns: [
          {
            file_offset: 4,
            meta_data: {
              type: type as Type,
              encodings: [Encoding.PLAIN, Encoding.RLE],
              path_in_schema: path,
              codec: codec as CompressionCodec,
              num_values: numValues,
              total_uncompressed_size: pages.length,
              total_compressed_size: pages.length,
              data_page_offset: 4,
            },
          },
        ],
        total_byte_size: pages.length,
        num_rows: numRows,
      },
    ],
  });
  return cat(MAGIC, pages, footer, u32(footer.length), MAGIC);
}

const flatSchema = (type: number): SchemaElement[] => [
  { name: 'schema', num_children: 1 },
  { name: 'x', repetition_type: FieldRepetitionType.REQUIRED, type: type as Type },
];
/** `optional group a (LIST) { repeated group list { optional int32 element } }`: max definition 3, repetition 1. */
const listSchema: SchemaElement[] = [
  { name: 'schema', num_children: 1 },
  { name: 'a', repetition_type: FieldRepetitionType.OPTIONAL, num_children: 1, converted_type: ConvertedType.LIST },
  { name: 'list', repetition_type: FieldRepetitionType.REPEATED, num_children: 1 },
  { name: 'element', repetition_type: FieldRepetitionType.OPTIONAL, type: Type.INT32 },
];

const N26 = 1 << 26;

/** The hostile files of issue 16, as reconstructed here, with the typed error each must end in. */
export function hostileFiles(): { name: string; bytes: Uint8Array; codes: string[] }[] {
  // 1. a valid file: one RLE run of 2^26 `true` (BOOLEAN, RLE encoding: 4-byte length + hybrid), 2^26 rows
  const oneRun = oneColumnFile(flatSchema(Type.BOOLEAN), Type.BOOLEAN, dataPage(levelsV1(rleRun(N26, 1)), N26, { encoding: Encoding.RLE }), N26, N26);
  // 2. one row holding a list of 2^26 null elements: rep 0 then 2^26-1 ones, def 2 throughout (no values)
  const bigList = oneColumnFile(listSchema, Type.INT32, dataPage(cat(levelsV1(rleRun(1, 0), rleRun(N26 - 1, 1)), levelsV1(rleRun(N26, 2))), N26), N26, 1);
  // 3. the row group and the chunk say 1 row; four pages of 2^26 values each follow (268M in all)
  const page3 = dataPage(levelsV1(rleRun(N26, 1)), N26, { encoding: Encoding.RLE });
  const oneRowFlat = oneColumnFile(flatSchema(Type.BOOLEAN), Type.BOOLEAN, cat(page3, page3, page3, page3), 4 * N26, 1);
  const listPage = dataPage(cat(levelsV1(rleRun(N26, 0)), levelsV1(rleRun(N26, 0))), N26);
  const oneRowList = oneColumnFile(listSchema, Type.INT32, cat(listPage, listPage, listPage, listPage), 1, 1);
  // 4. SNAPPY and GZIP pages of ~100 bytes claiming 2^31-1 uncompressed bytes
  const snappyBody = cat(varint(96), new Uint8Array([95 << 2]), new Uint8Array(96).fill(0x61));
  const snappyFile = oneColumnFile(flatSchema(Type.INT32), Type.INT32, dataPage(snappyBody, 24, { uncompressed: 2 ** 31 - 1 }), 24, 24, CompressionCodec.SNAPPY);
  const gzipBody = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, ...new Array(88).fill(0)]);
  const gzipFile = oneColumnFile(flatSchema(Type.INT32), Type.INT32, dataPage(gzipBody, 24, { uncompressed: 2 ** 31 - 1 }), 24, 24, CompressionCodec.GZIP);
  // 5. a LIST page claiming 2^26 levels whose level streams hold 2
  const shortLevels = oneColumnFile(listSchema, Type.INT32, dataPage(cat(levelsV1(rleRun(1, 0), rleRun(1, 1)), levelsV1(rleRun(2, 3)), u32(1), u32(2)), N26), N26, 1);
  // 6. a footer claiming 2^53-1 rows over row groups holding 3
  const hugeFooter = oneColumnFile(flatSchema(Type.INT32), Type.INT32, dataPage(cat(u32(1), u32(2), u32(3)), 3), 3, 3, 0, 2 ** 53 - 1);
  return [
    { name: `one RLE run of 2^26 rows (${oneRun.length} bytes)`, bytes: oneRun, codes: ['LIMIT_EXCEEDED'] },
    { name: `one row, a list of 2^26 nulls (${bigList.length} bytes)`, bytes: bigList, codes: ['LIMIT_EXCEEDED'] },
    { name: `row group of 1 row, flat chunk of 2^28 values (${oneRowFlat.length} bytes)`, bytes: oneRowFlat, codes: ['ROW_COUNT_MISMATCH'] },
    { name: `row group and chunk of 1 value, pages of 2^26 (${oneRowList.length} bytes)`, bytes: oneRowList, codes: ['CORRUPT_PAGE'] },
    { name: `SNAPPY page claiming 2^31-1 bytes (${snappyFile.length} bytes)`, bytes: snappyFile, codes: ['LIMIT_EXCEEDED', 'CODEC_SIZE'] },
    { name: `GZIP page claiming 2^31-1 bytes (${gzipFile.length} bytes)`, bytes: gzipFile, codes: ['LIMIT_EXCEEDED', 'CODEC_SIZE'] },
    { name: `LIST page claiming 2^26 levels from 2 (${shortLevels.length} bytes)`, bytes: shortLevels, codes: ['LIMIT_EXCEEDED', 'ENCODING_TRUNCATED'] },
    { name: `footer claiming 2^53-1 rows (${hugeFooter.length} bytes)`, bytes: hugeFooter, codes: ['ROW_COUNT_MISMATCH'] },
  ];
}
