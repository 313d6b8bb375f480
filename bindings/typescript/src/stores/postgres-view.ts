// The view `tool_execution_results` of PostgresResultStore's schema: the
// ToolResult specification's table (its name and columns) over the store's
// own tables, so queries written against that table run unchanged
// (docs/integrations/postgres.md, "The tool_execution_results view").
import type { ToolStatus } from '../generated/types.js';

/**
 * Every tool status's code (docs/spec.md §3), for the view's integer
 * `status`. A migration is never edited once released: a new status means a
 * new migration that replaces the view. The PostgreSQL tests check each code
 * against `statusInfo`.
 */
const STATUS_CODES: Readonly<Record<ToolStatus, number>> = {
  success: 0,
  timeout: 1,
  cancelled: 2,
  requires_confirmation: 3,
  permission_denied: 10,
  license_required: 11,
  validation_error: 20,
  output_validation_failed: 21,
  failed: 30,
  tool_not_found: 31,
  rate_limited: 32,
  sandbox_error: 40,
  security_violation: 41,
  resource_limit_exceeded: 42,
};

/**
 * The view's SQL, in schema `s` (quoted). Columns from the store's clear
 * columns (ids, tool name, status, start, truncation) are always there; the
 * others come from the stored result, and read NULL for an encrypted row
 * (`key_id` set: the result is ciphertext). A JSON `null` reads as NULL, as it
 * means absent (docs/spec.md). Numbers go through `numeric`, since a whole
 * number may be written `2.0`. The view's `execution_id` is the uuid of the
 * stored text (every stored id is one, docs/spec.md §2); the index on that
 * expression keeps a lookup by it as fast as the store's own.
 */
export function toolExecutionResultsView(s: string): string {
  const status = Object.entries(STATUS_CODES)
    .map(([name, code]) => `WHEN '${name}' THEN ${code}`)
    .join(' ');
  return `
CREATE VIEW ${s}.tool_execution_results AS
SELECT
  r.execution_id::uuid AS execution_id,
  r.tool_name,
  (c.j -> 'input')::text AS input_json,
  nullif(c.j -> 'output', 'null'::jsonb)::text AS output_json,
  r.output_truncated,
  CASE r.status ${status} END AS status,
  c.j ->> 'error_message' AS error_message,
  c.j ->> 'error_code' AS error_code,
  nullif(c.j -> 'side_effects', 'null'::jsonb)::text AS side_effects_json,
  r.started_at::timestamptz AS started_at,
  (c.j -> 'metadata' ->> 'completed_at')::timestamptz AS completed_at,
  (c.j -> 'metadata' ->> 'duration_ms')::numeric::bigint AS duration_ms,
  (c.j -> 'metadata' ->> 'output_size')::numeric::bigint AS output_size_bytes,
  c.j -> 'metadata' ->> 'sandbox_id' AS sandbox_id,
  nullif(c.j -> 'metadata' -> 'resource_metrics', 'null'::jsonb)::text AS resource_metrics_json,
  (c.j -> 'metadata' ->> 'agent_id')::uuid AS agent_id,
  (c.j -> 'metadata' ->> 'user_id')::uuid AS user_id,
  (c.j -> 'metadata' ->> 'batch_id')::uuid AS batch_id,
  c.j -> 'metadata' ->> 'correlation_id' AS correlation_id
FROM ${s}.toolresult_results r
CROSS JOIN LATERAL (SELECT CASE WHEN r.key_id IS NULL THEN r.result END AS j) c;
CREATE INDEX toolresult_results_execution_uuid ON ${s}.toolresult_results ((execution_id::uuid));
`;
}
