/**
 * cardtable's room connection: the one module every game page talks to its room through
 * (web/app.js builds each room page on it), and a reference for anyone writing a client in
 * another language (docs/protocol.md describes the same steps; examples/bot.py does them in
 * Python). What it does, and what a page is left to do:
 *
 * - **Resolve**: `GET /api/rooms/{id}` says which server runs the room (`path`: `""` on one
 *   server, `/n/<node>` behind the cluster's proxy). While the room changes server the answer
 *   is `503 {"error":"moving"}`, from a node or from the proxy itself (`502`/`503`/`504` with the
 *   same body): asked again after a short, jittered wait (`reconnectDelay`), as every other
 *   refusal without an answer.
 * - **Connect** to `${path}/api/rooms/{id}/ws`. The room sends a new socket nothing until it has
 *   read its first packet: `Reconnect {token}` when this tab holds a token for the room (the
 *   answer, `Joined`, comes first), else the page's choice (`GameDataRequest`, `JoinGame`).
 * - **Reconnect**: a socket closed `4001` "moved" (the room went to another server), or dropped,
 *   is resolved again and reopened, with the token: the same seat. After a minute without
 *   getting back in the client gives up (`hooks.gaveUp`; `retry()` starts again).
 * - **Serials and resend**: `act` sends a game action with the `serial` of the last table, and
 *   keeps it until the room answers it (`Acted`, a refusal naming its serial, or a table past
 *   it); one still unanswered when the socket closes is sent again, as it was, once back in
 *   the seat (the room applies it at most once).
 *
 * The page gets every packet through `hooks.packet(msg)` after the client has read what it
 * needs from it, except a refused token it handled itself (it joins again by name).
 */

/** The close code of a socket whose room is on another server now. */
export const CLOSE_MOVED = 4001;
/** How long the client tries to get back into a room before it gives up. */
export const RECONNECT_GIVE_UP_MS = 60000;

/** The wait before reconnect attempt `n` (0: at once), with jitter so the pages of a dead
 * server do not all knock at the same instant. */
export function reconnectDelay(n) {
  if (n <= 0) return 0;
  const base = Math.min(250 * 2 ** (n - 1), 2000);
  return Math.round(base * (0.8 + 0.4 * Math.random()));
}

export const sleepMs = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Where a room lives now: `{summary}` (with `path`), or `{status, error, retry}`: `404` no such
 * room, `429` too many lookups, `503`/`502`/`504` `error: "moving"` the room is between servers
 * (a node's answer or the proxy's), `0` no answer at all. `retry`: worth asking again soon.
 */
export async function lookupRoom(roomId) {
  let res;
  try {
    res = await fetch(`/api/rooms/${encodeURIComponent(roomId)}`, { cache: 'no-store' });
  } catch {
    return { status: 0, error: null, retry: true };
  }
  let body = null;
  try { body = await res.json(); } catch { /* not JSON: a proxy's page, or nothing */ }
  if (res.ok && body) return { summary: body };
  return { status: res.status, error: body?.error ?? null, retry: res.status === 0 || res.status >= 500 };
}

export class RoomClient {
  /**
   * @param {string} id the room's id
   * @param {{get(key: string): string|null, set(key: string, value: string|null): void}} keep
   *   where this tab keeps the room's token and name (the page uses sessionStorage)
   * @param {object} hooks what the page does: `packet(msg)`, `connecting({again})`, `opened({reconnecting})`,
   *   `closed(event)`, `back()` (the first packet after a loss), `gaveUp(why)`,
   *   `rejoinName()` (the name to join again under when a token is refused)
   */
  constructor(id, keep, hooks) {
    this.id = id;
    this.keep = keep;
    this.hooks = hooks;
    this.tokenKey = `cardtable.token.${id}`;
    this.nameKey = `cardtable.name.${id}`;
    // The path prefix of the room's server (`""`: the server that served the page).
    this.path = '';
    this.ws = null;
    this.retries = 0;
    // When the connection was lost (null while connected or before the first connect), and
    // whether the client gave up reconnecting.
    this.lostSince = null;
    this.gaveUp = false;
    // A `Reconnect` is waiting for its answer.
    this.reconnecting = false;
    // The last game action sent that the room has not answered yet (see `act`).
    this.inFlight = null;
    // The serial of the last table (null in the lobby).
    this.serial = null;
  }

  get connected() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  get token() {
    return this.keep.get(this.tokenKey);
  }

