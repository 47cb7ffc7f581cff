/**
 * The options each entry point of the umbrella takes, checked before anything is opened, loaded or written: a
 * misspelt name or a value outside its set is a `ParquetError` naming the option, the nearest known name and the
 * entry point's own list (`checkOptions` of `@parquetry/thrift-compact/check-options`). The lists are the reader's
 * and the writer's own tables, with the umbrella's additions (`sync` of the local files), so that the two cannot
 * drift; the dataset wrappers take the dataset's tables (`datasetOptionRules`, `writeDatasetOptionRules`).
 * @module
 */
import type { OptionRule, OptionRules } from '@parquetry/thrift-compact';
import { openOptionRules } from '@parquetry/parquet-reader';
import { writerOptionRules } from '@parquetry/parquet-writer';

/** `rules` without the options named in `drop`. */
function without(rules: OptionRules, ...drop: string[]): OptionRules {
  return Object.fromEntries(Object.entries(rules).filter(([name]) => !drop.includes(name)));
}

/** A level: a number (its range is the codec's, checked as before with `CODEC_SIZE`). */
const level: OptionRule = (v) => (typeof v === 'number' ? undefined : 'an integer');

/** Where a WebAssembly module is: a URL (string or `URL`) or its bytes. */
const wasmSource: OptionRule = (v) => (typeof v === 'string' || v instanceof URL || v instanceof ArrayBuffer || v instanceof Uint8Array ? undefined : 'a URL (a string or a URL) or the bytes (an ArrayBuffer or a Uint8Array)');

/** `allCodecs` (`AllCodecsOptions`). */
export const ALL_CODECS_RULES: OptionRules = { gzipLevel: level, zstdLevel: level, brotliQuality: level };
/** `readCodecs` and `writeCodecs` (`PresetOptions`). */
export const PRESET_RULES: OptionRules = { ...ALL_CODECS_RULES, zstdWasm: wasmSource };
/** `openParquet` and `openFile`: the reader's. */
export const OPEN_RULES: OptionRules = openOptionRules;
/** `writeParquet` and `createWriter`: the writer's. */
export const WRITE_RULES: OptionRules = writerOptionRules;
/** `appendParquet`: the writer's but `append` (the file given is appended to). */
export const APPEND_RULES: OptionRules = without(writerOptionRules, 'append');
/** `writeFile` and `createFileWriter` (`WriteFileOptions`): the writer's but `append`, and `sync`. */
export const WRITE_FILE_RULES: OptionRules = { ...APPEND_RULES, sync: 'boolean' };
