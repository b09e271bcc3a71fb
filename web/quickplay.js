// Quick play: a "Play now" button per game in the lobby, the waiting view (time waited, when
// bots take the empty seats, cancel), and parties of friends (a link; the leader queues the
// party, everyone in it is seated at one table). See docs/protocol.md, "Quick play".
//
// The server seats the person at a room and reserves the seat for their identity: the page
// then opens the room as any room link does, and joins it under the account's name.

import { h, replaceChildren } from '/dom.js';
import { identity, api, ApiError } from '/account.js';

function mmss(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Goes to the room a ticket was seated at: it joins at once under the account's name. */
function goToRoom(seat) {
  try { sessionStorage.setItem(`cardtable.autojoin.${seat.room}`, identity.me?.name ?? ''); } catch { /* private mode */ }
  location.assign(`/r/${encodeURIComponent(seat.room)}`);
}

/**
 * The waiting view of ticket `first` (the answer of `POST /api/quickplay`) in `app`, until
 * the ticket's socket says where the table is; `onCancel` redraws what was there before.
 */
export function waitForTable(app, first, title, onCancel) {
  if (first.type === 'QuickPlaySeated') { placed(app, first, title); return; }
  const waited = h('span', { dataset: { testid: 'qp-waited' }, text: '0:00' });
  const bots = h('p', { class: 'hint', dataset: { testid: 'qp-bots' } });
  const status = h('p', { class: 'hint', attrs: { 'aria-live': 'polite' } });
  const cancel = h('button', { type: 'button', text: 'Cancel', dataset: { testid: 'qp-cancel' } });
  const card = h('section', { class: 'card quickplay-wait', dataset: { testid: 'qp-waiting' }, attrs: { 'aria-labelledby': 'qp-h' } },
    h('h1', { id: 'qp-h', text: `Finding a ${title} table…` }),
    h('p', {}, 'Waited ', waited, first.people?.length > 1 ? ` with ${first.people.join(', ')}` : ''),
    bots, status, cancel);
  replaceChildren(app, card);
  document.title = `Play now: ${title} · cardtable`;
  const started = Date.now() - (first.waitedMs ?? 0);
  let botsAt = Date.now() + (first.botsInMs ?? 0);
  const tick = setInterval(() => {
    waited.textContent = mmss(Date.now() - started);
    const left = botsAt - Date.now();
    bots.textContent = left > 0 ? `Bots take the empty seats in ${mmss(left)} if nobody else comes.` : 'Seating you now…';
  }, 250);
  let done = false;
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/quickplay/${encodeURIComponent(first.ticket)}/ws`);
  ws.addEventListener('message', (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    if (msg.type === 'QuickPlayWaiting') {
      botsAt = Date.now() + msg.botsInMs;
      status.textContent = `Looking for players within ±${msg.window} of your rating (${msg.rating}).`;
    } else if (msg.type === 'QuickPlaySeated') {
      done = true;
      clearInterval(tick);
      status.textContent = 'Seated! Opening the table…';
      goToRoom(msg);
    }
  });
  ws.addEventListener('close', (e) => {
    if (done) return;
    clearInterval(tick);
    if (e.code === 4004 || e.code === 1000) { onCancel(); return; }
    status.textContent = 'Lost the connection to the server; try again.';
  });
  cancel.addEventListener('click', () => {
    done = true;
    clearInterval(tick);
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'CancelQuickPlay' }));
    ws.close();
    onCancel();
  });
}

/**
 * A placement game (the answer came seated): says why this table has bots, then opens it.
 * The person's first rated games of a game are against the bot nearest their rating, so that
 * their rating starts on the bots' scale (docs/rating.md, "Placement").
 */
function placed(app, seat, title) {
  const p = seat.placement ?? { game: 1, of: 1 };
  const level = seat.bots?.[0] ?? 'medium';
  replaceChildren(app, h('section', { class: 'card quickplay-wait', dataset: { testid: 'qp-placement' }, attrs: { 'aria-labelledby': 'qp-h' } },
    h('h1', { id: 'qp-h', text: `Placement game ${p.game} of ${p.of}: ${title}` }),
    h('p', {}, `Your first ${p.of} rated games of ${title} are against the bot nearest your rating (this one: ${level}), so that your rating starts on the bots' scale. Then Play now finds you people.`),
    h('p', { class: 'hint', attrs: { 'aria-live': 'polite' }, text: 'Opening the table…' })));
  document.title = `Play now: ${title} · cardtable`;
  setTimeout(() => goToRoom(seat), 1500);
}

