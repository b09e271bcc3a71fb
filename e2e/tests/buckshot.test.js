// Buckshot in the browser, end to end: the real server, Debian's Chromium, one browser
// context per person.
//
// 1. Lobby: create a room from the lobby page, see it listed, add and remove a bot, survive a
//    reload, then play a whole game against bots using the keyboard only.
// 2. A table of three: alice, bob and carol join by link, chat (markup in a message stays
//    text), alice starts, dave joins mid-game as a spectator and can chat but not act, bob
//    reloads mid-game and keeps his seat, a chamber check is shown to its user alone, they
//    play to the end, everyone sees the winner, alice leaves and bob becomes host.
// Screenshots go to e2e/artifacts/ (desktop 1280 px wide; carol and dave on a 390 px phone).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, startServer, newPage, createRoom, listRooms, joinRoom, shot, syncCount,
  waitSync, rng, pick, sleep, overflowX, DESKTOP, PHONE,
} from './helpers.js';

// The server and the browser, started before this file's tests and stopped after them.
const env = serverAndBrowser();
let pickerShot = false;

const youLine = (page) => page.locator('[data-testid=you]');
// The live table's cards (the end screen draws the final table's too).
const card = (page, name) => page.locator(`.table-root .pcard[data-player="${name}"]`);
const myTurnPanel = (page) => page.locator('[data-testid=actions][data-my-turn=true]');
const winner = (page) => page.locator('[data-testid=winner]');

/**
 * Plays one step for the page whose turn it is: sometimes an item (through its pickers),
 * otherwise a shot. `keyboard`: press Enter on focused buttons instead of clicking.
 * Returns what was done.
 */
async function playStep(page, r, { keyboard = false, preferItem = null } = {}) {
  const press = async (loc) => {
    if (keyboard) { await loc.focus(); await page.keyboard.press('Enter'); } else await loc.click();
  };
  const before = await syncCount(page);
  const items = page.locator('[data-testid=actions] [data-testid=item]:enabled');
  const n = await items.count();
  let used = null;
  const preferred = preferItem ? page.locator(`[data-testid=actions] [data-testid=item][data-item=${preferItem}]:enabled`) : null;
  if (preferred && await preferred.count()) {
    used = preferItem;
    await press(preferred.first());
  } else if (n && r() < 0.45) {
    const b = items.nth(Math.floor(r() * n));
    used = await b.getAttribute('data-item');
    await press(b);
  }
  if (used) {
    // Work through the target pickers (Steal can take three steps).
    for (let i = 0; i < 4; i++) {
      const picker = page.locator('[data-testid=picker]');
      if (!(await picker.count())) break;
      if (!pickerShot) { pickerShot = true; await shot(page, '19-item-picker'); }
      const choices = picker.locator('[data-testid=pick]:enabled');
      const k = await choices.count();
      if (!k) { await press(picker.locator('.pick-cancel')); used = null; break; }
      await press(choices.nth(Math.floor(r() * k)));
    }
  }
  if (!used) {
    const shots = page.locator('[data-testid=actions] [data-testid=shoot]:enabled');
    const k = await shots.count();
    if (!k) return null;
    const targets = [];
    for (let i = 0; i < k; i++) targets.push(shots.nth(i));
    const others = [];
    for (const t of targets) if (!(await t.getAttribute('class')).includes('shoot-self')) others.push(t);
    const target = others.length && r() < 0.75 ? pick(r, others) : pick(r, targets);
    used = `shoot ${await target.getAttribute('data-target')}`;
    await press(target);
  }
  await waitSync(page, before);
  return used;
}

