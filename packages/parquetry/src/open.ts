/**
 * The reader with every codec preset.
 * @module
 */
import { openParquet as openWith, type ByteSource, type OpenOptions, type ParquetFile } from '@parquetry/parquet-reader';
import { checkOptions } from '@parquetry/thrift-compact/check-options';
import { readCodecs } from './presets.js';
import { OPEN_RULES } from './options.js';

/**
 * Opens a Parquet file with every codec preset ({@link readCodecs}): `@parquetry/parquet-reader`'s `openParquet`
 * without having to pass `codecs`. Nothing is loaded until a page needs it: ZSTD's WebAssembly and the BROTLI
 * decoder load on the first page of their codec, and one that cannot load fails only those pages
 * (`CODEC_UNAVAILABLE`, naming the codec and the URL).
 * @param input - a byte source (`{ byteLength, read(start, end) }`, see `fetchSource`), or the whole file as bytes.
 * @param options - reader options; `codecs` defaults to {@link readCodecs}.
 * @returns the opened file.
 * @throws ParquetError `INVALID_ARGUMENT` for an option it does not take (naming the nearest one and its list) or a
 *   value outside its set; and as the reader's `openParquet`.
 */
export async function openParquet(input: ByteSource | Uint8Array | ArrayBuffer, options: OpenOptions = {}): Promise<ParquetFile> {
  checkOptions(options, OPEN_RULES, 'parquetry: openParquet');
  return openWith(input, { ...options, codecs: options.codecs ?? readCodecs() });
}
