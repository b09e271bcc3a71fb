// The profile page, `/u/<name>` (issue 42): from `GET /api/users/{name}`, the name, when it
// joined, games played and won per game, its rating in each game it played rated with a chart
// of its history (issue 43), and the last 50 matches with their opponents (people linked to
// their own profiles, bots with their level), the result and a replay link.

import { h, replaceChildren, botName, ratingText } from '/dom.js';
import { identity, profileHref } from '/account.js';
import { ratingChart } from '/leaderboard.js';

/** "6 December 2026" (the browser's own way of writing dates). */
function day(ms) {
  return new Date(ms).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}

/** "6 Dec 2026, 14:05". */
function when(ms) {
  return new Date(ms).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

function time(ms, text) {
  return h('time', { attrs: { datetime: new Date(ms).toISOString() }, text });
}

const RESULTS = { won: 'Won', lost: 'Lost', abandoned: 'Abandoned' };

/** One opponent: a person (a link to their profile), a bot (with its level), or a name. */
function opponent(o) {
  if (o.bot) {
    return h('span', { class: 'opp opp-bot', dataset: { testid: 'opponent', bot: o.bot } },
      h('bdi', { text: o.name }), ` (bot · ${botName(o.bot)})`);
  }
  if (o.account) {
    return h('a', { class: 'opp opp-person', href: profileHref(o.name), dataset: { testid: 'opponent' } },
      h('bdi', { text: o.name }), o.guest ? h('span', { class: 'opp-guest', text: ' (guest)' }) : null);
  }
  // A deleted account, or someone who played without an account.
  return h('span', { class: 'opp', dataset: { testid: 'opponent' } }, h('bdi', { text: o.name }));
}

/**
 * Draws the profile of `name` into `app`. `gameTitle(game)` names a game for people.
 */
export async function openProfile(app, name, gameTitle) {
  document.title = `${name} · cardtable`;
  let res;
  let p;
  try {
    res = await fetch(`/api/users/${encodeURIComponent(name)}`, { cache: 'no-store' });
    p = await res.json();
  } catch (e) {
    replaceChildren(app, h('section', { class: 'card missing', dataset: { testid: 'profile-missing' } },
      h('h1', { text: 'Cannot load this profile' }),
      h('p', { text: `The server did not answer: ${e.message}. Try again in a moment.` }),
      h('a', { class: 'button primary', href: '/', text: 'Back to the lobby' })));
    return;
  }
  if (!res.ok) {
    const nobody = res.status === 404;
    replaceChildren(app, h('section', { class: 'card missing', dataset: { testid: 'profile-missing' } },
      h('h1', {}, nobody ? ['Nobody is called ', h('bdi', { text: name })] : 'Cannot load this profile'),
      h('p', { text: nobody ? 'There is no player by that name here. It may have been a typo, or the account was deleted.' : (p?.reason ?? p?.error ?? `The server answered ${res.status}.`) }),
      h('a', { class: 'button primary', href: '/', text: 'Back to the lobby' })));
    return;
  }
  document.title = `${p.name} · cardtable`;
  const mine = identity.me && identity.me.id != null && identity.me.name === p.name;

  const games = p.games ?? [];
  const totals = games.reduce((t, g) => ({ played: t.played + g.played, won: t.won + g.won }), { played: 0, won: 0 });
  const gameTable = games.length
    ? h('div', { class: 'table-wrap' }, h('table', { class: 'standings profile-games', dataset: { testid: 'profile-games' } },
      h('thead', {}, h('tr', {}, ['Game', 'Played', 'Won'].map((t) => h('th', { attrs: { scope: 'col' }, text: t })))),
      h('tbody', {}, games.map((g) => h('tr', { dataset: { game: g.game } },
        h('th', { attrs: { scope: 'row' }, text: gameTitle(g.game) }),
        h('td', { dataset: { testid: 'played' }, text: String(g.played) }),
        h('td', { dataset: { testid: 'won' }, text: String(g.won) }))))))
    : h('p', { class: 'hint', text: 'No finished games yet.' });

  // Each game's rating ("1523?" while provisional), its leaderboard, and its history's chart.
  const ratings = p.ratings ?? [];
  const ratingList = ratings.length
    ? h('ul', { class: 'profile-ratings', dataset: { testid: 'profile-ratings' } }, ratings.map((r) => h('li', { dataset: { testid: 'profile-rating', game: r.game } },
      h('h3', {}, gameTitle(r.game), ': ', h('span', { dataset: { testid: 'rating-value' }, text: ratingText(r.rating, r.provisional) }),
        h('span', { class: 'hint', text: ` · ${r.games} rated game${r.games === 1 ? '' : 's'} · ` }),
        h('a', { href: `/leaderboard/${encodeURIComponent(r.game)}`, text: 'leaderboard' })),
      r.history?.length ? ratingChart(r.history, `${gameTitle(r.game)} rating over the last ${r.history.length} rated games`) : null)))
    : h('p', { class: 'hint', text: 'No rated games yet.' });

  const matches = p.matches ?? [];
  const matchTable = matches.length
    ? h('div', { class: 'table-wrap' }, h('table', { class: 'standings profile-matches', dataset: { testid: 'profile-matches' } },
      h('thead', {}, h('tr', {}, ['When', 'Game', 'Opponents', 'Result', 'Replay'].map((t) => h('th', { attrs: { scope: 'col' }, text: t })))),
      h('tbody', {}, matches.map((m) => h('tr', { class: `result-${m.result}`, dataset: { testid: 'profile-match', match: String(m.id) } },
        h('td', {}, time(m.endedAt ?? m.startedAt, when(m.endedAt ?? m.startedAt))),
        h('td', { text: gameTitle(m.game) }),
        h('td', { class: 'opponents' }, (m.opponents ?? []).map((o, i) => [i ? ', ' : '', opponent(o)])),
        h('td', { dataset: { testid: 'result' }, text: RESULTS[m.result] ?? m.result }),
        h('td', {}, h('a', { href: m.replay, dataset: { testid: 'profile-replay' }, attrs: { 'aria-label': `Replay of match ${m.id}` }, text: 'Replay' })))))))
    : h('p', { class: 'hint', text: 'No matches yet.' });

  replaceChildren(app, h('section', { class: 'profile', dataset: { testid: 'profile', name: p.name } },
    h('header', { class: 'card profile-head' },
      h('h1', { dataset: { testid: 'profile-name' } }, h('bdi', { text: p.name }),
        p.guest ? h('span', { class: 'account-badge', text: 'guest' }) : null),
      h('p', { class: 'hint' }, 'Joined ', time(p.joined, day(p.joined)),
        ` · ${totals.played} game${totals.played === 1 ? '' : 's'} played, ${totals.won} won`,
        mine ? ' · this is you' : '')),
    h('section', { class: 'card', attrs: { 'aria-labelledby': 'profile-games-h' } },
      h('h2', { id: 'profile-games-h', text: 'Games' }), gameTable),
    h('section', { class: 'card', attrs: { 'aria-labelledby': 'profile-ratings-h' } },
      h('h2', { id: 'profile-ratings-h', text: 'Ratings' }), ratingList),
    h('section', { class: 'card', attrs: { 'aria-labelledby': 'profile-matches-h' } },
      h('h2', { id: 'profile-matches-h', text: matches.length >= 50 ? 'The last 50 matches' : 'Matches' }), matchTable)));
}
