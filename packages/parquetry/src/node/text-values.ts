/**
 * Text → values, at the byte level: the parsers `parquetry convert` uses for CSV fields (and for JSON strings in
 * columns given a type). Each reads the bytes `[s, e)` of a buffer without making a string (but for the rare float
 * that needs the full decimal-to-binary conversion) and leaves its result in a {@link TextResult} register object,
 * so a loop over a column allocates nothing per value. 64-bit results are two 32-bit words (`lo` unsigned, `hi`
 * signed), ready for an `Int32Array` alias of a `BigInt64Array`, so no BigInt is made per value.
 *
 * The forms accepted are those of the CSV type rules in the package README: integers `[+-]digits`, decimals and
 * floats `[+-]digits[.digits][e[+-]digits]` plus `inf`/`infinity`/`nan`, booleans `true`/`false` (and, when a
 * column is given the boolean type, `t`/`f`/`1`/`0`/`yes`/`no`), ISO 8601 dates `YYYY-MM-DD`, times
 * `HH:MM[:SS[.fraction]]` and timestamps `date[T| ]time[Z|±HH[:MM]|±HHMM]`.
 *
 * Values are written as the Parquet logical types of
 * https://github.com/apache/parquet-format/blob/master/LogicalTypes.md specify (DATE: days since 1970-01-01;
 * TIMESTAMP: a count of its unit since the epoch; TIME: a count of its unit since midnight).
 * @module
 */

const TWO32 = 4294967296;
const TWO16 = 65536;

/** Result registers of the parsers (one object reused for every value). */
export interface TextResult {
  /** Integer: negative sign seen. */
  neg: boolean;
  /** Integer/number: more than one digit before the point with a leading `0` (`007`, `01.5`). */
  leadingZero: boolean;
  /** Integer: digits (without sign). */
  digits: number;
  /** 64-bit result: low word, 0..2^32-1. */
  lo: number;
  /** 64-bit result: high word as a number (checked against the range by the caller). */
  hi: number;
  /** Float result. */
  num: number;
  /** Timestamp / time: whole seconds (since the epoch, UTC-adjusted; or since midnight). */
  sec: number;
  /** Timestamp / time: nanoseconds within the second, 0..999999999. */
  nanos: number;
  /** Timestamp / time: digits of the fraction of a second. */
  fracDigits: number;
  /** Timestamp: a zone offset (or `Z`) was given. */
  offset: boolean;
  /** Timestamp: only a date was given. */
  dateOnly: boolean;
  /** Date: days since 1970-01-01. */
  days: number;
}

/**
 * A fresh register object for the parsers.
 * @returns the registers, zeroed.
 */
export function textResult(): TextResult {
  return { neg: false, leadingZero: false, digits: 0, lo: 0, hi: 0, num: 0, sec: 0, nanos: 0, fracDigits: 0, offset: false, dateOnly: false, days: 0 };
}

const C0 = 48;
const PLUS = 43;
const MINUS = 45;
const DOT = 46;
const COLON = 58;

/**
 * `a * mul + add` as a 64-bit magnitude in `r.hi` / `r.lo`, exactly, for a non-negative safe integer `a`,
 * `mul` < 2^31 and `add` < 2^32: `a` is cut into its high word and two 16-bit limbs of its low word, so every
 * partial product stays below 2^53.
 */
function mulAdd(a: number, mul: number, add: number, r: TextResult): void {
  const ah = Math.floor(a / TWO32);
  const al = a - ah * TWO32;
  const a1 = Math.floor(al / TWO16);
  const a0 = al - a1 * TWO16;
  const p1 = a1 * mul;
  const p1h = Math.floor(p1 / TWO16);
  const low = a0 * mul + add + (p1 - p1h * TWO16) * TWO16;
  const carry = Math.floor(low / TWO32);
  r.lo = low - carry * TWO32;
  r.hi = ah * mul + p1h + carry;
}

/** Two's-complement negation of the 64-bit value in `r.hi` / `r.lo`. */
function negate(r: TextResult): void {
  if (r.lo === 0) r.hi = -r.hi;
  else {
    r.lo = TWO32 - r.lo;
    r.hi = -r.hi - 1;
  }
}

