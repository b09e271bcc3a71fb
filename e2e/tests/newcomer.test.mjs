// What a newcomer meets (issue 17), for Buckshot, Sorcery and Ivanhoe, on a phone (390x844)
// and a desktop (1280x800):
// - the lobby describes each game and its seats; each game's page links its rules page, which
//   the server serves (readable without the repository's docs);
// - while playing, your hand (or your actions) and the current prompt are on screen without
//   scrolling, and the newest event-log line is visible;
// - a finished game keeps its final table with standings (winner, each seat's final state,
//   moves, duration, a replay link) instead of wiping the table;
// - the replay viewer steps through the finished match from a seat's view.
//
// The game is finished quickly: the test's player leaves mid-game and the bots (no delay)
// play on to the end (Sorcery ends at once: leaving concedes). Screenshots of the viewport
// (what is on screen without scrolling) go to e2e/artifacts/newcomer-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { serverAndBrowser, newPage, createRoom, joinRoom, leaveRoom, artifacts, PHONE } from './helpers.js';

const env = serverAndBrowser();
const DESKTOP = { viewport: { width: 1280, height: 800 } };

async function viewShot(page, name) {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `newcomer-${name}.png`) });
}

/** Whether the element's box lies inside the viewport (no scrolling needed to see it). */
async function onScreen(locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= -1 && r.bottom <= window.innerHeight + 1 && r.left >= -1 && r.right <= window.innerWidth + 1;
  });
}

// What shows "your hand / your move" in each game while seated.
const GAMES = {
  buckshot: { bots: 2, mine: '[data-testid=actions]' },
  sorcery: { bots: 1, mine: '[data-testid=dock] [data-testid=hand]' },
  ivanhoe: { bots: 2, mine: '[data-testid=dock] [data-testid=hand]' },
};

