// The result inbox (docs/document.md §5):
// ACCEPT moves a result document to `inbound/`, REJECT to `quarantine/` with
// `<name>.reasons.json`. Crash-safe like the file store: every file is
// written to a temp file, fsynced, then linked into place (link never
// replaces an existing file), and the directory is fsynced; `open` removes
// leftover temp files and rewrites reasons a crash left unwritten.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { fsyncDir, writeTempBeside } from './node-fs.js';
import { checkResultDocument, type DocumentFiles } from './document.js';
import { ToolResultError, quoteText } from './errors.js';
import type { DocumentCheck, DocumentIssue, ScreenFinding, ScreenOptions } from './generated/types.js';

/** Document names: a safe file name ending in `.md` (e.g. `TS-20260209-161030Z-TR-1.md`). */
const DOCUMENT_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,196}\.md$/;

/** What `receive` decided, and where the document now is. */
export interface InboxReceipt {
  verdict: 'accept' | 'reject';
  name: string;
  /** `inbound/<name>` or `quarantine/<name>`, absolute. */
  path: string;
  reasons: DocumentIssue[];
  findings: ScreenFinding[];
  /** False when the same document had been received before (nothing written). */
  written: boolean;
}

/** `quarantine/<name>.reasons.json` */
export interface InboxReasons {
  name: string;
  verdict: 'reject';
  received_at: string;
  sha256: string;
  reasons: DocumentIssue[];
  findings: ScreenFinding[];
  /** True when `open` wrote these after a crash between the document and its reasons. */
  recovered?: boolean;
}

/** What opening the inbox found. */
export interface InboxOpenReport {
  /** Temp files of interrupted writes, deleted (never an acknowledged document). */
  removedTemp: string[];
  /** Quarantined documents whose reasons file a crash left unwritten, written now. */
  repaired: string[];
}

/**
 * Creates `file` with `data`, atomically and only if it does not exist:
 * written and fsynced under a temp name, then hard-linked into place. Returns
 * false when `file` already exists (nothing changed).
 */
function createAtomic(file: string, data: string | Uint8Array): boolean {
  const dir = path.dirname(file);
  const tmp = writeTempBeside(file, data);
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    fs.unlinkSync(tmp);
    fsyncDir(dir);
  }
}

function sameBytes(file: string, data: Uint8Array): boolean {
  return Buffer.compare(fs.readFileSync(file), Buffer.from(data.buffer, data.byteOffset, data.byteLength)) === 0;
}

/**
 * Where tool execution result documents arrive before the core consumes
 * them. Each document is checked (`checkResultDocument`: structure, sha256
 * against the files given, the safety screen) and moved to `inbound/`
 * (ACCEPT) or `quarantine/` with its reasons (REJECT). Nothing is lost or
 * half-written, whenever the process dies.
 */
export class ResultInbox {
  readonly root: string;
  readonly inbound: string;
  readonly quarantine: string;
  readonly openReport: InboxOpenReport;
  readonly #screen: ScreenOptions | undefined;

  private constructor(root: string, screen: ScreenOptions | undefined) {
    this.root = path.resolve(root);
    this.inbound = path.join(this.root, 'inbound');
    this.quarantine = path.join(this.root, 'quarantine');
    this.#screen = screen;
    fs.mkdirSync(this.inbound, { recursive: true });
    fs.mkdirSync(this.quarantine, { recursive: true });
    this.openReport = this.#recover();
  }

  /** Opens (creating if needed) the inbox at `root`, recovering from an interrupted write. */
  static open(root: string, options: { screen?: ScreenOptions } = {}): ResultInbox {
    return new ResultInbox(root, options.screen);
  }

