// A player's page when its server goes away (issue 25): it shows a short "reconnecting" note
// (not an error page), asks where the room lives now (`GET /api/rooms/{id}`: its `path`),
// reconnects there with its token and keeps its seat and the game.
//
// 1. One server on SQLite, killed with SIGKILL mid-game and started again on the same address
//    and database: both pages show the note while it is down, then the same seats, the same
//    table, and the game goes on.
// 2. A cluster (scripts/cluster.sh up 2: PostgreSQL, two nodes, HAProxy), when the server binary
//    has `--node-id` and PostgreSQL 15 is installed: the room's node drains (SIGTERM; the
//    sockets close with 4001 "moved") and the pages follow the room to the other node; then
//    that node is killed (-9) and the pages follow the room back to the first one, restarted,
//    once it has claimed it. Seats, table and game survive both.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  serverAndBrowser, startServer, newPage, createRoom, joinRoom, syncCount, waitSync, sleep,
  serverBinary, repo, DESKTOP, PHONE,
} from './helpers.js';

const env = serverAndBrowser();

const youLine = (page) => page.locator('[data-testid=you]');
const note = (page) => page.locator('[data-testid=reconnecting]');
const myTurnPanel = (page) => page.locator('[data-testid=actions][data-my-turn=true]');
const card = (page, name) => page.locator(`.table-root .pcard[data-player="${name}"]`);

/** What a page shows of the game: each seat's lives and the status line. */
async function tableOf(page) {
  return {
    ann: await card(page, 'ann').getAttribute('data-lives'),
    ben: await card(page, 'ben').getAttribute('data-lives'),
    status: await page.locator('[data-testid=status]').innerText(),
  };
}

/** The page whose turn it is shoots (the first target offered); resolves once its table moved on. */
async function oneShot(pages) {
  for (let i = 0; i < 200; i++) {
    for (const p of pages) {
      if (await myTurnPanel(p).count()) {
        const before = await syncCount(p);
        await p.locator('[data-testid=actions] [data-testid=shoot]:enabled').first().click();
        assert.ok(await waitSync(p, before, 10000), 'the shot is answered');
        return;
      }
    }
    await sleep(50);
  }
  assert.fail('nobody got a turn in 10 s');
}

/** Records on the page whether the reconnecting note was ever shown (it may only flash). */
function watchNote(page) {
  return page.evaluate(() => {
    window.__sawReconnecting = false;
    const el = document.querySelector('[data-testid=reconnecting]');
    new MutationObserver(() => { if (!el.hidden && /reconnecting/i.test(el.textContent)) window.__sawReconnecting = true; })
      .observe(el, { attributes: true, childList: true, subtree: true });
  });
}
const sawNote = (page) => page.evaluate(() => window.__sawReconnecting);

/** Two pages seated in a started Buckshot room (seeded, so the deal is the same each run). */
async function tableForTwo(base, browser) {
  const roomId = await createRoom(base, { seed: 3, botDelayMs: 50 });
  const ann = await newPage(browser, DESKTOP);
  const ben = await newPage(browser, PHONE);
  for (const p of [ann, ben]) {
    p.sockets = [];
    p.on('websocket', (ws) => p.sockets.push(new URL(ws.url()).pathname));
  }
  await joinRoom(ann, base, roomId, 'ann');
  await joinRoom(ben, base, roomId, 'ben');
  await ann.locator('[data-testid=start]').click();
  for (const p of [ann, ben]) await p.locator('[data-testid=actions]').waitFor();
  await oneShot([ann, ben]);
  return { roomId, ann, ben };
}

/** Both pages are back: note gone, connected, same names in their seats, same table. */
async function backInSeats(pages, table) {
  for (const [name, p] of Object.entries(pages)) {
    await note(p).waitFor({ state: 'hidden', timeout: 30000 });
    await p.locator('#conn-status[data-state=open]').waitFor({ timeout: 5000 });
    await youLine(p).filter({ hasText: name }).waitFor();
    await p.locator('[data-testid=actions]').waitFor();
    await card(p, 'ben').locator('.badge-off').waitFor({ state: 'detached', timeout: 10000 });
    assert.deepEqual(await tableOf(p), table, `${name}: the same table after reconnecting`);
    assert.equal(await p.locator('.missing').count(), 0, `${name}: no error page`);
  }
}

