// Test helper: walks every page of the upstream corpus (../shared/parquet-testing) and yields its compressed body
// with the size its header declares. Shared by the codec packages' corpus tests.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PageType, decodeThrift, readFileMetaData, readPageHeader } from '@parquetry/thrift-compact';

/** Where the corpus lives (absent on machines without ../shared). */
export const CORPUS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/parquet-testing');
/** Whether the corpus is present. */
export const HAVE_CORPUS = fs.existsSync(CORPUS_DIR);

/** One compressed page of the corpus. */
export interface CorpusPage {
  file: string;
  column: string;
  codec: number;
  pageType: number;
  /** file offset of the compressed body */
  offset: number;
  /** the compressed part of the body (for V2 pages, after the uncompressed level bytes) */
  body: Uint8Array;
  /** how many bytes it must decompress to */
  size: number;
}

/** Every `.parquet` file under the corpus, except encrypted ones and `bad_data/`, relative to the corpus root. */
export function corpusFiles(subdirs: readonly string[] = ['data', 'shredded_variant', 'variant']): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.parquet')) out.push(path.relative(CORPUS_DIR, p));
    }
  };
  for (const sub of subdirs) if (fs.existsSync(path.join(CORPUS_DIR, sub))) walk(path.join(CORPUS_DIR, sub));
  return out.sort();
}

/**
 * The compressed pages of one corpus file. Files whose footer or page headers do not parse (bad_data style) are
 * reported through `problems` instead of throwing.
 */
export function corpusPages(file: string, problems: string[]): CorpusPage[] {
  const bytes = new Uint8Array(fs.readFileSync(path.join(CORPUS_DIR, file)));
  const pages: CorpusPage[] = [];
  const n = bytes.length;
  const tail = new TextDecoder().decode(bytes.subarray(n - 4));
  if (tail !== 'PAR1') {
    problems.push(`${file}: not a plaintext-footer file (${tail})`);
    return pages;
  }
  const footerLen = new DataView(bytes.buffer, bytes.byteOffset).getUint32(n - 8, true);
  let meta;
  try {
    meta = decodeThrift(readFileMetaData, bytes, n - 8 - footerLen, n - 8).value;
  } catch (e) {
    problems.push(`${file}: footer does not parse: ${(e as Error).message}`);
    return pages;
  }
  for (const rg of meta.row_groups) {
    for (const cc of rg.columns) {
      const md = cc.meta_data;
      if (!md) continue;
      const dict = md.dictionary_page_offset;
      let pos = dict !== undefined && dict > 0 && dict < md.data_page_offset ? dict : md.data_page_offset;
      const end = pos + md.total_compressed_size;
      const column = md.path_in_schema.join('.');
      while (pos < end && pos < n) {
        let header;
        try {
          const d = decodeThrift(readPageHeader, bytes, pos, n);
          header = d.value;
          pos = d.end;
        } catch (e) {
          problems.push(`${file} ${column}: page header at ${pos} does not parse: ${(e as Error).message}`);
          break;
        }
        const bodyEnd = pos + header.compressed_page_size;
        if (header.compressed_page_size < 0 || bodyEnd > n) {
          problems.push(`${file} ${column}: page body at ${pos} runs past the file`);
          break;
        }
        let body = bytes.subarray(pos, bodyEnd);
        let size = header.uncompressed_page_size;
        let compressed = true;
        const v2 = header.data_page_header_v2;
        if (header.type === PageType.DATA_PAGE_V2 && v2) {
          const levels = v2.definition_levels_byte_length + v2.repetition_levels_byte_length;
          body = body.subarray(levels);
          size -= levels;
          compressed = v2.is_compressed !== false;
        }
        if (header.type !== PageType.INDEX_PAGE && compressed) {
          pages.push({ file, column, codec: md.codec, pageType: header.type, offset: pos + (header.compressed_page_size - body.length), body, size });
        }
        pos = bodyEnd;
      }
    }
  }
  return pages;
}
