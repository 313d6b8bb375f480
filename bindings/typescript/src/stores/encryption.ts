// Encryption at rest for the persistent stores and the Redis bus
// (docs/guide/storage.md, "Encryption at rest"): AES-256-GCM through
// WebCrypto (`globalThis.crypto.subtle`), the one code path for Node,
// browsers, Deno, Bun and workerd. Each record gets a fresh random 96-bit
// nonce; the record's context (its execution id, tool_call_id and dialog, or
// the bus's stream) and the key's id are the associated data, so ciphertext
// moved to another record, another dialog or another key id fails to decrypt.
import { ToolResultError, quoteText } from '../errors.js';
import type { Issue } from '../generated/types.js';

/** The `encryption` option of the persistent stores and the Redis bus. */
export interface EncryptionOptions {
  /**
   * The keys, by id: 32 raw bytes, or a WebCrypto AES-GCM key of 256 bits
   * (with the `decrypt` usage; the current one also `encrypt`). Records
   * under any of them stay readable.
   */
  keys: Readonly<Record<string, CryptoKey | Uint8Array>>;
  /** The id of the key new records (and `rewrap()`) are written with. */
  current: string;
}

/** Why a store could not read a record. */
export type SkippedCode = 'key_unavailable' | 'decryption_failed' | 'encryption_required' | 'corrupt_row';

/** A record a read left out, and why (it stays stored as it is). */
export interface SkippedRecord {
  execution_id: string;
  /** Its tool_call_id, as the store files it (its clear field: a record that fails authentication may have had it changed). */
  tool_call_id?: string;
  /** The key the record is encrypted under (absent for a clear record). */
  key_id?: string;
  code: SkippedCode;
}

/**
 * What `history` and `listDialog` of the persistent stores return: the
 * records read, as an array, plus `skipped` (not enumerable, so the array
 * compares and serializes as before): the records the call had to leave out.
 */
export type Listing<T> = T[] & { readonly skipped: readonly SkippedRecord[] };

/** `items` as a {@link Listing}. */
export function listing<T>(items: T[], skipped: SkippedRecord[]): Listing<T> {
  Object.defineProperty(items, 'skipped', { value: Object.freeze(skipped), enumerable: false });
  return items as Listing<T>;
}

/** One record's ciphertext (AES-256-GCM: the ciphertext ends with its 16-byte tag). */
export interface Sealed {
  key_id: string;
  nonce: Uint8Array;
  ciphertext: Uint8Array;
}

/** The algorithm marker of a sealed record: also how a sealed JSON record is told from a clear one. */
export const SEALED_ALGORITHM = 'aes-256-gcm';

const KEY_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The ids a stored record's ciphertext is bound to: the ids the store finds
 * and lists it by (its clear fields, file path or columns), so a record
 * moved or copied under other ids, or into another dialog, fails to decrypt.
 */
export interface RecordIds {
  execution_id: string;
  /** The result's tool_call_id, or its execution id when it has none (as the stores file it). */
  tool_call_id: string;
  /** The dialog it is stored under; absent or null for none. */
  dialog_id?: string | null;
}

// A JSON array: no two different sets of ids give the same text.
const idsText = (r: RecordIds) => JSON.stringify([r.execution_id, r.tool_call_id, r.dialog_id ?? null]);
/** The associated data of a stored result: its ids (under a label, so a result's ciphertext is never taken for another kind of record's). */
export const resultContext = (r: RecordIds): string => `toolresult/result:${idsText(r)}`;
/** The associated data of a stored result's summary and preview (PostgreSQL's `sealed_meta`). */
export const metaContext = (r: RecordIds): string => `toolresult/meta:${idsText(r)}`;
/** The associated data of a bus message: its Pub/Sub channel or stream. */
export const busContext = (channel: string): string => `toolresult/bus:${channel}`;

const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const utf8 = new TextEncoder();
// WebCrypto takes views of ArrayBuffers; every view here is one (never of a SharedArrayBuffer).
const view = (bytes: Uint8Array) => bytes as Uint8Array<ArrayBuffer>;

function subtle(): SubtleCrypto {
  const s = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (!s) {
    throw new ToolResultError(
      'missing_dependency',
      'encryption needs WebCrypto (globalThis.crypto.subtle); browsers offer it only in secure contexts (https, localhost)',
    );
  }
  return s;
}

function isCryptoKey(value: unknown): value is CryptoKey {
  const k = value as CryptoKey | null;
  return k !== null && typeof k === 'object' && typeof k.type === 'string' && typeof k.algorithm === 'object' && Array.isArray(k.usages);
}

