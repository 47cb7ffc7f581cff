/**
 * An exact, order-preserving text form of a value as the reader returns it, for equality checks: bigints keep
 * their digits, -0 differs from +0, every NaN is `NaN`, bytes are hex, `Map`s keep their entry order, `Date`s their
 * milliseconds, and object keys their insertion order (a field order change is a difference).
 */
export function stableText(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'bigint':
      return `${v}n`;
    case 'number':
      return Object.is(v, -0) ? '-0' : Number.isNaN(v) ? 'NaN' : String(v);
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return String(v);
    default:
      break;
  }
  if (v instanceof Uint8Array) return `x'${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}'`;
  if (v instanceof Date) return `@${v.getTime()}`;
  if (v instanceof Map) return `map{${[...v].map(([k, x]) => `${stableText(k)}:${stableText(x)}`).join(',')}}`;
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return `[${Array.from(v as ArrayLike<unknown>, stableText).join(',')}]`;
  return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${JSON.stringify(k)}:${stableText(x)}`).join(',')}}`;
}
