// Leaderboards and rating charts (issue 43, docs/rating.md): the page `/leaderboard/<game>`
// from `GET /api/leaderboard/{game}` (the top 100 established players of a game), the lobby's
// links to every game's, and the small SVG chart of a rating's history that profiles show.

import { h, replaceChildren } from '/dom.js';
import { profileHref } from '/account.js';

/** The lobby's line of links, one per game: "Leaderboards: Buckshot · Ivanhoe · …". */
export function leaderboardLinks(games) {
  if (!games.length) return null;
  return h('p', { class: 'lobby-boards', dataset: { testid: 'lobby-leaderboards' } }, 'Leaderboards: ',
    games.map((g, i) => [i ? ' · ' : '', h('a', { href: `/leaderboard/${encodeURIComponent(g.name)}`, text: g.title })]));
}

/** Draws the leaderboard of `game` into `app`; `games` is the lobby's list (for titles). */
export async function openLeaderboard(app, game, games) {
  const title = games[game]?.title ?? game;
  document.title = `${title} leaderboard · cardtable`;
  let res;
  let b;
  try {
    res = await fetch(`/api/leaderboard/${encodeURIComponent(game)}`, { cache: 'no-store' });
    b = await res.json();
  } catch (e) {
    b = { reason: `The server did not answer: ${e.message}.` };
  }
  if (!res?.ok) {
    replaceChildren(app, h('section', { class: 'card missing', dataset: { testid: 'leaderboard-missing' } },
      h('h1', { text: res?.status === 404 ? `There is no game called ${game}` : 'Cannot load this leaderboard' }),
      h('p', { text: b?.reason ?? `The server answered ${res?.status}.` }),
      h('a', { class: 'button primary', href: '/', text: 'Back to the lobby' })));
    return;
  }
  const rows = b.rows ?? [];
  const table = rows.length
    ? h('div', { class: 'table-wrap' }, h('table', { class: 'standings leaderboard', dataset: { testid: 'leaderboard' } },
      h('thead', {}, h('tr', {}, ['#', 'Player', 'Rating', 'Games'].map((t) => h('th', { attrs: { scope: 'col' }, text: t })))),
      h('tbody', {}, rows.map((r) => h('tr', { dataset: { testid: 'leaderboard-row', name: r.name } },
        h('td', { text: String(r.rank) }),
        h('th', { attrs: { scope: 'row' } }, h('a', { href: profileHref(r.name) }, h('bdi', { text: r.name })),
          r.guest ? h('span', { class: 'opp-guest', text: ' (guest)' }) : null),
        h('td', { dataset: { testid: 'leaderboard-rating' }, attrs: { title: `±${r.rd * 2} (95%)` }, text: String(r.rating) }),
        h('td', { text: String(r.games) }))))))
    : h('p', { class: 'hint', dataset: { testid: 'leaderboard-empty' }, text: 'Nobody is on this leaderboard yet.' });
  replaceChildren(app, h('section', { class: 'card leaderboard-page', dataset: { testid: 'leaderboard-page', game: b.game } },
    h('h1', { text: `${b.title ?? title} leaderboard` }),
    h('p', { class: 'hint', text: `The top ${b.size} rated players with at least ${b.minGames} rated games whose rating is established (not provisional). Bots are on the same scale: Medium is 1500.` }),
    table,
    h('p', {}, h('a', { href: '/', text: 'Back to the lobby' }))));
}

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs ?? {})) el.setAttribute(k, String(v));
  for (const c of children) if (c) el.appendChild(c);
  return el;
}

/**
 * A small line chart of a rating history (`[{rating, at, match, left}]`, oldest first) as an
 * inline SVG: the rating after each rated match, its lowest and highest values labelled.
 */
export function ratingChart(history, label) {
  const W = 320;
  const H = 96;
  const pad = 8;
  const values = history.map((p) => p.rating);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = Math.max(hi - lo, 20);
  const x = (i) => pad + (history.length === 1 ? (W - 2 * pad) / 2 : (i * (W - 2 * pad)) / (history.length - 1));
  const y = (v) => H - pad - ((v - lo) / span) * (H - 2 * pad);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const title = svg('title');
  title.textContent = label;
  const text = (tx, ty, s) => {
    const t = svg('text', { x: tx, y: ty, class: 'chart-label' });
    t.textContent = s;
    return t;
  };
  return svg('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': label, class: 'rating-chart', 'data-testid': 'rating-chart', 'data-points': values.length },
    title,
    svg('polyline', { points, fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
    ...values.map((v, i) => svg('circle', { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 2.5, class: history[i].left ? 'chart-left' : 'chart-point' })),
    text(pad, 12, String(hi)),
    text(pad, H - 2, String(lo)));
}
