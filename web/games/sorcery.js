// The Sorcery table, laid out like the terminal board: each side has its ritual, its player
// card (name, life, magic, hand and deck sizes) and its graveyard on the outer row and its five
// minion slots on the inner row; the viewer's hand is below. Two uses:
//
// - `mount(ctx)`: a room. A seated player plays with clicks: a hand card plays at once or asks
//   for a target; a minion of theirs opens Attack / Use ability / Inspect; a target is picked
//   by clicking a highlighted minion, ritual or player. What is offered comes from `legal` in
//   GameDataSync (the server's list of this seat's legal engine actions), and each click sends
//   one of those actions as `{"type":"Act","action":...}`. Spectators see both boards, no hands.
// - `watch(root, socketPath)`: the read-only live view of a terminal game (`cardtable sorcery
//   -graphics`), fed a snapshot over a WebSocket after every command.
//
// Everything is built with DOM APIs (`h`): names and card texts are always text, never markup.

import { h, replaceChildren, botBadge, ratingBadge } from '/dom.js';

const BOARD_SIZE = 5;

// ---- small helpers ----------------------------------------------------------------------------

function def(cards, id) {
  return cards?.[id] ?? { name: id, kind: '?', cost: 0, text: '', attack: 0, defence: 0, abilityCost: null, targets: 'none', modifier: null };
}

function seatOf(viewer) {
  return viewer && viewer.type === 'Seat' ? viewer.seat : null;
}

function targetKey(t) {
  if (!t) return 'none';
  return t.type === 'Ritual' ? `r${t.player}` : `m${t.player}.${t.index}`;
}

/** The target-picking keys of a legal action: 'face' (the opponent), 'm<seat>.<index>', 'r<seat>'. */
function pickKey(a, me) {
  if (a.type === 'Attack') return a.target === null || a.target === undefined ? 'face' : `m${1 - me}.${a.target}`;
  return targetKey(a.target);
}