test('a server killed mid-game and started again: "reconnecting", then the same seat and game', async () => {
  const { ann, ben } = await tableForTwo(env.server.base, env.browser);
  const table = await tableOf(ann);

  const addr = new URL(env.server.base).host;
  await env.server.kill();
  for (const p of [ann, ben]) {
    await note(p).waitFor({ state: 'visible', timeout: 5000 });
    assert.match(await note(p).innerText(), /reconnecting/i);
    // The table stays on screen under the note: no error page, no blank page.
    assert.ok(await card(p, 'ann').isVisible(), 'the table stays on screen');
    assert.equal(await p.locator('.missing').count(), 0);
  }
  await sleep(2500); // a few attempts against nothing
  assert.ok(await note(ann).isVisible(), 'still reconnecting while the server is down');
  env.server = await startServer({ addr, dir: env.server.dir });
  await backInSeats({ ann, ben }, table);
  await oneShot([ann, ben]);
  for (const p of [ann, ben]) {
    assert.deepEqual(p.errors.filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/.test(e)), []);
    assert.deepEqual(p.failures, []);
    await p.context().close();
  }
});

// ---- a move in flight, a lobby member without a seat -----------------------------------

/**
 * Puts `page`'s room socket behind a relay the test steers (`relay.mode`): `pass` forwards
 * everything; `drop-act` swallows the next action the page sends (the room never gets it)
 * and closes the page's socket with 4001 "moved"; `lose-answer` forwards the next action,
 * holds back what the room says until its table has moved past the action's serial, then
 * closes with 4001 (the room stored the move, the page never heard). `close` closes the
 * page's socket at once. The relay keeps every packet the page sent and every refusal.
 */
async function relayed(page) {
  const relay = { mode: 'pass', sent: [], failures: [], rejected: [], closes: 0, act: null };
  await page.routeWebSocket(/\/api\/rooms\/[^/]+\/ws$/, (ws) => {
    const server = ws.connectToServer();
    let held = null;
    const cut = () => {
      relay.closes += 1;
      relay.mode = 'pass';
      ws.close({ code: 4001, reason: 'moved' });
      server.close();
    };
    relay.close = cut;
    ws.onMessage((m) => {
      const p = JSON.parse(m);
      relay.sent.push(p);
      if (p.serial != null && relay.mode === 'drop-act') {
        relay.act = p;
        return cut();
      }
      if (p.serial != null && relay.mode === 'lose-answer') {
        relay.act = p;
        held = [];
      }
      server.send(m);
    });
    server.onMessage((m) => {
      const p = JSON.parse(m);
      if (p.type === 'ActionFailed') relay.failures.push(`${p.code}: ${p.reason}`);
      if (p.type === 'PlayerJoinRejected') relay.rejected.push(p.code);
      if (held) {
        held.push(m);
        if (p.type === 'GameDataSync' && p.gameData.serial > relay.act.serial) { held = null; cut(); }
        return;
      }
      ws.send(m);
    });
  });
  return relay;
}

/** The serial of the table `page` shows; waits until it is past `serial`. */
const tableSerial = (page) => page.evaluate(() => Number(document.body.dataset.serial));
const waitMoved = (page, serial, timeout = 10000) =>
  page.waitForFunction((s) => Number(document.body.dataset.serial) > s, serial, { timeout });

/** Until it is `page`'s turn, the other page shoots. */
async function untilTurn(page, other) {
  for (let i = 0; i < 40 && !(await myTurnPanel(page).count()); i++) {
    if (await myTurnPanel(other).count()) await oneShot([other]);
    else await sleep(50);
  }
  await myTurnPanel(page).waitFor({ timeout: 5000 });
}

