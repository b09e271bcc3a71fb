// cardtable's web client: the lobby, the room shell (socket, join, host controls, chat, event
// log, alerts) and the loading of a game module from /games/<game>.js.
//
// A game module exports `mount(ctx)` and returns `{ render(gameData), packet(msg) }`:
// - `render` draws the table from each `GameDataSync`;
// - `packet` gets every packet the shell does not handle itself (the game's broadcasts, or the
//   generic `GameEvent`) and returns a line for the event log (a string, or
//   `{text, private: true}`), or null.
// `ctx` gives it `root` (its element), `send(packet)`, `alert(text)`, `log(text)`, `me()`.
// Games without a module get a generic table that lists `legal` actions and sends `Act`.

import { h, replaceChildren, clock } from '/dom.js';

/**
 * The games a room can be created for, by name: the server's `GET /api/games` (each game's
 * `{name, title, description, minPlayers, maxPlayers, defaultPlayers, bots}`), loaded once
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

/** "2–5 players", "2 players". */
function seatRange(g) {
  return g.minPlayers === g.maxPlayers ? `${g.minPlayers} players` : `${g.minPlayers}–${g.maxPlayers} players`;
}

const app = document.getElementById('app');
const connStatus = document.getElementById('conn-status');
const alerts = document.getElementById('alerts');

