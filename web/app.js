// cardtable's web client: the lobby, the room shell (join, host controls, chat, event log,
// alerts) and the loading of a game module from /games/<game>.js. The room's connection
// (resolving, reconnecting with the token, serials, resending) is web/client.js.
//
// A game module exports `mount(ctx)` and returns `{ render(gameData), packet(msg) }`:
// - `render` draws the table from each `GameDataSync`;
// - `packet` gets every packet the shell does not handle itself (the game's broadcasts, or the
//   generic `GameEvent`) and returns a line for the event log (a string, or
//   `{text, private: true}`), or null.
// `ctx` gives it `root` (its element), `send(packet)`, `alert(text)`, `log(text)`, `me()`.
// Games without a module get a generic table that lists `legal` actions and sends `Act`.

import { h, replaceChildren, clock, tapToRead, botName, botInfo, foldingMenu } from '/dom.js';
import { identity, loadIdentity, mountAccountMenu, banEnd } from '/account.js';
import { openProfile } from '/profile.js';
import { playNowCard, openParty } from '/quickplay.js';
import { openLeaderboard, leaderboardLinks } from '/leaderboard.js';
import { reportDialog } from '/report.js';
import { RoomClient, lookupRoom, reconnectDelay, sleepMs, RECONNECT_GIVE_UP_MS, CLOSE_MOVED } from '/client.js';

/** Games whose hand cards a tap reads first (a second tap or Play plays): see `tapToRead`.
 * Wolf Pack is not one: choosing a card there is already undone until it is confirmed. */
const TAP_TO_READ = new Set(['ivanhoe', 'sorcery', 'three-kingdoms']);

/**
 * The games a room can be created for, by name: the server's `GET /api/games` (each game's
 * `{name, title, description, minPlayers, maxPlayers, defaultPlayers, bots, levels, ratings, steps}`), loaded once
 * before the first page is drawn.
 */
const GAMES = {};

async function loadGames() {
  try {
    const res = await fetch('/api/games');
    if (!res.ok) return;
    for (const g of await res.json()) GAMES[g.name] = g;
  } catch { /* the lobby says so */ }
}

/** A sentence that starts with a winner's description ("the Ace wins!": Wolf Pack's Ace is no
 * username) starts with a capital. A username ("bot-ana wins!") is left as it is spelt. */
function sentence(text) {
  return /^the /.test(text) ? `T${text.slice(1)}` : text;
}

/** "2–5 players", "2 players". */
function seatRange(g) {
  return g.minPlayers === g.maxPlayers ? `${g.minPlayers} players` : `${g.minPlayers}–${g.maxPlayers} players`;
}

const app = document.getElementById('app');
const connStatus = document.getElementById('conn-status');
const alerts = document.getElementById('alerts');

const NAME_KEY = 'cardtable.username';
// The room's own packets; every other packet a game sends is an action.
const ROOM_PACKETS = new Set(['JoinGame', 'LeaveGame', 'SetHost', 'GameDataRequest', 'StartGame', 'SendNewChatMessage', 'Reconnect', 'AddBot', 'RemoveBot', 'SetPrompts']);
const USERNAME_RE = /^[A-Za-z0-9_-]{1,16}$/;

function store(kind) {
  try { return kind === 'local' ? window.localStorage : window.sessionStorage; } catch { return null; }
}
function getItem(kind, key) { return store(kind)?.getItem(key) ?? null; }
function setItem(kind, key, value) {
  try { if (value == null) store(kind)?.removeItem(key); else store(kind)?.setItem(key, value); } catch { /* private mode */ }
}

function gameTitle(game) { return GAMES[game]?.title ?? game; }

// ---- alerts ---------------------------------------------------------------------------------

/** Shows a dismissable message; `kind` is 'info', 'error' or 'win'. */
export function showAlert(text, kind = 'info') {
  const close = h('button', { class: 'alert-close', type: 'button', attrs: { 'aria-label': 'Dismiss' }, text: '×' });
  const el = h('div', { class: `alert alert-${kind}`, attrs: { role: kind === 'error' ? 'alert' : 'status' } },
    h('span', { class: 'alert-text', text }), close);
  close.addEventListener('click', () => el.remove());
  alerts.appendChild(el);
  while (alerts.children.length > 4) alerts.firstElementChild.remove();
  setTimeout(() => el.remove(), kind === 'error' ? 8000 : 6000);
}

function setStatus(text, kind) {
  connStatus.textContent = text;
  connStatus.dataset.state = kind;
}

// ---- routing --------------------------------------------------------------------------------

function route() {
  const m = location.pathname.match(/^\/r\/([A-Za-z0-9_-]+)\/?$/);
  const r = location.pathname.match(/^\/replay\/(\d+)\/?$/);
  const u = location.pathname.match(/^\/u\/([^/]+)\/?$/);
  const p = location.pathname.match(/^\/party\/([0-9a-f]+)\/?$/);
  const b = location.pathname.match(/^\/leaderboard\/([^/]+)\/?$/);
  if (/^\/admin\/?$/.test(location.pathname)) import('/admin.js').then((a) => a.openAdmin(app, gameTitle));
  else if (m) openRoom(m[1]);
  else if (p) openParty(app, p[1], GAMES);
  else if (u) openProfile(app, safeDecode(u[1]), gameTitle);
  else if (b) openLeaderboard(app, safeDecode(b[1]), GAMES);
  else if (r) openReplay(Number(r[1]), new URLSearchParams(location.search).get('room') ?? '');
  else openLobby();
}

function safeDecode(s) {
  try { return decodeURIComponent(s); } catch { return s; }
}

/** A game's page module (`/games/<game>.js`), or null for games drawn by the generic table. */
async function gameModule(name) {
  try { return await import(`/games/${encodeURIComponent(name)}.js`); } catch { return null; }
}

/** Milliseconds as "3 min 12 s", "45 s", "1 h 02 min": whole seconds, rounded down, as
 * `cardtable matches` and `cardtable replay` write them (one match, one duration). */
function duration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** The "How to play" link of a game: its rules page, served by the server from docs/rules. */
function rulesLink(game, text = 'How to play') {
  return h('a', { class: 'rules-link', href: `/rules/${encodeURIComponent(game)}`, target: '_blank', rel: 'noopener', text, dataset: { testid: 'rules-link' } });
}

/**
 * Mounts a game's module read-only (a finished table: the end screen, the replay viewer) in
 * `root`: nothing it sends goes anywhere.
 */
function mountReadOnly(mod, root, you) {
  const ctx = { root, send: () => false, alert: () => {}, log: () => {}, me: () => you };
  return (mod?.mount ?? mountGeneric)(ctx);
}

/**
 * The standings of a finished match (`m`: `GET /api/matches/{id}` with its last step):
 * winner, each seat's final state (the game module's `standing(gameData, player)` if it has
 * one), moves, duration and a link to the replay.
 */