/**
 * The keys of one store or bus: checked when the option is given (a typed
 * `invalid_options` error before anything is read or written), imported into
 * WebCrypto on first use.
 */
export class Keyring {
  readonly current: string;
  readonly #given: Map<string, CryptoKey | Uint8Array>;
  readonly #imported = new Map<string, Promise<CryptoKey>>();

  private constructor(current: string, given: Map<string, CryptoKey | Uint8Array>) {
    this.current = current;
    this.#given = given;
  }

  /** Checks an `encryption` option (`undefined`: none) and makes its keyring; every problem found is one issue. */
  static from(options: unknown, path = '/encryption'): Keyring | undefined {
    if (options === undefined) return undefined;
    const issues: Issue[] = [];
    const bad = (at: string, message: string) => issues.push({ path: at, code: 'invalid_options', message });
    const shape = 'encryption is { keys: { [keyId]: CryptoKey | Uint8Array (32 bytes) }, current: keyId }';
    if (options === null || typeof options !== 'object' || Array.isArray(options)) {
      bad(path, shape);
      throw new ToolResultError('invalid_options', 'invalid encryption option', issues);
    }
    const { keys, current, ...rest } = options as Record<string, unknown>;
    for (const name of Object.keys(rest)) bad(`${path}/${pointer(name)}`, `unknown option ${quoteText(name, '`')}: ${shape}`);
    const given = new Map<string, CryptoKey | Uint8Array>();
    if (keys === null || typeof keys !== 'object' || Array.isArray(keys) || Object.keys(keys).length === 0) {
      bad(`${path}/keys`, 'give at least one key: { [keyId]: CryptoKey | Uint8Array (32 bytes) }');
    } else {
      for (const [id, key] of Object.entries(keys)) {
        const at = `${path}/keys/${pointer(id)}`;
        if (!KEY_ID.test(id)) {
          bad(
            at,
            `key id ${quoteText(id, '`')} must be 1-64 letters, digits, '.', '_', ':' or '-', starting with a letter or digit (it is stored in the clear)`,
          );
        } else if (key instanceof Uint8Array) {
          if (key.byteLength !== 32) bad(at, `key ${quoteText(id, '`')} is ${key.byteLength} bytes; AES-256 needs 32`);
          // A copy: the caller may reuse or wipe its buffer.
          else given.set(id, new Uint8Array(key));
        } else if (isCryptoKey(key)) {
          const alg = key.algorithm as { name?: string; length?: number };
          const needs = id === current ? ['encrypt', 'decrypt'] : ['decrypt'];
          if (key.type !== 'secret' || alg.name !== 'AES-GCM' || alg.length !== 256) {
            bad(at, `key ${quoteText(id, '`')} is a ${key.type} ${alg.name ?? '?'} key of ${alg.length ?? '?'} bits; give an AES-GCM key of 256 bits`);
          } else if (!needs.every((u) => key.usages.includes(u as KeyUsage))) {
            bad(at, `key ${quoteText(id, '`')} needs the usages ${needs.join(' and ')} (it has ${key.usages.join(', ') || 'none'})`);
          } else given.set(id, key);
        } else {
          bad(at, `key ${quoteText(id, '`')} is neither a Uint8Array of 32 bytes nor a CryptoKey`);
        }
      }
    }
    if (typeof current !== 'string') bad(`${path}/current`, 'current is the id of the key new records are written with');
    else if (keys !== null && typeof keys === 'object' && !Object.hasOwn(keys, current)) {
      bad(`${path}/current`, `current key ${quoteText(current, '`')} is not among the keys given (${Object.keys(keys).join(', ') || 'none'})`);
    }
    if (issues.length) throw new ToolResultError('invalid_options', 'invalid encryption option', issues);
    return new Keyring(current as string, given);
  }

  /** Whether a key of this id was given. */
  has(keyId: string): boolean {
    return this.#given.has(keyId);
  }

  /** The ids of the keys given. */
  get ids(): string[] {
    return [...this.#given.keys()];
  }

  #key(keyId: string): Promise<CryptoKey> {
    let key = this.#imported.get(keyId);
    if (!key) {
      const given = this.#given.get(keyId) as CryptoKey | Uint8Array;
      key = given instanceof Uint8Array ? subtle().importKey('raw', view(given), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']) : Promise.resolve(given);
      this.#imported.set(keyId, key);
    }
    return key;
  }

  /** Encrypts `plaintext` under the current key with a fresh nonce, bound to `context` and the key's id. */
  async seal(plaintext: Uint8Array | string, context: string): Promise<Sealed> {
    const s = subtle();
    const key = await this.#key(this.current);
    const nonce = globalThis.crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
    const data = typeof plaintext === 'string' ? utf8.encode(plaintext) : plaintext;
    const additionalData = associatedData(this.current, context);
    const ciphertext = new Uint8Array(await s.encrypt({ name: 'AES-GCM', iv: nonce, additionalData, tagLength: 128 }, key, view(data)));
    return { key_id: this.current, nonce, ciphertext };
  }

  /**
   * Decrypts a record of `context` (`what` names it in errors): throws
   * `key_unavailable` when its key was not given, `decryption_failed` when
   * it fails authentication.
   */
  async open(sealed: Sealed, context: string, what: string): Promise<Uint8Array> {
    if (!this.#given.has(sealed.key_id)) throw keyUnavailable(what, sealed.key_id, this.ids);
    if (sealed.nonce.byteLength !== NONCE_BYTES || sealed.ciphertext.byteLength < TAG_BYTES) throw decryptionFailed(what, sealed.key_id);
    const key = await this.#key(sealed.key_id);
    try {
      const aad = associatedData(sealed.key_id, context);
      return new Uint8Array(
        await subtle().decrypt({ name: 'AES-GCM', iv: view(sealed.nonce), additionalData: aad, tagLength: 128 }, key, view(sealed.ciphertext)),
      );
    } catch {
      throw decryptionFailed(what, sealed.key_id);
    }
  }
}

/**
 * The associated data of a record: its key id and its context, as a JSON
 * array (unambiguous whatever the context holds). The key id is in it so
 * that a record's clear `key_id` cannot be changed to name another key.
 */
function associatedData(keyId: string, context: string): Uint8Array<ArrayBuffer> {
  return view(utf8.encode(JSON.stringify([keyId, context])));
}

/**
 * What in a decrypted result disagrees with the clear fields the store keeps
 * beside it (`undefined`: nothing). The ids are in the associated data, so
 * only a writer holding the key could make them differ; tool name and status
 * are not, and a changed one would misfile the result in `history`.
 */
export function clearFieldMismatch(
  result: { metadata?: { execution_id?: unknown }; input?: { tool_call_id?: unknown; tool_name?: unknown }; status?: unknown },
  clear: { execution_id?: unknown; tool_call_id?: unknown; tool_name?: unknown; status?: unknown },
): string | undefined {
  const executionId = result.metadata?.execution_id;
  const own: Record<string, unknown> = {
    execution_id: executionId,
    tool_call_id: result.input?.tool_call_id ?? executionId,
    tool_name: result.input?.tool_name,
    status: result.status,
  };
  for (const field of ['execution_id', 'tool_call_id', 'tool_name', 'status'] as const) {
    if (clear[field] !== undefined && clear[field] !== own[field]) return field;
  }
  return undefined;
}

/** `decryption_failed` for a record that decrypts but whose clear `field` says otherwise than its content. */
export function clearFieldChanged(what: string, keyId: string, field: string): ToolResultError {
  return new ToolResultError(
    'decryption_failed',
    `${what} decrypts under key ${quoteText(keyId, '"')}, but its clear ${field} is not the one it was written with: it is not returned`,
  );
}

/** `key_unavailable`: the record's key is not among those given. */
export function keyUnavailable(what: string, keyId: string, given: string[]): ToolResultError {
  return new ToolResultError(
    'key_unavailable',
    `${what} is encrypted under key ${quoteText(keyId, '"')}, which is not among the keys given (${given.join(', ')}); it is left as it is`,
  );
}

/** `decryption_failed`: the record failed authentication. */
export function decryptionFailed(what: string, keyId: string): ToolResultError {
  return new ToolResultError(
    'decryption_failed',
    `${what} failed authentication under key ${quoteText(keyId, '"')}: it was changed, moved from another record, or the key given as ${quoteText(keyId, '"')} is not the one it was written with`,
  );
}

/** `encryption_required`: an encrypted record, read without the `encryption` option. */
export function encryptionRequired(what: string, keyId: string): ToolResultError {
  return new ToolResultError(
    'encryption_required',
    `${what} is encrypted under key ${quoteText(keyId, '"')}: open the store with the \`encryption\` option (ciphertext is never returned as data)`,
  );
}

/** A write under the ids of a record the store cannot read: it may be the same result or another, so nothing is written. */
export function unreadableConflict(record: SkippedRecord & { tool_call_id?: string }): ToolResultError {
  const key = record.key_id === undefined ? '' : `, key ${quoteText(record.key_id, '"')}`;
  return new ToolResultError(
    record.code === 'corrupt_row' ? 'corrupt_store' : record.code,
    `execution ${record.execution_id} (tool_call_id ${record.tool_call_id ?? '?'}) is stored but cannot be read here (${record.code}${key}): it may be this result or another, so nothing is written`,
  );
}

/** `rewrap()` on a store opened without `encryption`: there is no current key to re-encrypt under. */
export function rewrapNeedsEncryption(who: string): ToolResultError {
  const message = `${who}.rewrap() re-encrypts under the current key: open the store with the \`encryption\` option`;
  return new ToolResultError('invalid_options', message, [
    { path: '/encryption', code: 'invalid_options', message: 'the store was opened without encryption, which rewrap() needs' },
  ]);
}

/** The error of a `rewrap` that re-encrypted `done` records and could not read those `left` (they keep their keys). */
export function rewrapIncomplete(done: number, left: readonly SkippedRecord[]): ToolResultError {
  return new ToolResultError(
    left.some((r) => r.code === 'key_unavailable') ? 'key_unavailable' : 'decryption_failed',
    `rewrapped ${done} records; ${left.length} could not be read and keep their keys (give their keys, or remove them)`,
    left.map((r) => ({
      path: `/${pointer(r.execution_id)}`,
      code: r.code === 'corrupt_row' ? 'checksum_mismatch' : r.code,
      message: `execution ${r.execution_id}${r.key_id === undefined ? '' : ` under key ${quoteText(r.key_id, '"')}`}: ${r.code}`,
    })),
  );
}

/** Why an error stopped a record from being read: its code, when it is one of the encryption ones. */
export function skippedCode(e: unknown): SkippedCode | undefined {
  if (!(e instanceof ToolResultError)) return undefined;
  return e.code === 'key_unavailable' || e.code === 'decryption_failed' || e.code === 'encryption_required' ? e.code : undefined;
}

// ---------------------------------------------------------------------------
// Binary form (IndexedDB, PostgreSQL bytea): the nonce, then the ciphertext.

/** `nonce ‖ ciphertext`. */
export function sealedBytes(s: Sealed): Uint8Array {
  const out = new Uint8Array(s.nonce.byteLength + s.ciphertext.byteLength);
  out.set(s.nonce, 0);
  out.set(s.ciphertext, s.nonce.byteLength);
  return out;
}

/** The record `nonce ‖ ciphertext` under `keyId`. */
export function fromSealedBytes(keyId: string, bytes: Uint8Array): Sealed {
  return { key_id: keyId, nonce: bytes.subarray(0, NONCE_BYTES), ciphertext: bytes.subarray(NONCE_BYTES) };
}

// ---------------------------------------------------------------------------
// JSON form (files, bus messages): `{ "sealed": "aes-256-gcm", "key_id", …clear
// fields, "nonce", "ciphertext" }`, binary as base64.

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array | undefined {
  if (!BASE64.test(text)) return undefined;
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** A sealed record as JSON text, with the clear fields given between its key id and its nonce. */
export function sealedJson(s: Sealed, clear: Record<string, string> = {}): string {
  return JSON.stringify({ sealed: SEALED_ALGORITHM, key_id: s.key_id, ...clear, nonce: toBase64(s.nonce), ciphertext: toBase64(s.ciphertext) });
}

/** What {@link parseSealedJson} found in a text that is a sealed record. */
export type SealedJson = { ok: true; sealed: Sealed; clear: Record<string, unknown> } | { ok: false; reason: string };

/**
 * A sealed record in JSON text, `undefined` when the text is not one (a clear
 * record, or not JSON at all), or why it cannot be one (`ok: false`).
 */
export function parseSealedJson(text: string): SealedJson | undefined {
  // Every sealed record is written by sealedJson, so it starts so; a clear record never does.
  if (!text.startsWith('{"sealed":')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, 'sealed')) return undefined;
  const { sealed, key_id, nonce, ciphertext, ...clear } = value as Record<string, unknown>;
  if (sealed !== SEALED_ALGORITHM) return { ok: false, reason: `sealed with ${quoteText(sealed, '`')}, not ${SEALED_ALGORITHM}` };
  if (typeof key_id !== 'string' || !KEY_ID.test(key_id)) return { ok: false, reason: 'a sealed record without a valid key_id' };
  const n = typeof nonce === 'string' ? fromBase64(nonce) : undefined;
  const c = typeof ciphertext === 'string' ? fromBase64(ciphertext) : undefined;
  if (!n || !c) return { ok: false, reason: 'a sealed record whose nonce or ciphertext is not base64' };
  return { ok: true, sealed: { key_id, nonce: n, ciphertext: c }, clear };
}
