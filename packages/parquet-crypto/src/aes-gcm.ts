/**
 * AES_GCM_V1 module ciphers over WebCrypto (Encryption.md §4.2.1 and §5.1).
 * Spec: https://github.com/apache/parquet-format/blob/master/Encryption.md#421-aes_gcm_v1
 *
 * ```
 * GCM module = length (4 bytes, LE, = 12 + n + 16) ‖ nonce (12 bytes) ‖ ciphertext (n bytes) ‖ tag (16 bytes)
 * ```
 * Nonces are 12 random bytes from `crypto.getRandomValues` (NIST SP 800-38D §8.2.2, RBG-based construction).
 * @module
 */
import { cryptoError } from './errors.js';

/** Bytes of the little-endian length that precedes every encrypted module. */
export const LENGTH_PREFIX = 4;
/** Bytes of a GCM nonce and of the nonce part of a CTR IV. */
export const NONCE_LENGTH = 12;
/** Bytes of a GCM authentication tag. */
export const TAG_LENGTH = 16;
/** Bytes a GCM module adds to its plaintext: length, nonce and tag. */
export const GCM_OVERHEAD = LENGTH_PREFIX + NONCE_LENGTH + TAG_LENGTH;
/** Bytes of a plaintext-footer signature: nonce and tag. */
export const SIGNATURE_LENGTH = NONCE_LENGTH + TAG_LENGTH;

/** The platform's SubtleCrypto, or a typed error where there is none (e.g. an insecure browser context). */
export function subtle(): SubtleCrypto {
  const s = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (s === undefined) {
    throw cryptoError('CRYPTO_UNAVAILABLE', 'globalThis.crypto.subtle is not available (WebCrypto needs Node >= 20 or a secure browser context)');
  }
  return s;
}

// WebCrypto's TS types want ArrayBuffer-backed views; a SharedArrayBuffer view is accepted at run time by
// Node and copied by browsers, so this cast only silences the type.
function buf(b: Uint8Array): Uint8Array<ArrayBuffer> {
  return b as Uint8Array<ArrayBuffer>;
}

/**
 * Checks an AES key length (128, 192 or 256 bits).
 * @param key - the raw key bytes.
 * @param what - what the key is for, for the message.
 * @throws ParquetError `INVALID_KEY` when the key is not 16, 24 or 32 bytes.
 */
export function checkKeyLength(key: Uint8Array, what: string): void {
  if (!(key instanceof Uint8Array) || (key.length !== 16 && key.length !== 24 && key.length !== 32)) {
    const len = key instanceof Uint8Array ? `${key.length} bytes` : typeof key;
    throw cryptoError('INVALID_KEY', `${what} key must be 16, 24 or 32 bytes (AES-128/192/256), got ${len}`);
  }
}

/**
 * Imports a raw AES key for one WebCrypto algorithm (non-extractable).
 * @param key - 16, 24 or 32 raw key bytes.
 * @param algorithm - `'AES-GCM'` or `'AES-CTR'`.
 * @param what - what the key is for, for messages.
 * @returns the CryptoKey.
 * @throws ParquetError `INVALID_KEY` for a wrong length or a key the platform rejects (some browsers refuse 192-bit keys).
 */
export async function importAesKey(key: Uint8Array, algorithm: 'AES-GCM' | 'AES-CTR', what: string): Promise<CryptoKey> {
  checkKeyLength(key, what);
  try {
    return await subtle().importKey('raw', buf(key), algorithm, false, ['encrypt', 'decrypt']);
  } catch (e) {
    throw cryptoError('INVALID_KEY', `the platform refused the ${key.length * 8}-bit ${algorithm} ${what} key`, e);
  }
}

/**
 * Returns 12 fresh random bytes from the platform's secure random source.
 * @returns a new nonce.
 */
export function randomNonce(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(NONCE_LENGTH));
}

/**
 * Returns the total size (length prefix included) of the encrypted module that starts at `pos`,
 * so a reader knows how many bytes to hand to a decryptor (e.g. for a page header).
 * @param bytes - bytes holding at least the 4-byte length prefix at `pos`.
 * @param pos - where the module starts.
 * @returns `4 + length`.
 * @throws ParquetError `DECRYPTION_FAILED` when fewer than 4 bytes are available or the length exceeds 2^31 - 1.
 */
export function encryptedModuleSize(bytes: Uint8Array, pos = 0): number {
  if (pos < 0 || pos + LENGTH_PREFIX > bytes.length) {
    throw cryptoError('DECRYPTION_FAILED', `encrypted module at byte ${pos}: need a 4-byte length prefix, ${Math.max(0, bytes.length - pos)} bytes left`);
  }
  const len = (bytes[pos]! | (bytes[pos + 1]! << 8) | (bytes[pos + 2]! << 16) | (bytes[pos + 3]! << 24)) >>> 0;
  if (len > 0x7fffffff) {
    throw cryptoError('DECRYPTION_FAILED', `encrypted module at byte ${pos}: length ${len} exceeds 2^31 - 1`);
  }
  return LENGTH_PREFIX + len;
}

/**
 * Validates a module's framing: the length prefix must match the bytes given, and cover at least `min` bytes.
 * @returns the module length (without the prefix).
 */
