/**
 * Base64 decoding for the generated kernel modules (snappy-wasm.ts, snappy-compress-wasm.ts), platform-neutral:
 * no `atob` or `Buffer`.
 */

/**
 * Decodes standard base64 (A-Z, a-z, 0-9, `+`, `/`); decoding stops at `=` padding or any other character.
 * @param s - the base64 text.
 * @returns a new array of the decoded bytes.
 */
export function base64Bytes(s: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array((s.length * 3) >>> 2);
  let n = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = c >= 65 && c <= 90 ? c - 65 : c >= 97 && c <= 122 ? c - 71 : c >= 48 && c <= 57 ? c + 4 : c === 43 ? 62 : c === 47 ? 63 : -1;
    if (v < 0) break;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >>> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}
