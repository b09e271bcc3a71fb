// Three Kingdoms in the browser, end to end: the real server, Debian's Chromium, one browser
// context per person.
//
// 1. Five seats: alice (desktop) and bob (phone) with three bots, short clocks
//    (`responseSeconds: 2`). Both choose a general, play their turns through the page (cards
//    with target highlighting, End Play, discards, overlays), alice answers an Attack with a
//    Dodge from the response prompt, bob lets his first prompt time out (the countdown shows,
//    the server passes for him); played to the end, both see the end screen with every role.
// 2. Ten seats (one person, nine bots): the table renders without overlapping seats and without
//    sideways scrolling at 1280×800 and 390×844.
// 3. While generals are chosen no seat is marked dying (every seat has 0 of 0 HP then), and
//    each offered general shows what its skills do.
// 5. Zhang Liao's Draw phase: the hint names Raid; tapping the last seat in turn order picks it
//    (it does not raid at once), a second seat can be added, Confirm raids both.
// 4. A person who can only pass (a Negate window with no Negate, a Dodge request with no
//    Dodge) is not asked: no prompt, the server passes for them within 4 s, and the clock every
//    page shows for that seat is the full response clock, as for a seat that could answer.
// Screenshots go to e2e/artifacts/ (tk-*.png).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, createRoom, joinRoom, shot, syncCount, waitSync, overflowX, DESKTOP, PHONE } from './helpers.js';

const env = serverAndBrowser();

const HARMFUL = ['Attack', 'Duel', 'Barbarians', 'RainArrows', 'Dismantle', 'StealingSheep', 'Peach', 'SomethingOutOfNothing'];

/**
 * One decision through the page, if it offers one. `st.role`: 'dodger' answers a Dodge prompt
 * when it can; 'silent' lets its first prompt time out. Returns what was done, or null.
 *
 * The page re-renders on every table update (bots act every few dozen ms), so each decision
 * is looked at and clicked in one go inside the page, where nothing can change in between.
 */
async function step(page, st) {
  const before = await syncCount(page);
  const r = await page.evaluate(({ role, timedOut, dodged, played, harmful, stopAtDraw }) => {
    const q = (sel, root = document) => root.querySelector(sel);
    const click = (el, did, extra = {}) => { el.click(); return { did, ...extra }; };
    if (stopAtDraw && /Your Draw phase/.test(q('[data-testid=hand-hint]')?.textContent ?? '')) return null;
    const gen = q('[data-testid=general]');
    if (gen) return click(gen, 'general');
    const prompt = q('[data-testid=response-prompt]');
    if (prompt) {
      const request = prompt.dataset.request;
      const text = prompt.innerText;
      if (role === 'silent' && !timedOut) return { did: 'silent', request, countdown: q('[data-testid=countdown]', prompt)?.textContent ?? '' };
      const answer = q('[data-testid=answer]', prompt);
      if (role === 'dodger' && request === 'Dodge' && answer) {
        if (!dodged) return { did: 'dodge-ready', text };
        return click(answer, 'dodge', { text });
      }
      if (request === 'Peach' && answer) return click(answer, 'peach');
      const pass = q('[data-testid=pass]', prompt);
      if (pass) return click(pass, 'pass');
      if (answer) return click(answer, 'answer');
    }
    const pick = q('[data-testid=overlay] [data-testid=pick]');
    if (pick) return click(pick, 'overlay', { local: true });
    const target = q('.tk-seat.is-target');
    if (target) return click(target, 'target', { local: true });
    const hint = q('[data-testid=hand-hint]')?.textContent ?? '';
    const playable = q('[data-testid=hand-card][data-playable=true]');
    if (/Discard phase/.test(hint) && playable) return click(playable, 'discard');
    if (/Play phase/.test(hint)) {
      if (played < 6) {
        for (const kind of harmful) {
          const c = q(`[data-testid=hand-card][data-playable=true][data-kind=${kind}]`);
          if (c) return click(c, `use ${kind}`, { local: true, used: true });
        }
      }
      const end = q('[data-testid=act-EndPlay]');
      if (end) return click(end, 'end play', { ended: true });
    }
    const ctrl = q('[data-testid=controls] button');
    if (ctrl) return click(ctrl, `control ${ctrl.textContent}`);
    if (playable && !/Play phase/.test(hint)) return click(playable, 'card');
    return null;
  }, { role: st.role, timedOut: !!st.timedOut, dodged: !!st.dodged, played: st.played ?? 0, harmful: HARMFUL, stopAtDraw: !!st.stopAtDraw });
  if (!r) return null;
  if (r.used) st.played = (st.played ?? 0) + 1;
  if (r.ended) st.played = 0;
  if (r.did === 'target') st.targeted = (st.targeted ?? 0) + 1;
  if (r.did === 'target' && !st.targetShot) { st.targetShot = true; await shot(page, `tk-${st.name}-targets`); }
  if (r.did === 'silent') {
    // Say nothing: the countdown shows, and the server passes when it runs out.
    await shot(page, `tk-${st.name}-prompt-timeout`);
    const start = Date.now();
    await page.waitForFunction(() => !document.querySelector('[data-testid=response-prompt]'), null, { timeout: 15000 });
    st.timedOut = { request: r.request, countdown: r.countdown, ms: Date.now() - start };
    return 'timed out';
  }
  if (r.did === 'dodge-ready') {
    await shot(page, `tk-${st.name}-dodge-prompt`);
    st.dodged = r.text;
    return step(page, st);
  }
  if (r.local) await page.waitForTimeout(20);
  else await waitSync(page, before, 1000);
  st.steps = (st.steps ?? 0) + 1;
  return r.did;
}

