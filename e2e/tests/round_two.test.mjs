// What a player meets, round two (issue 27):
// 1. on a touch screen a tap on a hand card reads it (its text, a bar with Play) and does not
//    play it; a second tap on the same card, or Play, plays it (Ivanhoe and Sorcery on a
//    390x844 phone with touch, `page.tap`); a mouse click still plays at once;
// 2. the lobby links every game's rules page, and each page opens with "How to play";
// 3. the bot list names and explains each level and game bot, and a bot's seat shows its level
//    (in the lobby and during the game); a two-seat game counts "1 of 2 players".
// Screenshots go to e2e/artifacts/round-two-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, createRoom, joinRoom, shot, syncCount, DESKTOP, PHONE } from './helpers.js';

const env = serverAndBrowser();

/** Waits until the page offers a playable hand card; returns its locator (by its key). */
async function playableCard(page, timeout = 30_000) {
  const card = page.locator('[data-testid=hand-card][data-playable=true]').first();
  await card.waitFor({ timeout });
  const key = await card.getAttribute('data-key');
  return { key, loc: page.locator(`[data-testid=hand-card][data-key="${key}"]`) };
}

/** How many cards the hand shows, and whether a choice box or a target prompt is open. */
async function handState(page) {
  return {
    cards: await page.locator('[data-testid=hand-card]').count(),
    asked: (await page.locator('[data-testid=overlay], [data-testid=prompt]').count()) > 0,
  };
}

test('a tap reads a card, a second tap (or Play) plays it: Ivanhoe on a touch phone', { timeout: 120_000 }, async () => {
  const page = await newPage(env.browser, PHONE);
  // A slow bot (its moves 1.5 s apart) keeps the table still while the test taps.
  const room = await createRoom(env.server.base, { game: 'ivanhoe', seed: 3, botDelayMs: 1500 });
  await joinRoom(page, env.server.base, room, 'tia');
  await page.locator('[data-testid=add-bot]:enabled').tap();
  await page.locator('[data-testid=start]:enabled').tap();
  await page.locator('[data-testid=hand]').waitFor();
  const { key, loc } = await playableCard(page);
  const name = await loc.getAttribute('data-name');
  const before = await handState(page);

  // First tap: selected and described, nothing played.
  await loc.tap();
  const bar = page.locator('[data-testid=tap-bar]');
  await bar.waitFor();
  assert.match(await bar.locator('[data-testid=tap-text]').textContent(), new RegExp(`^${name}: tap it again`));
  assert.ok(await page.locator('[data-testid=tap-play]').isVisible(), 'the bar has a Play button');
  assert.match(await page.locator('[data-testid=description]').textContent(), new RegExp(`^${name} — `), 'the card is described');
  await page.waitForTimeout(400);
  assert.deepEqual(await handState(page), before, 'the first tap played nothing');
  assert.ok(await page.locator(`[data-testid=hand-card][data-key="${key}"].is-tapped`).count(), 'the card is marked as selected');
  await shot(page, 'round-two-tap-selected');

  // The second tap on the same card plays it (or opens its choice box).
  await page.locator(`[data-testid=hand-card][data-key="${key}"]`).tap();
  await page.waitForFunction((b) => {
    const cards = document.querySelectorAll('[data-testid=hand-card]').length;
    return cards < b.cards || document.querySelector('[data-testid=overlay]') != null;
  }, before, { timeout: 5000 });
  assert.ok(await bar.isHidden(), 'the bar goes once the card is played');
  if (await page.locator('[data-testid=overlay]').count()) {
    // A choice (a colour): cancel it, and play the card again through the bar's Play.
    await page.locator('[data-testid=overlay] .pick-cancel').tap();
    await page.locator('[data-testid=overlay]').waitFor({ state: 'detached' });
    const again = page.locator(`[data-testid=hand-card][data-key="${key}"]`);
    await again.tap();
    await page.locator('[data-testid=tap-play]').tap();
    await page.locator('[data-testid=overlay]').waitFor({ timeout: 5000 });
    await page.locator('[data-testid=overlay] [data-testid=pick]').first().tap();
  }
  await page.waitForFunction((b) => document.querySelectorAll('[data-testid=hand-card]').length < b.cards, before, { timeout: 5000 });
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.failures, []);
  await page.context().close();
});

