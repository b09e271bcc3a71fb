// Issue 27's last gaps, in the browser (the real binary, Debian's Chromium):
//
// 1. Sorcery at 390 px: no card name on the board breaks inside a word (every card's name is
//    tried in each board card's name box) nor sticks out of its card.
// 2. Three Kingdoms and Wolf Pack seats name a bot's level ("bot · Hard"), in the lobby and at
//    the table.
// 3. Wolf Pack: a watcher sees "X is offline …" once for one absence (not once a turn), and the
//    fight's statistics give the match the length the room's end screen gives it.
// Screenshots go to e2e/artifacts/gaps-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, createRoom, joinRoom, shot, DESKTOP, PHONE } from './helpers.js';

const env = serverAndBrowser();

// Every Sorcery card's name (crates/games/sorcery/src/cards.rs).
const SORCERY_NAMES = ['Air Elemental', 'Earth Elemental', 'Bone Golem', 'Fire Elemental', 'Potion Seller',
  'Novice Pyromancer', 'Apprentice Summoner', 'Master Summoner', 'Banish', 'Unsummon', 'Recharge', 'Disenchant',
  'Raise Dead', 'Blizzard', 'Giant Strength', 'Enrage', 'Haste', 'Magic Fatigue', 'Silence', 'Dark Ritual',
  'Aura of Power', 'Standstill'];

/** In the page: every word of `names` written into each `.so-board .so-name` box that breaks
 * over two lines or sticks out of its box, as "Word: why". */
function brokenWords(names) {
  const out = new Set();
  const check = (el) => {
    const box = el.getBoundingClientRect();
    const t = el.firstChild;
    for (let m, re = /\S+/g; (m = re.exec(t.data));) {
      const r = document.createRange();
      r.setStart(t, m.index);
      r.setEnd(t, m.index + m[0].length);
      const rects = [...r.getClientRects()].filter((x) => x.width > 0);
      if (new Set(rects.map((x) => Math.round(x.top))).size > 1) out.add(`${m[0]}: split over two lines`);
      if (rects.some((x) => x.right > box.right + 0.5 || x.left < box.left - 0.5)) out.add(`${m[0]}: sticks out of its card`);
    }
  };
  for (const el of document.querySelectorAll('.so-board .so-name')) {
    const keep = el.textContent;
    for (const n of names) { el.textContent = n; check(el); }
    el.textContent = keep;
  }
  return [...out];
}