function standings(m, mod, you) {
  const final = m.steps[m.steps.length - 1]?.gameData;
  const winners = new Set(m.winners ?? []);
  const head = winners.size === 0 ? (m.abandoned ? 'The game was abandoned: everyone left before the end.' : 'The game ended with no winner.')
    : winners.has(you) ? (winners.size === 1 ? 'You win!' : `You win, with ${[...winners].filter((w) => w !== you).join(', ')}!`)
      : sentence(`${[...winners].join(' and ')} win${winners.size === 1 ? 's' : ''}!`);
  const rows = (final?.players ?? m.players.map((username) => ({ username }))).map((p) => {
    const state = mod?.standing?.(final, p) ?? (p.inGame === false ? 'out' : '');
    const won = winners.has(p.username);
    return h('tr', { class: [won && 'is-winner', p.username === you && 'is-me'].filter(Boolean).join(' '), dataset: { testid: 'standing', player: p.username } },
      h('th', { attrs: { scope: 'row' } }, won ? h('span', { class: 'trophy', attrs: { 'aria-hidden': 'true' }, text: '★ ' }) : null, p.username, p.username === you ? ' (you)' : ''),
      h('td', { text: won ? 'winner' : '' }),
      h('td', { text: state }));
  });
  return h('section', { class: 'card end-card', dataset: { testid: 'end-screen', match: String(m.id) }, attrs: { 'aria-labelledby': 'end-h' } },
    h('h2', { id: 'end-h', class: 'end-title', dataset: { testid: 'winner' }, text: head }),
    h('p', { class: 'end-facts' }, `${m.moves} move${m.moves === 1 ? '' : 's'} in ${duration(m.endedAt - m.startedAt)} · match ${m.id} · `,
      h('a', { href: `/replay/${m.id}?room=${encodeURIComponent(m.room)}`, dataset: { testid: 'replay-link' }, text: 'Watch the replay' })),
    h('div', { class: 'table-wrap' }, h('table', { class: 'standings' },
      h('thead', {}, h('tr', {}, h('th', { attrs: { scope: 'col' }, text: 'Player' }), h('th', { attrs: { scope: 'col' }, text: 'Result' }), h('th', { attrs: { scope: 'col' }, text: 'Final state' }))),
      h('tbody', {}, rows))));
}

// ---- lobby ----------------------------------------------------------------------------------

function openLobby() {
  document.title = 'cardtable';
  setStatus('', 'idle');
  const name = h('input', {
    id: 'lobby-username', name: 'username', autocomplete: 'nickname', maxLength: 16, required: true,
    value: getItem('local', NAME_KEY) ?? '', attrs: { pattern: '[A-Za-z0-9_\\-]{1,16}', 'aria-describedby': 'username-hint' },
  });
  const game = h('select', { id: 'lobby-game', name: 'game' },
    Object.values(GAMES).map((g) => h('option', { value: g.name, text: g.title })));
  const about = h('p', { id: 'game-about', class: 'hint', attrs: { 'aria-live': 'polite' } });
  const rules = h('p', { id: 'game-rules', class: 'hint' });
  const describe = () => {
    const g = GAMES[game.value];
    about.textContent = g ? `${g.description} ${seatRange(g)}.` : 'Could not load the list of games.';
    replaceChildren(rules, g ? rulesLink(g.name, `How to play ${g.title}`) : null);
  };
  // A game's own room options (its module's `createOptions()`: Wolf Pack's Ace), under the game.
  const extra = h('div', { class: 'create-options', dataset: { testid: 'create-options' } });
  let gameOptions = null;
  const loadOptions = () => {
    const name = game.value;
    gameOptions = null;
    replaceChildren(extra);
    gameModule(name).then((mod) => {
      if (game.value !== name) return;
      gameOptions = mod?.createOptions?.() ?? null;
      replaceChildren(extra, gameOptions?.element ?? null);
    });
  };
  game.addEventListener('change', describe);
  game.addEventListener('change', loadOptions);
  describe();
  loadOptions();
  const err = h('p', { class: 'form-error', attrs: { role: 'alert' } });
  // Signed in (a guest too), the room takes the account's name: no name to ask for.
  const me = identity.me;
  // Rated (docs/rating.md): ticked by default, as on lichess; only people with an identity
  // (a guest too) are rated.
  const rated = h('input', { type: 'checkbox', id: 'lobby-rated', name: 'rated', checked: true, dataset: { testid: 'lobby-rated' } });
  const form = h('form', { class: 'card create-form', attrs: { 'aria-labelledby': 'create-h' } },
    h('h2', { id: 'create-h', text: 'New room' }),
    me ? h('p', { class: 'hint', dataset: { testid: 'lobby-you' } }, 'You play as ', h('bdi', { text: me.name }), '.') : [
      h('label', { for: 'lobby-username', text: 'Your name' }), name,
      h('p', { id: 'username-hint', class: 'hint', text: '1–16 letters, digits, _ or -' })],
    h('label', { for: 'lobby-game', text: 'Game' }), game, about, rules, extra,
    h('label', { class: 'check-row', for: 'lobby-rated' }, rated, ' Rated: the game counts for your rating'),
    h('button', { type: 'submit', class: 'primary', text: 'Create room' }), err);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    const username = me ? me.name : name.value.trim();
    if (!me && !USERNAME_RE.test(username)) { err.textContent = 'Pick a name of 1–16 letters, digits, _ or -.'; name.focus(); return; }
    if (!me) setItem('local', NAME_KEY, username);
    try {
      const res = await fetch('/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: game.value, rated: rated.checked, ...(gameOptions ? { gameOptions: gameOptions.value() } : {}) }) });
      const body = await res.json();
      if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
      setItem('session', `cardtable.autojoin.${body.id}`, username);
      location.assign(`/r/${encodeURIComponent(body.id)}`);
    } catch (ex) {
      err.textContent = `Could not create a room: ${ex.message}`;
    }
  });
  name.addEventListener('change', () => { if (USERNAME_RE.test(name.value.trim())) setItem('local', NAME_KEY, name.value.trim()); });

  const list = h('ul', { class: 'room-list', id: 'room-list', attrs: { 'aria-live': 'polite' } });
  const refresh = h('button', { type: 'button', text: 'Refresh' });
  const rooms = h('section', { class: 'card rooms', attrs: { 'aria-labelledby': 'rooms-h' } },
    h('div', { class: 'row-between' }, h('h2', { id: 'rooms-h', text: 'Rooms' }), refresh), list);

  async function load() {
    try {
      const res = await fetch('/api/rooms');
      const data = await res.json();
      renderRooms(list, data);
    } catch {
      replaceChildren(list, h('li', { class: 'empty', text: 'Could not load the rooms.' }));
    }
  }
  refresh.addEventListener('click', load);
  replaceChildren(app,
    h('section', { class: 'lobby' },
      h('div', { class: 'intro' }, h('h1', { text: 'Card games with friends' }),
        h('p', { text: 'Create a room, share its link, and play in the browser. Anyone who joins while a game runs watches until the next one.' }),
        // Each game's rules page: how to play first, then the full rules.
        Object.keys(GAMES).length ? h('p', { class: 'lobby-rules', dataset: { testid: 'lobby-rules' } }, 'How to play: ',
          Object.values(GAMES).map((g, i) => [i ? ' · ' : '', rulesLink(g.name, g.title)])) : null,
        leaderboardLinks(Object.values(GAMES))),
      Object.keys(GAMES).length ? playNowCard(app, GAMES, openLobby) : null,
      form, rooms));
  load();
  const timer = setInterval(() => { if (document.visibilityState === 'visible') load(); }, 5000);
  window.addEventListener('pagehide', () => clearInterval(timer), { once: true });
}

