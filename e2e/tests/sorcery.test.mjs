// Sorcery in the browser, end to end: the real binary, Debian's Chromium.
//
// 1. A room: alice plays the heuristic bot to the end with clicks only (hand cards, targets
//    picked on the board, minion menus: attack, use ability, inspect); sam joins mid-game and
//    sees both boards and no hand; nothing the page offers is refused.
// 2. `cardtable sorcery -graphics`: the terminal game prints a URL; the page follows commands
//    typed on standard input (names, `play 1`, `end`); standard output is byte for byte what
//    the same game prints without -graphics.
// Screenshots go to e2e/artifacts/sorcery-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  serverAndBrowser, newPage, createRoom, joinRoom, shot, syncCount, waitSync, rng, serverBinary,
  PHONE,
} from './helpers.js';

// The server and the browser, started before this file's tests and stopped after them.
const env = serverAndBrowser();

const winner = (page) => page.locator('[data-testid=winner]');

/** One click-driven step for alice on her turn; returns what she did. */
async function step(page, r, shots) {
  const before = await syncCount(page);
  const clickTarget = async () => {
    const prompt = page.locator('[data-testid=prompt]');
    await prompt.waitFor({ timeout: 5000 });
    if (!shots.target) { shots.target = true; await shot(page, 'sorcery-02-choose-target'); }
    // Prefer the bot's side (its minions, its ritual, the bot itself).
    const theirs = page.locator('[data-testid=side][data-seat="1"] .is-target');
    const any = page.locator('.sorcery .is-target');
    await ((await theirs.count()) ? theirs.first() : any.first()).click();
  };
  const playable = page.locator('[data-testid=hand-card].can-play');
  const ready = page.locator('[data-testid=side][data-seat="0"] [data-testid=minion].can-act');
  if ((await playable.count()) && r() < 0.3) {
    await playable.first().click();
    if (await page.locator('[data-testid=prompt]').count()) await clickTarget();
    await waitSync(page, before);
    return 'play';
  }
  if (await ready.count()) {
    await ready.first().click();
    await page.locator('[data-testid=minion-menu]').waitFor();
    if (!shots.inspect) {
      shots.inspect = true;
      await page.locator('[data-testid=menu-inspect]').click();
      await page.locator('[data-testid=inspect]').waitFor();
      await shot(page, 'sorcery-03-inspect');
      await page.locator('[data-testid=inspect-close]').click();
      await ready.first().click();
      await page.locator('[data-testid=minion-menu]').waitFor();
    }
    const use = page.locator('[data-testid=menu-use]:enabled');
    if ((await use.count()) && r() < 0.5) {
      await use.click();
      if (await page.locator('[data-testid=prompt]').count()) await clickTarget();
      await waitSync(page, before);
      return 'use';
    }
    await page.locator('[data-testid=menu-attack]').click();
    await page.locator('[data-testid=prompt]').waitFor();
    // Mostly at the bot itself; sometimes at a minion.
    const face = page.locator('[data-testid=player].is-target');
    const minions = page.locator('[data-testid=minion].is-target');
    await ((await minions.count()) && r() < 0.3 ? minions.first() : face).click();
    await waitSync(page, before);
    return 'attack';
  }
  if (await playable.count()) {
    await playable.first().click();
    if (await page.locator('[data-testid=prompt]').count()) await clickTarget();
    await waitSync(page, before);
    return 'play';
  }
  await page.locator('[data-testid=end-turn]').click();
  await waitSync(page, before);
  return 'end';
}

