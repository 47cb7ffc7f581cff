/**
 * parquet-java's key-tools envelope (`KeyMaterial` "PKMT1"): data keys wrapped by a KMS master key, directly or
 * through a key-encryption key (double wrapping), with the key material stored in `key_metadata` (internal) or
 * in a JSON document beside the file (external, looked up by `keyReference`).
 * Spec: https://github.com/apache/parquet-format/blob/master/Encryption.md#43-key-metadata — the spec leaves
 * key metadata to applications; this module reads and writes the layout parquet-java's
 * `org.apache.parquet.crypto.keytools` uses, so files written by Spark/parquet-java with a KMS open here.
 *
 * ```
 * key_metadata (internal) = material JSON with "internalStorage": true
 * key_metadata (external) = {"keyMaterialType":"PKMT1","internalStorage":false,"keyReference":"columnKey0"}
 * material = {"keyMaterialType":"PKMT1","isFooterKey":…,"masterKeyID":…,"wrappedDEK":base64,"doubleWrapping":…,
 *             "keyEncryptionKeyID":base64,"wrappedKEK":base64}
 * locally wrapped key = base64(nonce (12) ‖ AES-GCM ciphertext ‖ tag (16)), AAD = the KEK id bytes
 * ```
 * @module
 */
import { importAesKey, subtle } from './aes-gcm.js';
import { cryptoError } from './errors.js';
import type { KeyRetriever } from './keys.js';

/** The application's KMS, as parquet-java's `KmsClient`: wraps and unwraps keys with a master key it holds. */
export interface KmsClient {
  /**
   * Wraps (encrypts) a key with a master key.
   * @param key - the key to wrap.
   * @param masterKeyId - the master key's id.
   * @returns the wrapped key as a string (base64 for the in-memory KMS).
   */
  wrapKey(key: Uint8Array, masterKeyId: string): Promise<string>;
  /**
   * Unwraps a key wrapped by {@link KmsClient.wrapKey}.
   * @param wrappedKey - the wrapped key.
   * @param masterKeyId - the master key's id.
   * @returns the key bytes.
   */
  unwrapKey(wrappedKey: string, masterKeyId: string): Promise<Uint8Array>;
}

const utf8 = /*#__PURE__*/ new TextEncoder();
const utf8dec = /*#__PURE__*/ new TextDecoder();

function toBase64(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]!);
  return btoa(s);
}

function fromBase64(s: string, what: string): Uint8Array {
  let bin: string;
  try {
    bin = atob(s);
  } catch (e) {
    throw cryptoError('KEY_MATERIAL_INVALID', `${what} is not base64`, e);
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * Wraps a key locally with AES-GCM (parquet-java `KeyToolkit.encryptKeyLocally`).
 * @param key - the key to wrap.
 * @param wrappingKey - a 16, 24 or 32-byte AES key.
 * @param aad - the AAD binding the wrapped key to its context.
 * @returns base64(nonce ‖ ciphertext ‖ tag).
 * @throws ParquetError `INVALID_KEY`.
 */
export async function wrapKeyLocally(key: Uint8Array, wrappingKey: Uint8Array, aad: Uint8Array): Promise<string> {
  const k = await importAesKey(wrappingKey, 'AES-GCM', 'wrapping');
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv: nonce, additionalData: aad as Uint8Array<ArrayBuffer> }, k, key as Uint8Array<ArrayBuffer>));
  const out = new Uint8Array(12 + sealed.length);
  out.set(nonce, 0);
  out.set(sealed, 12);
  return toBase64(out);
}

/**
 * Unwraps a key wrapped by {@link wrapKeyLocally}.
 * @param wrapped - base64(nonce ‖ ciphertext ‖ tag).
 * @param wrappingKey - the AES key it was wrapped with.
 * @param aad - the same AAD.
 * @returns the key.
 * @throws ParquetError `DECRYPTION_FAILED` (wrong wrapping key or AAD), `KEY_MATERIAL_INVALID`, `INVALID_KEY`.
 */
