// Shared pieces of the browser tests: the real server binary, Debian's Chromium, small waits.
//
// The server is started as `cardtable serve --addr 127.0.0.1:0 --db <tmp>`; its first stdout
// line names the port. The binary is $CARDTABLE_BIN, else target/release/cardtable under
// $CARGO_TARGET_DIR or the workspace (e2e/run.sh builds it first).

import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '..', '..');
export const artifacts = path.resolve(here, '..', 'artifacts');

export function serverBinary() {
  if (process.env.CARDTABLE_BIN) return process.env.CARDTABLE_BIN;
  const target = process.env.CARGO_TARGET_DIR ? path.resolve(repo, process.env.CARGO_TARGET_DIR) : path.join(repo, 'target');
  return path.join(target, 'release', 'cardtable');
}

/**
 * Starts the server; resolves to `{base, dir, stop({keep}), output()}`. By default on a free
 * port with a new database; `{addr, dir}` restart it on a given address and database; `extra`
 * adds arguments to `serve` (`['--allow-setup-rooms']`).
 */
export async function startServer({ addr = '127.0.0.1:0', dir = null, extra = [] } = {}) {
  const bin = serverBinary();
  if (!existsSync(bin)) throw new Error(`no server binary at ${bin}: run e2e/run.sh or set CARDTABLE_BIN`);
  dir ??= mkdtempSync(path.join(tmpdir(), 'cardtable-e2e-'));
  // Tests replay known deals (seeded rooms), and every browser of a test is 127.0.0.1: no
  // per-address caps (the server's own tests cover those).
  const args = ['serve', '--addr', addr, '--db', path.join(dir, 'e2e.db'), '--allow-seeded-rooms'];
  for (const cap of ['--max-conns-per-addr', '--max-sockets-per-addr', '--max-rooms-per-addr', '--max-rooms-per-minute-per-addr', '--max-lookup-misses-per-minute-per-addr']) args.push(cap, '0');
  args.push(...extra);
  const child = spawn(bin, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'warn' },
  });
  let out = '';
  child.stderr.on('data', (d) => { out += d; });
  const base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server printed no address in 15 s:\n${out}`)), 15000);
    let buf = '';
    child.stdout.on('data', (d) => {
      out += d;
      buf += d;
      const m = buf.match(/cardtable serving on (http:\/\/127\.0\.0\.1:\d+)\//);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`the server exited (${code}):\n${out}`)); });
  });
  return {
    base,
    dir,
    output: () => out,
    /** Kills the server at once (SIGKILL: no drain, no goodbye to the pages); its database stays. */
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    /** Stops the server; `keep` keeps its database (to start it again). */
    async stop({ keep = false } = {}) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(t);
      }
      if (!keep) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

export const DESKTOP = { viewport: { width: 1280, height: 860 } };
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/**
 * For development only: with `CARDTABLE_WEB_DIR` set (a `web/` directory), the pages load the
 * web client from that directory instead of the copy compiled into the server binary, so a
 * change to `web/` can be tried without rebuilding the server (or an older `web/` tried
 * against the same binary). e2e/run.sh never sets it: CI tests the compiled copy.
 */
async function serveWebDir(context, dir) {
  const types = { '.js': 'text/javascript', '.css': 'text/css' };
  // Scripts and style sheets only: a document served by the route would not count as the
  // server's own (Chromium then refuses its WebSocket to 127.0.0.1), so index.html is the
  // binary's.
  await context.route(/^http:\/\/127\.0\.0\.1:\d+\/(?:[a-z-]+|games\/[a-z-]+)\.(?:js|css)$/, (route) => {
    const file = new URL(route.request().url()).pathname.slice(1);
    const full = path.join(dir, file);
    if (!existsSync(full)) return route.continue();
    return route.fulfill({ status: 200, contentType: types[path.extname(file)], body: readFileSync(full) });
  });
}

// The account API answers 4xx in its ordinary flows (a wrong password 401, a taken name 409,
// an unknown profile 404, GET /api/me 401 once signed out), and Chromium logs each such
// answer as a console error. The page shows those answers; the tests check what it shows.
const ACCOUNT_API = /^\/api\/(me(\/|$)|auth\/|users\/)/;
function accountApiAnswer(m) {
  if (!m.text().startsWith('Failed to load resource')) return false;
  try { return ACCOUNT_API.test(new URL(m.location().url).pathname); } catch { return false; }
}

/**
 * A new browser context and page that fails the test on page errors.
 *
 * `identity`: whether the page gets one (issue 42: a guest on its first visit, the rooms take
 * its name). By default it does not: the identity API answers 503 to this context, so the
 * page falls back to asking for a name in the lobby and in each room, as for a client
 * without a session. The game tests rely on that: they name their players (`alice`, `bob`)
 * and reuse names across the tests of one server, which accounts (unique names) would not
 * allow. e2e/tests/accounts.test.mjs tests the identity itself.
 */
export async function newPage(browser, opts = DESKTOP, { identity = false } = {}) {
  const context = await browser.newContext(opts);
  if (process.env.CARDTABLE_WEB_DIR) await serveWebDir(context, process.env.CARDTABLE_WEB_DIR);
  if (!identity) {
    await context.route((url) => url.pathname === '/api/me' || url.pathname === '/api/auth/guest', (route) => route.fulfill({
      status: 503, contentType: 'application/json', body: '{"error":"e2e_no_identity","reason":"this test plays without an identity"}',
    }));
  }
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error' && !accountApiAnswer(m)) page.errors.push(`console: ${m.text()}`); });
  page.on('dialog', (d) => d.accept());
  // Every ActionFailed the server sends this page: a client that only offers legal moves
  // should get none.
  page.failures = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => {
    try {
      const m = JSON.parse(f.payload);
      if (m.type === 'ActionFailed') page.failures.push(`${m.code}: ${m.reason}`);
    } catch { /* not JSON */ }
  }));
  return page;
}

/**
 * Records, in the page, every action it sends with a `serial` (`window.__acts`: the serial
 * sent, the serial of the newest table the page had received when it sent it, and whether
 * packets of a later move, such as its events, had already arrived). Call before the page
 * opens a room. Read with `sentActs(page)`; `races(page, acts)` sorts `page.failures` with it.
 */
export async function watchActs(page) {
  await page.addInitScript(() => {
    window.__acts = [];
    let table = null;
    let moving = false;
    const Base = window.WebSocket;
    window.WebSocket = class extends Base {
      constructor(...args) {
        super(...args);
        // Added before the page's own listener, so it has run when the page's has.
        this.addEventListener('message', (e) => {
          let m;
          try { m = JSON.parse(e.data); } catch { return; }
          if (m.type === 'GameDataSync') { table = m.gameData?.serial ?? null; moving = false; } else if (m.type === 'GameEvent') moving = true;
        });
      }
      send(data) {
        try {
          const p = JSON.parse(data);
          if (p.serial != null) window.__acts.push({ serial: p.serial, table, moving, type: p.type });
        } catch { /* not JSON */ }
        return super.send(data);
      }
    };
  });
}

export function sentActs(page) {
  return page.evaluate(() => window.__acts ?? []);
}

/**
 * Splits `page.failures` into the one race a page cannot avoid and everything else. The race:
 * an action sent with the serial of the newest table the page had, refused `stale_action`
 * because the decision of that serial closed while the action was on its way (other seats
 * moved: the refusal names a later table). A refusal for any other reason, `stale_action` for
 * a table the page knew to be old, or for a seat that had already acted, is not the race.
 */
export function races(page, acts) {
  const race = [];
  const other = [];
  for (const f of page.failures) {
    const m = f.match(/^stale_action: the decision of serial (\d+) is over \(the table is at (\d+)\)/);
    const fresh = m && acts.some((a) => a.serial === Number(m[1]) && a.table === a.serial);
    if (m && Number(m[2]) > Number(m[1]) && fresh) race.push(f);
    else other.push(f);
  }
  return { race, other };
}

export async function createRoom(base, body = {}) {
  const res = await fetch(`${base}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: 'buckshot', ...body }) });
  if (res.status !== 201) throw new Error(`POST /api/rooms: ${res.status} ${await res.text()}`);
  return (await res.json()).id;
}

