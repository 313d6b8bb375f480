// `toolresult/redis`: the agent-result bus (docs/integrations/redis.md). Agent results are validated before they
// are published and normalized (AgentResult, legacy TaskResult, AgentMessage)
// when they are consumed, over Redis through node-redis (`redis` ≥ 5, an
// optional peer dependency). Two transports:
// - Pub/Sub: fire and forget; a subscriber that is
//   down misses what is published meanwhile.
// - Streams with consumer groups, when nothing may be lost: acknowledged only
//   after the handler succeeded, claimed back from dead consumers
//   (XAUTOCLAIM), dead-lettered after `maxDeliveries` or at once when
//   invalid, handled once per (workflow_id, task_id) through markers in Redis.
// The client is the caller's: the types below are structural, and nothing of
// `redis` is imported at run time.
import { randomUUID } from 'node:crypto';
// The entry installs the wasm modules: this entry may be the first one loaded.
import '../index.js';
import { validateAgentResult } from '../api.js';
import { normalizeAgentResult, type MigrationContext } from '../convert.js';
import { ToolResultError, refuseUnknownOptions } from '../errors.js';
import type { AgentResult, Change, Issue, SourceShape, ValidationOptions } from '../generated/types.js';
import { type EncryptionOptions, Keyring, busContext, parseSealedJson, sealedJson, skippedCode } from '../stores/encryption.js';

export type { EncryptionOptions } from '../stores/encryption.js';

// ---------------------------------------------------------------------------
// The parts of node-redis used. A `createClient()` client satisfies them.

/** What publishing needs (node-redis `client.publish`). */
export interface RedisPublisher {
  publish(channel: string, message: string): Promise<unknown>;
}

/** A Pub/Sub listener as node-redis calls it. */
export type RedisMessageListener = (message: string, channel: string) => unknown;

/** What subscribing needs: a node-redis client (it enters subscriber mode; use a `duplicate()`). */
export interface RedisSubscriber {
  subscribe(channel: string, listener: RedisMessageListener): Promise<unknown>;
  unsubscribe(channel: string, listener?: RedisMessageListener): Promise<unknown>;
}

/** What streams need: raw commands (node-redis `sendCommand`, RESP2 replies). */
export interface RedisCommander {
  sendCommand(args: string[]): Promise<unknown>;
}

/** A client streams can open a dedicated connection from (node-redis `duplicate()`). */
export interface RedisStreamClient extends RedisCommander {
  duplicate(): RedisConnection;
}

/** A connection the consumer owns: connected, closed and listened to for errors. */
export interface RedisConnection extends RedisCommander {
  connect(): Promise<unknown>;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
  destroy?(): void;
  on?(event: 'error', listener: (error: Error) => void): unknown;
}

// ---------------------------------------------------------------------------
// Shared

/** What a handler is told besides the result. */
export interface DeliveryInfo {
  /** What normalization changed (empty for an AgentResult v1 as published). */
  changes: Change[];
  /** The shape that arrived. */
  source: SourceShape;
  /** The Pub/Sub channel, or the stream. */
  channel: string;
  /** Streams: the entry id. */
  id?: string;
  /** Streams: how many times the entry has been delivered (1 the first time). */
  deliveries?: number;
}

/** Something that arrived and is not a valid result: its issues and the message as received. */
export interface InvalidMessage {
  issues: Issue[];
  raw: string;
  channel: string;
  id?: string;
}

function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

function resultText(result: unknown, validation: ValidationOptions | undefined): { text: string; value: AgentResult } {
  let text: string;
  if (typeof result === 'string') text = result;
  else {
    try {
      text = JSON.stringify(result);
    } catch (e) {
      throw new ToolResultError('invalid_agent_result', `the result is not JSON data (${errorText(e)})`);
    }
  }
  if (typeof text !== 'string') throw new ToolResultError('invalid_agent_result', 'the result is not JSON data');
  const r = validateAgentResult(text, validation);
  if (!r.ok) throw new ToolResultError('invalid_agent_result', 'invalid AgentResult: not published', r.issues);
  return { text, value: r.value };
}

const issue = (code: Issue['code'], message: string): Issue => ({ path: '', code, message });

function rawText(message: unknown): string {
  if (typeof message === 'string') return message;
  if (message instanceof Uint8Array) return new TextDecoder('utf-8', { fatal: false }).decode(message);
  return String(message);
}

/** Normalizes a message's text: the AgentResult and its changes, or the issues. */
function normalizeText(raw: string, context: MigrationContext | undefined) {
  if (raw.length === 0) return { ok: false as const, issues: [issue('invalid_json', 'empty message')] };
  return normalizeAgentResult(raw, context);
}

// Encrypted messages (docs/guide/storage.md, "Encryption at rest"): the
// publisher seals the message text under its current key, bound to the
// channel or stream; a consumer with the key opens it, one without gets the
// message reported as invalid with the reason (never its ciphertext as data).
const keyrings = new WeakMap<object, { keyring: Keyring; current: unknown; keys: unknown[] }>();

/**
 * The keyring of an `encryption` option, made again only when the option
 * changed (so each call of `publishAgentResult` does not import its keys again).
 */
function keyringOf(encryption: EncryptionOptions | undefined): Keyring | undefined {
  if (encryption === undefined) return undefined;
  if (encryption === null || typeof encryption !== 'object') return Keyring.from(encryption);
  const keys = encryption.keys !== null && typeof encryption.keys === 'object' ? Object.entries(encryption.keys).flat() : [encryption.keys];
  const known = keyrings.get(encryption);
  if (known && known.current === encryption.current && known.keys.length === keys.length && known.keys.every((k, i) => k === keys[i])) return known.keyring;
  const keyring = Keyring.from(encryption) as Keyring;
  keyrings.set(encryption, { keyring, current: encryption.current, keys });
  return keyring;
}

/**
 * A message's text: itself when clear, decrypted when sealed; or the issue
 * why it cannot be read (`key_unavailable`, `decryption_failed`, `encryption_required`).
 */
