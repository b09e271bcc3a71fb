// The Ivanhoe table (rules: docs/rules/ivanhoe.md): draw and discard piles, every player's
// display with its total, status bar (tokens, Shield, Stunned) and hand count, your hand
// (click or Enter to play; hover or focus describes a card), an end-turn button that says
// whether it withdraws, overlays for choices, and the Ivanhoe prompt with its countdown.
//
// Everything comes from GameDataSync: `view` (the engine's view for this viewer), `legal`
// (this seat's legal actions, sent back as {type:"Act", action}), `seats` (usernames by seat)
// and `waitingOn` (whose answer the game waits for, with the time left). Log lines come from
// the `text` of each GameEvent. Nothing a player typed is ever inserted as HTML.

import { h, replaceChildren, botBadge, ratingBadge } from '/dom.js';

const COLOURS = ['purple', 'red', 'blue', 'yellow', 'green'];
const COLOUR_NAME = { purple: 'Purple', red: 'Red', blue: 'Blue', yellow: 'Yellow', green: 'Green' };

// code → [name, kind, colour, value, description]
const CARD_LIST = [
  ['Pu3', 'Purple 3', 'purple', 3], ['Pu4', 'Purple 4', 'purple', 4], ['Pu5', 'Purple 5', 'purple', 5], ['Pu7', 'Purple 7', 'purple', 7],
  ['R3', 'Red 3', 'red', 3], ['R4', 'Red 4', 'red', 4], ['R5', 'Red 5', 'red', 5],
  ['B2', 'Blue 2', 'blue', 2], ['B3', 'Blue 3', 'blue', 3], ['B4', 'Blue 4', 'blue', 4], ['B5', 'Blue 5', 'blue', 5],
  ['Y2', 'Yellow 2', 'yellow', 2], ['Y3', 'Yellow 3', 'yellow', 3], ['Y4', 'Yellow 4', 'yellow', 4],
  ['G1', 'Green 1', 'green', 1],
  ['Sq2', 'Squire 2', 'white', 2], ['Sq3', 'Squire 3', 'white', 3], ['Md6', 'Maiden 6', 'white', 6],
];
const ACTIONS = {
  UNHORSE: ['Unhorse', 'Unhorse', 'Purple tournament only: change the colour to red, blue or yellow.'],
  CHANGE_WEAPON: ['Change Weapon', 'ChangeWeapon', 'Red, blue or yellow tournament: change the colour to another of red, blue or yellow.'],
  DROP_WEAPON: ['Drop Weapon', 'DropWeapon', 'Red, blue or yellow tournament: change the colour to green (every card then counts 1).'],
  BREAK_LANCE: ['Break Lance', 'BreakLance', 'An opponent discards every purple card from their display (their earliest card stays).'],
  RIPOSTE: ['Riposte', 'Riposte', "Take the last card of an opponent's display and add it to yours."],
  DODGE: ['Dodge', 'Dodge', "Discard any one card of an opponent's display."],
  RETREAT: ['Retreat', 'Retreat', 'Take one card of your own display back into your hand.'],
  KNOCK_DOWN: ['Knock Down', 'KnockDown', "Take a random card from an opponent's hand (only you two see which)."],
  OUTMANEUVER: ['Outmaneuver', 'Outmaneuver', 'Every opponent discards the last card of their display.'],
  CHARGE: ['Charge', 'Charge', 'Every display (yours too) discards its cards of the lowest value on the table.'],
  COUNTERCHARGE: ['Countercharge', 'Countercharge', 'Every display (yours too) discards its cards of the highest value on the table.'],
  DISGRACE: ['Disgrace', 'Disgrace', 'Every display (yours too) discards its supporters (squires and maidens).'],
  ADAPT: ['Adapt', 'Adapt', 'In every display, each owner keeps only one card of each value.'],
  OUTWIT: ['Outwit', 'Outwit', "Swap one of your face-up cards (display card, Shield or Stunned) with one of an opponent's."],
  SHIELD: ['Shield', 'Shield', "Lay it before you: opponents' action cards no longer hit your display."],
  STUNNED: ['Stunned', 'Stunned', 'Lay it before an opponent: they may add only one card to their display per turn.'],
  IVANHOE: ['Ivanhoe', 'Ivanhoe', 'Play it at once when anyone else plays an action card, to cancel that card.'],
};
const CARDS = {};
for (const [code, name, colour, value] of CARD_LIST) {
  const desc = colour === 'white'
    ? (code === 'Md6'
      ? 'Maiden 6: a supporter worth 6, playable in any tournament. One maiden per display; withdrawing with her costs you a token.'
      : `${name}: a supporter worth ${value}, playable in any tournament.`)
    : `${name}: worth ${value} in a ${colour} tournament (every card counts 1 in green).`;
  CARDS[code] = { code, name, colour, value, action: false, desc };
}
const TYPE_TO_CARD = {};
for (const [code, [name, type, desc]] of Object.entries(ACTIONS)) {
  CARDS[code] = { code, name, colour: 'action', value: 0, action: true, desc: `${name}: ${desc}` };
  TYPE_TO_CARD[type] = code;
}
// Where a long name may break on a narrow card face (soft hyphens).
const FACE = { Riposte: 'Ri\u00ADposte', Stunned: 'Stun\u00ADned', Countercharge: 'Counter\u00ADcharge', Outmaneuver: 'Out\u00ADmaneuver',
  Disgrace: 'Dis\u00ADgrace', Ivanhoe: 'Ivan\u00ADhoe', Retreat: 'Re\u00ADtreat', Unhorse: 'Un\u00ADhorse', Outwit: 'Out\u00ADwit' };
