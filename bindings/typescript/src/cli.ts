// `toolresult` command line. Exit codes: 0 all valid, 1 any invalid, 2 usage
// or I/O error.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { normalizeAgentResult, validateAgentResult, validateToolResult, type ValidationResult } from './index.js';
import { fromAnthropicToolResult, fromMcpCallToolResult, fromOpenAIToolOutput, fromVercelToolPart } from './convert.js';
import { checkResultDocument, renderResultDocument } from './document.js';
import { renderText } from './render.js';
import { screen } from './screen.js';
import { ToolResultError, formatIssues } from './errors.js';
import type { Issue } from './generated/types.js';

const USAGE = `usage: toolresult validate [--kind agent|tool|auto] [--json] <file...|->
       toolresult normalize [--from auto|task-result|agent-message|mcp|anthropic|openai|vercel]
                            [--context <json>] <file|->
       toolresult render [--format text|ansi|html] [--width N] [--max-lines N] [--collapsed] <file|->
       toolresult screen [--json] <file|->
       toolresult doc render [--out dir] <file|->
       toolresult doc check [--files dir] [--json] <file|->

validate   checks AgentResult v1 / ToolResult v1 JSON files ("-" reads stdin).
  --kind     which envelope to expect (default: auto, from the fields present)
  --json     print a JSON report instead of text
normalize  prints the input as an AgentResult v1 (auto, task-result, agent-message)
           or a ToolResult v1 (mcp, anthropic, openai, vercel); the changes made go
           to stderr. --context supplies what the source lacks, e.g.
           '{"agent_id":"a1","agent_type":"scaffold","action":"build"}' or '{"tool_name":"x"}'.
screen     runs the safety screen on a file (text, or JSON: every string in it):
           exit 0 accept, 1 reject. --json prints the report.
doc render <file|-> [--out dir]   writes the result document for {"result", "provenance"}
           (to stdout, or <dir>/<name> with its stdout/stderr artifacts).
doc check <file|-> [--files dir] [--json]   checks a result document (structure, sha256
           against the files in dir, the safety screen): exit 0 ACCEPT, 1 REJECT.
render     prints a ToolResult for a terminal (text; ansi adds colour) or as an
           HTML fragment (<pre>, every character from the result escaped). Whatever
           the result holds, nothing in it can move the cursor or change the terminal.
Exit codes: 0 all valid / normalized / rendered, 1 any invalid, 2 usage or I/O error.`;

type Kind = 'agent' | 'tool';

export interface CliIo {
  out: (s: string) => void;
  err: (s: string) => void;
  readStdin: () => string;
}

const defaultIo: CliIo = {
  out: (s) => process.stdout.write(`${s}\n`),
  err: (s) => process.stderr.write(`${s}\n`),
  readStdin: () => readFileSync(0, 'utf8'),
};

/** Which envelope a text looks like: ToolResults have `input` / `schema_version`. */
export function detectKind(text: string): Kind {
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v) && ('schema_version' in v || 'input' in v)) return 'tool';
  } catch {
    // Unparsable: either validator reports the same syntax issue.
  }
  return 'agent';
}

export function main(argv: string[], io: CliIo = defaultIo): number {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (command === 'normalize') return normalize(rest, io);
  if (command === 'render') return render(rest, io);
  if (command === 'screen') return screenCommand(rest, io);
  if (command === 'doc') return docCommand(rest, io);
  if (command !== 'validate') {
    io.err(command ? `unknown command: ${command}\n\n${USAGE}` : USAGE);
    return 2;
  }
  let kind: Kind | 'auto' = 'auto';
  let json = false;
  const files: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (a === '--json') json = true;
    else if (a === '--kind' || a.startsWith('--kind=')) {
      const v = a === '--kind' ? rest[++i] : a.slice('--kind='.length);
      if (v !== 'agent' && v !== 'tool' && v !== 'auto') {
        io.err(`--kind must be agent, tool or auto, got ${v ?? 'nothing'}\n\n${USAGE}`);
        return 2;
      }
      kind = v;
    } else if (a.startsWith('-') && a !== '-') {
      io.err(`unknown option: ${a}\n\n${USAGE}`);
      return 2;
    } else files.push(a);
  }
  if (files.length === 0) {
    io.err(`no input files\n\n${USAGE}`);
    return 2;
  }

  const report: { file: string; kind: Kind; ok: boolean; issues: Issue[] }[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = file === '-' ? io.readStdin() : readFileSync(file, 'utf8');
    } catch (e) {
      io.err(`cannot read ${file}: ${(e as Error).message}`);
      return 2;
    }
    const k = kind === 'auto' ? detectKind(text) : kind;
    const r: ValidationResult<unknown> = k === 'tool' ? validateToolResult(text) : validateAgentResult(text);
    report.push({ file, kind: k, ok: r.ok, issues: r.ok ? [] : r.issues });
  }

  if (json) {
    io.out(JSON.stringify(report, null, 2));
  } else {
    for (const r of report) {
      const name = r.kind === 'tool' ? 'ToolResult' : 'AgentResult';
      if (r.ok) io.out(`valid    ${r.file} (${name})`);
      else io.out(`INVALID  ${r.file} (${name}): ${r.issues.length} issue${r.issues.length === 1 ? '' : 's'}\n${formatIssues(r.issues, Infinity)}`);
    }
    const bad = report.filter((r) => !r.ok).length;
    io.out(`\n${report.length - bad} valid, ${bad} invalid`);
  }
  return report.every((r) => r.ok) ? 0 : 1;
}