test('lobby: create a room, bots, reload, and a keyboard-only game against bots', async () => {
  const page = await newPage(env.browser, DESKTOP);
  await page.goto(`${env.server.base}/`);
  await page.locator('#lobby-username').fill('zoe');
  await page.locator('#lobby-game').selectOption('buckshot');
  await shot(page, '01-lobby-desktop');
  await page.getByRole('button', { name: 'Create room' }).click();
  await page.waitForURL(/\/r\/[a-z0-9]+$/);
  const roomId = new URL(page.url()).pathname.split('/').pop();
  await youLine(page).filter({ hasText: 'zoe' }).waitFor();
  await assert.doesNotReject(youLine(page).filter({ hasText: '(host)' }).waitFor({ timeout: 3000 }));

  // The room is listed, with its player, and the lobby page shows it.
  const rooms = await listRooms(env.server.base);
  assert.deepEqual(rooms.find((x) => x.id === roomId)?.players, ['zoe']);
  const other = await newPage(env.browser, PHONE);
  await other.goto(`${env.server.base}/`);
  await other.locator(`.room-item[data-room="${roomId}"]`).waitFor();
  assert.match(await other.locator(`.room-item[data-room="${roomId}"]`).innerText(), /zoe/);
  await shot(other, '02-lobby-phone');
  assert.ok(await overflowX(other) <= 0, 'the lobby fits a phone screen');
  await other.context().close();

  // Host controls: add two bots, remove one.
  await page.locator('[data-testid=add-bot]').click();
  await card(page, 'bot-ana').waitFor();
  await page.locator('[data-testid=add-bot]').click();
  await card(page, 'bot-ben').waitFor();
  await page.locator('#bot-remove').selectOption('bot-ana');
  await page.locator('[data-testid=remove-bot]').click();
  await card(page, 'bot-ana').waitFor({ state: 'detached' });
  assert.equal(await page.locator('.table-root .pcard').count(), 2);

  // A reload in the lobby keeps zoe in the room (the server drops lobby members who
  // disconnect, so the client joins again under the same name).
  await page.reload();
  await youLine(page).filter({ hasText: 'zoe' }).waitFor();
  await card(page, 'bot-ben').waitFor();
  await page.locator('[data-testid=add-bot]').click();
  await page.locator('.table-root .pcard').nth(2).waitFor();

  // This room's bots wait 700 ms a move; a new room with quick bots for the game itself.
  const fast = await createRoom(env.server.base, { seed: 11, botDelayMs: 30 });
  await joinRoom(page, env.server.base, fast, 'zoe');
  await page.locator('[data-testid=add-bot]').click();
  await card(page, 'bot-ana').waitFor();
  await page.locator('[data-testid=add-bot]').click();
  await card(page, 'bot-ben').waitFor();
  // Start with the keyboard.
  await page.locator('[data-testid=start]').focus();
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=status]').waitFor();
  const r = rng(5);
  let steps = 0;
  while (!(await winner(page).isVisible())) {
    assert.ok(steps++ < 400, 'the game ends');
    if (await myTurnPanel(page).count()) {
      await playStep(page, r, { keyboard: true });
      // Keyboard focus stays on the table while zoe plays (never dropped to the page top).
      // Read in one evaluation: the room's next table may replace the controls between two
      // separate reads (a bot's move ends zoe's turn), and then there is nothing to hold.
      const focus = await page.evaluate(() => ({
        acting: !!document.querySelector('[data-testid=actions]'),
        onTable: !!document.activeElement?.closest('.table'),
      }));
      if (focus.acting) assert.ok(focus.onTable, 'focus stays on the table');
    } else await sleep(40);
  }
  const text = await winner(page).innerText();
  assert.match(text, /(You|bot-ana|bot-ben) wins?!/);
  await shot(page, '03-bots-game-over');
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.failures, [], 'no action the page offered was refused');
  await page.context().close();
});