async function ended(page) {
  return (await page.locator('[data-testid=end-screen]').count()) > 0;
}

/** Seat boxes (and the centre) overlap nowhere and the page does not scroll sideways. */
async function checkLayout(page, label) {
  const boxes = await page.evaluate(() => [...document.querySelectorAll('.tk-ring [data-testid=seat], .tk-ring .tk-centre')].map((e) => {
    const r = e.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width, h: r.height, what: e.dataset.player ?? e.className };
  }));
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      const overlap = a.x + a.w > b.x + 0.5 && b.x + b.w > a.x + 0.5 && a.y + a.h > b.y + 0.5 && b.y + b.h > a.y + 0.5;
      assert.ok(!overlap, `${label}: ${a.what} overlaps ${b.what} ${JSON.stringify([a, b])}`);
    }
  }
  assert.ok((await overflowX(page)) <= 0, `${label}: the page scrolls sideways`);
  return boxes;
}

test('two people and three bots play Three Kingdoms to the end', { timeout: 240000 }, async () => {
  const { server, browser } = env;
  const room = await createRoom(server.base, { game: 'three-kingdoms', seed: 6, botDelayMs: 60, gameOptions: { responseSeconds: 2, chooseSeconds: 20 } });
  const alice = await newPage(browser, DESKTOP);
  const bob = await newPage(browser, PHONE);
  // The last table each page got, to tell what a stalled page was asked.
  const last = new Map();
  for (const p of [alice, bob]) {
    p.on('websocket', (ws) => ws.on('framereceived', (f) => {
      try { const m = JSON.parse(f.payload); if (m.type === 'GameDataSync') last.set(p, m.gameData); } catch { /* not JSON */ }
    }));
  }
  await joinRoom(alice, server.base, room, 'alice');
  await joinRoom(bob, server.base, room, 'bob');
  for (let i = 0; i < 3; i++) {
    await alice.locator('[data-testid=add-bot]').click();
    await alice.waitForTimeout(150);
  }
  const st = { a: { name: 'alice', role: 'dodger' }, b: { name: 'bob', role: 'silent' } };
  const stalled = async () => {
    await shot(alice, 'tk-stall-alice');
    await shot(bob, 'tk-stall-bob');
    const brief = (d) => JSON.stringify({ step: d?.view?.step, waiting: d?.view?.waiting, request: d?.view?.request, legal: d?.legal, waitingOn: d?.waitingOn });
    return `alice ${brief(last.get(alice))} ${JSON.stringify(st.a)}; bob ${brief(last.get(bob))} ${JSON.stringify(st.b)}`;
  };
  const started = Date.now();
  let shots = 0;
  // Games until alice has answered a Dodge prompt and bob has let one time out (the first game
  // usually has both; how the cards fall is up to the rules).
  let games = 0;
  while (games < 4 && !(st.a.dodged && st.b.timedOut)) {
    games += 1;
    await alice.locator('[data-testid=start]').click();
    await alice.locator('.tk-ring').waitFor({ timeout: 10000 });
    await bob.locator('.tk-ring').waitFor({ timeout: 10000 });
    assert.equal(await alice.locator('[data-testid=seat]').count(), 5);
    while (!((await ended(alice)) && (await ended(bob)))) {
      if (Date.now() - started > 200000) assert.fail(`the games did not end in 200 s: ${await stalled()}`);
      const did = [];
      if (!(await ended(alice))) did.push(await step(alice, st.a));
      if (!(await ended(bob))) did.push(await step(bob, st.b));
      if (shots === 0 && (await alice.locator('[data-testid=hand-card]').count())) {
        shots = 1;
        await shot(alice, 'tk-5-alice-desktop');
        await shot(bob, 'tk-5-bob-phone');
      }
      if (did.every((x) => x == null)) await alice.waitForTimeout(80);
      for (const p of [alice, bob]) {
        assert.deepEqual(p.errors, [], 'no page errors');
        // A click that lands just after its decision closed (the 2 s response window ran
        // out, or a bot 60 ms away answered a window open to several seats) is refused as
        // `stale_action` ("look again"): a race with the table, not a wrong move (seen once
        // in CI, serial 91 against 92). Nothing else may be refused, and the game goes on.
        const other = p.failures.filter((f) => !f.startsWith('stale_action: '));
        assert.deepEqual(other, [], 'the server refused nothing but a race with the table');
      }
    }
    await shot(alice, 'tk-5-alice-end');
    await shot(bob, 'tk-5-bob-end');
    for (const p of [alice, bob]) {
      assert.equal(await p.locator('[data-testid=end-role]').count(), 5, 'the end screen lists every role');
    }
  }
  const log = await alice.locator('.log-list').innerText();
  assert.match(log, /^\d\d:\d\d You (chose|drew) /m, 'the log speaks to its reader');
  assert.doesNotMatch(log, /card\(s\)|his\/her|---/, 'no debug phrasing in the log');
  assert.ok(st.b.timedOut, 'bob let a prompt time out');
  assert.match(st.b.timedOut.countdown, /^\d+ s$/, 'the prompt showed a countdown');
  assert.ok(st.b.timedOut.ms < 4000, `the server passed for bob (${st.b.timedOut.ms} ms)`);
  assert.ok(st.a.dodged, `alice answered a Dodge prompt in ${games} games (${JSON.stringify(st.a)})`);
  assert.match(st.a.dodged, / from .*: play Dodge\?/);
  console.log(`5 seats: ${games} game(s) over in ${Math.round((Date.now() - started) / 1000)} s; alice ${JSON.stringify(st.a)}; bob ${JSON.stringify(st.b)}`);
  await alice.context().close();
  await bob.context().close();
});

