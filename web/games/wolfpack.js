// The Wolf Pack table (rules: docs/rules/wolfpack.md, protocol: docs/protocol.md "Wolf Pack"):
// the Ace and every pilot with a health bar and effect badges (Suppression's countdown, Dodge
// Roll ready, Pulling G's, Into the Fog, Cover Fire), who has confirmed (never what), your hand
// as readable cards, target picking (a card, then one of the targets the legal actions allow),
// confirm, discard-instead and the host's Continue; then the reveal of every selection and
// each card resolving in order with its damage, the Ace's turn likewise, played out one step
// at a time; and at the end the outcome, every pilot's final state, the cards played, the turns
// and how long the fight took.
//
// Everything comes from GameDataSync (`view`: the engine's view for this viewer, `legal`: this
// seat's legal actions, sent back as {type:"Act", action}; `seats`: names by seat) and from
// the GameEvents. Events are played back in order with a short pause before each step (a
// reveal, a card resolving, a pick of the Ace's), the health bars following them; a long
// backlog (a page that was busy) is played quickly. Log lines are the server's `text`, written
// for this viewer ("Your Open Fire at the Ace."), added to the log as their step plays.
// Nothing a player typed is inserted as HTML.

import { h, replaceChildren, botBadge, ratingBadge } from '/dom.js';

// card → [name, text]
const CARDS = {
  OpenFire: ['Open Fire', '5 damage to target.'],
  Sidewinder: ['Sidewinder', '5 damage to target; cannot be negated (Dodge Roll does not stop it).'],
  DodgeRoll: ['Dodge Roll', 'Target: negate the damage of the next Open Fire or Sweeping Fire that targets it during the next opposing turn.'],
  Suppression: ['Suppression', 'Target takes 2 damage on each of its next 4 actions; expires after 2 of its turns.'],
  PullingGs: ['Pulling G\'s', 'Target cannot target you on its next turn.'],
  MidAirRegroup: ['Mid-Air Regroup', 'Target pilot heals 10, up to 50.'],
  CoverFire: ['Cover Fire', 'The Ace plays one card fewer on its next turn.'],
  IntoTheFog: ['Into the Fog', 'On the pilots\' next turn pilots cannot target each other.'],
  AirToAirBarrage: ['Air-to-Air Barrage', '10 damage to target pilot.'],
  SweepingFire: ['Sweeping Fire', '5 damage to each pilot (not one protected by Pulling G\'s).'],
};
const cardName = (c) => CARDS[c]?.[0] ?? String(c);
const cardText = (c) => CARDS[c]?.[1] ?? '';

const PHASES = {
  Draw: 'Pilots draw', Selection: 'Pilots choose their cards', Action: 'Pilots fire', Confirm: 'Pilots: end of turn',
  BossDraw: 'The Ace draws', BossSelection: 'The Ace chooses', BossAction: 'The Ace fires', BossPhaseConfirm: 'The Ace: end of turn',
  Over: 'The fight is over',
};

/** The pause before each step of the playback (a reveal, a card resolving, a pick of the Ace's). */
const STEP_MS = 550;
/** With more than this many events waiting, steps follow each other quickly (catching up). */
const BACKLOG = 12;
const QUICK_MS = 40;
/** How long the first event of a burst waits for the rest of its move's events. */
const GATHER_MS = 30;
/** How long the controls wait for the table to show an action we sent (then they come back). */
const PENDING_MS = 3000;

// Events that begin a new step of the playback.
const STEP_START = new Set(['Revealed', 'Resolving', 'AcePicked', 'AcePassed', 'FightOver']);

/** The module's own style sheet, added to the page once. */
function addStyles() {
  if (document.querySelector('link[data-sheet="wolfpack"]')) return;
  document.head.appendChild(h('link', { rel: 'stylesheet', href: '/games/wolfpack.css', dataset: { sheet: 'wolfpack' } }));
}

/** The Ace's strengths (the room option `ace`), as the "New room" form offers them. */
const TIERS = [
  ['rookie', 'Rookie: random cards and targets (the default)'],
  ['veteran', 'Veteran: focuses fire and answers Cover Fire'],
  ['ace', 'Ace: the strongest, thinks ahead'],
];

/** The room options the room's creator (its first host) picks in the lobby's "New room" form:
 * the Ace's strength, sent as `gameOptions.ace`. */
export function createOptions() {
  const sel = h('select', { id: 'wp-ace-tier', name: 'ace', dataset: { testid: 'ace-tier' } },
    TIERS.map(([value, text]) => h('option', { value, text })));
  const element = h('div', { class: 'wp-create-options' },
    h('label', { for: 'wp-ace-tier', text: 'The Ace' }), sel,
    h('p', { class: 'hint', text: 'How strong the enemy flyer plays. Its health and cards a turn grow with the number of pilots.' }));
  return { element, value: () => ({ ace: sel.value }) };
}

