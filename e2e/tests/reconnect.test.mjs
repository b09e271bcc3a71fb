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
  await backInSeats({ ann, ben }, table);
  console.log(`# drain of n${k}: the pages were back in ${Date.now() - t0} ms`);
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
