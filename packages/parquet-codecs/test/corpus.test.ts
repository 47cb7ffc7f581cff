// Every SNAPPY, LZ4, LZ4_RAW and LZO page of the upstream corpus decompresses to the size its header declares.
// (GZIP, ZSTD and BROTLI pages are checked by the tests of @parquetry/codec-gzip, -zstd and -brotli.)
import { describe, expect, test } from 'vitest';
import { CompressionCodec, builtinCodecs, compressionCodecName, decompressPage, isParquetError } from '@parquetry/parquet-codecs';
import { HAVE_CORPUS, corpusFiles, corpusPages } from './corpus-pages.js';

if (!HAVE_CORPUS) console.warn('parquet-codecs corpus test skipped: ../shared/parquet-testing is absent');

describe.skipIf(!HAVE_CORPUS)('upstream corpus pages', () => {
  test('every SNAPPY / LZ4 / LZ4_RAW / LZO page decompresses to its declared size', () => {
    const codecs = builtinCodecs();
    const problems: string[] = [];
    const counts = new Map<string, number>();
    const files = new Set<string>();
    for (const file of corpusFiles()) {
      for (const p of corpusPages(file, problems)) {
        if (codecs[p.codec as CompressionCodec] === undefined) continue;
        const out = decompressPage(codecs, p.codec, p.body, p.size, p.offset);
        expect(out.length).toBe(p.size);
        const name = compressionCodecName(p.codec);
        counts.set(name, (counts.get(name) ?? 0) + 1);
        files.add(file);
      }
    }
    console.log(`parquet-codecs corpus: ${[...counts].map(([k, v]) => `${k} ${v} pages`).join(', ')} in ${files.size} files; unreadable: ${problems.length}`, problems);
    // Only column_chunk_key_value_metadata.parquet is unwalkable: its chunks have no pages (offsets 0).
    expect(problems.filter((p) => !p.startsWith('data/column_chunk_key_value_metadata.parquet'))).toEqual([]);
    // The corpus has SNAPPY, Hadoop LZ4, raw-in-LZ4 and LZ4_RAW files; make sure each was actually reached.
    expect(counts.get('SNAPPY') ?? 0).toBeGreaterThan(50);
    expect(counts.get('LZ4') ?? 0).toBeGreaterThan(2);
    expect(counts.get('LZ4_RAW') ?? 0).toBeGreaterThan(1);
    expect(files.has('data/non_hadoop_lz4_compressed.parquet')).toBe(true);
    expect(files.has('data/hadoop_lz4_compressed_larger.parquet')).toBe(true);
  });

  test('bad_data/: every page with one of these codecs decodes or throws a ParquetError', () => {
    const codecs = builtinCodecs();
    const problems: string[] = [];
    let pages = 0;
    for (const file of corpusFiles(['bad_data'])) {
      for (const p of corpusPages(file, problems)) {
        if (codecs[p.codec as CompressionCodec] === undefined) continue;
        pages++;
        try {
          decompressPage(codecs, p.codec, p.body, p.size, p.offset);
        } catch (e) {
          if (!isParquetError(e)) throw e;
        }
      }
    }
    console.log(`parquet-codecs bad_data: ${pages} pages tried`);
    expect(pages).toBeGreaterThan(0);
  });
});