test('Sorcery at 390 px: board card names wrap between words, never inside one', { timeout: 120_000 }, async () => {
  // A phone-sized page driven by mouse clicks (a click plays at once; taps are round_two's).
  const page = await newPage(env.browser, { viewport: { width: 390, height: 844 } });
  const room = await createRoom(env.server.base, { game: 'sorcery', seed: 7, botDelayMs: 100 });
  await joinRoom(page, env.server.base, room, 'ana');
  await page.locator('#bot-kind').selectOption('easy');
  await page.locator('[data-testid=add-bot]:enabled').click();
  await page.locator('[data-testid=start]:enabled').click();
  const names = page.locator('.so-board .so-minions .so-name');
  // Play cards (a target when asked) and end turns until minions are on the board.
  for (let i = 0; i < 80 && (await names.count()) < 2; i++) {
    await page.waitForTimeout(200);
    const target = page.locator('.sorcery .is-target:visible');
    if (await target.count()) { await target.first().click({ timeout: 1500 }).catch(() => {}); continue; }
    const card = page.locator('[data-testid=hand-card].can-play:visible');
    if (await card.count()) { await card.first().click({ timeout: 1500 }).catch(() => {}); continue; }
    const end = page.locator('[data-testid=end-turn]:visible:enabled');
    if (await end.count()) await end.click({ timeout: 1500 }).catch(() => {});
  }
  assert.ok((await names.count()) >= 1, 'a minion reached the board');
  await shot(page, 'gaps-sorcery-390');
  assert.deepEqual(await page.evaluate(brokenWords, SORCERY_NAMES), []);
  const px = await names.first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  assert.ok(px >= 7, `a minion's name is still readable: ${px} px`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Three Kingdoms and Wolf Pack seats name the bot\'s level', { timeout: 120_000 }, async () => {
  const tk = await newPage(env.browser, PHONE);
  const room = await createRoom(env.server.base, { game: 'three-kingdoms', seed: 4, botDelayMs: 100 });
  await joinRoom(tk, env.server.base, room, 'kay');
  for (const kind of ['hard', 'random', 'random']) {
    const before = await tk.locator('[data-testid=bot-level]').count();
    await tk.locator('[data-testid=bot-kind]').selectOption(kind);
    await tk.locator('[data-testid=add-bot]:enabled').click();
    await tk.waitForFunction((n) => document.querySelectorAll('[data-testid=bot-level]').length > n, before);
  }
  assert.deepEqual((await tk.locator('[data-testid=bot-level]').allTextContents()).sort(), ['bot · Hard', 'bot · Random', 'bot · Random'], 'lobby');
  await tk.locator('[data-testid=start]:enabled').click();
  await tk.locator('.tk-seat, [data-testid=seat]').first().waitFor().catch(() => {});
  await tk.waitForFunction(() => [...document.querySelectorAll('[data-testid=bot-level]')].some((e) => e.closest('.tk-lobby-players') === null));
  assert.deepEqual((await tk.locator('[data-testid=bot-level]').allTextContents()).sort(), ['bot · Hard', 'bot · Random', 'bot · Random'], 'at the table');
  await shot(tk, 'gaps-tk-bot-levels');
  assert.deepEqual(tk.errors, []);
  await tk.context().close();

  const wp = await newPage(env.browser, DESKTOP);
  const wroom = await createRoom(env.server.base, { game: 'wolfpack', seed: 5, botDelayMs: 100 });
  await joinRoom(wp, env.server.base, wroom, 'wes');
  await wp.locator('[data-testid=bot-kind]').selectOption('medium');
  await wp.locator('[data-testid=add-bot]:enabled').click();
  await wp.locator('[data-testid=bot-level]').filter({ hasText: 'bot · Medium' }).waitFor();
  await wp.locator('[data-testid=start]:enabled').click();
  await wp.locator('[data-testid=fighter] [data-testid=bot-level]').filter({ hasText: 'bot · Medium' }).waitFor();
  assert.equal(await wp.locator('[data-testid=fighter] [data-testid=bot-level]').count(), 1, 'one bot pilot, badged at the table');
  assert.deepEqual(wp.errors, []);
  await wp.context().close();
});

/** "3 min 05 s", "45 s", "0 min 45 s" → seconds. */
function seconds(text) {
  const m = text.match(/(?:(\d+) min )?(\d+) s/);
  assert.ok(m, `a duration in "${text}"`);
  return Number(m[1] ?? 0) * 60 + Number(m[2]);
}

test('Wolf Pack: one offline alert per absence, and the statistics give the end screen\'s duration', { timeout: 240_000 }, async () => {
  const room = await createRoom(env.server.base, {
    game: 'wolfpack', seed: 11, botDelayMs: 20, turnSeconds: 1, gameOptions: { ace: 'rookie', confirmDelayMs: 300 },
  });
  const ana = await newPage(env.browser, DESKTOP);
  await joinRoom(ana, env.server.base, room, 'ana');
  await ana.locator('[data-testid=bot-kind]').selectOption('heuristic');
  await ana.locator('[data-testid=add-bot]:enabled').click();
  await ana.locator('[data-testid=start]:enabled').click();
  await ana.locator('[data-testid=hand-card]').first().waitFor();
  // A visitor watches; the only person closes her page: a stand-in flies for her from then on.
  const visitor = await newPage(env.browser, PHONE);
  const alerts = [];
  visitor.on('websocket', (ws) => ws.on('framereceived', (f) => {
    try { const m = JSON.parse(f.payload); if (m.type === 'ShowAlert') alerts.push(m.text); } catch { /* not JSON */ }
  }));
  await joinRoom(visitor, env.server.base, room, 'vic');
  await visitor.locator('[data-testid=fighter]').first().waitFor();
  await ana.context().close();
  // The fight plays out between the bots (rookie Ace, two pilots).
  await visitor.locator('[data-testid=end-summary]').waitFor({ timeout: 200_000 });
  const offline = alerts.filter((t) => /is offline/.test(t));
  assert.equal(offline.length, 1, `one offline alert for ana's one absence: ${JSON.stringify(alerts)}`);
  assert.match(offline[0], /^ana is offline/);
  assert.ok(await visitor.locator('.alert', { hasText: 'is offline' }).count() <= 1, 'the page shows it once');
  // The statistics' duration settles on the server's figure, the end screen's.
  const facts = visitor.locator('[data-testid=end-screen] .end-facts');
  await facts.waitFor();
  const endSecs = seconds((await facts.innerText()).match(/in (.+?) ·/)[1]);
  await visitor.waitForFunction((want) => {
    const t = document.querySelector('[data-testid=end-summary]')?.textContent ?? '';
    const m = t.match(/(\d+) min (\d+) s/);
    return m && Number(m[1]) * 60 + Number(m[2]) === want;
  }, endSecs, { timeout: 5000 }).catch(() => {});
  const summary = await visitor.locator('[data-testid=end-summary]').innerText();
  assert.equal(seconds(summary.split(' · ').find((p) => / s$/.test(p)) ?? ''), endSecs, `"${summary}" against the end screen's ${endSecs} s`);
  await shot(visitor, 'gaps-wolfpack-visitor-end');
  assert.deepEqual(visitor.errors, []);
  await visitor.context().close();
});
