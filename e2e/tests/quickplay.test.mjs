// Quick play (issue 43) in the browser: a person alone opens the lobby, clicks "Play now" for
// Buckshot, sees the waiting view (time waited, when the bots come), and within the server's
// wait (2 s here) lands in a room whose game has started with them and three bots.
// A cancel takes them back to the lobby. These servers run without placement games (as for
// people who have placed); a newcomer's placement game is the last test.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, shot, DESKTOP } from './helpers.js';
import { axeProblems } from './a11y.js';

const WAIT_S = 2;
const env = { server: null, browser: null };
before(async () => {
  env.server = await startServer({ extra: ['--quickplay-wait', String(WAIT_S), '--quickplay-bot-delay-ms', '300', '--quickplay-placement', '0'] });
  env.browser = await launchBrowser();
});
after(async () => {
  await env.browser?.close();
  await env.server?.stop();
});

test('alone, Play now seats you with bots within the wait', { timeout: 60_000 }, async () => {
  // bypassCSP: axe-core is injected as a script of the test's own.
  const page = await newPage(env.browser, { ...DESKTOP, bypassCSP: true }, { identity: true });
  await page.goto(`${env.server.base}/`);
  await page.locator('[data-testid=lobby-you]').waitFor();
  const me = (await page.locator('[data-testid=lobby-you] bdi').textContent()).trim();
  const clicked = Date.now();
  await page.locator('[data-testid=play-now-buckshot]').click();
  await page.locator('[data-testid=qp-waiting]').waitFor();
  await shot(page, 'quickplay-waiting');
  assert.deepEqual(await axeProblems(page, 'quick-play wait'), []);
  // The line is filled by the ticket socket's first packet, which may come a moment after
  // the view is drawn.
  await page.waitForFunction(() => /Bots take the empty seats in|Seating/.test(document.querySelector('[data-testid=qp-bots]')?.textContent ?? ''), null, { timeout: 2000 });
  // The room: its game started by itself, the person seated with three bots.
  await page.waitForURL(/\/r\/[a-z0-9]+$/, { timeout: (WAIT_S + 3) * 1000 });
  const seatedAfter = (Date.now() - clicked) / 1000;
  assert.ok(seatedAfter <= WAIT_S + 2, `seated after ${seatedAfter} s`);
  await page.locator('[data-testid=you]').waitFor({ timeout: 10_000 });
  assert.match(await page.locator('[data-testid=you]').textContent(), new RegExp(`You are ${me} \\((player|host)\\)`));
  const seats = await page.evaluate(async () => {
    const id = location.pathname.split('/').pop();
    const r = await fetch(`/api/rooms/${id}`);
    return (await r.json()).players;
  });
  assert.equal(seats.length, 4, JSON.stringify(seats));
  assert.equal(seats.filter((p) => p.startsWith('bot-')).length, 3, JSON.stringify(seats));
  await shot(page, 'quickplay-seated');
  assert.deepEqual(page.errors, []);
});

test('a cancelled wait goes back to the lobby', { timeout: 60_000 }, async () => {
  // A wait long enough to press Cancel in: a server of its own.
  const server = await startServer({ extra: ['--quickplay-wait', '60', '--quickplay-placement', '0'] });
  try {
    const page = await newPage(env.browser, undefined, { identity: true });
    await page.goto(`${server.base}/`);
    await page.locator('[data-testid=play-now-sorcery]').click();
    await page.locator('[data-testid=qp-waiting]').waitFor();
    await page.locator('[data-testid=qp-cancel]').click();
    await page.locator('[data-testid=play-now-sorcery]').waitFor();
    assert.deepEqual(page.errors, []);
  } finally {
    await server.stop();
  }
});

test("a newcomer's first Play now is a placement game against a bot, at once", { timeout: 60_000 }, async () => {
  // The default server: placement games on, and a wait far longer than this test allows.
  const server = await startServer({ extra: ['--quickplay-wait', '60'] });
  try {
    const page = await newPage(env.browser, { ...DESKTOP, bypassCSP: true }, { identity: true });
    await page.goto(`${server.base}/`);
    await page.locator('[data-testid=lobby-you]').waitFor();
    const clicked = Date.now();
    await page.locator('[data-testid=play-now-sorcery]').click();
    const card = page.locator('[data-testid=qp-placement]');
    await card.waitFor();
    assert.match(await card.locator('h1').textContent(), /^Placement game 1 of 3: Sorcery$/);
    assert.match(await card.textContent(), /against the bot nearest your rating \(this one: medium\)/);
    await shot(page, 'quickplay-placement');
    assert.deepEqual(await axeProblems(page, 'placement card'), []);
    await page.waitForURL(/\/r\/[a-z0-9]+$/, { timeout: 5000 });
    assert.ok(Date.now() - clicked < 5000, 'seated well within the 60 s wait');
    await page.locator('[data-testid=you]').waitFor({ timeout: 10_000 });
    const seats = await page.evaluate(async () => {
      const id = location.pathname.split('/').pop();
      return (await (await fetch(`/api/rooms/${id}`)).json()).players;
    });
    assert.equal(seats.length, 2, JSON.stringify(seats));
    assert.equal(seats.filter((p) => p.startsWith('bot-')).length, 1, JSON.stringify(seats));
    assert.deepEqual(page.errors, []);
  } finally {
    await server.stop();
  }
});

test('a friend follows a party link and sits at the leader\'s table', { timeout: 60_000 }, async () => {
  const leader = await newPage(env.browser, { ...DESKTOP, bypassCSP: true }, { identity: true });
  const friend = await newPage(env.browser, { ...DESKTOP, bypassCSP: true }, { identity: true });
  await leader.goto(`${env.server.base}/`);
  await leader.locator('[data-testid=lobby-you]').waitFor();
  const lead = (await leader.locator('[data-testid=lobby-you] bdi').textContent()).trim();
  await leader.locator('[data-testid=make-party]').click();
  const link = await leader.locator('[data-testid=party-link]').getAttribute('href');
  assert.match(link, /^\/party\/[0-9a-f]{32}$/);
  await friend.goto(`${env.server.base}${link}`);
  const people = friend.locator('[data-testid=party-people]');
  await people.filter({ hasText: lead }).waitFor();
  assert.match(await people.textContent(), new RegExp(`^In the party: ${lead}, guest-\\d+ \\(led by ${lead}\\)\\.$`));
  await shot(friend, 'quickplay-party');
  assert.deepEqual(await axeProblems(friend, 'party page'), []);
  // The leader's lobby shows the friend (it asks every 2 s), then queues the party for
  // Sorcery: two people fill its table, so it is seated at once, with no bot.
  await leader.locator('[data-testid=party-people]').filter({ hasText: ',' }).waitFor({ timeout: 5000 });
  await leader.locator('[data-testid=play-now-sorcery]').click();
  await leader.waitForURL(/\/r\/[a-z0-9]+$/, { timeout: 10_000 });
  await friend.waitForURL(/\/r\/[a-z0-9]+$/, { timeout: 10_000 });
  assert.equal(new URL(leader.url()).pathname, new URL(friend.url()).pathname, 'one table');
  await leader.locator('[data-testid=you]').waitFor({ timeout: 10_000 });
  const seats = await leader.evaluate(async () => {
    const id = location.pathname.split('/').pop();
    return (await (await fetch(`/api/rooms/${id}`)).json()).players;
  });
  assert.equal(seats.filter((p) => p.startsWith('bot-')).length, 0, JSON.stringify(seats));
  assert.deepEqual(leader.errors, []);
  assert.deepEqual(friend.errors, []);
});