async function openMessage(raw: string, keyring: Keyring | undefined, channel: string): Promise<{ ok: true; text: string } | { ok: false; issues: Issue[] }> {
  const sealed = parseSealedJson(raw);
  if (!sealed) return { ok: true, text: raw };
  if (!sealed.ok) return { ok: false, issues: [issue('decryption_failed', `an encrypted message that cannot be read: ${sealed.reason}`)] };
  if (!keyring) {
    return {
      ok: false,
      issues: [issue('encryption_required', `the message is encrypted (key ${sealed.sealed.key_id}): consume with the \`encryption\` option`)],
    };
  }
  try {
    return { ok: true, text: new TextDecoder().decode(await keyring.open(sealed.sealed, busContext(channel), `the message on ${channel}`)) };
  } catch (e) {
    const code = skippedCode(e);
    if (!code || code === 'corrupt_row') throw e;
    return { ok: false, issues: [issue(code, (e as Error).message)] };
  }
}

// ---------------------------------------------------------------------------
// Pub/Sub

/** The AgentMessage fields a wrapped publish may set. */
export interface AgentMessageFields {
  id?: string;
  agent_id?: string;
  stage?: string;
  trace_id?: string;
  timestamp?: string;
}

export interface PublishOptions {
  /** Send The AgentMessage wrapper (`type: "result"`, `payload`, `trace_id`) instead of the bare result. */
  wrap?: boolean | AgentMessageFields;
  /** Validation options (limits, extra agent types). */
  validation?: ValidationOptions;
  /** Encrypt the message (AES-256-GCM, bound to the channel); subscribers need the key. */
  encryption?: EncryptionOptions;
}

export interface PublishReport {
  /** Subscribers that received it (Redis's PUBLISH reply). */
  receivers: number;
  /** The text published (with `encryption`, the sealed text). */
  message: string;
  /** The wrapper's trace id, when wrapped. */
  trace_id?: string;
}

/**
 * Validates `result` as an AgentResult v1 and publishes it on `channel`. An
 * invalid result throws `ToolResultError` (`invalid_agent_result`, with every
 * issue) and nothing is published.
 */
export async function publishAgentResult(
  client: RedisPublisher,
  channel: string,
  result: AgentResult | string,
  options: PublishOptions = {},
): Promise<PublishReport> {
  refuseUnknownOptions(options, ['wrap', 'validation', 'encryption'], 'publishAgentResult');
  const keyring = keyringOf(options.encryption);
  const { text, value } = resultText(result, options.validation);
  let message = text;
  let trace_id: string | undefined;
  if (options.wrap) {
    const w = typeof options.wrap === 'object' ? options.wrap : {};
    trace_id = w.trace_id ?? randomUUID();
    message = JSON.stringify({
      id: w.id ?? randomUUID(),
      type: 'result',
      agent_id: w.agent_id ?? value.agent_id,
      workflow_id: value.workflow_id,
      ...(w.stage !== undefined ? { stage: w.stage } : {}),
      payload: JSON.parse(text),
      timestamp: w.timestamp ?? new Date().toISOString(),
      trace_id,
    });
  }
  if (keyring) message = sealedJson(await keyring.seal(message, busContext(channel)));
  const receivers = Number(await client.publish(channel, message));
  return trace_id === undefined ? { receivers, message } : { receivers, message, trace_id };
}

export type AgentResultHandler = (result: AgentResult, info: DeliveryInfo) => unknown;

export interface SubscribeOptions {
  /** What legacy TaskResults lack (agent_id, agent_type, action). */
  context?: MigrationContext;
  /** Called with every message that is not a valid result (never thrown into the subscription). */
  onInvalid?: (invalid: InvalidMessage) => void;
  /** Called when the handler throws or rejects (the subscription goes on). */
  onError?: (error: unknown, result: AgentResult, info: DeliveryInfo) => void;
  /**
   * Read encrypted messages (the publisher's keys). Clear messages are read
   * too. Without it, an encrypted message goes to `onInvalid`
   * (`encryption_required`).
   */
  encryption?: EncryptionOptions;
}

export interface PubSubCounts {
  received: number;
  handled: number;
  invalid: number;
  handlerErrors: number;
}

export interface AgentResultSubscription {
  readonly channel: string;
  /** What arrived so far. */
  counts(): PubSubCounts;
  /** Handlers still running (their promises settle before `unsubscribe` resolves). */
  unsubscribe(): Promise<void>;
}

/**
 * Subscribes to `channel` and calls `handler` with each message normalized to
 * a valid AgentResult v1 (AgentResult, legacy TaskResult or AgentMessage; JSON
 * text). Invalid messages go to `options.onInvalid`; a handler that throws is
 * reported to `options.onError` and the subscription goes on.
 */
