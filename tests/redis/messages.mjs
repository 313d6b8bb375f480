// The messages the fault test's producers send, derived from (producer, i)
// alone so the test can rebuild any of them: 5 % invalid (i % 20 === 0, five
// kinds), 10 % legacy TaskResults (i % 10 === 5; half bare, half in seed
// 004's AgentMessage wrapper), the rest AgentResult v1.

/** What legacy TaskResults lack; the consumers pass it as the migration context. */
export const LEGACY_CONTEXT = { agent_id: 'legacy-agent', agent_type: 'scaffold', action: 'legacy_task' };

const hex = (n, width) => n.toString(16).padStart(width, '0');
/** A UUID-shaped id unique per (producer, i). */
export const taskId = (p, i) => `00000000-0000-4000-8000-${hex(p, 4)}${hex(i, 8)}`;
export const workflowId = (p, i) => `10000000-0000-4000-8000-${hex(p, 4)}${hex(i % 7, 8)}`;
/** The key the test counts by: `workflow_id/task_id`. */
export const keyOf = (workflow_id, task_id) => `${workflow_id}/${task_id}`;

export function kindOf(i) {
  if (i % 20 === 0) return 'invalid';
  if (i % 10 === 5) return 'legacy';
  return 'valid';
}

export function agentResult(p, i, extra = {}) {
  const failed = i % 9 === 4;
  return {
    task_id: taskId(p, i),
    workflow_id: workflowId(p, i),
    agent_id: `agent-${p}`,
    agent_type: ['scaffold', 'validation', 'e2e', 'integration', 'deployment'][i % 5],
    success: !failed,
    status: failed ? 'failed' : 'success',
    action: 'run_stage',
    result: { producer: p, i, files: i % 13 },
    metrics: { duration_ms: 10 + (i % 50), tokens_used: i },
    ...(failed ? { error: { code: 'E_STAGE', message: `stage ${i} failed`, retryable: i % 2 === 0 } } : {}),
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)).toISOString(),
    version: '1.0.0',
    ...extra,
  };
}

function taskResult(p, i) {
  return {
    task_id: taskId(p, i),
    workflow_id: workflowId(p, i),
    status: ['success', 'failure', 'partial'][i % 3],
    output: { producer: p, i },
    ...(i % 3 === 1 ? { errors: [`step ${i} failed`] } : {}),
    metrics: { duration_ms: 5 + (i % 40) },
  };
}

/**
 * `{ kind, key, text }`: the message text for (p, i); `key` is
 * `workflow_id/task_id` (for invalid ones, the ids they were built from).
 */
export function message(p, i) {
  const kind = kindOf(i);
  const key = keyOf(workflowId(p, i), taskId(p, i));
  if (kind === 'valid') return { kind, key, text: JSON.stringify(agentResult(p, i)) };
  if (kind === 'legacy') {
    const legacy = taskResult(p, i);
    if (i % 20 === 5) return { kind, key, text: JSON.stringify(legacy) };
    const wrapped = {
      id: taskId(p + 100, i),
      type: 'result',
      agent_id: `legacy-agent-${p}`,
      workflow_id: legacy.workflow_id,
      stage: 'scaffolding',
      payload: legacy,
      timestamp: '2026-01-01T00:00:00.000Z',
      trace_id: taskId(p + 200, i),
    };
    return { kind, key, text: JSON.stringify(wrapped) };
  }
  const variant = (i / 20) % 5;
  const r = agentResult(p, i);
  let text;
  if (variant === 0)
    text = JSON.stringify({ ...r, success: !r.success }); // success contradicts status
  else if (variant === 1)
    text = JSON.stringify(r).slice(0, 120); // truncated JSON
  else if (variant === 2)
    text = JSON.stringify({ ...r, agent_type: 'astrologer' }); // unknown agent type
  else if (variant === 3) {
    const { metrics, ...rest } = r; // metrics missing
    text = JSON.stringify({ ...rest, version: '9.9.9', metrics_: metrics });
  } else text = JSON.stringify({ ...r, result: [r.result], timestamp: 'yesterday' }); // result not an object, bad date
  return { kind, key, text };
}
