// The ids a store keeps results under (dialog ids, tool call ids), checked
// once for every store and door: the file store names files and folders by
// them (node-store.ts), and the HTTP endpoints (http/) take them from URLs.

/** Letters, digits, `.`, `_`, `-`; no leading dot; 1 to 200 characters. */
export const SAFE_ID: RegExp = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** Whether `id` is one a store can keep results under. */
export function isSafeId(id: unknown): id is string {
  return typeof id === 'string' && SAFE_ID.test(id);
}
