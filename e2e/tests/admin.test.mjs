// Moderation (issue 44) in the browser: an operator grants the admin role from the terminal
// (`cardtable admin grant`, the server stopped: it keeps its SQLite file to itself), the admin
// opens /admin, closes a room with a message (its player's page says so), and bans that player
// for a day (the player's page, in another room, says so with the ban's end; a reload shows
// the ban above every page). The console passes axe (every field labelled) and its log lists
// both actions under the admin's name. A player reports another from a room's menu, and the
// report reaches the console with the room's chat.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { startServer, launchBrowser, newPage, createRoom, serverBinary, shot, DESKTOP } from './helpers.js';
import { axeProblems } from './a11y.js';

const PASSWORD = 'a long enough password';
const env = { server: null, browser: null };

before(async () => {
  let server = await startServer();
  const res = await fetch(`${server.base}/api/auth/register`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'boss', password: PASSWORD }),
  });
  assert.equal(res.status, 200, await res.text());
  const dir = server.dir;
  await server.stop({ keep: true });
  const said = execFileSync(serverBinary(), ['admin', 'grant', 'boss', '--db', path.join(dir, 'e2e.db')], { encoding: 'utf8' });
  assert.match(said, /boss is an admin now/);
  server = await startServer({ dir });
  env.server = server;
  env.browser = await launchBrowser();
});
after(async () => {
  await env.browser?.close();
  await env.server?.stop();
});

/** The name the header shows, once the page has its identity. */
async function headerName(page) {
  const el = page.locator('[data-testid=account-name]');
  await el.waitFor({ timeout: 10_000 });
  return (await el.textContent()).trim();
}

/** A guest page seated in a new Buckshot room: the room's id. */
async function seated(page, base) {
  const room = await createRoom(base);
  await page.goto(`${base}/r/${room}`);
  await page.locator('[data-testid=join]:enabled').click();
  await page.locator('[data-testid=you]').waitFor();
  return room;
}

test('an admin closes a room and bans a player; the player\u2019s page says so', { timeout: 180_000 }, async () => {
  const base = env.server.base;
  const player = await newPage(env.browser, DESKTOP, { identity: true });
  await player.goto(`${base}/`);
  const name = await headerName(player);
  const first = await seated(player, base);

  // A second person in the room reports the first one from the room's menu.
  const witness = await newPage(env.browser, DESKTOP, { identity: true });
  await witness.goto(`${base}/r/${first}`);
  await witness.locator('[data-testid=join]:enabled').click();
  await witness.locator('[data-testid=you]').waitFor();
  await player.locator('#chat-input').fill('everyone here is an idiot');
  await player.locator('#chat-input').press('Enter');
  await witness.locator('[data-testid=chat-log]').filter({ hasText: 'everyone here is an idiot' }).waitFor();
  await witness.locator('[data-testid=report]').click();
  const dialog = witness.locator('dialog[data-testid=report-dialog]');
  await dialog.waitFor();
  await dialog.getByLabel('Player', { exact: true }).selectOption(name);
  await dialog.getByLabel('What happened', { exact: true }).selectOption('chat');
  await dialog.getByLabel('In a few words (optional)', { exact: true }).fill('insults in the chat');
  await dialog.locator('[data-testid=report-send]').click();
  await dialog.waitFor({ state: 'detached' });

  // The admin signs in and opens the console.
  // axe-core is injected as a script, which the server's Content-Security-Policy refuses.
  const admin = await newPage(env.browser, { ...DESKTOP, bypassCSP: true }, { identity: true });
  await admin.goto(`${base}/`);
  await headerName(admin);
  const login = await admin.evaluate(async (password) => {
    const r = await fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'boss', password }) });
    return r.status;
  }, PASSWORD);
  assert.equal(login, 200);
  await admin.goto(`${base}/admin`);
  await admin.locator('[data-testid=admin]').waitFor();
  const row = admin.locator(`[data-testid=admin-room][data-room="${first}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), new RegExp(name));
  assert.equal(await row.getByRole('link', { name: `Watch room ${first}` }).getAttribute('href'), `/r/${first}`);
  // The report is there, with the chat line the room had.
  const report = admin.locator('[data-testid=admin-report]').first();
  await report.waitFor();
  assert.match(await report.textContent(), /insults in the chat/);
  await report.locator('summary').click();
  assert.match(await report.locator('.admin-chat').textContent(), /everyone here is an idiot/);
  const problems = await axeProblems(admin, 'admin console');
  assert.deepEqual(problems, [], 'the console passes axe');
  await shot(admin, 'admin-console');

  // Close the room with a message: the player's page says so, and does not reconnect.
  await row.getByLabel(`Message to the players of room ${first}`).fill('This room is closed: please keep the chat friendly.');
  await row.locator('[data-testid=close-room]').click();
  const closed = player.locator('[data-testid=room-closed]');
  await closed.waitFor({ timeout: 10_000 });
  assert.match(await closed.textContent(), /please keep the chat friendly/);
  await admin.locator('[data-testid=admin-status]').filter({ hasText: `Room ${first} is closed` }).waitFor();

  // In another room, the player is banned for a day: the page says so, with the ban's end.
  await seated(player, base);
  await admin.getByLabel('Name contains').fill(name);
  await admin.locator('[data-testid=people-search]').click();
  const person = admin.locator(`[data-testid=admin-person][data-name="${name}"]`);
  await person.waitFor();
  await person.getByLabel(`Why ban ${name}`).fill('abuse in the chat');
  await person.getByLabel('For', { exact: true }).selectOption('1440');
  await person.locator('[data-testid=ban]').click();
  const banned = player.locator('[data-testid=banned]');
  await banned.waitFor({ timeout: 10_000 });
  const text = await banned.textContent();
  assert.match(text, /You are banned/);
  assert.match(text, /banned until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC: abuse in the chat/);
  assert.match(text, /The ban ends on /);
  await shot(player, 'admin-banned-player');
  // Banned above every page after a reload, and no new identity.
  await player.reload();
  await player.locator('[data-testid=banned]').first().waitFor();
  assert.match(await player.locator('[data-testid=banned]').first().textContent(), /abuse in the chat/);
  assert.equal(await player.locator('[data-testid=account-name]').count(), 0, 'the banned person gets no identity');
  await person.locator('[data-testid=ban-status]').filter({ hasText: 'banned until' }).waitFor();

  // The log has both actions, by the admin, with why.
  await admin.reload();
  const log = admin.locator('[data-testid=admin-log]');
  await log.waitFor();
  const rows = await log.locator('[data-testid=log-row]').evaluateAll((els) => els.map((e) => ({ action: e.dataset.action, text: e.textContent })));
  assert.deepEqual(rows.slice(0, 2).map((r) => r.action), ['ban', 'close_room']);
  assert.match(rows[0].text, /boss.*abuse in the chat/);
  assert.match(rows[1].text, /please keep the chat friendly/);

  // Not for a non-admin: the witness sees the refusal, and the API answers 403.
  await witness.goto(`${base}/admin`);
  await witness.locator('[data-testid=admin-refused]').waitFor();
  const status = await witness.evaluate(async () => (await fetch('/api/admin/rooms')).status);
  assert.equal(status, 403);

  assert.deepEqual(player.errors.filter((e) => !/403|Forbidden/.test(e)), []);
  assert.deepEqual(admin.errors, []);
});
