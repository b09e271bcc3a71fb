// Issue 47: the room on a phone (390x844 and 360x640). During play what the person must decide
// (the general choice on its clock, a prompt, the hand) is on screen without scrolling; the
// room's header is one line with a Menu button (share link, rules, leave); with ten seats the
// name of the seat whose turn it is is not cut; after a game the winner card comes first. At
// 1280x800 the header is one line too and nothing is folded away. Ivanhoe's hand, pinned to
// the bottom of the screen, leaves each player's display in sight whole above it.
//
// Screenshots: e2e/artifacts/phone-*.png (SHOTS_DIR, if set, gets copies of the Three Kingdoms
// ones: the general choice and a prompt at 390x844).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { serverAndBrowser, newPage, createRoom, joinRoom, shot, overflowX, leaveRoom, PHONE } from './helpers.js';

const env = serverAndBrowser();

/** The element's box against the window, the page scrolled to its top. */
async function box(page, sel) {
  return page.locator(sel).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, height: r.height, vh: window.innerHeight };
  });
}

async function viewShot(page, name) {
  await shot(page, name);
  if (process.env.SHOTS_DIR) {
    mkdirSync(process.env.SHOTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(process.env.SHOTS_DIR, `${name}.png`) });
  }
}

/** The header is one line, and its menu opens and closes (Escape) with the three entries. */
async function checkHeader(page, size) {
  const head = await box(page, '.room-head');
  assert.ok(head.height <= 56, `${size}: the room header is one line (${head.height} px)`);
  const toggle = page.locator('[data-testid=menu-toggle]');
  if (size === 'desktop') {
    assert.ok(!(await toggle.isVisible()), 'no Menu button on a desktop');
    assert.ok(await page.locator('#share-link').isVisible(), 'the share link is in sight on a desktop');
    return;
  }
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  assert.ok(!(await page.locator('#share-link').isVisible()), 'the share link is folded into the menu');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  for (const loc of [page.locator('#share-link'), page.locator('.room-head [data-testid=rules-link]'), page.getByRole('button', { name: 'Leave room' })]) {
    assert.ok(await loc.isVisible(), `${size}: the menu shows ${await loc.evaluate((el) => el.outerHTML.slice(0, 60))}`);
  }
  await page.keyboard.press('Escape');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  assert.ok(!(await page.locator('#share-link').isVisible()));
}

const SIZES = [
  ['390x844', PHONE],
  ['360x640', { ...PHONE, viewport: { width: 360, height: 640 } }],
];