export async function listRooms(base) {
  return (await fetch(`${base}/api/rooms`)).json();
}

/** Opens a room link and joins under `name` (with the keyboard: type, Enter). */
export async function joinRoom(page, base, roomId, name) {
  await page.goto(`${base}/r/${roomId}`);
  const input = page.locator('#join-username');
  await input.waitFor();
  await page.locator('.join-form button[type=submit]:enabled').waitFor();
  await input.fill(name);
  await input.press('Enter');
  await page.locator('[data-testid=you]').filter({ hasText: name }).waitFor();
}

/** Presses "Leave room": in the room's menu, opened first where it is folded (a phone). */
export async function leaveRoom(page) {
  const toggle = page.locator('[data-testid=menu-toggle]');
  if (await toggle.isVisible() && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await page.getByRole('button', { name: 'Leave room' }).click();
}

export async function shot(page, name) {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

export async function syncCount(page) {
  return Number(await page.evaluate(() => document.body.dataset.sync ?? 0));
}

/** Waits until the page has had a table update after `before` (or `ms` pass). */
export async function waitSync(page, before, ms = 5000) {
  try {
    await page.waitForFunction((b) => Number(document.body.dataset.sync ?? 0) > b, before, { timeout: ms });
    return true;
  } catch {
    return false;
  }
}

/** A small seeded generator (mulberry32), so a test run is repeatable. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick(r, list) { return list[Math.floor(r() * list.length)]; }

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The page's horizontal overflow in CSS pixels (0 when the page fits its width). */
export function overflowX(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/**
 * Starts the server and the browser before a test file's tests and stops them after. The
 * returned object's `server` and `browser` are set once `before` has run (a test may replace
 * `server`, say to restart it; the one there at the end is stopped).
 */
export function serverAndBrowser(serverOptions = {}) {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer(serverOptions);
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}
