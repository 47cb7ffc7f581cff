/**
 * Compressing a page for a writer: into memory the writer gives (or a new array), with the page checksum when asked
 * (`PageHeader.crc`, the CRC-32 of the page body as stored). A codec that compresses into memory of its own (the
 * SNAPPY WebAssembly kernel) checksums the bytes there and they are copied out once, straight to where the writer
 * keeps them.
 * @module
 */
import { compressPage, type Codec, type CodecMap } from './codec.js';
import { CompressionCodec } from './compression-codec.js';
import { crc32 } from './crc32.js';

/** Compressed bytes and, when asked for, their CRC-32. */
export interface CompressedPage {
  /** The compressed bytes. */
  bytes: Uint8Array;
  /**
   * The CRC-32 of `bytes`, unsigned (as {@link crc32} gives it; `| 0` gives parquet.thrift's signed `i32 crc`);
   * undefined when it was not asked for.
   */
  crc: number | undefined;
}

/**
 * A {@link Codec} that can compress into memory of its own, which it reuses ({@link snappyCodec} does). Codecs that
 * have it define `compressToScratch` as a non-enumerable property, so that a copy made by spreading (`{ ...codec,
 * compress }`, to wrap or count compression) does not carry it past the copy's own `compress`.
 */
export interface CodecWithScratch extends Codec {
  /**
   * Compresses one whole page, as `compress`, into memory the codec reuses.
   * @param src - the uncompressed bytes.
   * @param crc - whether to compute the CRC-32 of the compressed bytes too.
   * @returns the bytes `compress` gives, as a view valid only until the codec's next call (copy it out), and their
   *   CRC-32 when `crc` is true.
   */
  compressToScratch(src: Uint8Array, crc: boolean): CompressedPage;
}

/**
 * Compresses one page as {@link compressPage} does, into bytes the caller owns: copied out of the codec's memory
 * into `alloc(length)` when the codec has `compressToScratch` ({@link CodecWithScratch}), else the codec's new
 * array (`src` itself, for UNCOMPRESSED or a codec returning its input, is copied). With `crc`, also the CRC-32 of
 * the compressed bytes: from the codec when it computes it, else with {@link crc32}.
 * @param codecs - the codecs available (UNCOMPRESSED needs none).
 * @param codec - the `CompressionCodec` number.
 * @param src - the uncompressed bytes (not kept: the caller may reuse them).
 * @param crc - whether to compute the CRC-32.
 * @param alloc - where bytes copied out of a codec's memory (or out of `src`) go: a function giving an array of
 *   exactly the length asked for that the caller owns (default: a new array).
 * @returns the compressed bytes, which share no memory with `src` or the codec, and their CRC-32 when asked for.
 * @throws ParquetError `CODEC_MISSING` / `CODEC_UNKNOWN` as {@link compressPage}, and the codec's own errors.
 */
export function compressPageOwned(
  codecs: CodecMap | undefined,
  codec: number,
  src: Uint8Array,
  crc: boolean,
  alloc?: (length: number) => Uint8Array,
): CompressedPage {
  if (codec !== CompressionCodec.UNCOMPRESSED) {
    const impl = codecs?.[codec as CompressionCodec] as Partial<CodecWithScratch> | undefined;
    if (impl !== undefined && typeof impl.compressToScratch === 'function') {
      const r = impl.compressToScratch(src, crc);
      return { bytes: copyOut(r.bytes, alloc), crc: crc ? (r.crc ?? crc32(r.bytes)) : undefined };
    }
  }
  let bytes = compressPage(codecs, codec, src);
  if (bytes === src || bytes.buffer === src.buffer) bytes = copyOut(bytes, alloc);
  return { bytes, crc: crc ? crc32(bytes) : undefined };
}

function copyOut(bytes: Uint8Array, alloc: ((length: number) => Uint8Array) | undefined): Uint8Array {
  if (alloc === undefined) return bytes.slice();
  const out = alloc(bytes.length);
  out.set(bytes);
  return out;
}
