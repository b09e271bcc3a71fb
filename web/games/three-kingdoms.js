// The Three Kingdoms table (rules: docs/rules/three-kingdoms.md): the seats in a ring with you
// at the bottom (general and kingdom, HP pips, hand count, equipment, judgement area, role or
// "?", turn and phase, dying/dead marks, distance and whether in your attack range), your hand
// (tap a card to read it; using one highlights its valid targets), skill and phase buttons,
// the general choice, the response prompt with its countdown, the Negate chain as a stack,
// and the end screen with every role.
//
// Everything comes from GameDataSync: `view` (the engine's view for this viewer), `legal`
// (this seat's legal actions, sent back as {type:"Act", action}), `seats` (usernames by seat),
// `players` (each seat's public fields), `distance`/`inRange` (yours), `candidates` (your
// generals to choose from) and `waitingOn` (who must answer, with the time left). Log lines
// are each GameEvent's `text`. Nothing a player typed is ever inserted as HTML.

import { h, replaceChildren, botBadge, ratingBadge } from '/dom.js';

// Card ids index this table (the server's unit test checks it against the deck).
const DECK = 'S1:Duel S1:Lightning S2:YinYangSwords S2:EightTrigrams S2:FrostBlade S3:Dismantle S3:StealingSheep S4:Dismantle S4:StealingSheep S5:GreenDragonBlade S5:Shadowrunner S6:BlueSteelBlade S6:Acedia S7:Attack S7:Barbarians S8:Attack S8:Attack S9:Attack S9:Attack S10:Attack S10:Attack S11:StealingSheep S11:Negate S12:SerpentSpear S12:Dismantle S13:Barbarians S13:FerghanaHorse H1:PeachGarden H1:RainArrows H2:Dodge H2:Dodge H3:Peach H3:BumperHarvest H4:Peach H4:BumperHarvest H5:KirinBow H5:RedHare H6:Peach H6:Acedia H7:Peach H7:SomethingOutOfNothing H8:Peach H8:SomethingOutOfNothing H9:Peach H9:SomethingOutOfNothing H10:Attack H10:Attack H11:Attack H11:SomethingOutOfNothing H12:Peach H12:Dismantle H12:Lightning H13:Dodge H13:FlyingLightning C1:Duel C1:ZhugeCrossbow C2:Attack C2:EightTrigrams C2:RenwangShield C3:Attack C3:Dismantle C4:Attack C4:Dismantle C5:Attack C5:HexMark C6:Attack C6:Acedia C7:Attack C7:Barbarians C8:Attack C8:Attack C9:Attack C9:Attack C10:Attack C10:Attack C11:Attack C11:Attack C12:BorrowedSword C12:Negate C13:BorrowedSword C13:Negate D1:Duel D1:ZhugeCrossbow D2:Dodge D2:Dodge D3:Dodge D3:StealingSheep D4:Dodge D4:StealingSheep D5:Dodge D5:RockCleavingAxe D6:Attack D6:Dodge D7:Attack D7:Dodge D8:Attack D8:Dodge D9:Attack D9:Dodge D10:Attack D10:Dodge D11:Dodge D11:Dodge D12:Peach D12:SkyPiercingHalberd D12:Negate D13:Attack D13:VioletStallion';

