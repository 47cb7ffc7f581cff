/**
 * The dataset upstream wrote into each encrypted corpus file (parquet-java's encryption test writer), computed
 * here from its generating rules, in canonical form. No peer reader available here decrypts these files (DuckDB 1.5
 * uses no AAD; pyarrow only takes key-tools key metadata), so this is their independent expectation:
 * row i holds boolean_field = (i even), int32_field = i (TIME_MILLIS), int64_field = [2i, 2i+1] × 10^12,
 * int96_field = the little-endian words (i, i+1, i+2), float_field = i × 1.1f, double_field = i × 1.1111111,
 * ba_field = "parquet" + i as three digits for even i (else null), flba_field = ten bytes of value i.
 */
// @ts-expect-error: plain ESM with JSDoc types
import { canonBinary, canonNumber, formatTime, formatTimestamp } from '../../../tools/peers/canon.mjs';

const hex = canonBinary as (b: Uint8Array) => string;

/**
 * Canonical rows of the common encrypted dataset.
 * @param rows - number of rows (50 in every file but the bloom-filter one).
 */
export function encryptedDatasetRows(rows = 50): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < rows; i++) {
    const nanos = BigInt(i) + (BigInt(i + 1) << 32n);
    const julian = BigInt(i + 2);
    out.push({
      boolean_field: i % 2 === 0,
      int32_field: (formatTime as (c: number, u: string) => string)(i, 'millis'),
      int64_field: [2 * i * 1e12, (2 * i + 1) * 1e12],
      int96_field: (formatTimestamp as (c: bigint, u: string, utc: boolean) => string)((julian - 2440588n) * 86400000000000n + nanos, 'nanos', false),
      float_field: (canonNumber as (x: number) => number)(Math.fround(Math.fround(i) * Math.fround(1.1))),
      double_field: i * 1.1111111,
      ba_field: i % 2 === 0 ? hex(new TextEncoder().encode(`parquet${String(i).padStart(3, '0')}`)) : null,
      flba_field: hex(new Uint8Array(10).fill(i)),
    });
  }
  return out;
}

/**
 * Rows of encrypt_columns_and_footer_bloom_filter (2,000 rows: int32_field i, name "name_i", float_field i + 0.25,
 * double_field i + 0.5) and external_key_material_java (100 rows: integers i, strings = letter i mod 10 + i), in
 * canonical form and schema order.
 * @param file - which of the two.
 */
export function otherEncryptedRows(file: 'bloom' | 'key-tools'): Record<string, unknown>[] {
  if (file === 'bloom') {
    return Array.from({ length: 2000 }, (_, i) => ({ double_field: i + 0.5, float_field: i + 0.25, int32_field: i, name: `name_${i}` }));
  }
  return Array.from({ length: 100 }, (_, i) => ({ integers: i, strings: `${'abcdefghij'[i % 10]}${i}` }));
}