function renderRooms(list, rooms) {
  if (!rooms.length) {
    replaceChildren(list, h('li', { class: 'empty', text: 'No rooms yet. Create one!' }));
    return;
  }
  const order = { lobby: 0, playing: 1 };
  rooms.sort((a, b) => (order[a.state] ?? 2) - (order[b.state] ?? 2) || a.id.localeCompare(b.id));
  replaceChildren(list, rooms.map((r) => {
    const who = r.players.length ? r.players.join(', ') : 'nobody yet';
    return h('li', { class: 'room-item', dataset: { room: r.id } },
      h('div', { class: 'room-item-main' },
        h('span', { class: 'room-game', text: gameTitle(r.game) }),
        h('span', { class: `room-state state-${r.state}`, text: r.state === 'playing' ? 'playing' : 'in lobby' }),
        h('span', { class: 'room-code', text: r.id }),
        r.seeded ? h('span', { class: 'room-seeded', attrs: { title: 'Its creator chose the seed' }, text: 'seeded' }) : null,
        r.rated ? h('span', { class: 'room-rated', dataset: { testid: 'room-rated' }, attrs: { title: 'Its games count for the players\' ratings' }, text: 'rated' }) : null),
      h('div', { class: 'room-who' },
        h('span', { text: `${r.players.length} player${r.players.length === 1 ? '' : 's'}: ${who}` }),
        r.spectators ? h('span', { text: ` · ${r.spectators} watching` }) : null),
      h('a', { class: 'button', href: `/r/${encodeURIComponent(r.id)}`, text: r.state === 'playing' ? 'Watch' : 'Join', attrs: { 'aria-label': `${r.state === 'playing' ? 'Watch' : 'Join'} ${gameTitle(r.game)} room ${r.id}` } }));
  }));
}

// ---- room -----------------------------------------------------------------------------------

async function openRoom(roomId) {
  document.title = `Room ${roomId} · cardtable`;
  const room = new Room(roomId);
  // A room between two servers (its server died or is draining) answers 503 for a few
  // seconds: ask again rather than call it missing.
  let found = await lookupRoom(roomId);
  for (let i = 0, since = Date.now(); !found.summary && found.retry && Date.now() - since < RECONNECT_GIVE_UP_MS; i++) {
    if (i === 0) setStatus('looking for the room…', 'connecting');
    await sleepMs(reconnectDelay(i + 1));
    found = await lookupRoom(roomId);
  }
  const summary = found.summary;
  if (!summary) {
    setStatus('', 'closed');
    replaceChildren(app, h('section', { class: 'card missing' },
      h('h1', { text: found.status === 404 || found.status === 429 ? 'No such room' : 'Cannot reach the room' }),
      found.status === 404 || found.status === 429
        ? h('p', {}, 'There is no room ', h('code', { text: roomId }), ' on this server. It may have been a typo, or the room closed: a room closes a minute after everyone has left it.')
        : h('p', {}, 'The server did not say where room ', h('code', { text: roomId }), ' is. Try again in a moment.'),
      h('a', { class: 'button primary', href: '/', text: 'Back to the lobby' })));
    return;
  }
  room.conn.path = summary.path ?? '';
  room.mount(summary.game);
}

// Reconnecting (web/client.js): a room's socket closes with 4001 "moved" when its server hands
// it over (drain) or loses it, and drops without a close frame when the server dies. The page
// then asks where the room is now and reconnects there with its token (same seat), showing a
// "reconnecting" note; it gives up only after a minute without getting back in.

class Room {
  constructor(id) {
    this.id = id;
    this.data = null;
    this.you = null;
    this.game = null;
    this.gameName = null;
    this.winner = undefined; // undefined: no game ended since load
    // The last finished match's id whose end screen is shown (or being fetched), until a
    // new game starts.
    this.endShown = null;
    this.chatSeen = new Set();
    // The connection (web/client.js): its token and name kept in this tab's sessionStorage.
    this.conn = new RoomClient(id, { get: (k) => getItem('session', k), set: (k, v) => setItem('session', k, v) }, {
      packet: (msg) => this.onPacket(msg),
      connecting: ({ again }) => setStatus(again ? 'reconnecting…' : 'connecting…', 'connecting'),
      opened: ({ reconnecting }) => this.onOpen(reconnecting),
      closed: (e) => this.onClose(e),
      back: () => this.reconnected(),
      gaveUp: (why) => this.giveUp(why),
      rejoinName: () => identity.me?.name ?? null,
      join: (name) => this.join(name),
    });
  }