test('a lobby member whose token is gone joins again by name; a move in flight at a close is sent again, once', async () => {
  const base = env.server.base;
  const roomId = await createRoom(base, { seed: 5, botDelayMs: 50 });
  const ann = await newPage(env.browser, DESKTOP);
  const ben = await newPage(env.browser, PHONE);
  const relay = await relayed(ann);
  await joinRoom(ann, base, roomId, 'ann');
  await joinRoom(ben, base, roomId, 'ben');

  // In the lobby a member whose socket drops leaves the room, as after a failover: the page's
  // token is unknown when it comes back (`unknown_token`), and it joins again by name.
  await watchNote(ann);
  relay.close();
  await youLine(ann).filter({ hasText: 'ann' }).waitFor({ timeout: 15000 });
  await note(ann).waitFor({ state: 'hidden', timeout: 15000 });
  assert.deepEqual(relay.rejected, ['unknown_token'], 'the token was gone after the drop');
  assert.equal(relay.sent.filter((p) => p.type === 'JoinGame' && p.username === 'ann').length, 2, 'ann joined again by name');
  assert.ok(await sawNote(ann), 'the page showed the reconnecting note');
  for (const p of [ann, ben]) await p.locator('.pcard[data-player="ann"]').waitFor();

  // ben is the host now (ann left); he starts, and ann's turn comes.
  await ben.locator('[data-testid=start]:enabled').click();
  for (const p of [ann, ben]) await p.locator('[data-testid=actions]').waitFor();
  await untilTurn(ann, ben);

  // 1. The move never reached the room: sent again after the reconnect, with its serial, and
  // applied there.
  relay.mode = 'drop-act';
  const before = await syncCount(ann);
  await ann.locator('[data-testid=actions] [data-testid=shoot]:enabled').first().click();
  await youLine(ann).filter({ hasText: 'ann' }).waitFor();
  assert.ok(await waitSync(ann, before, 15000), 'a table after the reconnect');
  const first = relay.act;
  assert.ok(first && first.serial != null, 'the move carried its serial');
  const resent = relay.sent.filter((p) => p.type === first.type && p.serial === first.serial);
  assert.equal(resent.length, 2, 'the move went again, with the serial it was chosen at');
  assert.deepEqual(resent[1], first, 'the same packet');
  assert.deepEqual(relay.failures, [], 'the room applied it');
  await waitMoved(ann, first.serial);

  // 2. The room stored the move but the page never heard: sent again, refused stale_action,
  // swallowed; the page shows the table after the move, and the move is in it once.
  await untilTurn(ann, ben);
  relay.mode = 'lose-answer';
  const was = await tableSerial(ann);
  await ann.locator('[data-testid=actions] [data-testid=shoot]:enabled').first().click();
  await waitMoved(ann, was, 15000);
  const second = relay.act;
  assert.equal(second.serial, was);
  assert.equal(relay.closes, 3, 'the socket was closed three times');
  assert.equal(relay.sent.filter((p) => p.type === second.type && p.serial === second.serial).length, 2, 'the move went again');
  for (let i = 0; i < 40 && relay.failures.length === 0; i++) await sleep(50);
  assert.equal(relay.failures.length, 1, `one refusal: ${relay.failures}`);
  // Stale: the move closed the decision it answered (or, in a window, the seat has acted).
  const n = second.serial;
  assert.match(relay.failures[0], new RegExp(`^stale_action: (the decision of serial ${n} is over|you have already acted since serial ${n}) `));
  assert.equal(await ann.locator('.alert-error').count(), 0, 'the refusal of the resend is not shown');
  assert.equal(await tableSerial(ann), second.serial + 1, 'the move is in the table once');

  // Play goes on.
  await oneShot([ann, ben]);
  for (const p of [ann, ben]) {
    assert.deepEqual(p.errors.filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/.test(e)), []);
    await p.context().close();
  }
  assert.deepEqual(ben.failures, []);
});

// ---- through a cluster ------------------------------------------------------------------