  #recover(): InboxOpenReport {
    const report: InboxOpenReport = { removedTemp: [], repaired: [] };
    for (const dir of [this.inbound, this.quarantine]) {
      for (const f of fs.readdirSync(dir)) {
        if (f.startsWith('.') && f.endsWith('.tmp')) {
          fs.unlinkSync(path.join(dir, f));
          report.removedTemp.push(path.join(dir, f));
        }
      }
    }
    for (const f of fs.readdirSync(this.quarantine)) {
      if (!f.endsWith('.md') || fs.existsSync(path.join(this.quarantine, `${f}.reasons.json`))) continue;
      // The document was quarantined but the process died before its reasons: check it again.
      const bytes = fs.readFileSync(path.join(this.quarantine, f));
      const check = this.#check(bytes, {});
      this.#writeReasons(f, bytes, check, true);
      report.repaired.push(path.join(this.quarantine, f));
    }
    return report;
  }

  #check(bytes: Uint8Array, files: DocumentFiles): Pick<DocumentCheck, 'verdict' | 'reasons' | 'findings'> {
    try {
      return checkResultDocument(bytes, { files, screen: this.#screen });
    } catch (e) {
      if (!(e instanceof ToolResultError) || e.code !== 'invalid_input') throw e;
      return {
        verdict: 'reject',
        reasons: [{ code: 'yaml_syntax', line: 0, path: '', message: `not a UTF-8 text document: ${e.message}` }],
        findings: [],
      };
    }
  }

  #writeReasons(name: string, bytes: Uint8Array, check: Pick<DocumentCheck, 'reasons' | 'findings'>, recovered: boolean): void {
    const reasons: InboxReasons = {
      name,
      verdict: 'reject',
      received_at: new Date().toISOString(),
      sha256: createHash('sha256').update(bytes).digest('hex'),
      reasons: check.reasons,
      findings: check.findings,
      ...(recovered ? { recovered: true } : {}),
    };
    createAtomic(path.join(this.quarantine, `${name}.reasons.json`), `${JSON.stringify(reasons, null, 2)}\n`);
  }

  /**
   * Checks a document and files it: ACCEPT → `inbound/<name>`, REJECT →
   * `quarantine/<name>` plus `<name>.reasons.json`. `files` (path → bytes)
   * are the artifacts to verify sha256 values against. Receiving the same
   * document again is a no-op; a different document under a name already
   * used throws `inbox_conflict` and writes nothing. Returns once the files
   * are durable.
   */
  receive(name: string, document: string | Uint8Array, options: { files?: DocumentFiles } = {}): InboxReceipt {
    if (typeof name !== 'string' || !DOCUMENT_NAME.test(name)) {
      throw new ToolResultError('invalid_id', `${quoteText(name, '`')} is not a document name: 1-200 letters, digits, '.', '_' or '-' ending in .md`);
    }
    if (typeof document !== 'string' && !(document instanceof Uint8Array)) {
      throw new ToolResultError('invalid_input', 'a document is a string or bytes');
    }
    const bytes = typeof document === 'string' ? new TextEncoder().encode(document) : document;
    for (const [dir, verdict] of [
      [this.inbound, 'accept'],
      [this.quarantine, 'reject'],
    ] as const) {
      const existing = path.join(dir, name);
      if (fs.existsSync(existing)) {
        if (!sameBytes(existing, bytes)) {
          throw new ToolResultError('inbox_conflict', `${existing} holds a different document; documents are never overwritten`);
        }
        const reasons = verdict === 'reject' ? this.reasons(name) : undefined;
        return { verdict, name, path: existing, reasons: reasons?.reasons ?? [], findings: reasons?.findings ?? [], written: false };
      }
    }
    const check = this.#check(bytes, options.files ?? {});
    const dir = check.verdict === 'accept' ? this.inbound : this.quarantine;
    const target = path.join(dir, name);
    // The other folder is checked again: another process may have filed it meanwhile.
    const other = path.join(check.verdict === 'accept' ? this.quarantine : this.inbound, name);
    if (fs.existsSync(other)) {
      throw new ToolResultError('inbox_conflict', `${other} was filed meanwhile; documents are never overwritten`);
    }
    const written = createAtomic(target, bytes);
    if (!written && !sameBytes(target, bytes)) {
      throw new ToolResultError('inbox_conflict', `${target} holds a different document; documents are never overwritten`);
    }
    if (check.verdict === 'reject' && !fs.existsSync(`${target}.reasons.json`)) this.#writeReasons(name, bytes, check, false);
    return { verdict: check.verdict, name, path: target, reasons: check.reasons, findings: check.findings, written };
  }

  /** Names of the documents in `inbound/` or `quarantine/`, sorted. */
  list(folder: 'inbound' | 'quarantine'): string[] {
    const dir = folder === 'inbound' ? this.inbound : this.quarantine;
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.md') && !f.startsWith('.'))
      .sort();
  }

  /** The reasons a quarantined document was rejected for. */
  reasons(name: string): InboxReasons | undefined {
    if (!DOCUMENT_NAME.test(name)) return undefined;
    const file = path.join(this.quarantine, `${name}.reasons.json`);
    return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as InboxReasons) : undefined;
  }
}