test('three players, a spectator, chat, reconnect, a whole game, host hand-over', async () => {
  const roomId = await createRoom(env.server.base, { seed: 7, botDelayMs: 50 });
  const alice = await newPage(env.browser, DESKTOP);
  const bob = await newPage(env.browser, DESKTOP);
  const carol = await newPage(env.browser, PHONE);
  await joinRoom(alice, env.server.base, roomId, 'alice');
  await joinRoom(bob, env.server.base, roomId, 'bob');
  await joinRoom(carol, env.server.base, roomId, 'carol');
  const players = [alice, bob, carol];

  // Everyone sees three cards; alice is the host, and only she has host controls.
  for (const p of players) {
    await p.locator('.table-root .pcard').nth(2).waitFor();
    assert.equal(await p.locator('.table-root .pcard').count(), 3);
    await card(p, 'alice').locator('.badge-host').waitFor();
  }
  assert.ok(await alice.locator('.host-panel').isVisible());
  assert.ok(!(await bob.locator('.host-panel').isVisible()));
  assert.equal(await bob.locator('[data-testid=start]').count(), 0);

  // Taken names are refused.
  const dup = await newPage(env.browser, DESKTOP);
  await dup.goto(`${env.server.base}/r/${roomId}`);
  await dup.locator('.join-form button[type=submit]:enabled').waitFor();
  await dup.locator('#join-username').fill('Bob');
  await dup.locator('#join-username').press('Enter');
  await dup.locator('.join-form .form-error').filter({ hasText: 'taken' }).waitFor();
  await dup.context().close();

  // Chat, including a message that looks like markup: it must stay text.
  const evil = '<img src=x onerror="window.__pwned=1"><b>bold?</b>';
  await bob.locator('#chat-input').fill('hello from bob');
  await bob.locator('#chat-input').press('Enter');
  await carol.locator('#chat-input').fill(evil);
  await carol.getByRole('button', { name: 'Send' }).click();
  for (const p of players) {
    await p.locator('.chat-item').filter({ hasText: 'hello from bob' }).waitFor();
    const last = p.locator('.chat-item').filter({ hasText: 'bold?' });
    await last.waitFor();
    assert.equal(await last.locator('.chat-text').textContent(), evil);
    assert.equal(await p.locator('.chat-list img, .chat-list b').count(), 0);
    assert.equal(await p.evaluate(() => window.__pwned), undefined);
  }
  await shot(alice, '10-room-lobby-desktop');
  await shot(carol, '11-room-lobby-phone');

  // alice starts.
  await alice.locator('[data-testid=start]').click();
  for (const p of players) await p.locator('[data-testid=status]').waitFor();
  for (const p of players) await p.locator('[data-testid=actions]').waitFor();
  // Exactly one player has the turn, and every page agrees who.
  const turnName = await alice.locator('.table-root .pcard.is-turn').getAttribute('data-player');
  for (const p of players) {
    assert.equal(await p.locator('.table-root .pcard.is-turn').count(), 1);
    assert.equal(await p.locator('.table-root .pcard.is-turn').getAttribute('data-player'), turnName);
    assert.equal(await p.locator('.table-root .pcard.is-next').count(), 1);
  }
  assert.equal(await myTurnPanel({ alice, bob, carol }[turnName]).count(), 1);

  // dave joins mid-game (phone): a spectator who sees the table and chat but cannot act.
  const dave = await newPage(env.browser, PHONE);
  await joinRoom(dave, env.server.base, roomId, 'dave');
  await dave.locator('[data-testid=watching]').waitFor();
  assert.equal(await dave.locator('[data-testid=actions]').count(), 0);
  assert.equal(await dave.locator('[data-testid=shoot], [data-testid=item]').count(), 0);
  await card(dave, 'alice').waitFor();
  // A spectator is named in the "Watching" line, not drawn as a player card with empty hearts.
  await alice.locator('[data-testid=watchers]').filter({ hasText: 'dave' }).waitFor();
  assert.equal(await card(alice, 'dave').count(), 0, 'no player card for a spectator');
  await dave.locator('#chat-input').fill('just watching');
  await dave.locator('#chat-input').press('Enter');
  for (const p of players) await p.locator('.chat-item').filter({ hasText: 'just watching' }).waitFor();
  await shot(dave, '12-spectator-phone');
  assert.ok(await overflowX(dave) <= 0, 'the table fits a phone screen');

  const all = { alice, bob, carol, dave };
  const r = rng(7);
  let steps = 0;
  let reloaded = false;
  let checkSeen = false;
  let shotMid = false;
  const done = new Set();
  while (!(await winner(alice).isVisible())) {
    assert.ok(steps < 600, 'the game ends within 600 steps');
    let acted = false;
    for (const [name, p] of Object.entries({ alice, bob, carol })) {
      if (!(await myTurnPanel(p).count())) continue;
      steps++;
      const did = await playStep(p, r, { preferItem: checkSeen ? null : 'chamberCheck' });
      if (did) done.add(did.split(' ')[0]);
      if (did === 'chamberCheck' && !checkSeen) {
        // The shell is shown to its user only.
        await p.locator('[data-testid=check-result]').waitFor();
        assert.match(await p.locator('[data-testid=check-result]').innerText(), /next shell is (LIVE|BLANK)/);
        for (const [other, q] of Object.entries(all)) {
          if (other === name) continue;
          assert.equal(await q.locator('[data-testid=check-result]').count(), 0, `${other} must not see ${name}'s check`);
        }
        assert.equal(await dave.locator('.log-private').count(), 0);
        await shot(p, `13-chamber-check-${name}`);
        checkSeen = true;
      }
      acted = true;
      break;
    }
    if (!acted) { await sleep(40); continue; }
    if (!shotMid && steps >= 3) {
      shotMid = true;
      await shot(alice, '14-midgame-desktop');
      await shot(carol, '15-midgame-phone');
      assert.ok(await overflowX(carol) <= 0, 'a player\'s table fits a phone screen');
    }
    if (!reloaded && steps >= 6) {
      // bob reloads: the token in sessionStorage reclaims his seat.
      reloaded = true;
      const lives = await card(alice, 'bob').getAttribute('data-lives');
      await bob.reload();
      await youLine(bob).filter({ hasText: 'bob' }).waitFor();
      await card(bob, 'bob').locator('.badge-you').waitFor();
      assert.equal(await card(bob, 'bob').getAttribute('data-lives'), lives);
      assert.equal(await card(alice, 'bob').locator('.badge-off').count(), 0);
    }
  }
  assert.ok(reloaded, 'bob reloaded mid-game');
  const w = (await winner(alice).innerText()).match(/^(You|\w+) wins?!/);
  assert.ok(w, 'a winner is shown');
  for (const p of Object.values(all)) await winner(p).waitFor();
  assert.match(await dave.locator('.log-list').innerText(), /wins the game!/);
  await shot(alice, '16-game-over-desktop');
  await shot(dave, '17-game-over-phone');
  console.log(`# game over after ${steps} steps; actions used: ${[...done].sort().join(', ')}; chamber check seen: ${checkSeen}`);

  // alice (the host) leaves; bob, the earliest-joined who remains, becomes host.
  await alice.getByRole('button', { name: 'Leave room' }).click();
  await alice.locator('#join-username').waitFor();
  for (const p of [bob, carol, dave]) {
    await card(p, 'alice').waitFor({ state: 'detached' });
    await card(p, 'bob').locator('.badge-host').waitFor();
  }
  await bob.locator('.host-panel [data-testid=start]').waitFor();
  assert.ok(!(await carol.locator('.host-panel').isVisible()));
  // bob hands the host role to carol.
  await bob.locator('#host-to').selectOption('carol');
  await bob.locator('[data-testid=give-host]').click();
  await card(dave, 'carol').locator('.badge-host').waitFor();
  await carol.locator('.host-panel [data-testid=start]').waitFor();
  await shot(carol, '18-new-host-phone');

  for (const [name, p] of Object.entries(all)) {
    assert.deepEqual(p.errors, [], `${name}: no page errors`);
    assert.deepEqual(p.failures, [], `${name}: no action the page offered was refused`);
  }
  for (const p of Object.values(all)) await p.context().close();
});