const clusterScript = path.join(repo, 'scripts', 'cluster.sh');
function clusterReady() {
  if (!existsSync('/usr/lib/postgresql/15/bin/initdb')) return 'PostgreSQL 15 is not installed (scripts/pg.sh installs it)';
  const help = spawnSync(serverBinary(), ['serve', '--help'], { encoding: 'utf8' });
  if (!/--node-id/.test(help.stdout ?? '')) return 'this server binary has no --node-id';
  if (spawnSync('haproxy', ['-v']).status !== 0 && !existsSync('/usr/sbin/haproxy')) return 'haproxy is not installed';
  return null;
}
const skipCluster = clusterReady();
const clusterTmp = mkdtempSync(path.join(tmpdir(), 'cardtable-e2e-cluster-'));
const clusterEnv = { ...process.env, CARDTABLE_BIN: serverBinary(), CARDTABLE_CLUSTER_DIR: path.join(clusterTmp, 'c') };
// scripts/cluster.sh, without blocking the test's event loop (the pages' events keep coming).
const cluster = async (...args) => {
  const { stdout, stderr } = await promisify(execFile)(clusterScript, args, { env: clusterEnv, encoding: 'utf8', timeout: 120000 });
  if (stderr.trim()) console.log(stderr.trim().replace(/^/gm, '# '));
  return stdout.trim();
};
let clusterUp = false;
after(async () => {
  if (clusterUp) await cluster('down');
  rmSync(clusterTmp, { recursive: true, force: true });
});

async function where(base, roomId) {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${base}/api/rooms/${roomId}`);
    if (res.ok) return (await res.json()).path;
    await sleep(100);
  }
  throw new Error(`room ${roomId} has no server after 10 s`);
}

test('through HAProxy and two nodes: a drain and a kill -9, the pages follow the room', { skip: skipCluster ?? false }, async () => {
  // Every page is 127.0.0.1 (through the proxy, which the nodes trust): no per-address caps.
  const base = (await cluster('up', '2', '--', '--allow-seeded-rooms', '--max-conns-per-addr', '0', '--max-sockets-per-addr', '0',
    '--max-rooms-per-addr', '0', '--max-rooms-per-minute-per-addr', '0', '--max-lookup-misses-per-minute-per-addr', '0')).replace(/\/$/, '');
  clusterUp = true;
  const { roomId, ann, ben } = await tableForTwo(base, env.browser);
  const first = await where(base, roomId);
  assert.match(first, /^\/n\/n[12]$/);
  for (const p of [ann, ben]) assert.equal(p.sockets.at(-1), `${first}/api/rooms/${roomId}/ws`, 'the page connected to the room\'s node');
  const k = first.endsWith('1') ? 1 : 2;
  const other = 3 - k;

  // Drain the room's node: its sockets close with 4001 "moved"; the pages find the room on
  // the other node and reconnect there.
  for (const p of [ann, ben]) await watchNote(p);
  let table = await tableOf(ann);
  const t0 = Date.now();
  await cluster('term', String(k));
  const exited = Date.now() - t0;
  await backInSeats({ ann, ben }, table);
  console.log(`# drain of n${k}: the node exited ${exited} ms after SIGTERM, the pages were back ${Date.now() - t0} ms after SIGTERM`);
  assert.equal(await where(base, roomId), `/n/n${other}`);
  for (const p of [ann, ben]) {
    assert.equal(p.sockets.at(-1), `/n/n${other}/api/rooms/${roomId}/ws`);
    assert.ok(await sawNote(p), 'the page showed the reconnecting note');
  }
  await oneShot([ann, ben]);

  // Bring n<k> back, then kill the room's new node outright: after the TTL n<k> claims the
  // room, and the pages follow.
  await cluster('start', String(k));
  await sleep(3500); // n<k> claims only once connected for a TTL (3 s by default)
  table = await tableOf(ann);
  const t1 = Date.now();
  await cluster('kill', String(other));
  for (const p of [ann, ben]) await note(p).waitFor({ state: 'visible', timeout: 5000 });
  await backInSeats({ ann, ben }, table);
  console.log(`# kill -9 of n${other}: the pages were back in ${Date.now() - t1} ms`);
  assert.equal(await where(base, roomId), `/n/n${k}`);
  for (const p of [ann, ben]) assert.equal(p.sockets.at(-1), `/n/n${k}/api/rooms/${roomId}/ws`);
  await oneShot([ann, ben]);
  for (const p of [ann, ben]) {
    assert.deepEqual(p.errors.filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/.test(e)), []);
    assert.deepEqual(p.failures, []);
    await p.context().close();
  }
});