function plural(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

// ---- the table ---------------------------------------------------------------------------------

/**
 * Builds the table. `t`: `{names, view, cards, legal, me, handOf, top, readOnly, interactive}`;
 * `ui`: the click state and callbacks (`pending`, `menu`, `inspect`, `onHand(i)`,
 * `onMinion(seat, i)`, `onTarget(key)`, `onMenu(action)`, `onCancel()`, `onEnd()`).
 */
function table(t, ui) {
  const { view, cards, names } = t;
  const bottom = 1 - t.top;
  const targets = ui.pending ? new Set(ui.pending.options.map((a) => pickKey(a, t.me))) : new Set();
  const name = (s) => names[s] || `Player ${s + 1}`;

  function minionCard(s, i, m) {
    const d = def(cards, m.card.id);
    const key = `m${s}.${i}`;
    const mine = t.interactive && s === t.me;
    const isTarget = targets.has(key);
    const selected = (ui.menu && ui.menu.seat === s && ui.menu.index === i) || (ui.pending && ui.pending.source === key);
    const el = cardFace(cards, {
      id: m.card.id, attack: m.attack, defence: m.defence, abilityCost: m.abilityCost ?? m.ability_cost ?? d.abilityCost,
    }, {
      tag: 'button',
      cls: ['so-minion', isTarget && 'is-target', selected && 'is-selected', m.silenced && 'is-silenced', mine && m.actions > 0 && 'can-act'].filter(Boolean).join(' '),
      dataset: { testid: 'minion', seat: String(s), index: String(i), card: m.card.id, key: `minion-${s}-${i}` },
      label: `${name(s)}'s ${d.name}, ${m.attack}/${m.defence}${m.enchantments.length ? `, ${plural(m.enchantments.length, 'enchantment', 'enchantments')}` : ''}${isTarget ? ' (target)' : ''}`,
      extra: [
        m.enchantments.length ? h('span', { class: 'so-ench', attrs: { 'aria-hidden': 'true' } },
          m.enchantments.slice(-3).map((e) => h('span', { class: 'so-ench-chip', text: def(cards, e).name })),
          m.enchantments.length > 3 ? h('span', { class: 'so-ench-chip', text: `+${m.enchantments.length - 3}` }) : null) : null,
        h('span', { class: 'so-actions', title: `${plural(m.actions, 'action', 'actions')} left`, attrs: { 'aria-hidden': 'true' } },
          Array.from({ length: m.actions }, () => h('span', { class: 'so-dot' }))),
      ],
    });
    el.addEventListener('click', () => (isTarget ? ui.onTarget(key) : ui.onMinion(s, i)));
    return el;
  }

  function minionRow(s) {
    const board = view.players[s].board;
    const slots = [];
    for (let i = 0; i < BOARD_SIZE; i++) {
      slots.push(board[i] ? minionCard(s, i, board[i]) : h('span', { class: 'so-slot', attrs: { 'aria-hidden': 'true' } }));
    }
    return h('div', { class: 'so-row so-minions', attrs: { role: 'group', 'aria-label': `${name(s)}'s minions` } }, slots);
  }

  function ritualSlot(s) {
    const r = view.players[s].ritual;
    if (!r) return h('span', { class: 'so-slot so-slot-ritual', dataset: { testid: 'ritual', seat: String(s) } }, h('span', { class: 'so-slot-label', text: 'No ritual' }));
    const key = `r${s}`;
    const isTarget = targets.has(key);
    const el = cardFace(cards, { id: r.id, charges: r.charges }, {
      tag: isTarget ? 'button' : 'span',
      cls: `so-ritual ${isTarget ? 'is-target' : ''}`,
      dataset: { testid: 'ritual', seat: String(s), card: r.id, key: `ritual-${s}` },
      label: `${name(s)}'s ritual ${def(cards, r.id).name}, ${plural(r.charges, 'charge', 'charges')}${isTarget ? ' (target)' : ''}`,
    });
    if (isTarget) el.addEventListener('click', () => ui.onTarget(key));
    return el;
  }

  function playerCard(s) {
    const p = view.players[s];
    const active = view.status.type === 'Playing' && view.active === s;
    const won = view.status.type === 'Won' && view.status.winner === s;
    const isTarget = s !== t.me && targets.has('face');
    const el = h(isTarget ? 'button' : 'div', {
      type: isTarget ? 'button' : undefined,
      class: ['so-player', active && 'is-active', won && 'is-winner', isTarget && 'is-target', s === t.me && 'is-me'].filter(Boolean).join(' '),
      dataset: { testid: 'player', seat: String(s), life: String(p.life), magic: String(p.magic), key: `player-${s}` },
      attrs: { 'aria-label': isTarget ? `Attack ${name(s)} (${p.life} life)` : null },
    },
    h('span', { class: 'so-pname' }, h('span', { class: 'so-pnum', text: `P${s + 1}` }), ' ', h('span', { class: 'so-pname-text', text: name(s) }),
      s === t.me ? h('span', { class: 'so-you', text: ' (you)' }) : null),
    t.bots?.[s] ? h('span', { class: 'so-bot', dataset: { testid: 'bot-level' }, text: botBadge(t.bots[s]) }) : null,
    h('span', { class: 'so-pstats' },
      h('span', { class: 'so-life', title: 'Life' }, h('span', { class: 'sr-only', text: 'Life ' }), h('span', { class: 'so-icon', attrs: { 'aria-hidden': 'true' }, text: '♥' }), h('strong', { dataset: { testid: 'life' }, text: String(p.life) })),
      h('span', { class: 'so-magic', title: 'Magic' }, h('span', { class: 'sr-only', text: 'Magic ' }), h('span', { class: 'so-icon', attrs: { 'aria-hidden': 'true' }, text: '✦' }), h('strong', { dataset: { testid: 'magic' }, text: String(p.magic) }))),
    h('span', { class: 'so-pcounts' },
      h('span', { dataset: { testid: 'hand-count' }, text: `Hand ${p.hand_size}` }), ' · ', h('span', { text: `Deck ${p.deck_size}` })),
    // The mark sits in the card's corner (the words stay for screen readers).
    active ? h('span', { class: 'so-turn', title: 'to play' }, h('span', { attrs: { 'aria-hidden': 'true' }, text: '▶' }), h('span', { class: 'sr-only', text: ' to play' }))
      : won ? h('span', { class: 'so-turn', title: 'winner' }, h('span', { attrs: { 'aria-hidden': 'true' }, text: '★' }), h('span', { class: 'sr-only', text: ' winner' })) : null);
    if (isTarget) el.addEventListener('click', () => ui.onTarget('face'));
    return el;
  }

  function graveyard(s) {
    const g = view.players[s].graveyard;
    if (!g.length) return h('span', { class: 'so-slot so-slot-grave', dataset: { testid: 'graveyard', seat: String(s), count: '0' } }, h('span', { class: 'so-slot-label', text: 'Graveyard empty' }));
    const top = g[g.length - 1];
    return h('div', { class: 'so-grave', dataset: { testid: 'graveyard', seat: String(s), count: String(g.length) } },
      cardFace(cards, { id: top.id, attack: top.attack, defence: top.defence }, { cls: 'so-grave-top', label: `${name(s)}'s graveyard: ${plural(g.length, 'card', 'cards')}, top ${def(cards, top.id).name}` }),
      h('span', { class: 'so-grave-count', text: `Graveyard · ${g.length}`, title: g.slice().reverse().map((c) => `${def(cards, c.id).name} ${c.attack}/${c.defence}`).join('\n') }));
  }

  function backRow(s) {
    return h('div', { class: 'so-row so-back' }, ritualSlot(s), h('span', { class: 'so-gap' }), playerCard(s), h('span', { class: 'so-gap' }), graveyard(s));
  }

  const side = (s, where) => h('section', {
    class: `so-side so-${where} ${view.active === s && view.status.type === 'Playing' ? 'is-active' : ''}`,
    dataset: { testid: 'side', seat: String(s) },
    attrs: { 'aria-label': `${name(s)} (player ${s + 1})` },
  }, where === 'top' ? [backRow(s), minionRow(s)] : [minionRow(s), backRow(s)]);

  const parts = [statusBar(t, ui, name)];
  parts.push(h('div', { class: 'so-board' }, side(t.top, 'top'), h('div', { class: 'so-centre', attrs: { 'aria-hidden': 'true' } }, h('span', { text: 'Sorcery' })), side(bottom, 'bottom')));
  // The prompt and the hand stay in sight at the bottom of the screen (a "dock"), however
  // far the board reaches below the fold.
  parts.push(h('div', { class: 'dock', dataset: { testid: 'dock' } },
    ui.pending ? prompt(t, ui) : null,
    ui.menu ? minionMenu(t, ui, name) : null,
    handSection(t, ui, name, targets)));
  if (ui.inspect) {
    const m = view.players[ui.inspect.seat]?.board[ui.inspect.index];
    if (m) parts.push(inspectPanel(t, ui, m, name(ui.inspect.seat)));
  }
  return h('div', { class: 'sorcery', dataset: { testid: 'sorcery' } }, parts);
}

function statusBar(t, ui, name) {
  const { view } = t;
  let text;
  if (view.status.type === 'Won') text = view.status.winner === t.me ? 'You win!' : `${name(view.status.winner)} wins!`;
  else if (view.status.type === 'Drawn') text = 'The game is drawn.';
  else if (t.interactive && view.active === t.me) text = `Turn ${view.turn}: your turn`;
  else text = `Turn ${view.turn}: ${name(view.active)} to play`;
  // End turn is in the dock, by the hand: in sight however far the board is scrolled.
  return h('div', { class: 'so-status', dataset: { testid: 'status' } },
    h('strong', { class: 'so-status-text', dataset: { testid: 'status-text' }, text }),
    t.hint ? h('span', { class: 'hint', text: t.hint }) : null);
}

function prompt(t, ui) {
  const cancel = h('button', { type: 'button', text: 'Cancel', dataset: { testid: 'cancel', key: 'cancel' } });
  cancel.addEventListener('click', () => ui.onCancel());
  const ex = ui.pending.kind === 'attack' ? 'Attack with' : ui.pending.kind === 'use' ? 'Ability of' : 'Play';
  return h('div', { class: 'so-prompt', dataset: { testid: 'prompt' }, attrs: { role: 'status' } },
    h('span', { text: `${ex} ${ui.pending.label}: click a highlighted ${ui.pending.kind === 'attack' ? 'minion or the opponent' : 'target'}.` }), cancel);
}

function minionMenu(t, ui, name) {
  const { seat, index } = ui.menu;
  const m = t.view.players[seat].board[index];
  if (!m) return null;
  const d = def(t.cards, m.card.id);
  const mine = t.interactive && seat === t.me;
  const attacks = mine ? t.legal.filter((a) => a.type === 'Attack' && a.minion === index) : [];
  const uses = mine ? t.legal.filter((a) => a.type === 'Use' && a.minion === index) : [];
  const b = (text, testid, on, disabled = false) => {
    const el = h('button', { type: 'button', text, disabled, dataset: { testid, key: `menu-${testid}` } });
    el.addEventListener('click', on);
    return el;
  };
  const items = [];
  if (mine) {
    items.push(b('Attack', 'menu-attack', () => ui.onMenu('attack', attacks), !attacks.length));
    if (d.abilityCost !== null && d.abilityCost !== undefined) {
      items.push(b(`Use ability (${m.ability_cost ?? d.abilityCost} magic)`, 'menu-use', () => ui.onMenu('use', uses), !uses.length));
    }
  }
  items.push(b('Inspect', 'menu-inspect', () => ui.onMenu('inspect', [])));
  items.push(b('Close', 'menu-close', () => ui.onCancel()));
  return h('div', { class: 'so-menu', dataset: { testid: 'minion-menu' }, attrs: { role: 'group', 'aria-label': `${name(seat)}'s ${d.name}` } },
    h('span', { class: 'so-menu-title', text: `${d.name} (${m.attack}/${m.defence}, ${plural(m.actions, 'action', 'actions')} left)` }), items);
}

function handSection(t, ui, name, targets) {
  const { view, cards } = t;
  const seat = t.handOf;
  const hand = seat === null || seat === undefined ? null : view.players[seat]?.hand;
  if (!hand) {
    return h('section', { class: 'so-hand so-hand-none', dataset: { testid: 'hand' } },
      h('p', { class: 'hint', text: t.me === null ? 'Spectators see no hands: each player\'s hand size is on their card.' : '' }));
  }
  const end = t.interactive && t.legal.some((a) => a.type === 'End')
    ? h('button', { type: 'button', class: 'primary so-end', text: 'End turn', dataset: { testid: 'end-turn', key: 'end-turn' } })
    : null;
  end?.addEventListener('click', () => ui.onEnd());
  // The hand folds away to a line (the board behind it shows), and opens again.
  const fold = t.interactive
    ? h('button', { type: 'button', class: 'so-fold', text: ui.collapsed ? 'Show hand' : 'Hide', dataset: { testid: 'hand-fold', key: 'hand-fold' }, attrs: { 'aria-expanded': ui.collapsed ? 'false' : 'true' } })
    : null;
  fold?.addEventListener('click', () => ui.onFold());
  const playable = new Set(t.legal.filter((a) => a.type === 'Play').map((a) => a.card));
  const title = t.interactive ? 'Your hand' : `${name(seat)}'s hand`;
  const list = hand.map((c, i) => {
    const d = def(cards, c.id);
    const canPlay = t.interactive && playable.has(i);
    const selected = ui.pending?.source === `h${i}`;
    const el = cardFace(cards, { id: c.id, attack: c.attack, defence: c.defence }, {
      tag: t.interactive ? 'button' : 'span',
      cls: ['so-hand-card', canPlay && 'can-play', t.interactive && !canPlay && 'is-dim', selected && 'is-selected'].filter(Boolean).join(' '),
      dataset: { testid: 'hand-card', index: String(i), card: c.id, key: `hand-${i}-${c.id}`, playable: canPlay ? 'true' : 'false' },
      label: `${d.name}, ${d.kind}, costs ${d.cost}${canPlay ? '' : t.interactive ? ' (cannot be played now)' : ''}`,
      number: i + 1,
    });
    if (t.interactive) el.addEventListener('click', () => ui.onHand(i));
    return el;
  });
  const folded = t.interactive && ui.collapsed;
  return h('section', { class: `so-hand ${folded ? 'is-folded' : ''}`, dataset: { testid: 'hand', seat: String(seat) }, attrs: { 'aria-label': title } },
    h('div', { class: 'so-hand-head' },
      h('h2', { class: 'so-hand-title', text: `${title} · ${plural(hand.length, 'card', 'cards')}` }), fold, end),
    folded ? null : h('div', { class: 'so-row so-hand-row' }, list));
}

function inspectPanel(t, ui, m, owner) {
  const close = h('button', { type: 'button', text: 'Close', dataset: { testid: 'inspect-close', key: 'inspect-close' } });
  close.addEventListener('click', () => ui.onCloseInspect());
  const d = def(t.cards, m.card.id);
  return h('section', { class: 'so-inspect', dataset: { testid: 'inspect' }, attrs: { 'aria-label': `Inspecting ${owner}'s ${d.name}` } },
    h('div', { class: 'row-between' }, h('h2', { text: `${owner}'s ${d.name}` }), close),
    h('div', { class: 'so-row so-inspect-row' },
      cardFace(t.cards, { id: m.card.id, attack: m.attack, defence: m.defence, abilityCost: m.ability_cost }, { cls: 'so-inspect-minion' }),
      m.enchantments.map((e) => cardFace(t.cards, { id: e }, { cls: 'so-inspect-ench' }))),
    h('p', { class: 'hint', text: m.enchantments.length ? `Enchantments, oldest first: ${m.enchantments.map((e) => def(t.cards, e).name).join(', ')}. Its own values: ${m.card.attack}/${m.card.defence}.` : 'No enchantments.' }),
    m.silenced ? h('p', { class: 'hint', text: 'Silenced: it cannot use abilities.' }) : null);
}

/**
 * One card, as the text cards are laid out: name and cost, type, the ability-cost box and
 * text, then attack and defence (minions), the modifiers (enchantments), or activation cost
 * and charges (rituals).
 */
function cardFace(cards, f, { tag = 'span', cls = '', dataset = {}, label = null, extra = [], number = null } = {}) {
  const d = def(cards, f.id);
  const kind = String(d.kind).toLowerCase();
  // Outside the board a minion shows its printed ability cost.
  if (f.abilityCost === undefined) f = { ...f, abilityCost: d.abilityCost };
  const body = [];
  if (kind === 'minion' && f.abilityCost !== null && f.abilityCost !== undefined) {
    body.push(h('span', { class: 'so-abcost', title: 'Ability cost', text: String(f.abilityCost) }));
  }
  if (kind === 'ritual') body.push(h('span', { class: 'so-abcost', title: 'Activation cost', text: String(d.activationCost) }));
  body.push(h('span', { class: 'so-text-body', text: d.text }));
  let bottom = null;
  if (kind === 'minion') {
    bottom = h('span', { class: 'so-stats' }, h('span', { class: 'so-atk', title: 'Attack', text: String(f.attack ?? d.attack) }), h('span', { class: 'so-def', title: 'Defence', text: String(f.defence ?? d.defence) }));
  } else if (kind === 'enchantment' && d.modifier) {
    bottom = h('span', { class: 'so-stats' }, h('span', { class: 'so-atk', text: d.modifier[0] }), h('span', { class: 'so-def', text: d.modifier[1] }));
  } else if (kind === 'ritual') {
    bottom = h('span', { class: 'so-stats' }, h('span'), h('span', { class: 'so-def so-charges', title: 'Charges', text: String(f.charges ?? d.charges) }));
  }
  // A button is named by what it shows, after what the eye gets from where it lies (whose it
  // is, "(target)"): the label goes first as hidden text, not over the visible text.
  const button = tag === 'button';
  return h(tag, {
    type: button ? 'button' : undefined,
    class: `so-card kind-${kind} ${cls}`,
    dataset: button && label ? { ...dataset, name: d.name } : dataset,
    attrs: { 'aria-label': button ? null : label },
  },
  button && label ? h('span', { class: 'sr-only', text: `${label}: ` }) : null,
  h('span', { class: 'so-card-head' },
    number !== null ? h('span', { class: 'so-num', attrs: { 'aria-hidden': 'true' }, text: String(number) }) : null,
    h('span', { class: 'so-name', text: d.name }), h('span', { class: 'so-cost', title: 'Cost', text: String(d.cost) })),
  h('span', { class: 'so-type', text: d.kind }),
  h('span', { class: 'so-text' }, body),
  bottom, extra);
}

// ---- a room -------------------------------------------------------------------------------------

/** A seat's final state for the end screen: life left, and cards. */
export function standing(d, player) {
  const s = (d?.seats ?? []).indexOf(player.username);
  const p = d?.view?.players?.[s];
  if (!p) return '';
  return `${p.life} life · ${plural(p.board.length, 'minion', 'minions')} · ${p.deck_size} in deck`;
}

export function mount(ctx) {
  let data = null;
  // Click state: `pending` (a play, attack or ability waiting for its target: {kind, source,
  // label, options}), `menu` (the minion whose actions are shown: {seat, index}), `inspect`.
  const ui = { pending: null, menu: null, inspect: null, collapsed: false };
  let lastTurn = null;

  function me() { return typeof data?.yourSeat === 'number' ? data.yourSeat : null; }

  function send(action) {
    ui.pending = null;
    ui.menu = null;
    ctx.send({ type: 'Act', action });
    render(data);
  }

  function start(kind, source, label, options) {
    const untargeted = options.filter((a) => !a.target && a.type !== 'Attack');
    if (options.length === 1 && untargeted.length === 1) return send(options[0]);
    ui.pending = { kind, source, label, options };
    ui.menu = null;
    render(data);
  }

  Object.assign(ui, {
    onHand(i) {
      const options = (data.legal ?? []).filter((a) => a.type === 'Play' && a.card === i);
      const c = data.view.players[me()].hand[i];
      const d = def(data.cards, c.id);
      if (!options.length) {
        const p = data.view.players[me()];
        const why = data.view.active !== me() ? 'it is not your turn'
          : d.cost > p.magic ? `it costs ${d.cost} magic and you have ${p.magic}`
            : d.kind === 'Minion' ? 'your board is full' : 'it has no target now';
        ctx.alert(`You cannot play ${d.name}: ${why}.`, 'info');
        return;
      }
      if (ui.pending?.source === `h${i}`) { ui.pending = null; render(data); return; }
      start('play', `h${i}`, d.name, options);
    },
    onMinion(seat, i) {
      ui.pending = null;
      ui.menu = ui.menu && ui.menu.seat === seat && ui.menu.index === i ? null : { seat, index: i };
      render(data);
    },
    onMenu(what, options) {
      const { seat, index } = ui.menu;
      const m = data.view.players[seat].board[index];
      const d = def(data.cards, m.card.id);
      if (what === 'inspect') { ui.inspect = { seat, index }; ui.menu = null; render(data); return; }
      if (what === 'attack') { ui.pending = { kind: 'attack', source: `m${seat}.${index}`, label: d.name, options }; ui.menu = null; render(data); return; }
      start('use', `m${seat}.${index}`, d.name, options);
    },
    onTarget(key) {
      const a = ui.pending?.options.find((o) => pickKey(o, me()) === key);
      if (a) send(a);
    },
    onCancel() { ui.pending = null; ui.menu = null; render(data); },
    onCloseInspect() { ui.inspect = null; render(data); },
    onEnd() { send({ type: 'End' }); },
    onFold() { ui.collapsed = !ui.collapsed; render(data); },
  });

  function render(d) {
    data = d;
    if (!d) return;
    if (!d.gameStarted || !d.view) {
      ui.pending = null; ui.menu = null; ui.inspect = null;
      replaceChildren(ctx.root, lobby(d));
      return;
    }
    const view = d.view;
    const mySeat = me();
    const legal = d.legal ?? [];
    // A new turn, or a choice that is no longer legal, closes pickers and menus.
    const turnKey = `${view.turn}/${view.active}`;
    if (turnKey !== lastTurn) { ui.pending = null; ui.menu = null; lastTurn = turnKey; }
    if (ui.pending) {
      const still = ui.pending.options.filter((o) => legal.some((l) => JSON.stringify(l) === JSON.stringify(o)));
      ui.pending = still.length ? { ...ui.pending, options: still } : null;
    }
    if (ui.menu && !view.players[ui.menu.seat]?.board[ui.menu.index]) ui.menu = null;
    if (ui.inspect && !view.players[ui.inspect.seat]?.board[ui.inspect.index]) ui.inspect = null;
    // A replay (a finished match, step by step) is read, never played.
    const interactive = mySeat !== null && view.status.type === 'Playing' && !d.replay;
    const bots = (d.seats ?? []).map((n) => d.players?.find((p) => p.username === n && p.isBot) ?? null);
    const t = {
      names: d.seats ?? [],
      bots,
      view,
      cards: d.cards,
      legal: interactive ? legal : [],
      me: mySeat,
      handOf: mySeat,
      top: mySeat === null ? 0 : 1 - mySeat,
      interactive,
      hint: interactive && view.active === mySeat && !ui.pending && !ui.menu ? 'Play a card from your hand, or pick one of your minions to attack, use its ability or inspect it.' : null,
    };
    replaceChildren(ctx.root, table(t, ui));
    if (ui.pending || ui.menu) {
      const first = ctx.root.querySelector('.so-menu button:not([disabled]), .is-target');
      if (first && !ctx.root.querySelector('.sorcery').contains(document.activeElement)) first.focus();
    }
  }

  function lobby(d) {
    const seated = (d.players ?? []).filter((p) => !p.isSpectator);
    const list = h('ul', { class: 'so-lobby-list' }, seated.map((p) => h('li', {},
      h('strong', { text: p.username }), p.username === d.host ? ' ★ host' : '',
      p.isBot ? h('span', { class: 'badge badge-bot', dataset: { testid: 'bot-level' }, text: botBadge(p) }) : null, ratingBadge(p), p.username === d.you ? ' (you)' : '')));
    const note = seated.length < 2
      ? (d.host === d.you ? 'Sorcery is for two: share the link, or add a bot in the host controls.' : 'Waiting for a second player.')
      : d.host === d.you ? 'Ready when you are: start the game.' : `Waiting for ${d.host ?? 'the host'} to start the game.`;
    return h('div', { class: 'sorcery so-lobby card' },
      h('h2', { text: 'Sorcery' }),
      h('p', { class: 'hint', text: 'Two players, 20 life each, the default deck. Play minions, spells, enchantments and rituals; bring the other player to 0 life.' }),
      list, h('p', { class: 'lobby-note', text: note }));
  }

  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && (ui.pending || ui.menu)) { ui.pending = null; ui.menu = null; render(data); }
  });

  function packet(msg) {
    if (msg.type !== 'GameEvent') return null;
    const e = msg.event ?? {};
    if (!e.text) return null;
    const mine = me();
    if (e.type === 'CardDrawn' && e.card && e.player === mine) return { text: e.text, private: true };
    if (e.type === 'TurnStarted') return { text: e.text, cls: e.player === mine ? 'log-you' : 'log-turn' };
    if (e.type === 'MinionDied' || e.type === 'AttackedPlayer') return { text: e.text, cls: 'log-live' };
    return e.text;
  }

  return { render, packet };
}