for (const [size, opts] of SIZES) {
  test(`Three Kingdoms, ten seats, ${size}: the general choice, a prompt and the hand on screen`, async () => {
    const room = await createRoom(env.server.base, { game: 'three-kingdoms', seed: 11, botDelayMs: 80, gameOptions: { responseSeconds: 15, chooseSeconds: 60 } });
    const page = await newPage(env.browser, opts);
    await joinRoom(page, env.server.base, room, 'ana');
    for (let i = 0; i < 9; i++) {
      await page.locator('[data-testid=add-bot]:enabled').click();
      await page.locator('.tk-lobby-players li').nth(i + 1).waitFor();
    }
    await checkHeader(page, size);
    await page.locator('[data-testid=start]:enabled').click();

    // The general choice (on a clock): its first option is in sight without scrolling.
    const choice = page.locator('[data-testid=general-choice]');
    await choice.waitFor({ timeout: 20000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const c = await box(page, '[data-testid=general-choice]');
    const first = await box(page, '[data-testid=general-choice] [data-testid=general]');
    assert.ok(first.bottom <= c.vh, `${size}: the first general offered is on screen (${first.top}-${first.bottom} of ${c.vh})`);
    assert.equal(await page.locator('[data-testid=hand]').count(), 0, `${size}: an empty hand is shown under the general choice`);
    assert.match(await page.locator('[data-testid=choose-role]').innerText(), /^You are the (Lord|Loyalist|Rebel|Spy)\.$/, 'the choice says your role');
    assert.ok(await overflowX(page) <= 0, 'no sideways scrolling');
    await viewShot(page, `phone-tk-${size}-general-choice`);
    await choice.locator('[data-testid=general]').first().click();

    // In play: the hand is on screen; a prompt, when one comes, is on screen; the seat whose
    // turn it is shows its whole name.
    const hand = page.locator('[data-testid=hand]');
    await page.locator('[data-testid=hand] [data-testid=hand-card]').first().waitFor({ timeout: 30000 });
    let prompt = false;
    let turnChecked = 0;
    for (let i = 0; i < 200 && !(prompt && turnChecked >= 3); i++) {
      await page.evaluate(() => window.scrollTo(0, 0));
      const h = await hand.evaluate((el) => { const r = el.getBoundingClientRect(); return { top: r.top, vh: window.innerHeight }; });
      assert.ok(h.top < h.vh - 40, `${size}: the hand is on screen (its top at ${h.top} of ${h.vh})`);
      const turn = page.locator('.tk-seat.is-turn .pc-name');
      if (await turn.count()) {
        const cut = await turn.first().evaluate((el) => el.scrollWidth > el.clientWidth + 1);
        assert.ok(!cut, `${size}: the name of the seat to move is whole (${await turn.first().innerText()})`);
        turnChecked += 1;
      }
      const asked = page.locator('[data-testid=response-prompt].is-asked, .tk-prompt.is-asked');
      if (!prompt && await asked.count()) {
        const p = await box(page, '[data-testid=response-prompt]');
        assert.ok(p.top >= 0 && p.bottom <= p.vh, `${size}: the prompt is on screen (${p.top}-${p.bottom} of ${p.vh})`);
        await viewShot(page, `phone-tk-${size}-prompt`);
        prompt = true;
      }
      // On your turn, end the Play phase: the table moves on to the bots.
      const end = page.getByRole('button', { name: /^End Play/ });
      if (await end.count() && await end.isEnabled()) await end.click().catch(() => {});
      await page.waitForTimeout(300);
    }
    assert.ok(turnChecked >= 3, 'the seat to move was seen');
    if (!prompt) console.log(`${size}: no prompt came to ana in time (the hand and the seats were checked)`);
    assert.deepEqual(page.errors, []);
  });
}

for (const [size, opts] of SIZES) {
  test(`Ivanhoe, five seats, ${size}: the docked hand leaves every player's display in sight`, async () => {
    // The bots wait a minute: the table stands still while it is measured.
    const room = await createRoom(env.server.base, { game: 'ivanhoe', seed: 99, botDelayMs: 60000 });
    const page = await newPage(env.browser, opts);
    await joinRoom(page, env.server.base, room, 'ana');
    for (let i = 0; i < 4; i++) {
      await page.locator('[data-testid=add-bot]:enabled').click();
      await page.locator('.pcard').nth(i + 1).waitFor();
    }
    await page.locator('[data-testid=start]:enabled').click();
    await page.locator('[data-testid=dock] [data-testid=hand-card]').first().waitFor({ timeout: 15000 });
    await page.waitForTimeout(300);
    // Each display scrolled to just under whatever sticks to the top: whole above the dock
    // (the hand pinned to the bottom of the screen).
    const n = await page.locator('.iv-player').count();
    assert.equal(n, 5);
    for (let i = 0; i < n; i++) {
      const r = await page.locator('.iv-player').nth(i).evaluate((el) => {
        const top = Math.max(0, ...[...document.querySelectorAll('body *')].filter((x) => getComputedStyle(x).position === 'sticky' && x.getBoundingClientRect().top < 5 && x.getBoundingClientRect().height < window.innerHeight / 2).map((x) => x.getBoundingClientRect().bottom));
        window.scrollBy(0, el.getBoundingClientRect().top - top);
        const b = el.getBoundingClientRect();
        const dock = document.querySelector('[data-testid=dock]').getBoundingClientRect();
        return { top: b.top, bottom: b.bottom, dockTop: dock.top, dockHeight: dock.height, vh: window.innerHeight, name: el.querySelector('.pc-name')?.textContent };
      });
      assert.ok(r.bottom <= r.dockTop + 1, `${size}: ${r.name}'s display (${Math.round(r.top)}-${Math.round(r.bottom)}) is under the dock (from ${Math.round(r.dockTop)}, ${Math.round(r.dockHeight)} px of ${r.vh})`);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await viewShot(page, `phone-ivanhoe-${size}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test(`Ivanhoe, five seats, ${size}: between your turns the hand covers no display`, async () => {
    // A table whose first turn is a bot's (the bots wait a minute: it stands still): the hand
    // has nothing to decide, so it must not stick over the displays.
    let page = null;
    for (const seed of [99, 100, 101, 102, 103, 104, 105, 106]) {
      const room = await createRoom(env.server.base, { game: 'ivanhoe', seed, botDelayMs: 60000 });
      page = await newPage(env.browser, opts);
      await joinRoom(page, env.server.base, room, 'ana');
      for (let i = 0; i < 4; i++) {
        await page.locator('[data-testid=add-bot]:enabled').click();
        await page.locator('.pcard').nth(i + 1).waitFor();
      }
      await page.locator('[data-testid=start]:enabled').click();
      await page.locator('[data-testid=dock] [data-testid=hand-card]').first().waitFor({ timeout: 15000 });
      await page.waitForTimeout(300);
      // "bot-ben is opening a tournament." (the status line says whose turn it is).
      if ((await page.locator('[data-testid=status]').textContent()).includes('is opening a tournament')) break;
      await page.context().close();
      page = null;
    }
    assert.ok(page, 'a table whose first turn is a bot\'s');
    const r = await page.evaluate(() => {
      window.scrollTo(0, 0);
      const dock = document.querySelector('[data-testid=dock]');
      const d = dock.getBoundingClientRect();
      const covered = [...document.querySelectorAll('.iv-player')].map((el) => el.getBoundingClientRect())
        .filter((b) => b.top < window.innerHeight && b.bottom > d.top && b.top < d.bottom).length;
      return { position: getComputedStyle(dock).position, covered };
    });
    assert.equal(r.position, 'static', `${size}: the idle hand sticks`);
    assert.equal(r.covered, 0, `${size}: the hand covers ${r.covered} displays at the top of the page`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('Buckshot on a phone: the winner card comes first after the game; a desktop header is one line', async () => {
  const room = await createRoom(env.server.base, { game: 'buckshot', seed: 4, botDelayMs: 20 });
  const page = await newPage(env.browser, PHONE);
  await joinRoom(page, env.server.base, room, 'ana');
  await page.locator('[data-testid=add-bot]:enabled').click();
  await page.locator('[data-testid=start]:enabled').waitFor();
  await checkHeader(page, 'phone');
  await page.locator('[data-testid=start]:enabled').click();
  await page.locator('[data-testid=shoot]').first().waitFor();
  // Leave: the bot wins; the page shows the end screen as a visitor.
  await leaveRoom(page);
  await page.locator('[data-testid=end-screen]').waitFor({ timeout: 20000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  const end = await box(page, '[data-testid=end-screen]');
  const join = await box(page, '.join-panel');
  assert.ok(end.top < join.top, 'the winner card comes before the join panel and the host controls');
  assert.ok(end.top < end.vh / 3, `the winner card is at the top of the screen (${end.top})`);
  await viewShot(page, 'phone-buckshot-end');

  const desk = await newPage(env.browser, { viewport: { width: 1280, height: 800 } });
  const room2 = await createRoom(env.server.base, { game: 'sorcery', seed: 7 });
  await joinRoom(desk, env.server.base, room2, 'bo');
  await checkHeader(desk, 'desktop');
  assert.ok(await overflowX(desk) <= 0);
  await viewShot(desk, 'desktop-sorcery-lobby');
  assert.deepEqual(page.errors, []);
  assert.deepEqual(desk.errors, []);
});