export async function subscribeAgentResults(
  client: RedisSubscriber,
  channel: string,
  handler: AgentResultHandler,
  options: SubscribeOptions = {},
): Promise<AgentResultSubscription> {
  refuseUnknownOptions(options, ['context', 'onInvalid', 'onError', 'encryption'], 'subscribeAgentResults');
  const keyring = keyringOf(options.encryption);
  const counts: PubSubCounts = { received: 0, handled: 0, invalid: 0, handlerErrors: 0 };
  const running = new Set<Promise<unknown>>();
  // With encryption every message waits its turn here: decrypting awaits, and messages keep their order.
  let turn: Promise<void> = Promise.resolve();
  const report = (f: (() => void) | undefined) => {
    try {
      f?.();
    } catch {
      // A throwing report callback must not end the subscription either.
    }
  };
  const failed = (error: unknown, result: AgentResult, info: DeliveryInfo) => {
    counts.handlerErrors += 1;
    report(options.onError && (() => options.onError?.(error, result, info)));
  };
  const listener: RedisMessageListener = (message, from) => {
    counts.received += 1;
    const raw = rawText(message);
    if (keyring || parseSealedJson(raw)) {
      const p = (turn = turn.then(async () => {
        const opened = await openMessage(raw, keyring, from ?? channel).catch((e: unknown) => ({
          ok: false as const,
          issues: [issue('internal_error', errorText(e))],
        }));
        if (!opened.ok) {
          counts.invalid += 1;
          report(options.onInvalid && (() => options.onInvalid?.({ issues: opened.issues, raw, channel: from ?? channel })));
          return;
        }
        deliver(opened.text, raw, from);
      }));
      running.add(p);
      p.finally(() => running.delete(p));
      return;
    }
    deliver(raw, raw, from);
  };
  const deliver = (text: string, raw: string, from: string | undefined) => {
    let n: ReturnType<typeof normalizeText>;
    try {
      n = normalizeText(text, options.context);
    } catch (e) {
      n = { ok: false, issues: [issue('internal_error', errorText(e))] };
    }
    if (!n.ok) {
      counts.invalid += 1;
      const issues = n.issues;
      report(options.onInvalid && (() => options.onInvalid?.({ issues, raw, channel: from ?? channel })));
      return;
    }
    const info: DeliveryInfo = { changes: n.changes, source: n.source, channel: from ?? channel };
    const value = n.value;
    try {
      const out = handler(value, info);
      if (out && typeof (out as PromiseLike<unknown>).then === 'function') {
        const p = Promise.resolve(out).then(
          () => {
            counts.handled += 1;
          },
          (e) => failed(e, value, info),
        );
        running.add(p);
        p.finally(() => running.delete(p));
      } else counts.handled += 1;
    } catch (e) {
      failed(e, value, info);
    }
  };
  await client.subscribe(channel, listener);
  return {
    channel,
    counts: () => ({ ...counts }),
    async unsubscribe() {
      await client.unsubscribe(channel, listener);
      await Promise.allSettled([...running]);
    },
  };
}

// ---------------------------------------------------------------------------
// Streams

export interface AgentResultStreamOptions {
  /** The stream key. Default `toolresult:agent-results`. */
  stream?: string;
  /** The dead-letter stream key. Default `<stream>:dead`. */
  deadLetterStream?: string;
  /** Trim the stream to about this many entries on publish (`XADD MAXLEN ~`). Trimmed entries are gone, even unread ones. */
  maxLen?: number;
  /** Validation options for `publish`. */
  validation?: ValidationOptions;
  /** What legacy TaskResults lack (agent_id, agent_type, action), for consumers. */
  context?: MigrationContext;
  /**
   * Encrypt what is published (AES-256-GCM, bound to the stream) and read
   * encrypted entries; clear entries are read too. A consumer without the
   * entry's key dead-letters it as invalid (`key_unavailable`,
   * `encryption_required`), ciphertext kept. With it, the `issues` and
   * `error` of dead-letter entries are encrypted too (they may quote the result).
   */
  encryption?: EncryptionOptions;
}

export interface ConsumeOptions {
  /** The consumer group (created at the stream's start, with the stream, when missing). */
  group: string;
  /** This consumer's name, unique among live consumers of the group. Reuse it after a restart to take its pending entries back at once. */
  consumer: string;
  /**
   * Entries pending longer than this (a consumer died, or its handler failed) are claimed (XAUTOCLAIM);
   * also how long a consumer holds a result it is handling. A handler that runs longer may see the
   * result handled elsewhere too (its `withAck` commands still apply once). Default 30 000.
   */
  idleMs?: number;
  /**
   * After this many handler attempts without success (a throw, or a consumer that died during the
   * handler) an entry goes to the dead-letter stream with its last error. Default 5.
   */
  maxDeliveries?: number;
  /** Hand each (workflow_id, task_id) to the handler once (markers in Redis). Default true. */
  once?: boolean;
  /** How long a processed marker lives, in seconds. Default 7 days. */
  processedTtlSeconds?: number;
  /** Key prefix of the markers. Default `<stream>:processed:<group>:` (each group handles every result once). */
  processedPrefix?: string;
  /** Entries read per call. Default 16. */
  count?: number;
  /** How long one read blocks, in ms. Default 1000. */
  blockMs?: number;
  /** How often pending entries are looked for, in ms. Default min(idleMs, 1000). */
  claimIntervalMs?: number;
  /** Where a new group starts: `0` (the whole stream, default) or `$` (new entries only). */
  startId?: string;
  /** A connection to block on. Default: the stream's client's `duplicate()`, closed by `close()`. */
  connection?: RedisConnection;
}

/** What a stream handler is told: the delivery, and a way to make its own writes part of the acknowledgement. */
export interface StreamDeliveryInfo extends DeliveryInfo {
  id: string;
  /** Handler attempts for this entry, this one included (1 the first time). */
  deliveries: number;
  group: string;
  consumer: string;
  /**
   * Redis commands (e.g. `['HSET', 'stages', wf, 'done']`) run in the same script as the
   * acknowledgement and the processed marker: they take effect once per (workflow_id, task_id)
   * even when the handler itself runs again after a crash between its end and the
   * acknowledgement. Keys they touch must live on the same server (no cluster slots).
   */
  withAck(...commands: string[][]): void;
}

/** What each event's `detail` holds. */
export interface AgentResultStreamEventMap {
  published: { id: string; workflow_id: string; task_id: string };
  /** The handler succeeded and the entry was acknowledged (and marked processed). */
  handled: {
    id: string;
    workflow_id: string;
    task_id: string;
    deliveries: number;
    source: SourceShape;
    group: string;
    consumer: string;
    /** The handler's run time. */
    duration_ms: number;
  };
  /**
   * A result already processed (`inProgress: false`; acknowledged without calling the handler, or
   * its handler's run lost the race to commit) or being handled by another consumer right now
   * (`inProgress: true`; left pending, claimed again later).
   */
  duplicate: { id: string; workflow_id: string; task_id: string; group: string; consumer: string; inProgress: boolean };
  invalid: { id: string; issues: Issue[]; group: string; consumer: string };
  dead_lettered: {
    id: string;
    deadId: string;
    reason: 'invalid' | 'max_deliveries';
    error?: string;
    deliveries: number;
    group: string;
    consumer: string;
  };
  /** An entry read again: claimed from a consumer that died or failed, or this consumer's own after a restart. */
  redelivered: { id: string; group: string; consumer: string };
  handler_error: { id: string; error: unknown; deliveries: number; group: string; consumer: string };
  /** A command failed (the server went away); the consumer retries by itself. */
  connection_error: { message: string; consumer: string };
}
export type AgentResultStreamEventType = keyof AgentResultStreamEventMap;