// ---- the terminal's live view (-graphics) -------------------------------------------------------

/** Follows a terminal game: every snapshot the binary pushes redraws the table (read-only). */
export function watch(root, socketPath) {
  const status = document.getElementById('conn-status');
  const setStatus = (text, state) => { if (status) { status.textContent = text; status.dataset.state = state; } };
  const ui = {
    pending: null, menu: null, inspect: null,
    onHand() {}, onTarget() {}, onCancel() {}, onEnd() {}, onMenu() {},
    onMinion(seat, index) { ui.inspect = ui.inspect && ui.inspect.seat === seat && ui.inspect.index === index ? null : { seat, index }; draw(); },
    onCloseInspect() { ui.inspect = null; draw(); },
  };
  let snap = null;
  let ended = false;
  document.title = 'Sorcery · live from the terminal · cardtable';

  function draw() {
    if (!snap || !snap.view) {
      replaceChildren(root, h('p', { class: 'hint', text: 'Waiting for the game…' }));
      return;
    }
    if (ui.inspect && !snap.view.players[ui.inspect.seat]?.board[ui.inspect.index]) ui.inspect = null;
    const names = snap.names.map((n, i) => n || (snap.bots[i] ? 'Bot' : `Player ${i + 1}`));
    const t = {
      names, view: snap.view, cards: snap.cards, legal: [], me: null, handOf: snap.handOf, top: 0, interactive: false,
      hint: !snap.named ? 'Waiting for the players\' names in the terminal…' : snap.over ? 'The terminal game is over.' : 'Type commands in the terminal; this page follows them.',
    };
    const log = h('ol', { class: 'so-log', dataset: { testid: 'terminal-log' } }, (snap.log ?? []).map((l) => h('li', { class: l.startsWith('> ') ? 'so-log-cmd' : '', text: l })));
    replaceChildren(root, h('div', { class: 'so-watch', dataset: { testid: 'watch', seq: String(snap.seq ?? 0) } },
      h('header', { class: 'room-head' }, h('h1', { text: 'Sorcery' }), h('span', { class: 'room-code', text: 'live view of the terminal game (read-only)' })),
      h('div', { class: 'room-grid' },
        h('section', { class: 'table', attrs: { 'aria-label': 'Table' } }, table(t, ui)),
        h('aside', { class: 'side' }, h('section', { class: 'card', attrs: { 'aria-labelledby': 'term-h' } }, h('h2', { id: 'term-h', text: 'Terminal' }), log)))));
    const el = root.querySelector('.so-log');
    if (el) el.scrollTop = el.scrollHeight;
  }

  function connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}${socketPath}`);
    setStatus('connecting…', 'connecting');
    ws.addEventListener('open', () => setStatus('live', 'open'));
    ws.addEventListener('message', (e) => {
      try { snap = JSON.parse(e.data); } catch { return; }
      document.body.dataset.sync = String(snap.seq ?? 0);
      if (snap.over) ended = true;
      draw();
    });
    ws.addEventListener('close', () => {
      setStatus(ended ? 'the terminal game has ended' : 'disconnected — retrying…', 'closed');
      if (!ended) setTimeout(connect, 1500);
    });
  }
  draw();
  connect();
}
