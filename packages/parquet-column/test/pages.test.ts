// The page writer and the page reader are each other's inverse: every page written reads back with the same
// header fields and bytes, for every codec, V1/V2/dictionary pages, with and without CRC32 and encryption.
import zlib from 'node:zlib';
import { CompressionCodec, builtinCodecs, crc32, type CodecMap } from '@parquetry/parquet-codecs';
import { createFileDecryptor, createFileEncryptor } from '@parquetry/parquet-crypto';
import { createGzipCodec } from '@parquetry/codec-gzip';
import { Encoding, PageType, decodeThrift, readPageHeader } from '@parquetry/thrift-compact';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { PageReader, dataPageV1, dataPageV2, dictionaryPage, encryptedPageParts, pageHeaderBytes, type WrittenPage } from '../src/index.js';
import { typedError } from './helpers.js';

const codecs: CodecMap = { ...builtinCodecs(), [CompressionCodec.GZIP]: createGzipCodec() };
const where = { rowGroup: 0, path: 'a', offset: 100 };
const CODECS = [CompressionCodec.UNCOMPRESSED, CompressionCodec.SNAPPY, CompressionCodec.GZIP, CompressionCodec.LZ4_RAW];

function stored(pages: WrittenPage[]): Uint8Array {
  const parts = pages.flatMap((p) => [pageHeaderBytes(p.header), p.body]);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

describe('page writer → page reader', () => {
  test('V1, V2 and dictionary pages round-trip for every codec, with and without CRC', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CODECS),
        fc.boolean(),
        fc.uint8Array({ maxLength: 3000 }),
        fc.uint8Array({ maxLength: 200 }),
        fc.uint8Array({ maxLength: 3000 }),
        fc.nat(50),
        async (codec, checksum, dictBody, levels, values, repLength) => {
          const opts = { codec, codecs, checksum };
          const rl = Math.min(repLength, levels.length);
          const pages = [
            dictionaryPage(7, dictBody, opts),
            dataPageV1({ numValues: 11, encoding: Encoding.RLE_DICTIONARY, body: values }, opts),
            dataPageV2({ numValues: 12, numNulls: 3, numRows: 5, encoding: Encoding.PLAIN, levels, repetitionLength: rl, values }, opts),
          ];
          const r = new PageReader(stored(pages), where, { codec, codecs, hasDictionaryPage: true });
          const d = (await r.next())!;
          expect(d.header.type).toBe(PageType.DICTIONARY_PAGE);
          expect(d.numValues).toBe(7);
          expect(d.header.dictionary_page_header!.encoding).toBe(Encoding.PLAIN);
          expect([...d.data]).toEqual([...dictBody]);
          expect(d.header.crc !== undefined).toBe(checksum);
          const v1 = (await r.next())!;
          expect(v1.header.type).toBe(PageType.DATA_PAGE);
          expect(v1.header.data_page_header).toMatchObject({ num_values: 11, encoding: Encoding.RLE_DICTIONARY, definition_level_encoding: Encoding.RLE, repetition_level_encoding: Encoding.RLE });
          expect([...v1.data]).toEqual([...values]);
          const v2 = (await r.next())!;
          expect(v2.header.data_page_header_v2).toMatchObject({ num_values: 12, num_nulls: 3, num_rows: 5, repetition_levels_byte_length: rl, definition_levels_byte_length: levels.length - rl, is_compressed: codec !== CompressionCodec.UNCOMPRESSED });
          expect([...v2.levels!]).toEqual([...levels]);
          expect([...v2.data]).toEqual([...values]);
          expect(await r.next()).toBeUndefined();
          expect(r.dataPages).toBe(2);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('the CRC covers the body as stored (compressed), as the spec says: computed independently', () => {
    const body = new TextEncoder().encode('hello hello hello hello hello');
    const p = dataPageV1({ numValues: 1, encoding: Encoding.PLAIN, body }, { codec: CompressionCodec.SNAPPY, codecs });
    expect(p.body.length).toBeLessThan(body.length);
    expect(p.header.crc).toBe(crc32(p.body) | 0);
    // and the header bytes decode to the same header
    expect(decodeThrift(readPageHeader, pageHeaderBytes(p.header)).value).toEqual(p.header);
  });

  test('V1 and dictionary page CRCs equal zlib.crc32 of the stored body for every codec and size (SNAPPY: from its kernel)', () => {
    const hex = new Uint8Array(36 * 30_000);
    for (let v = 0, p = 0; v < 30_000; v++, p += 36) {
      hex[p] = 32;
      for (let i = 0; i < 32; i++) hex[p + 4 + i] = '0123456789abcdef'.charCodeAt((Math.imul(v * 32 + i, 0x9e3779b1) >>> 28) & 15);
    }
    for (const codec of CODECS) {
      for (const n of [0, 1, 17, 1000, 70_000, hex.length]) {
        const body = hex.subarray(hex.length - n);
        const opts = { codec, codecs };
        for (const p of [dataPageV1({ numValues: 1, encoding: Encoding.PLAIN, body }, opts), dictionaryPage(1, body, opts)]) {
          expect(p.header.crc, `${codec} ${n}`).toBe(zlib.crc32(p.body) | 0);
        }
        const off = dataPageV1({ numValues: 1, encoding: Encoding.PLAIN, body }, { ...opts, checksum: false });
        expect(off.header.crc).toBeUndefined();
      }
    }
  });

  test('a flipped body byte is a CHECKSUM_MISMATCH located at the page', async () => {
    const p = dataPageV1({ numValues: 1, encoding: Encoding.PLAIN, body: new Uint8Array([1, 2, 3, 4]) }, { codec: CompressionCodec.UNCOMPRESSED });
    const bytes = stored([p]);
    bytes[bytes.length - 1]! ^= 1;
    const e = await typedError(() => new PageReader(bytes, where, { codec: CompressionCodec.UNCOMPRESSED }).next());
    expect(e.code).toBe('CHECKSUM_MISMATCH');
    expect(e.message).toMatch(/row group 0, column 'a', page 0 at byte 100/);
  });

  test('the body buffer may be reused after a page is built (UNCOMPRESSED pages own a copy)', () => {
    const body = new Uint8Array([1, 2, 3]);
    const p = dataPageV1({ numValues: 1, encoding: Encoding.PLAIN, body }, { codec: CompressionCodec.UNCOMPRESSED });
    body[0] = 9;
    expect([...p.body]).toEqual([1, 2, 3]);
  });

  test('encrypted pages (AES_GCM_V1 and AES_GCM_CTR_V1) decrypt with the module types and ordinals they were written with', async () => {
    for (const algorithm of ['AES_GCM_V1', 'AES_GCM_CTR_V1'] as const) {
      const footerKey = new Uint8Array(16).fill(1);
      const enc = createFileEncryptor({ footerKey, algorithm });
      const colEnc = enc.columnEncryptor(0, 0, ["a"])!;
      const opts = { codec: CompressionCodec.SNAPPY, codecs };
      const pages = [
        dictionaryPage(2, new Uint8Array([5, 6, 7, 8]), opts),
        dataPageV1({ numValues: 3, encoding: Encoding.RLE_DICTIONARY, body: new Uint8Array([1, 2, 3]) }, opts),
        dataPageV1({ numValues: 4, encoding: Encoding.RLE_DICTIONARY, body: new Uint8Array([4, 5, 6, 7]) }, opts),
      ];
      const parts: Uint8Array[] = [];
      let ordinal = 0;
      for (const p of pages) {
        const dict = p.header.type === PageType.DICTIONARY_PAGE;
        parts.push(...(await encryptedPageParts(p, dict ? 0 : ordinal, (m, o, b) => colEnc.encrypt(m, o, b))));
        if (!dict) ordinal++;
      }
      const bytes = new Uint8Array(parts.reduce((n, x) => n + x.length, 0));
      let at = 0;
      for (const x of parts) {
        bytes.set(x, at);
        at += x.length;
      }
      
      const dec = createFileDecryptor({ footerKey }, enc.algorithm);
      const colDec = dec.columnDecryptor(0, 0, { ENCRYPTION_WITH_FOOTER_KEY: {} }, ['a']);
      const r = new PageReader(bytes, where, { codec: CompressionCodec.SNAPPY, codecs, hasDictionaryPage: true, decrypt: (m, o, b) => colDec.decrypt(m, o, b) });
      expect([...(await r.next())!.data]).toEqual([5, 6, 7, 8]);
      expect([...(await r.next())!.data]).toEqual([1, 2, 3]);
      expect([...(await r.next())!.data]).toEqual([4, 5, 6, 7]);
      expect(await r.next()).toBeUndefined();
    }
  });
});
