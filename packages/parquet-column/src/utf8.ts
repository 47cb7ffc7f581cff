/**
 * UTF-8 well-formedness, shared by the value mapping of writers (bytes given for text columns), statistics bounds
 * (truncation on the write side, trust on the read side).
 *
 * Spec: Unicode Table 3-7 (well-formed UTF-8 byte sequences).
 * @module
 */

/**
 * Where bytes stop being well-formed UTF-8 (no overlongs, surrogates, code points past U+10FFFF or sequences cut by
 * `end`).
 * @param b - the bytes.
 * @param start - first byte to check.
 * @param end - end of the bytes to check (exclusive).
 * @returns the index of the first byte of the first ill-formed sequence, or -1 when `b[start, end)` is well-formed.
 */
export function utf8ErrorAt(b: Uint8Array, start: number, end: number): number {
  let i = start;
  while (i < end) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    if (c < 0xc2 || c > 0xf4) return i;
    const c1 = i + 1 < end ? b[i + 1]! : 0;
    if ((c1 & 0xc0) !== 0x80) return i;
    if (c < 0xe0) {
      i += 2;
      continue;
    }
    const c2 = i + 2 < end ? b[i + 2]! : 0;
    if ((c2 & 0xc0) !== 0x80 || (c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 > 0x9f)) return i;
    if (c < 0xf0) {
      i += 3;
      continue;
    }
    const c3 = i + 3 < end ? b[i + 3]! : 0;
    if ((c3 & 0xc0) !== 0x80 || (c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f)) return i;
    i += 4;
  }
  return -1;
}
