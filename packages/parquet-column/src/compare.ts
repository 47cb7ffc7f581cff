/**
 * Ordering of JavaScript values of one column, as filters and statistics bounds compare them: numbers, bigints,
 * strings, booleans, byte arrays, dates, and exact decimals given as strings.
 * @module
 */
/**
 * Orders two values of one column (numbers, bigints, strings, booleans, byte arrays). Strings are ordered by code
 * point, which is the unsigned byte order of their UTF-8 that Parquet's statistics, page index and sort order use
 * for STRING (LogicalTypes.md), not by UTF-16 code unit as JavaScript's `<` does (the two differ when a character
 * in U+E000–U+FFFF meets one above U+FFFF).
 * @returns negative, zero or positive; NaN when they cannot be ordered.
 */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
      if (typeof a === 'number' && !Number.isInteger(a)) return a - Number(b);
      if (typeof b === 'number' && !Number.isInteger(b)) return Number(a) - b;
      const x = BigInt(a);
      const y = BigInt(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    return NaN;
  }
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : a === b ? 0 : NaN;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  }
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  return NaN;
}

const DECIMAL_RE = /^([+-]?)(\d*)(?:\.(\d*))?$/;

function parseDecimal(v: unknown): { neg: boolean; int: string; frac: string } | undefined {
  const text = typeof v === 'string' ? v : typeof v === 'bigint' ? v.toString() : typeof v === 'number' && Number.isFinite(v) ? decimalText(v) : undefined;
  const m = text === undefined ? null : DECIMAL_RE.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  return { neg: m[1] === '-', int: m[2]!.replace(/^0+/, ''), frac: (m[3] ?? '').replace(/0+$/, '') };
}

function decimalText(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  // exponent form: write all digits out (exact for the double's shortest representation)
  const [mant, expS] = s.toLowerCase().split('e') as [string, string];
  const exp = Number(expS);
  const neg = mant.startsWith('-');
  const [i, f = ''] = mant.replace('-', '').split('.') as [string, string?];
  const digits = i + f;
  const point = i.length + exp;
  const body = point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (neg ? '-' : '') + body;
}

/**
 * Compares two exact decimal values given as decimal strings, bigints or numbers (a number stands for its
 * shortest decimal representation).
 * @returns negative, zero or positive; NaN when either is not a decimal.
 */
export function compareDecimals(a: unknown, b: unknown): number {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) return NaN;
  const xz = x.int === '' && x.frac === '';
  const yz = y.int === '' && y.frac === '';
  const sx = xz ? 0 : x.neg ? -1 : 1;
  const sy = yz ? 0 : y.neg ? -1 : 1;
  if (sx !== sy) return sx - sy;
  if (sx === 0) return 0;
  let mag = x.int.length - y.int.length;
  if (mag === 0) mag = x.int < y.int ? -1 : x.int > y.int ? 1 : 0;
  if (mag === 0) {
    const n = Math.max(x.frac.length, y.frac.length);
    const fx = x.frac.padEnd(n, '0');
    const fy = y.frac.padEnd(n, '0');
    mag = fx < fy ? -1 : fx > fy ? 1 : 0;
  }
  return sx * Math.sign(mag);
}

/**
 * Orders two strings by code point (the byte order of their UTF-8).
 * @param a - one string.
 * @param b - the other.
 * @returns -1, 0 or 1.
 */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length < b.length ? -1 : 1;
  let x = a.charCodeAt(i);
  let y = b.charCodeAt(i);
  // UTF-16 puts surrogates (D800–DFFF, the code points above FFFF) below E000–FFFF; code point order puts them above
  if (x >= 0xd800 && y >= 0xd800) {
    x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
  }
  return x < y ? -1 : 1;
}