for (const [game, spec] of Object.entries(GAMES)) {
  for (const [size, opts] of [['phone', PHONE], ['desktop', DESKTOP]]) {
    test(`${game} ${size}: hand and prompt on screen, newest log line, end screen with standings`, { timeout: 240_000 }, async () => {
      const page = await newPage(env.browser, opts);
      const base = env.server.base;

      if (size === 'phone') {
        // The lobby: the game's description and seat range.
        await page.goto(`${base}/`);
        await page.locator('#lobby-game').selectOption(game);
        assert.match(await page.locator('#game-about').textContent(), /players\.$/);
      }

      // turnSeconds: 1, so a seat left in Ivanhoe (a bot plays it once its clock runs out) costs
      // a second a turn, not thirty.
      const roomId = await createRoom(base, { game, seed: 5, botDelayMs: 0, turnSeconds: 1 });
      await joinRoom(page, base, roomId, 'ana');
      // "How to play" goes to the game's rules page.
      assert.equal(await page.locator('.room-head [data-testid=rules-link]').getAttribute('href'), `/rules/${game}`);
      for (let i = 0; i < spec.bots; i++) {
        await page.locator('[data-testid=add-bot]:enabled').click();
        await page.waitForTimeout(300);
      }
      await page.locator('[data-testid=start]:enabled').click();
      const mine = page.locator(spec.mine).first();
      await mine.waitFor({ timeout: 20_000 });
      await page.waitForTimeout(400);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(100);
      assert.ok(await onScreen(mine), `${game} ${size}: your hand/actions are on screen at the top of the page`);
      if (size === 'phone') {
        const last = page.locator('[data-testid=last-line]');
        assert.ok(await last.isVisible(), 'the newest log line is shown above the table on a phone');
        assert.ok((await last.textContent()).length > 0);
        assert.ok(await onScreen(last));
      } else {
        const newest = page.locator('.log-list .log-item').last();
        assert.ok(await onScreen(newest), 'the newest log line is on screen on a desktop');
      }
      await viewShot(page, `${game}-${size}-playing`);
      if (game === 'sorcery' && size === 'phone') {
        // A hand card shows its whole text on a phone.
        const text = page.locator('.so-hand .so-hand-card .so-text-body').first();
        assert.ok(await text.isVisible(), 'hand cards show their text on a phone');
      }
      if (game === 'buckshot') {
        // The item help opens with a tap.
        await page.locator('[data-testid=item-guide] summary').click();
        assert.ok(await page.locator('[data-testid=item-guide] dd').first().isVisible(), 'item help is readable without hovering');
      }

      // Leave: the bots play on to the end; the page stays open as a visitor.
      await leaveRoom(page);
      const end = page.locator('[data-testid=end-screen]');
      await end.waitFor({ timeout: 200_000 });
      const rows = page.locator('[data-testid=standing]');
      assert.equal(await rows.count(), spec.bots + 1, 'one standings row per seat');
      assert.match(await page.locator('[data-testid=end-screen] [data-testid=winner]').textContent(), /wins!|no winner/);
      assert.match(await page.locator('.end-facts').textContent(), /\d+ moves? in /);
      assert.ok((await page.locator('[data-testid=final-table] *').count()) > 5, 'the final table is drawn');
      const finalState = await rows.locator('td').nth(1).textContent();
      assert.ok(finalState.trim().length > 0, `each seat's final state is given (${game})`);
      const replay = await page.locator('[data-testid=replay-link]').getAttribute('href');
      assert.match(replay, /^\/replay\/\d+\?room=[a-z0-9]+$/);
      await page.evaluate(() => window.scrollTo(0, 0));
      await viewShot(page, `${game}-${size}-end`);

      // A reload keeps the end screen (until the host starts again).
      await page.reload();
      await end.waitFor({ timeout: 10_000 });

      {
        // The replay viewer: from the end back to the deal, from seat 0's view.
        if (size === 'desktop') {
          // Seat 0's view comes slowly, so "Next move" is clicked while it is on its way and
          // "Every seat" is chosen before it comes: the page must show what was chosen last
          // (a late answer for seat 0 alone once undid "Every seat").
          let asked = 0;
          await page.route((url) => url.pathname.startsWith('/api/matches/') && url.searchParams.get('seat') === '0',
            async (route) => { await new Promise((r) => setTimeout(r, asked++ === 0 ? 300 : 1_200)); await route.continue(); });
        }
        await page.goto(`${base}${replay}`);
        await page.locator('[data-testid=replay-counter]').waitFor();
        assert.match(await page.locator('[data-testid=replay-counter]').textContent(), /^Move (\d+) of \1$/);
        await page.getByRole('button', { name: 'The deal' }).click();
        await page.waitForFunction(() => document.body.dataset.replayStep === '0');
        await page.locator('[data-testid=replay-view]').selectOption('0');
        await page.getByRole('button', { name: 'Next move' }).click();
        await page.waitForFunction(() => document.body.dataset.replayStep === '1');
        assert.match(await page.locator('[data-testid=replay-counter]').textContent(), /^Move 1 of \d+$/);
        assert.ok((await page.locator('.replay-table *').count()) > 5, 'the table of the step is drawn');
        if (size === 'desktop') {
          // Every seat side by side, at the same move.
          await page.locator('[data-testid=replay-view]').selectOption('all');
          await page.locator('.replay-seat').nth(spec.bots).waitFor();
          await page.waitForTimeout(1_500);
          assert.equal(await page.locator('.replay-seat').count(), spec.bots + 1, 'one table per seat');
          await viewShot(page, `${game}-replay-all`);
          await page.locator('[data-testid=replay-view]').selectOption('0');
          await page.locator('.replay-seat').nth(1).waitFor({ state: 'detached' });
        }
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scrolling');
        await viewShot(page, `${game}-${size}-replay`);
      }
      assert.deepEqual(page.errors, [], `no page errors (${game} ${size})`);
      await page.context().close();
    });
  }
}

test('the rules pages are served as HTML and link each other', async () => {
  const res = await fetch(`${env.server.base}/rules`);
  assert.equal(res.status, 200);
  const index = await res.text();
  for (const g of ['buckshot', 'sorcery', 'ivanhoe']) assert.ok(index.includes(`href="/rules/${g}"`), g);
  const page = await newPage(env.browser, PHONE);
  await page.goto(`${env.server.base}/rules/sorcery`);
  assert.equal(await page.locator('h1').first().textContent(), 'Sorcery');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scrolling on a phone');
  await viewShot(page, 'rules-phone');
  assert.equal((await fetch(`${env.server.base}/rules/nope`)).status, 404);
  await page.context().close();
});
