// People (issue 42) in the browser: an identity from the first visit, accounts, sign-in,
// profiles and passkeys, against the real server and Debian's Chromium.
//
// 1. A newcomer gets a guest name without a form, creates a Buckshot room from the lobby (no
//    name field), plays it to the end against a bot, signs up (the forms' errors are shown
//    next to their fields, every field has a <label for>) and finds that match on
//    /u/<name>, with the bot's level, the result and a working replay link; exports the data.
// 2. The same account signs in on a second browser context (a wrong password first: one
//    answer for a wrong name or password), joins a room by its button alone, and signs out
//    everywhere: the first context is signed out (its cookie answers 401, and a reload makes
//    it a new guest).
// 3. A passkey registered with Chromium's virtual authenticator (CDP WebAuthn) signs in after
//    signing out.
// 4. A guest changes its name once; a member changes its password (the current one checked)
//    and deletes its account (with the new password): the profile is gone.
// 5. Without an identity (the API failing) the page asks for a name, as before.
//
// WebAuthn refuses an IP address as the relying party, so the pages open the server at
// http://localhost:PORT (Chromium resolves localhost to the 127.0.0.1 the server listens on).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { startServer, newPage, createRoom, joinRoom, syncCount, waitSync, shot, CHROMIUM_ARGS, DESKTOP, PHONE } from './helpers.js';

const env = { server: null, browser: null, base: null };
before(async () => {
  env.server = await startServer();
  env.base = env.server.base.replace('://127.0.0.1:', '://localhost:');
  env.browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP localhost 127.0.0.1'],
  });
});
after(async () => {
  await env.browser?.close();
  await env.server?.stop();
});

const GUEST = /^guest-\d{4,5}$/;

/** The name the header shows, once the page has its identity. */
async function headerName(page) {
  const el = page.locator('[data-testid=account-name]');
  await el.waitFor({ timeout: 10_000 });
  return (await el.textContent()).trim();
}

/** Waits until the header names `name` (a page reload after a sign-in or sign-out). */
async function waitHeaderName(page, name, timeout = 10_000) {
  await page.waitForFunction((n) => {
    const t = document.querySelector('[data-testid=account-name]')?.textContent?.trim();
    return t === n;
  }, name, { timeout });
}

async function waitGuest(page, notName, timeout = 10_000) {
  await page.waitForFunction((not) => {
    const t = document.querySelector('[data-testid=account-name]')?.textContent?.trim() ?? '';
    return /^guest-\d{4,5}$/.test(t) && t !== not;
  }, notName, { timeout });
}

/** Opens the account menu and picks an item (by its test id). */
async function menu(page, item) {
  const button = page.locator('[data-testid=account-button]');
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  await page.locator(`[data-testid=account-menu] [data-testid=${item}]`).click();
}

/** Every input in the open dialog has a real <label for> with text. */
async function assertLabelled(dialog) {
  const labels = await dialog.locator('input').evaluateAll((els) => els.map((e) => ({ id: e.id, labels: [...e.labels].map((l) => l.textContent.trim()) })));
  assert.ok(labels.length > 0, 'the form has fields');
  for (const l of labels) assert.ok(l.labels.length === 1 && l.labels[0].length > 0, `field ${l.id} has a <label for>: ${JSON.stringify(l)}`);
}

/** Fills and submits a dialog's form; resolves to its error line's text ('' if none shows). */
async function submitDialog(page, testid, values, { expectError = false } = {}) {
  const dialog = page.locator(`dialog[data-testid=${testid}]`);
  await dialog.waitFor();
  if (Object.keys(values).length) await assertLabelled(dialog);
  for (const [label, value] of Object.entries(values)) await dialog.getByLabel(label, { exact: true }).fill(value);
  await dialog.locator('[data-testid=dialog-submit]').click();
  if (!expectError) return '';
  const err = dialog.locator('[data-testid=account-error]');
  await page.waitForFunction((el) => el.textContent.trim().length > 0, await err.elementHandle(), { timeout: 10_000 });
  return (await err.textContent()).trim();
}

