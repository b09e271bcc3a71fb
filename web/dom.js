// Small DOM helpers shared by the shell and the game modules.
//
// Everything the page shows is built with DOM APIs: text goes in through text nodes
// (textContent), never through innerHTML, so a username or chat message can never become
// markup.

/**
 * Creates an element. `props`: `class`, `text`, `dataset` (object), `on` (event → handler),
 * `attrs` (object of attributes), `for` (a label's `for` attribute: the property is `htmlFor`,
 * and `el.for` would tie the label to nothing), and any other key is set as a property
 * (`disabled`, `value`, `type`, `hidden`, ...). Children: nodes, strings (as text), arrays,
 * null/false (skipped).
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v === undefined || v === null) continue;
      if (k === 'class') el.className = v;
      else if (k === 'text') el.textContent = v;
      else if (k === 'for') el.htmlFor = v; // `el.for` is no property: <label for> needs htmlFor
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

// ---- bots: what each level or game bot is called and how it plays ---------------------------

/** `kind` → [name, how it plays]. The levels are every game's; the rest are games' own bots. */
const BOT_KINDS = {
  easy: ['Easy', 'plays by rules of thumb, but half of its moves are random'],
  medium: ['Medium', "plays by the game's rules of thumb: sensible, never deep"],
  hard: ['Hard', 'thinks ahead, trying its moves out in quick games played to the end (about a quarter of a second a move)'],
  expert: ['Expert', 'thinks further ahead than Hard (up to about half a second a move), the strongest'],
  random: ['Random', 'any move the rules allow, picked at random (the weakest)'],
  heuristic: ['Rules of thumb', "the game's own rule-of-thumb player (the one Medium uses)"],
  seed: ['Student version', 'plays as the student simulation this game started from did'],
  rookie: ['Rookie Ace', 'picks its cards and targets at random'],
  veteran: ['Veteran Ace', 'plays by rules of thumb'],
  ace: ['Ace', 'searches ahead: the strongest Ace'],
};

/** A bot kind's name for people: "Medium", "Rules of thumb" (an unknown kind as it is). */
export function botName(kind) {
  return BOT_KINDS[kind]?.[0] ?? String(kind ?? 'bot');
}

/**
 * How a bot kind plays, as a sentence: "Medium: plays by the game's rules of thumb…", then its
 * strength when the game's ladder rated it (`rating`: a row of `GET /api/games`' `ratings`,
 * from docs/bot-ladder.md): "Rated +257 (95%: +217 to +297) above Random over 400 games.", and
 * what choosing it over the level below is worth (`step`: a row of `steps`, measured with the
 * most games): "Over Medium: +24 Elo (95%: +13 to +36, 1000 games), so it wins about 53 games
 * in 100 against Medium: barely stronger."
 */
export function botInfo(kind, rating, step) {
  const k = BOT_KINDS[kind];
  const how = k ? `${k[0]}: ${k[1]}.` : `${kind}: one of this game's bots.`;
  if (!rating || kind === 'random') return how;
  const rated = `${how} Rated ${rating.rating} (95%: ${rating.interval}) above Random over ${rating.games} games.`;
  return step ? `${rated} ${stepWorth(step)}` : rated;
}

/**
 * What a step of the ladder is worth, plainly: its gap, the share of games the stronger level
 * wins against the weaker one (the Elo expectation), and a word for it (+75 Elo, about 60 in
 * 100, is the least the ladder aims for between adjacent levels).
 */
export function stepWorth(step) {
  const gap = Number.parseInt(step.gap, 10);
  const below = botName(step.over);
  const wins = Math.round(100 / (1 + 10 ** (-gap / 400)));
  const low = Number.parseInt(step.interval, 10);
  const word = low <= 0 ? 'not measurably stronger' : gap < 40 ? 'barely stronger' : gap < 75 ? 'a little stronger' : 'clearly stronger';
  return `Over ${below}: ${step.gap} Elo (95%: ${step.interval}, ${step.games} games), so it wins about ${wins} games in 100 against ${below}: ${word}.`;
}

/** A seat's bot badge text: "bot · Medium" (just "bot" when the server did not say). */
export function botBadge(player) {
  return player?.bot ? `bot · ${botName(player.bot)}` : 'bot';
}

/** A rating as people read it: "1523", "1523?" while provisional (docs/rating.md). */
export function ratingText(rating, provisional) {
  return `${rating}${provisional ? '?' : ''}`;
}

/** A seat's rating badge: a person's ("1523", "1523?" while provisional), a bot's level's
 * fixed one ("~1689"); null when the server gave none (an anonymous player). */
export function ratingBadge(player) {
  if (!player || player.rating == null) return null;
  const title = player.isBot ? "The bot level's rating (fixed)" : player.provisional ? 'Rating (provisional: few rated games yet)' : 'Rating';
  return h('span', {
    class: 'badge badge-rating', dataset: { testid: 'player-rating' }, attrs: { title },
    text: player.isBot ? `~${player.rating}` : ratingText(player.rating, player.provisional),
  });
}

