/** Every codec, for the corpus. */
import { builtinCodecs, type CodecMap } from '@parquetry/parquet-codecs';

export async function allCodecs(): Promise<CodecMap> {
  return builtinCodecs();
}
