// Ivanhoe in the browser, end to end: the real server, Debian's Chromium, one browser context
// per person.
//
// 1. One person and two bots: a seed deals the person Ivanhoe, so when a bot plays an action
//    card the Ivanhoe prompt (with its countdown) appears; the person plays Ivanhoe once and
//    lets it be afterwards. Choice overlays, the description area and the end-turn button are
//    used on the way; the game is played until a tournament is won and on to its end.
// 2. Five seats: one person on a phone and four bots play to the end (the table fits the
//    screen, overlays and prompts included), watched by a spectator on a phone who sees no hand.
// Screenshots go to e2e/artifacts/ (desktop 1280 px; phones 390 px).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, newPage, createRoom, joinRoom, shot, syncCount, waitSync, rng, pick, overflowX,
  watchActs, sentActs, races, DESKTOP, PHONE,
} from './helpers.js';

// Seats 0 and 1 of a match on this seed: seat 0 (the first to join) is dealt Ivanhoe.
const IVANHOE_SEED = Number(process.env.IVANHOE_SEED ?? 1);

// The server and the browser, started before this file's tests and stopped after them.
const env = serverAndBrowser();

const winner = (page) => page.locator('[data-testid=winner]');
const logText = (page) => page.locator('.log-list').innerText();
const isAction = (code) => /^[A-Z_]+$/.test(code);

/**
 * One decision for the person, if the page offers one: an open overlay's choice, an answer to
 * an action card, a card from the hand, or the end-turn button. Returns what was done.
 */
async function step(page, r, st) {
  const before = await syncCount(page);
  // Bots answer every 30-40 ms here, and each answer re-renders the table, so a button is
  // rarely "stable" for two frames: click without waiting for stability (still retried if the
  // button is replaced meanwhile).
  // A control counted a moment ago can be gone by the click (the turn moved on: a bot's answer,
  // the clock): then nothing was done, and the next step looks again.
  const click = async (loc, what) => {
    try {
      await loc.click({ force: true, timeout: 5000 });
    } catch (e) {
      if (e.name === 'TimeoutError' && (await loc.count()) === 0) return null;
      throw e;
    }
    await waitSync(page, before, 4000);
    return what;
  };
  const overlay = page.locator('[data-testid=overlay]');
  if (await overlay.count()) {
    if (!st.overlayShot) { st.overlayShot = true; await shot(page, `${st.prefix}-overlay`); }
    const picks = overlay.locator('[data-testid=pick]');
    const n = await picks.count();
    if (n) {
      const title = await overlay.locator('h2').innerText();
      st.overlays.push(title);
      const b = picks.nth(Math.floor(r() * n));
      await b.click();
      // A multi-step choice re-renders the overlay without a sync.
      await page.waitForTimeout(50);
      await waitSync(page, before, 1500);
      return `overlay: ${title}`;
    }
  }
  const prompt = page.locator('[data-testid=ivanhoe-prompt]');
  if (await prompt.count()) {
    st.prompts += 1;
    if (st.prompts === 1) {
      // The countdown runs: it shows seconds and goes down.
      const cd = prompt.locator('[data-testid=countdown]');
      await page.waitForFunction(() => /\d+ s/.test(document.querySelector('[data-testid=countdown]')?.textContent ?? ''));
      const first = parseInt(await cd.innerText(), 10);
      assert.ok(first > 0 && first <= 15, `countdown ${first}`);
      await shot(page, `${st.prefix}-ivanhoe-prompt`);
      // (The room restarts a window's clock while bots answer, so allow a few seconds.)
      const down = await page.waitForFunction((f) => {
        const t = document.querySelector('[data-testid=countdown]')?.textContent;
        return t == null || parseInt(t, 10) < f;
      }, first, { timeout: 5000 }).then(() => true, () => false);
      assert.ok(down, `the countdown goes down from ${first}`);
      if (!(await prompt.count())) return 'prompt gone';
      // Keyboard: the prompt takes focus; Enter on "Play Ivanhoe".
      await prompt.locator('[data-testid=play-ivanhoe]').focus();
      await page.keyboard.press('Enter');
      await waitSync(page, before, 4000);
      // The log says so at once (the log keeps its last 300 lines only, so look now).
      await page.locator('.log-list li').filter({ hasText: /You played IVANHOE: .* is cancelled!/ }).waitFor({ timeout: 5000 });
      st.cancelled = true;
      return 'ivanhoe';
    }
    return click(prompt.locator('[data-testid=pass]'), 'let it be');
  }
  const pass = page.locator('[data-testid=window-wait] [data-testid=pass]');
  // The window can close (a bot answered, its clock ran out) between looking and clicking, and
  // the re-render hides the button: that is a race of this loop, not of the page, so look again
  // on the next step instead of failing. A button that never shows still fails the test: the
  // game would not reach its end in time.
  if ((await pass.count()) && (await pass.isVisible())) {
    if (!st.waitShot) { st.waitShot = true; await shot(page, `${st.prefix}-window-wait`); }
    try {
      return await click(pass, 'pass');
    } catch (e) {
      if (/not visible|detached|not attached/i.test(String(e))) return 'window closed';
      throw e;
    }
  }
  const cards = page.locator('[data-testid=hand-card][data-playable=true]');
  const end = page.locator('[data-testid=end-turn]');
  const n = await cards.count();
  const hasEnd = (await end.count()) > 0;
  if (hasEnd && (await end.getAttribute('data-withdraws')) === 'false') return click(end, 'end turn (stay)');
  const codes = [];
  for (let i = 0; i < n; i++) codes.push([i, await cards.nth(i).getAttribute('data-card')]);
  const values = codes.filter(([, c]) => !isAction(c));
  const actions = codes.filter(([, c]) => isAction(c));
  if (actions.length && r() < 0.5) {
    const [i, c] = pick(r, actions);
    await cards.nth(i).focus();
    return click(cards.nth(i), `play ${c}`);
  }
  if (values.length) {
    const [i, c] = pick(r, values);
    return click(cards.nth(i), `play ${c}`);
  }
  if (hasEnd) return click(end, 'end turn (withdraw)');
  return null;
}

