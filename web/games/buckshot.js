// The Buckshot table: player cards, the chamber, and (for a seated player) shoot and item
// buttons with their target pickers. Rules: docs/rules/buckshot.md; packets and fields:
// docs/protocol.md. Which buttons are live comes from `legal` in GameDataSync (the server's
// list of this seat's legal actions); targets are chosen among the living players by name.

import { h, replaceChildren, botBadge, ratingBadge } from '/dom.js';

const ITEMS = {
  skip: { name: 'Skip', help: "Skip a player's next turn", packet: 'UseSkipItem' },
  doubleDamage: { name: 'Double Damage', help: 'Your next shot this turn deals 2 if live', packet: 'UseDoubleDamageItem' },
  chamberCheck: { name: 'Chamber Check', help: 'See the next shell (only you)', packet: 'UseChamberCheckItem' },
  rebalancer: { name: 'Rebalancer', help: 'Add 1–3 live or blank shells (before the first shot of a round)', packet: 'UseRebalancerItem' },
  quickshot: { name: 'Quickshot', help: 'Take two shots this turn', packet: 'UseQuickshotItem' },
  steal: { name: 'Steal', help: 'Take an item from a player and use it at once', packet: 'UseStealItem' },
  addLife: { name: 'Add Life', help: 'Gain a life (up to 5)', packet: 'UseAddLifeItem' },
  shootAir: { name: 'Shoot Air', help: 'Fire the next shell into the air; your turn ends', packet: 'UseShootAirItem' },
};
const ITEM_ORDER = Object.keys(ITEMS);
const MAX_LIVES = 5;

function itemName(k) { return ITEMS[k]?.name ?? k; }

/** "1 live shell", "3 blank shells". */
function shellCount(n, kind) { return `${n} ${kind} shell${n === 1 ? '' : 's'}`; }

/** Counts of each item kind, in the fixed order. */
function countItems(items) {
  const c = new Map();
  for (const i of items ?? []) c.set(i, (c.get(i) ?? 0) + 1);
  return ITEM_ORDER.filter((k) => c.has(k)).map((k) => [k, c.get(k)]);
}

/** A seat's final state for the end screen: lives left. */
export function standing(d, player) {
  const lives = player.lives ?? 0;
  return player.inGame === false && lives === 0 ? 'out (no lives)' : `${lives} ${lives === 1 ? 'life' : 'lives'} left`;
}

/** What each item does, as a list a finger can open (the buttons' tooltips need a mouse). */
function itemGuide(open = false) {
  return h('details', { class: 'item-guide card', open, dataset: { testid: 'item-guide' } },
    h('summary', { text: 'What the items do' }),
    h('dl', {}, ITEM_ORDER.map((k) => [h('dt', { text: ITEMS[k].name }), h('dd', { text: ITEMS[k].help })])));
}