// Kind → [name, kind of card, what it does].
const KINDS = {
  Attack: ['Attack', 'basic', 'Deal 1 damage to a player within your attack range unless they play a Dodge. Once per Play phase.'],
  Dodge: ['Dodge', 'basic', 'Play it when attacked to avoid the Attack.'],
  Peach: ['Peach', 'basic', 'Recover 1 HP in your Play phase (when wounded), or save a dying player.'],
  Dismantle: ['Dismantle', 'tool', "Discard one card of another player's (hand, equipment or judgement area)."],
  StealingSheep: ['Stealing Sheep', 'tool', 'Take one card of a player at distance 1.'],
  Duel: ['Duel', 'tool', 'You and a target take turns playing Attacks; the first who cannot takes 1 damage.'],
  BorrowedSword: ['Borrowed Sword', 'tool', 'A player with a weapon must Attack the player you name, or give you the weapon.'],
  SomethingOutOfNothing: ['Something Out of Nothing', 'tool', 'Draw 2 cards.'],
  Negate: ['Negate', 'tool', 'Cancel a tool card\'s effect on one target (a Negate can be negated too).'],
  Barbarians: ['Barbarians', 'tool', 'Every other player plays an Attack or takes 1 damage.'],
  RainArrows: ['Rain of Arrows', 'tool', 'Every other player plays a Dodge or takes 1 damage.'],
  PeachGarden: ['Peach Garden', 'tool', 'Every player recovers 1 HP.'],
  BumperHarvest: ['Bumper Harvest', 'tool', 'Reveal one card per living player; each takes one in turn.'],
  Acedia: ['Acedia', 'delayed tool', 'Placed on a player: at their judgement, unless ♥ they skip their Play phase.'],
  Lightning: ['Lightning', 'delayed tool', 'Judged each turn: ♠ 2–9 deals 3 damage, else it passes on.'],
  ZhugeCrossbow: ['Zhuge Crossbow', 'weapon · range 1', 'Any number of Attacks in your Play phase.'],
  YinYangSwords: ['Yin-Yang Swords', 'weapon · range 2', 'Attacking the other gender: they discard a card or you draw one.'],
  BlueSteelBlade: ['Blue Steel Blade', 'weapon · range 2', 'Your Attacks ignore armour.'],
  FrostBlade: ['Frost Blade', 'weapon · range 2', 'Instead of dealing Attack damage, discard 2 of the target\'s cards.'],
  GreenDragonBlade: ['Green Dragon Blade', 'weapon · range 3', 'When your Attack is dodged, you may Attack again.'],
  SerpentSpear: ['Serpent Spear', 'weapon · range 3', 'Use or play two hand cards as an Attack.'],
  RockCleavingAxe: ['Rock Cleaving Axe', 'weapon · range 3', 'When your Attack is dodged, discard 2 cards to hit anyway.'],
  SkyPiercingHalberd: ['Sky Piercing Halberd', 'weapon · range 4', 'Your last hand card as an Attack may target up to 3 players.'],
  KirinBow: ['Kirin Bow', 'weapon · range 5', 'When your Attack hits, discard one of the target\'s horses.'],
  EightTrigrams: ['Eight Trigrams', 'armour', 'When you need a Dodge: a red judgement is one.'],
  RenwangShield: ['Renwang Shield', 'armour', 'Black Attacks have no effect on you.'],
  Shadowrunner: ['Shadowrunner', '+1 horse', 'Others count 1 more distance to you.'],
  HexMark: ['Hex Mark', '+1 horse', 'Others count 1 more distance to you.'],
  FlyingLightning: ['Flying Lightning', '+1 horse', 'Others count 1 more distance to you.'],
  RedHare: ['Red Hare', '−1 horse', 'You count 1 less distance to others.'],
  FerghanaHorse: ['Ferghana Horse', '−1 horse', 'You count 1 less distance to others.'],
  VioletStallion: ['Violet Stallion', '−1 horse', 'You count 1 less distance to others.'],
};
const SUIT = { S: ['♠', 'Spade', 'black'], H: ['♥', 'Heart', 'red'], C: ['♣', 'Club', 'black'], D: ['♦', 'Diamond', 'red'] };
const RANK = ['?', 'A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
const CARDS = DECK.split(' ').map((e, id) => {
  const [sr, kind] = e.split(':');
  const suit = sr[0];
  const rank = Number(sr.slice(1));
  return { id, suit: SUIT[suit][0], colour: SUIT[suit][2], rank: RANK[rank], kind, name: KINDS[kind][0], type: KINDS[kind][1], text: KINDS[kind][2] };
});
const card = (id) => CARDS[id] ?? { id, suit: '?', colour: 'black', rank: '?', kind: '?', name: `card ${id}`, type: '', text: '' };
const kindName = (k) => KINDS[k]?.[0] ?? String(k);
const cardLabel = (id) => { const c = card(id); return `${c.suit}${c.rank} ${c.name}`; };
const SLOTS = ['weapon', 'armour', '+1 horse', '−1 horse'];
const KINGDOM = { Wei: 'Wei', Shu: 'Shu', Wu: 'Wu', Qun: 'Qun' };
const PHASE = { lordChooses: 'the Lord chooses a general', othersChoose: 'choosing generals', start: 'Start phase', judgement: 'Judgement phase', draw: 'Draw phase', play: 'Play phase', discard: 'Discard phase', end: 'End phase', over: 'game over' };
/** "SunShangXiang" → "Sun Shang Xiang". */
const spaced = (s) => String(s).replace(/([a-z])([A-Z])/g, '$1 $2');

const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);
/** The hand cards an action uses. */
function cardsOf(a) {
  if (a.card != null) return [a.card];
  if (Array.isArray(a.cards)) return a.cards;
  return [];
}
/** The seats an action names, in order. */
function seatsOf(a) {
  if (Array.isArray(a.targets)) return a.targets;
  for (const k of ['to', 'target']) if (a[k] != null) return [a[k]];
  if (a.first != null) return [a.first, a.second];
  return [];
}
const ANSWERS = new Set(['Respond', 'RespondSpear']);
const CARD_ACTIONS = new Set(['Use', 'UseSpear', 'Respond', 'RespondSpear', 'Discard', 'Benevolence', 'GreenSalve', 'SeedOfAnimosity', 'Marriage', 'Give', 'Displace']);

let cssLoaded = false;
function loadCss() {
  if (cssLoaded) return;
  cssLoaded = true;
  document.head.appendChild(h('link', { rel: 'stylesheet', href: '/games/three-kingdoms.css' }));
}

/** A seat's final state for the room's end screen: role, general and HP (every role is face
 * up once the game is over). */
export function standing(d, player) {
  const seat = (d?.seats ?? []).indexOf(player.username);
  const p = d?.view?.players?.[seat];
  if (!p) return player.inGame === false ? 'out' : '';
  return [p.role ?? '?', p.general ? spaced(p.general) : null, p.alive ? `${p.hp} / ${p.max_hp} HP` : 'dead'].filter(Boolean).join(' · ');
}

/** Whether the table asks nothing of you: a window the server passes for you (`autoPass`:
 * you can only pass, you said "No Negate for this card", or it is your own trick), so the
 * room page shows no clock of yours. */
export function idle(d) {
  const me = d?.view?.viewer;
  const legal = d?.legal ?? [];
  if (typeof me !== 'number' || d.view.waiting?.Ask?.seat !== me) return false;
  return d.autoPass != null || (legal.length > 0 && legal.every((a) => a.type === 'Pass'));
}

/** The room form's Three Kingdoms options: the pace (`gameOptions.pace`). */
export function createOptions() {
  loadCss();
  const sel = h('select', { id: 'tk-pace', name: 'pace', dataset: { testid: 'tk-pace' }, attrs: { 'aria-describedby': 'tk-pace-hint' } },
    h('option', { value: 'normal', text: 'Normal' }),
    h('option', { value: 'fast', text: 'Fast' }));
  const element = h('div', { class: 'tk-create-options' },
    h('label', { for: 'tk-pace', text: 'Pace' }), sel,
    h('p', { id: 'tk-pace-hint', class: 'hint', text: 'Fast: 8 s to answer a card (15 s normally), 20 s to choose (30 s), and quicker windows for bots and for players who pass.' }));
  return { element, value: () => ({ pace: sel.value }) };
}

