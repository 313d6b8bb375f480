// Packaging: `npm pack`, install the tarball into scratch CommonJS, ESM and
// TypeScript projects, and use it there as a user would.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkgDir = path.join(root, 'bindings', 'typescript');
const fixture = path.join(root, 'tests', 'fixtures', 'agent', 'valid-success.json');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let work;
let tarball;
let files;

// What moved from the main entry to its subpaths: no longer exported by
// toolresult, toolresult/web or toolresult/node (ScreenGate is internal now).
const SUBPATHS = ['convert', 'render', 'screen', 'audit'];
const MOVED = {
  convert: [
    'fromAnthropicToolResult',
    'fromMcpCallToolResult',
    'fromOpenAIToolOutput',
    'fromVercelToolMessage',
    'fromVercelToolPart',
    'toAnthropicToolResult',
    'toMcpCallToolResult',
    'toOpenAIChatToolMessage',
    'toOpenAIFunctionCallOutput',
    'toVercelToolMessage',
    'toVercelToolPart',
  ],
  render: [
    'renderText',
    'RendererRegistry',
    'createTextRendererRegistry',
    'detectLanguage',
    'diffHunks',
    'structureBatch',
    'structureFileEdit',
    'structureFileRead',
    'structureTodo',
    'renderDom',
    'renderDomChecked',
    'createDomRendererRegistry',
    'defineToolResultView',
    'isUIToolPart',
    'TOOL_RESULT_CSS',
    'TOOL_RESULT_ELEMENT_CSS',
    'TOOL_RESULT_TOKENS',
  ],
  screen: [
    'screen',
    'applyScreen',
    'redactSecrets',
    'screenError',
    'screenRecordOf',
    'SCREEN_CATEGORIES',
    'checkResultDocument',
    'parseResultDocument',
    'renderResultDocument',
    'resultDocumentName',
  ],
  audit: ['MemoryAuditLog', 'AUDIT_ACTIONS', 'canonicalAuditEntry', 'verifyAuditLog'],
};
const INTERNAL = ['ScreenGate'];

const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function project(name, pkg) {
  const dir = path.join(work, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, ...pkg }));
  sh(npm, ['install', '--no-audit', '--no-fund', '--offline', tarball], dir);
  cpSync(fixture, path.join(dir, 'fixture.json'));
  return dir;
}

before(() => {
  work = mkdtempSync(path.join(tmpdir(), 'toolresult-pack-'));
  const out = JSON.parse(sh(npm, ['pack', '--json', '--pack-destination', work], pkgDir));
  tarball = path.join(work, out[0].filename);
  files = out[0].files.map((f) => f.path);
});

after(() => rmSync(work, { recursive: true, force: true }));

test('the tarball holds the builds, schemas and CLI, and no sources', () => {
  for (const f of [
    'dist/node/index.js',
    'dist/node/index.mjs',
    'dist/node/index.d.ts',
    'dist/node/wasm/node/toolresult_wasm.js',
    'dist/web/web.js',
    'dist/web/web.d.ts',
    'dist/web/wasm/web/toolresult_wasm_bg.wasm',
    ...SUBPATHS.flatMap((s) => [
      `dist/node/entries/${s}-node.js`,
      `dist/node/entries/${s}-node.d.ts`,
      `dist/web/entries/${s}.js`,
      `dist/web/entries/${s}-workerd.js`,
    ]),
    'dist/style.css',
    'schemas/agent-result.v1.json',
    'schemas/tool-result.v1.json',
    'bin/toolresult.cjs',
    'README.md',
    'package.json',
  ]) {
    assert.ok(files.includes(f), `missing ${f}`);
  }
  assert.ok(!files.some((f) => f.startsWith('src/')), 'sources are not shipped');
  // One copy of each wasm module, beside the browser glue; the Node glue reads it there
  // (docs/internals/modules.md §2; every entry loading it: the tests below and tests/runtimes/).
  assert.deepEqual(
    files.filter((f) => f.endsWith('.wasm')).sort(),
    ['toolresult_agent_wasm_bg.wasm', 'toolresult_schema_wasm_bg.wasm', 'toolresult_screen_wasm_bg.wasm', 'toolresult_wasm_bg.wasm'].map(
      (f) => `dist/web/wasm/web/${f}`,
    ),
  );
  const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  // TypeScript takes the first matching condition: `types` must come first in each.
  for (const [entry, conditions] of Object.entries(pkg.exports)) {
    if (typeof conditions === 'string') continue;
    for (const [condition, target] of Object.entries(conditions)) {
      const first = typeof target === 'string' ? condition : Object.keys(target)[0];
      if (typeof target !== 'string' || condition === 'types') assert.equal(first, 'types', `exports["${entry}"].${condition} lists types first`);
    }
  }
});

