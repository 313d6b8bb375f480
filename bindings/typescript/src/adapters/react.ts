// `toolresult/react`: `<ToolResultView>`, a React component over the
// `<tool-result-view>` custom element (react ≥ 18, an optional peer). It
// renders the element and hands it its value in an effect, the same on React
// 18 (which sets only attributes on custom elements) and 19, so the server
// renders an empty `<tool-result-view>` placeholder (no window, no
// customElements, no wasm) and the client fills it after hydration. Approve
// and Deny arrive as `onApprove` / `onDeny`; nothing is decided here. The
// entries (react-node.ts, react-web.ts) say how the package is made ready.
import { type CSSProperties, createElement, forwardRef, type ReactElement, type Ref, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { defineToolResultView, type ToolApprovalEventDetail, type ToolCallView } from '../dom.js';
import { ToolResultError } from '../errors.js';
import type { UIToolPart } from '../ui-parts.js';

/** The `<tool-result-view>` element (see `defineToolResultView`). */
export interface ToolResultViewElement extends HTMLElement {
  result: unknown;
  toolPart: unknown;
}

/** What an approval handler is given: the event's detail, and the event. */
export type ToolApprovalHandler = (detail: ToolApprovalEventDetail, event: CustomEvent<ToolApprovalEventDetail>) => void;

interface CommonProps {
  /** Start collapsed (header, error and preview line only); changing it collapses or expands the result. */
  collapsed?: boolean;
  /** Force the light or the dark theme (default: the system's, `prefers-color-scheme`). */
  theme?: 'light' | 'dark';
  /** Approve was pressed on a part awaiting approval (e.g. call the AI SDK's `addToolApprovalResponse`). */
  onApprove?: ToolApprovalHandler;
  /** Deny was pressed on a part awaiting approval. */
  onDeny?: ToolApprovalHandler;
  className?: string;
  style?: CSSProperties;
  id?: string;
}

/**
 * The props of `<ToolResultView>`: `result` (a ToolResult, a UI message tool
 * part, or JSON text of either; an invalid one is shown with its issues) or
 * `toolPart` (an AI SDK UI message tool part in any of its seven states),
 * not both.
 */
export type ToolResultViewProps = CommonProps &
  ({ result: ToolCallView | string | undefined; toolPart?: undefined } | { toolPart: UIToolPart | undefined; result?: undefined });

/** The component's type: a function component taking a ref to the element. */
export type ToolResultViewComponent = (props: ToolResultViewProps & { ref?: Ref<ToolResultViewElement> }) => ReactElement | null;

/**
 * The component, given how its entry makes the package ready (the browser's
 * `init()`; nothing in Node): `ready()` returns a promise until it is, then
 * undefined. Each entry exports its own `ToolResultView` made here (an export
 * of the entry itself, so no bundler drops the entry as side-effect free).
 * @internal
 */
export function createToolResultView(ready: () => Promise<void> | undefined): ToolResultViewComponent {
  // biome-ignore lint/correctness/noComponentHookFactories: called once per entry, at its top level (one component per entry)
  return forwardRef<ToolResultViewElement, ToolResultViewProps>(function ToolResultView(props, ref) {
    const { result, toolPart, collapsed, theme, onApprove, onDeny, className, style, id } = props;
    if (result !== undefined && toolPart !== undefined) {
      throw new ToolResultError('invalid_options', 'ToolResultView takes result or toolPart, not both', [
        { path: '/toolPart', code: 'invalid_options', message: 'give either result or toolPart' },
      ]);
    }
    const element = useRef<ToolResultViewElement>(null);
    const [failure, setFailure] = useState<{ error: unknown }>();
    if (failure) throw failure.error;
    useImperativeHandle(ref, () => element.current as ToolResultViewElement, []);

    useEffect(() => {
      const el = element.current;
      if (!el) return;
      const apply = () => {
        defineToolResultView((el.ownerDocument.defaultView ?? globalThis) as never);
        if (toolPart !== undefined) el.toolPart = toolPart;
        else el.result = result;
      };
      const pending = ready();
      if (!pending) {
        apply();
        return;
      }
      let current = true;
      pending.then(
        () => current && apply(),
        (error: unknown) => current && setFailure({ error }),
      );
      return () => {
        current = false;
      };
    }, [result, toolPart]);

    // Re-subscribed when a handler changes, so the newest one is always called.
    useEffect(() => {
      const el = element.current;
      if (!el || (!onApprove && !onDeny)) return;
      const approve = (e: Event) => onApprove?.((e as CustomEvent<ToolApprovalEventDetail>).detail, e as CustomEvent<ToolApprovalEventDetail>);
      const deny = (e: Event) => onDeny?.((e as CustomEvent<ToolApprovalEventDetail>).detail, e as CustomEvent<ToolApprovalEventDetail>);
      el.addEventListener('toolresult-approve', approve);
      el.addEventListener('toolresult-deny', deny);
      return () => {
        el.removeEventListener('toolresult-approve', approve);
        el.removeEventListener('toolresult-deny', deny);
      };
    }, [onApprove, onDeny]);

    // Attributes only (strings or nothing), so React 18 and 19, server and
    // client, write the same markup: `collapsed=""` is present, not "false".
    return createElement('tool-result-view', {
      ref: element,
      id,
      className,
      style,
      theme,
      collapsed: collapsed ? '' : undefined,
    });
  }) as never;
}
