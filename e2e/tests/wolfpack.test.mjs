// Wolf Pack in the browser: one person and two heuristic bot pilots against the rookie Ace,
// played to the end in Chromium (card, then target; confirm), on a desktop and on a phone.
// Screenshots go to e2e/artifacts/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, createRoom, joinRoom, shot, syncCount, waitSync, rng, pick, overflowX, PHONE } from './helpers.js';

const env = serverAndBrowser();

async function play(page, prefix) {
  const r = rng(3);
  let steps = 0;
  let midShot = false;
  for (let i = 0; i < 3000; i++) {
    if (await page.locator('[data-testid=winner]').count()) break;
    const before = await syncCount(page);
    const click = async (loc) => { await loc.click({ force: true }); await waitSync(page, before, 3000); steps += 1; };
    const targets = page.locator('[data-testid=target]');
    if (await targets.count()) {
      if (!midShot) { midShot = true; await shot(page, `${prefix}-target`); }
      await click(targets.nth(Math.floor(r() * (await targets.count()))));
      continue;
    }
    const confirm = page.locator('[data-testid=confirm]');
    if (await confirm.count()) { await click(confirm); continue; }
    const cards = page.locator('[data-testid=hand-card][data-playable=true]');
    const n = await cards.count();
    if (n && !(await page.locator('[data-testid=choice]').count())) {
      const b = cards.nth(pick(r, [...Array(n).keys()]));
      await b.focus();
      await page.keyboard.press('Enter');
      await page.waitForTimeout(30);
      await waitSync(page, before, 500);
      continue;
    }
    const proceed = page.locator('[data-testid=proceed]');
    if (await proceed.count()) { await click(proceed); continue; }
    await waitSync(page, before, 2000);
  }
  await page.locator('[data-testid=winner]').waitFor({ timeout: 10000 });
  return steps;
}

for (const [label, opts, prefix] of [['desktop', { viewport: { width: 1280, height: 800 } }, 'wolfpack-desktop'], ['phone', PHONE, 'wolfpack-phone']]) {
  test(`one person and two bot pilots against the Ace, to the end (${label})`, { skip: "WIP: the fight (Ace 190 hp) outlasts the 200 s budget at this pace; shorten (seed/options/faster steps) before enabling" }, async () => {
    const room = await createRoom(env.server.base, { game: 'wolfpack', seed: 5, botDelayMs: 30 });
    const page = await newPage(env.browser, opts);
    await joinRoom(page, env.server.base, room, 'alice');
    await page.locator('#bot-kind').selectOption('heuristic');
    await page.locator('[data-testid=add-bot]').click();
    await page.locator('[data-testid=add-bot]').click();
    await page.locator('[data-testid=start]:enabled').click();
    await page.locator('[data-testid=hand-card]').first().waitFor();
    assert.equal(await page.locator('[data-testid=fighter]').count(), 4, 'the Ace and three pilots');
    await shot(page, `${prefix}-start`);
    const steps = await play(page, prefix);
    assert.ok(steps > 0, 'alice played');
    await shot(page, `${prefix}-over`);
    assert.equal(await overflowX(page), false, 'no sideways scrolling');
  });
}