/** The word on a card face: the colour, the supporter or the action card's name. */
function faceName(c) {
  if (c.action) return FACE[c.name] ?? c.name;
  return c.colour === 'white' ? c.name.replace(/ \d$/, '') : COLOUR_NAME[c.colour];
}
const cardInfo = (code) => CARDS[code] ?? { code, name: code, colour: 'action', value: 0, action: true, desc: code };

/** The hand card an action uses, if any. */
function cardOf(a) {
  if (a.type === 'Start' || a.type === 'Play') return a.card;
  return TYPE_TO_CARD[a.type] ?? null;
}

/** The choices an action card's legal actions differ in, in the order they are asked. */
const STEPS = {
  Start: ['colour'], Unhorse: ['colour'], ChangeWeapon: ['colour'],
  BreakLance: ['target'], Riposte: ['target'], KnockDown: ['target'], Stunned: ['target'],
  Dodge: ['target', 'pos'], Retreat: ['pos'], Outwit: ['give', 'target', 'take'],
};

const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);

/** A seat's final state for the end screen: its tokens. */
export function standing(d, player) {
  const s = (d?.seats ?? []).indexOf(player.username);
  const p = d?.view?.players?.[s];
  if (!p) return '';
  return p.tokens.length ? `${p.tokens.length} token${p.tokens.length === 1 ? '' : 's'}: ${p.tokens.map((c) => COLOUR_NAME[c] ?? c).join(', ')}` : 'no tokens';
}

