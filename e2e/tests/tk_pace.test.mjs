// Three Kingdoms' pace and prompts in the browser (issue 47):
//
// 1. On a phone (390x844), from a set-up position: alice (the Lord, in her Play phase) holds
//    Barbarians, Rain of Arrows and a Negate; three bots hold a Dodge each. Her Barbarians
//    asks her nothing (her own trick: a note, no prompt, each window closed by the server
//    within 4.5 s with the full clock shown). She ticks "Ask me whether to Negate my own
//    tricks too" and uses Rain of Arrows: now she is asked, with "No Negate for this card";
//    she presses it, and the card's other windows are passed for her with a note and no
//    prompt. Screenshots (also to SHOTS_DIR): the prompt with the button, and the note.
// 2. The lobby's New room form has a Pace for Three Kingdoms (labelled; axe finds nothing
//    critical or serious); a Fast room is made with `gameOptions.pace: "fast"` and its
//    general choice runs on a 20 s clock.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { serverAndBrowser, newPage, createRoom, joinRoom, shot, DESKTOP, PHONE } from './helpers.js';
import { axeProblems } from './a11y.js';

const env = serverAndBrowser({ extra: ['--allow-setup-rooms'] });

const POSITION = [
  'seat Lord ZhangFei | hand: S7 Barbarians, HA RainArrows, SJ Negate',
  'seat Rebel XuChu | hand: D2 Dodge, D3 Dodge',
  'seat Loyalist LvMeng | hand: D4 Dodge, D5 Dodge',
  'seat Spy ZhangLiao | hand: D6 Dodge, D7 Dodge',
  'current 0',
].join('\n');

async function viewShot(page, name) {
  await shot(page, name);
  if (process.env.SHOTS_DIR) {
    mkdirSync(process.env.SHOTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(process.env.SHOTS_DIR, `${name}.png`) });
  }
}

/** Records every table the page gets, with when. */
function recordTables(page) {
  const frames = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => {
    try { const m = JSON.parse(f.payload); if (m.type === 'GameDataSync') frames.push({ t: Date.now(), d: m.gameData }); } catch { /* not JSON */ }
  }));
  return frames;
}

/** Uses the hand card of `kind` (a click in the page, as the other tests do). */
async function use(page, kind) {
  await page.locator(`[data-testid=hand-card][data-kind=${kind}][data-playable=true]`).waitFor({ timeout: 15000 });
  await page.evaluate((k) => document.querySelector(`[data-testid=hand-card][data-kind=${k}][data-playable=true]`).click(), kind);
}

/** Waits until it is alice's Play phase again with nothing else open, noting every Negate
 * prompt and every pass-only note (with why) seen meanwhile. */
async function untilPlay(page, seen, ms = 60000) {
  const start = Date.now();
  for (;;) {
    const s = await page.evaluate(() => ({
      prompt: document.querySelector('[data-testid=response-prompt]')?.dataset.request ?? null,
      about: document.querySelector('[data-testid=response-prompt]')?.dataset.about ?? null,
      note: document.querySelector('[data-testid=pass-only]')?.dataset.why ?? null,
      play: !!document.querySelector('[data-testid=act-EndPlay]') && !document.querySelector('[data-testid=response-prompt], [data-testid=pass-only], [data-testid=response-wait]'),
    }));
    // A prompt just answered stays on the page until the server's reply arrives: it is
    // skipped by its window (`about`), so only a later window counts as asked again.
    if (s.prompt && !(seen.answered && s.about === seen.answered)) seen.prompts.push(s.prompt);
    if (s.note) seen.notes.push(s.note);
    if (s.play) return;
    assert.ok(Date.now() - start < ms, `not back to alice's Play phase in ${ms} ms: ${JSON.stringify(s)}`);
    await page.waitForTimeout(100);
  }
}

/** The Negate windows alice was asked in, from her tables: the clock shown, how long open, and
 * the `autoPass` her page had. */
function windows(frames) {
  const asked = (d) => d?.view?.waiting?.Ask?.seat === 0 && d.view.request === 'Negate';
  const out = [];
  for (let i = 0; i < frames.length; i++) {
    if (!asked(frames[i].d)) continue;
    const about = JSON.stringify(frames[i].d.view.about);
    let j = i;
    while (j + 1 < frames.length && asked(frames[j + 1].d) && JSON.stringify(frames[j + 1].d.view.about) === about && frames[j + 1].d.serial === frames[i].d.serial) j++;
    const w = (frames[i].d.waitingOn ?? []).find((x) => x.username === 'alice');
    out.push({ about, shown: w?.msLeft, ms: frames[j + 1] ? frames[j + 1].t - frames[i].t : null, auto: frames[i].d.autoPass ?? null });
    i = j;
  }
  return out;
}