const NAME_KEY = 'cardtable.username';
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
  if (m) openRoom(m[1]);
  else openLobby();
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
  const describe = () => {
    const g = GAMES[game.value];
    about.textContent = g ? `${g.description} ${seatRange(g)}.` : 'Could not load the list of games.';
  };
  game.addEventListener('change', describe);
  describe();
  const err = h('p', { class: 'form-error', attrs: { role: 'alert' } });
  const form = h('form', { class: 'card create-form', attrs: { 'aria-labelledby': 'create-h' } },
    h('h2', { id: 'create-h', text: 'New room' }),
    h('label', { for: 'lobby-username', text: 'Your name' }), name,
    h('p', { id: 'username-hint', class: 'hint', text: '1–16 letters, digits, _ or -' }),
    h('label', { for: 'lobby-game', text: 'Game' }), game, about,
    h('button', { type: 'submit', class: 'primary', text: 'Create room' }), err);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    const username = name.value.trim();
    if (!USERNAME_RE.test(username)) { err.textContent = 'Pick a name of 1–16 letters, digits, _ or -.'; name.focus(); return; }
    setItem('local', NAME_KEY, username);
    try {
      const res = await fetch('/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: game.value }) });
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
        h('p', { text: 'Create a room, share its link, and play in the browser. Anyone who joins while a game runs watches until the next one.' })),
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
        h('span', { class: 'room-code', text: r.id })),
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
  let summary = null;
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(roomId)}`);
    if (res.ok) summary = await res.json();
  } catch { /* the socket will tell */ }
  if (!summary) {
    replaceChildren(app, h('section', { class: 'card missing' },
      h('h1', { text: 'No such room' }),
      h('p', {}, 'There is no room ', h('code', { text: roomId }), ' on this server. It may have been a typo, or the room closed: a room closes a minute after everyone has left it.'),
      h('a', { class: 'button primary', href: '/', text: 'Back to the lobby' })));
    return;
  }
  room.mount(summary.game);
}

class Room {
  constructor(id) {
    this.id = id;
    this.ws = null;
    this.data = null;
    this.you = null;
    this.game = null;
    this.gameName = null;
    this.winner = undefined; // undefined: no game ended since load
    this.retries = 0;
    this.reconnecting = false;
    this.chatSeen = new Set();
    this.tokenKey = `cardtable.token.${id}`;
    this.nameKey = `cardtable.name.${id}`;
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

    this.joinPanel = h('section', { class: 'join-panel card', attrs: { 'aria-label': 'You' } });
    this.hostPanel = h('section', { class: 'host-panel card', hidden: true, attrs: { 'aria-labelledby': 'host-h' } });
    this.banner = h('div', { class: 'banner', hidden: true, attrs: { role: 'status' } });
    this.waitLine = h('p', { class: 'wait-line', hidden: true, dataset: { testid: 'clock' } });
    this.waits = [];
    setInterval(() => this.renderWait(), 1000);
    this.tableRoot = h('div', { class: 'table-root' });
    this.logList = h('ol', { class: 'log-list', attrs: { 'aria-live': 'polite', 'aria-relevant': 'additions' } });
    this.chatList = h('ol', { class: 'chat-list', attrs: { 'aria-live': 'polite', 'aria-relevant': 'additions' } });
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
        h('div', { class: 'share' }, h('label', { for: 'share-link', class: 'sr-only', text: 'Share link' }), shareInput, copy)),
      this.joinPanel,
      this.hostPanel,
      this.banner,
      this.waitLine,
      h('div', { class: 'room-grid' },
        h('section', { class: 'table', attrs: { 'aria-label': 'Table' } }, this.tableRoot),
        h('aside', { class: 'side' },
          h('section', { class: 'card chat', attrs: { 'aria-labelledby': 'chat-h' } }, h('h2', { id: 'chat-h', text: 'Chat' }), this.chatList, chatForm),
          h('section', { class: 'card log', attrs: { 'aria-labelledby': 'log-h' } }, h('h2', { id: 'log-h', text: 'Events' }), this.logList)))));
    this.renderJoin();
    this.loadGame(gameName).then(() => this.connect());
  }

  async loadGame(name) {
    const ctx = {
      root: this.tableRoot,
      send: (p) => this.send(p),
      alert: (t, k) => showAlert(t, k),
      log: (t, opts) => this.log(t, opts),
      me: () => this.you,
    };
    let mod = null;
    try { mod = await import(`/games/${encodeURIComponent(name)}.js`); } catch { mod = null; }
    this.game = (mod?.mount ?? mountGeneric)(ctx);
  }

  // ---- socket ----

  connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/rooms/${encodeURIComponent(this.id)}/ws`);
    this.ws = ws;
    setStatus(this.retries ? 'reconnecting…' : 'connecting…', 'connecting');
    ws.addEventListener('open', () => {
      this.retries = 0;
      setStatus('connected', 'open');
      const token = getItem('session', this.tokenKey);
      if (token) {
        this.reconnecting = true;
        this.send({ type: 'Reconnect', token });
      } else {
        this.send({ type: 'GameDataRequest' });
        const auto = getItem('session', `cardtable.autojoin.${this.id}`);
        if (auto) {
          setItem('session', `cardtable.autojoin.${this.id}`, null);
          this.join(auto);
        }
      }
    });
    ws.addEventListener('message', (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      try { this.onPacket(msg); } catch (ex) { console.error('packet handling failed', msg, ex); }
    });
    ws.addEventListener('close', (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      // The server says why it closed a socket: over a limit (1013), the room closed or the
      // server stopped (1001), not reading (1008), a frame too big (1009).
      if (e.reason) showAlert(e.reason, 'error');
      this.retries += 1;
      const wait = Math.min(500 * 2 ** Math.min(this.retries, 4), 8000);
      setStatus('disconnected — reconnecting…', 'closed');
      this.renderJoin();
      setTimeout(() => this.connect(), wait);
    });
  }

  send(packet) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      showAlert('Not connected to the server yet; try again in a moment.', 'error');
      return false;
    }
    this.ws.send(JSON.stringify(packet));
    return true;
  }

  join(username) {
    setItem('local', NAME_KEY, username);
    this.pendingName = username;
    this.send({ type: 'JoinGame', username });
  }

  // ---- packets ----

  onPacket(msg) {
    switch (msg.type) {
      case 'Joined':
        this.reconnecting = false;
        this.you = msg.username;
        setItem('session', this.tokenKey, msg.token);
        setItem('session', this.nameKey, msg.username);
        this.renderJoin();
        break;
      case 'PlayerJoinRejected':
        if (this.reconnecting) {
          // The seat is gone (left the lobby on reload, or the hold time passed): join again
          // under the same name if we can.
          this.reconnecting = false;
          setItem('session', this.tokenKey, null);
          const name = getItem('session', this.nameKey);
          this.send({ type: 'GameDataRequest' });
          if (name) this.join(name);
        } else {
          showAlert(`Could not join: ${msg.reason}`, 'error');
          this.joinError = msg.reason;
          this.renderJoin();
        }
        break;
      case 'PlayerJoined': {
        const p = msg.player;
        const extra = p.isBot ? ' (bot)' : p.isSpectator || this.data?.gameStarted ? ' to watch' : '';
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
        this.log('The game starts.', { cls: 'log-big' });
        break;
      case 'TurnStart':
        this.log(msg.username === this.you ? 'Your turn.' : `${msg.username}'s turn.`, { cls: msg.username === this.you ? 'log-you' : 'log-turn' });
        break;
      case 'TurnEnd':
        break;
      case 'GameEnded':
        this.winner = msg.winner ?? null;
        this.log(msg.winner ? `${msg.winner} wins the game!` : 'The game ended with no winner.', { cls: 'log-big' });
        showAlert(msg.winner ? (msg.winner === this.you ? 'You win!' : `${msg.winner} wins!`) : 'The game is over.', 'win');
        break;
      case 'ActionFailed':
        showAlert(msg.reason, 'error');
        break;
      case 'ShowAlert':
        showAlert(msg.text, 'info');
        break;
      case 'NewChatMessageSent':
        this.addChat(msg);
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
    this.game?.render(data);
    const base = `${gameTitle(this.gameName)} · room ${this.id} · cardtable`;
    document.title = data.gameStarted && data.you && data.currentTurn === data.you ? `▶ Your turn · ${base}` : base;
  }

  // ---- rendering ----

  renderJoin() {
    const d = this.data;
    const connected = this.ws && this.ws.readyState === WebSocket.OPEN;
    this.chatInput.disabled = !this.you || !connected;
    this.chatSend.disabled = !this.you || !connected;
    this.chatInput.placeholder = this.you ? 'Say something…' : 'Join to chat';
    const hostLine = d?.host ? h('span', { class: 'host-line' }, 'Host: ', h('strong', { text: d.host })) : null;
    if (this.you) {
      const me = d?.players?.find((p) => p.username === this.you);
      const role = d?.host === this.you ? 'host' : me?.isSpectator ? 'spectator' : d?.gameStarted ? 'player' : 'in the lobby';
      const leave = h('button', { type: 'button', class: 'danger', text: 'Leave room', dataset: { key: 'leave' } });
      leave.addEventListener('click', () => {
        if (d?.gameStarted && !me?.isSpectator && me?.inGame && !confirm('Leave the game? You will be out.')) return;
        if (this.send({ type: 'LeaveGame' })) {
          setItem('session', this.tokenKey, null);
          setItem('session', this.nameKey, null);
          this.you = null;
          this.renderJoin();
        }
      });
      replaceChildren(this.joinPanel,
        h('p', { class: 'you-line', dataset: { testid: 'you' } }, 'You are ', h('strong', { text: this.you }), ` (${role}).`),
        hostLine, leave);
      return;
    }
    if (!this.joinForm || !this.joinPanel.contains(this.joinForm.form)) this.joinForm = this.buildJoinForm();
    const f = this.joinForm;
    f.button.disabled = !connected;
    f.button.textContent = d?.gameStarted ? 'Join to watch' : 'Join';
    f.hint.textContent = d?.gameStarted ? 'A game is running: you will watch and play in the next one.' : '1–16 letters, digits, _ or -';
    f.err.textContent = this.joinError ?? '';
    if (f.hostLine) f.hostLine.remove();
    f.hostLine = hostLine;
    if (hostLine) this.joinPanel.appendChild(hostLine);
  }

  buildJoinForm() {
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
        h('span', { class: 'hint', text: `${seated} of ${d.minPlayers ?? 2}–${d.maxPlayers ?? 8} players` })));
      if (d.bots?.length) {
        const kind = h('select', { id: 'bot-kind', dataset: { key: 'bot-kind' } }, d.bots.map((b) => h('option', { value: b, text: b })));
        kind.value = this.botKind ?? d.bots[d.bots.length - 1];
        kind.addEventListener('change', () => { this.botKind = kind.value; });
        const add = h('button', { type: 'button', text: 'Add bot', dataset: { key: 'add-bot', testid: 'add-bot' }, disabled: seated >= (d.maxPlayers ?? 8) });
        add.addEventListener('click', () => this.send({ type: 'AddBot', bot: kind.value }));
        parts.push(h('div', { class: 'host-row' }, h('label', { for: 'bot-kind', text: 'Bot' }), kind, add));
      }
      const bots = players.filter((p) => p.isBot);
      if (bots.length) {
        const which = keep(h('select', { id: 'bot-remove', dataset: { key: 'bot-remove' } }, bots.map((b) => h('option', { value: b.username, text: b.username }))), prev('bot-remove'));
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

  renderBanner() {
    const d = this.data;
    if (d?.gameStarted || this.winner === undefined) {
      this.banner.hidden = true;
      return;
    }
    this.banner.hidden = false;
    const who = this.winner;
    replaceChildren(this.banner,
      h('span', { class: 'banner-title', dataset: { testid: 'winner' }, text: who ? (who === this.you ? 'You win!' : `${who} wins!`) : 'Game over' }),
      h('span', { class: 'banner-sub', text: d?.host === this.you ? ' Start another game when everyone is ready.' : ' The host can start another game.' }));
  }

  renderWait() {
    const waits = this.data?.gameStarted ? this.waits : [];
    this.waitLine.hidden = !waits.length;
    if (!waits.length) return;
    const now = Date.now();
    this.waitLine.textContent = waits.map((w) => {
      const s = Math.max(0, Math.ceil((w.at - now) / 1000));
      const who = w.username === this.you ? 'You have' : `${w.username} has`;
      const p = this.data.players?.find((x) => x.username === w.username);
      return `${who} ${s} s to act${p && !p.connected ? ' (offline: a bot will stand in)' : ''}.`;
    }).join(' ');
  }

  log(text, opts = {}) {
    const li = h('li', { class: `log-item ${opts.cls ?? ''} ${opts.private ? 'log-private' : ''}` },
      h('time', { text: clock(Date.now()) }), ' ', h('span', { text }));
    if (opts.private) li.prepend(h('span', { class: 'sr-only', text: 'Only you: ' }));
    const stick = this.logList.scrollHeight - this.logList.scrollTop - this.logList.clientHeight < 40;
    this.logList.appendChild(li);
    while (this.logList.children.length > 300) this.logList.firstElementChild.remove();
    if (stick) this.logList.scrollTop = this.logList.scrollHeight;
  }

  addChat(m) {
    const key = `${m.timestamp}|${m.player?.username}|${m.message}`;
    if (this.chatSeen.has(key)) return;
    this.chatSeen.add(key);
    const author = m.player?.username ?? '?';
    const li = h('li', { class: `chat-item ${author === this.you ? 'chat-mine' : ''}` },
      h('time', { text: clock(m.timestamp) }), ' ',
      h('strong', { class: 'chat-author', text: author }), ' ',
      h('span', { class: 'chat-text', text: m.message }));
    const stick = this.chatList.scrollHeight - this.chatList.scrollTop - this.chatList.clientHeight < 40;
    this.chatList.appendChild(li);
    while (this.chatList.children.length > 200) this.chatList.firstElementChild.remove();
    if (stick || author === this.you) this.chatList.scrollTop = this.chatList.scrollHeight;
  }
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

loadGames().finally(route);
