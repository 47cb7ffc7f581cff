/**
 * `@parquetry/parquet-encodings/rare-decoders` — the decoders of the value encodings few files use —
 * DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT and ALP — in one module that the
 * read registry loads with `import()` the first time a page needs one of them (`prepareEncoding`), so that a reader's
 * bundle holds them in a lazy chunk. A reader that imports `/read-prepared` passes `prepareEncodingWith` a loader of
 * this module, or of a module of its own that re-exports it (see `/read-prepared`).
 *
 * @packageDocumentation
 */
import { alpDecoder } from './alp.js';
import { byteStreamSplitDecoder } from './byte-stream-split.js';
import { deltaBinaryPackedDecoder } from './delta-binary-packed.js';
import { deltaByteArrayDecoder } from './delta-byte-array.js';
import { deltaLengthByteArrayDecoder } from './delta-length-byte-array.js';
import type { ValueDecoder } from './types.js';

// the unrolled unpack kernels of widths 9–17, 24 and 32, which the registry puts in when it loads this module (the
// DELTA_BINARY_PACKED INT64 miniblocks of those widths use them)
export { UNPACK_MID } from './bit-pack-mid-kernels.js';

/** The decoders loaded on first use. */
export const RARE_DECODERS: readonly ValueDecoder[] = [deltaBinaryPackedDecoder, deltaLengthByteArrayDecoder, deltaByteArrayDecoder, byteStreamSplitDecoder, alpDecoder];