export async function unwrapKeyLocally(wrapped: string, wrappingKey: Uint8Array, aad: Uint8Array): Promise<Uint8Array> {
  const bytes = fromBase64(wrapped, 'a wrapped key');
  if (bytes.length < 28) throw cryptoError('KEY_MATERIAL_INVALID', `a wrapped key must be at least 28 bytes, got ${bytes.length}`);
  const k = await importAesKey(wrappingKey, 'AES-GCM', 'wrapping');
  try {
    return new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv: bytes.subarray(0, 12) as Uint8Array<ArrayBuffer>, additionalData: aad as Uint8Array<ArrayBuffer> }, k, bytes.subarray(12) as Uint8Array<ArrayBuffer>));
  } catch (e) {
    throw cryptoError('DECRYPTION_FAILED', 'unwrapping a key failed (wrong master/key-encryption key, or tampered key material)', e);
  }
}

/**
 * An in-memory KMS holding master keys (parquet-java's `InMemoryKMS` test KMS): wraps with AES-GCM, AAD = the
 * master key id. For tests and local development only — a real KMS never hands out master keys.
 * @param masterKeys - master key bytes by id.
 * @returns the KMS client.
 */
export function createInMemoryKms(masterKeys: Readonly<Record<string, Uint8Array>>): KmsClient {
  const master = (id: string): Uint8Array => {
    const k = Object.prototype.hasOwnProperty.call(masterKeys, id) ? masterKeys[id] : undefined;
    if (k === undefined) throw cryptoError('KEY_MISSING', `the in-memory KMS has no master key '${id}'`);
    return k;
  };
  return {
    wrapKey: async (key, id) => wrapKeyLocally(key, master(id), utf8.encode(id)),
    unwrapKey: async (wrapped, id) => unwrapKeyLocally(wrapped, master(id), utf8.encode(id)),
  };
}

interface KeyMaterial {
  keyMaterialType?: unknown;
  internalStorage?: unknown;
  keyReference?: unknown;
  masterKeyID?: unknown;
  wrappedDEK?: unknown;
  doubleWrapping?: unknown;
  keyEncryptionKeyID?: unknown;
  wrappedKEK?: unknown;
}

function parseMaterial(json: string, what: string): KeyMaterial {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch (e) {
    throw cryptoError('KEY_MATERIAL_INVALID', `${what} is not JSON`, e);
  }
  if (typeof v !== 'object' || v === null) throw cryptoError('KEY_MATERIAL_INVALID', `${what} is not a JSON object`);
  const m = v as KeyMaterial;
  if (m.keyMaterialType !== 'PKMT1') throw cryptoError('KEY_MATERIAL_INVALID', `${what}: keyMaterialType ${JSON.stringify(m.keyMaterialType)} is not "PKMT1"`);
  return m;
}

function str(m: KeyMaterial, field: keyof KeyMaterial): string {
  const v = m[field];
  if (typeof v !== 'string') throw cryptoError('KEY_MATERIAL_INVALID', `key material field ${field} is missing or not a string`);
  return v;
}

/** How {@link createKeyToolsRetriever} reaches the KMS and external key material. */
export interface KeyToolsOptions {
  /** The KMS that holds the master keys. */
  readonly kms: KmsClient;
  /**
   * External key material (files written with internal storage off): key reference → material JSON, e.g. the
   * parsed `_KEY_MATERIAL_FOR_<file>.json` beside the file, or a function fetching it.
   */
  readonly externalKeyMaterial?: Readonly<Record<string, string>> | ((keyReference: string) => string | undefined | Promise<string | undefined>);
}

