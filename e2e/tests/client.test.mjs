// web/client.js on its own (no browser, no server): the room connection every game page uses
// (issue 46: one documented client module). What it does with the packets that matter to a
// client writer: serials on actions, an action kept until the room answers it (`Acted`, a
// refusal naming its serial, a table past it), resent after a reconnect; and the lookup's
// answers, a room that moves (`503 moving`, the proxy's JSON refusals) asked again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RoomClient, lookupRoom } from '../../web/client.js';

globalThis.WebSocket = { OPEN: 1 };

function client() {
  const kept = new Map();
  const seen = [];
  const c = new RoomClient('r1', { get: (k) => kept.get(k) ?? null, set: (k, v) => kept.set(k, v) }, { packet: (m) => seen.push(m) });
  const sent = [];
  c.ws = { readyState: 1, send: (s) => sent.push(JSON.parse(s)) };
  return { c, kept, sent, seen };
}

const table = (serial) => ({ type: 'GameDataSync', gameData: { serial } });

test('an action carries the table\'s serial and is kept until Acted', () => {
  const { c, sent } = client();
  c.read(table(5));
  assert.equal(c.act({ type: 'Act', action: { type: 'End' } }), true);
  assert.deepEqual(sent.at(-1), { type: 'Act', action: { type: 'End' }, serial: 5 });
  assert.equal(c.inFlight.serial, 5);
  c.read({ type: 'Acted', serial: 4, index: 4 });
  assert.equal(c.inFlight?.serial, 5, 'an older move\'s Acted leaves it');
  c.read({ type: 'Acted', serial: 5, index: 5 });
  assert.equal(c.inFlight, null);
});

test('an action still unanswered when the socket closed is resent once back in the seat', () => {
  const { c, kept, sent } = client();
  c.read({ type: 'Joined', username: 'ana', token: 't0' });
  assert.equal(kept.get('cardtable.token.r1'), 't0');
  c.read(table(7));
  c.act({ type: 'Act', action: { type: 'Pass' } });
  // The socket dropped; a new one sent Reconnect, and the room answered.
  c.reconnecting = true;
  sent.length = 0;
  c.read({ type: 'Joined', username: 'ana', token: 't0' });
  assert.deepEqual(sent, [{ type: 'Act', action: { type: 'Pass' }, serial: 7 }]);
  // Refused as stale (the old server had stored it): settled.
  c.read({ type: 'ActionFailed', code: 'stale_action', reason: '…', serial: 7 });
  assert.equal(c.inFlight, null);
});

test('a refused token joins again by name, and the page is not told of the refusal', () => {
  const { c, kept, sent, seen } = client();
  kept.set('cardtable.name.r1', 'ana');
  kept.set('cardtable.token.r1', 'old');
  c.reconnecting = true;
  const msg = { type: 'PlayerJoinRejected', code: 'unknown_token', reason: '…' };
  assert.equal(c.read(msg), false);
  assert.deepEqual(sent, [{ type: 'GameDataRequest' }, { type: 'JoinGame', username: 'ana' }]);
  assert.equal(kept.get('cardtable.token.r1'), null);
  assert.deepEqual(seen, []);
});

test('lookups: a room, a room that moves (a node\'s or the proxy\'s JSON), one that is gone', async () => {
  const answers = [];
  globalThis.fetch = async () => answers.shift();
  const res = (status, body, json = true) => ({ ok: status === 200, status, json: async () => (json ? body : JSON.parse(body)) });
  answers.push(res(200, { id: 'r1', path: '/n/n2' }));
  assert.deepEqual(await lookupRoom('r1'), { summary: { id: 'r1', path: '/n/n2' } });
  answers.push(res(503, { error: 'moving', reason: '…' }));
  assert.deepEqual(await lookupRoom('r1'), { status: 503, error: 'moving', retry: true });
  answers.push(res(504, { error: 'moving', proxy: 504 }));
  assert.deepEqual(await lookupRoom('r1'), { status: 504, error: 'moving', retry: true });
  answers.push(res(503, '<html>503</html>', false));
  assert.deepEqual(await lookupRoom('r1'), { status: 503, error: null, retry: true });
  answers.push(res(404, { error: 'no room r1' }));
  assert.deepEqual(await lookupRoom('r1'), { status: 404, error: 'no room r1', retry: false });
  globalThis.fetch = async () => { throw new Error('refused'); };
  assert.deepEqual(await lookupRoom('r1'), { status: 0, error: null, retry: true });
});