export function mount(ctx) {
  let data = null;
  // An open choice overlay: {card, options (legal actions), step, picked: {field: value}}.
  let pending = null;
  // The card last described (hover/focus), and the time the window clock ends.
  let described = null;
  let deadline = null;
  let lastDraw = null; // {seat, at}
  let drewCard = null;
  let timer = null;
  // The hand folded away to one line (on a phone it would cover the other displays).
  let collapsed = false;

  const seatName = (s) => data?.seats?.[s] ?? `seat ${s}`;
  const mySeat = () => { const v = data?.view?.viewer; return v?.type === 'Seat' ? v.seat : null; };
  const isMe = (s) => s === mySeat();
  const who = (s) => (isMe(s) ? 'You' : seatName(s));

  function send(action) {
    pending = null;
    ctx.send({ type: 'Act', action });
    render(data);
  }

  function tick() {
    for (const el of ctx.root.querySelectorAll('[data-countdown]')) {
      const left = deadline == null ? null : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      el.textContent = left == null ? '' : `${left} s`;
      const bar = el.parentElement?.querySelector('.iv-clock-bar > span');
      if (bar && left != null) bar.style.width = `${Math.min(100, (100 * (deadline - Date.now())) / ((data?.reactionSeconds ?? 15) * 1000))}%`;
    }
  }

  function render(d) {
    data = d;
    if (!d) return;
    if (!d.gameStarted || !d.view) { pending = null; deadline = null; return renderLobby(d); }
    const v = d.view;
    const legal = d.legal ?? [];
    // Drop an overlay whose options are no longer all legal (the phase moved on).
    if (pending && !pending.options.every((o) => legal.some((a) => same(a, o)))) pending = null;
    const mine = (d.waitingOn ?? []).find((w) => w.username === d.you);
    const clocks = (d.waitingOn ?? []).map((w) => w.msLeft).filter((x) => x != null);
    const ms = mine?.msLeft ?? (clocks.length ? Math.max(...clocks) : null);
    deadline = ms == null ? null : Date.now() + ms;

    const parts = [
      header(d, v),
      h('div', { class: 'iv-main' },
        piles(d, v),
        players(d, v)),
    ];
    const prompt = windowPrompt(d, v, legal);
    // The prompt, the hand and the card description stay in sight at the bottom of the
    // screen (a "dock"), however far the displays reach below the fold.
    const dock = [];
    if (prompt) dock.push(prompt);
    if (v.hand) dock.push(handArea(d, v, legal));
    else if (!d.replay) parts.push(h('p', { class: 'watching-note', dataset: { testid: 'watching' }, text: d.you ? 'You are watching this game. You can play in the next one.' : 'You are watching. Join to chat and play in the next game.' }));
    if (!(v.hand && collapsed)) {
      dock.push(h('section', { class: 'iv-desc card', dataset: { testid: 'description' }, attrs: { 'aria-live': 'polite', 'aria-label': 'Card description' } },
        described ? [h('strong', { text: cardInfo(described).name }), ' — ', cardInfo(described).desc.replace(/^[^:]*: /, '')]
          : h('span', { class: 'hint', text: 'Tap a card to read what it does, then tap it again (or Play) to play it; with a mouse, hover over it.' })));
    }
    // It sticks to the bottom of the screen only while a decision is yours: between your
    // turns it sits after the displays, so on a phone it covers none of them.
    const live = Boolean(prompt) || legal.length > 0;
    parts.push(h('div', { class: live ? 'dock' : 'dock dock-idle', dataset: { testid: 'dock', live: String(live) } }, dock));
    const overlay = choiceOverlay(d, v, legal);
    if (overlay) parts.push(overlay);
    replaceChildren(ctx.root, h('div', { class: 'ivanhoe', dataset: { phase: d.phase ?? '' } }, parts));
    tick();
    if (!timer) timer = setInterval(tick, 250);
    const focusIn = overlay ?? (prompt?.querySelector('button') ? prompt : null);
    // Move focus into a new overlay or prompt, unless the user is busy elsewhere (typing in the chat).
    const ae = document.activeElement;
    const idle = !ae || ae === document.body || ctx.root.contains(ae);
    if (focusIn && idle && !focusIn.contains(ae)) focusIn.querySelector('button:not([disabled])')?.focus();
  }

  function renderLobby(d) {
    const n = (d.players ?? []).filter((p) => !p.isSpectator).length;
    const list = h('ul', { class: 'iv-lobby-players' }, (d.players ?? []).map((p) =>
      h('li', { class: 'pcard', dataset: { player: p.username } },
        h('span', { class: 'pc-name', text: p.username }),
        p.username === d.host ? h('span', { class: 'badge badge-host', text: '★ host' }) : null,
        p.isBot ? h('span', { class: 'badge badge-bot', dataset: { testid: 'bot-level' }, text: botBadge(p) }) : null,
        ratingBadge(p),
        p.isSpectator ? h('span', { class: 'badge badge-spec', text: 'spectator' }) : null)));
    replaceChildren(ctx.root, h('div', { class: 'ivanhoe iv-lobby card' },
      h('h2', { text: 'Ivanhoe — a tournament of knights, 2 to 5 players' }),
      list,
      h('p', { class: 'lobby-note', text: n < (d.minPlayers ?? 2) ? `Waiting for players: ${n} of at least ${d.minPlayers ?? 2}.` : d.host === d.you ? 'Ready when you are: start the game (bots can fill empty seats).' : `Waiting for ${d.host ?? 'the host'} to start the game.` })));
  }

  // ---- top: tournament, colour, phase line ----

  function phaseLine(d, v) {
    const p = v.phase;
    const me = mySeat();
    switch (p.type) {
      case 'Start': return isMe(p.seat) ? 'Your turn: open the tournament — pick a card (its colour names the tournament).' : `${seatName(p.seat)} is opening a tournament.`;
      case 'Turn': return isMe(p.seat) ? 'Your turn: play cards, then end your turn.' : `${seatName(p.seat)}'s turn.`;
      case 'Window': return `${who(p.seat)} played ${actionText(p.action, v)} — waiting for answers.`;
      case 'Adapt': return isMe(p.seat) ? `Adapt: choose which card of value ${p.value} you keep.` : `Adapt: ${seatName(p.seat)} chooses which card of value ${p.value} to keep.`;
      case 'MaidenPenalty': return isMe(p.seat) ? 'You withdrew with a maiden: give back a token.' : `${seatName(p.seat)} withdrew with a maiden and gives back a token.`;
      case 'PurpleToken': return isMe(p.seat) ? 'You won a purple tournament: choose a token.' : `${seatName(p.seat)} won a purple tournament and chooses a token.`;
      case 'Over': return p.winner != null ? `Game over: ${who(p.winner)} won.` : 'Game over.';
      default: return me == null ? '' : '';
    }
  }

  function header(d, v) {
    const colour = v.colour;
    return h('div', { class: 'iv-head card', dataset: { testid: 'status' } },
      h('div', { class: 'iv-head-row' },
        h('span', { class: 'stat' }, 'Tournament ', h('strong', { text: String(v.tournaments + 1) })),
        h('span', { class: `iv-colour colour-${colour ?? 'none'}`, dataset: { testid: 'colour' }, text: colour ? COLOUR_NAME[colour] : 'colour not chosen' }),
        h('span', { class: 'stat hint', text: `${v.tokens_to_win} colours win` }),
        v.previous === 'purple' ? h('span', { class: 'stat hint', text: 'no purple after purple' }) : null),
      h('p', { class: 'iv-phase', dataset: { testid: 'phase' }, attrs: { role: 'status' }, text: phaseLine(d, v) }));
  }

  // ---- piles ----

  function piles(d, v) {
    const top = v.discard.length ? v.discard[v.discard.length - 1] : null;
    const turnSeat = v.phase.type === 'Turn' || v.phase.type === 'Start' ? v.phase.seat : null;
    const fresh = lastDraw && Date.now() - lastDraw.at < 4000;
    const drawNote = fresh ? `${who(lastDraw.seat)} drew` : turnSeat != null ? `${who(turnSeat)} drew at the start of the turn` : '';
    return h('div', { class: 'iv-piles', attrs: { role: 'group', 'aria-label': 'Piles' } },
      h('div', { class: `iv-pile iv-draw ${fresh ? 'just-drew' : ''}`, dataset: { testid: 'draw-pile' } },
        h('div', { class: 'iv-card iv-back', attrs: { 'aria-hidden': 'true' } }, h('span', { text: String(v.draw_count) })),
        h('span', { class: 'iv-pile-label', text: `Draw pile: ${v.draw_count}` }),
        drawNote ? h('span', { class: 'iv-pile-note', text: drawNote }) : null),
      h('div', { class: 'iv-pile iv-discard', dataset: { testid: 'discard-pile' } },
        top ? cardFace(top, { small: false }) : h('div', { class: 'iv-card iv-empty', attrs: { 'aria-hidden': 'true' } }),
        h('span', { class: 'iv-pile-label', text: `Discard: ${v.discard.length}${top ? ` (top ${cardInfo(top).name})` : ''}` })));
  }

  function cardFace(code, { small = true, key = null, extra = '' } = {}) {
    const c = cardInfo(code);
    const el = h('div', {
      class: `iv-card colour-${c.colour} ${small ? 'iv-small' : ''} ${extra}`, title: c.desc, tabIndex: key ? 0 : undefined,
      dataset: key ? { card: code, key } : { card: code }, attrs: { 'aria-label': c.name },
    }, h('span', { class: 'iv-card-value', text: c.action ? '★' : String(c.value) }), h('span', { class: 'iv-card-name', text: faceName(c) }));
    const show = () => { if (described !== code) { described = code; updateDesc(); } };
    el.addEventListener('mouseenter', show);
    el.addEventListener('focus', show);
    // A tap on a phone: no hover there.
    el.addEventListener('click', show);
    return el;
  }

  function updateDesc() {
    const box = ctx.root.querySelector('.iv-desc');
    if (!box || !described) return;
    const c = cardInfo(described);
    box.replaceChildren(h('strong', { text: c.name }), ' — ', c.desc.replace(/^[^:]*: /, ''));
  }

  // ---- players: display, total, status bar, hand count ----

  function players(d, v) {
    const active = v.phase.type === 'Window' ? v.phase.seat : v.active;
    const waiting = new Set((d.waitingOn ?? []).map((w) => w.username));
    const byName = new Map((d.players ?? []).map((p) => [p.username, p]));
    const order = v.players.map((p) => p.seat);
    const me = mySeat();
    if (me != null) order.push(...order.splice(0, me)); // your own display first
    return h('ul', { class: 'iv-players', attrs: { 'aria-label': 'Players' } }, order.map((s) => {
      const p = v.players[s];
      const name = seatName(s);
      const info = byName.get(name);
      const turn = s === active && v.phase.type !== 'Over';
      const badges = [];
      if (isMe(s)) badges.push(h('span', { class: 'badge badge-you', text: 'you' }));
      if (info?.isBot) badges.push(h('span', { class: 'badge badge-bot', dataset: { testid: 'bot-level' }, text: botBadge(info) }));
      if (ratingBadge(info)) badges.push(ratingBadge(info));
      if (name === d.host) badges.push(h('span', { class: 'badge badge-host', text: '★ host' }));
      if (info && !info.connected) badges.push(h('span', { class: 'badge badge-off', text: 'offline' }));
      if (waiting.has(name) && !turn) badges.push(h('span', { class: 'badge badge-wait', text: 'answering…' }));
      const tokens = COLOURS.map((c) => h('span', {
        class: `iv-token colour-${c} ${p.tokens.includes(c) ? 'has' : 'lacks'}`,
        title: `${COLOUR_NAME[c]} token${p.tokens.includes(c) ? '' : ' (not yet)'}`, attrs: { 'aria-hidden': 'true' },
      }));
      const status = h('div', { class: 'iv-status', dataset: { testid: 'status-bar' } },
        h('span', { class: 'iv-tokens', attrs: { role: 'img', 'aria-label': `Tokens: ${p.tokens.length ? p.tokens.join(', ') : 'none'}` } }, tokens),
        p.shield ? h('span', { class: 'iv-flag iv-shield', title: "Shield: opponents' action cards cannot touch this display", text: '🛡 Shield' }) : null,
        p.stunned ? h('span', { class: 'iv-flag iv-stunned', title: 'Stunned: one card added per turn', text: '✶ Stunned' }) : null,
        h('span', { class: 'iv-handcount', title: 'Cards in hand', dataset: { testid: 'hand-count' } }, h('span', { class: 'iv-mini-back', attrs: { 'aria-hidden': 'true' } }), ` ${p.hand_count}`, h('span', { class: 'sr-only', text: ' cards in hand' })));
      const display = p.withdrawn
        ? h('p', { class: 'iv-withdrawn', text: 'withdrawn' })
        : p.display.length
          ? h('div', { class: 'iv-display', attrs: { role: 'list', 'aria-label': `${name}'s display` } }, p.display.map((c, i) => {
            const f = cardFace(c, { key: `disp-${s}-${i}` });
            f.setAttribute('role', 'listitem');
            return f;
          }))
          : h('p', { class: 'iv-nodisplay hint', text: 'no cards yet' });
      return h('li', {
        class: ['iv-player', turn && 'is-turn', isMe(s) && 'is-me', p.withdrawn && 'is-out'].filter(Boolean).join(' '),
        dataset: { player: name, seat: String(s), total: String(p.total) }, attrs: { 'aria-current': turn ? 'true' : false },
      },
      h('div', { class: 'iv-player-head' },
        h('span', { class: 'pc-name', text: name }),
        turn ? h('span', { class: 'pc-turn', text: '▶ turn' }) : null,
        h('span', { class: `iv-total colour-${v.colour ?? 'none'}`, dataset: { testid: 'total' }, title: 'Display total', text: String(p.total) })),
      badges.length ? h('div', { class: 'badges' }, badges) : null,
      status, display);
    }));
  }

  // ---- the Ivanhoe window ----

  function windowPrompt(d, v, legal) {
    if (v.phase.type !== 'Window') return null;
    const p = v.phase;
    const me = mySeat();
    const asked = me != null && p.waiting.includes(me);
    const canIvanhoe = legal.some((a) => a.type === 'Ivanhoe');
    const clock = h('span', { class: 'iv-clock' }, h('span', { class: 'iv-clock-bar', attrs: { 'aria-hidden': 'true' } }, h('span')), h('span', { class: 'iv-clock-text', dataset: { countdown: '1', testid: 'countdown' } }));
    const text = `${who(p.seat)} played ${actionText(p.action, v)}.`;
    if (asked && canIvanhoe) {
      const yes = h('button', { type: 'button', class: 'primary', text: 'Play Ivanhoe — cancel it', dataset: { key: 'iv-ivanhoe', testid: 'play-ivanhoe' } });
      yes.addEventListener('click', () => send({ type: 'Ivanhoe' }));
      const no = h('button', { type: 'button', text: 'Let it be', dataset: { key: 'iv-pass', testid: 'pass' } });
      no.addEventListener('click', () => send({ type: 'Pass' }));
      return h('section', { class: 'iv-prompt card is-asked', dataset: { testid: 'ivanhoe-prompt' }, attrs: { role: 'alertdialog', 'aria-label': 'Ivanhoe?' } },
        h('p', { class: 'iv-prompt-text' }, h('strong', { text: text }), ' You hold Ivanhoe: cancel it?'),
        h('div', { class: 'iv-prompt-row' }, yes, no, clock));
    }
    const names = p.waiting.map((s) => (isMe(s) ? 'you' : seatName(s)));
    const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0] ?? 'nobody';
    const pass = asked ? h('button', { type: 'button', text: "Don't wait for me", dataset: { key: 'iv-pass', testid: 'pass' } }) : null;
    pass?.addEventListener('click', () => send({ type: 'Pass' }));
    return h('section', { class: 'iv-prompt card', dataset: { testid: 'window-wait' }, attrs: { role: 'status' } },
      h('p', { class: 'iv-prompt-text' }, h('strong', { text }), ` Waiting for ${list} to answer: Ivanhoe cancels it.`),
      h('div', { class: 'iv-prompt-row' }, pass, clock));
  }

  /** An action with its choices, as a phrase ("Unhorse (to red)", "Dodge on ben's Red 4"). */
  function actionText(a, v) {
    const code = cardOf(a);
    const name = cardInfo(code).name;
    const tgt = a.target != null ? (isMe(a.target) ? 'you' : seatName(a.target)) : null;
    const disp = (s, pos) => cardInfo(v.players[s]?.display?.[pos]).name ?? 'a card';
    const slot = (s, x) => (x.type === 'Shield' ? 'Shield' : x.type === 'Stunned' ? 'Stunned' : disp(s, x.pos));
    switch (a.type) {
      case 'Unhorse': case 'ChangeWeapon': return `${name} (to ${a.colour})`;
      case 'Dodge': return `${name} on ${tgt}'s ${disp(a.target, a.pos)}`;
      case 'Retreat': return `${name} (${disp(v.phase.seat ?? v.active, a.pos)})`;
      case 'Outwit': return `${name}: ${slot(v.phase.seat ?? v.active, a.give)} for ${tgt}'s ${slot(a.target, a.take)}`;
      default: return tgt ? `${name} on ${tgt}` : name;
    }
  }

  // ---- your hand and the end-turn button ----

  function handArea(d, v, legal) {
    const me = mySeat();
    const byCard = new Map();
    for (const a of legal) {
      const c = cardOf(a);
      if (c && a.type !== 'Ivanhoe') { if (!byCard.has(c)) byCard.set(c, []); byCard.get(c).push(a); }
    }
    const seen = new Map();
    const cards = v.hand.map((code) => {
      const n = seen.get(code) ?? 0;
      seen.set(code, n + 1);
      const options = byCard.get(code) ?? [];
      const c = cardInfo(code);
      const b = h('button', {
        type: 'button', class: `iv-card iv-hand-card colour-${c.colour} ${options.length ? 'playable' : ''} ${drewCard === code && n === 0 ? 'just-drawn' : ''}`,
        // Named by what it shows; the full name and whether it can be played for a screen reader.
        disabled: false, dataset: { key: `hand-${code}-${n}`, card: code, testid: 'hand-card', playable: options.length ? 'true' : 'false', name: c.name },
        attrs: { 'aria-disabled': options.length ? false : 'true' },
      }, h('span', { class: 'iv-card-value', text: c.action ? '★' : String(c.value) }), ' ', h('span', { class: 'iv-card-name', text: faceName(c) }),
      h('span', { class: 'sr-only', text: ` (${c.name}${options.length ? '' : ', cannot be played now'})` }));
      const show = () => { if (described !== code) { described = code; updateDesc(); } };
      b.addEventListener('mouseenter', show);
      b.addEventListener('focus', show);
      b.addEventListener('click', () => {
        described = code;
        if (!options.length) { updateDesc(); return; }
        choose(code, options);
      });
      return b;
    });
    const controls = [];
    const end = legal.find((a) => a.type === 'EndTurn');
    if (end) {
      const mine = v.players[me];
      const best = Math.max(0, ...v.players.filter((p) => p.seat !== me && !p.withdrawn).map((p) => p.total));
      const stays = v.played_this_turn && mine.total > best;
      const b = h('button', {
        type: 'button', class: stays ? 'primary iv-end' : 'danger iv-end', dataset: { key: 'end-turn', testid: 'end-turn', withdraws: stays ? 'false' : 'true' },
        text: stays ? `End turn — you stay in (${mine.total} vs ${best})` : `End turn and withdraw${v.played_this_turn ? ` (${mine.total} is not above ${best})` : ' (no card played)'}`,
      });
      b.addEventListener('click', () => send({ type: 'EndTurn' }));
      controls.push(b);
    }
    const myTurn = v.phase.type === 'Turn' && v.phase.seat === me;
    const hint = myTurn && byCard.size ? 'Pick a card to play.' : v.phase.type === 'Start' && v.phase.seat === me ? 'Pick the card you open with.' : '';
    const fold = h('button', {
      type: 'button', class: 'iv-fold', text: collapsed ? 'Show hand' : 'Hide', dataset: { key: 'hand-fold', testid: 'hand-fold' },
      attrs: { 'aria-expanded': collapsed ? 'false' : 'true' },
    });
    fold.addEventListener('click', () => { collapsed = !collapsed; render(data); });
    return h('section', { class: `iv-hand card ${myTurn || (v.phase.type === 'Start' && v.phase.seat === me) ? 'my-turn' : ''} ${collapsed ? 'is-folded' : ''}`, dataset: { testid: 'hand' }, attrs: { 'aria-label': 'Your hand' } },
      h('div', { class: 'row-between iv-hand-head' }, h('h2', { text: `Your hand (${v.hand.length})` }), hint ? h('span', { class: 'hint', text: hint }) : null, fold),
      collapsed ? null : h('div', { class: 'iv-hand-cards', attrs: { role: 'group', 'aria-label': 'Cards in your hand' } }, cards.length ? cards : h('span', { class: 'hint', text: 'No cards.' })),
      controls.length ? h('div', { class: 'iv-controls' }, controls) : null);
  }

  function choose(code, options) {
    const steps = STEPS[options[0].type] ?? [];
    if (options.length === 1) return send(options[0]);
    pending = { card: code, options, steps, picked: {} };
    render(data);
  }

  // ---- overlays: card choices, Adapt, tokens ----

  function remaining() {
    return pending.options.filter((o) => Object.entries(pending.picked).every(([k, val]) => same(o[k], val)));
  }

  function choiceOverlay(d, v, legal) {
    const me = mySeat();
    let title = '';
    let buttons = [];
    let cancellable = false;
    if (pending) {
      const left = remaining();
      const field = left.length > 1 ? pending.steps.find((f) => !(f in pending.picked)) ?? null : null;
      const c = cardInfo(pending.card);
      cancellable = true;
      if (!field) {
        title = `${c.name}: which?`;
        buttons = left.map((a, i) => pickButton(actionText(a, v), () => send(a), `opt-${i}`));
      } else {
        const values = [];
        for (const o of left) if (!values.some((x) => same(x, o[field]))) values.push(o[field]);
        const target = pending.picked.target;
        const label = (val) => {
          if (field === 'colour') return COLOUR_NAME[val];
          if (field === 'target') return seatName(val);
          if (field === 'pos') { const owner = pending.options[0].type === 'Retreat' ? me : target; return `${cardInfo(v.players[owner].display[val]).name} (card ${val + 1})`; }
          const owner = field === 'give' ? me : target;
          return val.type === 'Display' ? `${cardInfo(v.players[owner].display[val.pos]).name} (card ${val.pos + 1})` : val.type;
        };
        title = {
          colour: pending.options[0].type === 'Start' ? `Open with ${c.name}: which tournament colour?` : `${c.name}: change to which colour?`,
          target: `${c.name}: on whom?`,
          pos: pending.options[0].type === 'Retreat' ? `${c.name}: take back which of your cards?` : `${c.name}: discard which of ${seatName(target)}'s cards?`,
          give: `${c.name}: give which of your face-up cards?`,
          take: `${c.name}: take which of ${seatName(target)}'s face-up cards?`,
        }[field];
        buttons = values.map((val, i) => pickButton(label(val), () => {
          pending.picked[field] = val;
          const now = remaining();
          if (now.length === 1) send(now[0]); else render(data);
        }, `${field}-${i}`, field === 'colour' ? `colour-${val}` : ''));
      }
    } else {
      const keep = legal.filter((a) => a.type === 'Keep');
      const ret = legal.filter((a) => a.type === 'ReturnToken');
      const tok = legal.filter((a) => a.type === 'ChooseToken');
      if (keep.length) {
        title = `Adapt: which card of value ${v.phase.value} do you keep?`;
        buttons = keep.map((a, i) => pickButton(cardInfo(a.card).name, () => send(a), `keep-${i}`, `colour-${cardInfo(a.card).colour}`));
      } else if (ret.length) {
        title = 'You withdrew with a maiden: which token do you give back?';
        buttons = ret.map((a) => pickButton(COLOUR_NAME[a.colour], () => send(a), `ret-${a.colour}`, `colour-${a.colour}`));
      } else if (tok.length) {
        title = 'You won the purple tournament! Which token do you take?';
        buttons = tok.map((a) => pickButton(COLOUR_NAME[a.colour], () => send(a), `tok-${a.colour}`, `colour-${a.colour}`));
      } else return null;
    }
    const row = h('div', { class: 'pick-row' }, buttons);
    if (cancellable) {
      const cancel = h('button', { type: 'button', class: 'pick-cancel', text: 'Cancel', dataset: { key: 'pick-cancel' } });
      cancel.addEventListener('click', () => { pending = null; render(data); });
      row.appendChild(cancel);
    }
    const box = h('div', { class: 'iv-overlay', dataset: { testid: 'overlay' } },
      h('div', { class: 'iv-overlay-box card', attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'iv-overlay-title' } },
        h('h2', { id: 'iv-overlay-title', text: title }), row));
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && cancellable) { pending = null; render(data); }
      if (e.key === 'Tab') {
        // Keep the keyboard inside the overlay.
        const f = [...box.querySelectorAll('button:not([disabled])')];
        const i = f.indexOf(document.activeElement);
        if (e.shiftKey && i <= 0) { e.preventDefault(); f[f.length - 1].focus(); } else if (!e.shiftKey && i === f.length - 1) { e.preventDefault(); f[0].focus(); }
      }
    });
    return box;
  }

  function pickButton(label, onPick, key, cls = '') {
    const b = h('button', { type: 'button', class: `pick ${cls}`, text: label, dataset: { key: `pick-${key}`, testid: 'pick' } });
    b.addEventListener('click', onPick);
    return b;
  }

  // ---- the event log ----

  function packet(m) {
    if (m.type !== 'GameEvent') return null;
    const e = m.event ?? {};
    if (e.type === 'Drew') {
      lastDraw = { seat: e.seat, at: Date.now() };
      if (isMe(e.seat)) drewCard = e.card ?? null;
    }
    if (e.type === 'Declared' || e.type === 'Cancelled') described = cardOf(e.action ?? {}) ?? e.card ?? described;
    // The room announces the win itself (GameEnded): one line, not two.
    if (e.type === 'GameWon') return null;
    const text = typeof e.text === 'string' ? e.text : JSON.stringify(e);
    const priv = (e.type === 'Drew' && e.card && isMe(e.seat)) || (e.type === 'Took' && e.card);
    const big = { TournamentWon: 1, GameWon: 1, TournamentStarted: 1, Cancelled: 1 }[e.type];
    return { text, private: !!priv, cls: big ? 'log-big' : e.type === 'Declared' ? 'log-action' : '' };
  }

  return { render, packet };
}