export function mount(ctx) {
  loadCss();
  let data = null;
  let described = null; // card id being read
  let pending = null; // {options, picked: [seats], label}
  let deadline = null;
  let timer = null;
  let lastUse = null; // {seat, kind, targets} of the last card used
  let chain = []; // Negates played in the open chain: [{seat, card}]
  let result = null; // the GameOver event of the last game
  let over = null; // the same, kept until the room's GameEnded asks for the log's last line

  const seatName = (s) => data?.seats?.[s] ?? `seat ${s}`;
  const mySeat = () => (typeof data?.view?.viewer === 'number' ? data.view.viewer : null);
  const isMe = (s) => s === mySeat();
  const pub = (s) => (data?.players ?? []).find((p) => p.username === seatName(s)) ?? {};
  /** "Zhang Fei (ana)", or the username before generals are known. */
  const who = (s) => {
    if (isMe(s)) return 'you';
    const g = data?.view?.players?.[s]?.general;
    return g ? `${spaced(g)} (${seatName(s)})` : seatName(s);
  };

  function send(action, extra = {}) {
    pending = null;
    ctx.send({ type: 'Act', action, ...extra });
  }

  function tick() {
    for (const el of ctx.root.querySelectorAll('[data-countdown]')) {
      const left = deadline == null ? null : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      el.textContent = left == null ? '' : `${left} s`;
    }
  }

  function render(d) {
    data = d;
    if (!d) return;
    if (!d.gameStarted || !d.view) { pending = null; deadline = null; chain = []; return renderLobby(d); }
    result = null;
    const v = d.view;
    const legal = d.legal ?? [];
    if (pending && !pending.options.every((o) => legal.some((a) => same(a, o)))) pending = null;
    if (v.request !== 'Negate') chain = [];
    const mine = (d.waitingOn ?? []).find((w) => w.username === d.you);
    const clocks = (d.waitingOn ?? []).map((w) => w.msLeft).filter((x) => x != null);
    const ms = mine?.msLeft ?? (clocks.length ? Math.max(...clocks) : null);
    deadline = ms == null ? null : Date.now() + ms;

    const me = mySeat();
    const n = v.players.length;
    const bottom = me ?? 0;
    const others = [];
    for (let i = 1; i < n; i++) others.push((bottom + i) % n);
    const seatEls = others.map((s) => seatBox(d, v, s, legal));
    const ring = h('div', { class: 'tk-ring', dataset: { testid: 'ring', seats: String(n) } });
    // Counter-clockwise from you: up the right side, right to left along the top, down the
    // left side. (On a phone the CSS makes this one list in that order, your seat last.)
    const m = others.length;
    const side = Math.floor((m + 1) / 4);
    const top = m - 2 * side;
    const topRow = h('div', { class: 'tk-top' });
    topRow.style.gridRow = '1';
    topRow.style.gridColumn = '1 / -1';
    seatEls.forEach((el, i) => {
      if (i < side) {
        el.style.gridRow = String(side + 1 - i);
        el.style.gridColumn = '3';
        ring.appendChild(el);
      } else if (i < side + top) {
        topRow.prepend(el);
        if (i === side + top - 1) ring.appendChild(topRow);
      } else {
        el.style.gridRow = String(2 + (i - side - top));
        el.style.gridColumn = '1';
        ring.appendChild(el);
      }
    });
    if (top === 0) ring.appendChild(topRow);
    const centre = h('div', { class: 'tk-centre', dataset: { testid: 'centre' } }, centreParts(d, v, legal));
    centre.style.gridRow = `2 / ${side + 2}`;
    centre.style.gridColumn = '2';
    ring.appendChild(centre);
    const meBox = seatBox(d, v, bottom, legal);
    meBox.classList.add('tk-bottom');
    meBox.style.gridRow = String(side + 2);
    meBox.style.gridColumn = '2';
    ring.appendChild(meBox);

    const parts = [header(d, v), ring];
    const choose = generalChoice(d, v, legal);
    if (choose) parts.push(choose);
    // While generals are chosen nobody holds a card yet: no empty hand under the choice (on a
    // phone it took the room the choice needs).
    const choosing = ['LordChooses', 'OthersChoose'].includes(v.step) && !v.hand.length;
    if (me != null && !choosing) parts.push(handArea(d, v, legal));
    else parts.push(h('p', { class: 'watching-note', dataset: { testid: 'watching' }, text: d.you ? 'You are watching this game (or out of it). You can play in the next one.' : 'You are watching. Join to chat and play in the next game.' }));
    parts.push(h('section', { class: 'tk-desc card', dataset: { testid: 'description' }, attrs: { 'aria-live': 'polite', 'aria-label': 'Card description' } }, describe()));
    const overlay = pickOverlay(v);
    if (overlay) parts.push(overlay);
    replaceChildren(ctx.root, h('div', { class: 'tk', dataset: { phase: d.phase ?? '', step: typeof v.step === 'string' ? v.step : 'Over' } }, parts));
    tick();
    if (!timer) timer = setInterval(tick, 250);
  }

  function describe() {
    if (described == null) return h('span', { class: 'hint', text: 'Tap or hover a card to read it.' });
    const c = card(described);
    return [h('strong', { text: `${c.suit}${c.rank} ${c.name}` }), ` (${c.type}) — ${c.text}`];
  }

  function renderLobby(d) {
    const n = (d.players ?? []).filter((p) => !p.isSpectator).length;
    const list = h('ul', { class: 'tk-lobby-players' }, (d.players ?? []).map((p) =>
      h('li', { class: 'pcard', dataset: { player: p.username } },
        h('span', { class: 'pc-name', text: p.username }),
        p.username === d.host ? h('span', { class: 'badge badge-host', text: '★ host' }) : null,
        p.isBot ? h('span', { class: 'badge badge-bot', dataset: { testid: 'bot-level' }, text: botBadge(p) }) : null,
        ratingBadge(p),
        p.isSpectator ? h('span', { class: 'badge badge-spec', text: 'spectator' }) : null)));
    const parts = [
      h('h2', { text: 'Three Kingdoms — Lord, Loyalists, Rebels and Spy, 4 to 10 players' }),
      list,
      h('p', { class: 'lobby-note', text: n < (d.minPlayers ?? 4) ? `Waiting for players: ${n} of at least ${d.minPlayers ?? 4} (bots can fill seats).` : d.host === d.you ? 'Ready when you are: start the game.' : `Waiting for ${d.host ?? 'the host'} to start the game.` }),
    ];
    if (result) parts.unshift(endScreen(result));
    replaceChildren(ctx.root, h('div', { class: 'tk tk-lobby card' }, parts));
  }

  /** Who won, as a side: "The Lord and the Loyalists win" (`e`: a GameOver event with names). */
  function sideWins(e) {
    const w = e.winners;
    return w === 'LordAndLoyalists' ? 'The Lord and the Loyalists win' : w === 'Rebels' ? 'The Rebels win' : w?.Spy != null ? `The Spy ${e.names?.[w.Spy] ?? ''} wins alone` : null;
  }

  function endScreen(e) {
    const side = sideWins(e);
    const title = side ? `${side}!` : 'Nobody wins.';
    const alive = new Set(e.aliveSeats ?? []);
    return h('section', { class: 'tk-end card', dataset: { testid: 'end-screen' } },
      h('h2', { text: title }),
      h('ul', { class: 'tk-roles' }, (e.roles ?? []).map(([s, role]) => h('li', { class: `tk-role-${role}`, dataset: { testid: 'end-role' } },
        h('strong', { text: e.names?.[s] ?? `seat ${s}` }), e.generals?.[s] ? ` — ${e.generals[s]}` : '', ` — ${role}`, alive.has(s) ? '' : ' (dead)'))));
  }

  // ---- header: turn and phase ----

  function header(d, v) {
    const step = typeof v.step === 'string' ? v.step : 'Over';
    let line;
    if (step === 'LordChooses') line = isMe(v.players.findIndex((p) => p.role === 'Lord')) ? 'You are the Lord: choose your general.' : 'The Lord is choosing a general.';
    else if (step === 'OthersChoose') line = (d.candidates?.length && (d.legal ?? []).length) ? 'Choose your general.' : 'Everyone else is choosing a general.';
    else if (step === 'Over' || d.phase === 'over') line = `Game over after ${v.turn} turns.`;
    else line = `Turn ${v.turn}: ${isMe(v.current) ? 'your' : `${who(v.current)}'s`} ${PHASE[d.phase] ?? d.phase}.`;
    return h('div', { class: 'tk-head card', dataset: { testid: 'status' } },
      h('p', { class: 'tk-phase', dataset: { testid: 'phase' }, attrs: { role: 'status' }, text: line }),
      h('span', { class: 'stat hint', text: `Draw pile ${v.draw_count} · discard ${v.discard.length}` }));
  }

  // ---- one seat ----

  function seatBox(d, v, s, legal) {
    const p = v.players[s];
    const name = seatName(s);
    const info = pub(s);
    const me = mySeat();
    const turn = s === v.current && typeof v.step === 'string' && !['LordChooses', 'OthersChoose'].includes(v.step);
    const waiting = (d.waitingOn ?? []).some((w) => w.username === name);
    // Before generals are chosen every seat has 0 of 0 HP: nobody is dying then.
    const choosing = ['LordChooses', 'OthersChoose'].includes(v.step);
    const dying = p.alive && !choosing && p.max_hp > 0 && (p.hp <= 0 || (v.request === 'Peach' && v.about?.[1] === s));
    const target = pending ? targetOptions(pending).has(s) : false;
    const badges = [];
    if (isMe(s)) badges.push(h('span', { class: 'badge badge-you', text: 'you' }));
    if (info.isBot) badges.push(h('span', { class: 'badge badge-bot', dataset: { testid: 'bot-level' }, text: botBadge(info) }));
    if (ratingBadge(info)) badges.push(ratingBadge(info));
    if (info.connected === false) badges.push(h('span', { class: 'badge badge-off', text: 'offline' }));
    if (waiting && !turn) badges.push(h('span', { class: 'badge badge-wait', text: 'answering…' }));
    const role = p.role ?? null;
    const hp = [];
    for (let i = 0; i < Math.max(p.max_hp, 0); i++) hp.push(h('span', { class: `tk-pip ${i < p.hp ? 'full' : 'lost'}`, attrs: { 'aria-hidden': 'true' } }));
    const equip = p.equip.map((c, i) => (c == null ? null : h('li', { class: `tk-equip colour-${card(c).colour}`, title: `${card(c).name}: ${card(c).text}`, dataset: { card: String(c) }, on: { click: () => { described = c; updateDesc(); } } },
      h('span', { class: 'tk-slot', text: SLOTS[i] }), ` ${card(c).suit}${card(c).rank} ${card(c).name}`))).filter(Boolean);
    const judge = p.judge.map(([c, k]) => h('span', { class: 'tk-judge', title: `${kindName(k)} (${cardLabel(c)})`, text: kindName(k) }));
    const dist = me != null && s !== me && d.distance ? d.distance[s] : null;
    const inRange = me != null && d.inRange ? d.inRange[s] : false;
    const picked = !!pending?.set && pending.picked.includes(s);
    const cls = ['tk-seat', 'card', turn && 'is-turn', isMe(s) && 'is-me', !p.alive && 'is-dead', dying && 'is-dying', target && 'is-target', picked && 'is-picked', waiting && 'is-waiting'].filter(Boolean).join(' ');
    const el = h('article', {
      class: cls, dataset: { testid: 'seat', seat: String(s), player: name, role: role ?? '?', alive: String(p.alive) },
      attrs: { 'aria-label': `${name}${p.general ? `, ${spaced(p.general)}` : ''}${p.alive ? `, ${p.hp} of ${p.max_hp} HP` : ', dead'}`, 'aria-current': turn ? 'true' : false },
    },
    h('div', { class: 'tk-seat-head' },
      h('span', { class: 'pc-name', text: name }),
      h('span', { class: `tk-rolebadge role-${role ?? 'unknown'}`, dataset: { testid: 'role' }, title: role ? `Role: ${role}` : 'Role unknown', text: role ?? '?' }),
      turn ? h('span', { class: 'pc-turn', text: `▶ ${PHASE[d.phase] ?? ''}` }) : null),
    h('div', { class: 'tk-general' },
      p.general ? h('span', { class: `tk-kingdom k-${info.kingdom ?? ''}`, text: KINGDOM[info.kingdom] ?? '' }) : null,
      h('span', { class: 'tk-gname', text: p.general ? spaced(p.general) : 'choosing…' })),
    h('div', { class: 'tk-stats' },
      h('span', { class: 'tk-hp', dataset: { testid: 'hp' }, title: `${p.hp} / ${p.max_hp} HP`, attrs: { role: 'img', 'aria-label': `${p.hp} of ${p.max_hp} HP` } }, hp),
      h('span', { class: 'tk-handcount', dataset: { testid: 'hand-count' }, title: 'Cards in hand', text: `🂠 ${p.hand_count}` }),
      dist != null && p.alive ? h('span', { class: `tk-dist ${inRange ? 'in-range' : ''}`, dataset: { testid: 'distance' }, title: inRange ? 'Within your attack range' : 'Out of your attack range', text: `↔${dist}${inRange ? ' ⚔' : ''}` }) : null),
    equip.length ? h('ul', { class: 'tk-equips' }, equip) : null,
    judge.length ? h('div', { class: 'tk-judges', title: 'Judgement area' }, judge) : null,
    !p.alive ? h('div', { class: 'tk-mark tk-dead', text: 'dead' }) : dying ? h('div', { class: 'tk-mark tk-dyingmark', text: 'dying!' }) : null,
    badges.length ? h('div', { class: 'badges' }, badges) : null);
    if (target) {
      el.tabIndex = 0;
      el.dataset.key = `seat-${s}`;
      const go = () => pickSeat(s);
      el.addEventListener('click', go);
      el.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); } });
    }
    return el;
  }

  // ---- the centre: prompt, Negate chain, cards on the table ----

  function centreParts(d, v, legal) {
    const parts = [];
    const prompt = responsePrompt(d, v, legal);
    if (prompt) parts.push(prompt);
    if (v.request === 'Negate' && v.about) parts.push(negateChain(v));
    if (v.table.length) {
      parts.push(h('div', { class: 'tk-table', attrs: { 'aria-label': 'Cards on the table' } },
        v.table.map((c) => miniCard(c))));
    }
    if (pending?.set) {
      const chosen = setMatch(pending);
      const names = pending.picked.map((s) => who(s)).join(' and ');
      parts.push(h('p', { class: 'tk-picking', dataset: { testid: 'picking' } },
        `${pending.label}: tap up to ${pending.most} highlighted seats${names ? ` (chosen: ${names})` : ''}. `,
        h('button', { type: 'button', class: 'primary', text: 'Confirm', dataset: { key: 'pick-confirm', testid: 'pick-confirm' }, attrs: { disabled: chosen ? false : true }, on: { click: () => { if (chosen) send(chosen); } } }),
        ' ',
        h('button', { type: 'button', text: 'Cancel', dataset: { key: 'pick-cancel' }, on: { click: () => { pending = null; render(data); } } })));
    } else if (pending) {
      parts.push(h('p', { class: 'tk-picking', dataset: { testid: 'picking' } }, pending.label, ' — tap a highlighted seat. ',
        h('button', { type: 'button', text: 'Cancel', dataset: { key: 'pick-cancel' }, on: { click: () => { pending = null; render(data); } } })));
    }
    if (!parts.length) parts.push(h('p', { class: 'hint', text: v.waiting ? '' : '' }));
    return parts;
  }

  function miniCard(c) {
    const x = card(c);
    return h('span', { class: `tk-mini colour-${x.colour}`, title: x.text, dataset: { card: String(c) }, on: { click: () => { described = c; updateDesc(); } } }, `${x.suit}${x.rank} ${x.name}`);
  }

  function negateChain(v) {
    const [kind, target] = v.about;
    const user = lastUse && lastUse.kind === kind ? who(lastUse.seat) : null;
    const items = [h('li', { class: 'tk-chain-base' }, h('strong', { text: kindName(kind) }), user ? ` from ${user}` : '', ` on ${who(target)}`)];
    // The Negates played so far: from this page's own events, or, on a table drawn without
    // them (the replay viewer, a reload), the Negate cards face up on the table.
    const negates = chain.length ? chain : (v.table ?? []).filter((c) => card(c).kind === 'Negate').map((c) => ({ seat: null, card: c }));
    negates.forEach((x) => items.push(h('li', { class: 'tk-chain-negate', dataset: { testid: 'chain-negate' } },
      x.seat != null ? `Negate by ${who(x.seat)}` : 'Negate', x.card != null ? ` (${cardLabel(x.card)})` : '')));
    const last = negates[negates.length - 1];
    const by = !last ? '' : `${last.seat != null ? ` by the Negate from ${who(last.seat)}` : ' by the Negate'}${last.card != null ? ` (${cardLabel(last.card)})` : ''}`;
    return h('section', { class: 'tk-chain', dataset: { testid: 'negate-chain' }, attrs: { 'aria-label': 'Negate chain' } },
      h('h3', { text: 'Negate chain' }),
      h('ol', { class: 'tk-chain-list' }, items),
      h('p', { class: `tk-chain-state ${v.negated ? 'cancelled' : 'stands'}`, text: v.negated ? `As things stand: ${kindName(kind)} is cancelled${by}.` : `As things stand: ${kindName(kind)} takes effect.` }));
  }

  function responsePrompt(d, v, legal) {
    const me = mySeat();
    const askedSeat = v.waiting?.Ask?.seat;
    if (askedSeat == null) return null;
    const need = v.request ? kindName(v.request) : 'a card';
    let what;
    let cause;
    if (v.request === 'Peach' && v.about) { cause = `${isMe(v.about[1]) ? 'You are' : `${who(v.about[1])} is`} dying`; what = `${cause}: use a Peach?`; } else if (v.request === 'Negate' && v.about) { cause = `${kindName(v.about[0])} on ${who(v.about[1])}`; what = `${cause}: play Negate?`; } else if (lastUse) { cause = `${kindName(lastUse.kind)} from ${who(lastUse.seat)}`; what = `${cause}: play ${need}?`; } else { cause = ''; what = `Play ${need}?`; }
    const clock = h('span', { class: 'tk-clock', dataset: { countdown: '1', testid: 'countdown' } });
    if (askedSeat === me && idle(d)) {
      // The server passes for you (at a moment that does not tell the table whether you hold
      // anything, with the same clock shown to everyone), so nothing is asked.
      const why = d.autoPass === 'forCard' ? 'you said no Negate for this card, so you pass.'
        : d.autoPass === 'ownCard' ? 'it is your own trick, so you pass.'
          : 'you have nothing to play, so you pass.';
      return h('section', { class: 'tk-prompt', dataset: { testid: 'pass-only', why: d.autoPass ?? 'onlyPass' }, attrs: { role: 'status' } },
        h('p', { class: 'tk-prompt-text' }, `${cause ? `${cause}: ` : ''}${why}`));
    }
    if (askedSeat === me) {
      const answers = legal.filter((a) => a.type !== 'Pass');
      const buttons = answers.map((a, i) => h('button', {
        type: 'button', class: i === 0 ? 'primary' : '', dataset: { key: `answer-${i}`, testid: 'answer' }, text: actionText(a),
        on: { click: () => send(a) },
      }));
      const pass = legal.find((a) => a.type === 'Pass');
      if (pass) buttons.push(h('button', { type: 'button', dataset: { key: 'answer-pass', testid: 'pass' }, text: 'Pass', on: { click: () => send(pass) } }));
      // A Negate window: pass on every later window of this card too (all its targets).
      if (pass && v.request === 'Negate') {
        buttons.push(h('button', { type: 'button', dataset: { key: 'answer-pass-card', testid: 'pass-card' }, text: 'No Negate for this card', title: 'Pass now and on every other target of this card', on: { click: () => send(pass, { forCard: true }) } }));
      }
      return h('section', { class: 'tk-prompt is-asked', dataset: { testid: 'response-prompt', request: v.request ?? '', about: JSON.stringify(v.about ?? null) }, attrs: { role: 'alertdialog', 'aria-label': what } },
        h('p', { class: 'tk-prompt-text' }, h('strong', { text: what })),
        h('div', { class: 'tk-prompt-row' }, buttons, clock));
    }
    return h('section', { class: 'tk-prompt', dataset: { testid: 'response-wait' }, attrs: { role: 'status' } },
      h('p', { class: 'tk-prompt-text' }, `${cause ? `${cause}: ` : ''}${who(askedSeat)} may play ${v.request === 'Peach' ? 'a Peach' : need}. `, clock));
  }

  // ---- actions as words ----

  function actionText(a) {
    const tg = seatsOf(a).map((s) => who(s)).join(', ');
    const cs = cardsOf(a).map(cardLabel).join(' + ');
    switch (a.type) {
      case 'Use': return `${card(a.card).kind === a.kind ? '' : `${cs} as `}${kindName(a.kind)}${card(a.card).kind === a.kind ? ` (${cs})` : ''}${tg ? ` → ${tg}` : ''}`;
      case 'UseSpear': return `Serpent Spear: ${cs} as Attack → ${tg}`;
      case 'Respond': return `${kindName(a.kind)} (${cs})`;
      case 'RespondSpear': return `Serpent Spear: ${cs} as Attack`;
      case 'EightTrigrams': return 'Eight Trigrams judgement';
      case 'AskHelpers': return 'Ask your kingdom for help';
      case 'Pass': return 'Pass';
      case 'EndPlay': return 'End Play phase';
      case 'Confirm': return a.yes ? 'Yes' : 'No';
      case 'Pick': return a.zone.Hand != null ? `Hand card ${a.zone.Hand + 1}` : a.zone.Equip != null ? `Equipment: ${a.zone.Equip}` : `Judgement card ${a.zone.Judge + 1}`;
      case 'Discard': return `Discard ${cs}`;
      case 'Choose': return spaced(a.choice);
      case 'NameSuit': return { Spade: '♠ Spade', Heart: '♥ Heart', Club: '♣ Club', Diamond: '♦ Diamond' }[a.suit] ?? a.suit;
      case 'Take': return `Take ${cs}`;
      case 'Place': return `${cs} on the ${a.top ? 'top' : 'bottom'}`;
      case 'Give': return `Give ${cs} to ${tg}`;
      case 'Displace': return `Discard ${cs}: move the Attack to ${tg}`;
      case 'DrawNormally': return 'Draw 2 cards';
      case 'Raid': return `Raid: take a hand card from ${tg}`;
      case 'BareChested': return 'Bare-Chested: draw 1, +1 damage this turn';
      case 'Done': return 'Done';
      case 'ChooseGeneral': return spaced(a.general);
      case 'Rouse': return `Rouse → ${tg}`;
      case 'Benevolence': return `Benevolence: give ${cs} to ${tg}`;
      case 'GreenSalve': return `Green Salve: ${cs}, heal ${tg}`;
      case 'SeedOfAnimosity': return `Seed of Animosity: ${who(a.second)} duels ${who(a.first)} (${cs})`;
      case 'Marriage': return `Marriage: ${cs} → ${tg}`;
      case 'SowDissension': return `Sow Dissension → ${tg}`;
      case 'Balance': return 'Balance of Power';
      case 'TrojanFlesh': return 'Trojan Flesh';
      default: return spaced(a.type);
    }
  }

  // ---- choosing a general ----

  function generalChoice(d, v, legal) {
    const options = legal.filter((a) => a.type === 'ChooseGeneral');
    if (!options.length) return null;
    const info = new Map((d.candidates ?? []).map((c) => [c.general, c]));
    return h('section', { class: 'tk-choose card', dataset: { testid: 'general-choice' }, attrs: { 'aria-label': 'Choose your general' } },
      h('h2', {}, 'Choose your general ', h('span', { class: 'tk-clock', dataset: { countdown: '1' } })),
      // Your role (shown under the hand in play; there is no hand yet).
      v.players[mySeat()]?.role ? h('p', { class: 'tk-choose-role', dataset: { testid: 'choose-role' } }, 'You are the ', h('strong', { text: v.players[mySeat()].role }), '.') : null,
      h('div', { class: 'tk-generals' }, options.map((a, i) => {
        const g = info.get(a.general) ?? { name: spaced(a.general), skills: [] };
        const texts = g.skillTexts ?? [];
        return h('button', { type: 'button', class: 'tk-gen-option', dataset: { key: `gen-${i}`, testid: 'general', general: a.general }, on: { click: () => send(a) } },
          h('span', { class: 'tk-gen-head' },
            h('strong', { text: g.name }),
            g.kingdom ? h('span', { class: `tk-kingdom k-${g.kingdom}`, text: g.kingdom }) : null,
            g.hp ? h('span', { text: `${g.hp} HP` }) : null),
          h('ul', { class: 'tk-skills' }, g.skills.map((name, k) => h('li', { dataset: { testid: 'skill' } },
            h('strong', { text: name }), texts[k] ? `: ${texts[k]}` : ''))));
      })));
  }

  // ---- your hand, skills, phase buttons ----

  function handArea(d, v, legal) {
    const me = mySeat();
    const asked = v.waiting?.Ask?.seat === me;
    const byCard = new Map();
    // Actions on hand cards are reached through the cards; the rest (skills, phase steps,
    // cards from equipment or from a look at the pile) are buttons.
    const inHand = (a) => CARD_ACTIONS.has(a.type) && cardsOf(a).length > 0 && cardsOf(a).every((c) => v.hand.includes(c));
    for (const a of legal) {
      if (!inHand(a)) continue;
      for (const c of cardsOf(a)) { if (!byCard.has(c)) byCard.set(c, []); byCard.get(c).push(a); }
    }
    const discarding = legal.some((a) => a.type === 'Discard');
    const cards = v.hand.map((id, i) => {
      const c = card(id);
      const options = byCard.get(id) ?? [];
      const answer = options.some((a) => ANSWERS.has(a.type));
      const b = h('button', {
        type: 'button', class: `tk-card colour-${c.colour} ${options.length ? 'playable' : ''} ${answer && asked ? 'answers' : ''} ${described === id ? 'is-read' : ''}`,
        // Named by what it shows (corner, name, type), so a voice command that says what
        // the eye sees finds it; what cannot be used says so to a screen reader too.
        dataset: { key: `hand-${id}`, card: String(id), kind: c.kind, testid: 'hand-card', playable: options.length ? 'true' : 'false', name: `${c.suit}${c.rank} ${c.name}` },
      }, h('span', { class: 'tk-card-corner', text: `${c.suit}${c.rank}` }), ' ', h('span', { class: 'tk-card-name', text: c.name }), ' ', h('span', { class: 'tk-card-type', text: c.type }),
      options.length ? null : h('span', { class: 'sr-only', text: ' (cannot be used now)' }));
      b.addEventListener('mouseenter', () => { if (described !== id) { described = id; updateDesc(); } });
      b.addEventListener('click', () => {
        described = id;
        if (!options.length) { render(data); return; }
        chooseFor(`${c.suit}${c.rank} ${c.name}`, options);
      });
      return b;
    });
    // Buttons for everything that is not a hand card: skills, End Play, choices.
    const rest = legal.filter((a) => !inHand(a) && a.type !== 'ChooseGeneral' && !(asked && (a.type === 'Pass' || ANSWERS.has(a.type) || a.type === 'EightTrigrams' || a.type === 'AskHelpers')));
    const groups = new Map();
    for (const a of rest) {
      const key = seatsOf(a).length && !['Use'].includes(a.type) ? a.type : JSON.stringify(a);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(a);
    }
    const buttons = [...groups.values()].map((opts, i) => {
      const a = opts[0];
      const label = opts.length > 1 ? `${spaced(a.type)}…` : actionText(a);
      const cls = a.type === 'EndPlay' ? 'primary' : ['Balance', 'TrojanFlesh', 'Rouse', 'SowDissension', 'AskHelpers', 'EightTrigrams', 'Raid', 'BareChested'].includes(a.type) ? 'tk-skill' : '';
      return h('button', { type: 'button', class: cls, dataset: { key: `act-${a.type}-${i}`, testid: `act-${a.type}` }, text: label, on: { click: () => chooseFor(spaced(a.type), opts) } });
    });
    const hint = decisionHint(v, legal);
    const mine = v.players[me];
    const skills = pub(me).skills ?? [];
    return h('section', { class: `tk-hand card ${v.waiting?.Play?.seat === me ? 'my-turn' : ''} ${discarding ? 'discarding' : ''}`, dataset: { testid: 'hand' }, attrs: { 'aria-label': 'Your hand' } },
      h('div', { class: 'row-between' },
        h('h2', { text: `Your hand (${v.hand.length})` }),
        mine?.role ? h('span', { class: `tk-myrole role-${mine.role}`, dataset: { testid: 'my-role' }, text: `You are the ${mine.role}` }) : null,
        skills.length ? h('span', { class: 'hint tk-myskills', title: skills.map((n, k) => `${n}: ${(pub(me).skillTexts ?? [])[k] ?? ''}`).join('\n'), text: `Skills: ${skills.join(', ')}` }) : null),
      hint ? h('p', { class: 'hint', dataset: { testid: 'hand-hint' }, text: hint }) : null,
      h('div', { class: 'tk-hand-cards', attrs: { role: 'group', 'aria-label': 'Cards in your hand' } }, cards.length ? cards : h('span', { class: 'hint', text: 'No cards.' })),
      buttons.length ? h('div', { class: 'tk-controls', dataset: { testid: 'controls' } }, buttons) : null,
      ownCardsToggle(d));
  }

  /** The seat's prompt setting: by default nobody is asked whether to Negate their own trick
   * (the server passes for them); this asks for it (a Barbarians on a friend). */
  function ownCardsToggle(d) {
    if (d.ownCards == null) return null;
    const box = h('input', { type: 'checkbox', id: 'tk-own-cards', dataset: { key: 'own-cards', testid: 'own-cards' } });
    box.checked = !!d.ownCards;
    box.addEventListener('change', () => ctx.send({ type: 'SetPrompts', ownCards: box.checked }));
    return h('p', { class: 'tk-own-cards hint' }, box, ' ', h('label', { for: 'tk-own-cards', text: 'Ask me whether to Negate my own tricks too' }));
  }

  /** What the page waits on you for, in words: every kind of decision has one. */
  function decisionHint(v, legal) {
    const me = mySeat();
    const w = v.waiting;
    if (!w || !legal.length) return '';
    const [kind, p] = Object.entries(w)[0];
    if (p?.seat !== me) return '';
    const cards = (n) => `${n} card${n === 1 ? '' : 's'}`;
    switch (kind) {
      case 'Play': return 'Your Play phase: tap a card to use it, or end the phase.';
      case 'Discard': return `Discard ${cards(p.n)}: tap ${p.n === 1 ? 'it' : 'them one by one'}.`;
      case 'DrawPhase': {
        const raid = legal.some((a) => a.type === 'Raid');
        const bare = legal.some((a) => a.type === 'BareChested');
        const instead = [raid ? 'Raid (take a hand card from one or two players)' : null, bare ? 'Bare-Chested (draw 1, +1 damage this turn)' : null].filter(Boolean).join(' or ');
        return `Your Draw phase: draw 2 cards${instead ? `, or use ${instead} instead` : ''}.`;
      }
      case 'Confirm': return `Use ${p.skill ? spaced(p.skill) : p.card ? kindName(p.card) : 'it'}? Yes or no.`;
      case 'Pick': return `Take one of ${who(p.from) === 'you' ? 'your' : `${who(p.from)}'s`} cards.`;
      case 'Unyielding': return 'Unyielding: discard 2 hand cards, or take 1 damage.';
      case 'YinYang': return 'Yin-Yang Swords: discard a hand card, or let the attacker draw one.';
      case 'Triumphant': return 'Triumphant: recover 1 HP or draw a card.';
      case 'NameSuit': return 'Name a suit.';
      case 'Harvest': return 'Bumper Harvest: take one of the revealed cards.';
      case 'Stargaze': return 'Stargaze: put each card on the top or the bottom of the draw pile.';
      case 'Give': return 'Give each card you are looking at to a player (yourself too).';
      case 'Displace': return 'Displacement: discard a card to pass the Attack on, or pass.';
      case 'Replace': return 'Demonic Talent: replace the judgement card with one of your hand cards, or pass.';
      case 'Balance': return 'Balance of Power: discard cards one by one, then Done to draw as many.';
      default: return '';
    }
  }

  /** One action is sent; several that differ in seats highlight the seats; else a menu. */
  function chooseFor(label, options) {
    if (options.length === 1 && seatsOf(options[0]).length === 0) return send(options[0]);
    if (options.length === 1) return send(options[0]);
    const kinds = new Set(options.map((a) => `${a.type}:${a.kind ?? ''}:${JSON.stringify(cardsOf(a))}`));
    const sizes = new Set(options.map((a) => seatsOf(a).length));
    if (kinds.size === 1 && sizes.size > 1 && options.every((a) => Array.isArray(a.targets) && a.targets.length > 0)) {
      // Up to k seats in any order (Raid's one or two, the Halberd's up to three): tap seats
      // to choose them, then confirm.
      pending = { options, picked: [], label, set: true, most: Math.max(...sizes) };
    } else if (kinds.size === 1 && options.every((a) => seatsOf(a).length > 0)) {
      pending = { options, picked: [], label, menu: false };
    } else {
      pending = { options, picked: [], label, menu: true };
    }
    render(data);
  }

  function remaining(p) {
    return p.options.filter((a) => p.picked.every((s, i) => seatsOf(a)[i] === s));
  }

  /** In a set choice: the option whose seats are exactly those picked. */
  function setMatch(p) {
    return p.options.find((a) => seatsOf(a).length === p.picked.length && p.picked.every((s) => seatsOf(a).includes(s))) ?? null;
  }

  function targetOptions(p) {
    if (p.menu) return new Set();
    if (p.set) {
      // Picked seats stay tappable (to take them back); others if some option has them too.
      const out = new Set(p.picked);
      for (const a of p.options) {
        const t = seatsOf(a);
        if (t.length > p.picked.length && p.picked.every((s) => t.includes(s))) t.forEach((s) => out.add(s));
      }
      return out;
    }
    const k = p.picked.length;
    return new Set(remaining(p).map((a) => seatsOf(a)[k]).filter((s) => s != null));
  }

  function pickSeat(s) {
    if (!pending) return;
    if (pending.set) {
      pending.picked = pending.picked.includes(s) ? pending.picked.filter((x) => x !== s) : [...pending.picked, s];
      render(data);
      return;
    }
    pending.picked.push(s);
    const left = remaining(pending);
    const exact = left.filter((a) => seatsOf(a).length === pending.picked.length);
    if (left.length === 1) return send(left[0]);
    if (exact.length === left.length && exact.length) return send(exact[0]);
    if (exact.length) { pending = { options: left, picked: [], label: pending.label, menu: true }; }
    render(data);
  }

  function pickOverlay() {
    if (!pending?.menu) return null;
    const buttons = pending.options.map((a, i) => h('button', { type: 'button', class: 'pick', dataset: { key: `pick-${i}`, testid: 'pick' }, text: actionText(a), on: { click: () => send(a) } }));
    const cancel = h('button', { type: 'button', class: 'pick-cancel', text: 'Cancel', dataset: { key: 'pick-cancel' }, on: { click: () => { pending = null; render(data); } } });
    const box = h('div', { class: 'tk-overlay', dataset: { testid: 'overlay' } },
      h('div', { class: 'tk-overlay-box card', attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-label': pending.label } },
        h('h2', { text: `${pending.label}: which?` }), h('div', { class: 'pick-row' }, buttons, cancel)));
    box.addEventListener('keydown', (e) => { if (e.key === 'Escape') { pending = null; render(data); } });
    return box;
  }

  function updateDesc() {
    const box = ctx.root.querySelector('.tk-desc');
    if (box) box.replaceChildren(...[describe()].flat());
  }

  // ---- events: the log, the last card used, the Negate chain, the end ----

  function packet(m) {
    if (m.type !== 'GameEvent') return null;
    const e = m.event ?? {};
    if (e.type === 'UsedCard' && e.used) {
      if (e.used.kind === 'Negate') chain.push({ seat: e.seat, card: e.used.cards?.[0] ?? null });
      else lastUse = { seat: e.seat, kind: e.used.kind, targets: e.targets ?? [] };
    }
    if (e.type === 'Played' && e.used?.kind === 'Negate') chain.push({ seat: e.seat, card: e.used.cards?.[0] ?? null });
    if (e.type === 'GameOver') {
      const v = data?.view;
      over = result = {
        ...e,
        names: data?.seats ?? [],
        generals: (v?.players ?? []).map((p) => (p.general ? spaced(p.general) : null)),
        aliveSeats: e.alive ?? [],
      };
    }
    // The room's log already marks each turn ("Your turn.", "ana's turn.") from its TurnStart.
    const text = typeof e.text === 'string' && e.text && e.type !== 'TurnStarted' ? e.text : null;
    if (!text) return null;
    const priv = (['Drew', 'Dealt', 'Looked'].includes(e.type) && e.cards?.length) || (e.type === 'Moved' && e.card != null && !e.public);
    const big = { GameOver: 1, Died: 1, TurnStarted: 1 }[e.type];
    return { text, private: !!priv, cls: big ? 'log-big' : '' };
  }

  /** The log's last line when the room says the game ended: the side that won, as the end
   * screen says it (the room's own line would name one seat of a winning side). */
  function endLine() {
    const e = over;
    over = null;
    if (!e) return null;
    if (e.winners?.Spy != null) return `The Spy ${e.names?.[e.winners.Spy] ?? ''} wins the game alone!`;
    const side = sideWins(e);
    return side ? `${side} the game!` : 'The game ended with no winner.';
  }

  return { render, packet, endLine };
}