test('a room: alice plays the heuristic bot to the end; a spectator sees no hands', async () => {
  const room = await createRoom(env.server.base, { game: 'sorcery', seed: 7, botDelayMs: 40 });
  const page = await newPage(env.browser);
  await joinRoom(page, env.server.base, room, 'alice');
  await page.locator('#bot-kind').selectOption('heuristic');
  await page.locator('[data-testid=add-bot]').click();
  await page.locator('[data-testid=start]:enabled').click();
  await page.locator('[data-testid=sorcery] [data-testid=side]').first().waitFor();
  await page.locator('[data-testid=hand-card]').first().waitFor();
  assert.equal(await page.locator('[data-testid=hand-card]').count(), 5, 'alice sees her 5 cards');
  assert.equal(await page.locator('[data-testid=player][data-seat="1"] [data-testid=hand-count]').textContent(), 'Hand 5');
  await shot(page, 'sorcery-01-start');

  const r = rng(7);
  const shots = {};
  const done = { play: 0, use: 0, attack: 0, end: 0 };
  let spectator = null;
  for (let i = 0; i < 1500; i++) {
    if (await winner(page).isVisible()) break;
    const end = page.locator('[data-testid=end-turn]');
    if (!(await end.isVisible())) { await page.waitForTimeout(60); continue; }
    done[await step(page, r, shots)] += 1;
    // The bot's hand never reaches alice's page: only her own cards are drawn.
    assert.ok(await page.locator('[data-testid=hand-card]').count() <= 5);
    assert.equal(await page.locator('[data-testid=side][data-seat="1"] [data-testid=hand-card]').count(), 0);
    if (!spectator && done.end === 3) {
      spectator = await newPage(env.browser, PHONE);
      await joinRoom(spectator, env.server.base, room, 'sam');
      await spectator.locator('[data-testid=sorcery] [data-testid=side]').nth(1).waitFor();
      assert.equal(await spectator.locator('[data-testid=side]').count(), 2, 'both boards');
      assert.equal(await spectator.locator('[data-testid=hand-card]').count(), 0, 'no hand');
      assert.equal(await spectator.locator('[data-testid=end-turn]').count(), 0, 'no moves');
      await shot(spectator, 'sorcery-04-spectator-phone');
    }
  }
  await winner(page).waitFor({ timeout: 10000 });
  const text = await winner(page).textContent();
  console.log(`sorcery room game over: ${text}; alice ${JSON.stringify(done)}`);
  assert.ok(done.play > 3 && done.attack > 0 && done.end > 3, JSON.stringify(done));
  assert.ok(shots.target && shots.inspect, 'targets were picked and a minion inspected');
  await shot(page, 'sorcery-05-game-over');
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.failures, [], 'no action the page offered was refused');
  if (spectator) {
    assert.equal(await spectator.locator('[data-testid=winner]').textContent(), text);
    assert.deepEqual(spectator.errors, []);
    await spectator.context().close();
  }
  await page.context().close();
});

/** Runs `cardtable sorcery ARGS` in `dir`; returns the child with `out` and `err` buffers. */
function runSorcery(args, dir) {
  const child = spawn(serverBinary(), ['sorcery', ...args], {
    cwd: dir, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, CARDTABLE_NO_BROWSER: '1' },
  });
  child.out = '';
  child.err = '';
  child.stdout.on('data', (d) => { child.out += d; });
  child.stderr.on('data', (d) => { child.err += d; });
  child.done = new Promise((resolve) => child.on('exit', resolve));
  return child;
}

async function until(what, fn, ms = 10000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('-graphics: the page follows moves typed on standard input', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cardtable-sorcery-'));
  const args = ['-graphics', '-seed', '1', '-testing'];
  const typed = ['Alice', 'Bob', 'play 1', 'end', 'play 2'];
  const game = runSorcery(args, dir);
  try {
    const url = await until('the URL', () => game.err.match(/Graphics: the board is at (http:\/\/127\.0\.0\.1:\d+\/)/)?.[1]);
    const page = await newPage(env.browser);
    await page.goto(url);
    await page.locator('[data-testid=watch]').waitFor();
    const type = async (line) => {
      const before = await syncCount(page);
      game.stdin.write(`${line}\n`);
      assert.ok(await waitSync(page, before, 10000), `the page updated after "${line}"`);
    };
    await type(typed[0]);
    await type(typed[1]);
    const p1 = page.locator('[data-testid=player][data-seat="0"]');
    await p1.filter({ hasText: 'Alice' }).waitFor();
    // The current player's hand is shown: in testing mode, the deck file's first five cards.
    const hand = page.locator('[data-testid=hand][data-seat="0"] [data-testid=hand-card]');
    assert.equal(await hand.count(), 5);
    assert.equal(await hand.first().getAttribute('data-card'), 'AirElemental');
    assert.equal(await page.locator('[data-testid=minion]').count(), 0);

    await type(typed[2]);
    await page.locator('[data-testid=side][data-seat="0"] [data-testid=minion][data-card=AirElemental]').waitFor();
    assert.equal(await hand.count(), 4);
    assert.match(await page.locator('[data-testid=terminal-log]').textContent(), /Alice's Air Elemental enters play/);
    await shot(page, 'sorcery-06-graphics-after-play');

    await type(typed[3]);
    await page.locator('[data-testid=hand][data-seat="1"]').waitFor();
    assert.match(await page.locator('[data-testid=status-text]').textContent(), /Turn 2: Bob to play/);
    await type(typed[4]);
    await page.locator('[data-testid=side][data-seat="1"] [data-testid=minion][data-card=EarthElemental]').waitFor();
    await shot(page, 'sorcery-07-graphics-bobs-turn');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    game.stdin.end();
    await game.done;
  }
  // The text interface is untouched: the same game without -graphics prints the same bytes.
  const plain = runSorcery(args.filter((a) => a !== '-graphics'), dir);
  plain.stdin.end(typed.map((l) => `${l}\n`).join(''));
  await plain.done;
  rmSync(dir, { recursive: true, force: true });
  assert.equal(game.out, plain.out);
  assert.match(game.out, /> play 1\nAlice plays Air Elemental\./);
});
