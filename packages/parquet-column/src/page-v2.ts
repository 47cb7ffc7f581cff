/**
 * Data page V2 (parquet.thrift `DataPageHeaderV2`): its levels stored apart from its values, uncompressed, before
 * them; only the values compressed (unless `is_compressed` is false). Few writers produce V2 pages, so this module is
 * loaded with `import()` on the first V2 page a chunk holds ({@link loadPageV2}), which keeps it out of a browser
 * reader's initial load; data page V1 and dictionary pages never load it.
 *
 * Spec: https://github.com/apache/parquet-format/blob/master/README.md ("Data Pages").
 *
 * @module
 */
import type { bitWidthOf, rleHybridAllEqual } from '@parquetry/parquet-encodings/read';
import type { checkLevelCapacity, decodeLevelsV2 } from '@parquetry/parquet-levels/read';
import type { DataPageHeaderV2, PageHeader } from '@parquetry/thrift-compact';

/**
 * The level functions {@link decodePageV2Levels} uses, passed in by its caller: this module imports no code, so that
 * a bundler's chunk for it holds it alone (a module it imported would also be reached from this `import()` target
 * and be grouped apart from the rest of the initial load: one more file, compressed alone).
 */
export interface LevelFunctions {
  checkLevelCapacity: typeof checkLevelCapacity;
  decodeLevelsV2: typeof decodeLevelsV2;
  rleHybridAllEqual: typeof rleHybridAllEqual;
  bitWidthOf: typeof bitWidthOf;
}

/** What reading a V2 page needs from its page reader. */
export interface PageV2Reader {
  /** Throws the located `CORRUPT_PAGE` error of the page. */
  fail(msg: string): never;
  /** Checks the value count the page claims (against the page bound and the values its chunk has left). */
  count(n: number): void;
  /** Decompresses the values section (`at`: its position in the page body) into `size` bytes. */
  inflate(values: Uint8Array, size: number, at: number): Promise<Uint8Array>;
}

/**
 * Splits a V2 page body into its level bytes and its values, decompressing the values.
 * @param header - the page header.
 * @param body - the page body (decrypted).
 * @param reader - the page reader's checks and decompression.
 * @returns the values (decompressed), the level bytes and the page's value count.
 * @throws ParquetError `CORRUPT_PAGE` (through `reader.fail`), and what `reader.inflate` throws.
 */
export async function readPageV2(header: PageHeader, body: Uint8Array, reader: PageV2Reader): Promise<{ data: Uint8Array; levels: Uint8Array; numValues: number }> {
  const dh = header.data_page_header_v2;
  if (!dh) reader.fail('data page V2 without data_page_header_v2');
  reader.count(dh.num_values);
  const rl = dh.repetition_levels_byte_length;
  const dl = dh.definition_levels_byte_length;
  if (!(rl >= 0 && dl >= 0 && rl + dl <= body.length)) reader.fail(`level byte lengths ${rl} + ${dl} exceed the page body (${body.length} bytes)`);
  const compressed = body.subarray(rl + dl);
  const valuesSize = header.uncompressed_page_size - rl - dl;
  let data: Uint8Array;
  if (dh.is_compressed === false || (compressed.length === 0 && valuesSize === 0)) {
    if (compressed.length !== valuesSize) reader.fail(`uncompressed V2 page values hold ${compressed.length} bytes, the header declares ${valuesSize}`);
    data = compressed;
  } else {
    data = await reader.inflate(compressed, valuesSize, rl + dl);
  }
  return { data, levels: body.subarray(0, rl + dl), numValues: dh.num_values };
}

/**
 * Decodes the repetition and definition levels of a V2 page.
 * @param levels - the page's level bytes (repetition then definition levels).
 * @param dh - the page's V2 header (the byte length of each).
 * @param maxRep - the column's max repetition level.
 * @param maxDef - the column's max definition level.
 * @param n - the page's level count.
 * @param out - the array to decode `n` levels of a kind into (`true`: repetition).
 * @param fns - the level functions.
 * @returns the levels; `rep` undefined for max 0, `def` undefined for max 0 or every level at the max.
 * @throws ParquetError as `decodeLevelsV2` and `checkLevelCapacity`.
 */
export function decodePageV2Levels(levels: Uint8Array, dh: DataPageHeaderV2, maxRep: number, maxDef: number, n: number, out: (repetition: boolean) => Uint8Array, fns: LevelFunctions): { rep: Uint8Array | undefined; def: Uint8Array | undefined } {
  const { checkLevelCapacity, decodeLevelsV2, rleHybridAllEqual, bitWidthOf } = fns;
  const rl = dh.repetition_levels_byte_length;
  const dl = dh.definition_levels_byte_length;
  let rep: Uint8Array | undefined;
  let def: Uint8Array | undefined;
  if (maxRep > 0) {
    // the level bytes must hold n levels before n are allocated
    checkLevelCapacity(levels, 0, Math.min(rl, levels.length), maxRep, n, 'v2', 'repetition');
    rep = out(true);
    decodeLevelsV2(levels, 0, rl, maxRep, rep, 0, n, 'repetition');
  }
  if (maxDef > 0 && !rleHybridAllEqual(levels, rl, rl + dl, bitWidthOf(maxDef), n, maxDef)) {
    checkLevelCapacity(levels, rl, Math.min(rl + dl, levels.length), maxDef, n, 'v2', 'definition');
    def = out(false);
    decodeLevelsV2(levels, rl, dl, maxDef, def, 0, n, 'definition');
  }
  return { rep, def };
}