/**
 * Reads an integer `[+-]digits`: sets `neg`, `digits`, `leadingZero`, and the magnitude's 64-bit words (`hi`,
 * `lo`) when it has at most 20 digits.
 * @param b - the bytes.
 * @param s - first byte.
 * @param e - end (exclusive).
 * @param r - result registers.
 * @returns whether the bytes are an integer (of any size).
 */
export function readInteger(b: Uint8Array, s: number, e: number, r: TextResult): boolean {
  let i = s;
  let neg = false;
  if (i < e) {
    const c = b[i]!;
    if (c === MINUS) {
      neg = true;
      i++;
    } else if (c === PLUS) i++;
  }
  const d0 = i;
  // up to 20 digits: all but the last 9 in `high`, the last 9 in `low` (both exact)
  let high = 0;
  let low = 0;
  let lowDigits = 0;
  for (; i < e; i++) {
    const d = b[i]! - C0;
    if (d < 0 || d > 9) return false;
    if (lowDigits === 9) {
      high = high * 10 + Math.floor(low / 100000000);
      low = (low % 100000000) * 10 + d;
    } else {
      low = low * 10 + d;
      lowDigits++;
    }
  }
  const digits = i - d0;
  if (digits === 0) return false;
  r.neg = neg;
  r.digits = digits;
  r.leadingZero = digits > 1 && b[d0] === C0;
  if (digits <= 20) mulAdd(high, 1000000000, low, r);
  return true;
}

/**
 * After {@link readInteger}: the value as a number when it has at most 15 digits (always exact), else NaN.
 * @param r - registers of a successful {@link readInteger}.
 * @returns the number, or NaN.
 */
export function integerNumber(r: TextResult): number {
  if (r.digits > 15) return NaN;
  const v = r.hi * TWO32 + r.lo;
  return r.neg ? -v : v;
}

/**
 * After {@link readInteger}: turns the magnitude into the signed int64 words; false when out of range.
 * @param r - registers of a successful {@link readInteger}.
 * @returns whether the value fits in a signed int64.
 */
export function toInt64(r: TextResult): boolean {
  if (r.digits > 20 || r.hi > 2147483648 || (r.hi === 2147483648 && (!r.neg || r.lo !== 0))) return false;
  if (r.neg) negate(r);
  return true;
}

/**
 * After {@link readInteger}: the unsigned int64 words (the high word taken as its two's-complement int32); false
 * when out of range or negative (`-0` is 0).
 * @param r - registers of a successful {@link readInteger}.
 * @returns whether the value fits in an unsigned int64.
 */
export function toUint64(r: TextResult): boolean {
  if (r.digits > 20 || r.hi >= TWO32 || (r.neg && (r.hi !== 0 || r.lo !== 0))) return false;
  return true;
}

// powers of ten exact as doubles
const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);

