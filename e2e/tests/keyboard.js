// Issue 47: every game played with the keyboard alone, and axe-core on every page a player
// meets. One test per game: a person joins a room by its link, adds bots and starts the game,
// then plays a whole game against the bots using only Tab, Shift+Tab and Enter (no click, no
// script that acts), to the end screen, and on to the replay viewer. axe-core (critical and
// serious violations) checks the room before the start, in play, at the end, and the replay.
// A last test checks the lobby and the rules pages the same way, and that the event log and
// the chat are reached and scrolled with the keyboard.
//
// Small tables and fast options (quick bots, short clocks) keep each game to a minute or two.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, createRoom, syncCount, waitSync, rng, shot, DESKTOP } from './helpers.js';
import { axeProblems, tabTo, press } from './a11y.js';

// Each test file that registers these tests starts its own server and browser.
let env;
// axe-core goes into the page as an inline script: the server's Content-Security-Policy
// (script-src 'self') would refuse it, so these pages bypass it.
const AXE_DESKTOP = { ...DESKTOP, viewport: { width: 1280, height: 800 }, bypassCSP: true };

/**
 * The controls of the table the person may use now, as the keyboard reaches them: enabled,
 * shown, inside the game's table, not a hand card that cannot be played (it only shows its
 * text). `avoid` (a regex source) skips controls by name that only
 * fold, close or cancel (they never move the game on).
 */
function actionable({ avoid }) {
  const re = new RegExp(avoid, 'i');
  const root = document.querySelector('.table-root');
  if (!root) return [];
  return [...root.querySelectorAll('button, [tabindex="0"]')].filter((el) => !el.disabled
    && el.getAttribute('aria-disabled') !== 'true' && el.dataset.playable !== 'false' && el.getClientRects().length
    && !re.test(`${el.dataset.testid ?? ''} ${el.dataset.key ?? ''} ${el.getAttribute('aria-label') ?? ''} ${el.textContent.trim()}`));
}

/** The n-th actionable control (as `actionable` lists them); run in the page by `tabTo`. */
function nth({ avoid, i, sig }) {
  const re = new RegExp(avoid, 'i');
  const root = document.querySelector('.table-root');
  const all = root ? [...root.querySelectorAll('button, [tabindex="0"]')].filter((el) => !el.disabled
    && el.getAttribute('aria-disabled') !== 'true' && el.dataset.playable !== 'false' && el.getClientRects().length
    && !re.test(`${el.dataset.testid ?? ''} ${el.dataset.key ?? ''} ${el.getAttribute('aria-label') ?? ''} ${el.textContent.trim()}`)) : [];
  const el = all[i];
  // The table may have been drawn again: the same control, or none.
  const s = el && `${el.tagName}|${el.dataset.key ?? ''}|${el.getAttribute('aria-label') ?? ''}|${el.textContent.trim()}`;
  return s === sig ? el : null;
}

const ended = (page) => page.evaluate(() => !!document.querySelector('[data-testid=end]:not([hidden]) [data-testid=end-screen]'));

/** Joins the room at its link with the keyboard: Tab to the name field, type, Enter. */
async function keyboardJoin(page, room, name) {
  await page.goto(`${env.server.base}/r/${room}`);
  await page.locator('.join-form button[type=submit]:enabled').waitFor();
  assert.ok(await tabTo(page, () => document.getElementById('join-username')), 'Tab reaches the name field');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=you]').filter({ hasText: name }).waitFor();
}

/** Adds `n` bots of the default level with the keyboard, then starts the game. */
async function keyboardStart(page, n, level) {
  if (level) {
    // A select follows the arrow keys: walk to the level wanted.
    assert.ok(await tabTo(page, () => document.getElementById('bot-kind')), 'Tab reaches the bot list');
    for (let i = 0; i < 12 && (await page.locator('#bot-kind').inputValue()) !== level; i++) await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator('#bot-kind').inputValue(), level);
  }
  for (let i = 0; i < n; i++) {
    const before = await page.locator('[data-testid=standing], .pcard, [data-player]').count();
    assert.ok(await press(page, () => document.querySelector('[data-testid=add-bot]')), 'Tab reaches Add bot');
    await page.waitForFunction((b) => document.querySelectorAll('[data-testid=standing], .pcard, [data-player]').length > b, before, { timeout: 5000 }).catch(() => {});
  }
  await page.locator('[data-testid=start]:enabled').waitFor();
}

