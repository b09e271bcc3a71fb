// The Wolf Pack table (rules: docs/rules/wolfpack.md, protocol: docs/protocol.md "Wolf Pack"):
// the Ace and every pilot with a health bar and effect badges (Suppression countdown, Dodge
// Roll ready, Pulling G's, Into the Fog, Cover Fire) and who has confirmed (never what), your
// hand as readable cards, target picking (choose a card, then one of the target buttons the
// legal actions allow), a confirm button and the host's proceed button.
//
// Everything comes from GameDataSync: `view` (the engine's view for this viewer), `legal`
// (this seat's legal actions, sent back as {type:"Act", action}) and `seats` (names by seat).
// Log lines are the `text` of each GameEvent. Nothing a player typed is inserted as HTML.

import { h, replaceChildren } from '/dom.js';

// card → [name, text]
const CARDS = {
  OpenFire: ['Open Fire', '5 damage to target.'],
  Sidewinder: ['Sidewinder', '5 damage to target; cannot be negated (Dodge Roll does not stop it).'],
  DodgeRoll: ['Dodge Roll', 'Target: negate the damage of the next Open Fire or Sweeping Fire that targets it during the next opposing turn.'],
  Suppression: ['Suppression', 'Target takes 2 damage on each of its next 4 actions; expires after 2 of its turns.'],
  PullingGs: ["Pulling G's", 'Target cannot target you on its next turn.'],
  MidAirRegroup: ['Mid-Air Regroup', 'Target pilot heals 10, up to 50.'],
  CoverFire: ['Cover Fire', 'The Ace plays one card fewer on its next turn.'],
  IntoTheFog: ['Into the Fog', "On the pilots' next turn pilots cannot target each other."],
  AirToAirBarrage: ['Air-to-Air Barrage', '10 damage to target pilot.'],
  SweepingFire: ['Sweeping Fire', '5 damage to each pilot (not one protected by Pulling G\'s).'],
};
const cardName = (c) => CARDS[c]?.[0] ?? String(c);
const cardText = (c) => CARDS[c]?.[1] ?? '';

const PHASES = {
  Draw: 'Pilots draw', Selection: 'Pilots choose their cards', Action: 'Pilots act', Confirm: 'Pilots: end of turn',
  BossDraw: 'The Ace draws', BossSelection: 'The Ace chooses', BossAction: 'The Ace acts', BossPhaseConfirm: 'The Ace: end of turn',
  Over: 'The fight is over',
};

