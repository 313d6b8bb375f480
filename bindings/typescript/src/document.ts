// The tool execution result document (docs/document.md): markdown
// with YAML front matter (sha256 provenance), six required sections, stdout
// and stderr capped at 200 lines, and the safety statements. Rendering,
// parsing and checking run in the screen module.
import { ToolResultError, unwrapScreenReply } from './errors.js';
import type {
  DocumentCheck,
  DocumentIssue,
  DocumentProvenance,
  Issue,
  ParsedDocument,
  RenderedDocument,
  ScreenOptions,
  ToolResult,
} from './generated/types.js';
import { writeScreenInput } from './input.js';
import { validateToolResult } from './api.js';
import { screenModule } from './runtime.js';
import { sha256Hex } from './bound.js';
import { jsonText, toolResultJson } from './wire.js';

/** Document issues as the package's issues (`path`, `code`, `message`; the line in the message). */
function asIssues(issues: DocumentIssue[]): Issue[] {
  return issues.map((i) => ({ path: i.path, code: i.code as Issue['code'], message: i.line ? `line ${i.line}: ${i.message}` : i.message }));
}

function documentText(input: string | Uint8Array, what: string): string | Uint8Array {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) {
    throw new ToolResultError('invalid_input', `${what} is a string or UTF-8 bytes`);
  }
  return input;
}

/**
 * Writes the result document for a ToolResult. `provenance` gives what the
 * result does not: `request_id` and `backend` (required), and optionally the
 * exact command, limits, network use, artifacts, stdout and stderr (a Bash
 * result's are used by default). Returns the file name
 * (`TS-YYYYMMDD-HHMMSSZ-<request_id>.md`), the markdown text, and the
 * artifacts to store beside it (the full stdout or stderr when the document
 * shows only their first 200 lines).
 */
export function renderResultDocument(result: ToolResult | string, provenance: DocumentProvenance): RenderedDocument {
  const json = toolResultJson(result);
  // The core module validates; the screen module renders.
  const validation = validateToolResult(json);
  if (!validation.ok) throw new ToolResultError('invalid_tool_result', 'invalid ToolResult', validation.issues);
  const prov = jsonText(provenance, 'invalid_provenance', 'the provenance');
  const out = JSON.parse(screenModule.call((w) => w.render_result_document(json, prov))) as
    | { ok: true; value: RenderedDocument }
    | { ok: false; issues: DocumentIssue[] };
  if (!out.ok) throw new ToolResultError('invalid_provenance', 'cannot render the result document', asIssues(out.issues));
  return out.value;
}

/**
 * The recommended file name of a result document:
 * `TS-YYYYMMDD-HHMMSSZ-<request_id>.md` (UTC).
 */
export function resultDocumentName(createdUtc: string | Date, requestId: string): string {
  const created = createdUtc instanceof Date ? createdUtc.toISOString() : String(createdUtc);
  const out = JSON.parse(screenModule.call((w) => w.result_document_name(created, String(requestId)))) as
    | { ok: true; value: string }
    | { ok: false; issues: DocumentIssue[] };
  if (!out.ok) throw new ToolResultError('invalid_value', 'cannot name the result document', asIssues(out.issues));
  return out.value;
}

/**
 * Reads a result document strictly: the front matter in a YAML subset (no
 * anchors, aliases, tags, multiple documents or duplicate keys; nothing is
 * evaluated) with every required field and type, the six sections in order,
 * stdout and stderr within 200 lines, and the safety statements. Never
 * throws for a bad document: `ok` is false and `issues` say why, each with a
 * line number and a code.
 */
export function parseResultDocument(text: string | Uint8Array): ParsedDocument {
  const input = documentText(text, 'the document');
  const reply = screenModule.call((w) => w.parse_result_document_input(writeScreenInput(w, input)));
  const out = JSON.parse(reply) as ParsedDocument | { ok: false; issues: Issue[]; value?: undefined };
  if (out.value === undefined) throw new ToolResultError('invalid_input', 'the document is not UTF-8 text', out.issues);
  return out as ParsedDocument;
}

/** Files to verify a document's sha256 values against: path → bytes or text. */
export type DocumentFiles = Record<string, string | Uint8Array> | Map<string, string | Uint8Array>;

/**
 * Checks a result document before it is consumed: parses it, verifies every
 * sha256 it can against `files` (artifacts by path or file name; the full
 * stdout and stderr artifacts too), runs the safety screen over the whole
 * text, and returns `accept` or `reject` with every reason.
 */
export function checkResultDocument(text: string | Uint8Array, options: { files?: DocumentFiles; screen?: ScreenOptions } = {}): DocumentCheck {
  const input = documentText(text, 'the document');
  const entries = options.files instanceof Map ? [...options.files] : Object.entries(options.files ?? {});
  const files = entries.map(([path, bytes]) => ({ path: String(path), sha256: sha256Hex(bytes) }));
  const filesJson = JSON.stringify(files);
  const screenJson = options.screen === undefined ? '' : jsonText(options.screen, 'invalid_options', 'the screen options');
  return unwrapScreenReply<DocumentCheck>(
    screenModule.call((w) => w.check_result_document_input(writeScreenInput(w, input), filesJson, screenJson)),
    'cannot check the result document',
  );
}