/** Plays for the person until the game ends; returns the step state. */
async function playToTheEnd(page, r, prefix, { maxSteps = 2500 } = {}) {
  const st = { prefix, prompts: 0, overlays: [], cancelled: false, steps: 0, midShot: false };
  for (let i = 0; i < maxSteps; i++) {
    if (await winner(page).count()) return st;
    const before = await syncCount(page);
    const did = await step(page, r, st);
    if (did) st.steps += 1;
    else await waitSync(page, before, 3000);
    if (!st.midShot && st.steps >= 12) {
      st.midShot = true;
      await shot(page, `${prefix}-mid-game`);
      assert.ok(await overflowX(page) <= 0, 'the table fits the screen');
    }
  }
  throw new Error(`the game did not end in ${maxSteps} steps`);
}

test('one person and bots: the Ivanhoe prompt, overlays, a tournament won, the game to its end', async () => {
  const page = await newPage(env.browser, DESKTOP);
  await watchActs(page);
  const roomId = await createRoom(env.server.base, { game: 'ivanhoe', seed: IVANHOE_SEED, botDelayMs: 40 });
  await joinRoom(page, env.server.base, roomId, 'ana');
  await page.locator('[data-testid=add-bot]').click();
  await page.locator('.pcard[data-player="bot-ana"]').waitFor();
  await page.locator('[data-testid=add-bot]').click();
  await page.locator('.pcard[data-player="bot-ben"]').waitFor();
  await shot(page, 'iv-01-lobby');
  await page.locator('[data-testid=start]').click();
  await page.locator('.iv-player').first().waitFor();
  assert.equal(await page.locator('.iv-player').count(), 3);
  // The person was dealt Ivanhoe on this seed.
  await page.locator('[data-testid=hand-card][data-card=IVANHOE]').waitFor();
  // The description area follows hover and focus.
  await page.locator('[data-testid=hand-card][data-card=IVANHOE]').hover();
  assert.match(await page.locator('[data-testid=description]').innerText(), /Ivanhoe.*cancel/i);
  await page.locator('[data-testid=hand-card]').first().focus();
  const first = await page.locator('[data-testid=hand-card]').first().getAttribute('data-card');
  assert.doesNotMatch(await page.locator('[data-testid=description]').innerText(), /^Ivanhoe/, `focus on ${first} describes it`);
  await shot(page, 'iv-02-table');
  // Draw and discard piles, a status bar per player.
  await page.locator('[data-testid=draw-pile]').waitFor();
  assert.equal(await page.locator('[data-testid=status-bar]').count(), 3);

  const st = await playToTheEnd(page, rng(3), 'iv-03');
  await shot(page, 'iv-04-game-over');
  const log = await logText(page);
  assert.ok(st.prompts >= 1, 'the Ivanhoe prompt appeared');
  assert.ok(st.cancelled, 'Ivanhoe was played from the prompt, and the log said so');
  assert.match(log, /won the (purple|red|blue|yellow|green) tournament/);
  // The room announces the win (one line: "… wins the game!"); the game's own GameWon line is not repeated.
  assert.match(log, /wins the game|win the game|the game ends unwon/);
  // The bots draw their choices from the server's own generator, so the person may win.
  assert.match(await winner(page).innerText(), /wins|You win|Game over/);
  assert.deepEqual(page.errors, []);
  // The one race allowed: see the five-seat test.
  const acts = await sentActs(page);
  assert.deepEqual(acts.filter((a) => a.serial !== a.table), [], 'every action carries the newest table the page had');
  assert.deepEqual(races(page, acts).other, [], 'no refusal but the stale race');
  console.log(`# ${st.steps} steps, ${st.prompts} prompts, overlays: ${[...new Set(st.overlays.map((t) => t.split(':')[0]))].join(' | ')}`);
  await page.context().close();
});