export function mount(ctx) {
  let data = null;
  let selected = null; // hand index chosen, waiting for a target

  const seatName = (s) => data?.seats?.[s] ?? (s === data?.view?.ace?.seat ? 'the Ace' : `seat ${s}`);
  const mySeat = () => { const v = data?.view?.viewer; return v?.type === 'Seat' ? v.seat : null; };
  const who = (s) => (s === mySeat() ? 'You' : seatName(s));

  function send(action) {
    selected = null;
    ctx.send({ type: 'Act', action });
  }

  function button(label, onClick, attrs = {}) {
    const b = h('button', { type: 'button', text: label, ...attrs });
    b.addEventListener('click', onClick);
    return b;
  }

  function badges(v, seat) {
    const out = [];
    for (const e of v.effects ?? []) {
      const k = e.kind ?? {};
      if (k.type === 'CoverFire' || k.type === 'IntoTheFog') continue; // table-wide, shown above
      if (e.target !== seat) continue;
      let label = cardName(e.card);
      let cls = 'wp-badge';
      if (k.type === 'Suppression') { label = `Suppression: ${k.actions} hits / ${k.turns} turns left`; cls += ' wp-bad'; }
      else if (k.type === 'DodgeRoll') { label = 'Dodge Roll ready'; cls += ' wp-good'; }
      else if (k.type === 'PullingGs') { label = `Pulling G's: cannot target ${who(e.user)}`; cls += ' wp-bad'; }
      out.push(h('span', { class: cls, text: label, dataset: { testid: 'effect' } }));
    }
    return out;
  }

  function bar(health, max) {
    const pct = Math.max(0, Math.min(100, (100 * health) / Math.max(1, max)));
    return h('div', { class: 'wp-bar', attrs: { role: 'meter', 'aria-valuemin': '0', 'aria-valuemax': String(max), 'aria-valuenow': String(Math.max(0, health)), 'aria-label': 'health' } },
      h('span', { class: pct < 30 ? 'wp-low' : '', attrs: { style: `width:${pct}%` } }));
  }

  function fighter(v, seat, name, health, max, extra) {
    return h('li', { class: `wp-fighter card${seat === mySeat() ? ' wp-me' : ''}`, dataset: { seat: String(seat), testid: 'fighter' } },
      h('div', { class: 'wp-row' }, h('strong', { text: name }), h('span', { class: 'wp-hp', text: `${Math.max(0, health)} / ${max}` })),
      bar(health, max),
      h('div', { class: 'wp-badges' }, ...extra, ...badges(v, seat)));
  }

  function render(d) {
    data = d;
    if (!d) return;
    if (!d.gameStarted || !d.view) return renderLobby(d);
    const v = d.view;
    const legal = d.legal ?? [];
    const me = mySeat();
    const parts = [];

    // Header: turn, phase, table-wide effects.
    const wide = (v.effects ?? []).filter((e) => e.kind?.type === 'CoverFire' || e.kind?.type === 'IntoTheFog')
      .map((e) => h('span', { class: 'wp-badge wp-wide', dataset: { testid: 'effect' }, text: e.kind.type === 'CoverFire' ? 'Cover Fire: the Ace plays one card fewer' : 'Into the Fog: pilots cannot target each other' }));
    const over = v.winner != null;
    parts.push(h('div', { class: 'wp-head card', dataset: { testid: 'status' } },
      h('div', { class: 'wp-row' }, h('strong', { text: `Turn ${v.turn}` }), h('span', { text: PHASES[v.phase] ?? String(v.phase) })),
      over ? h('p', { class: 'wp-winner', dataset: { testid: 'winner' }, text: v.winner === 'Pilots' ? 'The pilots shot down the Ace!' : 'The Ace wins: every pilot is down.' }) : null,
      wide.length ? h('div', { class: 'wp-badges' }, wide) : null));

    // The Ace and the pilots.
    const a = v.ace;
    parts.push(h('ul', { class: 'wp-fighters' },
      fighter(v, a.seat, 'The Ace', a.health, a.max_health, [
        h('span', { class: 'wp-badge', text: `${a.tier ?? ''}`.toLowerCase() || 'ace' }),
        h('span', { class: 'wp-badge', text: `${a.hand_size} cards` }),
      ]),
      ...(v.pilots ?? []).map((p) => fighter(v, p.seat, who(p.seat), p.health, p.max_health, [
        !p.alive ? h('span', { class: 'wp-badge wp-bad', text: 'shot down' }) : null,
        p.alive && v.phase === 'Selection' ? h('span', { class: `wp-badge ${p.confirmed ? 'wp-good' : ''}`, dataset: { testid: 'confirmed' }, text: p.confirmed ? 'confirmed' : 'choosing…' }) : null,
        h('span', { class: 'wp-badge', text: `${p.hand_size} cards` }),
      ].filter(Boolean)))));

    // Your hand and choices.
    const mine = me != null ? v.pilots?.[me] : null;
    if (mine && mine.hand) {
      const selects = legal.filter((x) => x.type === 'Select');
      const chosen = mine.choice;
      const cards = mine.hand.map((c, i) => {
        const options = selects.filter((x) => x.card === i && !x.confirm);
        const isChosen = chosen?.type === 'Play' && chosen.card === i;
        const b = h('button', {
          type: 'button',
          class: `wp-card${selected === i ? ' wp-selected' : ''}${isChosen ? ' wp-chosen' : ''}`,
          dataset: { testid: 'hand-card', card: c, playable: String(options.length > 0) },
          attrs: { 'aria-pressed': String(selected === i) },
        }, h('strong', { text: cardName(c) }), h('span', { text: cardText(c) }));
        if (!options.length) b.disabled = true;
        b.addEventListener('click', () => {
          if (options.length === 1) send(options[0]);
          else { selected = i; render(data); }
        });
        return b;
      });
      const hand = [h('h2', { text: 'Your hand' }), h('div', { class: 'wp-hand' }, cards)];
      if (selected != null) {
        const options = selects.filter((x) => x.card === selected && !x.confirm);
        if (!options.length) selected = null;
        else {
          hand.push(h('div', { class: 'wp-targets', dataset: { testid: 'targets' } },
            h('span', { text: `${cardName(mine.hand[selected])} at:` }),
            ...options.map((o) => button(o.target == null ? 'no target' : who(o.target), () => send(o), { class: 'pick', dataset: { testid: 'target' } })),
            button('Cancel', () => { selected = null; render(data); }, { class: 'pick-cancel' })));
        }
      }
      if (chosen) {
        hand.push(h('p', { class: 'wp-choice', dataset: { testid: 'choice' }, text: chosen.type === 'Play'
          ? `Your choice: ${cardName(mine.hand[chosen.card])}${chosen.target != null ? ` at ${who(chosen.target)}` : ''}.`
          : 'Your choice: discard instead of playing.' }));
      }
      const row = [];
      const confirm = legal.find((x) => x.type === 'Confirm');
      if (confirm) row.push(button('Confirm', () => send(confirm), { class: 'primary', dataset: { testid: 'confirm' } }));
      const discard = legal.find((x) => x.type === 'Discard' && !x.confirm);
      if (discard && !chosen) row.push(button('Discard instead', () => send(discard), { dataset: { testid: 'discard' } }));
      const proceed = legal.find((x) => x.type === 'Proceed');
      if (proceed) row.push(button('Continue', () => send(proceed), { class: 'primary', dataset: { testid: 'proceed' } }));
      if (row.length) hand.push(h('div', { class: 'wp-actions' }, row));
      parts.push(h('section', { class: 'wp-mine card', attrs: { 'aria-label': 'Your hand' } }, hand));
    } else {
      parts.push(h('p', { class: 'watching-note', dataset: { testid: 'watching' }, text: 'You are watching this fight.' }));
      const proceed = legal.find((x) => x.type === 'Proceed');
      if (proceed) parts.push(button('Continue', () => send(proceed), { class: 'primary', dataset: { testid: 'proceed' } }));
    }
    replaceChildren(ctx.root, h('div', { class: 'wolfpack', dataset: { phase: String(v.phase) } }, parts));
  }

  function renderLobby(d) {
    const n = (d.players ?? []).filter((p) => !p.isSpectator).length;
    replaceChildren(ctx.root, h('div', { class: 'wolfpack card' },
      h('h2', { text: 'Wolf Pack — 1 to 5 pilots against the Ace' }),
      h('ul', {}, (d.players ?? []).map((p) => h('li', { class: 'pcard', dataset: { player: p.username } },
        h('span', { class: 'pc-name', text: p.username }),
        p.isBot ? h('span', { class: 'badge badge-bot', text: 'bot' }) : null,
        p.isSpectator ? h('span', { class: 'badge badge-spec', text: 'spectator' }) : null))),
      h('p', { class: 'lobby-note', text: n < 1 ? 'Waiting for pilots.' : d.host === d.you ? 'Ready when you are: start the fight.' : `Waiting for ${d.host ?? 'the host'} to start.` })));
  }

  function packet(m) {
    if (m.type !== 'GameEvent') return null;
    const e = m.event ?? {};
    const text = typeof e.text === 'string' ? e.text : JSON.stringify(e);
    return { text, private: false, cls: e.type === 'Won' || e.type === 'GameOver' ? 'log-big' : '' };
  }

  return { render, packet };
}