test('Sorcery on a touch phone: a tap reads, Play plays; a mouse click on a desktop acts at once', { timeout: 120_000 }, async () => {
  const page = await newPage(env.browser, PHONE);
  const room = await createRoom(env.server.base, { game: 'sorcery', seed: 7, botDelayMs: 1500 });
  await joinRoom(page, env.server.base, room, 'sol');
  // A two-seat game says "of 2 players", not "of 2–2".
  assert.match(await page.locator('[data-testid=seat-count]').textContent(), /^1 of 2 players$/);
  await page.locator('[data-testid=add-bot]:enabled').tap();
  await page.locator('[data-testid=start]:enabled').tap();
  const { key, loc } = await playableCard(page);
  const before = await handState(page);
  const syncs = await syncCount(page);
  await loc.tap();
  await page.locator('[data-testid=tap-bar]').waitFor();
  await page.waitForTimeout(400);
  assert.deepEqual(await handState(page), before, 'the first tap played nothing');
  assert.equal(await syncCount(page), syncs, 'nothing was sent: no table update');
  await page.locator('[data-testid=tap-play]').tap();
  // Played (the hand shrinks) or waiting for its target (the prompt).
  await page.waitForFunction((b) => document.querySelectorAll('[data-testid=hand-card]').length < b.cards
    || document.querySelector('[data-testid=prompt]') != null, before, { timeout: 5000 });
  await shot(page, 'round-two-sorcery-played');
  assert.ok(await page.locator(`[data-testid=hand-card][data-key="${key}"].is-tapped`).count() === 0);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.failures, []);
  await page.context().close();

  // With a mouse nothing changes: a click plays (or asks for the target) at once.
  const desk = await newPage(env.browser, DESKTOP);
  const room2 = await createRoom(env.server.base, { game: 'sorcery', seed: 7, botDelayMs: 1500 });
  await joinRoom(desk, env.server.base, room2, 'dee');
  await desk.locator('[data-testid=add-bot]:enabled').click();
  await desk.locator('[data-testid=start]:enabled').click();
  const c = await playableCard(desk);
  const b2 = await handState(desk);
  await c.loc.click();
  await desk.waitForFunction((b) => document.querySelectorAll('[data-testid=hand-card]').length < b.cards
    || document.querySelector('[data-testid=prompt]') != null, b2, { timeout: 5000 });
  assert.ok(await desk.locator('[data-testid=tap-bar]').isHidden(), 'no tap bar for a mouse');
  assert.deepEqual(desk.errors, []);
  await desk.context().close();
});