/**
 * Plays for the person until the end screen: each step picks one of the controls the table
 * offers (a seeded choice), tabs to it and presses Enter. Returns the number of presses.
 * `onStep(k)` runs after the k-th press (the in-play checks).
 */
async function playByKeyboard(page, { seed, avoid, limitMs = 240000, onStep = async () => {} }) {
  const r = rng(seed);
  const started = Date.now();
  let presses = 0;
  while (Date.now() - started < limitMs) {
    if (await ended(page)) return presses;
    if (page.errors.length) throw new Error(`page errors: ${page.errors.join('; ')}`);
    const before = await syncCount(page);
    const sigs = await page.evaluate((a) => {
      // eslint-disable-next-line no-new-func
      const list = new Function('a', `return (${a.src})(a)`)(a);
      return list.map((el) => `${el.tagName}|${el.dataset.key ?? ''}|${el.getAttribute('aria-label') ?? ''}|${el.textContent.trim()}`);
    }, { src: actionable.toString(), avoid });
    if (!sigs.length) { await waitSync(page, before, 1500); continue; }
    const i = Math.floor(r() * sigs.length);
    if (!(await tabTo(page, nth, { avoid, i, sig: sigs[i] }))) continue; // the table moved on
    await page.keyboard.press('Enter');
    presses += 1;
    await waitSync(page, before, 1000);
    await onStep(presses);
  }
  throw new Error(`no end screen after ${limitMs / 1000} s (${presses} presses)`);
}

// Controls that never move a game on: folding a hand, closing or cancelling a choice.
const AVOID = '^(hand-fold|inspect-close|cancel|pick-cancel)\\b|\\b(Cancel|Fold|Unfold|Hide|Close)\\b';

const GAMES = [
  { game: 'buckshot', bots: 1, opts: { seed: 4, botDelayMs: 30 } },
  { game: 'sorcery', bots: 1, opts: { seed: 7, botDelayMs: 30 } },
  { game: 'ivanhoe', bots: 1, opts: { seed: 99, botDelayMs: 30 } },
  { game: 'wolfpack', bots: 1, level: 'heuristic', opts: { seed: 7, botDelayMs: 20, gameOptions: { ace: 'rookie', confirmDelayMs: 300 } } },
  { game: 'three-kingdoms', bots: 3, opts: { seed: 6, botDelayMs: 40, gameOptions: { responseSeconds: 2, chooseSeconds: 20 } } },
];

/** Registers the keyboard test of each game named (e2e/run.sh gives each file 5 minutes). */
export function keyboardGames(...names) {
  env = serverAndBrowser();
  for (const g of GAMES.filter((x) => names.includes(x.game))) gameTest(g);
}