export function checkFraming(module: Uint8Array, min: number, what: Describe): number {
  if (module.length < LENGTH_PREFIX) {
    throw cryptoError('DECRYPTION_FAILED', `${describe(what)}: need a 4-byte length prefix, ${module.length} bytes given`);
  }
  const total = encryptedModuleSize(module, 0);
  const len = total - LENGTH_PREFIX;
  if (len < min) throw cryptoError('DECRYPTION_FAILED', `${describe(what)}: module length ${len} is shorter than the ${min}-byte minimum`);
  if (total !== module.length) {
    throw cryptoError('DECRYPTION_FAILED', `${describe(what)}: module length prefix says ${total} bytes with the prefix, ${module.length} given`);
  }
  return len;
}

/** A module's identity for error messages, or a function computing it (only called when an error is thrown). */
export type Describe = string | (() => string);

/** Resolves a {@link Describe}. */
export function describe(what: Describe): string {
  return typeof what === 'string' ? what : what();
}

/**
 * Encrypts one module with AES-GCM and frames it (length ‖ nonce ‖ ciphertext ‖ tag).
 * @param key - an AES-GCM CryptoKey.
 * @param plaintext - the serialized module.
 * @param aad - the module AAD.
 * @param nonce - 12 bytes; a fresh random nonce when omitted (pass one only in tests).
 * @returns the framed module, `plaintext.length + 32` bytes.
 * @throws ParquetError `ENCRYPTION_FAILED` when WebCrypto fails, `MODULE_TOO_LARGE` past 2^31 - 1 bytes.
 */
export async function encryptGcmModule(key: CryptoKey, plaintext: Uint8Array, aad: Uint8Array, nonce: Uint8Array = randomNonce()): Promise<Uint8Array> {
  if (plaintext.length > 0x7fffffff - GCM_OVERHEAD) {
    throw cryptoError('MODULE_TOO_LARGE', `a ${plaintext.length}-byte module does not fit the 4-byte length prefix`);
  }
  let sealed: ArrayBuffer;
  try {
    sealed = await subtle().encrypt({ name: 'AES-GCM', iv: buf(nonce), additionalData: buf(aad), tagLength: 128 }, key, buf(plaintext));
  } catch (e) {
    throw cryptoError('ENCRYPTION_FAILED', `AES-GCM encryption of a ${plaintext.length}-byte module failed`, e);
  }
  const len = NONCE_LENGTH + sealed.byteLength;
  const out = new Uint8Array(LENGTH_PREFIX + len);
  out[0] = len & 0xff;
  out[1] = (len >>> 8) & 0xff;
  out[2] = (len >>> 16) & 0xff;
  out[3] = len >>> 24;
  out.set(nonce, LENGTH_PREFIX);
  out.set(new Uint8Array(sealed), LENGTH_PREFIX + NONCE_LENGTH);
  return out;
}

/**
 * Authenticates and decrypts one framed AES-GCM module.
 * @param key - an AES-GCM CryptoKey.
 * @param module - the whole module, length prefix included, nothing after it.
 * @param aad - the module AAD.
 * @param what - the module's identity for messages (e.g. "data page header, row group 0, column 2, page 5"),
 *   or a function returning it, called only when an error is thrown.
 * @returns the plaintext (`module.length - 32` bytes).
 * @throws ParquetError `DECRYPTION_FAILED` when the framing is wrong or the tag does not verify
 *   (wrong key, wrong AAD prefix, a tampered byte, a module moved from elsewhere).
 */
export async function decryptGcmModule(key: CryptoKey, module: Uint8Array, aad: Uint8Array, what: Describe): Promise<Uint8Array> {
  checkFraming(module, NONCE_LENGTH + TAG_LENGTH, what);
  const nonce = module.subarray(LENGTH_PREFIX, LENGTH_PREFIX + NONCE_LENGTH);
  const sealed = module.subarray(LENGTH_PREFIX + NONCE_LENGTH);
  try {
    const plain = await subtle().decrypt({ name: 'AES-GCM', iv: buf(nonce), additionalData: buf(aad), tagLength: 128 }, key, buf(sealed));
    return new Uint8Array(plain);
  } catch (e) {
    throw cryptoError('DECRYPTION_FAILED', `${describe(what)}: AES-GCM authentication failed (wrong key, wrong AAD prefix, tampered or misplaced module)`, e);
  }
}

/**
 * Computes the 16-byte GCM tag of `plaintext` under `nonce` and `aad` (used for plaintext-footer signatures).
 * @param key - an AES-GCM CryptoKey.
 * @param plaintext - the bytes to authenticate.
 * @param aad - the AAD.
 * @param nonce - 12 bytes.
 * @returns the tag.
 * @throws ParquetError `ENCRYPTION_FAILED` when WebCrypto fails.
 */
export async function gcmTag(key: CryptoKey, plaintext: Uint8Array, aad: Uint8Array, nonce: Uint8Array): Promise<Uint8Array> {
  let sealed: ArrayBuffer;
  try {
    sealed = await subtle().encrypt({ name: 'AES-GCM', iv: buf(nonce), additionalData: buf(aad), tagLength: 128 }, key, buf(plaintext));
  } catch (e) {
    throw cryptoError('ENCRYPTION_FAILED', `AES-GCM over a ${plaintext.length}-byte footer failed`, e);
  }
  return new Uint8Array(sealed, sealed.byteLength - TAG_LENGTH, TAG_LENGTH);
}

/** Compares two byte arrays without an early exit (no timing hint about where they differ). */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a[i]! ^ b[i]!;
  return d === 0;
}
