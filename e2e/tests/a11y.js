// Accessibility checks shared by the browser tests: axe-core run in the page, and moving
// through a page with the keyboard alone (Tab, Shift+Tab, Enter), never a click.

import { createRequire } from 'node:module';
import { syncCount, waitSync } from './helpers.js';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core');

/**
 * Runs axe-core on the page as it is now and returns its critical and serious violations as
 * lines ("critical label: Form elements must have labels (2): #chat-input, …"). `where` names
 * the page in the summary printed to the test output (the counts before and after a fix).
 */
export async function axeProblems(page, where) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    // Colour contrast is left out: the cards' colours are a game's face, not text on the page,
    // and axe cannot see through the felt's gradients (it reports "incomplete" for most).
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')), html: v.nodes.slice(0, 2).map((n) => n.html.slice(0, 160)) }));
  });
  const bad = violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  const count = (impact) => bad.filter((v) => v.impact === impact).reduce((n, v) => n + v.nodes.length, 0);
  const rest = violations.filter((v) => !bad.includes(v)).map((v) => `${v.impact} ${v.id}`);
  console.log(`axe ${where}: ${count('critical')} critical, ${count('serious')} serious${rest.length ? ` (also: ${rest.join(', ')})` : ''}`);
  for (const v of bad) console.log(`  ${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).join(', ')} ${v.html.join(' ')}`);
  return bad.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}): ${v.nodes.slice(0, 4).join(', ')}`);
}

/** What the focused element is: enough to tell it from the others on the page. */
function focusedSig() {
  const a = document.activeElement;
  if (!a || a === document.body) return null;
  return [a.tagName, a.id, a.dataset.key ?? '', a.getAttribute('aria-label') ?? '', (a.innerText ?? a.value ?? '').trim().slice(0, 60)].join('|');
}

/**
 * Presses Tab (or Shift+Tab when the target comes before the focused element) until the
 * element that `find` (a function run in the page, returning an element or null) names has
 * the focus. Returns false if it went away or was not reached in `max` presses.
 */
export async function tabTo(page, find, arg = null, max = 120) {
  for (let i = 0; i < max;) {
    // Where the target is from the focused element, counted in the elements Tab stops at
    // (enabled, shown, not tabindex=-1), in document order: press Tab (or Shift+Tab) that
    // many times, then look again (a redraw may have moved things meanwhile).
    const where = await page.evaluate(({ src, a }) => {
      // eslint-disable-next-line no-new-func
      const el = new Function('arg', `return (${src})(arg)`)(a);
      if (!el) return { gone: true };
      const f = document.activeElement;
      if (el === f) return { here: true };
      const stops = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
        .filter((x) => x.tabIndex >= 0 && !x.disabled && x.getClientRects().length && !x.closest('[inert], details:not([open]) > :not(summary)'));
      const to = stops.indexOf(el);
      const from = f && f !== document.body ? stops.indexOf(f) : -1;
      if (to < 0) return { steps: 1, back: false };
      if (from < 0) {
        const after = !f || f === document.body || f.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING;
        return { steps: 1, back: !after };
      }
      return { steps: Math.abs(to - from), back: to < from };
    }, { src: find.toString(), a: arg });
    if (where.here) return true;
    if (where.gone) return false;
    const n = Math.max(1, Math.min(where.steps, max - i));
    for (let k = 0; k < n; k++) await page.keyboard.press(where.back ? 'Shift+Tab' : 'Tab');
    i += n;
  }
  return false;
}

/** Tabs to the element and presses `key` (Enter by default) on it; waits for the table to move. */
export async function press(page, find, arg = null, key = 'Enter') {
  const before = await syncCount(page);
  if (!(await tabTo(page, find, arg))) return false;
  await page.keyboard.press(key);
  await waitSync(page, before, 1500);
  return true;
}

export { focusedSig };