test('own tricks are not asked about; "No Negate for this card" passes the rest of a card', { timeout: 180000 }, async () => {
  const { server, browser } = env;
  const room = await createRoom(server.base, { game: 'three-kingdoms', setup: POSITION, botDelayMs: 200 });
  const page = await newPage(browser, PHONE);
  const frames = recordTables(page);
  await joinRoom(page, server.base, room, 'alice');
  for (let i = 0; i < 3; i++) {
    await page.locator('[data-testid=add-bot]:enabled').click();
    await page.locator('.tk-lobby-players li').nth(i + 1).waitFor();
  }
  await page.locator('[data-testid=start]:enabled').click();
  const box = page.locator('[data-testid=own-cards]');
  await box.waitFor({ timeout: 15000 });
  assert.equal(await box.isChecked(), false, 'not asked on your own tricks by default');
  assert.equal(await page.getByLabel('Ask me whether to Negate my own tricks too').count(), 1, 'the box has its label');

  // Her own Barbarians: a note on each of its three windows, never a prompt.
  await use(page, 'Barbarians');
  const seen = { prompts: [], notes: [] };
  await page.locator('[data-testid=pass-only][data-why=ownCard]').waitFor({ timeout: 10000 });
  await viewShot(page, 'tk-pace-own-trick-note-390x844');
  await untilPlay(page, seen);
  assert.deepEqual(seen.prompts.filter((r) => r === 'Negate'), [], 'alice was asked about her own Barbarians');
  const own = windows(frames);
  assert.equal(own.length, 3, JSON.stringify(own));
  for (const w of own) {
    assert.equal(w.auto, 'ownCard');
    assert.ok(w.shown > 14000, `the full clock is shown: ${JSON.stringify(w)}`);
    assert.ok(w.ms != null && w.ms < 4600, `the server passed for her early: ${JSON.stringify(w)}`);
  }

  // Opted in: her Rain of Arrows asks her, with "No Negate for this card".
  await box.check();
  await page.waitForFunction(() => document.querySelector('[data-testid=own-cards]')?.checked === true);
  const before = frames.length;
  await use(page, 'RainArrows');
  const prompt = page.locator('[data-testid=response-prompt][data-request=Negate]');
  await prompt.waitFor({ timeout: 10000 });
  const button = prompt.locator('[data-testid=pass-card]');
  assert.equal(await button.innerText(), 'No Negate for this card');
  assert.ok(await prompt.locator('[data-testid=answer]').count() >= 1, 'the Negate is offered too');
  const r = await prompt.evaluate((el) => { const b = el.getBoundingClientRect(); return { top: b.top, bottom: b.bottom, vh: window.innerHeight }; });
  assert.ok(r.top >= 0 && r.bottom <= r.vh, `the prompt is on screen: ${JSON.stringify(r)}`);
  await viewShot(page, 'tk-pace-prompt-390x844');
  const answered = await prompt.getAttribute('data-about');
  await button.click();
  const seen2 = { prompts: [], notes: [], answered };
  await untilPlay(page, seen2);
  assert.deepEqual(seen2.prompts.filter((x) => x === 'Negate'), [], 'asked again about the same card');
  assert.ok(seen2.notes.includes('forCard'), `the note says why: ${JSON.stringify(seen2.notes)}`);
  const rain = windows(frames.slice(before));
  assert.equal(rain.length, 3, JSON.stringify(rain));
  assert.equal(rain[0].auto, null, 'the first window asked her');
  for (const w of rain.slice(1)) {
    assert.equal(w.auto, 'forCard');
    assert.ok(w.shown > 14000 && w.ms != null && w.ms < 4600, JSON.stringify(w));
  }
  console.log(`own trick windows: ${own.map((w) => w.ms).join(', ')} ms; after "No Negate for this card": ${rain.slice(1).map((w) => w.ms).join(', ')} ms`);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.failures, []);
  await page.context().close();
});

test('the New room form offers a Fast pace for Three Kingdoms, and a fast room has short clocks', { timeout: 120000 }, async () => {
  const { server, browser } = env;
  // axe-core goes in as an inline script: this page bypasses the server's CSP for it.
  const page = await newPage(browser, { ...DESKTOP, bypassCSP: true });
  const frames = recordTables(page);
  await page.goto(`${server.base}/`);
  await page.locator('#lobby-game').selectOption('three-kingdoms');
  const pace = page.getByLabel('Pace');
  await pace.waitFor();
  assert.deepEqual(await pace.locator('option').allInnerTexts(), ['Normal', 'Fast']);
  assert.deepEqual(await axeProblems(page, 'lobby with the Three Kingdoms options'), []);
  await pace.selectOption('fast');
  await page.locator('#lobby-username').fill('fran');
  await page.getByRole('button', { name: 'Create room' }).click();
  await page.locator('[data-testid=you]').filter({ hasText: 'fran' }).waitFor({ timeout: 15000 });
  const last = () => frames[frames.length - 1]?.d;
  assert.equal(last()?.options?.gameOptions?.pace, 'fast', JSON.stringify(last()?.options));
  for (let i = 0; i < 3; i++) {
    await page.locator('[data-testid=add-bot]:enabled').click();
    await page.locator('.tk-lobby-players li').nth(i + 1).waitFor();
  }
  await page.locator('[data-testid=start]:enabled').click();
  await page.locator('[data-testid=general]').first().waitFor({ timeout: 20000 });
  const clock = frames.map((f) => (f.d.waitingOn ?? []).find((w) => w.username === 'fran')?.msLeft).find((ms) => ms != null);
  assert.ok(clock > 15000 && clock <= 20000, `the general choice's clock is 20 s: ${clock}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