async function queue(game, party) {
  return api('POST', '/api/quickplay', { game: game.name, ...(party ? { party } : {}) });
}

/**
 * The lobby's quick-play card: "Play now" for every game in `games` (by name), and a party to
 * play with friends. `app` is the page's root; `redraw` draws the lobby again after a cancel.
 */
export function playNowCard(app, games, redraw) {
  const err = h('p', { class: 'form-error', attrs: { role: 'alert' } });
  const partySlot = h('div', { class: 'party', dataset: { testid: 'party' } });
  let party = null;
  const play = async (g) => {
    err.textContent = '';
    try {
      const first = await queue(g, party?.id);
      waitForTable(app, first, g.title, redraw);
    } catch (ex) {
      err.textContent = ex instanceof ApiError && ex.status === 401
        ? 'Quick play needs an identity: reload the page (a guest one is made for you).'
        : `Could not queue: ${ex.message}`;
    }
  };
  const buttons = Object.values(games).map((g) => h('button', {
    type: 'button', class: 'primary', text: `Play now: ${g.title}`,
    dataset: { testid: `play-now-${g.name}` }, onclick: () => play(g),
  }));
  const makeParty = h('button', { type: 'button', text: 'Play with friends (make a party)', dataset: { testid: 'make-party' } });
  makeParty.addEventListener('click', async () => {
    try {
      party = await api('POST', '/api/parties', {});
      drawParty();
    } catch (ex) { err.textContent = `Could not make a party: ${ex.message}`; }
  });
  function drawParty() {
    const link = `${location.origin}${party.link}`;
    replaceChildren(partySlot,
      h('p', {}, 'Your party: ', h('bdi', { dataset: { testid: 'party-people' }, text: party.people.join(', ') })),
      h('p', { class: 'hint' }, 'Send your friends this link; then press Play now: ',
        h('a', { href: party.link, dataset: { testid: 'party-link' }, text: link })));
  }
  const poll = setInterval(async () => {
    if (!party || document.visibilityState !== 'visible') return;
    try { party = await api('GET', `/api/parties/${encodeURIComponent(party.id)}`); drawParty(); } catch { /* next time */ }
  }, 2000);
  window.addEventListener('pagehide', () => clearInterval(poll), { once: true });
  return h('section', { class: 'card quickplay', attrs: { 'aria-labelledby': 'qp-card-h' } },
    h('h2', { id: 'qp-card-h', text: 'Play now' }),
    h('p', { class: 'hint', text: 'A seat at a table in seconds: with people near your rating if any are waiting, else with the bots nearest it.' }),
    h('div', { class: 'play-now-buttons' }, buttons),
    identity.me ? [makeParty, partySlot] : null, err);
}

/** `/party/{id}`: joins the party, shows who is in it, and follows its leader into the queue. */
export async function openParty(app, id, games) {
  document.title = 'Party · cardtable';
  const people = h('p', { dataset: { testid: 'party-people' } });
  const status = h('p', { class: 'hint', attrs: { 'aria-live': 'polite' } });
  replaceChildren(app, h('section', { class: 'card party' }, h('h1', { text: 'Party' }), people, status,
    h('a', { class: 'button', href: '/', text: 'Back to the lobby' })));
  let party;
  try {
    party = await api('POST', `/api/parties/${encodeURIComponent(id)}/join`, {});
  } catch (ex) {
    status.textContent = `Could not join the party: ${ex.message}`;
    return;
  }
  const draw = () => {
    people.textContent = `In the party: ${party.people.join(', ')} (led by ${party.leader}).`;
    status.textContent = 'Waiting for the leader to press Play now…';
  };
  draw();
  const poll = setInterval(async () => {
    try { party = await api('GET', `/api/parties/${encodeURIComponent(id)}`); } catch { return; }
    draw();
    if (party.ticket) {
      clearInterval(poll);
      try {
        const first = await api('GET', `/api/quickplay/${encodeURIComponent(party.ticket)}`);
        if (first.type === 'QuickPlaySeated') { goToRoom(first); return; }
        waitForTable(app, first, games[first.game]?.title ?? first.game, () => location.assign('/'));
      } catch (ex) { status.textContent = `Could not follow the party: ${ex.message}`; }
    }
  }, 1000);
}