test('a ten-seat table fits a laptop and a phone without overlap', { timeout: 120000 }, async () => {
  const { server, browser } = env;
  const room = await createRoom(server.base, { game: 'three-kingdoms', seed: 3, botDelayMs: 100, gameOptions: { responseSeconds: 2, chooseSeconds: 20 } });
  const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await joinRoom(page, server.base, room, 'zoe');
  for (let i = 0; i < 9; i++) {
    await page.locator('[data-testid=add-bot]').click();
    await page.waitForTimeout(120);
  }
  await page.locator('[data-testid=start]').click();
  await page.locator('.tk-ring').waitFor({ timeout: 10000 });
  assert.equal(await page.locator('[data-testid=seat]').count(), 10);
  // Play until everyone has a general and some turns have gone by (equipment, hands, marks).
  const st = { name: 'zoe', role: 'dodger' };
  const start = Date.now();
  while (Date.now() - start < 25000) {
    const turn = await page.locator('[data-testid=phase]').innerText().catch(() => '');
    const m = turn.match(/^Turn (\d+)/);
    if (m && Number(m[1]) >= 4) break;
    if ((await step(page, st)) == null) await page.waitForTimeout(100);
  }
  await checkLayout(page, '1280x800');
  await shot(page, 'tk-10-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await checkLayout(page, '390x844');
  await shot(page, 'tk-10-phone');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('no seat is dying while generals are chosen, and the offered generals say what their skills do', { timeout: 60000 }, async () => {
  const { server, browser } = env;
  const room = await createRoom(server.base, { game: 'three-kingdoms', seed: 8, botDelayMs: 100, gameOptions: { chooseSeconds: 30 } });
  const page = await newPage(browser, DESKTOP);
  await joinRoom(page, server.base, room, 'uma');
  for (let i = 0; i < 4; i++) {
    await page.locator('[data-testid=add-bot]').click();
    await page.waitForTimeout(120);
  }
  await page.locator('[data-testid=start]').click();
  await page.locator('[data-testid=general]').first().waitFor({ timeout: 15000 });
  await page.waitForTimeout(400);
  assert.equal(await page.locator('[data-testid=seat]').count(), 5);
  assert.equal(await page.locator('.tk-seat.is-dying, .tk-dyingmark').count(), 0, 'a seat shows "dying" during the general choice');
  const options = await page.locator('[data-testid=general]').count();
  assert.ok(options >= 3, `${options} generals offered`);
  for (let i = 0; i < options; i++) {
    const skills = page.locator('[data-testid=general]').nth(i).locator('[data-testid=skill]');
    assert.ok((await skills.count()) >= 1);
    // "Name: what it does."
    assert.match(await skills.first().innerText(), /^[A-Z][\w -]+: .{15,}\.$/);
  }
  await shot(page, 'tk-choose-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  assert.equal(await page.locator('.tk-seat.is-dying, .tk-dyingmark').count(), 0);
  assert.ok((await overflowX(page)) <= 0, 'the general choice scrolls sideways on a phone');
  await shot(page, 'tk-choose-phone');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a person who can only pass is not asked, and the clock others see does not tell', { timeout: 240000 }, async () => {
  const { server, browser } = env;
  const RESPONSE_MS = 15000;
  const room = await createRoom(server.base, { game: 'three-kingdoms', seed: 5, botDelayMs: 60, gameOptions: { responseSeconds: RESPONSE_MS / 1000, chooseSeconds: 20 } });
  const alice = await newPage(browser, DESKTOP);
  const bob = await newPage(browser, PHONE);
  // Every table each page gets, with when it came.
  const frames = new Map([[alice, []], [bob, []]]);
  for (const p of [alice, bob]) {
    p.on('websocket', (ws) => ws.on('framereceived', (f) => {
      try { const m = JSON.parse(f.payload); if (m.type === 'GameDataSync') frames.get(p).push({ t: Date.now(), d: m.gameData }); } catch { /* not JSON */ }
    }));
  }
  await joinRoom(alice, server.base, room, 'alice');
  await joinRoom(bob, server.base, room, 'bob');
  for (let i = 0; i < 3; i++) {
    await alice.locator('[data-testid=add-bot]').click();
    await alice.waitForTimeout(150);
  }
  await alice.locator('[data-testid=start]').click();
  await alice.locator('.tk-ring').waitFor({ timeout: 10000 });
  const st = { a: { name: 'alice', role: 'dodger', dodged: true }, b: { name: 'bob', role: 'dodger', dodged: true } };
  const started = Date.now();
  let passOnlySeen = 0;
  let shotTaken = false;
  // Play until each page has had a few windows it could only pass (or the game ends).
  const passOnly = (d, me) => d?.view?.waiting?.Ask?.seat === d?.seats?.indexOf(me) && (d?.legal ?? []).length === 1 && d.legal[0].type === 'Pass';
  while (!(await ended(alice)) && Date.now() - started < 150000) {
    const did = [await step(alice, st.a), await step(bob, st.b)];
    for (const [p, me] of [[alice, 'alice'], [bob, 'bob']]) {
      // A prompt on the page always has something to play besides Pass.
      const dom = await p.evaluate(() => ({
        prompts: [...document.querySelectorAll('[data-testid=response-prompt]')].map((e) => e.querySelectorAll('[data-testid=answer]').length),
        passOnly: document.querySelectorAll('[data-testid=pass-only]').length,
      }));
      assert.ok(dom.prompts.every((n) => n > 0), `${me} was asked with nothing but Pass to click`);
      if (dom.passOnly) {
        passOnlySeen += 1;
        if (!shotTaken) { shotTaken = true; await shot(p, `tk-pass-only-${me}`); }
      }
      assert.deepEqual(p.errors, [], 'no page errors');
      assert.deepEqual(p.failures, [], 'the server refused nothing');
    }
    const windows = frames.get(alice).filter((f) => passOnly(f.d, 'alice')).length + frames.get(bob).filter((f) => passOnly(f.d, 'bob')).length;
    if (windows >= 12 && passOnlySeen > 0) break;
    if (did.every((x) => x == null)) await alice.waitForTimeout(60);
  }
  // Each stretch of tables in which a page could only pass: it ends within 4.5 s (the server
  // passed, nobody clicked), and the clock shown for that seat, on its own page and on the
  // other person's, is the full response clock.
  const stretches = [];
  for (const [p, me, other] of [[alice, 'alice', bob], [bob, 'bob', alice]]) {
    const fs = frames.get(p);
    for (let i = 0; i < fs.length; i++) {
      if (!passOnly(fs[i].d, me)) continue;
      const clock = (d) => (d.waitingOn ?? []).find((w) => w.username === me)?.msLeft;
      const first = fs[i];
      let j = i;
      // The same decision goes on while the clock counts down.
      while (j + 1 < fs.length && passOnly(fs[j + 1].d, me) && clock(fs[j + 1].d) <= clock(fs[j].d)) j++;
      const end = fs[j + 1]?.t ?? null;
      stretches.push({ me, shown: clock(first.d), ms: end == null ? null : end - first.t });
      // What the other person's page showed for this seat in the meantime.
      for (const f of frames.get(other)) {
        if (f.t < first.t || (end != null && f.t > end)) continue;
        const w = (f.d.waitingOn ?? []).find((x) => x.username === me);
        if (w?.msLeft != null) assert.ok(w.msLeft > RESPONSE_MS - 6000, `the other page saw ${me}'s clock at ${w.msLeft} ms`);
      }
      i = j;
    }
  }
  const done = stretches.filter((s) => s.ms != null);
  assert.ok(done.length >= 3, `pass-only windows: ${JSON.stringify(stretches)}`);
  assert.ok(passOnlySeen > 0, 'a page showed the pass-only note');
  for (const s of done) {
    assert.ok(s.shown > RESPONSE_MS - 1500, `the clock shown for ${s.me} was ${s.shown} ms, not the full one`);
    assert.ok(s.ms < 4600, `${s.me} could only pass and was waited on for ${s.ms} ms`);
  }
  console.log(`pass-only windows: ${done.length}, closed after ${done.map((s) => s.ms).join(', ')} ms`);
  await alice.context().close();
  await bob.context().close();
});

test("Zhang Liao's Raid: the Draw phase says what to do, and up to two seats are picked before confirming", { timeout: 120000 }, async () => {
  const { server, browser } = env;
  // Seed 1 offers seat 0 (the first to join) Zhang Liao; the Lord (seat 1) starts.
  const room = await createRoom(server.base, { game: 'three-kingdoms', seed: 1, botDelayMs: 60, gameOptions: { responseSeconds: 15, chooseSeconds: 60 } });
  const page = await newPage(browser, DESKTOP);
  let last = null;
  page.on('websocket', (ws) => ws.on('framereceived', (f) => {
    try { const m = JSON.parse(f.payload); if (m.type === 'GameDataSync') last = m.gameData; } catch { /* not JSON */ }
  }));
  await joinRoom(page, server.base, room, 'liao');
  for (let i = 0; i < 4; i++) {
    await page.locator('[data-testid=add-bot]').click();
    await page.waitForTimeout(120);
  }
  await page.locator('[data-testid=start]').click();
  await page.locator('[data-testid=general][data-general=ZhangLiao]').click({ timeout: 15000 });
  // Play (pass, dodge, discard) until seat 0's Draw phase asks about Raid.
  const st = { name: 'liao', role: 'dodger', dodged: true, stopAtDraw: true };
  const started = Date.now();
  const hint = page.locator('[data-testid=hand-hint]');
  while (!/Your Draw phase/.test((await hint.innerText().catch(() => '')) ?? '')) {
    assert.ok(Date.now() - started < 90000, `no Draw phase for seat 0: ${JSON.stringify(last?.view?.waiting)}`);
    const pend = last?.view?.waiting?.DrawPhase;
    if (pend?.seat === 0) { await page.waitForTimeout(100); continue; }
    if ((await step(page, st)) == null) await page.waitForTimeout(60);
  }
  assert.match(await hint.innerText(), /^Your Draw phase: draw 2 cards, or use Raid \(take a hand card from one or two players\) instead\.$/);
  await shot(page, 'tk-raid-hint');
  const handBefore = last.view.hand.length;
  await page.locator('[data-testid=act-Raid]').click();
  // The last seat in turn order (seat 4) first: nothing is sent yet.
  await page.locator('.tk-seat.is-target[data-seat="4"]').click();
  await page.waitForTimeout(400);
  assert.ok(last.view.waiting?.DrawPhase, 'one tap on the last seat raided at once');
  assert.equal(await page.locator('.tk-seat.is-picked').count(), 1);
  assert.equal(await page.locator('[data-testid=pick-confirm]').isEnabled(), true, 'one seat is a raid too');
  const second = await page.locator('.tk-seat.is-target:not(.is-picked)').first().getAttribute('data-seat');
  await page.locator(`.tk-seat.is-target[data-seat="${second}"]`).click();
  assert.equal(await page.locator('.tk-seat.is-picked').count(), 2);
  assert.match(await page.locator('[data-testid=picking]').innerText(), /chosen: .+ and .+\./);
  await shot(page, 'tk-raid-two');
  await page.locator('[data-testid=pick-confirm]').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=picking]'), null, { timeout: 5000 });
  const deadline = Date.now() + 5000;
  while (!(last.view.hand.length >= handBefore + 2) && Date.now() < deadline) await page.waitForTimeout(50);
  assert.equal(last.view.hand.length, handBefore + 2, 'a card from each of the two seats');
  const log = await page.locator('.log-list').innerText();
  assert.equal((log.match(/went from .* to you\./g) ?? []).length >= 2, true, log);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.failures, []);
  await page.context().close();
});