/**
 * Creates a {@link KeyRetriever} that reads parquet-java key-tools key metadata: it finds the key material
 * (internal or external), unwraps the key-encryption key through the KMS (cached per KEK id) when double
 * wrapping is on, and unwraps the data key.
 * @param options - the KMS and where external key material lives.
 * @returns the key retriever, for {@link FileDecryptionProperties.keyRetriever}.
 * @throws ParquetError (from the retriever) `KEY_MATERIAL_INVALID`, `KEY_MISSING` (no external material for a
 *   reference, or no key metadata), `DECRYPTION_FAILED` (a key does not unwrap).
 */
export function createKeyToolsRetriever(options: KeyToolsOptions): KeyRetriever {
  const keks = new Map<string, Promise<Uint8Array>>();
  const external = async (ref: string): Promise<string> => {
    const src = options.externalKeyMaterial;
    const got = typeof src === 'function' ? await src(ref) : src !== undefined && Object.prototype.hasOwnProperty.call(src, ref) ? src[ref] : undefined;
    if (got === undefined) throw cryptoError('KEY_MISSING', `no external key material for key reference '${ref}'`);
    return got;
  };
  return async (keyMetadata) => {
    if (keyMetadata === undefined) throw cryptoError('KEY_MISSING', 'the file stores no key metadata for this key');
    const meta = parseMaterial(utf8dec.decode(keyMetadata), 'key metadata');
    const material = meta.internalStorage === false ? parseMaterial(await external(str(meta, 'keyReference')), `key material '${String(meta.keyReference)}'`) : meta;
    const masterKeyId = str(material, 'masterKeyID');
    const wrappedDek = str(material, 'wrappedDEK');
    if (material.doubleWrapping === false) return options.kms.unwrapKey(wrappedDek, masterKeyId);
    const kekId = str(material, 'keyEncryptionKeyID');
    let kek = keks.get(kekId);
    if (kek === undefined) {
      kek = options.kms.unwrapKey(str(material, 'wrappedKEK'), masterKeyId);
      keks.set(kekId, kek);
      kek.catch(() => keks.delete(kekId));
    }
    return unwrapKeyLocally(wrappedDek, await kek, fromBase64(kekId, 'keyEncryptionKeyID'));
  };
}

/** A freshly generated data key with the key-tools metadata to store next to it. */
export interface WrappedDataKey {
  /** The data key (use it as the footer or column key). */
  readonly key: Uint8Array;
  /** Store as the key's `key_metadata`. */
  readonly keyMetadata: Uint8Array;
}

/**
 * Generates a random data key and wraps it in key-tools material stored internally (in `key_metadata`), with
 * double wrapping through a fresh key-encryption key per call.
 * @param kms - the KMS holding `masterKeyId`.
 * @param masterKeyId - the master key to wrap with.
 * @param isFooterKey - whether this is the footer key (recorded in the material, as parquet-java does).
 * @param keyBytes - data key length (16, 24 or 32; default 16).
 * @returns the data key and its key metadata.
 * @throws ParquetError from the KMS, `INVALID_KEY` for a bad length.
 */
export async function generateWrappedDataKey(kms: KmsClient, masterKeyId: string, isFooterKey: boolean, keyBytes: 16 | 24 | 32 = 16): Promise<WrappedDataKey> {
  const key = crypto.getRandomValues(new Uint8Array(keyBytes));
  const kek = crypto.getRandomValues(new Uint8Array(keyBytes));
  const kekId = crypto.getRandomValues(new Uint8Array(16));
  const material = {
    keyMaterialType: 'PKMT1',
    internalStorage: true,
    isFooterKey,
    ...(isFooterKey ? { kmsInstanceID: 'DEFAULT', kmsInstanceURL: 'DEFAULT' } : {}),
    masterKeyID: masterKeyId,
    wrappedDEK: await wrapKeyLocally(key, kek, kekId),
    doubleWrapping: true,
    keyEncryptionKeyID: toBase64(kekId),
    wrappedKEK: await kms.wrapKey(kek, masterKeyId),
  };
  return { key, keyMetadata: utf8.encode(JSON.stringify(material)) };
}