  /** Forgets this tab's seat (after `LeaveGame`). */
  forget() {
    this.keep.set(this.tokenKey, null);
    this.keep.set(this.nameKey, null);
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}${this.path}/api/rooms/${encodeURIComponent(this.id)}/ws`);
    this.ws = ws;
    this.hooks.connecting?.({ again: this.lostSince !== null });
    ws.addEventListener('open', () => {
      const token = this.token;
      if (token) {
        this.reconnecting = true;
        this.send({ type: 'Reconnect', token });
      }
      this.hooks.opened?.({ reconnecting: Boolean(token) });
    });
    ws.addEventListener('message', (e) => {
      // Back in: the room answered on this socket.
      if (this.lostSince !== null) {
        this.lostSince = null;
        this.retries = 0;
        this.hooks.back?.();
      }
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      try { if (this.read(msg)) this.hooks.packet(msg); } catch (ex) { console.error('packet handling failed', msg, ex); }
    });
    ws.addEventListener('close', (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.lostSince === null) {
        this.lostSince = Date.now();
        this.retries = 0;
      }
      this.hooks.closed?.(e);
      // A room that moved is at its new server at once (or within a second): try at once.
      this.scheduleReconnect(e.code === CLOSE_MOVED && this.retries === 0 ? 0 : reconnectDelay(this.retries + 1));
    });
  }

  /** Ask where the room is now, then connect there; on no answer, try again after a wait. */
  scheduleReconnect(wait) {
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(async () => {
      if (this.ws || this.gaveUp) return;
      this.retries += 1;
      const found = await lookupRoom(this.id);
      if (this.ws || this.gaveUp) return;
      if (found.summary) {
        this.path = found.summary.path ?? '';
        this.connect();
        return;
      }
      if (Date.now() - this.lostSince > RECONNECT_GIVE_UP_MS || found.status === 404) {
        this.gaveUp = true;
        this.hooks.gaveUp?.(found.status === 404 ? 'The room is gone: the server no longer has it.' : 'Could not reach the room\'s server for a minute.');
        return;
      }
      this.scheduleReconnect(reconnectDelay(this.retries));
    }, wait);
  }

  /** After giving up: try again from now. */
  retry() {
    this.gaveUp = false;
    this.lostSince = Date.now();
    this.retries = 0;
    this.scheduleReconnect(0);
  }

  /** Sends a packet; false when the socket is not open. */
  send(packet) {
    if (!this.connected) return false;
    this.ws.send(JSON.stringify(packet));
    return true;
  }

  /**
   * Sends a game action with the serial of the table it was chosen from: a double click, or a
   * click on a table that has just moved on, is refused (`stale_action`), never played twice.
   * It is kept until the room answers it, and sent again after a reconnect (see the top).
   */
  act(packet) {
    if (this.serial == null) return this.send(packet);
    const p = { ...packet, serial: this.serial };
    const sent = this.send(p);
    if (sent) this.inFlight = p;
    return sent;
  }

  join(username) {
    return this.send({ type: 'JoinGame', username });
  }

  /** Reads what the connection needs from a packet; false when it handled it whole. */
  read(msg) {
    switch (msg.type) {
      case 'Joined': {
        const back = this.reconnecting;
        this.reconnecting = false;
        this.keep.set(this.tokenKey, msg.token);
        this.keep.set(this.nameKey, msg.username);
        // Back in the seat: the action that had no answer when the socket closed goes again,
        // as it was (same serial); a joiner by name has no such action.
        if (back && this.inFlight) this.send(this.inFlight);
        else this.inFlight = null;
        return true;
      }
      case 'PlayerJoinRejected':
        if (this.reconnecting && msg.code === 'unknown_token') {
          // The seat is gone (left the lobby on reload, or the hold time passed; after a
          // failover, a lobby member whose connection dropped has left the room): join again
          // under the same name if we can.
          this.reconnecting = false;
          this.inFlight = null;
          const name = this.hooks.rejoinName?.() ?? this.keep.get(this.nameKey);
          this.keep.set(this.tokenKey, null);
          this.send({ type: 'GameDataRequest' });
          if (name) this.hooks.join ? this.hooks.join(name) : this.join(name);
          return false;
        }
        this.reconnecting = false;
        return true;
      case 'Acted':
        // The room stored the action: nothing to send again.
        if (msg.serial === this.inFlight?.serial) this.inFlight = null;
        return true;
      case 'ActionFailed':
        // The room moved to another server before it stored the action: the socket closes
        // (4001) and the action goes again from there. Any other answer settles it; a refusal
        // of an earlier action (it names its serial) leaves the one in flight alone (older
        // servers name none: any refusal settles it).
        if (!(msg.code === 'room_moved' && this.inFlight) && (msg.serial == null || msg.serial === this.inFlight?.serial)) this.inFlight = null;
        return true;
      case 'GameDataSync': {
        const data = msg.gameData;
        this.serial = data.serial ?? null;
        // A table past the serial of the action in flight: the room has moved on (with it, or
        // without it if another seat's move closed its decision); nothing to send again.
        if (this.inFlight && !(data.serial != null && data.serial <= this.inFlight.serial)) this.inFlight = null;
        return true;
      }
      default:
        return true;
    }
  }
}