// ---- touch screens: a tap reads a card, a second tap (or Play) plays it -----------------------

/**
 * On a touch screen a tap must not play a card the player only wanted to read. Within `root`,
 * a tap (a click that follows a touch or pen pointerdown) on an element matching `selector`
 * (the hand cards) selects it instead: the game is told to describe it (the `mouseenter` a
 * mouse would have sent) and a bar at the bottom of the screen names the card with a **Play**
 * button. A second tap on the selected card, or Play, goes through to the game as the click
 * it always was. Mouse clicks and the keyboard (Enter, Space) act at once, as before.
 * The selection survives the table being redrawn (cards are matched by `data-key`) and ends
 * when the card goes, on a tap elsewhere, or with the bar's ×.
 */
export function tapToRead(root, selector = '[data-testid=hand-card]') {
  let touch = false;
  let chosen = null; // data-key of the selected card
  const label = h('span', { class: 'tap-bar-text', dataset: { testid: 'tap-text' } });
  const play = h('button', { type: 'button', class: 'primary tap-play', text: 'Play', dataset: { testid: 'tap-play' } });
  const close = h('button', { type: 'button', class: 'tap-close', text: '×', attrs: { 'aria-label': 'Keep the card' } });
  const bar = h('div', { class: 'tap-bar', hidden: true, dataset: { testid: 'tap-bar' }, attrs: { role: 'status' } }, label, play, close);
  document.body.appendChild(bar);
  const card = () => (chosen == null ? null : root.querySelector(`${selector}[data-key="${CSS.escape(chosen)}"]`));
  const playable = (el) => el.dataset.playable !== 'false' && el.getAttribute('aria-disabled') !== 'true';
  function unselect() {
    chosen = null;
    bar.hidden = true;
    for (const el of root.querySelectorAll('.is-tapped')) el.classList.remove('is-tapped');
  }
  function mark() {
    const el = card();
    if (!el) { if (chosen != null) unselect(); return; }
    el.classList.add('is-tapped');
    const name = el.dataset.name ?? el.getAttribute('aria-label')?.replace(/ \(cannot .*\)$/, '') ?? el.textContent;
    const can = playable(el);
    label.textContent = can ? `${name}: tap it again, or Play, to play it.` : `${name} cannot be played now.`;
    play.hidden = !can;
    bar.hidden = false;
  }
  root.addEventListener('pointerdown', (e) => { touch = e.pointerType === 'touch' || e.pointerType === 'pen'; }, true);
  root.addEventListener('click', (e) => {
    const wasTouch = touch;
    touch = false;
    if (!wasTouch) return;
    const el = e.target instanceof Element ? e.target.closest(selector) : null;
    if (!el || !root.contains(el)) { unselect(); return; }
    const key = el.dataset.key;
    if (key != null && key === chosen) { unselect(); return; } // the second tap: the game acts
    e.preventDefault();
    e.stopImmediatePropagation();
    unselect();
    chosen = key ?? null;
    el.dispatchEvent(new MouseEvent('mouseenter'));
    mark();
  }, true);
  play.addEventListener('click', () => {
    const el = card();
    unselect();
    el?.click();
  });
  close.addEventListener('click', unselect);
  // The table is redrawn on every update: keep the selection on the card with the same key.
  new MutationObserver(() => { if (chosen != null) mark(); }).observe(root, { childList: true, subtree: true });
  return { unselect, destroy() { unselect(); bar.remove(); } };
}

// ---- a menu that folds into one button on a narrow screen ------------------------------------

/**
 * A list of entries (`items`: elements, each put in its own list item) shown in a row on a wide
 * screen and behind one **Menu** button on a narrow one (the CSS decides: `.menu-toggle` shows
 * under 820 px). The button says whether the list is open (`aria-expanded`); Escape (focus goes
 * back to the button) and a click elsewhere close it. `add(el)` puts in one more entry and
 * returns its list item, so other parts of the page (an account menu) can add theirs.
 */
export function foldingMenu({ id, label, items = [] }) {
  const list = h('ul', { id, class: 'menu-list' });
  const toggle = h('button', {
    type: 'button', class: 'menu-toggle', dataset: { testid: 'menu-toggle' },
    attrs: { 'aria-expanded': 'false', 'aria-controls': id },
  }, h('span', { attrs: { 'aria-hidden': 'true' }, text: '☰' }), ' Menu');
  const nav = h('nav', { class: 'folding-menu', attrs: { 'aria-label': label } }, toggle, list);
  const set = (open) => {
    nav.classList.toggle('is-open', open);
    toggle.setAttribute('aria-expanded', String(open));
  };
  toggle.addEventListener('click', () => set(toggle.getAttribute('aria-expanded') !== 'true'));
  nav.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && nav.classList.contains('is-open')) { set(false); toggle.focus(); }
  });
  document.addEventListener('click', (e) => { if (!nav.contains(e.target)) set(false); });
  const add = (el) => {
    const li = h('li', { class: 'menu-item' }, el);
    list.appendChild(li);
    return li;
  };
  for (const el of items) add(el);
  return { element: nav, add, close: () => set(false) };
}