  mount(gameName) {
    this.gameName = gameName;
    document.title = `${gameTitle(gameName)} · room ${this.id} · cardtable`;
    const link = `${location.origin}/r/${this.id}`;
    const shareInput = h('input', { id: 'share-link', readOnly: true, value: link, class: 'share-input' });
    const copy = h('button', { type: 'button', text: 'Copy link' });
    copy.addEventListener('click', async () => {
      try { await navigator.clipboard.writeText(link); copy.textContent = 'Copied'; } catch { shareInput.select(); copy.textContent = 'Press Ctrl+C'; }
      setTimeout(() => { copy.textContent = 'Copy link'; }, 2000);
    });
    shareInput.addEventListener('focus', () => shareInput.select());
    // The room's menu: the rules, the share link and leaving, in the header's row on a wide
    // screen and behind one button on a phone (so the header is one line). Other entries
    // (an account menu) can be added with `this.menu.add(el)`.
    this.menu = foldingMenu({
      id: 'room-menu', label: 'Room',
      items: [rulesLink(gameName), h('div', { class: 'share' }, h('label', { for: 'share-link', class: 'sr-only', text: 'Share link' }), shareInput, copy)],
    });
    // "Leave room", while you are in the room (renderJoin fills it).
    this.leaveItem = this.menu.add(null);
    this.leaveItem.hidden = true;
    // "Report a player", for a signed-in member of the room (renderJoin fills it).
    this.reportItem = this.menu.add(null);
    this.reportItem.hidden = true;

    this.joinPanel = h('section', { class: 'join-panel card', attrs: { 'aria-label': 'You' } });
    this.hostPanel = h('section', { class: 'host-panel card', hidden: true, attrs: { 'aria-labelledby': 'host-h' } });
    this.banner = h('div', { class: 'banner', hidden: true, attrs: { role: 'status' } });
    this.reconnectNote = h('div', { class: 'reconnect-note', hidden: true, dataset: { testid: 'reconnecting' }, attrs: { role: 'status', 'aria-live': 'polite' } });
    this.waitLine = h('p', { class: 'wait-line', hidden: true, dataset: { testid: 'clock' } });
    // The newest line of the event log, at the top of the table on a narrow screen (where the
    // log itself is below the table).
    this.lastLine = h('p', { class: 'last-line', dataset: { testid: 'last-line' }, attrs: { 'aria-hidden': 'true' } });
    this.waits = [];
    setInterval(() => this.renderWait(), 1000);
    this.tableRoot = h('div', { class: 'table-root' });
    // The end screen: standings and the final table, over the lobby until the next game.
    this.endRoot = h('div', { class: 'end-root', hidden: true, dataset: { testid: 'end' } });
    // The event log and the chat: logs (polite live regions: a screen reader says each new
    // line, the narration of the game as the log shows it), reached with Tab and scrolled with
    // the arrow keys.
    // Each list sits in its own scrolling box, the log region (a list keeps its list items).
    this.logList = h('ol', { class: 'log-list' });
    this.chatList = h('ol', { class: 'chat-list' });
    this.logBox = h('div', { class: 'log-box', tabIndex: 0, dataset: { testid: 'event-log' }, attrs: { role: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions', 'aria-label': 'Events' } }, this.logList);
    this.chatBox = h('div', { class: 'chat-box', tabIndex: 0, dataset: { testid: 'chat-log' }, attrs: { role: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions', 'aria-label': 'Chat messages' } }, this.chatList);
    this.chatInput = h('input', { id: 'chat-input', name: 'message', maxLength: 500, autocomplete: 'off', placeholder: 'Join to chat', disabled: true, attrs: { 'aria-label': 'Chat message' } });
    this.chatSend = h('button', { type: 'submit', text: 'Send', disabled: true });
    const chatForm = h('form', { class: 'chat-form' }, this.chatInput, this.chatSend);
    chatForm.addEventListener('submit', (e) => {
      e.preventDefault();
      const message = this.chatInput.value;
      if (!message.trim()) return;
      if (this.send({ type: 'SendNewChatMessage', message })) this.chatInput.value = '';
    });

    replaceChildren(app, h('div', { class: 'room', dataset: { game: gameName } },
      h('header', { class: 'room-head' },
        h('h1', {}, h('span', { text: gameTitle(gameName) }), ' ', h('span', { class: 'room-code', text: `room ${this.id}` })),
        this.menu.element),
      this.reconnectNote,
      // After a game the winner comes first, above the controls of the next one.
      this.endRoot,
      this.joinPanel,
      this.hostPanel,
      this.banner,
      this.waitLine,
      this.lastLine,
      h('div', { class: 'room-grid' },
        h('section', { class: 'table', attrs: { 'aria-label': 'Table' } }, this.tableRoot),
        h('aside', { class: 'side' },
          h('section', { class: 'card log', attrs: { 'aria-labelledby': 'log-h' } }, h('h2', { id: 'log-h', text: 'Events' }), this.logBox),
          h('section', { class: 'card chat', attrs: { 'aria-labelledby': 'chat-h' } }, h('h2', { id: 'chat-h', text: 'Chat' }), this.chatBox, chatForm)))));
    this.renderJoin();
    this.loadGame(gameName).then(() => this.connect());
  }

  async loadGame(name) {
    const ctx = {
      root: this.tableRoot,
      send: (p) => (ROOM_PACKETS.has(p.type) ? this.send(p) : this.act(p)),
      alert: (t, k) => showAlert(t, k),
      log: (t, opts) => this.log(t, opts),
      me: () => this.you,
    };
    const mod = await gameModule(name);
    this.mod = mod;
    this.game = (mod?.mount ?? mountGeneric)(ctx);
    if (TAP_TO_READ.has(name)) tapToRead(this.tableRoot);
  }

  // ---- socket ----

  connect() {
    this.conn.connect();
  }

  onOpen(reconnecting) {
    setStatus('connected', 'open');
    if (reconnecting) return;
    this.send({ type: 'GameDataRequest' });
    const auto = getItem('session', `cardtable.autojoin.${this.id}`);
    if (auto) {
      setItem('session', `cardtable.autojoin.${this.id}`, null);
      this.join(auto);
    }
  }

  onClose(e) {
    // Closed by a moderator, or banned: the page said so; nothing to reconnect to.
    if (this.ended) {
      setStatus('disconnected', 'closed');
      this.renderJoin();
      return;
    }
    // The server says why it closed a socket: over a limit (1013), the room closed or the
    // server stopped (1001), not reading (1008), a frame too big (1009). "moved" (4001) is
    // no news for the player: the room goes on on another server.
    if (e.reason && e.code !== CLOSE_MOVED) showAlert(e.reason, 'error');
    setStatus('disconnected — reconnecting…', 'closed');
    this.renderJoin();
    this.showReconnecting();
  }

  showReconnecting() {
    if (this.conn.gaveUp) return;
    this.reconnectNote.hidden = false;
    this.reconnectNote.className = 'reconnect-note';
    replaceChildren(this.reconnectNote, h('span', { text: 'Connection lost — reconnecting…' }));
  }

  reconnected() {
    this.reconnectNote.hidden = true;
    this.reconnectNote.replaceChildren();
  }

  /** The room is over for this page (a moderator closed it, or this person is banned): says
   * so where the reconnecting note goes, and stops reconnecting. */
  end(testid, title, text, more) {
    this.ended = true;
    // No reconnecting: the client's timer sees it and stops.
    this.conn.gaveUp = true;
    this.reconnectNote.hidden = false;
    this.reconnectNote.className = 'reconnect-note reconnect-failed room-ended';
    this.reconnectNote.setAttribute('role', 'alert');
    replaceChildren(this.reconnectNote, h('div', { dataset: { testid } },
      h('strong', { text: `${title}: ` }), h('span', { dataset: { testid: `${testid}-text` }, text }),
      more ? h('p', { class: 'hint', text: more }) : null,
      h('a', { class: 'button', href: '/', text: 'Back to the lobby' })));
  }

  giveUp(why) {
    setStatus('disconnected', 'closed');
    const again = h('button', { type: 'button', class: 'primary', text: 'Try again' });
    again.addEventListener('click', () => {
      this.conn.retry();
      this.showReconnecting();
    });
    this.reconnectNote.hidden = false;
    this.reconnectNote.className = 'reconnect-note reconnect-failed';
    replaceChildren(this.reconnectNote, h('span', { text: `${why} ` }), again);
  }

  send(packet) {
    if (!this.conn.send(packet)) {
      showAlert('Not connected to the server yet; try again in a moment.', 'error');
      return false;
    }
    return true;
  }

  /**
   * Sends a game action. Every action carries the serial of the table it was chosen from: a
   * double click, or a click on a table that has just moved on, is refused (`stale_action`),
   * never played twice. The action is kept until the room answers it (a table past its serial,
   * or a refusal), so that one in flight when the socket closes (the room moved to another
   * server, or the connection dropped) is sent again, with the same serial, once the page is
   * back in its seat: the room applies it if it never got it and refuses it `stale_action` if
   * it did (see docs/protocol.md, "At most once across a failover").
   */
  act(packet) {
    if (!this.conn.act(packet)) {
      showAlert('Not connected to the server yet; try again in a moment.', 'error');
      return false;
    }
    return true;
  }

  join(username) {
    // A signed-in socket joins under its account's name whatever the packet says.
    if (!identity.me) setItem('local', NAME_KEY, username);
    this.pendingName = username;
    this.send({ type: 'JoinGame', username });
  }

  // ---- packets ----

  onPacket(msg) {
    switch (msg.type) {
      case 'Joined':
        // The token is kept (and an action in flight sent again) by the connection.
        this.you = msg.username;
        this.renderJoin();
        break;
      case 'PlayerJoinRejected':
        // (A refused token is handled by the connection: it joins again by name.)
        showAlert(`Could not join: ${msg.reason}`, 'error');
        this.joinError = msg.reason;
        this.renderJoin();
        break;
      case 'Acted':
        // The room stored our action (the connection stops keeping it): nothing to show.
        break;
      case 'PlayerJoined': {
        const p = msg.player;
        const extra = p.isBot ? (p.bot ? ` (bot: ${botName(p.bot)})` : ' (bot)') : p.isSpectator || this.data?.gameStarted ? ' to watch' : '';
        this.log(`${p.username} joined${extra}.`);
        // Members hear of a join through this packet alone (no sync follows it): the newcomer's
        // entry goes at the end of `players`, which is in join order.
        if (this.data) {
          const players = (this.data.players ?? []).filter((x) => x.username !== p.username);
          players.push(p);
          this.refresh({ ...this.data, players });
        }
        break;
      }
      case 'PlayerLeft':
        this.log(`${msg.username} left.`);
        // A leave that changes no game comes with no sync: the entry goes from `players`.
        if (this.data) this.refresh({ ...this.data, players: (this.data.players ?? []).filter((x) => x.username !== msg.username) });
        break;
      case 'HostSet':
        this.log(msg.username ? `${msg.username} is the host.` : 'The room has no host.');
        if (this.data) this.refresh({ ...this.data, host: msg.username ?? null });
        break;
      case 'GameDataSync':
        this.onSync(msg.gameData);
        break;
      case 'GameStarted':
        this.winner = undefined;
        this.hideEnd();
        this.log('The game starts.', { cls: 'log-big' });
        break;
      case 'TurnStart':
        this.log(msg.username === this.you ? 'Your turn.' : `${msg.username}'s turn.`, { cls: msg.username === this.you ? 'log-you' : 'log-turn' });
        break;
      case 'TurnEnd':
        break;
      case 'GameEnded':
        this.winner = msg.winner ?? null;
        // One line in the log; the end screen (drawn from the sync that follows) says the rest.
        {
          // A game whose winners are a side (Three Kingdoms) names the side (`endLine`).
          const line = this.game?.endLine?.(msg) ?? (msg.winner ? sentence(`${msg.winner === this.you ? 'You win' : `${msg.winner} wins`} the game!`) : 'The game ended with no winner.');
          // A game that plays its events back step by step (Wolf Pack) has the line wait for
          // the last of them, so the log does not tell the end before the table shows it.
          if (this.game?.whenPlayedOut) this.game.whenPlayedOut(() => this.log(line, { cls: 'log-big' }));
          else this.log(line, { cls: 'log-big' });
        }
        break;
      case 'ActionFailed':
        // The room moved to another server before it stored the action: the socket closes
        // (4001) and the connection sends the action again from there.
        if (msg.code === 'room_moved' && this.conn.inFlight) break;
        // A game may name refusals that are races, not mistakes (Wolf Pack: a Continue pressed
        // just as the host's confirm delay ran out); the page already shows the new state.
        if (this.mod?.isRace?.(msg.code)) break;
        // A second click on a move already made, or a move sent again after a reconnect that
        // the room had stored before the socket closed: the page shows the table that followed.
        if (msg.code === 'stale_action') break;
        showAlert(msg.reason, 'error');
        break;
      case 'ShowAlert':
        showAlert(msg.text, 'info');
        break;
      case 'NewChatMessageSent':
        this.addChat(msg);
        break;
      case 'RoomClosed':
        this.end('room-closed', 'A moderator closed this room', msg.message);
        break;
      case 'Banned':
        this.end('banned', 'You are banned', msg.reason, msg.until == null ? 'The ban does not end.' : `The ban ends ${banEnd(msg.until).replace(/^until /, 'on ')}.`);
        break;
      default: {
        const line = this.game?.packet(msg);
        if (line) this.log(typeof line === 'string' ? line : line.text, line);
      }
    }
  }

  onSync(data) {
    this.data = data;
    // A counter of table updates, so tests (and curious users) can tell a fresh table from a stale one.
    document.body.dataset.sync = String((Number(document.body.dataset.sync) || 0) + 1);
    // And the table's serial (during a game), the one its actions carry.
    document.body.dataset.serial = data.serial == null ? '' : String(data.serial);
    if (data.you !== this.you) {
      // `you` is the server's word on who this connection is (another tab may have taken the seat).
      if (this.you && !data.you) this.log('You are no longer seated here (did another tab take your seat?).');
      this.you = data.you;
    }
    for (const m of data.chat ?? []) this.addChat(m);
    // Clocks that run (a disconnected player's turn timer, a reaction window), counted down here.
    const now = Date.now();
    this.waits = (data.waitingOn ?? []).filter((w) => w.msLeft != null).map((w) => ({ username: w.username, at: now + w.msLeft }));
    this.draw();
  }

  /** A table changed by a packet that describes the change (`PlayerJoined`, `HostSet`) rather
   * than by a sync: drawn again as it now is, its clocks still counting from the last sync. */
  refresh(data) {
    this.data = data;
    document.body.dataset.sync = String((Number(document.body.dataset.sync) || 0) + 1);
    this.draw();
  }

  draw() {
    const data = this.data;
    this.renderJoin();
    this.renderHost();
    this.renderBanner();
    this.renderWait();
    this.renderEnd();
    this.game?.render(data);
    const base = `${gameTitle(this.gameName)} · room ${this.id} · cardtable`;
    document.title = data.gameStarted && data.you && data.currentTurn === data.you ? `▶ Your turn · ${base}` : base;
  }

  // ---- rendering ----

  renderJoin() {
    const d = this.data;
    const connected = this.conn.connected;
    this.chatInput.disabled = !this.you || !connected;
    this.chatSend.disabled = !this.you || !connected;
    this.chatInput.placeholder = this.you ? 'Say something…' : 'Join to chat';
    // A room whose creator chose the seed (a server started with --allow-seeded-rooms) says so:
    // whoever knows the seed knows every hidden card.
    const seeded = d?.seeded ? h('span', { class: 'seeded-mark', dataset: { testid: 'seeded' }, attrs: { title: 'Whoever chose the seed can know every hidden card.' }, text: ' Seeded room: its creator chose the deal.' }) : null;
    const hostLine = d?.host || seeded ? h('span', { class: 'host-line' }, d?.host ? ['Host: ', h('strong', { text: d.host })] : null, seeded) : null;
    if (this.you) {
      const me = d?.players?.find((p) => p.username === this.you);
      const role = d?.host === this.you ? 'host' : me?.isSpectator ? 'spectator' : d?.gameStarted ? 'player' : 'in the lobby';
      const leave = h('button', { type: 'button', class: 'danger', text: 'Leave room', dataset: { key: 'leave' } });
      leave.addEventListener('click', () => {
        if (d?.gameStarted && !me?.isSpectator && me?.inGame && !confirm('Leave the game? You will be out.')) return;
        if (this.send({ type: 'LeaveGame' })) {
          this.conn.forget();
          this.you = null;
          this.renderJoin();
        }
      });
      replaceChildren(this.joinPanel,
        h('p', { class: 'you-line', dataset: { testid: 'you' } }, 'You are ', h('strong', { text: this.you }), ` (${role}).`),
        hostLine);
      replaceChildren(this.leaveItem, leave);
      this.leaveItem.hidden = false;
      // Reporting needs an account (the report names its reporter) and someone to report.
      const others = (d?.players ?? []).filter((p) => !p.isBot && p.username !== this.you).map((p) => p.username);
      if (identity.me && others.length) {
        const report = h('button', { type: 'button', text: 'Report a player', dataset: { key: 'report', testid: 'report' } });
        report.addEventListener('click', () => {
          this.menu.close();
          reportDialog(this.id, others, (text) => showAlert(text, 'info'));
        });
        replaceChildren(this.reportItem, report);
        this.reportItem.hidden = false;
      } else {
        this.reportItem.hidden = true;
        this.reportItem.replaceChildren();
      }
      this.joinPanel.classList.add('is-joined');
      return;
    }
    this.leaveItem.hidden = true;
    this.leaveItem.replaceChildren();
    this.reportItem.hidden = true;
    this.reportItem.replaceChildren();
    this.joinPanel.classList.remove('is-joined');
    if (!this.joinForm || !this.joinPanel.contains(this.joinForm.form)) this.joinForm = this.buildJoinForm();
    const f = this.joinForm;
    f.button.disabled = !connected;
    f.button.textContent = d?.gameStarted ? 'Join to watch' : 'Join';
    f.hint.textContent = d?.gameStarted ? 'A game is running: you will watch and play in the next one.' : f.input ? '1–16 letters, digits, _ or -' : '';
    f.err.textContent = this.joinError ?? '';
    if (f.hostLine) f.hostLine.remove();
    f.hostLine = hostLine;
    if (hostLine) this.joinPanel.appendChild(hostLine);
  }

  buildJoinForm() {
    if (identity.me) return this.buildJoinButton(identity.me.name);
    const input = h('input', {
      id: 'join-username', name: 'username', autocomplete: 'nickname', maxLength: 16, required: true,
      value: this.pendingName ?? getItem('local', NAME_KEY) ?? '', dataset: { key: 'join-name' },
      attrs: { pattern: '[A-Za-z0-9_\\-]{1,16}', 'aria-describedby': 'join-hint' },
    });
    const button = h('button', { type: 'submit', class: 'primary', text: 'Join', dataset: { key: 'join' } });
    const hint = h('p', { id: 'join-hint', class: 'hint' });
    const err = h('p', { class: 'form-error', attrs: { role: 'alert' } });
    const form = h('form', { class: 'join-form' },
      h('label', { for: 'join-username', text: 'Your name' }),
      h('div', { class: 'inline' }, input, button), hint, err);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const name = input.value.trim();
      this.joinError = null;
      if (!USERNAME_RE.test(name)) { err.textContent = 'Pick a name of 1–16 letters, digits, _ or -.'; input.focus(); return; }
      err.textContent = '';
      this.join(name);
    });
    replaceChildren(this.joinPanel, form);
    return { form, input, button, hint, err, hostLine: null };
  }

  /** Signed in: joining asks nothing, the room takes the account's name. */
  buildJoinButton(name) {
    const button = h('button', { type: 'submit', class: 'primary', text: 'Join', dataset: { key: 'join', testid: 'join' } });
    const hint = h('p', { id: 'join-hint', class: 'hint' });
    const err = h('p', { class: 'form-error', attrs: { role: 'alert' } });
    const form = h('form', { class: 'join-form', attrs: { 'aria-describedby': 'join-as' } },
      h('p', { id: 'join-as', class: 'join-as' }, 'You join as ', h('bdi', { text: name }), '.'),
      button, hint, err);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.joinError = null;
      err.textContent = '';
      this.join(name);
    });
    replaceChildren(this.joinPanel, form);
    return { form, input: null, button, hint, err, hostLine: null };
  }

  renderHost() {
    const d = this.data;
    const isHost = d && this.you && d.host === this.you;
    this.hostPanel.hidden = !isHost;
    if (!isHost) { this.hostPanel.replaceChildren(); return; }
    const prev = (id) => this.hostPanel.querySelector(`#${id}`)?.value;
    const keep = (sel, value) => { if (value && [...sel.options].some((o) => o.value === value)) sel.value = value; return sel; };
    const players = d.players ?? [];
    const seated = players.filter((p) => !p.isSpectator).length;
    const parts = [h('h2', { id: 'host-h', text: 'Host controls' })];
    if (!d.gameStarted) {
      const start = h('button', { type: 'button', class: 'primary', text: 'Start game', dataset: { key: 'start', testid: 'start' }, disabled: seated < (d.minPlayers ?? 2) });
      start.addEventListener('click', () => this.send({ type: 'StartGame' }));
      parts.push(h('div', { class: 'host-row' }, start,
        h('span', { class: 'hint', dataset: { testid: 'seat-count' }, text: `${seated} of ${seatRange({ minPlayers: d.minPlayers ?? 2, maxPlayers: d.maxPlayers ?? 8 })}` })));
      if (d.bots?.length || d.levels?.length) {
        // The difficulty levels first (every game has them), then the game's own bots.
        // Each named as people say it ("Medium", "Rules of thumb"), its value the server's name;
        // what the chosen one does is said under the list.
        // Each with its rating on the people's scale ("Hard ~1689", docs/rating.md).
        const rating = (b) => GAMES[this.gameName]?.botRatings?.[b === 'heuristic' ? 'medium' : b];
        const label = (b) => (rating(b) != null ? `${botName(b)} ~${rating(b)}` : botName(b));
        const group = (label_, names) => (names?.length ? h('optgroup', { label: label_ }, names.map((b) => h('option', { value: b, text: label(b) }))) : null);
        const kind = h('select', { id: 'bot-kind', dataset: { key: 'bot-kind', testid: 'bot-kind' }, attrs: { 'aria-describedby': 'bot-about' } },
          group('Levels, weakest first', d.levels), group("This game's own bots", d.bots));
        kind.value = this.botKind ?? (d.levels?.includes('medium') ? 'medium' : d.bots[d.bots.length - 1]);
        const about = h('p', { id: 'bot-about', class: 'hint bot-about', dataset: { testid: 'bot-about' }, attrs: { 'aria-live': 'polite' } });
        const game = GAMES[this.gameName];
        const say = () => { about.textContent = botInfo(kind.value, game?.ratings?.find((r) => r.level === kind.value), game?.steps?.find((s) => s.level === kind.value)); };
        say();
        kind.addEventListener('change', () => { this.botKind = kind.value; say(); });
        const add = h('button', { type: 'button', text: 'Add bot', dataset: { key: 'add-bot', testid: 'add-bot' }, disabled: seated >= (d.maxPlayers ?? 8) });
        add.addEventListener('click', () => this.send({ type: 'AddBot', bot: kind.value }));
        parts.push(h('div', { class: 'host-row host-bots' }, h('label', { for: 'bot-kind', text: 'Bot' }), kind, add, about));
      }
      const bots = players.filter((p) => p.isBot);
      if (bots.length) {
        const which = keep(h('select', { id: 'bot-remove', dataset: { key: 'bot-remove' } }, bots.map((b) => h('option', { value: b.username, text: b.bot ? `${b.username} (${botName(b.bot)})` : b.username }))), prev('bot-remove'));
        const rm = h('button', { type: 'button', text: 'Remove bot', dataset: { key: 'rm-bot', testid: 'remove-bot' } });
        rm.addEventListener('click', () => this.send({ type: 'RemoveBot', username: which.value }));
        parts.push(h('div', { class: 'host-row' }, h('label', { for: 'bot-remove', text: 'Remove' }), which, rm));
      }
    }
    const others = players.filter((p) => !p.isBot && p.username !== this.you && p.connected);
    if (others.length) {
      const to = keep(h('select', { id: 'host-to', dataset: { key: 'host-to' } }, others.map((p) => h('option', { value: p.username, text: p.username }))), prev('host-to'));
      const give = h('button', { type: 'button', text: 'Make host', dataset: { key: 'give-host', testid: 'give-host' } });
      give.addEventListener('click', () => this.send({ type: 'SetHost', username: to.value }));
      parts.push(h('div', { class: 'host-row' }, h('label', { for: 'host-to', text: 'Hand over to' }), to, give));
    }
    // Mid-game with nobody to hand over to, there is nothing to control.
    this.hostPanel.hidden = parts.length === 1;
    replaceChildren(this.hostPanel, ...parts);
  }

  /** Shows the last match's end screen while the room is between games (also after a
   * reload: the room's `lastMatch`), fetched once per match. */
  renderEnd() {
    const d = this.data;
    if (d?.gameStarted) { this.hideEnd(); return; }
    const id = d?.lastMatch;
    if (id == null || this.endShown === id) return;
    this.endShown = id;
    const you = this.you;
    const q = you ? `&player=${encodeURIComponent(you)}` : '';
    fetch(`/api/matches/${id}?room=${encodeURIComponent(this.id)}&steps=last${q}`).then((r) => (r.ok ? r.json() : null)).then((m) => {
      if (!m || this.endShown !== id || this.data?.gameStarted) return;
      const final = m.steps[m.steps.length - 1]?.gameData;
      const tableRoot = h('div', { class: 'end-table', dataset: { testid: 'final-table' } });
      // The final table under the standings, folded: the winner card comes first and the next
      // game's controls follow it in sight; the table opens with a click (or Enter).
      replaceChildren(this.endRoot, standings(m, this.mod, you),
        h('details', { class: 'end-final' },
          h('summary', { class: 'end-sub', text: 'The final table' }), tableRoot));
      if (final) mountReadOnly(this.mod, tableRoot, final.you).render(final);
      this.endRoot.hidden = false;
      // The end screen's title replaces the banner (one element says who won).
      this.banner.hidden = true;
      this.banner.replaceChildren();
    }).catch(() => { /* the log says who won */ });
  }

  hideEnd() {
    this.endShown = null;
    this.endRoot.hidden = true;
    this.endRoot.replaceChildren();
  }

  renderBanner() {
    const d = this.data;
    if (d?.gameStarted || this.winner === undefined || !this.endRoot.hidden) {
      this.banner.hidden = true;
      this.banner.replaceChildren();
      return;
    }
    this.banner.hidden = false;
    const who = this.winner;
    replaceChildren(this.banner,
      h('span', { class: 'banner-title', dataset: { testid: 'winner' }, text: who ? (who === this.you ? 'You win!' : sentence(`${who} wins!`)) : 'Game over' }),
      h('span', { class: 'banner-sub', text: d?.host === this.you ? ' Start another game when everyone is ready.' : ' The host can start another game.' }));
  }

  renderWait() {
    const waits = this.data?.gameStarted ? this.waits : [];
    this.waitLine.hidden = !waits.length;
    if (!waits.length) return;
    const now = Date.now();
    // Bots answer by themselves: their clocks are nobody's business.
    // Nor is your own when the game has nothing to ask of you (`idle`: a window you can only
    // pass, which the server passes for you).
    const people = waits.filter((w) => !this.data.players?.find((x) => x.username === w.username)?.isBot
      && !(w.username === this.you && this.mod?.idle?.(this.data)));
    this.waitLine.hidden = !people.length;
    this.waitLine.textContent = people.map((w) => {
      const s = Math.max(0, Math.ceil((w.at - now) / 1000));
      const who = w.username === this.you ? 'You have' : `${w.username} has`;
      const p = this.data.players?.find((x) => x.username === w.username);
      return `${who} ${s} s to act${p && !p.connected ? ' (offline: a bot will stand in)' : ''}.`;
    }).join(' ');
  }

  log(text, opts = {}) {
    const li = h('li', { class: `log-item ${opts.cls ?? ''} ${opts.private ? 'log-private' : ''}` },
      h('time', { text: clock(Date.now()), attrs: { 'aria-hidden': 'true' } }), ' ', h('span', { text }));
    if (opts.private) li.prepend(h('span', { class: 'sr-only', text: 'Only you: ' }));
    const box = this.logBox;
    const stick = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
    this.logList.appendChild(li);
    while (this.logList.children.length > 300) this.logList.firstElementChild.remove();
    if (stick) box.scrollTop = box.scrollHeight;
    this.lastLine.textContent = text;
  }

  addChat(m) {
    const key = `${m.timestamp}|${m.player?.username}|${m.message}`;
    if (this.chatSeen.has(key)) return;
    this.chatSeen.add(key);
    const author = m.player?.username ?? '?';
    const li = h('li', { class: `chat-item ${author === this.you ? 'chat-mine' : ''}` },
      h('time', { text: clock(m.timestamp), attrs: { 'aria-hidden': 'true' } }), ' ',
      // Each in its own bidi isolate: nothing in a name or a message reorders the text around it.
      h('bdi', { class: 'chat-author', text: author }), ' ',
      h('bdi', { class: 'chat-text', text: m.message }));
    const box = this.chatBox;
    const stick = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
    this.chatList.appendChild(li);
    while (this.chatList.children.length > 200) this.chatList.firstElementChild.remove();
    if (stick || author === this.you) box.scrollTop = box.scrollHeight;
  }
}

// ---- the replay viewer -------------------------------------------------------------------------

/**
 * `/replay/<id>?room=<room>`: a finished match step by step, drawn by its game's own module from
 * the tables the server rebuilds (`GET /api/matches/{id}?room=…`: the room it was played in),
 * from one seat's view, a spectator's, or every seat's side by side; the narration of the moves
 * so far below, newest last.
 */
async function openReplay(id, room) {
  const inRoom = `room=${encodeURIComponent(room)}`;
  document.title = `Replay ${id} · cardtable`;
  const fail = (text) => replaceChildren(app, h('section', { class: 'card missing' },
    h('h1', { text: 'No such replay' }), h('p', { text }), h('a', { class: 'button primary', href: '/', text: 'Back to the lobby' })));
  let first;
  try {
    const res = await fetch(`/api/matches/${id}?${inRoom}`);
    first = await res.json();
    if (!res.ok) return fail(first.error ?? `HTTP ${res.status}`);
  } catch (e) { return fail(`Could not load match ${id}: ${e.message}`); }
  const mod = await gameModule(first.game);
  document.title = `${first.title} replay ${id} · cardtable`;
  const byView = new Map([['spectator', first]]);
  const total = first.steps.length - 1;
  let step = total;
  let viewKey = 'spectator';

  const viewSel = h('select', { id: 'replay-view', dataset: { testid: 'replay-view' } },
    h('option', { value: 'spectator', text: 'A spectator (no hands)' }),
    first.players.map((p, i) => h('option', { value: String(i), text: `${p}'s seat` })),
    h('option', { value: 'all', text: 'Every seat' }));
  const slider = h('input', { type: 'range', id: 'replay-step', min: 0, max: total, value: total, attrs: { 'aria-label': 'Move' } });
  const counter = h('span', { class: 'replay-counter', dataset: { testid: 'replay-counter' }, attrs: { 'aria-live': 'polite' } });
  const btn = (text, label, to) => {
    const b = h('button', { type: 'button', text, attrs: { 'aria-label': label } });
    b.addEventListener('click', () => go(to()));
    return b;
  };
  const tables = h('div', { class: 'replay-tables' });
  // The narration scrolls: Tab reaches it (the arrow keys then scroll it).
  const lines = h('ol', { class: 'log-list replay-log', tabIndex: 0, dataset: { testid: 'replay-log' }, attrs: { 'aria-labelledby': 'replay-log-h' } });

  // A view is fetched once: a second ask while the first is on its way shares its answer.
  const loading = new Map();
  function load(key) {
    if (byView.has(key)) return Promise.resolve(byView.get(key));
    if (!loading.has(key)) {
      loading.set(key, (async () => {
        try {
          const res = await fetch(`/api/matches/${id}?${inRoom}&seat=${key}`);
          const m = await res.json();
          if (!res.ok) throw new Error(m.error ?? `HTTP ${res.status}`);
          byView.set(key, m);
          return m;
        } finally { loading.delete(key); }
      })());
    }
    return loading.get(key);
  }

  // One mounted module per table shown (a module keeps click state between renders).
  let mounted = [];
  // Each show waits on fetches, so an earlier one can finish after a later one: only the newest
  // draws (a "Next move" whose seat was still loading must not undo a later "Every seat").
  let shown = 0;
  async function show() {
    const mine = ++shown;
    const keys = viewKey === 'all' ? first.players.map((_, i) => String(i)) : [viewKey];
    let views;
    try { views = await Promise.all(keys.map(load)); } catch (e) { if (mine === shown) showAlert(e.message, 'error'); return; }
    if (mine !== shown) return;
    if (mounted.length !== views.length || mounted.some((x, i) => x.key !== keys[i])) {
      mounted = views.map((m, i) => {
        const root = h('div', { class: 'replay-table' });
        const you = m.steps[0]?.gameData?.you ?? null;
        const box = h('section', { class: 'replay-seat', attrs: { 'aria-label': you ? `${you}'s view` : 'Spectator view' } },
          views.length > 1 ? h('h2', { text: `${you}'s view` }) : null, root);
        return { key: keys[i], box, game: mountReadOnly(mod, root, you), m };
      });
      replaceChildren(tables, mounted.map((x) => x.box));
      tables.classList.toggle('replay-many', mounted.length > 1);
    }
    for (const x of mounted) x.game.render(x.m.steps[step].gameData);
    counter.textContent = step === 0 ? `The deal (of ${total} moves)` : `Move ${step} of ${total}`;
    slider.value = String(step);
    const said = [];
    // One seat's narration speaks to that seat ("You draw…"); side by side, every seat is
    // "you", so the narration is the spectator's, naming everyone.
    const narrated = viewKey === 'all' ? first : views[0];
    for (let i = 0; i <= step; i++) for (const l of narrated.steps[i].lines) said.push(h('li', { class: 'log-item', dataset: { step: String(i) } }, l));
    replaceChildren(lines, said.slice(-200));
    lines.scrollTop = lines.scrollHeight;
    document.body.dataset.replayStep = String(step);
  }
  function go(n) { step = Math.max(0, Math.min(total, n)); show(); }
  slider.addEventListener('input', () => go(Number(slider.value)));
  viewSel.addEventListener('change', () => { viewKey = viewSel.value; show(); });
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === 'ArrowLeft') go(step - 1);
    if (e.key === 'ArrowRight') go(step + 1);
  });
  const winners = first.winners.length ? `${first.winners.join(' and ')} won` : first.abandoned ? 'abandoned' : 'no winner';
  replaceChildren(app, h('div', { class: 'replay room', dataset: { game: first.game, testid: 'replay' } },
    h('header', { class: 'room-head' },
      h('h1', {}, h('span', { text: `${first.title} replay` }), ' ', h('span', { class: 'room-code', text: `match ${id}` })),
      rulesLink(first.game)),
    h('p', { class: 'hint replay-facts', text: `${first.players.join(', ')} · ${winners} · ${first.moves} move${first.moves === 1 ? '' : 's'} in ${duration(first.endedAt - first.startedAt)}` }),
    h('div', { class: 'card replay-controls' },
      h('label', { for: 'replay-view', text: 'Seen by' }), viewSel,
      h('div', { class: 'replay-steps', attrs: { role: 'group', 'aria-label': 'Step through the match' } },
        btn('◀◀', 'The deal', () => 0), btn('◀', 'Previous move', () => step - 1), counter,
        btn('▶', 'Next move', () => step + 1), btn('▶▶', 'The end', () => total)),
      slider),
    h('div', { class: 'room-grid' },
      h('section', { class: 'table', attrs: { 'aria-label': 'Table' } }, tables),
      h('aside', { class: 'side' }, h('section', { class: 'card log' }, h('h2', { id: 'replay-log-h', text: 'What happened' }), lines)))));
  show();
}