/** An event of an AgentResultStream. */
export class AgentResultStreamEvent<K extends AgentResultStreamEventType = AgentResultStreamEventType> extends Event {
  readonly detail: AgentResultStreamEventMap[K];
  constructor(type: K, detail: AgentResultStreamEventMap[K]) {
    super(type);
    this.detail = detail;
  }
}

/** Counters of one AgentResultStream object (this process). */
export interface AgentResultStreamCounters {
  published: number;
  handled: number;
  /** Results acknowledged without calling the handler (processed already), or whose commit lost to another consumer's. */
  duplicates: number;
  invalid: number;
  deadLettered: number;
  redelivered: number;
  handlerErrors: number;
  connectionErrors: number;
}

export type StreamHandler = (result: AgentResult, info: StreamDeliveryInfo) => unknown;

/** A running consumer. */
export interface StreamConsumer {
  readonly group: string;
  readonly consumer: string;
  /** Stops reading, finishes the entry in hand, closes the connection it opened. */
  close(): Promise<void>;
  /** Settles when the consumer stopped (rejects only on a bug, never on a handler error). */
  readonly finished: Promise<void>;
}

// The scripts run atomically on the server: a consumer that dies, or a
// connection that drops, between two steps of one of them cannot leave half
// of it done. Each is safe to run again after a lost reply.
//
// Take the result for this delivery: `done` (processed already), `busy`
// (another consumer handles it now) or `go` with the attempt number.
// KEYS: marker ('' when `once` is off), retries hash. ARGV: lease, this consumer's lease prefix, lease ms, entry id.
const BEGIN = `
if KEYS[1] ~= '' then
  local held = redis.call('GET', KEYS[1])
  if held then
    if string.sub(held, 1, 5) == 'done:' then return {'done', 0} end
    if string.sub(held, 1, #ARGV[2]) ~= ARGV[2] then return {'busy', 0} end
  end
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
end
return {'go', redis.call('HINCRBY', KEYS[2], 'n:' .. ARGV[4], 1)}`;
// The handler succeeded: its commands, the marker and the acknowledgement, once.
// KEYS: stream, marker ('' when off), retries hash. ARGV: group, entry id, done value, ttl seconds,
// number of commands, then each command as its length and its words.
// Returns 1 (committed now, or by this very commit before a lost reply) or -1 (another delivery committed).
const COMMIT = `
local function ours()
  if KEYS[2] == '' then return 1 end
  if redis.call('GET', KEYS[2]) == ARGV[3] then return 1 end
  return -1
end
if #redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[2], ARGV[2], 1) == 0 then return ours() end
if KEYS[2] ~= '' then
  local held = redis.call('GET', KEYS[2])
  if held and string.sub(held, 1, 5) == 'done:' then
    redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
    redis.call('HDEL', KEYS[3], 'e:' .. ARGV[2], 'n:' .. ARGV[2])
    return -1
  end
end
local i = 6
for _ = 1, tonumber(ARGV[5]) do
  local n = tonumber(ARGV[i])
  redis.call(unpack(ARGV, i + 1, i + n))
  i = i + n + 1
end
if KEYS[2] ~= '' then redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4]) end
redis.call('HDEL', KEYS[3], 'e:' .. ARGV[2], 'n:' .. ARGV[2])
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
return 1`;
// Processed already: acknowledge without the handler.
// KEYS: stream, retries hash. ARGV: group, entry id.
const SKIP = `
redis.call('HDEL', KEYS[2], 'e:' .. ARGV[2], 'n:' .. ARGV[2])
return redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])`;
// Acknowledge and copy to the dead-letter stream in one step, once (false when acknowledged already).
// KEYS: stream, dead-letter stream, retries hash, marker ('' when none). ARGV: group, entry id, lease, fields….
const DEAD_LETTER = `
if redis.call('XACK', KEYS[1], ARGV[1], ARGV[2]) == 0 then return false end
local id = redis.call('XADD', KEYS[2], '*', unpack(ARGV, 4, #ARGV))
redis.call('HDEL', KEYS[3], 'e:' .. ARGV[2], 'n:' .. ARGV[2])
if KEYS[4] ~= '' and redis.call('GET', KEYS[4]) == ARGV[3] then redis.call('DEL', KEYS[4]) end
return id`;
// The handler failed: keep its error for the dead letter, release this consumer's lease.
// KEYS: marker ('' when off), retries hash. ARGV: lease, entry id, error.
const RELEASE = `
redis.call('HSET', KEYS[2], 'e:' .. ARGV[2], ARGV[3])
if KEYS[1] ~= '' and redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

type Entry = { id: string; fields: string[] | null };

function entries(reply: unknown): Entry[] {
  if (!Array.isArray(reply)) return [];
  const out: Entry[] = [];
  for (const e of reply) {
    // An entry trimmed or deleted while pending comes back with nil fields.
    if (!Array.isArray(e) || typeof e[0] !== 'string') continue;
    out.push({ id: e[0], fields: Array.isArray(e[1]) ? e[1].map(String) : null });
  }
  return out;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// A server's reply error ("ERR …", "WRONGTYPE …"): retrying the same command
// cannot help, unless the server is loading its data or busy.
function isReplyError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /^[A-Z][A-Z_]+ /.test(message) && !/^(LOADING|BUSY|TRYAGAIN|MASTERDOWN|CLUSTERDOWN|READONLY|NOREPLICAS) /.test(message);
}

// Unambiguous even when names hold the separator.
const leasePrefix = (consumer: string) => `pending:${consumer.length}:${consumer}:`;
const markerKey = (prefix: string, r: AgentResult) => `${prefix}${r.workflow_id.length}:${r.workflow_id}:${r.task_id}`;

/**
 * Agent results over a Redis stream: `publish` validates and appends;
 * `consume` reads with a consumer group and acknowledges only after the
 * handler succeeded. Events (an EventTarget; `on` is a typed shortcut) and
 * `counters()` report published, handled, duplicates, invalid,
 * dead-lettered and redelivered entries.
 */
export class AgentResultStream extends EventTarget {
  readonly stream: string;
  readonly deadLetterStream: string;
  private readonly client: RedisCommander & Partial<Pick<RedisStreamClient, 'duplicate'>>;
  private readonly options: AgentResultStreamOptions;
  private readonly keyring: Keyring | undefined;
  private readonly consumers = new Set<StreamConsumer>();
  private readonly count: AgentResultStreamCounters = {
    published: 0,
    handled: 0,
    duplicates: 0,
    invalid: 0,
    deadLettered: 0,
    redelivered: 0,
    handlerErrors: 0,
    connectionErrors: 0,
  };
  private closed = false;

  constructor(client: RedisCommander & Partial<Pick<RedisStreamClient, 'duplicate'>>, options: AgentResultStreamOptions = {}) {
    super();
    if (!client || typeof client.sendCommand !== 'function')
      throw new ToolResultError('invalid_options', 'AgentResultStream needs a node-redis client (sendCommand)');
    refuseUnknownOptions(options, ['stream', 'deadLetterStream', 'maxLen', 'validation', 'context', 'encryption'], 'new AgentResultStream');
    if (options.maxLen !== undefined && !(Number.isSafeInteger(options.maxLen) && options.maxLen > 0)) {
      throw new ToolResultError('invalid_options', 'maxLen must be a positive integer');
    }
    this.client = client;
    this.options = options;
    this.keyring = keyringOf(options.encryption);
    this.stream = options.stream ?? 'toolresult:agent-results';
    this.deadLetterStream = options.deadLetterStream ?? `${this.stream}:dead`;
  }

  /** This object's counters. */
  counters(): AgentResultStreamCounters {
    return { ...this.count };
  }

  /** Listens to one event type; returns the function that stops listening. */
  on<K extends AgentResultStreamEventType>(type: K, listener: (event: AgentResultStreamEvent<K>) => void): () => void {
    const l = (e: Event) => listener(e as AgentResultStreamEvent<K>);
    this.addEventListener(type, l);
    return () => this.removeEventListener(type, l);
  }

  private emit<K extends AgentResultStreamEventType>(type: K, detail: AgentResultStreamEventMap[K]) {
    try {
      this.dispatchEvent(new AgentResultStreamEvent(type, detail));
    } catch {
      // A throwing listener must not stop a consumer (Node reports it as an uncaught exception anyway).
    }
  }

  /**
   * Validates `result` and appends it (XADD, field `result`). Resolves with
   * the entry id once Redis has it. An invalid result throws
   * `ToolResultError` (`invalid_agent_result`) and nothing is appended. A
   * rejection for a connection that dropped leaves it unknown whether the
   * entry was appended: publishing again is safe, since consumers hand each
   * (workflow_id, task_id) to their handler once.
   */
  async publish(result: AgentResult | string): Promise<string> {
    if (this.closed) throw new ToolResultError('store_closed', 'the stream is closed');
    const { text, value } = resultText(result, this.options.validation);
    const trim = this.options.maxLen ? ['MAXLEN', '~', String(this.options.maxLen)] : [];
    const message = this.keyring ? sealedJson(await this.keyring.seal(text, busContext(this.stream))) : text;
    const id = String(await this.client.sendCommand(['XADD', this.stream, ...trim, '*', 'result', message]));
    this.count.published += 1;
    this.emit('published', { id, workflow_id: value.workflow_id, task_id: value.task_id });
    return id;
  }

  /**
   * Starts a consumer in `group` (see {@link ConsumeOptions}). Resolves once
   * the group exists and the consumer reads; the handler is called with each
   * valid result, normalized, one at a time.
   */
  async consume(handler: StreamHandler, options: ConsumeOptions): Promise<StreamConsumer> {
    if (this.closed) throw new ToolResultError('store_closed', 'the stream is closed');
    if (typeof handler !== 'function') throw new ToolResultError('invalid_options', 'consume needs a handler function');
    const settings = consumerSettings(this.stream, options);
    let conn: RedisConnection;
    const owned = !options.connection;
    if (options.connection) conn = options.connection;
    else {
      if (typeof this.client.duplicate !== 'function') throw new ToolResultError('invalid_options', 'pass options.connection, or a client with duplicate()');
      conn = this.client.duplicate();
      conn.on?.('error', () => {
        // Reported through connection_error when a command fails; node-redis reconnects.
      });
      await conn.connect();
    }
    const host: ConsumerHost = {
      stream: this.stream,
      deadLetterStream: this.deadLetterStream,
      client: this.client,
      keyring: this.keyring,
      context: this.options.context,
      count: this.count,
      emit: (type, detail) => this.emit(type, detail),
    };
    const run = new ConsumerRun(host, settings, handler, conn);
    try {
      await run.createGroup();
    } catch (e) {
      if (!/BUSYGROUP/.test(errorText(e))) {
        if (owned) await closeConnection(conn);
        throw e;
      }
    }
    await run.readClientId();
    const finished = run.loop();
    let closing: Promise<void> | undefined;
    const running: StreamConsumer = {
      group: settings.group,
      consumer: settings.consumer,
      finished,
      close: () => {
        closing ??= (async () => {
          await run.stop(finished);
          if (owned) await closeConnection(conn);
          this.consumers.delete(running);
        })();
        return closing;
      },
    };
    this.consumers.add(running);
    return running;
  }

  /** Stops every consumer of this object (each finishes the entry in hand); `publish` is refused afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.consumers].map((c) => c.close()));
  }
}

const CONSUME_OPTIONS = [
  'group',
  'consumer',
  'idleMs',
  'maxDeliveries',
  'once',
  'processedTtlSeconds',
  'processedPrefix',
  'count',
  'blockMs',
  'claimIntervalMs',
  'startId',
  'connection',
] as const;

/** A consumer's options, checked, with their defaults. */
interface ConsumerSettings {
  group: string;
  consumer: string;
  startId: string;
  idleMs: number;
  maxDeliveries: number;
  once: boolean;
  ttl: number;
  prefix: string;
  count: number;
  blockMs: number;
  claimEvery: number;
}

function consumerSettings(stream: string, options: ConsumeOptions): ConsumerSettings {
  refuseUnknownOptions(options, CONSUME_OPTIONS, 'consume');
  if (!options || typeof options.group !== 'string' || !options.group || typeof options.consumer !== 'string' || !options.consumer) {
    throw new ToolResultError('invalid_options', 'consume needs a group and a consumer name');
  }
  const idleMs = options.idleMs ?? 30_000;
  const settings: ConsumerSettings = {
    group: options.group,
    consumer: options.consumer,
    startId: options.startId ?? '0',
    idleMs,
    maxDeliveries: options.maxDeliveries ?? 5,
    once: options.once ?? true,
    ttl: options.processedTtlSeconds ?? 7 * 24 * 3600,
    prefix: options.processedPrefix ?? `${stream}:processed:${options.group}:`,
    count: options.count ?? 16,
    blockMs: options.blockMs ?? 1000,
    claimEvery: options.claimIntervalMs ?? Math.min(idleMs, 1000),
  };
  const { maxDeliveries, ttl: processedTtlSeconds, count, blockMs, claimEvery: claimIntervalMs } = settings;
  for (const [name, v] of Object.entries({ idleMs, maxDeliveries, processedTtlSeconds, count, blockMs, claimIntervalMs })) {
    if (!(Number.isSafeInteger(v) && v > 0)) throw new ToolResultError('invalid_options', `${name} must be a positive integer`);
  }
  return settings;
}

/** What a consumer uses of its AgentResultStream. */
interface ConsumerHost {
  stream: string;
  deadLetterStream: string;
  client: RedisCommander;
  keyring: Keyring | undefined;
  context: AgentResultStreamOptions['context'];
  count: AgentResultStreamCounters;
  emit<K extends AgentResultStreamEventType>(type: K, detail: AgentResultStreamEventMap[K]): void;
}

/** An entry's result, normalized, or the issues that make it a dead letter. */
type EntryResult = ReturnType<typeof normalizeText>;

/** One running consumer: its read loop, and the life of each entry it is handed. */
class ConsumerRun {
  private stopping = false;
  /** This connection's id, to cut a blocked read short on close; read again after a reconnect. */
  private clientId: string | undefined;
  private readonly retriesKey: string;
  private readonly mine: string;

  constructor(
    private readonly host: ConsumerHost,
    private readonly settings: ConsumerSettings,
    private readonly handler: StreamHandler,
    private readonly conn: RedisConnection,
  ) {
    this.retriesKey = `${host.stream}:retries:${settings.group}`;
    this.mine = leasePrefix(settings.consumer);
  }

  private cmd(args: string[]): Promise<unknown> {
    return this.conn.sendCommand(args);
  }

  createGroup(): Promise<unknown> {
    return this.cmd(['XGROUP', 'CREATE', this.host.stream, this.settings.group, this.settings.startId, 'MKSTREAM']);
  }

  async readClientId(): Promise<void> {
    try {
      this.clientId = String(await this.cmd(['CLIENT', 'ID']));
    } catch {
      this.clientId = undefined;
    }
  }

  /** Stops after the entry in hand; a blocked read is cut short (its reply is empty: nothing is lost). */
  async stop(finished: Promise<void>): Promise<void> {
    this.stopping = true;
    if (this.clientId !== undefined) await this.host.client.sendCommand(['CLIENT', 'UNBLOCK', this.clientId]).catch(() => {});
    await finished.catch(() => {});
  }

  private connectionError(e: unknown): void {
    this.host.count.connectionErrors += 1;
    this.host.emit('connection_error', { message: errorText(e), consumer: this.settings.consumer });
  }

  // Work already done is committed until it lands: a dropped connection is
  // retried (every script is safe to run again); a reply error is not.
  private async retry<T>(f: () => Promise<T>): Promise<T> {
    for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
      try {
        return await f();
      } catch (e) {
        if (isReplyError(e)) throw e;
        this.connectionError(e);
        if (this.stopping && wait >= 1000) throw e;
        await sleep(wait);
      }
    }
  }

  // With encryption, what a dead letter or the retries hash says about an
  // entry (issues, a handler's error) is encrypted as well: it may quote the result.
  private async protect(text: string): Promise<string> {
    const { keyring, stream } = this.host;
    return keyring && !parseSealedJson(text) ? sealedJson(await keyring.seal(text, busContext(stream))) : text;
  }

  private async reveal(text: string): Promise<string> {
    const { keyring, stream } = this.host;
    const opened = keyring ? await openMessage(text, keyring, stream).catch(() => undefined) : undefined;
    return opened?.ok ? opened.text : text;
  }

  private async deadLetter(entry: Entry, raw: string, reason: 'invalid' | 'max_deliveries', deliveries: number, extra: string[], marker: string) {
    const { stream, deadLetterStream } = this.host;
    const { group, consumer } = this.settings;
    const fields = [
      'reason',
      reason,
      'source_id',
      entry.id,
      'stream',
      stream,
      'group',
      group,
      'consumer',
      consumer,
      'deliveries',
      String(deliveries),
      ...extra,
      'original',
      raw,
    ];
    const lease = `${this.mine}${entry.id}`;
    const deadId = await this.retry(() =>
      this.cmd(['EVAL', DEAD_LETTER, '4', stream, deadLetterStream, this.retriesKey, marker, group, entry.id, lease, ...fields]),
    );
    if (deadId === null || deadId === undefined) return undefined;
    this.host.count.deadLettered += 1;
    return String(deadId);
  }

  /** The entry's `result` field, opened and normalized (or why not). */
  private async read(entry: Entry): Promise<{ raw: string; n: EntryResult }> {
    const fieldIndex = entry.fields ? entry.fields.indexOf('result') : -1;
    const ok = entry.fields !== null && fieldIndex >= 0 && fieldIndex % 2 === 0;
    const raw = ok ? (entry.fields?.[fieldIndex + 1] ?? '') : entry.fields === null ? '' : JSON.stringify(entry.fields);
    if (entry.fields === null)
      return { raw, n: { ok: false, issues: [issue('missing_field', 'the entry was deleted from the stream (trimmed?) before it was handled')] } };
    if (!ok) return { raw, n: { ok: false, issues: [issue('missing_field', 'the entry has no `result` field')] } };
    const opened = await openMessage(raw, this.host.keyring, this.host.stream).catch((e: unknown) => ({
      ok: false as const,
      issues: [issue('internal_error', errorText(e))],
    }));
    if (!opened.ok) return { raw, n: { ok: false, issues: opened.issues } };
    try {
      return { raw, n: normalizeText(opened.text, this.host.context) };
    } catch (e) {
      return { raw, n: { ok: false, issues: [issue('internal_error', errorText(e))] } };
    }
  }

  private async handle(entry: Entry, redelivered: boolean): Promise<void> {
    const { host } = this;
    const { group, consumer, once, prefix, idleMs, maxDeliveries } = this.settings;
    if (redelivered) {
      host.count.redelivered += 1;
      host.emit('redelivered', { id: entry.id, group, consumer });
    }
    const { raw, n } = await this.read(entry);
    if (!n.ok) {
      const issues = n.issues;
      const deadId = await this.deadLetter(entry, raw, 'invalid', 1, ['issues', await this.protect(JSON.stringify(issues))], '');
      if (deadId !== undefined) {
        host.count.invalid += 1;
        host.emit('invalid', { id: entry.id, issues, group, consumer });
        host.emit('dead_lettered', { id: entry.id, deadId, reason: 'invalid', deliveries: 1, group, consumer });
      }
      return;
    }
    const value = n.value;
    const marker = once ? markerKey(prefix, value) : '';
    const lease = `${this.mine}${entry.id}`;
    const ids = { id: entry.id, workflow_id: value.workflow_id, task_id: value.task_id, group, consumer };
    const begun = (await this.cmd(['EVAL', BEGIN, '2', marker, this.retriesKey, lease, this.mine, String(idleMs), entry.id])) as [string, number];
    const state = String(begun[0]);
    const deliveries = Number(begun[1]);
    if (state === 'done') {
      // Processed already: acknowledged without calling the handler.
      await this.retry(() => this.cmd(['EVAL', SKIP, '2', host.stream, this.retriesKey, group, entry.id]));
      host.count.duplicates += 1;
      host.emit('duplicate', { ...ids, inProgress: false });
      return;
    }
    if (state === 'busy') {
      // Another consumer handles it now: left pending, claimed again after idleMs.
      host.emit('duplicate', { ...ids, inProgress: true });
      return;
    }
    const deadAfter = async (error: string) => {
      const deadId = await this.deadLetter(entry, raw, 'max_deliveries', deliveries, ['error', await this.protect(error)], marker);
      if (deadId === undefined) return;
      host.emit('dead_lettered', { id: entry.id, deadId, reason: 'max_deliveries', error: await this.reveal(error), deliveries, group, consumer });
    };
    if (deliveries > maxDeliveries) {
      // Every earlier attempt failed or died: the last error, if one was recorded.
      const last = await this.cmd(['HGET', this.retriesKey, `e:${entry.id}`]);
      await deadAfter(last ? String(last) : `handed to a handler ${deliveries - 1} times without an acknowledgement (did the consumer die?)`);
      return;
    }
    const outcome = await this.callHandler(entry, n, value, marker, deliveries, ids);
    if (outcome === undefined) return;
    host.count.handlerErrors += 1;
    host.emit('handler_error', { id: entry.id, error: outcome.thrown, deliveries, group, consumer });
    if (deliveries >= maxDeliveries) await deadAfter(outcome.failure);
    // Not acknowledged: claimed again after idleMs.
    else {
      const kept = await this.protect(outcome.failure);
      await this.retry(() => this.cmd(['EVAL', RELEASE, '2', marker, this.retriesKey, lease, entry.id, kept]));
    }
  }

  /** Calls the handler and commits (acknowledges, with its `withAck` commands); returns the failure, if any. */
  private async callHandler(
    entry: Entry,
    n: Extract<EntryResult, { ok: true }>,
    value: AgentResult,
    marker: string,
    deliveries: number,
    ids: { id: string; workflow_id: string; task_id: string; group: string; consumer: string },
  ): Promise<{ failure: string; thrown: unknown } | undefined> {
    const { host } = this;
    const { group, consumer, ttl } = this.settings;
    const commands: string[][] = [];
    const info: StreamDeliveryInfo = {
      changes: n.changes,
      source: n.source,
      channel: host.stream,
      id: entry.id,
      deliveries,
      group,
      consumer,
      withAck(...more: string[][]) {
        for (const c of more) {
          if (!Array.isArray(c) || c.length === 0 || !c.every((w) => typeof w === 'string')) {
            throw new ToolResultError('invalid_options', 'withAck takes commands as arrays of strings');
          }
          commands.push(c);
        }
      },
    };
    const started = performance.now();
    try {
      await this.handler(value, info);
    } catch (e) {
      return { failure: errorText(e), thrown: e };
    }
    const duration_ms = performance.now() - started;
    const doneValue = `done:${consumer}:${entry.id}`;
    const words = commands.flatMap((c) => [String(c.length), ...c]);
    try {
      const committed = await this.retry(() =>
        this.cmd(['EVAL', COMMIT, '3', host.stream, marker, this.retriesKey, group, entry.id, doneValue, String(ttl), String(commands.length), ...words]),
      );
      if (Number(committed) === -1) {
        host.count.duplicates += 1;
        host.emit('duplicate', { ...ids, inProgress: false });
      } else {
        host.count.handled += 1;
        host.emit('handled', { ...ids, deliveries, source: n.source, duration_ms });
      }
      return undefined;
    } catch (e) {
      if (!isReplyError(e)) throw e;
      // A withAck command the server refused (e.g. WRONGTYPE): a failure like the handler's own.
      return { failure: `commit refused: ${errorText(e)}`, thrown: e };
    }
  }

  private async handleBatch(batch: Entry[], redelivered: boolean): Promise<void> {
    for (const entry of batch) {
      // Finish the entry in hand, then stop: the rest stay pending for this name or a claim.
      if (this.stopping) return;
      await this.handle(entry, redelivered);
    }
  }

  async loop(): Promise<void> {
    const { stream } = this.host;
    const { group, consumer, count, idleMs, blockMs, claimEvery } = this.settings;
    const firstStream = (reply: unknown) => (Array.isArray(reply) && Array.isArray(reply[0]) ? entries((reply[0] as unknown[])[1]) : []);
    let lastClaim = 0;
    // Read this name's pending entries first (a restart, a dropped connection), from this id on.
    let ownFrom: string | undefined = '0';
    let backoff = 50;
    while (!this.stopping) {
      try {
        if (this.clientId === undefined) await this.readClientId();
        if (ownFrom !== undefined) {
          const batch = firstStream(await this.cmd(['XREADGROUP', 'GROUP', group, consumer, 'COUNT', String(count), 'STREAMS', stream, ownFrom]));
          // Entries left pending (failed, busy elsewhere) stay behind the cursor, for XAUTOCLAIM.
          ownFrom = batch.length < count ? undefined : batch[batch.length - 1].id;
          await this.handleBatch(batch, true);
          continue;
        }
        if (Date.now() - lastClaim >= claimEvery) {
          lastClaim = Date.now();
          let cursor = '0-0';
          for (let round = 0; round < 8 && !this.stopping; round++) {
            const reply = (await this.cmd(['XAUTOCLAIM', stream, group, consumer, String(idleMs), cursor, 'COUNT', String(count)])) as unknown[];
            await this.handleBatch(entries(reply?.[1]), true);
            cursor = String(reply?.[0] ?? '0-0');
            if (cursor === '0-0') break;
          }
        }
        if (this.stopping) break;
        const batch = firstStream(
          await this.cmd(['XREADGROUP', 'GROUP', group, consumer, 'COUNT', String(count), 'BLOCK', String(blockMs), 'STREAMS', stream, '>']),
        );
        await this.handleBatch(batch, false);
        backoff = 50;
      } catch (e) {
        if (this.stopping) break;
        if (/NOGROUP/.test(errorText(e))) {
          // The stream or group went away (a server restarted without persistence): make it again.
          await this.createGroup().catch(() => {});
        }
        this.connectionError(e);
        // What was read before the failure is pending to this name: take it back first. A new
        // connection has a new id.
        ownFrom = '0';
        this.clientId = undefined;
        await sleep(backoff);
        backoff = Math.min(backoff * 2, 2000);
      }
    }
  }
}

async function closeConnection(conn: RedisConnection) {
  try {
    if (typeof conn.close === 'function') await conn.close();
    else if (typeof conn.quit === 'function') await conn.quit();
    else conn.destroy?.();
  } catch {
    conn.destroy?.();
  }
}

// ---------------------------------------------------------------------------
// OpenTelemetry

/** The part of an OpenTelemetry `Meter` used (structural: `@opentelemetry/api` is not imported). */
export interface StreamMeter {
  createCounter(name: string, options?: { description?: string; unit?: string }): { add(value: number, attributes?: Record<string, string>): void };
  createHistogram(name: string, options?: { description?: string; unit?: string }): { record(value: number, attributes?: Record<string, string>): void };
}

/**
 * Records an AgentResultStream's events as OpenTelemetry metrics, as
 * `instrumentStore` does for stores: `toolresult.agent_results.published`,
 * `.handled`, `.duplicates`, `.invalid`, `.dead_lettered` (by reason),
 * `.redelivered` and `.handler_errors`, each with `messaging.destination.name`
 * (the stream) and, for consumers, `messaging.consumer.group.name`; and
 * `messaging.process.duration` (seconds, the handler's run time). Returns
 * the function that removes it.
 */
export function instrumentAgentResultStream(stream: AgentResultStream, { meter }: { meter: StreamMeter }): () => void {
  const counter = (name: string, description: string) => meter.createCounter(`toolresult.agent_results.${name}`, { description });
  const c = {
    published: counter('published', 'Agent results appended to the stream'),
    handled: counter('handled', 'Agent results handled and acknowledged'),
    duplicates: counter('duplicates', 'Agent results acknowledged without a second handling'),
    invalid: counter('invalid', 'Stream entries that were not valid agent results'),
    dead: counter('dead_lettered', 'Stream entries moved to the dead-letter stream, by reason'),
    redelivered: counter('redelivered', 'Stream entries read again (claimed, or after a restart)'),
    errors: counter('handler_errors', 'Handler attempts that failed'),
  };
  const duration = meter.createHistogram('messaging.process.duration', { description: 'Handler run time of agent results', unit: 's' });
  const dest = { 'messaging.destination.name': stream.stream };
  const of = (g: string) => ({ ...dest, 'messaging.consumer.group.name': g });
  const offs = [
    stream.on('published', () => c.published.add(1, dest)),
    stream.on('handled', (e) => {
      c.handled.add(1, of(e.detail.group));
      duration.record(e.detail.duration_ms / 1000, of(e.detail.group));
    }),
    stream.on('duplicate', (e) => {
      if (!e.detail.inProgress) c.duplicates.add(1, of(e.detail.group));
    }),
    stream.on('invalid', (e) => c.invalid.add(1, of(e.detail.group))),
    stream.on('dead_lettered', (e) => c.dead.add(1, { ...of(e.detail.group), 'toolresult.dead_letter.reason': e.detail.reason })),
    stream.on('redelivered', (e) => c.redelivered.add(1, of(e.detail.group))),
    stream.on('handler_error', (e) => c.errors.add(1, of(e.detail.group))),
  ];
  return () => {
    for (const off of offs) off();
  };
}
