// Ratings (issue 43, docs/rating.md) in the browser: the lobby links each game's leaderboard,
// the leaderboard page lists the established players by rating (the provisional and the few
// left out), and a profile shows its rating with a chart of its history.
//
// Reaching the leaderboard takes ten rated games with a settled deviation: rather than play
// them, the test makes three guests through the API, stops the server, writes their ratings and
// histories into its SQLite file (python3's sqlite3, as scripts/house.sh needs python3 too),
// and starts it again on that file.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { startServer, newPage, launchBrowser, shot, DESKTOP } from './helpers.js';
import { axeProblems } from './a11y.js';

const env = { server: null, browser: null, names: [] };

/** A new guest (as a page's first visit makes one): its name and id. */
async function guest(base) {
  const res = await fetch(`${base}/api/auth/guest`, { method: 'POST', headers: { origin: base } });
  const cookie = res.headers.get('set-cookie').split(';')[0];
  const me = await (await fetch(`${base}/api/me`, { headers: { cookie } })).json();
  return { name: me.name, id: me.id };
}

const SEED = `
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
t0 = int(sys.argv[5])
# account, rating, rd, games: the first two established, the third provisional.
for (account, r, rd, games) in [(int(sys.argv[2]), 1712.4, 64.0, 31), (int(sys.argv[3]), 1588.0, 88.0, 12), (int(sys.argv[4]), 1650.0, 190.0, 3)]:
    db.execute("INSERT INTO ratings VALUES (?, 'sorcery', ?, ?, 0.06, ?, ?)", (account, r, rd, games, t0))
    for k in range(games):
        db.execute("INSERT INTO rating_history VALUES (?, 'sorcery', ?, ?, ?, ?, ?)",
                   (account, 100 * account + k, r - 5 * (games - 1 - k) + (k % 3) * 7, rd, 1 if k == 1 else 0, t0 - (games - k) * 60000))
db.commit()
`;

before(async () => {
  const first = await startServer();
  const people = [await guest(first.base), await guest(first.base), await guest(first.base)];
  env.names = people.map((p) => p.name);
  await first.stop({ keep: true });
  // Rated just now: idle time does not widen them (docs/rating.md).
  execFileSync('python3', ['-c', SEED, path.join(first.dir, 'e2e.db'), ...people.map((p) => String(p.id)), String(Date.now())]);
  env.server = await startServer({ dir: first.dir });
  env.browser = await launchBrowser();
});
after(async () => {
  await env.browser?.close();
  await env.server?.stop();
});

test('the leaderboard lists established players by rating, and a profile charts its rating', async () => {
  // bypassCSP: axe-core is injected as a script of the test's own.
  const page = await newPage(env.browser, { ...DESKTOP, bypassCSP: true });
  await page.goto(`${env.server.base}/`);
  await page.locator('[data-testid=lobby-leaderboards] a', { hasText: 'Sorcery' }).click();
  await page.locator('[data-testid=leaderboard-page]').waitFor();
  assert.equal(new URL(page.url()).pathname, '/leaderboard/sorcery');
  const rows = page.locator('[data-testid=leaderboard-row]');
  assert.deepEqual(await rows.evaluateAll((rs) => rs.map((r) => r.dataset.name)), env.names.slice(0, 2), 'best first, the provisional one left out');
  assert.deepEqual(await page.locator('[data-testid=leaderboard-rating]').allTextContents(), ['1712', '1588']);
  await shot(page, 'ratings-leaderboard');
  assert.deepEqual(await axeProblems(page, 'leaderboard'), []);
  // A player's name leads to their profile: their rating and its history's chart.
  await rows.first().locator('a').click();
  await page.locator('[data-testid=profile-rating]').waitFor();
  assert.equal(await page.locator('[data-testid=rating-value]').textContent(), '1712');
  const chart = page.locator('[data-testid=rating-chart]');
  assert.equal(await chart.getAttribute('data-points'), '31');
  assert.equal(await chart.locator('circle').count(), 31, 'one point a rated game');
  assert.ok((await chart.boundingBox()).width > 100, 'the chart is drawn');
  await shot(page, 'ratings-profile-chart');
  assert.deepEqual(await axeProblems(page, 'profile'), []);
  // The provisional player's profile says so.
  await page.goto(`${env.server.base}/u/${encodeURIComponent(env.names[2])}`);
  assert.equal(await page.locator('[data-testid=rating-value]').textContent(), '1650?');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the lobby marks rated rooms', async () => {
  const base = env.server.base;
  const make = async (body) => (await (await fetch(`${base}/api/rooms`, {
    method: 'POST', headers: { origin: base, 'content-type': 'application/json' }, body: JSON.stringify(body),
  })).json()).id;
  const rated = await make({ game: 'sorcery', rated: true });
  const casual = await make({ game: 'sorcery' });
  const page = await newPage(env.browser, { ...DESKTOP, bypassCSP: true });
  await page.goto(`${base}/`);
  const row = (id) => page.locator(`.room-item[data-room="${id}"]`);
  await row(rated).waitFor();
  assert.equal(await row(rated).locator('[data-testid=room-rated]').textContent(), 'rated');
  assert.equal(await row(casual).locator('[data-testid=room-rated]').count(), 0);
  await shot(page, 'lobby-rated-room');
  assert.deepEqual(await axeProblems(page, 'lobby with a rated room'), []);
  assert.deepEqual(page.errors, []);
});