// The two linters of published packages, with no rule switched off.
test('arethetypeswrong finds no problem in any entry point; publint has no warning', () => {
  const attw = path.join(root, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
  // Every entry point, toolresult/style.css too (its types are an empty declaration file).
  const report = JSON.parse(sh(process.execPath, [attw, tarball, '--format', 'json'], work));
  const problems = Object.values(report.problems ?? {}).flat();
  assert.deepEqual(problems, [], 'attw problems');
  const entries = Object.keys(report.analysis.entrypoints);
  for (const e of [
    '.',
    './web',
    './convert',
    './render',
    './screen',
    './audit',
    './node',
    './postgres',
    './redis',
    './otel',
    './mcp',
    './ai',
    './langchain',
    './openai-agents',
    './claude-agent-sdk',
    './mastra',
    './genkit',
    './adk',
    './react',
    './style.css',
  ])
    assert.ok(entries.includes(e), `attw checked ${e}`);
  const publint = path.join(root, 'node_modules', 'publint', 'src', 'cli.js');
  const out = sh(process.execPath, [publint, '--strict', pkgDir], work);
  assert.doesNotMatch(out, /Warnings:|Errors:/, out);
});

test('CommonJS project: require()', () => {
  const dir = project('cjs-app', { type: 'commonjs' });
  writeFileSync(
    path.join(dir, 'main.js'),
    `const fs = require('fs');
const { validateAgentResult, parseToolResult, ToolResultError } = require('toolresult');
const r = validateAgentResult(fs.readFileSync('fixture.json', 'utf8'));
let code;
try { parseToolResult('{}'); } catch (e) { code = e instanceof ToolResultError && e.code; }
const schemaIssues = require('toolresult').compileSchema({ type: 'object', required: ['a'] }).validate({});
// In Node, require('toolresult/web') is the browser API over the Node build.
const web = require('toolresult/web');
if (typeof web.init !== 'function' || !web.validateToolResult(JSON.stringify(web.createSuccess({ input: { tool_name: 'w' } }))).ok) throw new Error('toolresult/web from CommonJS');
web.openIndexedDbStore('x').then(() => { throw new Error('no IndexedDB in Node'); }, (e) => { if (e.code !== 'missing_dependency') throw e; });
const { FileResultStore, createSuccess } = require('toolresult/node');
const fileStore = FileResultStore.open('store');
fileStore.put(createSuccess({ input: { tool_name: 'echo', tool_call_id: 'c1' } }), { dialogId: 'd1' });
if (FileResultStore.open('store').get('d1', 'c1').input.tool_name !== 'echo') throw new Error('file store');
// The optional entries load without their peer dependencies (pg is needed only to connect).
const { canonicalJson, POSTGRES_SCHEMA_VERSION } = require('toolresult/postgres');
// toolresult/redis loads without redis installed (node-redis clients are described structurally).
const trRedis = require('toolresult/redis');
if (typeof trRedis.AgentResultStream !== 'function' || typeof trRedis.publishAgentResult !== 'function') throw new Error('toolresult/redis from CommonJS');
const { toOtelAttributes } = require('toolresult/otel');
// toolresult/langchain and toolresult/openai-agents load without their peers; the middleware says what is missing.
let lcMissing;
try { require('toolresult/langchain').toolResultMiddleware(); } catch (e) { lcMissing = e.code; }
const trAgents = require('toolresult/openai-agents');
if (lcMissing !== 'missing_dependency' || typeof trAgents.wrapAgentTool !== 'function') throw new Error('toolresult/langchain, toolresult/openai-agents from CommonJS');
trAgents.toolResultGuardrail().run({ output: 'fine' }).then((o) => { if (o.behavior.type !== 'allow') throw new Error('toolresult/openai-agents guardrail'); });
// toolresult/mastra loads without @mastra/core (its processor and wrapped tools are plain objects).
const trMastra = require('toolresult/mastra');
if (trMastra.toolResultProcessor().id !== 'toolresult' || Object.keys(trMastra.wrapMastraTools({})).length !== 0) throw new Error('toolresult/mastra from CommonJS');
// toolresult/genkit loads without genkit (its middleware is a plain object).
const trGenkit = require('toolresult/genkit');
if (typeof trGenkit.toolResultMiddleware().__def.instantiate({}).tool !== 'function') throw new Error('toolresult/genkit from CommonJS');
// toolresult/adk loads without @google/adk; the plugin (a subclass of ADK's BasePlugin) says what is missing.
let adkMissing;
try { require('toolresult/adk').toolResultPlugin(); } catch (e) { adkMissing = e.code; }
if (adkMissing !== 'missing_dependency') throw new Error('toolresult/adk from CommonJS');
// toolresult/mcp loads without either MCP SDK major installed (its types are structural).
let mcpPeer = true;
try { require.resolve('@modelcontextprotocol/sdk/package.json'); } catch { mcpPeer = false; }
const mcpCheck = new (require('toolresult/mcp').McpSchemaValidator)().getValidator({ type: 'object', required: ['n'] });
if (mcpPeer || mcpCheck({ n: 1 }).valid !== true || !/^\\(root\\): /.test(mcpCheck({}).errorMessage)) throw new Error('toolresult/mcp from CommonJS');
// toolresult/ai loads without ai installed; only an outputSchema needs the SDK (its asSchema), and it says so.
let aiPeer = true;
try { require.resolve('ai'); } catch { aiPeer = false; }
const trAi = require('toolresult/ai');
const uiPart = trAi.toUIToolPart(createSuccess({ input: { tool_name: 'echo', tool_call_id: 'c3' }, output: 'hi' }));
let aiMissing;
try { trAi.withToolResults({ echo: { inputSchema: {}, outputSchema: {}, execute: () => 'hi' } }); } catch (e) { aiMissing = e.code; }
if (aiPeer || uiPart.state !== 'output-available' || trAi.fromUIToolPart(uiPart).output !== 'hi' || aiMissing !== 'missing_dependency') throw new Error('toolresult/ai from CommonJS');
const otel = toOtelAttributes(createSuccess({ input: { tool_name: 'echo', tool_call_id: 'c2' } }));
// The subpaths that split the main entry's API need no set-up in Node; what moved is not in the main entries.
const hi = createSuccess({ input: { tool_name: 'echo', tool_call_id: 'c4' }, output: 'hi' });
const log = new (require('toolresult/audit').MemoryAuditLog)();
const subpaths = [require('toolresult/convert').toMcpCallToolResult(hi).content[0].text, require('toolresult/render').renderText(hi).includes('hi'),
  require('toolresult/screen').screen('hello').verdict, log.appendSync({ action: 'stored', execution_id: 'e1' }).seq];
const moved = ${JSON.stringify([...Object.values(MOVED).flat(), ...INTERNAL])};
const leaked = ['toolresult', 'toolresult/web', 'toolresult/node'].flatMap((e) => moved.filter((n) => n in require(e)).map((n) => e + ': ' + n));
const absent = Object.entries(${JSON.stringify(MOVED)}).flatMap(([s, names]) => names.filter((n) => !(n in require('toolresult/' + s))).map((n) => s + ': ' + n));
console.log(JSON.stringify({ ok: r.ok, agent: r.value.agent_id, code, schema: schemaIssues.map((i) => i.code),
  canonical: canonicalJson({ b: 1, a: 2 }), pgVersion: POSTGRES_SCHEMA_VERSION, op: otel['gen_ai.operation.name'], subpaths, leaked, absent }));`,
  );
  assert.deepEqual(JSON.parse(sh(process.execPath, ['main.js'], dir)), {
    ok: true,
    agent: 'scaffold-agent-1',
    code: 'invalid_tool_result',
    schema: ['required'],
    canonical: '{"a":2,"b":1}',
    pgVersion: 3,
    op: 'execute_tool',
    subpaths: ['hi', true, 'accept', 1],
    leaked: [],
    absent: [],
  });
  let missingPg;
  try {
    sh(
      process.execPath,
      [
        '-e',
        "require('toolresult/postgres').PostgresResultStore.open({ connection: 'postgres://localhost/x' }).catch((e) => { console.error(e.code || e.message); process.exit(3); })",
      ],
      dir,
    );
  } catch (e) {
    missingPg = e.stderr;
  }
  assert.match(missingPg, /^missing_dependency$/m, 'without pg, connecting is a typed error that says what is missing');
  const schema = sh(process.execPath, ['-e', "console.log(require('toolresult/schemas/tool-result.v1.json').$id)"], dir);
  assert.match(schema, /tool-result\.v1\.json/);
  const cli = sh(path.join(dir, 'node_modules', '.bin', 'toolresult'), ['validate', 'fixture.json'], dir);
  assert.match(cli, /1 valid, 0 invalid/);
});

test('ESM project: import', () => {
  const dir = project('esm-app', { type: 'module' });
  writeFileSync(
    path.join(dir, 'main.js'),
    `import { readFileSync } from 'node:fs';
import toolresult, { validateAgentResult, createSuccess, statusInfo, ToolRegistry } from 'toolresult';
import * as main from 'toolresult';
// The subpaths that split the main entry's API, by name.
import { fromAnthropicToolResult, toOpenAIChatToolMessage } from 'toolresult/convert';
import { diffHunks, renderText } from 'toolresult/render';
import { SCREEN_CATEGORIES, screen } from 'toolresult/screen';
import { MemoryAuditLog, verifyAuditLog } from 'toolresult/audit';
// Named imports from the other entries (their CommonJS stubs name their
// exports for Node's lexer); /postgres without pg installed.
import { FileResultStore, validateAgentResult as fromNode } from 'toolresult/node';
import { PostgresResultStore } from 'toolresult/postgres';
import { AgentResultStream, subscribeAgentResults } from 'toolresult/redis';
import { toOtelAttributes } from 'toolresult/otel';
import { McpSchemaValidator, wrapMcpToolHandler } from 'toolresult/mcp';
if (typeof AgentResultStream !== 'function' || typeof subscribeAgentResults !== 'function') throw new Error('toolresult/redis from ESM');
import { withToolResults, toUIToolPart } from 'toolresult/ai';
import { toolResultMiddleware } from 'toolresult/langchain';
import { toolResultGuardrail, wrapAgentTool } from 'toolresult/openai-agents';
if (typeof toolResultMiddleware !== 'function' || typeof wrapAgentTool !== 'function' || toolResultGuardrail().type !== 'tool_output') throw new Error('toolresult/langchain, toolresult/openai-agents from ESM');
// toolresult/claude-agent-sdk loads without the SDK (its hooks are plain functions).
import { toolResultHooks } from 'toolresult/claude-agent-sdk';
if (toolResultHooks().PostToolUse[0].hooks.length !== 1) throw new Error('toolresult/claude-agent-sdk from ESM');
// toolresult/mastra loads without @mastra/core.
import { toolResultProcessor, wrapMastraTools } from 'toolresult/mastra';
if (typeof toolResultProcessor().processToolResult !== 'function' || typeof wrapMastraTools !== 'function') throw new Error('toolresult/mastra from ESM');
// toolresult/genkit loads without genkit.
import { toolResultMiddleware as genkitMiddleware } from 'toolresult/genkit';
if (!genkitMiddleware().name.startsWith('toolresult')) throw new Error('toolresult/genkit from ESM');
// toolresult/adk loads without @google/adk (its ES-module face imports ADK only when installed).
import { toolResultPlugin as adkPlugin } from 'toolresult/adk';
let adkMissing;
try { adkPlugin(); } catch (e) { adkMissing = e.code; }
if (adkMissing !== 'missing_dependency') throw new Error('toolresult/adk from ESM');
const aiTools = withToolResults({ echo: { inputSchema: {}, execute: async (input) => input.text } });
const aiOut = await aiTools.echo.execute({ text: 'hi' }, { toolCallId: 'e1' });
const aiModel = await aiTools.echo.toModelOutput({ toolCallId: 'e1', input: {}, output: aiOut });
if (aiOut.output !== 'hi' || aiModel.type !== 'text' || aiModel.value !== 'hi' || toUIToolPart(aiOut).output.output !== 'hi') throw new Error('toolresult/ai from ESM');
const mcpOut = await wrapMcpToolHandler(async () => ({ content: [{ type: 'text', text: 'hi' }] }), { toolName: 'echo' })({});
if (typeof McpSchemaValidator !== 'function' || mcpOut.content[0].text !== 'hi' || mcpOut._meta['toolresult/result'].status !== 'success') throw new Error('toolresult/mcp from ESM');
const r = validateAgentResult(readFileSync('fixture.json', 'utf8'));
const built = createSuccess({ input: { tool_name: 'echo' }, output: 'hi' });
const checked = new ToolRegistry().register({ name: 'echo', outputSchema: { type: 'integer' } }).checkResult(built);
const log = new MemoryAuditLog();
await log.append({ action: 'stored', execution_id: built.metadata.execution_id });
const subpaths = [toOpenAIChatToolMessage(createSuccess({ input: { tool_name: 'echo', tool_call_id: 'c1' }, output: 'hi' })).role, fromAnthropicToolResult({ type: 'tool_result', tool_use_id: 't1', content: 'ok' }, { tool_name: 'x' }).status,
  renderText(built).includes('hi'), diffHunks('a\\n', 'b\\n').length, screen('hello').verdict, SCREEN_CATEGORIES.includes('secret'), (await verifyAuditLog(log)).count];
const leaked = ${JSON.stringify([...Object.values(MOVED).flat(), ...INTERNAL])}.filter((n) => n in main || n in toolresult);
console.log(JSON.stringify({ ok: r.ok, same: toolresult.validateAgentResult === validateAgentResult && fromNode === validateAgentResult,
  entries: [typeof FileResultStore, typeof PostgresResultStore, typeof toOtelAttributes],
  status: built.status, size: built.metadata.output_size, code: statusInfo('timeout').code, checked: checked.status, subpaths, leaked }));`,
  );
  assert.deepEqual(JSON.parse(sh(process.execPath, ['main.js'], dir)), {
    ok: true,
    same: true,
    entries: ['function', 'function', 'function'],
    status: 'success',
    size: 4,
    code: 1,
    checked: 'output_validation_failed',
    subpaths: ['tool', 'success', true, 1, 'accept', true, 1],
    leaked: [],
  });
});

test('TypeScript project: the published types check under nodenext (and noUncheckedSideEffectImports)', () => {
  const dir = project('ts-app', { type: 'module' });
  writeFileSync(
    path.join(dir, 'main.ts'),
    `// The stylesheet has types (an empty declaration file), so its side-effect import is checked and resolves.
import 'toolresult/style.css';
import { parseAgentResult, validateToolResult, ToolResultError, ToolRegistry, compileSchema, type AgentResult, type Issue, type SchemaIssue, type ValidationReport } from 'toolresult';
const a: AgentResult = parseAgentResult('{}');
const status: 'pending' | 'queued' | 'running' | 'success' | 'failed' | 'timeout' | 'cancelled' = a.status;
const r = validateToolResult({});
const issues: Issue[] = r.ok ? [] : r.issues;
const e = new ToolResultError('invalid_spec', 'x');
const report: ValidationReport = new ToolRegistry({ formats: 'annotate' }).register({ name: 't', inputSchema: {} }).validateInput('t', {});
const schemaIssues: SchemaIssue[] = compileSchema(true).validate(1);
// The optional entries' types: the store's needs no @types/pg; otel's types come from @opentelemetry/api.
import { PostgresResultStore, type PgPool, type PutManyReport } from 'toolresult/postgres';
import { FileResultStore } from 'toolresult/node';
import { instrumentStore, toOtelAttributes, type OtelAttributes } from 'toolresult/otel';
declare const pool: PgPool;
const store: Promise<PostgresResultStore> = PostgresResultStore.open({ pool, retention: { maxCount: 10 } });
const batch: Promise<PutManyReport> = store.then((s) => s.putMany([]));
const attrs: OtelAttributes = toOtelAttributes({} as never);
const off: () => void = instrumentStore(FileResultStore.open('x'), {});
// toolresult/redis's types need no redis installed.
import { AgentResultStream, type RedisStreamClient, type StreamConsumer } from 'toolresult/redis';
declare const redisClient: RedisStreamClient;
const bus: Promise<StreamConsumer> = new AgentResultStream(redisClient).consume(async (r, info) => info.withAck(['HSET', 'stages', r.workflow_id, 'done']), { group: 'g', consumer: 'c' });
console.log(bus);
// toolresult/mcp's types need neither MCP SDK major.
import { McpSchemaValidator, wrapMcpToolHandler, type McpCallToolResultLike } from 'toolresult/mcp';
const mcpValid: boolean = new McpSchemaValidator({ cacheSize: 8 }).getValidator<{ n: number }>({ type: 'object' })({}).valid;
const mcpTool: (args: { q: string }) => Promise<McpCallToolResultLike> = wrapMcpToolHandler(async (args: { q: string }) => ({ content: [{ type: 'text', text: args.q }] }), { toolName: 'q', budget: { maxBytes: 10 } });
console.log(mcpValid, mcpTool);
// toolresult/ai's types need no ai installed: the SDK's shapes are structural.
import type { ToolResult } from 'toolresult';
import { withToolResults, toUIToolPart, fromUIToolPart, type UIToolPart } from 'toolresult/ai';
const aiTools = withToolResults({ echo: { inputSchema: {}, execute: async (input: { text: string }) => input.text } }, { budget: { maxChars: 100 } });
const aiRun: PromiseLike<ToolResult> | AsyncIterable<ToolResult> = aiTools.echo.execute({ text: 'hi' }, { toolCallId: 'e1' });
const aiPart: UIToolPart = toUIToolPart({} as ToolResult, { state: 'output-available' });
const aiBack: ToolResult | undefined = fromUIToolPart(aiPart);
console.log(aiRun, aiBack);
// toolresult/langchain's and toolresult/openai-agents' types need neither framework.
import { toolResultMiddleware, type ToolResultMiddlewareOptions } from 'toolresult/langchain';
import { toolResultGuardrail, wrapAgentTool, type AgentToolOutputGuardrail } from 'toolresult/openai-agents';
const lcOptions: ToolResultMiddlewareOptions = { budget: { maxChars: 100 }, screen: true, traceArguments: false };
const guard: AgentToolOutputGuardrail = toolResultGuardrail({ throwException: true });
const agentTool = wrapAgentTool({ type: 'function', name: 'x', description: 'd', invoke: async () => 'ok' }, { budget: { maxBytes: 10 } });
console.log(toolResultMiddleware, lcOptions, guard, agentTool.name);
// toolresult/claude-agent-sdk's types need no SDK either.
import { toolResultHooks, type ClaudeToolResultHooks } from 'toolresult/claude-agent-sdk';
const claudeHooks: ClaudeToolResultHooks = toolResultHooks({ dialogId: (input) => input.session_id, budget: { maxChars: 4000 }, screen: true });
console.log(claudeHooks.PostToolUse.length);
// toolresult/mastra's types need no Mastra either.
import { toolResultProcessor, wrapMastraTools, type MastraToolResultProcessor } from 'toolresult/mastra';
const mastraProcessor: MastraToolResultProcessor = toolResultProcessor({ dialogId: (call) => call.threadId ?? call.toolCallId, budget: { maxChars: 4000 }, screen: true });
const mastraTools: { echo: { description: string; execute: (input: { text: string }) => Promise<string> } } = wrapMastraTools({ echo: { description: 'd', execute: async (input: { text: string }) => input.text } });
console.log(mastraProcessor.id, mastraTools.echo.description);
// toolresult/genkit's types need no genkit either.
import { toolResultMiddleware as genkitMiddleware, type GenkitMiddlewareRef } from 'toolresult/genkit';
const genkitRef: GenkitMiddlewareRef = genkitMiddleware({ dialogId: (call) => call.toolCallId || 'd', budget: { maxChars: 4000 }, screen: true });
console.log(genkitRef.name);
// toolresult/adk's types need no ADK either (the plugin's ADK shapes are structural).
import { toolResultPlugin as adkPlugin, type AdkToolResultPlugin } from 'toolresult/adk';
const adkToolPlugin: AdkToolResultPlugin = adkPlugin({ dialogId: (call) => call.toolContext.sessionId ?? 'd', budget: { maxChars: 4000 }, screen: true });
console.log(adkToolPlugin.name);
// The subpaths that split the main entry's API, with their types; the audit types stay in the main entry too.
import { toMcpCallToolResult, type McpRevision } from 'toolresult/convert';
import { renderText, type RenderTextOptions } from 'toolresult/render';
import { screen, type ScreenRecord } from 'toolresult/screen';
import { MemoryAuditLog, type AuditEntry } from 'toolresult/audit';
import type { AuditLog, AuditRecord } from 'toolresult';
const revision: McpRevision = '2025-11-25';
const mcpText: unknown = toMcpCallToolResult({} as ToolResult, { revision }).content;
const renderOptions: RenderTextOptions = { collapsed: true };
const rendered: string = renderText({} as ToolResult, renderOptions);
const screened: ScreenRecord['verdict'] = screen('hello').verdict;
const auditLog: AuditLog = new MemoryAuditLog();
const appended: Promise<AuditEntry> = auditLog.append({ action: 'stored', execution_id: 'e1' } satisfies AuditRecord);
console.log(mcpText, rendered, screened, appended);
// What moved is not in the main entry's types any more.
// @ts-expect-error renderText is in toolresult/render
import { renderText as notInMain } from 'toolresult';
// @ts-expect-error MemoryAuditLog is in toolresult/audit
import { MemoryAuditLog as notInMainEither } from 'toolresult';
console.log(notInMain, notInMainEither);
export { status, issues, e, report, schemaIssues, batch, attrs, off };`,
  );
  // The optional peer dependency a user of toolresult/otel installs.
  cpSync(path.join(root, 'node_modules', '@opentelemetry', 'api'), path.join(dir, 'node_modules', '@opentelemetry', 'api'), { recursive: true });
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const check = (file) =>
    sh(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--noUncheckedSideEffectImports',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--types',
        'node',
        '--typeRoots',
        path.join(root, 'node_modules', '@types'),
        file,
      ],
      dir,
    );
  check('main.ts');
  // The option is in force: a stylesheet without a declaration file fails (as toolresult/style.css did).
  writeFileSync(path.join(dir, 'untyped.css'), '.x { color: red; }\n');
  writeFileSync(path.join(dir, 'untyped.ts'), `import './untyped.css';\nexport {};\n`);
  assert.throws(
    () => check('untyped.ts'),
    (e) => /error TS\d+: Cannot find module '\.\/untyped\.css'/.test(e.stdout),
    'an untyped side-effect import fails',
  );
});

