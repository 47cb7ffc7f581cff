/**
 * AES_GCM_CTR_V1 page ciphers over WebCrypto (Encryption.md §4.2.2 and §5.1).
 * Spec: https://github.com/apache/parquet-format/blob/master/Encryption.md#422-aes_gcm_ctr_v1
 *
 * In AES_GCM_CTR_V1 only page bodies (data and dictionary pages) use CTR; every other module uses GCM.
 * ```
 * CTR module = length (4 bytes, LE, = 12 + n) ‖ nonce (12 bytes) ‖ ciphertext (n bytes)
 * IV (counter block) = nonce ‖ 00 00 00 01      -- "first 31 bits of the initial counter 0, last bit 1"
 * ```
 * CTR is not authenticated: a tampered CTR page decrypts to wrong bytes without an error. The spec accepts
 * this trade-off; page headers (GCM) stay authenticated, and a page CRC, when written, catches corruption.
 * @module
 */
import { type Describe, LENGTH_PREFIX, NONCE_LENGTH, checkFraming, describe, randomNonce, subtle } from './aes-gcm.js';
import { cryptoError } from './errors.js';

/** Bytes a CTR module adds to its plaintext: length and nonce. */
export const CTR_OVERHEAD = LENGTH_PREFIX + NONCE_LENGTH;

function buf(b: Uint8Array): Uint8Array<ArrayBuffer> {
  return b as Uint8Array<ArrayBuffer>;
}

function counterBlock(nonce: Uint8Array): Uint8Array<ArrayBuffer> {
  const iv = new Uint8Array(16);
  iv.set(nonce.subarray(0, NONCE_LENGTH), 0);
  iv[15] = 1;
  return iv;
}

/**
 * Encrypts one page body with AES-CTR and frames it (length ‖ nonce ‖ ciphertext).
 * @param key - an AES-CTR CryptoKey.
 * @param plaintext - the (compressed) page bytes.
 * @param nonce - 12 bytes; a fresh random nonce when omitted (pass one only in tests).
 * @returns the framed module, `plaintext.length + 16` bytes.
 * @throws ParquetError `ENCRYPTION_FAILED` when WebCrypto fails, `MODULE_TOO_LARGE` past 2^31 - 1 bytes.
 */
export async function encryptCtrModule(key: CryptoKey, plaintext: Uint8Array, nonce: Uint8Array = randomNonce()): Promise<Uint8Array> {
  if (plaintext.length > 0x7fffffff - CTR_OVERHEAD) {
    throw cryptoError('MODULE_TOO_LARGE', `a ${plaintext.length}-byte page does not fit the 4-byte length prefix`);
  }
  let ct: ArrayBuffer;
  try {
    // length: 32 — the counter is the last 4 bytes of the block, as the spec's 4-byte counter field.
    ct = await subtle().encrypt({ name: 'AES-CTR', counter: counterBlock(nonce), length: 32 }, key, buf(plaintext));
  } catch (e) {
    throw cryptoError('ENCRYPTION_FAILED', `AES-CTR encryption of a ${plaintext.length}-byte page failed`, e);
  }
  const len = NONCE_LENGTH + ct.byteLength;
  const out = new Uint8Array(LENGTH_PREFIX + len);
  out[0] = len & 0xff;
  out[1] = (len >>> 8) & 0xff;
  out[2] = (len >>> 16) & 0xff;
  out[3] = len >>> 24;
  out.set(nonce, LENGTH_PREFIX);
  out.set(new Uint8Array(ct), LENGTH_PREFIX + NONCE_LENGTH);
  return out;
}

/**
 * Decrypts one framed AES-CTR page module. Not authenticated (see the module comment).
 * @param key - an AES-CTR CryptoKey.
 * @param module - the whole module, length prefix included, nothing after it.
 * @param what - the module's identity for messages, or a function returning it (called only on error).
 * @returns the plaintext (`module.length - 16` bytes).
 * @throws ParquetError `DECRYPTION_FAILED` when the framing is wrong or WebCrypto fails.
 */
export async function decryptCtrModule(key: CryptoKey, module: Uint8Array, what: Describe): Promise<Uint8Array> {
  checkFraming(module, NONCE_LENGTH, what);
  const iv = counterBlock(module.subarray(LENGTH_PREFIX, LENGTH_PREFIX + NONCE_LENGTH));
  try {
    return new Uint8Array(await subtle().decrypt({ name: 'AES-CTR', counter: iv, length: 32 }, key, buf(module.subarray(CTR_OVERHEAD))));
  } catch (e) {
    throw cryptoError('DECRYPTION_FAILED', `${describe(what)}: AES-CTR decryption failed`, e);
  }
}
