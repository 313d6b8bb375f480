// `toolresult/render`: per-tool rendering as text and DOM, `<tool-result-view>`
// and the default look. docs/guide/rendering.md. The Node and workerd variants
// install the wasm loaders first; browsers `await init()`.
export {
  type RenderContext,
  type RenderError,
  type Rendered,
  type Renderer,
  type RenderTextOptions,
  RendererRegistry,
  createTextRendererRegistry,
  detectLanguage,
  diffHunks,
  renderText,
  structureBatch,
  structureFileEdit,
  structureFileRead,
  structureTodo,
} from '../render.js';
export {
  type DomRenderContext,
  type ToolApprovalEventDetail,
  type ToolCallView,
  createDomRendererRegistry,
  defineToolResultView,
  isUIToolPart,
  renderDom,
  renderDomChecked,
} from '../dom.js';
export { TOOL_RESULT_CSS, TOOL_RESULT_ELEMENT_CSS, TOOL_RESULT_TOKENS } from '../style.js';