/** The one input file (or stdin) of a command that takes one; undefined after reporting a usage or I/O error. */
function readOne(command: string, files: string[], io: CliIo): string | undefined {
  if (files.length !== 1) {
    io.err(`${command} takes one input file (or -)\n\n${USAGE}`);
    return undefined;
  }
  try {
    return files[0] === '-' ? io.readStdin() : readFileSync(files[0], 'utf8');
  } catch (e) {
    io.err(`cannot read ${files[0]}: ${(e as Error).message}`);
    return undefined;
  }
}

const FROM = ['auto', 'task-result', 'agent-message', 'mcp', 'anthropic', 'openai', 'vercel'] as const;
type From = (typeof FROM)[number];

function normalize(args: string[], io: CliIo): number {
  let from: From = 'auto';
  let context: Record<string, unknown> = {};
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--from' || a.startsWith('--from=')) {
      const v = a === '--from' ? args[++i] : a.slice('--from='.length);
      if (!FROM.includes(v as From)) {
        io.err(`--from must be one of ${FROM.join(', ')}, got ${v ?? 'nothing'}\n\n${USAGE}`);
        return 2;
      }
      from = v as From;
    } else if (a === '--context' || a.startsWith('--context=')) {
      const v = a === '--context' ? args[++i] : a.slice('--context='.length);
      try {
        context = JSON.parse(v ?? '');
      } catch {
        io.err(`--context must be a JSON object, got ${v ?? 'nothing'}`);
        return 2;
      }
    } else if (a.startsWith('-') && a !== '-') {
      io.err(`unknown option: ${a}\n\n${USAGE}`);
      return 2;
    } else files.push(a);
  }
  const text = readOne('normalize', files, io);
  if (text === undefined) return 2;
  const fail = (issues: Issue[]): number => {
    io.err(`cannot normalize ${files[0]}: ${issues.length} issue${issues.length === 1 ? '' : 's'}\n${formatIssues(issues, Infinity)}`);
    return 1;
  };
  if (from === 'auto' || from === 'task-result' || from === 'agent-message') {
    let input: unknown = text;
    if (from === 'agent-message') {
      try {
        input = JSON.parse(text);
      } catch {
        // The normalizer reports the syntax issue.
      }
      if (!input || typeof input !== 'object' || (input as { type?: unknown }).type !== 'result') {
        return fail([{ path: '/type', code: 'ambiguous_shape', message: 'an AgentMessage has type "result" and a payload' }]);
      }
    }
    const r = normalizeAgentResult(input, context);
    if (!r.ok) return fail(r.issues);
    if (from === 'task-result' && r.source !== 'task_result') {
      return fail([{ path: '', code: 'ambiguous_shape', message: `--from task-result, but the input is ${r.source.replace('_', ' ')}` }]);
    }
    for (const c of r.changes) io.err(`${c.kind.padEnd(9)} ${c.path || '(root)'}: ${c.message}`);
    io.out(JSON.stringify(r.value, null, 2));
    return 0;
  }
  const convert = { mcp: fromMcpCallToolResult, anthropic: fromAnthropicToolResult, openai: fromOpenAIToolOutput, vercel: fromVercelToolPart }[from];
  try {
    io.out(JSON.stringify(convert(text, context as never), null, 2));
    return 0;
  } catch (e) {
    if (e instanceof ToolResultError) return fail(e.issues.length ? e.issues : [{ path: '', code: 'ambiguous_shape', message: e.message }]);
    throw e;
  }
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function render(args: string[], io: CliIo): number {
  let format = 'text';
  let width: number | undefined;
  let maxLines: number | undefined;
  let collapsed = false;
  const files: string[] = [];
  const number = (name: string, v: string | undefined): number | undefined => {
    const n = Number(v);
    if (v === undefined || !Number.isSafeInteger(n)) {
      io.err(`${name} takes a whole number, got ${v ?? 'nothing'}`);
      return undefined;
    }
    return n;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = (flag: string) => (a === flag ? args[++i] : a.slice(flag.length + 1));
    if (a === '--format' || a.startsWith('--format=')) {
      format = value('--format') ?? '';
      if (!['text', 'ansi', 'html'].includes(format)) {
        io.err(`--format must be text, ansi or html, got ${format || 'nothing'}\n\n${USAGE}`);
        return 2;
      }
    } else if (a === '--width' || a.startsWith('--width=')) {
      width = number('--width', value('--width'));
      if (width === undefined) return 2;
    } else if (a === '--max-lines' || a.startsWith('--max-lines=')) {
      maxLines = number('--max-lines', value('--max-lines'));
      if (maxLines === undefined) return 2;
    } else if (a === '--collapsed') collapsed = true;
    else if (a.startsWith('-') && a !== '-') {
      io.err(`unknown option: ${a}\n\n${USAGE}`);
      return 2;
    } else files.push(a);
  }
  const text = readOne('render', files, io);
  if (text === undefined) return 2;
  try {
    const out = renderText(text, { width, maxLines, collapsed, color: format === 'ansi' });
    if (format === 'html') {
      const status = JSON.parse(text).status as string;
      const escaped = out.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
      io.out(`<pre class="tool-result" data-status="${status.replace(/[^a-z_]/g, '')}">${escaped}</pre>`);
    } else io.out(out.replace(/\n$/, ''));
    return 0;
  } catch (e) {
    if (e instanceof ToolResultError) {
      io.err(`cannot render ${files[0]}: ${e.issues.length} issue${e.issues.length === 1 ? '' : 's'}\n${formatIssues(e.issues, Infinity)}`);
      return e.code === 'invalid_options' ? 2 : 1;
    }
    throw e;
  }
}

