/**
 * Key lookup shared by the decryptor: explicit keys first, then the application's key retriever (its KMS),
 * each key imported into WebCrypto once per file and per cipher.
 * Spec: https://github.com/apache/parquet-format/blob/master/Encryption.md#43-key-metadata
 * @module
 */
import { isParquetError } from '@parquetry/thrift-compact';
import { importAesKey } from './aes-gcm.js';
import { cryptoError } from './errors.js';

/** Which key a {@link KeyRetriever} is asked for. */
export type KeyTarget =
  | { /** The footer key (it also encrypts the columns marked ENCRYPTION_WITH_FOOTER_KEY). */ readonly kind: 'footer' }
  | { /** A column-specific key. */ readonly kind: 'column'; /** The column's `path_in_schema`. */ readonly path: readonly string[] };

/**
 * The application's hook into its key management: given the `key_metadata` stored in the file (or undefined when
 * the writer stored none) and what the key is for, return the raw AES key (16, 24 or 32 bytes), or undefined
 * when this reader may not have it. May be async (e.g. a KMS round trip); called at most once per key per file.
 * `signal` is aborted when the reader stops waiting (after `keyTimeout`): pass it to the KMS request.
 */
export type KeyRetriever = (keyMetadata: Uint8Array | undefined, target: KeyTarget, signal?: AbortSignal) => Uint8Array | undefined | Promise<Uint8Array | undefined>;

/** How long a key retriever may take by default (ms): a KMS that never answers must not hang the read. */
export const DEFAULT_KEY_TIMEOUT = 60_000;

/** The two WebCrypto keys made from one raw key (CTR only for AES_GCM_CTR_V1 page bodies). */
export interface ImportedKey {
  /** For every GCM module. */
  readonly gcm: CryptoKey;
  /** For CTR page bodies; undefined under AES_GCM_V1. */
  readonly ctr: CryptoKey | undefined;
}

/** Imports `raw` for GCM and, when `withCtr`, for CTR. */
export async function importKey(raw: Uint8Array, withCtr: boolean, what: string): Promise<ImportedKey> {
  const [gcm, ctr] = await Promise.all([importAesKey(raw, 'AES-GCM', what), withCtr ? importAesKey(raw, 'AES-CTR', what) : undefined]);
  return { gcm, ctr };
}

/** A per-file cache of imported keys, keyed by a string naming the key's target. */
export class KeyCache {
  private readonly map = new Map<string, Promise<ImportedKey>>();
  /**
   * @param withCtr - import each key for CTR too (AES_GCM_CTR_V1).
   * @param timeout - how long a resolution may take (ms; `Infinity`: no limit).
   */
  constructor(
    private readonly withCtr: boolean,
    private readonly timeout: number = DEFAULT_KEY_TIMEOUT,
  ) {}

  /**
   * Returns the imported key for `id`, resolving the raw key with `resolve` on first use: given a signal aborted when
   * the resolution takes longer than the timeout, which then fails with `KEY_RETRIEVAL_FAILED`.
   * A failed resolution is not cached, so a later call can retry (e.g. a transient KMS error).
   */
  get(id: string, what: string, resolve: (signal: AbortSignal | undefined) => Promise<Uint8Array | undefined>): Promise<ImportedKey> {
    let p = this.map.get(id);
    if (p === undefined) {
      p = (async () => {
        let raw: Uint8Array | undefined;
        try {
          raw = await this.withTimeout(resolve, what);
        } catch (e) {
          if (isParquetError(e)) throw e;
          throw cryptoError('KEY_RETRIEVAL_FAILED', `the key retriever failed for the ${what} key: ${reasonOf(e)}`, e);
        }
        if (raw === undefined) throw cryptoError('KEY_MISSING', `no ${what} key: none given explicitly and the key retriever returned none`);
        return importKey(raw, this.withCtr, what);
      })();
      this.map.set(id, p);
      p.catch(() => this.map.delete(id));
    }
    return p;
  }

  /** `resolve()`, failed with `KEY_RETRIEVAL_FAILED` once the timeout passes (its signal aborted then). */
  private withTimeout(resolve: (signal: AbortSignal | undefined) => Promise<Uint8Array | undefined>, what: string): Promise<Uint8Array | undefined> {
    const ms = this.timeout;
    if (ms === Infinity) return resolve(undefined);
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(cryptoError('KEY_RETRIEVAL_FAILED', `the key retriever did not answer for the ${what} key within ${ms} ms (decryption.keyTimeout)`));
      }, ms);
    });
    return Promise.race([resolve(controller.signal), late]).finally(() => clearTimeout(timer));
  }
}

const utf8 = /*#__PURE__*/ new TextEncoder();

/** Accepts an AAD prefix as bytes or as a string (UTF-8 encoded). */
export function toBytes(v: Uint8Array | string): Uint8Array {
  return typeof v === 'string' ? utf8.encode(v) : v;
}

/**
 * The reason a key retriever gave (its error's message, and its cause's when the message wraps one), for the
 * `KEY_RETRIEVAL_FAILED` message: the KMS's own words ("no access to key kc1") are what a user acts on.
 */
function reasonOf(e: unknown): string {
  const parts: string[] = [];
  for (let x: unknown = e, depth = 0; x !== undefined && x !== null && depth < 3; depth++) {
    const m = x instanceof Error ? x.message : typeof x === 'string' ? x : String(x);
    if (m !== '' && !parts.some((p) => p.includes(m))) parts.push(m);
    x = x instanceof Error ? (x as { cause?: unknown }).cause : undefined;
  }
  const text = parts.join(': ') || 'no reason given';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
