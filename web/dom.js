// Small DOM helpers shared by the shell and the game modules.
//
// Everything the page shows is built with DOM APIs: text goes in through text nodes
// (textContent), never through innerHTML, so a username or chat message can never become
// markup.

/**
 * Creates an element. `props`: `class`, `text`, `dataset` (object), `on` (event → handler),
 * `attrs` (object of attributes), and any other key is set as a property (`disabled`, `value`,
 * `type`, `hidden`, ...). Children: nodes, strings (as text), arrays, null/false (skipped).
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v === undefined || v === null) continue;
      if (k === 'class') el.className = v;
      else if (k === 'text') el.textContent = v;
      else if (k === 'dataset') Object.assign(el.dataset, v);
      else if (k === 'on') for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
      else if (k === 'attrs') for (const [a, av] of Object.entries(v)) { if (av !== false && av != null) el.setAttribute(a, av === true ? '' : String(av)); }
      else el[k] = v;
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/** Replaces the children of `el`, keeping keyboard focus on the element with the same
 * `data-key` if the focused element was inside `el` (re-renders must not lose the user's place). */
export function replaceChildren(el, ...children) {
  const active = document.activeElement;
  const key = active && el.contains(active) ? active.dataset.key : null;
  el.replaceChildren();
  append(el, children);
  if (key) {
    const again = el.querySelector(`[data-key="${CSS.escape(key)}"]`);
    // If that control is gone or disabled, stay nearby (the element marked as the fallback)
    // rather than dropping focus to the top of the page.
    const target = again && !again.disabled ? again : el.querySelector('[data-focus-fallback]');
    target?.focus();
  }
}

/** A time of day, like 14:05. */
export function clock(ms) {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}