function screenCommand(args: string[], io: CliIo): number {
  const json = args.includes('--json');
  const files = args.filter((a) => a !== '--json');
  if (files.some((f) => f.startsWith('--') && f !== '-')) {
    io.err(`screen: unknown option ${files.find((f) => f.startsWith('--'))}\n\n${USAGE}`);
    return 2;
  }
  const text = readOne('screen', files, io);
  if (text === undefined) return 2;
  // JSON is screened string by string (paths point into it); anything else is text.
  let input: unknown = text;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object') input = parsed;
  } catch {
    // Not JSON: text.
  }
  const report = screen(input);
  if (json) {
    io.out(JSON.stringify(report, null, 2));
  } else {
    io.out(report.verdict === 'accept' ? 'ACCEPT' : `REJECT (${report.rejected_categories.join(', ')})`);
    for (const f of report.findings) {
      io.out(`  ${f.action.toUpperCase()} ${f.category} ${f.rule} at ${f.path || '(text)'} ${f.start}..${f.end}: ${f.excerpt}`);
    }
  }
  return report.verdict === 'accept' ? 0 : 1;
}

function option(args: string[], name: string, io: CliIo): { value?: string; rest: string[]; error?: boolean } {
  const rest: string[] = [];
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) {
      value = args[++i];
      if (value === undefined) {
        io.err(`${name} needs a value`);
        return { rest, error: true };
      }
    } else if (args[i].startsWith(`${name}=`)) value = args[i].slice(name.length + 1);
    else rest.push(args[i]);
  }
  return { value, rest };
}

function docCommand(args: string[], io: CliIo): number {
  const [sub, ...rest] = args;
  if (sub === 'render') {
    const out = option(rest, '--out', io);
    if (out.error) return 2;
    const text = readOne('doc render', out.rest, io);
    if (text === undefined) return 2;
    let spec: { result?: unknown; provenance?: unknown };
    try {
      spec = JSON.parse(text) as typeof spec;
    } catch (e) {
      io.err(`doc render: the input is not JSON (${(e as Error).message})`);
      return 2;
    }
    try {
      const doc = renderResultDocument(spec.result as never, (spec.provenance ?? {}) as never);
      if (out.value === undefined) {
        io.out(doc.text);
      } else {
        mkdirSync(out.value, { recursive: true });
        writeFileSync(path.join(out.value, doc.name), doc.text);
        for (const a of doc.artifacts) writeFileSync(path.join(out.value, path.basename(a.path)), a.content);
        io.out(path.join(out.value, doc.name));
      }
      return 0;
    } catch (e) {
      if (!(e instanceof ToolResultError)) throw e;
      io.err(`doc render: ${e.message}`);
      return 1;
    }
  }
  if (sub === 'check') {
    const json = rest.includes('--json');
    const filesOpt = option(
      rest.filter((a) => a !== '--json'),
      '--files',
      io,
    );
    if (filesOpt.error) return 2;
    const text = readOne('doc check', filesOpt.rest, io);
    if (text === undefined) return 2;
    const files: Record<string, Uint8Array> = {};
    if (filesOpt.value !== undefined) {
      if (!existsSync(filesOpt.value) || !statSync(filesOpt.value).isDirectory()) {
        io.err(`doc check: --files ${filesOpt.value} is not a directory`);
        return 2;
      }
      for (const f of readdirSync(filesOpt.value)) {
        const p = path.join(filesOpt.value, f);
        if (statSync(p).isFile()) files[f] = readFileSync(p);
      }
    }
    const check = checkResultDocument(text, { files });
    if (json) {
      const { document: _document, ...report } = check;
      io.out(JSON.stringify(report, null, 2));
    } else {
      io.out(check.verdict === 'accept' ? 'ACCEPT' : 'REJECT');
      for (const r of check.reasons) io.out(`  line ${r.line}: ${r.message} [${r.code}]`);
      if (check.verified.length) io.out(`  verified: ${check.verified.join(', ')}`);
      if (check.unverified.length) io.out(`  not verified (file not given): ${check.unverified.join(', ')}`);
    }
    return check.verdict === 'accept' ? 0 : 1;
  }
  io.err(`doc: expected render or check\n\n${USAGE}`);
  return 2;
}