test('a server restart: the pages reconnect with their tokens and the game goes on', async () => {
  const roomId = await createRoom(env.server.base, { seed: 3, botDelayMs: 50 });
  const ann = await newPage(env.browser, DESKTOP);
  const ben = await newPage(env.browser, PHONE);
  await joinRoom(ann, env.server.base, roomId, 'ann');
  await joinRoom(ben, env.server.base, roomId, 'ben');
  await ann.locator('[data-testid=start]').click();
  await ann.locator('[data-testid=actions]').waitFor();
  await ben.locator('[data-testid=actions]').waitFor();
  const r = rng(3);
  // A few moves, so the restored game is not the initial one.
  for (let moves = 0; moves < 3 && !(await winner(ann).isVisible());) {
    const p = (await myTurnPanel(ann).count()) ? ann : (await myTurnPanel(ben).count()) ? ben : null;
    if (!p) { await sleep(40); continue; }
    await playStep(p, r);
    moves++;
  }
  assert.ok(!(await winner(ann).isVisible()), 'the game still runs after three moves (seed 3)');
  const turn = await ann.locator('[data-testid=status]').innerText();
  const lives = async (p) => [await card(p, 'ann').getAttribute('data-lives'), await card(p, 'ben').getAttribute('data-lives')];
  const before = await lives(ann);

  // Same address, same database.
  const addr = new URL(env.server.base).host;
  await env.server.stop({ keep: true });
  await ann.locator('#conn-status[data-state=closed]').waitFor();
  env.server = await startServer({ addr, dir: env.server.dir });
  for (const [name, p] of [['ann', ann], ['ben', ben]]) {
    await p.locator('#conn-status[data-state=open]').waitFor({ timeout: 20000 });
    await youLine(p).filter({ hasText: name }).waitFor();
    await p.locator('[data-testid=actions]').waitFor();
    assert.deepEqual(await lives(p), before);
    assert.equal(await p.locator('[data-testid=status]').innerText(), turn);
  }
  await card(ann, 'ben').waitFor();
  assert.equal(await card(ann, 'ben').locator('.badge-off').count(), 0, 'ben is back online');
  // The game goes on to its end.
  let steps = 0;
  while (!(await winner(ann).isVisible())) {
    assert.ok(steps < 400, 'the game ends');
    const p = (await myTurnPanel(ann).count()) ? ann : (await myTurnPanel(ben).count()) ? ben : null;
    if (!p) { await sleep(40); continue; }
    steps++;
    await playStep(p, r);
  }
  await winner(ben).waitFor();
  console.log(`# restart test: ${steps} steps after the restart`);
  for (const p of [ann, ben]) {
    assert.deepEqual(p.errors.filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED/.test(e)), []);
    assert.deepEqual(p.failures, []);
    await p.context().close();
  }
});