function lower(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/** Whether `b[s..e)` equals the lower-case ASCII `word`, ignoring case. */
function wordIs(b: Uint8Array, s: number, e: number, word: string): boolean {
  if (e - s !== word.length) return false;
  for (let i = 0; i < word.length; i++) if (lower(b[s + i]!) !== word.charCodeAt(i)) return false;
  return true;
}

const latin1 = /*#__PURE__*/ new TextDecoder('latin1');

/**
 * Reads a decimal number `[+-](digits[.digits]|.digits)[(e|E)[+-]digits]`, or `inf`, `infinity`, `nan` in any case
 * with an optional sign, into `r.num` (correctly rounded: exact arithmetic for up to 15 significant digits and
 * no exponent, the engine's `Number` otherwise). Sets `leadingZero` for `0` followed by more integer digits.
 * @param b - the bytes.
 * @param s - first byte.
 * @param e - end (exclusive).
 * @param r - result registers.
 * @returns whether the bytes are such a number.
 */
export function readNumber(b: Uint8Array, s: number, e: number, r: TextResult): boolean {
  let i = s;
  let neg = false;
  if (i < e && (b[i] === MINUS || b[i] === PLUS)) {
    neg = b[i] === MINUS;
    i++;
  }
  if (i < e && b[i]! > 57) {
    // inf, infinity, nan
    if (wordIs(b, i, e, 'inf') || wordIs(b, i, e, 'infinity')) r.num = neg ? -Infinity : Infinity;
    else if (wordIs(b, i, e, 'nan')) r.num = NaN;
    else return false;
    r.leadingZero = false;
    return true;
  }
  let mant = 0;
  let sig = 0; // significant digits accumulated in mant
  let intDigits = 0;
  let fracDigits = 0;
  const i0 = i;
  for (; i < e; i++) {
    const d = b[i]! - C0;
    if (d < 0 || d > 9) break;
    if (sig > 0 || d !== 0) sig++;
    mant = mant * 10 + d;
    intDigits++;
  }
  r.leadingZero = intDigits > 1 && b[i0] === C0;
  if (i < e && b[i] === DOT) {
    i++;
    for (; i < e; i++) {
      const d = b[i]! - C0;
      if (d < 0 || d > 9) break;
      if (sig > 0 || d !== 0) sig++;
      mant = mant * 10 + d;
      fracDigits++;
    }
  }
  if (intDigits + fracDigits === 0) return false;
  let exponent = false;
  if (i < e && (b[i] === 101 || b[i] === 69)) {
    i++;
    if (i < e && (b[i] === MINUS || b[i] === PLUS)) i++;
    const x0 = i;
    while (i < e && b[i]! >= C0 && b[i]! <= 57) i++;
    if (i === x0) return false;
    exponent = true;
  }
  if (i !== e) return false;
  if (!exponent && sig <= 15 && fracDigits <= 22) {
    // both exact: one correctly rounded division
    const v = fracDigits === 0 ? mant : mant / POW10[fracDigits]!;
    r.num = neg ? -v : v;
  } else {
    r.num = Number(latin1.decode(b.subarray(s, e)));
  }
  return true;
}

/**
 * Reads a boolean: `true`/`false` in any case; with `loose`, also `t`/`f`, `1`/`0`, `yes`/`no`, `y`/`n`.
 * @param b - the bytes.
 * @param s - first byte.
 * @param e - end (exclusive).
 * @param loose - accept the short and numeric forms too.
 * @returns 1, 0, or -1 when the bytes are not a boolean.
 */
export function readBoolean(b: Uint8Array, s: number, e: number, loose: boolean): number {
  const n = e - s;
  if (n === 4 && wordIs(b, s, e, 'true')) return 1;
  if (n === 5 && wordIs(b, s, e, 'false')) return 0;
  if (!loose) return -1;
  if (n === 1) {
    const c = lower(b[s]!);
    if (c === 116 || c === 121 || c === 49) return 1; // t y 1
    if (c === 102 || c === 110 || c === 48) return 0; // f n 0
    return -1;
  }
  if (wordIs(b, s, e, 'yes')) return 1;
  if (wordIs(b, s, e, 'no')) return 0;
  return -1;
}

function digit(b: Uint8Array, i: number): number {
  const d = b[i]! - C0;
  return d >= 0 && d <= 9 ? d : -100000;
}

function twoDigits(b: Uint8Array, i: number): number {
  return digit(b, i) * 10 + digit(b, i + 1);
}

/**
 * Days from 1970-01-01 to a proleptic Gregorian date (the era arithmetic of the civil calendar: 400-year eras of
 * 146097 days, years starting in March so the leap day comes last).
 */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = m > 2 ? m - 3 : m + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Reads `YYYY-MM-DD` at `s` into `r.days`; returns the index after it, or -1. */
function dateAt(b: Uint8Array, s: number, e: number, r: TextResult): number {
  if (e - s < 10 || b[s + 4] !== MINUS || b[s + 7] !== MINUS) return -1;
  const y = twoDigits(b, s) * 100 + twoDigits(b, s + 2);
  const m = twoDigits(b, s + 5);
  const d = twoDigits(b, s + 8);
  if (y < 0 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return -1;
  r.days = daysFromCivil(y, m, d);
  return s + 10;
}

/** Reads `HH:MM[:SS[.fraction]]` at `s` into `r.sec` (of the day), `r.nanos`, `r.fracDigits`; index after it, or -1. */
function clockAt(b: Uint8Array, s: number, e: number, r: TextResult): number {
  if (e - s < 5 || b[s + 2] !== COLON) return -1;
  const h = twoDigits(b, s);
  const mi = twoDigits(b, s + 3);
  if (h < 0 || h > 23 || mi < 0 || mi > 59) return -1;
  let sec = 0;
  let i = s + 5;
  let nanos = 0;
  let frac = 0;
  if (i < e && b[i] === COLON) {
    if (e - i < 3) return -1;
    sec = twoDigits(b, i + 1);
    if (sec < 0 || sec > 59) return -1;
    i += 3;
    if (i < e && b[i] === DOT) {
      i++;
      const f0 = i;
      while (i < e && b[i]! >= C0 && b[i]! <= 57) {
        if (i - f0 >= 9) return -1; // finer than nanoseconds
        nanos = nanos * 10 + (b[i]! - C0);
        i++;
      }
      frac = i - f0;
      if (frac === 0) return -1;
      nanos *= POW10[9 - frac]!;
    }
  }
  r.sec = h * 3600 + mi * 60 + sec;
  r.nanos = nanos;
  r.fracDigits = frac;
  return i;
}

/**
 * Reads an ISO 8601 date `YYYY-MM-DD` (a valid day of the proleptic Gregorian calendar, years 0000..9999) into
 * `r.days`.
 * @param b - the bytes.
 * @param s - first byte.
 * @param e - end (exclusive).
 * @param r - result registers.
 * @returns whether the bytes are such a date.
 */
export function readDate(b: Uint8Array, s: number, e: number, r: TextResult): boolean {
  return dateAt(b, s, e, r) === e;
}

/**
 * Reads a time of day `HH:MM[:SS[.fraction]]` (hours 00..23, up to 9 fraction digits) into `r.sec` (seconds since
 * midnight), `r.nanos` and `r.fracDigits`.
 * @param b - the bytes.
 * @param s - first byte.
 * @param e - end (exclusive).
 * @param r - result registers.
 * @returns whether the bytes are such a time.
 */
export function readTime(b: Uint8Array, s: number, e: number, r: TextResult): boolean {
  return clockAt(b, s, e, r) === e;
}

/**
 * Reads a timestamp: a date, optionally followed by `T`, `t` or a space and a time of day, then optionally a zone
 * `Z`, `z`, `±HH`, `±HH:MM` or `±HHMM` (only after a time). Sets `r.sec` (seconds since the epoch, the offset
 * subtracted: UTC), `r.nanos`, `r.fracDigits`, `r.offset`, `r.dateOnly`.
 * @param b - the bytes.
 * @param s - first byte.
 * @param e - end (exclusive).
 * @param r - result registers.
 * @returns whether the bytes are such a timestamp.
 */
export function readTimestamp(b: Uint8Array, s: number, e: number, r: TextResult): boolean {
  let i = dateAt(b, s, e, r);
  if (i < 0) return false;
  const days = r.days;
  r.offset = false;
  if (i === e) {
    r.sec = days * 86400;
    r.nanos = 0;
    r.fracDigits = 0;
    r.dateOnly = true;
    return true;
  }
  r.dateOnly = false;
  const sep = b[i];
  if (sep !== 84 && sep !== 116 && sep !== 32) return false; // T t space
  i = clockAt(b, i + 1, e, r);
  if (i < 0) return false;
  let offset = 0;
  if (i < e) {
    const c = b[i];
    if ((c === 90 || c === 122) && i + 1 === e) i++; // Z z
    else if (c === PLUS || c === MINUS) {
      const rest = e - i - 1;
      const oh = rest >= 2 ? twoDigits(b, i + 1) : -1;
      let om = 0;
      if (rest === 2) om = 0;
      else if (rest === 5 && b[i + 3] === COLON) om = twoDigits(b, i + 4);
      else if (rest === 4) om = twoDigits(b, i + 3);
      else return false;
      if (oh < 0 || oh > 18 || om < 0 || om > 59) return false;
      offset = (oh * 3600 + om * 60) * (c === MINUS ? -1 : 1);
      i = e;
    } else return false;
    r.offset = true;
  }
  if (i !== e) return false;
  r.sec = days * 86400 + r.sec - offset;
  return true;
}

/**
 * After {@link readTimestamp} or {@link readTime}: the value as a count of `unitsPerSecond` (1000, 10^6 or 10^9)
 * in the int64 words `r.hi` / `r.lo`.
 * @param r - registers of a successful read.
 * @param unitsPerSecond - 1000 (millis), 1000000 (micros) or 1000000000 (nanos).
 * @returns 1 when it fits, 0 when the fraction is finer than the unit, -1 when outside the int64 range.
 */
export function toUnitCount(r: TextResult, unitsPerSecond: number): number {
  const div = 1000000000 / unitsPerSecond;
  const sub = r.nanos / div;
  if (sub !== Math.floor(sub)) return 0;
  const sec = r.sec;
  if (sec >= 0) mulAdd(sec, unitsPerSecond, sub, r);
  else if (sub === 0) mulAdd(-sec, unitsPerSecond, 0, r);
  else mulAdd(-sec - 1, unitsPerSecond, unitsPerSecond - sub, r);
  if (r.hi >= 2147483648) return -1;
  if (sec < 0) negate(r);
  return 1;
}

/**
 * The 64-bit value in `r.hi` / `r.lo` as a number when it is a safe integer, else as a bigint.
 * @param r - registers holding a signed 64-bit value.
 * @returns the value.
 */
export function wordsValue(r: TextResult): number | bigint {
  const v = r.hi * TWO32 + r.lo;
  if (Number.isSafeInteger(v)) return v;
  return (BigInt(r.hi) << 32n) + BigInt(r.lo);
}

/** Type bits of {@link classify}: every type a field can be read as. */
export const TypeBit = {
  /** `true` / `false`. */
  BOOLEAN: 1,
  /** An integer in the int64 range without leading zeros. */
  INT64: 2,
  /** A decimal number or integer without leading zeros (and inf / nan). */
  DOUBLE: 4,
  /** `YYYY-MM-DD`. */
  DATE: 8,
  /** A timestamp without a zone (or a date). */
  TIMESTAMP: 16,
  /** A timestamp with a zone. */
  TIMESTAMPTZ: 32,
  /** A time of day. */
  TIME: 64,
} as const;

/**
 * Every type a non-null field can be read as, for the CSV sniffer (see the type rules in the package README).
 * `r.fracDigits` is left at the fraction digits of a timestamp or time.
 * @param b - the bytes.
 * @param s - first byte.
 * @param e - end (exclusive).
 * @param r - result registers.
 * @returns a mask of {@link TypeBit}s (0: only a string).
 */
export function classify(b: Uint8Array, s: number, e: number, r: TextResult): number {
  if (e <= s) return 0;
  const c = b[s]!;
  const isDigit = c >= C0 && c <= 57;
  if (!isDigit && c !== MINUS && c !== PLUS && c !== DOT) {
    if (readBoolean(b, s, e, false) >= 0) return TypeBit.BOOLEAN;
    return readNumber(b, s, e, r) ? TypeBit.DOUBLE : 0;
  }
  r.fracDigits = 0;
  if (isDigit && e - s >= 10 && b[s + 4] === MINUS) {
    if (!readTimestamp(b, s, e, r)) return 0;
    if (r.dateOnly) return TypeBit.DATE | TypeBit.TIMESTAMP;
    return r.offset ? TypeBit.TIMESTAMPTZ : TypeBit.TIMESTAMP;
  }
  if (isDigit && e - s >= 5 && b[s + 2] === COLON) return readTime(b, s, e, r) ? TypeBit.TIME : 0;
  if (readInteger(b, s, e, r)) {
    if (r.leadingZero) return 0;
    return toInt64(r) ? TypeBit.INT64 | TypeBit.DOUBLE : TypeBit.DOUBLE;
  }
  return readNumber(b, s, e, r) && !r.leadingZero ? TypeBit.DOUBLE : 0;
}
