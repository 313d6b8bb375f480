// A chat page whose tool calls render with <ToolResultView> in every state
// (input streaming, running, awaiting approval, approved, done, failed,
// denied), driven by the AI SDK's useChat over a scripted transport (no
// network). Approve and Deny answer through addToolApprovalResponse; once
// every approval is answered, useChat sends the answers back and the script
// goes on. Served under a strict CSP with Trusted Types (no inline script or
// style); tested by tests/browser/react.test.mjs.
import './jitless.js';
import { useChat } from '@ai-sdk/react';
import { isToolUIPart, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { StrictMode, useState, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { ToolResultView } from 'toolresult/react';
import { ScriptedTransport } from './transport.js';
import './app.css';

function App() {
  const [transport] = useState(() => new ScriptedTransport());
  useSyncExternalStore(transport.subscribe, transport.snapshot);
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const approve = ({ approvalId }) => addToolApprovalResponse({ id: approvalId, approved: true });
  const deny = ({ approvalId }) => addToolApprovalResponse({ id: approvalId, approved: false, reason: 'Denied in the chat' });

  return (
    <main>
      <h1>A chat's tool calls with toolresult/react</h1>
      <p className="lead">
        A scripted conversation with the AI SDK's <code>useChat</code>: every tool call is a <code>&lt;ToolResultView&gt;</code>. Answer the approvals to let
        the script go on.
      </p>
      <ol className="messages" aria-label="Conversation">
        {messages.map((m) => (
          <li key={m.id} className={`message ${m.role}`}>
            <h2 className="who">{m.role === 'user' ? 'You' : 'Agent'}</h2>
            {m.parts.map((part, i) =>
              part.type === 'text' ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: a message's parts only grow at the end, so an index names one part for good
                <p key={`${m.id}-${i}`}>{part.text}</p>
              ) : isToolUIPart(part) ? (
                <ToolResultView key={part.toolCallId} id={part.toolCallId} toolPart={part} onApprove={approve} onDeny={deny} />
              ) : null,
            )}
          </li>
        ))}
      </ol>
      <section className="composer" aria-label="Controls">
        {messages.length === 0 && (
          <button type="button" onClick={() => sendMessage({ text: 'Make the greeting say the name, then deploy it.' })}>
            Start the conversation
          </button>
        )}
        {transport.paused && (
          <button type="button" onClick={transport.resume}>
            Continue the script
          </button>
        )}
        <p className="status" data-status={status}>
          Chat status: {status}
        </p>
        {error && <p className="error">Error: {error.message}</p>}
      </section>
      <section className="log" aria-label="What the server received">
        <h2>What the server received</h2>
        <ol id="requests">
          {transport.requests.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows
            <li key={i} data-answers={JSON.stringify(r.answers)}>
              Request {i + 1}: {r.messages} message{r.messages === 1 ? '' : 's'}
              {r.answers.map((a) => `; ${a.id} ${a.approved ? 'approved' : 'denied'}`).join('')}
            </li>
          ))}
        </ol>
      </section>
    </main>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
