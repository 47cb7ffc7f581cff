/**
 * The BROTLI codec of parquet.thrift (`CompressionCodec.BROTLI`): RFC 7932 streams, both directions through the
 * reference Brotli library compiled to WebAssembly (`brotli-compress`, which inlines its WASM so the same code
 * loads in Node and browsers). The WASM module is instantiated once, asynchronously: {@link createBrotliCodec}.
 * Spec: https://github.com/apache/parquet-format/blob/master/Compression.md (BROTLI), https://www.rfc-editor.org/rfc/rfc7932
 *
 * Decompression runs the streaming decoder asking for at most `remaining + 1` bytes (and at most 1 MiB) per call,
 * so a stream that expands past the page is seen one byte over and stopped, and nothing larger is ever allocated.
 */
import { createCompressStream, createDecompressStream } from 'brotli-compress';
import { type Codec, CodecErrorCode, CompressionCodec, ParquetError, isParquetError } from '@parquetry/parquet-codecs';

type DecompressStream = Awaited<ReturnType<typeof createDecompressStream>>;
type CompressStream = Awaited<ReturnType<typeof createCompressStream>>;

/** `BrotliStreamResultCode` of brotli-compress. */
const SUCCESS = 1;
const NEEDS_MORE_INPUT = 2;
const CHUNK = 1 << 20;

interface Engine {
  Decoder: new () => DecompressStream;
  Encoder: new (quality?: number) => CompressStream;
}

let engine: Promise<Engine> | undefined;

async function loadEngine(): Promise<Engine> {
  // brotli-compress exposes its stream classes only through async factories (which instantiate the WASM
  // module on first use); take the constructors from one instance of each so later pages need no await.
  const d = await createDecompressStream();
  const c = await createCompressStream({ quality: 1 });
  const e: Engine = { Decoder: d.constructor as Engine['Decoder'], Encoder: c.constructor as Engine['Encoder'] };
  d.free();
  c.free();
  return e;
}

function decompressWith(Decoder: Engine['Decoder'], src: Uint8Array, out: Uint8Array): number {
  const s = new Decoder();
  let ip = 0;
  let op = 0;
  try {
    for (;;) {
      const r = s.decompress(src.subarray(ip), Math.min(out.length - op + 1, CHUNK));
      const buf = r.buf;
      const code = r.code;
      ip += r.input_offset;
      r.free();
      if (buf.length > out.length - op) {
        throw new ParquetError(CodecErrorCode.OVERRUN, `codec-brotli: BROTLI stream expands past the ${out.length} bytes allowed (input byte ${ip})`, ip);
      }
      out.set(buf, op);
      op += buf.length;
      if (code === SUCCESS) {
        if (ip !== src.length) throw new ParquetError(CodecErrorCode.CORRUPT, `codec-brotli: ${src.length - ip} bytes after the end of the BROTLI stream at byte ${ip}`, ip);
        return op;
      }
      if (code === NEEDS_MORE_INPUT) throw new ParquetError(CodecErrorCode.CORRUPT, `codec-brotli: BROTLI stream truncated after ${src.length} bytes`, src.length);
    }
  } catch (e) {
    if (isParquetError(e)) throw e;
    throw new ParquetError(CodecErrorCode.CORRUPT, `codec-brotli: corrupt BROTLI stream near byte ${ip}: ${String((e as Error)?.message ?? e)}`, ip, { cause: e });
  } finally {
    s.free();
  }
}

function compressWith(Encoder: Engine['Encoder'], quality: number, src: Uint8Array): Uint8Array {
  const s = new Encoder(quality);
  const parts: Uint8Array[] = [];
  let total = 0;
  let ip = 0;
  try {
    for (;;) {
      const feeding = ip < src.length;
      const r = s.compress(feeding ? src.subarray(ip) : undefined, CHUNK);
      const buf = r.buf;
      const code = r.code;
      ip += r.input_offset;
      r.free();
      if (buf.length > 0) {
        parts.push(buf);
        total += buf.length;
      }
      if (!feeding && code === SUCCESS) break;
    }
  } finally {
    s.free();
  }
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Options of {@link createBrotliCodec}. */
export interface BrotliCodecOptions {
  /** Compression quality 0..11 (default 5; 11 compresses most and is many times slower). */
  quality?: number;
}

/**
 * Creates the BROTLI codec; the first call instantiates the WebAssembly module.
 * @param options - compression quality.
 * @returns the codec.
 * @throws ParquetError `CODEC_SIZE` for a quality outside 0..11 (as a rejected promise).
 */
export async function createBrotliCodec(options: BrotliCodecOptions = {}): Promise<Codec> {
  const quality = options.quality ?? 5;
  if (!Number.isInteger(quality) || quality < 0 || quality > 11) {
    throw new ParquetError(CodecErrorCode.SIZE, `codec-brotli: quality ${quality}, expected an integer 0..11`);
  }
  engine ??= loadEngine();
  const { Decoder, Encoder } = await engine;
  return {
    codec: CompressionCodec.BROTLI,
    decompress: (src, out) => decompressWith(Decoder, src, out),
    compress: (src) => compressWith(Encoder, quality, src),
  };
}