function gameTest(g) {
  test(`${g.game}: a whole game with the keyboard alone; axe in the room, at the end and in the replay`, async () => {
    const t0 = Date.now();
    const room = await createRoom(env.server.base, { game: g.game, ...g.opts });
    const page = await newPage(env.browser, AXE_DESKTOP);
    const problems = [];
    const check = async (where) => { for (const p of await axeProblems(page, `${g.game} ${where}`)) problems.push(`${where}: ${p}`); };

    await keyboardJoin(page, room, 'kim');
    await keyboardStart(page, g.bots, g.level);
    await check('room before start');
    assert.ok(await press(page, () => document.querySelector('[data-testid=start]')), 'Tab reaches Start game');

    let checked = false;
    const presses = await playByKeyboard(page, {
      seed: 47, avoid: AVOID,
      onStep: async (k) => {
        if (checked || k < 4) return;
        checked = true;
        await check('in play');
        await shot(page, `keyboard-${g.game}-mid`);
      },
    });
    if (!checked) await check('in play (never reached: the game ended first)');
    await page.locator('[data-testid=end-screen] [data-testid=winner], [data-testid=end] [data-testid=winner]').first().waitFor();
    await check('end screen');
    await shot(page, `keyboard-${g.game}-end`);

    // The replay, from the end screen's link, stepped through with the arrow keys.
    assert.ok(await tabTo(page, () => document.querySelector('[data-testid=replay-link]')), 'Tab reaches the replay link');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=replay]').waitFor();
    await page.waitForFunction(() => document.body.dataset.replayStep != null);
    const last = Number(await page.evaluate(() => document.body.dataset.replayStep));
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((l) => Number(document.body.dataset.replayStep) === l - 1, last);
    await check('replay viewer');

    console.log(`${g.game}: ${presses} key presses on the table, ${Math.round((Date.now() - t0) / 1000)} s`);
    assert.deepEqual(page.errors, []);
    assert.deepEqual(page.failures.filter((f) => !f.startsWith('stale_action')), []);
    assert.deepEqual(problems, [], 'axe-core: critical or serious violations');
  });
}

/** Registers the lobby, rules pages and logs test. */
export function lobbyTest() {
  env ??= serverAndBrowser();
  test('the lobby and the rules pages pass axe; the log and the chat are reached and scrolled by keyboard', async () => {
    const page = await newPage(env.browser, AXE_DESKTOP);
    const problems = [];
    const check = async (where) => { for (const p of await axeProblems(page, where)) problems.push(`${where}: ${p}`); };
    await page.goto(`${env.server.base}/`);
    await page.locator('#lobby-username').waitFor();
    await check('lobby');
    // A label names its field: clicking "Your name" focuses the field.
    await page.locator('label', { hasText: 'Your name' }).click();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'lobby-username', 'the label is tied to its field');
    for (const rules of ['', '/buckshot', '/sorcery', '/ivanhoe', '/wolfpack', '/three-kingdoms']) {
      await page.goto(`${env.server.base}/rules${rules}`);
      await check(`rules${rules || ' index'}`);
    }

    // A room: its chat and event log.
    const room = await createRoom(env.server.base, { game: 'buckshot', seed: 4, botDelayMs: 20 });
    await keyboardJoin(page, room, 'lee');
    // The chat: typed and sent with the keyboard, many lines so that it scrolls.
    assert.ok(await tabTo(page, () => document.getElementById('chat-input')), 'Tab reaches the chat field');
    for (let i = 0; i < 14; i++) {
      await page.keyboard.type(`line ${i}`);
      await page.keyboard.press('Enter');
      await page.locator('.chat-list li').filter({ hasText: `line ${i}` }).waitFor();
    }
    for (const [name, sel] of [['chat', '[data-testid=chat-log]'], ['log', '[data-testid=event-log]']]) {
      const box = page.locator(sel);
      assert.equal(await box.getAttribute('role'), 'log', `the ${name} is a log (a polite live region)`);
      assert.ok(await box.getAttribute('aria-label'), `the ${name} has a name`);
    }
    // The chat is reached with Tab and scrolls with the keyboard (Home: to its first line).
    assert.ok(await tabTo(page, () => document.querySelector('[data-testid=chat-log]')), 'Tab reaches the chat');
    const top0 = await page.locator('[data-testid=chat-log]').evaluate((el) => el.scrollTop);
    assert.ok(top0 > 0, 'the chat has scrolled to its newest line');
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.querySelector('[data-testid=chat-log]').scrollTop === 0, null, { timeout: 3000 });
    // The event log too; it says what happened (the narration a screen reader hears).
    assert.ok(await tabTo(page, () => document.querySelector('[data-testid=event-log]')), 'Tab reaches the event log');
    assert.match(await page.locator('[data-testid=event-log]').innerText(), /lee joined/);
    await check('room with chat');
    assert.deepEqual(page.errors, []);
    assert.deepEqual(problems, [], 'axe-core: critical or serious violations');
  });
}