test("a disconnected player's turn: the others see its clock, then a stand-in bot plays it", async () => {
  const roomId = await createRoom(env.server.base, { seed: 5, botDelayMs: 50, turnSeconds: 3 });
  const ann = await newPage(env.browser, DESKTOP);
  const ben = await newPage(env.browser, DESKTOP);
  await joinRoom(ann, env.server.base, roomId, 'ann');
  await joinRoom(ben, env.server.base, roomId, 'ben');
  await ann.locator('[data-testid=start]').click();
  await ann.locator('[data-testid=status]').waitFor();
  const turnName = await ann.locator('.table-root .pcard.is-turn').getAttribute('data-player');
  const [gone, stays] = turnName === 'ann' ? [ann, ben] : [ben, ann];
  const status = await stays.locator('[data-testid=status]').innerText();
  await gone.context().close();
  await card(stays, turnName).locator('.badge-off').waitFor();
  const clock = stays.locator('[data-testid=clock]');
  await clock.filter({ hasText: `${turnName} has` }).waitFor();
  assert.match(await clock.innerText(), /has [0-3] s to act \(offline: a bot will stand in\)/);
  await shot(stays, '20-offline-turn-clock');
  // The stand-in moves within a few seconds.
  await stays.waitForFunction((before) => document.querySelector('[data-testid=status]')?.innerText !== before, status, { timeout: 10000 });
  assert.deepEqual(stays.errors, []);
  await stays.context().close();
});