test('five seats: one person on a phone and four bots play to the end, a phone spectator watches', async () => {
  const page = await newPage(env.browser, PHONE);
  await watchActs(page);
  const roomId = await createRoom(env.server.base, { game: 'ivanhoe', seed: 99, botDelayMs: 30 });
  await joinRoom(page, env.server.base, roomId, 'zed');
  for (const b of ['bot-ana', 'bot-ben', 'bot-cy', 'bot-dee']) {
    await page.locator('[data-testid=add-bot]').click();
    await page.locator('.pcard').nth(['bot-ana', 'bot-ben', 'bot-cy', 'bot-dee'].indexOf(b) + 1).waitFor();
  }
  assert.equal(await page.locator('.pcard').count(), 5);
  assert.ok(await page.locator('[data-testid=add-bot]').isDisabled(), 'no sixth seat');
  await page.locator('[data-testid=start]').click();
  await page.locator('.iv-player').first().waitFor();
  assert.equal(await page.locator('.iv-player').count(), 5);

  const phone = await newPage(env.browser, PHONE);
  await joinRoom(phone, env.server.base, roomId, 'watcher');
  await phone.locator('[data-testid=watching]').waitFor();
  assert.equal(await phone.locator('[data-testid=hand-card]').count(), 0, 'a spectator sees no hand');
  await shot(phone, 'iv-10-phone-spectator');
  assert.ok(await overflowX(phone) <= 0, 'the table fits a phone screen');

  const st = await playToTheEnd(page, rng(11), 'iv-11');
  await shot(page, 'iv-12-five-over');
  await winner(phone).waitFor();
  await shot(phone, 'iv-13-phone-over');
  assert.match(await logText(page), /won the (purple|red|blue|yellow|green) tournament/);
  assert.deepEqual(page.errors, []);
  // Four bots answer every 30 ms, and several seats may answer one decision (a window, an
  // Ivanhoe): a click can reach the room just after the decision it answered closed. The
  // page stamps every action with the newest table it has (checked here), so the room
  // refuses such a click `stale_action` and the page shows the table that followed; that
  // race, and only it, is allowed.
  const acts = await sentActs(page);
  assert.ok(acts.length >= st.steps / 2, `the page's actions were recorded: ${acts.length}`);
  assert.deepEqual(acts.filter((a) => a.serial !== a.table), [], 'every action carries the newest table the page had');
  const { race, other } = races(page, acts);
  assert.deepEqual(other, [], 'no refusal but the stale race');
  assert.deepEqual(phone.errors, []);
  console.log(`# five seats: ${st.steps} steps, ${st.prompts} prompts, ${acts.length} actions sent (${acts.filter((a) => a.moving).length} after a later move's events had arrived), ${race.length} stale races`);
  await phone.context().close();
  await page.context().close();
});