/** Plays Buckshot on `page` (shots only) until the end screen shows; the end screen's match id. */
async function playToEnd(page) {
  const end = page.locator('[data-testid=end-screen]');
  let steps = 0;
  while (!(await end.isVisible())) {
    assert.ok(steps++ < 600, 'the game ends');
    const shots = page.locator('[data-testid=actions][data-my-turn=true] [data-testid=shoot]:enabled');
    if (await shots.count()) {
      const before = await syncCount(page);
      // Aim at the bot when that is offered (a game ends sooner), else anywhere.
      const other = page.locator('[data-testid=actions][data-my-turn=true] [data-testid=shoot]:enabled:not(.shoot-self)');
      const target = (await other.count()) ? other.first() : shots.first();
      // The table may move on under the click (the bot's turn): look again rather than wait.
      await target.click({ timeout: 1_500 }).catch(() => {});
      await waitSync(page, before, 3_000);
    } else {
      await page.waitForTimeout(150);
    }
  }
  return Number(await end.getAttribute('data-match'));
}

let member = null; // { name, password, match, room, page } from the first test

test('a newcomer plays with no form, signs up, and finds the match on the profile', { timeout: 240_000 }, async () => {
  const page = await newPage(env.browser, DESKTOP, { identity: true });
  await page.goto(`${env.base}/`);
  const guest = await headerName(page);
  assert.match(guest, GUEST, 'a newcomer is a guest at once');
  assert.equal(await page.locator('#lobby-username').count(), 0, 'the lobby asks no name');
  assert.match(await page.locator('[data-testid=lobby-you]').textContent(), new RegExp(`You play as ${guest}`));
  // The same identity after a reload (the cookie), not a new guest.
  await page.reload();
  assert.equal(await headerName(page), guest, 'a reload keeps the guest');

  // A Buckshot room from the lobby: created and joined under the guest's name, no form.
  await page.locator('#lobby-game').selectOption('buckshot');
  await page.getByRole('button', { name: 'Create room' }).click();
  await page.waitForURL(/\/r\/[a-z0-9]+$/);
  const room = new URL(page.url()).pathname.split('/').pop();
  await page.locator('[data-testid=you]').filter({ hasText: guest }).waitFor();
  assert.equal(await page.locator('#join-username').count(), 0);
  await page.locator('[data-testid=add-bot]').click();
  await page.locator('.table-root .pcard').nth(1).waitFor();
  await page.locator('[data-testid=start]:enabled').click();
  await page.locator('[data-testid=actions]').first().waitFor({ timeout: 15_000 });
  const match = await playToEnd(page);
  assert.ok(match > 0, 'the end screen names its match');
  const won = /^You win/.test((await page.locator('[data-testid=end-screen] [data-testid=winner]').textContent()).trim());
  await shot(page, 'accounts-01-guest-end');

  // Sign up: the server's errors show in the form, next to the fields.
  await menu(page, 'menu-signup');
  let err = await submitDialog(page, 'signup-dialog', { Name: 'anabel', Password: 'short' }, { expectError: true });
  assert.match(err, /8/, `a short password is refused in the form: ${err}`);
  await page.locator('dialog[data-testid=signup-dialog] [data-testid=dialog-cancel]').click();
  await menu(page, 'menu-signup');
  err = await submitDialog(page, 'signup-dialog', { Name: 'admin', Password: 'a long enough password' }, { expectError: true });
  assert.match(err, /reserved/i, `a reserved name is refused in the form: ${err}`);
  await shot(page, 'accounts-02-signup-error');
  await page.locator('dialog[data-testid=signup-dialog]').getByLabel('Name', { exact: true }).fill('anabel');
  await page.locator('dialog[data-testid=signup-dialog] [data-testid=dialog-submit]').click();
  await waitHeaderName(page, 'anabel');
  const me = await page.evaluate(() => fetch('/api/me').then((r) => r.json()));
  assert.equal(me.name, 'anabel');
  assert.equal(me.guest, false);

  // The profile, from the menu: the guest's match is the member's.
  await menu(page, 'menu-profile');
  await page.waitForURL(/\/u\/anabel$/);
  const row = page.locator(`[data-testid=profile-match][data-match="${match}"]`);
  await row.waitFor();
  assert.equal(await page.locator('[data-testid=profile-name]').textContent(), 'anabel');
  assert.match(await row.textContent(), /Buckshot/);
  assert.match(await row.locator('[data-testid=opponent]').textContent(), /^bot-\w+ \(bot · Medium\)$/);
  assert.equal(await row.locator('[data-testid=result]').textContent(), won ? 'Won' : 'Lost');
  const games = page.locator('[data-testid=profile-games] tr[data-game=buckshot]');
  assert.equal(await games.locator('[data-testid=played]').textContent(), '1');
  assert.equal(await games.locator('[data-testid=won]').textContent(), won ? '1' : '0');
  assert.equal(await row.locator('[data-testid=profile-replay]').getAttribute('href'), `/replay/${match}?room=${room}`);
  await shot(page, 'accounts-03-profile');
  await row.locator('[data-testid=profile-replay]').click();
  await page.locator('[data-testid=replay-counter]').waitFor();
  assert.match(await page.locator('[data-testid=replay-counter]').textContent(), /^Move (\d+) of \1$/);

  // Nobody by a name: said plainly.
  await page.goto(`${env.base}/u/nobody-here`);
  await page.locator('[data-testid=profile-missing]').waitFor();
  assert.match(await page.locator('[data-testid=profile-missing] h1').textContent(), /^Nobody is called nobody-here$/);

  // Export: a JSON download of everything of the account's own.
  await page.goto(`${env.base}/`);
  await headerName(page);
  const [download] = await Promise.all([page.waitForEvent('download'), menu(page, 'menu-export')]);
  const data = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.equal(data.account?.name, 'anabel');
  assert.ok(JSON.stringify(data).includes(`"id":${match}`), 'the export holds the match');

  assert.deepEqual(page.errors, []);
  member = { name: 'anabel', password: 'a long enough password', match, room, page };
});

