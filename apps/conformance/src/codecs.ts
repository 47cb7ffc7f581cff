/** Every codec, for the corpus: the umbrella package's preset. */
export { allCodecs } from 'parquetry';
