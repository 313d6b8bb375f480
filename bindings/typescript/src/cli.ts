// `toolresult` command line. Exit codes: 0 all valid, 1 any invalid, 2 usage
// or I/O error.
import { readFileSync } from 'node:fs';
import { validateAgentResult, validateToolResult, type ValidationResult } from './index.js';
import { formatIssues } from './errors.js';
import type { Issue } from './generated/types.js';

const USAGE = `usage: toolresult validate [--kind agent|tool|auto] [--json] <file...|->

Validates AgentResult v1 / ToolResult v1 JSON files ("-" reads stdin).
  --kind   which envelope to expect (default: auto, from the fields present)
  --json   print a JSON report instead of text
Exit codes: 0 all valid, 1 any invalid, 2 usage or I/O error.`;

type Kind = 'agent' | 'tool';

export interface CliIo {
  out: (s: string) => void;
  err: (s: string) => void;
  readStdin: () => string;
}

const defaultIo: CliIo = {
  out: (s) => process.stdout.write(s + '\n'),
  err: (s) => process.stderr.write(s + '\n'),
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