test('sign in on a second browser, then sign out everywhere signs the first out', { timeout: 120_000 }, async () => {
  assert.ok(member, 'the first test made a member');
  const first = member.page;
  const second = await newPage(env.browser, PHONE, { identity: true });
  await second.goto(`${env.base}/`);
  const guest = await headerName(second);
  assert.match(guest, GUEST);

  // A room's join form asks nothing: one button, and the room seats the guest by its name.
  const room = await createRoom(env.server.base, { game: 'buckshot' });
  await second.goto(`${env.base}/r/${room}`);
  await second.locator('[data-testid=join]:enabled').click();
  await second.locator('[data-testid=you]').filter({ hasText: guest }).waitFor();
  assert.equal(await second.locator('#join-username').count(), 0);

  // Sign in (from the lobby): a wrong password, then a wrong name, get the one answer; then
  // the right one.
  await second.goto(`${env.base}/`);
  await headerName(second);
  await menu(second, 'menu-signin');
  const wrongPw = await submitDialog(second, 'signin-dialog', { Name: member.name, Password: 'not the password' }, { expectError: true });
  assert.match(wrongPw, /wrong name or password/i);
  const dialog = second.locator('dialog[data-testid=signin-dialog]');
  await dialog.getByLabel('Name', { exact: true }).fill('nobody-at-all');
  await dialog.locator('[data-testid=dialog-submit]').click();
  await second.waitForFunction((el) => !el.querySelector('[data-testid=dialog-submit]').disabled, await dialog.elementHandle());
  assert.equal((await dialog.locator('[data-testid=account-error]').textContent()).trim(), wrongPw, 'a wrong name reads as a wrong password');
  await dialog.getByLabel('Name', { exact: true }).fill(member.name);
  await dialog.getByLabel('Password', { exact: true }).fill(member.password);
  await dialog.locator('[data-testid=dialog-submit]').click();
  await waitHeaderName(second, member.name);
  assert.match(await second.locator('[data-testid=lobby-you]').textContent(), new RegExp(`You play as ${member.name}`));
  await shot(second, 'accounts-04-signed-in-phone');

  // Both contexts are the member now.
  await first.goto(`${env.base}/`);
  assert.equal(await headerName(first), member.name);

  // Sign out everywhere, from the second: the first's session is gone too.
  await menu(second, 'menu-signout-all');
  await waitGuest(second, guest);
  const status = await first.evaluate(() => fetch('/api/me', { cache: 'no-store' }).then((r) => r.status));
  assert.equal(status, 401, "the first context's session was revoked");
  await first.reload();
  await waitGuest(first, member.name);
  const after = await headerName(first);
  assert.match(after, GUEST, 'after a reload the first context is a new guest');
  await first.locator('[data-testid=account-button]').click();
  assert.equal(await first.locator('[data-testid=menu-signup]').count(), 1, 'the menu offers to sign up (signed out)');
  assert.equal(await first.locator('[data-testid=menu-signout]').count(), 0);

  assert.deepEqual(first.errors, []);
  assert.deepEqual(second.errors, []);
  await first.context().close();
  await second.context().close();
});