// ---- the generic table (games without their own module) -------------------------------------

/** Lists the players and this seat's legal actions (as the game's own JSON), sending `Act`. */
function mountGeneric(ctx) {
  return {
    render(d) {
      const players = h('ul', { class: 'generic-players' }, (d.players ?? []).map((p) =>
        h('li', {}, h('strong', { text: p.username }), p.username === d.host ? ' ★ host' : '', p.isSpectator ? ' (watching)' : '', p.isBot ? ' (bot)' : '')));
      const legal = (d.legal ?? []).map((a) => {
        const b = h('button', { type: 'button', class: 'generic-action', text: JSON.stringify(a) });
        b.addEventListener('click', () => ctx.send({ type: 'Act', action: a }));
        return b;
      });
      replaceChildren(ctx.root, h('div', { class: 'card' }, h('h2', { text: 'Players' }), players,
        legal.length ? h('div', { class: 'generic-actions' }, h('h3', { text: 'Your moves' }), legal) : null));
    },
    packet(msg) {
      return msg.type === 'GameEvent' ? JSON.stringify(msg.event) : null;
    },
  };
}

// The games and who is playing first: the lobby and the rooms need both.
Promise.all([loadGames(), loadIdentity()]).finally(() => {
  mountAccountMenu(document.getElementById('account'));
  route();
});
