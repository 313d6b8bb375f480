// The default look: every colour, font and spacing of the rules
// is a --tr-* custom property, the light and dark themes define the same
// tokens, and the page and element variants share their rules. (How it looks
// and its contrast: tests/browser/tool-result-view.test.mjs.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toolresult as t } from './helpers.mjs';

/** `selector { declarations }` blocks, at any @media depth, as [selector, [[property, value]]]. */
function blocks(css) {
  const out = [];
  const re = /([^{}]+)\{([^{}]*)\}/g;
  for (const m of css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(re)) {
    const decls = m[2]
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.slice(0, d.indexOf(':')).trim(), d.slice(d.indexOf(':') + 1).trim()]);
    out.push([m[1].replace(/^[\s\S]*\{/, '').trim(), decls]);
  }
  return out;
}

test('every colour, font and spacing in the rules comes from a --tr-* token', () => {
  for (const css of [t.TOOL_RESULT_CSS, t.TOOL_RESULT_ELEMENT_CSS]) {
    const all = blocks(css);
    assert.ok(all.length > 50, `${all.length} rule blocks`);
    for (const [selector, decls] of all) {
      for (const [prop, value] of decls) {
        if (prop.startsWith('--tr-')) continue;
        const literal = value.match(/#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(|\b\d*\.?\d+(px|rem|pt)\b|"[^"]*"|\b(serif|sans-serif|monospace|system-ui)\b/i);
        // The visually-hidden live region and the pill radius are shapes, not the look.
        const allowed = selector === '.tr-live' || (prop === 'border-radius' && value === '999px');
        assert.ok(!literal || allowed, `${selector} { ${prop}: ${value} } uses a literal (${literal?.[0]}), not a --tr-* token`);
      }
    }
  }
});

test('light and dark define the same tokens, every token is used, and both variants share the rules', () => {
  const tokens = new Set(t.TOOL_RESULT_TOKENS);
  assert.ok(tokens.size > 40);
  for (const css of [t.TOOL_RESULT_CSS, t.TOOL_RESULT_ELEMENT_CSS]) {
    const defined = blocks(css).map(([selector, decls]) => [selector, decls.filter(([p]) => p.startsWith('--tr-')).map(([p]) => p)]);
    const light = defined.find(([, d]) => d.length === tokens.size);
    assert.ok(light, 'one block defines every token');
    assert.deepEqual(new Set(light[1]), tokens);
    const dark = defined.filter(([, d]) => d.length > 0 && d.length < tokens.size);
    assert.equal(dark.length, 2, 'dark: from the system preference, and forced');
    for (const [, d] of dark) for (const p of d) assert.ok(tokens.has(p), p);
    for (const token of tokens) assert.ok(css.includes(`var(${token})`), `${token} is used`);
  }
  const rules = (css) => css.slice(css.indexOf('.tool-result-view, .tool-result {'));
  assert.equal(rules(t.TOOL_RESULT_CSS), rules(t.TOOL_RESULT_ELEMENT_CSS));
  assert.match(t.TOOL_RESULT_ELEMENT_CSS, /:host\(\[theme="dark"\]\)/);
  assert.match(t.TOOL_RESULT_ELEMENT_CSS, /@media \(prefers-color-scheme: dark\)/);
  assert.match(t.TOOL_RESULT_CSS, /@media \(prefers-reduced-motion: reduce\)/);
  assert.doesNotMatch(t.TOOL_RESULT_CSS, /:host/, 'the page variant has no shadow-only selectors');
});