// toolresult/react with the user's React (an optional peer: copied in, as a user installs it):
// server rendering from CommonJS and ESM, and the published types under nodenext.
test('toolresult/react: server rendering from CommonJS and ESM, and its types', () => {
  const dir = project('react-app', { type: 'module' });
  for (const p of ['react', 'react-dom', 'scheduler', '@types/react', 'csstype'])
    cpSync(path.join(root, 'node_modules', p), path.join(dir, 'node_modules', p), { recursive: true });
  const part = { type: 'tool-deploy', toolCallId: 'c1', state: 'approval-requested', input: {}, approval: { id: 'a1' } };
  writeFileSync(
    path.join(dir, 'main.js'),
    `import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createRequire } from 'node:module';
import { ToolResultView } from 'toolresult/react';
const cjs = createRequire(import.meta.url)('toolresult/react');
console.log(JSON.stringify([renderToString(createElement(ToolResultView, { toolPart: ${JSON.stringify(part)}, theme: 'dark' })), cjs.ToolResultView === ToolResultView]));`,
  );
  assert.deepEqual(JSON.parse(sh(process.execPath, ['main.js'], dir)), ['<tool-result-view theme="dark"></tool-result-view>', true]);
  writeFileSync(
    path.join(dir, 'app.ts'),
    `import { createElement, useRef } from 'react';
import { ToolResultView, type ToolResultViewElement, type ToolResultViewProps } from 'toolresult/react';
import type { UIToolPart } from 'toolresult/ai';
declare const part: UIToolPart;
const props: ToolResultViewProps = { toolPart: part, collapsed: true, theme: 'light', onApprove: (d) => console.log(d.approvalId, d.toolCallId) };
// @ts-expect-error result and toolPart together
const both: ToolResultViewProps = { toolPart: part, result: '{}' };
export function View() {
  const ref = useRef<ToolResultViewElement>(null);
  return createElement(ToolResultView, { ...props, ref });
}
export { both };`,
  );
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  sh(
    process.execPath,
    [
      tsc,
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--lib',
      'es2022,dom',
      '--types',
      'node',
      '--typeRoots',
      path.join(root, 'node_modules', '@types'),
      'app.ts',
    ],
    dir,
  );
});