export function mount(ctx) {
  let data = null;
  // The item being used, while its target picker is open: {item, step, target?, stolen?}.
  let pending = null;
  let pendingTurn = null;
  let guideOpen = false;

  function act(packet) {
    pending = null;
    ctx.send(packet);
    render(data);
  }

  function render(d) {
    data = d;
    if (!d) return;
    const me = d.players.find((p) => p.username === d.you) ?? null;
    const living = d.players.filter((p) => p.inGame);
    if (d.currentTurn !== pendingTurn) { pending = null; pendingTurn = d.currentTurn; }
    if (!d.gameStarted) pending = null;

    const legal = d.legal ?? [];
    const canShoot = legal.some((a) => a.type === 'shoot');
    const usable = new Set(legal.filter((a) => a.type === 'use').map((a) => a.item.item));
    const stealable = new Set(legal.filter((a) => a.type === 'steal').map((a) => a.item.item));
    if (stealable.size) usable.add('steal');
    // A replay (a finished match, step by step) is read, never played.
    const seated = d.gameStarted && me && me.inGame && !d.replay;

    const parts = [];
    if (d.gameStarted) parts.push(statusBar(d));
    if (d.gameStarted && d.nextShell) {
      parts.push(h('p', { class: 'private-check', dataset: { testid: 'check-result' }, attrs: { role: 'status' } },
        'Only you know: the next shell is ', h('strong', { class: `shell-word word-${d.nextShell}`, text: d.nextShell.toUpperCase() }), '.'));
    }
    parts.push(cards(d, living));
    // People watching are not at the table: named in one line, not drawn as player cards.
    const watchers = d.gameStarted ? d.players.filter((p) => p.isSpectator) : [];
    if (watchers.length) parts.push(h('p', { class: 'watchers hint', dataset: { testid: 'watchers' }, text: `Watching: ${watchers.map((p) => p.username).join(', ')}` }));
    if (seated) parts.push(actions(d, me, living, { canShoot, usable, stealable }));
    else if (d.replay) { /* nothing to do in a replay */ }
    else if (d.gameStarted) {
      parts.push(h('p', { class: 'watching-note', dataset: { testid: 'watching' }, text: me ? (me.lives === 0 && !me.inGame ? 'You are watching this game. You can play in the next one.' : 'You are watching.') : 'You are watching. Join to chat and play in the next game.' }));
    } else {
      const n = d.players.filter((p) => !p.isSpectator).length;
      parts.push(h('p', { class: 'lobby-note', text: n < (d.minPlayers ?? 2) ? `Waiting for players: ${n} of at least ${d.minPlayers ?? 2}.` : d.host === d.you ? 'Ready when you are: start the game.' : `Waiting for ${d.host ?? 'the host'} to start the game.` }));
    }
    if (d.gameStarted && !d.replay) parts.push(itemGuide(guideOpen));
    replaceChildren(ctx.root, h('div', { class: 'buckshot' }, parts));
    const guide = ctx.root.querySelector('.item-guide');
    guide?.addEventListener('toggle', () => { guideOpen = guide.open; });
    if (pending) {
      // Put keyboard focus into the picker that just opened.
      const first = ctx.root.querySelector('.picker button:not([disabled])');
      if (first && !ctx.root.querySelector('.picker').contains(document.activeElement)) first.focus();
    }
  }

  function statusBar(d) {
    const shells = [];
    for (let i = 0; i < d.liveLeft; i++) shells.push(h('span', { class: 'shell shell-live', attrs: { 'aria-hidden': 'true' } }));
    for (let i = 0; i < d.blankLeft; i++) shells.push(h('span', { class: 'shell shell-blank', attrs: { 'aria-hidden': 'true' } }));
    const flags = [];
    if (d.doubleDamage) flags.push(h('span', { class: 'flag flag-dd', text: 'Double damage' }));
    if (d.quickshot === 'armed') flags.push(h('span', { class: 'flag flag-qs', text: 'Quickshot: two shots' }));
    if (d.quickshot === 'second') flags.push(h('span', { class: 'flag flag-qs', text: 'Quickshot: second shot' }));
    if (d.rebalancerWindow) flags.push(h('span', { class: 'flag flag-rb', text: 'Rebalancer window open' }));
    return h('div', { class: 'status card', dataset: { testid: 'status' } },
      h('div', { class: 'status-main' },
        h('span', { class: 'stat' }, 'Round ', h('strong', { text: String(d.round) })),
        h('span', { class: 'stat' }, 'Turn ', h('strong', { text: String(d.turnCount) })),
        h('span', { class: 'stat chamber', dataset: { testid: 'chamber' } },
          h('strong', { class: 'live-count', text: String(d.liveLeft) }), ' live · ',
          h('strong', { class: 'blank-count', text: String(d.blankLeft) }), ' blank')),
      h('div', { class: 'shells', attrs: { role: 'img', 'aria-label': `${shellCount(d.liveLeft, 'live')} and ${shellCount(d.blankLeft, 'blank')} left` } }, shells),
      flags.length ? h('div', { class: 'flags' }, flags) : null);
  }

  function cards(d, living) {
    const list = h('ul', { class: 'pcards', attrs: { 'aria-label': 'Players' } });
    for (const p of d.gameStarted ? d.players.filter((x) => !x.isSpectator) : d.players) {
      const turn = d.gameStarted && d.currentTurn === p.username;
      const next = d.gameStarted && d.nextTurn === p.username && !turn;
      const out = d.gameStarted && !p.inGame;
      const badges = [];
      if (p.username === d.host) badges.push(h('span', { class: 'badge badge-host', title: 'Host', text: '★ host' }));
      if (p.username === d.you) badges.push(h('span', { class: 'badge badge-you', text: 'you' }));
      if (p.isBot) badges.push(h('span', { class: 'badge badge-bot', dataset: { testid: 'bot-level' }, text: botBadge(p) }));
      if (ratingBadge(p)) badges.push(ratingBadge(p));
      if (p.isSpectator) badges.push(h('span', { class: 'badge badge-spec', text: 'spectator' }));
      if (!p.connected) badges.push(h('span', { class: 'badge badge-off', text: 'offline' }));
      if (p.isSkipped) badges.push(h('span', { class: 'badge badge-skip', text: 'skipped next' }));
      const hearts = [];
      const lives = p.lives ?? 0;
      for (let i = 0; i < MAX_LIVES; i++) hearts.push(h('span', { class: i < lives ? 'heart full' : 'heart', attrs: { 'aria-hidden': 'true' }, text: i < lives ? '♥' : '♡' }));
      const items = countItems(p.items).map(([k, n]) =>
        h('li', { class: `chip item-${k}`, title: ITEMS[k]?.help ?? '' }, itemName(k), n > 1 ? h('span', { class: 'chip-n', text: ` ×${n}` }) : null));
      list.appendChild(h('li', {
        class: ['pcard', turn && 'is-turn', next && 'is-next', out && 'is-out', p.username === d.you && 'is-me'].filter(Boolean).join(' '),
        dataset: { player: p.username, lives: String(lives), turn: turn ? 'true' : 'false' },
        attrs: { 'aria-current': turn ? 'true' : false },
      },
      h('div', { class: 'pc-head' },
        h('span', { class: 'pc-name', text: p.username }),
        turn ? h('span', { class: 'pc-turn', text: '▶ turn' }) : next ? h('span', { class: 'pc-next', text: 'next' }) : null),
      badges.length ? h('div', { class: 'badges' }, badges) : null,
      d.gameStarted ? h('div', { class: 'pc-lives' }, hearts,
        h('span', { class: 'sr-only', text: out ? 'not playing' : `${lives} ${lives === 1 ? 'life' : 'lives'}` })) : null,
      d.gameStarted && items.length ? h('ul', { class: 'chips', attrs: { 'aria-label': `${p.username}'s items` } }, items) : null));
    }
    return list;
  }

  function actions(d, me, living, { canShoot, usable, stealable }) {
    const myTurn = d.currentTurn === me.username;
    const title = myTurn
      ? (d.quickshot === 'second' ? 'Your turn: fire your second shot' : 'Your turn')
      : `Waiting for ${d.currentTurn ?? '…'}`;
    const shoot = living.map((p) => {
      const b = h('button', {
        type: 'button', class: p.username === me.username ? 'shoot shoot-self' : 'shoot', disabled: !canShoot,
        dataset: { key: `shoot-${p.username}`, testid: 'shoot', target: p.username },
        text: p.username === me.username ? 'Shoot yourself' : `Shoot ${p.username}`,
      });
      b.addEventListener('click', () => act({ type: 'ShootPlayer', username: p.username }));
      return b;
    });
    const mine = countItems(me.items).map(([k, n]) => {
      const b = h('button', {
        type: 'button', class: `item-btn item-${k}`, disabled: !usable.has(k), title: ITEMS[k]?.help ?? '',
        dataset: { key: `item-${k}`, testid: 'item', item: k },
        attrs: { 'aria-pressed': pending?.item === k ? 'true' : 'false' },
      }, itemName(k), n > 1 ? h('span', { class: 'chip-n', text: ` ×${n}` }) : null);
      b.addEventListener('click', () => useItem(k, me, living, stealable));
      return b;
    });
    return h('section', { class: `actions card dock ${myTurn ? 'my-turn' : ''}`, dataset: { testid: 'actions', myTurn: myTurn ? 'true' : 'false' }, attrs: { 'aria-label': 'Your actions' } },
      h('h2', { class: 'actions-title', text: title, tabIndex: -1, dataset: { focusFallback: '', key: 'actions-title' } }),
      h('div', { class: 'shoot-row', attrs: { role: 'group', 'aria-label': 'Shoot' } }, shoot),
      mine.length ? h('div', { class: 'item-row', attrs: { role: 'group', 'aria-label': 'Your items' } }, mine) : h('p', { class: 'hint', text: 'No items.' }),
      pending ? picker(d, me, living) : null);
  }

  // ---- items and their pickers ----

  function useItem(k, me, living, stealable) {
    const simple = { doubleDamage: 1, chamberCheck: 1, quickshot: 1, addLife: 1, shootAir: 1 };
    if (simple[k]) return act({ type: ITEMS[k].packet });
    if (pending?.item === k) { pending = null; return render(data); }
    pending = { item: k, step: k === 'steal' ? 'from' : k === 'skip' ? 'target' : 'kind' };
    render(data);
  }

  function choice(label, onPick, { key, disabled = false, cls = '' } = {}) {
    const b = h('button', { type: 'button', class: `pick ${cls}`, text: label, disabled, dataset: { key: `pick-${key ?? label}`, testid: 'pick', value: key ?? label } });
    b.addEventListener('click', onPick);
    return b;
  }

  function picker(d, me, living) {
    const others = living.filter((p) => p.username !== me.username);
    const legal = d.legal ?? [];
    const stealKinds = new Set(legal.filter((a) => a.type === 'steal').map((a) => a.item.item));
    let legend = '';
    let options = [];
    const p = pending;
    // Sends the item with its last arguments; `stolen` is the item taken when stealing.
    const send = (extra, stolen = p.stolen) => {
      if (p.item === 'steal') act({ type: 'UseStealItem', target: p.target, item: stolen, ...extra });
      else if (p.item === 'skip') act({ type: 'UseSkipItem', ...extra });
      else act({ type: 'UseRebalancerItem', ...extra });
    };
    const skipTargets = (onPick) => others.map((o) => choice(o.username, () => onPick(o.username), { disabled: o.isSkipped, key: o.username }));
    const kinds = (onPick) => ['live', 'blank'].map((k) => choice(`Add ${k}`, () => onPick(k), { key: k, cls: `kind-${k}` }));
    if (p.item === 'skip') {
      legend = 'Skip whose next turn?';
      options = skipTargets((target) => send({ target }));
    } else if (p.item === 'rebalancer') {
      legend = 'Rebalancer: add which kind of shell?';
      options = kinds((kind) => send({ kind }));
    } else if (p.step === 'from') {
      legend = 'Steal from whom?';
      options = others.map((o) => choice(o.username, () => { pending = { ...p, step: 'item', target: o.username }; render(data); },
        { key: o.username, disabled: !(o.items ?? []).some((i) => stealKinds.has(i)) }));
    } else if (p.step === 'item') {
      legend = `Steal which of ${p.target}'s items? (used at once)`;
      const victim = d.players.find((x) => x.username === p.target);
      options = countItems(victim?.items).filter(([k]) => k !== 'steal').map(([k]) => choice(itemName(k), () => {
        if (k === 'skip') { pending = { ...p, step: 'itemTarget', stolen: k }; render(data); }
        else if (k === 'rebalancer') { pending = { ...p, step: 'itemKind', stolen: k }; render(data); }
        else send({}, k);
      }, { key: k, disabled: !stealKinds.has(k) }));
    } else if (p.step === 'itemTarget') {
      legend = `Stolen Skip: skip whose next turn?`;
      options = skipTargets((itemTarget) => send({ itemTarget }));
    } else if (p.step === 'itemKind') {
      legend = 'Stolen Rebalancer: add which kind of shell?';
      options = kinds((kind) => send({ kind }));
    }
    const cancel = h('button', { type: 'button', class: 'pick-cancel', text: 'Cancel', dataset: { key: 'pick-cancel' } });
    cancel.addEventListener('click', () => { pending = null; render(data); });
    const box = h('fieldset', { class: 'picker', dataset: { testid: 'picker' } }, h('legend', { text: legend }), h('div', { class: 'pick-row' }, options, cancel));
    box.addEventListener('keydown', (e) => { if (e.key === 'Escape') { pending = null; render(data); } });
    return box;
  }

  // ---- the event log ----

  function packet(m) {
    const you = data?.you;
    const who = (n) => (n === you ? 'you' : n);
    const Who = (n) => (n === you ? 'You' : n);
    switch (m.type) {
      case 'RoundStarted':
        return { text: `Round ${m.round}: ${shellCount(m.live, 'live')} and ${shellCount(m.blank, 'blank')} loaded. Items dealt.`, cls: 'log-big' };
      case 'ShootPlayer': {
        const self = m.username === m.by;
        const target = self ? (m.by === you ? 'yourself' : 'themself') : who(m.username);
        const result = m.shell === 'live' ? `LIVE — ${m.damage} damage` : 'blank';
        return { text: `${Who(m.by)} shot ${target}: ${result}.`, cls: m.shell === 'live' ? 'log-live' : 'log-blank' };
      }
      case 'UseSkipItem': return `${Who(m.by)} used Skip on ${who(m.target)}.`;
      case 'UseDoubleDamageItem': return `${Who(m.by)} used Double Damage.`;
      case 'UseChamberCheckItem': return `${Who(m.by)} checked the chamber.`;
      case 'UseChamberCheckResult':
        return { text: `Only you see this: the next shell is ${m.shell.toUpperCase()}.`, private: true, cls: 'log-private' };
      case 'UseRebalancerItem':
        return `${Who(m.by)} added ${m.added} ${m.kind} shell${m.added === 1 ? '' : 's'} (now ${m.live} live, ${m.blank} blank).`;
      case 'UseQuickshotItem': return `${Who(m.by)} used Quickshot: two shots this turn.`;
      case 'UseStealItem': return `${Who(m.by)} stole ${itemName(m.item)} from ${who(m.target)}.`;
      case 'UseAddLifeItem': return `${Who(m.by)} gained a life (${m.lives}).`;
      case 'UseShootAirItem': return { text: `${Who(m.by)} fired into the air: ${m.shell}.`, cls: m.shell === 'live' ? 'log-live' : 'log-blank' };
      case 'TurnSkipped': return `${Who(m.username)} ${m.username === you ? 'are' : 'is'} skipped.`;
      case 'PlayerEliminated':
        return { text: m.by ? `${Who(m.username)} ${m.username === you ? 'were' : 'was'} eliminated by ${who(m.by)}.` : `${Who(m.username)} ${m.username === you ? 'are' : 'is'} out.`, cls: 'log-big' };
      case 'GameEvent': return JSON.stringify(m.event);
      default: return null;
    }
  }

  return { render, packet };
}