test('a passkey made with the virtual authenticator signs in after signing out', { timeout: 120_000 }, async () => {
  const page = await newPage(env.browser, DESKTOP, { identity: true });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  await page.goto(`${env.base}/`);
  assert.match(await headerName(page), GUEST);
  assert.ok(await page.evaluate(() => typeof window.PublicKeyCredential === 'function'), 'this page can use passkeys');

  await menu(page, 'menu-signup');
  await submitDialog(page, 'signup-dialog', { Name: 'pia', Password: 'correct horse battery' });
  await waitHeaderName(page, 'pia');

  // Add a passkey: the authenticator now holds a discoverable credential for the site.
  await menu(page, 'menu-passkey-add');
  await submitDialog(page, 'passkey-add-dialog', {});
  await page.locator('[data-testid=account-notice]').filter({ hasText: 'Passkey added' }).waitFor({ timeout: 10_000 });
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  assert.equal(credentials.length, 1, 'one credential in the authenticator');
  assert.equal(credentials[0].isResidentCredential, true);
  assert.equal(credentials[0].rpId, 'localhost');
  assert.equal((await page.evaluate(() => fetch('/api/me').then((r) => r.json()))).passkeys, 1);

  // Sign out: a new guest. Then the passkey signs pia in, no name or password typed.
  await menu(page, 'menu-signout');
  await waitGuest(page, 'pia');
  await menu(page, 'menu-passkey-signin');
  await submitDialog(page, 'passkey-signin-dialog', {});
  await waitHeaderName(page, 'pia');
  const me = await page.evaluate(() => fetch('/api/me').then((r) => r.json()));
  assert.equal(me.name, 'pia');
  assert.equal(me.guest, false);
  const { credentials: after } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  assert.ok(after[0].signCount >= 1, 'the authenticator signed a sign-in');
  await shot(page, 'accounts-05-passkey');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a guest renames once; a member changes its password, then deletes its account', { timeout: 60_000 }, async () => {
  const page = await newPage(env.browser, DESKTOP, { identity: true });
  await page.goto(`${env.base}/`);
  await headerName(page);
  // A guest changes its name once: the menu then no longer offers it.
  await menu(page, 'menu-rename');
  await submitDialog(page, 'rename-dialog', { 'New name': 'dora-guest' });
  await waitHeaderName(page, 'dora-guest');
  await page.locator('[data-testid=account-button]').click();
  assert.equal(await page.locator('[data-testid=menu-rename]').count(), 0, 'a guest renames once');
  await menu(page, 'menu-signup');
  await submitDialog(page, 'signup-dialog', { Name: 'dora', Password: 'dora password 1' });
  await waitHeaderName(page, 'dora');
  assert.equal((await page.evaluate(() => fetch('/api/users/dora').then((r) => r.status))), 200);

  // Change password: the current one is checked.
  await menu(page, 'menu-password');
  let err = await submitDialog(page, 'password-dialog', { 'Current password': 'not the one', 'New password': 'dora password 2' }, { expectError: true });
  assert.match(err, /wrong password/i);
  const pw = page.locator('dialog[data-testid=password-dialog]');
  await pw.getByLabel('Current password', { exact: true }).fill('dora password 1');
  await pw.locator('[data-testid=dialog-submit]').click();
  await page.locator('[data-testid=account-notice]').filter({ hasText: 'Password changed' }).waitFor();

  await menu(page, 'menu-delete');
  err = await submitDialog(page, 'delete-dialog', { 'Your password': 'dora password 1' }, { expectError: true });
  assert.match(err, /wrong password/i, 'the old password no longer works');
  const dialog = page.locator('dialog[data-testid=delete-dialog]');
  await dialog.getByLabel('Your password', { exact: true }).fill('dora password 2');
  await dialog.locator('[data-testid=dialog-submit]').click();
  await waitGuest(page, 'dora');
  await page.goto(`${env.base}/u/dora`);
  await page.locator('[data-testid=profile-missing]').waitFor();
  assert.match(await page.locator('[data-testid=profile-missing] h1').textContent(), /Nobody is called dora/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('without an identity (the API failing) the page asks for a name, as before', { timeout: 60_000 }, async () => {
  // newPage's default: the identity API answers 503 to this context.
  const page = await newPage(env.browser, DESKTOP);
  await page.goto(`${env.base}/`);
  await page.locator('#lobby-username').waitFor();
  assert.equal(await page.locator('[data-testid=account-button]').count(), 0, 'no account menu without an identity');
  const room = await createRoom(env.server.base, { game: 'buckshot' });
  await joinRoom(page, env.base, room, 'zed');
  assert.equal(await page.locator('label[for=join-username]').count(), 0, 'joined: the form is gone');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