test('the lobby links every game\'s rules, and each rules page starts with How to play', async () => {
  const games = await (await fetch(`${env.server.base}/api/games`)).json();
  assert.ok(games.length >= 5, 'five games');
  const page = await newPage(env.browser, PHONE);
  await page.goto(`${env.server.base}/`);
  const links = page.locator('[data-testid=lobby-rules] a');
  await links.first().waitFor();
  const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.deepEqual(hrefs, games.map((g) => `/rules/${g.name}`), 'one link per game, in the lobby\'s order');
  for (const g of games) {
    // The game chosen in the form links its own rules too.
    await page.locator('#lobby-game').selectOption(g.name);
    assert.equal(await page.locator('#game-rules a').getAttribute('href'), `/rules/${g.name}`);
    const res = await fetch(`${env.server.base}/rules/${g.name}`);
    assert.equal(res.status, 200, g.name);
    const html = await res.text();
    // The title, a sentence or two, then How to play before any other section.
    const firstH2 = html.match(/<h2 id="([^"]+)">/);
    assert.equal(firstH2?.[1], 'how-to-play', `${g.name}: the first section is How to play`);
  }
  await shot(page, 'round-two-lobby-phone');
  // Following a link opens the page (in a new tab), readable on a phone.
  const [rules] = await Promise.all([page.context().waitForEvent('page'), links.nth(2).tap()]);
  await rules.waitForLoadState();
  assert.equal(await rules.locator('h2').first().textContent(), 'How to play');
  assert.ok(await rules.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scrolling');
  await rules.screenshot({ path: new URL('../artifacts/round-two-rules-phone.png', import.meta.url).pathname });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('bots: each level and game bot is named and explained, and a bot\'s seat shows its level', { timeout: 120_000 }, async () => {
  const page = await newPage(env.browser, DESKTOP);
  const room = await createRoom(env.server.base, { game: 'buckshot', seed: 4, botDelayMs: 200 });
  await joinRoom(page, env.server.base, room, 'hal');
  const kind = page.locator('[data-testid=bot-kind]');
  const options = await kind.locator('option').evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
  const labels = Object.fromEntries(options);
  // Each named with its rating on the people's scale (docs/rating.md: `botRatings` of GET
  // /api/games, the ladder anchored at medium = 1500; the heuristic is medium's player).
  const r = (await (await fetch(`${env.server.base}/api/games`)).json()).find((g) => g.name === 'buckshot').botRatings;
  assert.equal(r.medium, 1500);
  assert.deepEqual([labels.easy, labels.medium, labels.hard, labels.expert], [`Easy ~${r.easy}`, 'Medium ~1500', `Hard ~${r.hard}`, `Expert ~${r.expert}`]);
  assert.equal(labels.random, `Random ~${r.random}`);
  assert.equal(labels.heuristic, 'Rules of thumb ~1500');
  for (const [value, option] of options) {
    const label = option.replace(/ ~\d+$/, '');
    await kind.selectOption(value);
    const about = await page.locator('[data-testid=bot-about]').textContent();
    assert.ok(about.startsWith(`${label}: `) && about.length > label.length + 20, `${value} is explained: ${about}`);
    // Its strength in the committed ladder (docs/bot-ladder.md, through GET /api/games), and
    // plainly what it is worth over the level below (issue 46: the step, measured).
    if (['easy', 'medium', 'hard', 'expert'].includes(value)) {
      assert.match(about, /Rated [+-]?\d+ \(95%: .+\) above Random over \d+ games\. /, `${value} is rated: ${about}`);
      const below = { easy: 'Random', medium: 'Easy', hard: 'Medium', expert: 'Hard' }[value];
      const worth = new RegExp(`Over ${below}: [+-]?\\d+ Elo \\(95%: .+, \\d+ games\\), so it wins about \\d+ games in 100 against ${below}: (not measurably|barely|a little|clearly) stronger\\.$`);
      assert.match(about, worth, `${value}'s step is said: ${about}`);
    }
  }
  const badges = ['bot · Hard', 'bot · Random'];
  for (const [value, badge] of [['hard', badges[0]], ['random', badges[1]]]) {
    await kind.selectOption(value);
    await page.locator('[data-testid=add-bot]:enabled').click();
    await page.locator('[data-testid=bot-level]').filter({ hasText: badge }).first().waitFor();
  }
  assert.deepEqual(await page.locator('[data-testid=bot-level]').allTextContents(), badges);
  // And its rating beside it (docs/rating.md), as the list named it.
  const shown = await page.locator('[data-testid=player-rating]').allTextContents();
  assert.ok(shown.includes(`~${r.hard}`) && shown.includes(`~${r.random}`), `the bots' ratings: ${shown}`);
  await shot(page, 'round-two-bots-lobby');
  await page.locator('[data-testid=start]:enabled').click();
  await page.locator('[data-testid=actions]').waitFor();
  assert.deepEqual((await page.locator('[data-testid=bot-level]').allTextContents()).sort(), [...badges].sort(), 'in the game too');
  assert.deepEqual(page.errors, []);
  await page.context().close();

  // Three Kingdoms' own "seed" bot is named for what it is.
  const tk = await newPage(env.browser, PHONE);
  const tkRoom = await createRoom(env.server.base, { game: 'three-kingdoms', seed: 4 });
  await joinRoom(tk, env.server.base, tkRoom, 'kay');
  await tk.locator('[data-testid=bot-kind]').selectOption('seed');
  const tkr = (await (await fetch(`${env.server.base}/api/games`)).json()).find((g) => g.name === 'three-kingdoms').botRatings;
  assert.equal(await tk.locator('[data-testid=bot-kind] option[value=seed]').textContent(), `Student version ~${tkr.seed}`);
  assert.match(await tk.locator('[data-testid=bot-about]').textContent(), /^Student version: plays as the student simulation/);
  assert.deepEqual(tk.errors, []);
  await tk.context().close();
});