/** A seat's final state for the room's end screen: health left, or shot down (pilots and the Ace alike). */
export function standing(d, player) {
  if (player.health == null) return null;
  return player.alive && player.health > 0 ? `${player.health} / ${player.maxHealth} health left` : 'shot down';
}

/** Refusals that are races, not mistakes: a Continue pressed just as the room proceeded for
 * the host (its confirm delay ran out) is refused with `not_confirm`; nothing to tell anyone. */
export function isRace(code) {
  return code === 'not_confirm';
}

export function mount(ctx) {
  addStyles();
  let data = null;
  let selected = null; // hand index chosen, waiting for a target
  let wantFocus = null; // data-key to focus after the next render
  let lastView = null; // the last view seen (the end screen is drawn from it)
  // The fighters as the playback has reached them: seat → {hp, alive}. Reset from the view
  // whenever no event is waiting.
  let live = new Map();
  let hits = new Map(); // seat → text flashed on the fighter for the current step
  const queue = [];
  let timer = null;
  let round = null; // {title, reveal: [...], items: [...]}
  let actor = null; // the seat whose card is resolving
  let stats = null; // {startedAt, endedAt, played: {}, dealt: {}, taken: {}, over, winner}
  // The action sent and not yet seen through: the table as it was when it went (a double
  // click, or a press on a table redrawn by someone else's move, must not send it twice).
  let pending = null; // {key, until}
  // What waits for the playback to catch up (the room's "You win the game!" line).
  let afterPlayback = [];

  const seatName = (s) => data?.seats?.[s] ?? lastView?.names?.[s] ?? (s === lastView?.ace?.seat ? 'the Ace' : `seat ${s}`);
  /** The room's entry for a pilot played by a bot (its level on the badge), or null. */
  const botAt = (s) => (data?.players ?? []).find((p) => p.isBot && p.username === seatName(s)) ?? null;
  const mySeat = () => { const v = data?.view?.viewer ?? lastView?.viewer; return v?.type === 'Seat' ? v.seat : null; };
  const isMe = (s) => s != null && s === mySeat();
  /** A seat as an object: "you", "bob", "the Ace". */
  const who = (s) => (isMe(s) ? 'you' : seatName(s));
  /** A seat starting a sentence: "You", "bob", "The Ace". */
  const Who = (s) => { const w = who(s); return w === 'you' ? 'You' : w.startsWith('the ') ? `The ${w.slice(4)}` : w; };
  const verb = (s, you, other) => (isMe(s) ? you : other);
  const at = (t) => (t == null ? '' : ` at ${who(t)}`);

  // ---- stats, kept per room in the session so a reload keeps them ----

  const statsKey = () => `cardtable.wolfpack.${data?.roomId ?? ''}`;
  function loadStats() {
    try { return JSON.parse(sessionStorage.getItem(statsKey()) ?? 'null'); } catch { return null; }
  }
  function saveStats() {
    try { sessionStorage.setItem(statsKey(), JSON.stringify(stats)); } catch { /* private mode */ }
  }
  const bump = (m, s, n = 1) => { m[s] = (m[s] ?? 0) + n; };

  // ---- playback ----

  function resetLive(v) {
    live = new Map();
    for (const p of v.pilots ?? []) live.set(p.seat, { hp: p.health, alive: p.alive });
    live.set(v.ace.seat, { hp: v.ace.health, alive: v.ace.health > 0 });
  }

  function newRound(title) {
    round = { title, reveal: [], items: [] };
  }

  /** Applies one event to the playback; returns whether it showed something. */
  function play(ev) {
    const t = ev.type;
    if (ev.text && t !== 'Chose') ctx.log(ev.text, { cls: t === 'FightOver' ? 'log-big' : t === 'Transition' ? 'log-turn' : '' });
    switch (t) {
      case 'Transition':
        if (ev.transition === 'ConfirmToBossDraw') { newRound(`Turn ${ev.turn}: the Ace's turn`); return true; }
        if (ev.transition === 'DrawToSelection') actor = null;
        return false;
      case 'Revealed': {
        if (!round || round.kind !== 'pilots' || round.items.length) { newRound(`Turn ${lastView?.turn ?? ''}: the pilots' cards`); round.kind = 'pilots'; }
        const c = ev.choice ?? {};
        round.reveal.push(c.type === 'Play'
          ? { seat: ev.seat, text: `${Who(ev.seat)}: ${cardName(c.card)}${c.target != null ? ` → ${who(c.target)}` : ''}` }
          : { seat: ev.seat, text: `${Who(ev.seat)}: ${verb(ev.seat, 'discard', 'discards')} ${c.count} instead` });
        return true;
      }
      case 'AcePicked':
        if (!round) newRound('The Ace\'s turn');
        round.items.push({ head: ev.card ? `The Ace picks ${cardName(ev.card)}${at(ev.target)}` : `The Ace picks card ${Number(ev.index) + 1} (face down)`, results: [], pick: true });
        return true;
      case 'AcePassed':
        if (!round) newRound('The Ace\'s turn');
        round.items.push({ head: 'The Ace has nothing it can play', results: [] });
        return true;
      case 'AcePlays':
        if (round) round.note = `The Ace plays ${ev.count} card${ev.count === 1 ? '' : 's'} this turn.`;
        return true;
      case 'Resolving': {
        actor = ev.seat;
        if (!round) newRound(`Turn ${lastView?.turn ?? ''}`);
        // The Ace's face-down picks give way, in place, to the cards as they resolve.
        const item = { seat: ev.seat, head: `${Who(ev.seat)}: ${cardName(ev.card)}${ev.target != null ? ` → ${who(ev.target)}` : ''}`, results: [] };
        const pick = round.items.findIndex((x) => x.pick);
        if (pick >= 0) round.items[pick] = item; else round.items.push(item);
        round.cur = item;
        if (stats) { bump(stats.played, ev.seat); saveStats(); }
        return true;
      }
      case 'Damaged': {
        const f = live.get(ev.seat);
        if (f) f.hp = ev.health;
        hits.set(ev.seat, `−${ev.amount}`);
        let text;
        if (ev.source === 'Suppression' || actor == null || actor === ev.seat) {
          text = `${Who(ev.seat)} ${verb(ev.seat, 'take', 'takes')} ${ev.amount} from ${cardName(ev.source)} (${ev.health} left)`;
        } else {
          text = `${Who(actor)} ${verb(actor, 'hit', 'hits')} ${who(ev.seat)} for ${ev.amount} (${ev.health} left)`;
          if (stats) bump(stats.dealt, actor, ev.amount);
        }
        if (stats) { bump(stats.taken, ev.seat, ev.amount); saveStats(); }
        // Suppression's tick lands on the card's user as its card resolves: a line of that card.
        result(text, 'wp-dmg');
        return true;
      }
      case 'Healed': {
        const f = live.get(ev.seat);
        if (f) f.hp = ev.health;
        hits.set(ev.seat, `+${ev.amount}`);
        result(`${Who(ev.seat)} ${verb(ev.seat, 'heal', 'heals')} ${ev.amount} (${ev.health})`, 'wp-heal');
        return true;
      }
      case 'Negated':
        hits.set(ev.seat, 'dodged');
        result(`${Who(ev.seat)} ${verb(ev.seat, 'dodge', 'dodges')} the ${cardName(ev.source)}!`, 'wp-heal');
        return true;
      case 'Spared':
        result(`${Who(ev.seat)} ${verb(ev.seat, 'are', 'is')} out of the Ace's sights (Pulling G's)`, '');
        return true;
      case 'Fizzled':
        result(`${Who(ev.seat) === 'You' ? 'Your' : `${Who(ev.seat)}'s`} ${cardName(ev.card)} does nothing`, '');
        return true;
      case 'EffectPlaced':
        result(effectLabel(ev.effect, true), 'wp-fx');
        return true;
      case 'ShotDown': {
        const f = live.get(ev.seat);
        if (f) f.alive = false;
        hits.set(ev.seat, 'shot down');
        result(`${Who(ev.seat)} ${verb(ev.seat, 'are', 'is')} shot down!`, 'wp-dmg');
        return true;
      }
      case 'FightOver':
        if (stats && !stats.over) { stats.over = true; stats.endedAt = Date.now(); stats.winner = ev.winner; saveStats(); }
        // Picks that never resolved (the fight ended first) go.
        if (round) round.items = round.items.filter((x) => !x.pick);
        if (round) round.items.push({ head: ev.winner === 'Pilots' ? 'The Ace goes down. The pilots win!' : 'Every pilot is down. The Ace wins.', results: [], big: true });
        return true;
      default:
        return false;
    }
  }

  /** A line under the card now resolving (or one of its own when no card is). */
  function result(text, cls) {
    if (!round) newRound(`Turn ${lastView?.turn ?? ''}`);
    if (round.cur) round.cur.results.push({ text, cls });
    else round.items.push({ head: text, results: [], cls });
  }

  /** Whether `ev` begins a new step of the playback (then the previous step stays up a while). */
  function startsStep(ev) {
    if (ev.type === 'Revealed') return !(round?.kind === 'pilots' && round.items.length === 0);
    if (ev.type === 'Transition') return ev.transition === 'ConfirmToBossDraw';
    return STEP_START.has(ev.type);
  }

  function enqueue(ev) {
    queue.push(ev);
    // A move's events arrive in a burst: gather it briefly, so a card and its damage play together.
    if (!timer) timer = setTimeout(pump, GATHER_MS);
  }

  /** Plays events up to the next step, shows them, and holds them up for a moment. */
  function pump() {
    timer = null;
    hits = new Map();
    let shown = false;
    while (queue.length) {
      if (shown && startsStep(queue[0])) break;
      shown = play(queue.shift()) || shown;
    }
    if (!shown) {
      // Caught up: the table as the last sync has it.
      if (data?.view) resetLive(data.view);
      draw();
      const waiting = afterPlayback;
      afterPlayback = [];
      for (const f of waiting) f();
      return;
    }
    draw();
    timer = setTimeout(pump, queue.length > BACKLOG ? QUICK_MS : STEP_MS);
  }

  // ---- drawing ----

  function effectLabel(e, placed = false) {
    const k = e.kind ?? {};
    const on = e.target != null ? who(e.target) : '';
    switch (k.type) {
      case 'Suppression': return placed ? `Suppression on ${on}: 2 damage on each of its next ${k.actions} cards, for ${k.turns} turns` : `Suppression: ${k.actions} hit${k.actions === 1 ? '' : 's'} / ${k.turns} turn${k.turns === 1 ? '' : 's'} left`;
      case 'DodgeRoll': return placed ? `${Who(e.target)} will dodge the next Open Fire or Sweeping Fire` : 'Dodge Roll ready';
      case 'PullingGs': return placed ? `${Who(e.target)} cannot target ${who(e.user)} next turn` : `Pulling G's: cannot target ${who(e.user)}`;
      case 'CoverFire': return 'Cover Fire: the Ace plays one card fewer';
      case 'IntoTheFog': return 'Into the Fog: pilots cannot target each other';
      default: return cardName(e.card);
    }
  }

  function badges(v, seat) {
    const out = [];
    for (const e of v.effects ?? []) {
      const k = e.kind ?? {};
      if (k.type === 'CoverFire' || k.type === 'IntoTheFog') continue; // table-wide, shown above
      if (e.target !== seat) continue;
      const cls = k.type === 'DodgeRoll' ? 'wp-good' : 'wp-bad';
      out.push(h('span', { class: `wp-badge ${cls}`, text: effectLabel(e), dataset: { testid: 'effect', kind: k.type } }));
    }
    return out;
  }

  function bar(health, max) {
    const pct = Math.max(0, Math.min(100, (100 * health) / Math.max(1, max)));
    const fill = h('span', { class: pct < 30 ? 'wp-low' : '' });
    // Through the CSSOM: the page's Content-Security-Policy refuses style attributes.
    fill.style.width = `${pct}%`;
    return h('div', { class: 'wp-bar', attrs: { role: 'meter', 'aria-valuemin': '0', 'aria-valuemax': String(max), 'aria-valuenow': String(Math.max(0, health)), 'aria-label': 'health' } },
      fill);
  }

  function fighter(v, seat, name, max, extra, hand) {
    const f = live.get(seat);
    const health = f?.hp ?? 0;
    const alive = f?.alive ?? true;
    const hit = hits.get(seat);
    return h('li', { class: `wp-fighter card${isMe(seat) ? ' wp-me' : ''}${alive ? '' : ' wp-down'}${hit ? ' wp-hit' : ''}`, dataset: { seat: String(seat), testid: 'fighter' } },
      h('div', { class: 'wp-row' }, h('strong', { class: 'wp-name', text: name }),
        hit ? h('span', { class: 'wp-flash', text: hit }) : null,
        h('span', { class: 'wp-hp', dataset: { testid: 'hp' }, text: alive ? `${Math.max(0, health)} / ${max}` : 'shot down' })),
      bar(alive ? health : 0, max),
      h('div', { class: 'wp-badges' }, ...extra, ...badges(v, seat)),
      hand?.length ? h('p', { class: 'wp-theirs', text: `Hand: ${hand.map(cardName).join(' · ')}` }) : null);
  }

  function renderRound() {
    if (!round) return null;
    return h('section', { class: 'wp-round card', dataset: { testid: 'playback' }, attrs: { 'aria-label': 'This turn', 'aria-live': 'polite' } },
      h('h2', { text: round.title }),
      round.reveal.length ? h('div', { class: 'wp-reveal', dataset: { testid: 'reveal' } },
        h('span', { class: 'wp-muted', text: 'Revealed:' }),
        round.reveal.map((r) => h('span', { class: `wp-chip${isMe(r.seat) ? ' wp-mine-chip' : ''}`, text: r.text }))) : null,
      round.note ? h('p', { class: 'wp-muted', text: round.note }) : null,
      round.items.length ? h('ol', { class: 'wp-steps' }, round.items.map((it, i) => h('li', {
        class: `wp-step${it.big ? ' wp-big' : ''}${it === round.cur || (!round.cur && i === round.items.length - 1) ? ' wp-current' : ''} ${it.cls ?? ''}`, dataset: { testid: 'step' },
      }, h('span', { class: 'wp-step-head', text: it.head }),
      it.results.map((r) => h('span', { class: `wp-result ${r.cls}`, text: r.text }))))) : null);
  }

  function draw() {
    if (data) render(data, true);
  }

  function render(d, fromPlayback = false) {
    data = d;
    if (!d) return;
    if (!d.gameStarted || !d.view) {
      // The fight is over: its last moves play out on the table, then the end screen.
      if (lastView && stats?.over) return renderEnd(d);
      if (lastView && (queue.length || timer)) return drawTable(lastView, []);
      return renderLobby(d);
    }
    const v = d.view;
    if (!lastView || lastView.turn > v.turn) { round = null; }
    lastView = { ...v, names: d.seats };
    if (!stats || stats.over) {
      const stored = loadStats();
      stats = stored && !stored.over ? stored : { startedAt: Date.now(), played: {}, dealt: {}, taken: {} };
      saveStats();
    }
    if (!fromPlayback && !queue.length && !timer) resetLive(v);
    if (!live.size) resetLive(v);
    drawTable(v, d.legal ?? []);
  }

  function drawTable(v, legal) {
    const me = mySeat();
    const parts = [];

    // Header: turn, phase, who is awaited, table-wide effects.
    const wide = (v.effects ?? []).filter((e) => e.kind?.type === 'CoverFire' || e.kind?.type === 'IntoTheFog')
      .map((e) => h('span', { class: 'wp-badge wp-wide', dataset: { testid: 'effect', kind: e.kind.type }, text: effectLabel(e) }));
    const living = (v.pilots ?? []).filter((p) => p.alive);
    const confirmed = living.filter((p) => p.confirmed).length;
    let status = PHASES[v.phase] ?? String(v.phase);
    if (v.phase === 'Selection') status += ` · ${confirmed} of ${living.length} confirmed`;
    const waiting = (v.to_act ?? []).map((s) => who(s));
    parts.push(h('div', { class: 'wp-head card', dataset: { testid: 'status' } },
      h('div', { class: 'wp-row' }, h('strong', { text: `Turn ${v.turn}` }), h('span', { dataset: { testid: 'phase' }, text: status })),
      waiting.length && v.phase !== 'Selection' ? h('p', { class: 'wp-muted', text: `Waiting for ${waiting.join(', ')}.` }) : null,
      todoLine(v, legal, me != null ? v.pilots?.[me] : null),
      wide.length ? h('div', { class: 'wp-badges' }, wide) : null));

    // The Ace and the pilots.
    const a = v.ace;
    parts.push(h('ul', { class: 'wp-fighters', attrs: { 'aria-label': 'Fighters' } },
      fighter(v, a.seat, 'The Ace', a.max_health, [
        h('span', { class: 'wp-badge', text: String(a.tier ?? 'ace') }),
        h('span', { class: 'wp-badge', text: `${a.hand_size} cards · plays ${a.plays_per_turn}` }),
      ]),
      ...(v.pilots ?? []).map((p) => fighter(v, p.seat, isMe(p.seat) ? `You (${seatName(p.seat)})` : seatName(p.seat), p.max_health, [
        botAt(p.seat) ? h('span', { class: 'wp-badge', dataset: { testid: 'bot-level' }, text: botBadge(botAt(p.seat)) }) : null,
        p.alive && v.phase === 'Selection' ? h('span', { class: `wp-badge ${p.confirmed ? 'wp-good' : ''}`, dataset: { testid: 'confirmed' }, text: p.confirmed ? 'confirmed ✓' : 'choosing…' }) : null,
        // The rules' host, who hands the turn over, is the lead pilot (the lowest seat still
        // flying: docs/rules/wolfpack.md), not the room's host: the badge says which it is.
        v.host === p.seat ? h('span', { class: 'wp-badge wp-lead', dataset: { testid: 'lead' }, attrs: { title: 'The lead pilot (the lowest seat still flying) hands the turn over' }, text: 'lead pilot' }) : null,
        p.debt ? h('span', { class: 'wp-badge', text: `draws ${p.debt} fewer` }) : null,
      ].filter(Boolean), isMe(p.seat) || !p.alive ? null : p.hand))));

    parts.push(renderRound());

    // Your hand and choices.
    const mine = me != null ? v.pilots?.[me] : null;
    if (v.winner != null) {
      // The final table (the room's end screen shows this module read-only).
      parts.push(h('p', { class: 'wp-choice', dataset: { testid: 'final-outcome' }, text: v.winner === 'Pilots' ? 'The pilots shot down the Ace.' : 'The Ace shot down every pilot.' }));
    } else if (mine && mine.hand && mine.alive) {
      parts.push(renderHand(v, mine, legal));
    } else if (mine && !mine.alive) {
      parts.push(h('p', { class: 'watching-note', text: 'You were shot down: watch your wingmen finish the fight.' }));
    } else {
      parts.push(h('p', { class: 'watching-note', dataset: { testid: 'watching' }, text: 'You are watching this fight.' }));
    }
    replaceChildren(ctx.root, h('div', { class: 'wolfpack', dataset: { phase: String(v.phase) } }, parts));
    if (wantFocus) {
      const el = ctx.root.querySelector(`[data-key="${wantFocus}"]`);
      if (el && !el.disabled) { el.focus(); wantFocus = null; }
    }
  }

  /** What to do now, in a sentence (null when there is nothing to say). */
  function todoLine(v, legal, mine) {
    const text = todo(v, legal, mine);
    return text ? h('p', { class: 'wp-todo', dataset: { testid: 'todo' }, attrs: { role: 'status' }, text }) : null;
  }

  function todo(v, legal, mine) {
    if (v.winner != null) return null;
    switch (v.phase) {
      case 'Selection':
        if (!mine) return 'The pilots are choosing their cards in secret.';
        if (!mine.alive) return null;
        if (mine.confirmed) return 'Locked in. The cards are revealed once every pilot has confirmed.';
        if (!mine.hand?.length) return 'You have no cards this turn.';
        return 'Your move: pick a card (and its target), then Confirm. Nothing worth playing? Discard instead (discarding two or more costs cards at your next draw).';
      case 'Confirm':
      case 'BossPhaseConfirm': {
        const to = v.phase === 'Confirm' ? 'the Ace' : 'the pilots';
        if (legal.some((a) => a.type === 'Proceed')) return `You are the lead pilot: press Continue to hand the turn to ${to} (it goes on by itself after a short pause).`;
        return v.host != null ? `Waiting for ${seatName(v.host)}, the lead pilot, to hand the turn to ${to}.` : null;
      }
      case 'BossDraw':
      case 'BossSelection':
      case 'BossAction':
        return 'The Ace is taking its turn: watch its cards land.';
      default:
        return null;
    }
  }

  /** What an action of ours changes: the phase, the turn, our choice and whether it is locked in. */
  function tableKey() {
    const v = data?.view;
    const m = v?.pilots?.[mySeat()];
    return JSON.stringify([v?.phase, v?.turn, m?.confirmed, m?.choice]);
  }

  function send(action, focus = null) {
    selected = null;
    wantFocus = focus;
    pending = { key: tableKey(), until: Date.now() + PENDING_MS };
    setTimeout(draw, PENDING_MS + 10);
    ctx.send({ type: 'Act', action });
    draw();
  }

  /** Whether our last action is still on its way (then the controls wait). */
  function waiting() {
    if (pending && (Date.now() >= pending.until || pending.key !== tableKey())) pending = null;
    return pending != null;
  }

  function button(label, onClick, attrs = {}) {
    const b = h('button', { type: 'button', text: label, ...attrs });
    b.addEventListener('click', onClick);
    return b;
  }

  function renderHand(v, mine, allLegal) {
    const busy = waiting();
    const legal = busy ? [] : allLegal;
    const selects = legal.filter((x) => x.type === 'Select');
    const chosen = mine.choice;
    const cards = mine.hand.map((c, i) => {
      const options = selects.filter((x) => x.card === i && !x.confirm);
      const isChosen = chosen?.type === 'Play' && chosen.card === i;
      const b = h('button', {
        type: 'button',
        class: `wp-card${selected === i ? ' wp-selected' : ''}${isChosen ? ' wp-chosen' : ''}`,
        dataset: { testid: 'hand-card', card: c, playable: String(options.length > 0), targets: String(options.length), key: `card-${i}` },
        // Named by its visible name and text.
        attrs: { 'aria-pressed': String(selected === i || isChosen) },
      }, h('strong', { text: cardName(c) }), h('span', { class: 'sr-only', text: ': ' }), h('span', { text: cardText(c) }));
      if (!options.length) b.disabled = true;
      b.addEventListener('click', () => {
        const same = (o) => chosen?.type === 'Play' && chosen.card === o.card && chosen.target === o.target;
        if (options.length === 1 && same(options[0])) { wantFocus = 'confirm'; draw(); } else if (options.length === 1) send(options[0], 'confirm');
        else { selected = i; wantFocus = `target-${options[0].target}`; draw(); }
      });
      return b;
    });
    const hand = [h('h2', { text: 'Your hand', tabIndex: -1, dataset: { focusFallback: '' } }), h('div', { class: 'wp-hand', attrs: { 'aria-busy': String(busy) } }, cards)];
    if (selected != null) {
      const options = selects.filter((x) => x.card === selected && !x.confirm);
      if (!options.length) selected = null;
      else {
        const back = selected;
        const cancel = () => { selected = null; wantFocus = `card-${back}`; draw(); };
        hand.push(h('div', { class: 'wp-targets', dataset: { testid: 'targets' }, attrs: { role: 'group', 'aria-label': 'Targets (Escape cancels)' },
          on: { keydown: (e) => { if (e.key === 'Escape') cancel(); } } },
          h('span', { text: `${cardName(mine.hand[selected])} at:` }),
          ...options.map((o) => button(o.target == null ? 'no target' : who(o.target), () => {
            if (chosen?.type === 'Play' && chosen.card === o.card && chosen.target === o.target) { selected = null; wantFocus = 'confirm'; draw(); } else send(o, 'confirm');
          }, { class: 'pick', dataset: { testid: 'target', key: `target-${o.target}` } })),
          button('Cancel', cancel, { class: 'pick-cancel', dataset: { key: 'cancel' } })));
      }
    }
    if (chosen) {
      hand.push(h('p', { class: 'wp-choice', dataset: { testid: 'choice' }, text: chosen.type === 'Play'
        ? `Your choice: ${cardName(mine.hand[chosen.card])}${chosen.target != null ? ` at ${who(chosen.target)}` : ''}${mine.confirmed ? ' (confirmed)' : ' (not confirmed yet)'}.`
        : `Your choice: discard instead${mine.confirmed ? ' (confirmed)' : ''}.` }));
    }
    const row = [];
    const confirm = legal.find((x) => x.type === 'Confirm');
    if (confirm) row.push(button('Confirm', () => send(confirm), { class: 'primary', dataset: { testid: 'confirm', key: 'confirm' } }));
    const discard = legal.find((x) => x.type === 'Discard' && !x.confirm);
    if (discard && !chosen) {
      const names = mine.hand.filter((_, i) => discard.cards & (1 << i)).map(cardName).join(', ');
      row.push(button(`Discard ${names} instead`, () => send(discard, 'confirm'), { dataset: { testid: 'discard', key: 'discard' } }));
    }
    const proceed = legal.find((x) => x.type === 'Proceed');
    if (proceed) row.push(button('Continue', () => send(proceed), { class: 'primary', dataset: { testid: 'proceed', key: 'proceed' } }));
    if (busy) row.push(h('span', { class: 'wp-muted', dataset: { testid: 'sending' }, text: 'Sending…' }));
    else if (v.phase === 'Selection' && mine.confirmed) row.push(h('span', { class: 'wp-muted', text: 'Locked in: waiting for your wingmen.' }));
    if (row.length) hand.push(h('div', { class: 'wp-actions' }, row));
    return h('section', { class: 'wp-mine card', attrs: { 'aria-label': 'Your hand' } }, hand);
  }

  // The match's length as the server recorded it (`GET /api/matches/{id}`: the room's end
  // screen and `cardtable matches` show the same figure), fetched once per finished match.
  let recorded = { match: null, secs: null };
  function matchSecs(d) {
    const id = d?.lastMatch;
    if (id == null || !d.roomId) return null;
    if (recorded.match !== id) {
      recorded = { match: id, secs: null };
      fetch(`/api/matches/${id}?room=${encodeURIComponent(d.roomId)}&steps=last`)
        .then((r) => (r.ok ? r.json() : null))
        .then((m) => {
          if (!m || recorded.match !== id) return;
          // Whole seconds, rounded down, as the end screen writes them.
          recorded.secs = Math.max(0, Math.floor((m.endedAt - m.startedAt) / 1000));
          draw();
        })
        .catch(() => { /* the line goes without a duration */ });
    }
    return recorded.secs;
  }

  function renderEnd(d) {
    const v = lastView;
    const won = stats?.winner === 'Pilots';
    // Until the server's figure is here (a moment), this page's own count, rounded the same way.
    const own = stats?.endedAt && stats.startedAt ? Math.max(0, Math.floor((stats.endedAt - stats.startedAt) / 1000)) : null;
    const secs = matchSecs(d) ?? own;
    const played = Object.values(stats?.played ?? {}).reduce((x, y) => x + y, 0);
    const rows = (v.pilots ?? []).map((p) => {
      const f = live.get(p.seat) ?? { hp: p.health, alive: p.alive };
      return h('tr', { dataset: { testid: 'end-pilot', seat: String(p.seat) } },
        h('th', { attrs: { scope: 'row' }, text: isMe(p.seat) ? `You (${seatName(p.seat)})` : seatName(p.seat) }),
        h('td', { text: f.alive && f.hp > 0 ? `${f.hp} / ${p.max_health}` : 'shot down' }),
        h('td', { text: String(stats?.played?.[p.seat] ?? 0) }),
        h('td', { text: String(stats?.dealt?.[p.seat] ?? 0) }),
        h('td', { text: String(stats?.taken?.[p.seat] ?? 0) }));
    });
    const ace = live.get(v.ace.seat) ?? { hp: v.ace.health };
    replaceChildren(ctx.root, h('div', { class: 'wolfpack' },
      // The room's end screen above says who won; this panel is the fight's statistics.
      h('section', { class: `wp-end card ${won ? 'wp-won' : 'wp-lost'}`, dataset: { testid: 'wp-end' }, attrs: { 'aria-label': 'Fight statistics' } },
        h('h2', { text: 'Fight statistics' }),
        h('p', { class: 'wp-outcome', dataset: { testid: 'outcome' }, text: won ? 'Victory: the pilots shot down the Ace!' : 'Defeat: the Ace shot down every pilot.' }),
        h('p', { dataset: { testid: 'end-summary' }, text: `${v.turn} turn${v.turn === 1 ? '' : 's'} · ${played} cards played${secs != null ? ` · ${Math.floor(secs / 60)} min ${secs % 60} s` : ''} · the Ace (${v.ace.tier}) ended on ${Math.max(0, ace.hp)} / ${v.ace.max_health}` }),
        h('div', { class: 'wp-table-wrap' }, h('table', { class: 'wp-end-table' },
          h('thead', {}, h('tr', {}, ['Pilot', 'Health', 'Cards played', 'Damage dealt', 'Damage taken'].map((t) => h('th', { attrs: { scope: 'col' }, text: t })))),
          h('tbody', {}, rows)))),
      renderRound(),
      lobby(d)));
  }

  function lobby(d) {
    const n = (d.players ?? []).filter((p) => !p.isSpectator).length;
    return h('div', { class: 'wp-lobby card' },
      h('h2', { text: 'Wolf Pack: 1 to 5 pilots against the Ace' }),
      h('ul', { class: 'wp-lobby-list' }, (d.players ?? []).map((p) => h('li', { class: 'pcard', dataset: { player: p.username } },
        h('span', { class: 'pc-name', text: p.username }),
        p.isBot ? h('span', { class: 'badge badge-bot', dataset: { testid: 'bot-level' }, text: botBadge(p) }) : null,
        ratingBadge(p),
        p.isSpectator ? h('span', { class: 'badge badge-spec', text: 'spectator' }) : null))),
      h('p', { class: 'lobby-note', dataset: { testid: 'ace-tier-note' }, text: `The Ace: ${d.options?.gameOptions?.ace ?? 'rookie'} (chosen when the room was made).` }),
      h('p', { class: 'lobby-note', text: n < 1 ? 'Waiting for pilots.' : d.host === d.you ? 'Ready when you are: start the fight.' : `Waiting for ${d.host ?? 'the host'} to start.` }));
  }

  function renderLobby(d) {
    replaceChildren(ctx.root, h('div', { class: 'wolfpack' }, lobby(d)));
  }

  function packet(m) {
    if (m.type !== 'GameEvent') return null;
    enqueue(m.event ?? {});
    return null; // logged as the playback reaches it
  }

  /** Runs `f` once the playback has caught up with the events received (at once if it has):
   * the room's "You win the game!" waits for the last turn to play out. */
  function whenPlayedOut(f) {
    if (!queue.length && !timer) f();
    else afterPlayback.push(f);
  }

  return { render, packet, whenPlayedOut };
}
