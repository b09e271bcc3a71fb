// The admin console, `/admin` (issue 44): for accounts with the admin role only (granted from
// the terminal: `cardtable admin grant NAME --db ...`). Four sections, each from the admin API
// (`/api/admin/...`, documented in docs/protocol.md):
// - Rooms: every room (every node's on a cluster) with its game, players, node and age; a
//   link to watch it as a spectator; close it with a message to its players.
// - People: search by name; an account's sessions; ban for a time or for good with a reason;
//   unban.
// - Reports: players' reports with the room's chat and last match when they were filed;
//   resolve one.
// - Moderation log: every admin action (who, what, when, why), newest first.
// Every form field has a <label for>; results are announced in a polite live region.

import { h, replaceChildren } from '/dom.js';
import { api, ApiError, identity, banEnd } from '/account.js';

/** "6 Dec 2026, 14:05". */
function when(ms) {
  return new Date(ms).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

function time(ms) {
  return h('time', { attrs: { datetime: new Date(ms).toISOString() }, text: when(ms) });
}

/** "3 min", "2 h", "5 days". */
function age(ms) {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 90) return `${s} s`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min`;
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} days`;
}

const DURATIONS = [
  ['60', '1 hour'],
  ['1440', '1 day'],
  ['10080', '7 days'],
  ['43200', '30 days'],
  ['', 'For good'],
];

const ACTIONS = {
  ban: 'Ban', unban: 'Unban', close_room: 'Close room', grant_admin: 'Grant admin', revoke_admin: 'Revoke admin', resolve_report: 'Resolve report',
};

const KINDS = { chat: 'Chat abuse', cheating: 'Cheating', leaving: 'Leaving' };

/** Draws the console into `app`. `gameTitle(game)` names a game for people. */
export async function openAdmin(app, gameTitle) {
  document.title = 'Admin console · cardtable';
  const me = identity.me;
  if (!me?.admin) {
    replaceChildren(app, h('section', { class: 'card missing', dataset: { testid: 'admin-refused' } },
      h('h1', { text: 'Admins only' }),
      h('p', { text: 'This console is for the server\u2019s moderators. An operator gives an account the admin role from the terminal: ' },
        h('code', { text: 'cardtable admin grant NAME --db ...' })),
      h('a', { class: 'button primary', href: '/', text: 'Back to the lobby' })));
    return;
  }
  const status = h('p', { class: 'admin-status', dataset: { testid: 'admin-status' }, attrs: { role: 'status', 'aria-live': 'polite' } });
  const say = (text) => { status.textContent = text; };
  const failed = (ex) => say(ex instanceof ApiError ? ex.message : `Something went wrong: ${ex.message ?? ex}`);

  const rooms = h('section', { class: 'card admin-section', attrs: { 'aria-labelledby': 'admin-rooms-h' } });
  const people = h('section', { class: 'card admin-section', attrs: { 'aria-labelledby': 'admin-people-h' } });
  const reports = h('section', { class: 'card admin-section', attrs: { 'aria-labelledby': 'admin-reports-h' } });
  const log = h('section', { class: 'card admin-section', attrs: { 'aria-labelledby': 'admin-log-h' } });
  replaceChildren(app, h('div', { class: 'admin', dataset: { testid: 'admin' } },
    h('h1', { text: 'Admin console' }),
    h('nav', { class: 'admin-nav', attrs: { 'aria-label': 'Console sections' } },
      h('a', { href: '#admin-rooms-h', text: 'Rooms' }), ' · ',
      h('a', { href: '#admin-people-h', text: 'People' }), ' · ',
      h('a', { href: '#admin-reports-h', text: 'Reports' }), ' · ',
      h('a', { href: '#admin-log-h', text: 'Moderation log' })),
    status, rooms, people, reports, log));

  // ---- rooms ----
  async function drawRooms() {
    let list;
    try { list = await api('GET', '/api/admin/rooms'); } catch (ex) { failed(ex); list = []; }
    const refresh = h('button', { type: 'button', text: 'Refresh', dataset: { testid: 'admin-rooms-refresh' } });
    refresh.addEventListener('click', drawRooms);
    const rows = list.map((r) => {
      const msgId = `close-msg-${r.id}`;
      const input = h('input', { id: msgId, name: 'message', maxLength: 500, autocomplete: 'off', required: true, dataset: { testid: 'close-message' } });
      const close = h('button', { type: 'submit', class: 'danger', text: 'Close', dataset: { testid: 'close-room' } });
      const form = h('form', { class: 'admin-inline' },
        h('label', { for: msgId, text: `Message to the players of room ${r.id}` }), input, close);
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        if (!input.value.trim()) { say('Write the players a message first.'); input.focus(); return; }
        close.disabled = true;
        try {
          const res = await api('POST', `/api/admin/rooms/${encodeURIComponent(r.id)}/close`, { message: input.value });
          say(res.status === 'closed' ? `Room ${r.id} is closed.` : `Room ${r.id} will close within seconds (its server was asked).`);
          drawRooms();
          drawLog();
        } catch (ex) { failed(ex); close.disabled = false; }
      });
      const players = (r.players ?? []).length ? r.players.join(', ') : 'nobody';
      return h('tr', { dataset: { testid: 'admin-room', room: r.id } },
        h('td', {}, h('code', { text: r.id }), r.private ? ' (private)' : ''),
        h('td', { text: gameTitle(r.game) }),
        h('td', {}, h('bdi', { text: players }), r.spectators ? ` + ${r.spectators} watching` : ''),
        h('td', { text: r.dormant ? `${r.state} (asleep)` : r.state }),
        h('td', { text: r.node ?? '—' }),
        h('td', { text: r.createdAt ? age(r.createdAt) : '—' }),
        h('td', {}, h('a', { href: `/r/${encodeURIComponent(r.id)}`, target: '_blank', rel: 'noopener', text: 'Watch', attrs: { 'aria-label': `Watch room ${r.id}` } }), form));
    });
    replaceChildren(rooms,
      h('h2', { id: 'admin-rooms-h', text: `Rooms (${list.length})` }), refresh,
      list.length
        ? h('table', { class: 'admin-table' },
          h('thead', {}, h('tr', {}, ['Room', 'Game', 'Players', 'State', 'Node', 'Age', 'Actions'].map((t) => h('th', { scope: 'col', text: t })))),
          h('tbody', {}, rows))
        : h('p', { class: 'hint', text: 'No rooms are open.' }));
  }

  // ---- people ----
  const q = h('input', { id: 'people-q', name: 'q', type: 'search', autocomplete: 'off', dataset: { testid: 'people-q' } });
  const results = h('div', { class: 'admin-people' });
  let lastQuery = '';
  async function search(text) {
    lastQuery = text;
    let found;
    try { found = await api('GET', `/api/admin/people?q=${encodeURIComponent(text)}`); } catch (ex) { failed(ex); return; }
    replaceChildren(results, found.length ? h('ul', { class: 'admin-list' }, found.map(person)) : h('p', { class: 'hint', text: 'Nobody by that name.' }));
  }
  function person(p) {
    const kind = p.admin ? 'admin' : p.guest ? 'guest' : 'member';
    const status = p.ban ? `banned ${banEnd(p.ban.until)}: ${p.ban.reason}` : 'not banned';
    const sessionsBox = h('div', { class: 'admin-sessions' });
    const sessions = h('button', { type: 'button', text: 'Sessions', dataset: { testid: 'person-sessions' }, attrs: { 'aria-label': `Sessions of ${p.name}` } });
    sessions.addEventListener('click', async () => {
      try {
        const list = await api('GET', `/api/admin/people/${p.id}/sessions`);
        replaceChildren(sessionsBox, list.length
          ? h('ul', {}, list.map((s) => h('li', {}, 'Signed in ', time(s.createdAt), ', last seen ', time(s.seenAt))))
          : h('p', { class: 'hint', text: 'No sessions.' }));
      } catch (ex) { failed(ex); }
    });
    const reasonId = `ban-reason-${p.id}`;
    const durId = `ban-for-${p.id}`;
    const reason = h('input', { id: reasonId, name: 'reason', maxLength: 500, autocomplete: 'off', required: true, dataset: { testid: 'ban-reason' } });
    const dur = h('select', { id: durId, name: 'minutes', dataset: { testid: 'ban-duration' } }, DURATIONS.map(([v, t]) => h('option', { value: v, text: t })));
    const ban = h('button', { type: 'submit', class: 'danger', text: 'Ban', dataset: { testid: 'ban' } });
    const form = h('form', { class: 'admin-inline' },
      h('label', { for: reasonId, text: `Why ban ${p.name}` }), reason,
      h('label', { for: durId, text: 'For' }), dur, ban);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      if (!reason.value.trim()) { say('Give a reason for the ban.'); reason.focus(); return; }
      ban.disabled = true;
      const body = { reason: reason.value };
      if (dur.value) body.minutes = Number(dur.value);
      try {
        const res = await api('POST', `/api/admin/people/${p.id}/ban`, body);
        say(`${p.name} is banned ${banEnd(res.account.ban.until)}.`);
        search(lastQuery);
        drawLog();
      } catch (ex) { failed(ex); ban.disabled = false; }
    });
    let unban = null;
    if (p.ban) {
      unban = h('button', { type: 'button', text: 'Unban', dataset: { testid: 'unban' }, attrs: { 'aria-label': `Unban ${p.name}` } });
      unban.addEventListener('click', async () => {
        try {
          await api('POST', `/api/admin/people/${p.id}/unban`, { reason: '' });
          say(`${p.name} is not banned any more.`);
          search(lastQuery);
          drawLog();
        } catch (ex) { failed(ex); }
      });
    }
    return h('li', { class: 'admin-person', dataset: { testid: 'admin-person', name: p.name } },
      h('p', {}, h('strong', {}, h('bdi', { text: p.name })), ` (${kind}, #${p.id}, joined `, time(p.createdAt), ') — ',
        h('span', { dataset: { testid: 'ban-status' }, text: status })),
      h('div', { class: 'admin-actions' }, sessions, unban, p.id === me.id ? null : form),
      sessionsBox);
  }
  const searchForm = h('form', { class: 'admin-inline', attrs: { role: 'search' } },
    h('label', { for: 'people-q', text: 'Name contains' }), q,
    h('button', { type: 'submit', text: 'Search', dataset: { testid: 'people-search' } }));
  searchForm.addEventListener('submit', (e) => { e.preventDefault(); search(q.value.trim()); });
  replaceChildren(people, h('h2', { id: 'admin-people-h', text: 'People' }), searchForm, results);

  // ---- reports ----
  const showAll = h('input', { id: 'reports-all', type: 'checkbox', dataset: { testid: 'reports-all' } });
  showAll.addEventListener('change', () => drawReports());
  async function drawReports() {
    let list;
    try { list = await api('GET', `/api/admin/reports${showAll.checked ? '?all=true' : ''}`); } catch (ex) { failed(ex); list = []; }
    const items = list.map((r) => {
      const resolve = r.resolved ? null : h('button', { type: 'button', text: 'Resolve', dataset: { testid: 'resolve-report' }, attrs: { 'aria-label': `Resolve report ${r.id}` } });
      resolve?.addEventListener('click', async () => {
        try {
          await api('POST', `/api/admin/reports/${r.id}/resolve`, { reason: '' });
          say(`Report ${r.id} is resolved.`);
          drawReports();
          drawLog();
        } catch (ex) { failed(ex); }
      });
      const chat = (r.chat ?? []).map((c) => h('li', {}, h('strong', {}, h('bdi', { text: c.player?.username ?? '?' })), ': ', h('bdi', { text: c.message ?? '' })));
      return h('li', { class: 'admin-report', dataset: { testid: 'admin-report' } },
        h('p', {}, h('strong', { text: `#${r.id} ${KINDS[r.kind] ?? r.kind}` }), ': ',
          h('bdi', { text: r.reporter.name ?? `#${r.reporter.id}` }), ' reports ', h('bdi', { text: r.target.name ?? `#${r.target.id}` }),
          ' in room ', h('a', { href: `/r/${encodeURIComponent(r.room)}`, text: r.room }), ', ', time(r.at),
          r.resolved ? ' (resolved)' : ''),
        r.line ? h('blockquote', {}, h('bdi', { text: r.line })) : null,
        r.match != null ? h('p', {}, h('a', { href: `/replay/${r.match}?room=${encodeURIComponent(r.room)}`, text: `Replay of the room\u2019s last match (#${r.match})` })) : null,
        chat.length ? h('details', {}, h('summary', { text: `The room\u2019s chat (${chat.length} lines)` }), h('ol', { class: 'admin-chat' }, chat)) : h('p', { class: 'hint', text: 'The room\u2019s chat was empty.' }),
        resolve);
    });
    replaceChildren(reports,
      h('h2', { id: 'admin-reports-h', text: 'Reports' }),
      h('div', { class: 'admin-inline' }, showAll, h('label', { for: 'reports-all', text: 'Show resolved reports too' })),
      items.length ? h('ul', { class: 'admin-list' }, items) : h('p', { class: 'hint', text: 'No reports to read.' }));
  }

  // ---- moderation log ----
  async function drawLog() {
    let rows;
    try { rows = await api('GET', '/api/admin/log'); } catch (ex) { failed(ex); rows = []; }
    replaceChildren(log,
      h('h2', { id: 'admin-log-h', text: 'Moderation log' }),
      rows.length
        ? h('table', { class: 'admin-table', dataset: { testid: 'admin-log' } },
          h('thead', {}, h('tr', {}, ['When', 'Who', 'What', 'To', 'Why'].map((t) => h('th', { scope: 'col', text: t })))),
          h('tbody', {}, rows.map((r) => h('tr', { dataset: { testid: 'log-row', action: r.action } },
            h('td', {}, time(r.at)),
            h('td', {}, r.admin ? h('bdi', { text: r.admin.name ?? `#${r.admin.id}` }) : 'the terminal'),
            h('td', { text: ACTIONS[r.action] ?? r.action }),
            h('td', {}, h('bdi', { text: r.target })),
            h('td', {}, h('bdi', { text: r.reason }))))))
        : h('p', { class: 'hint', text: 'Nothing has been done yet.' }));
  }

  await Promise.all([drawRooms(), search(''), drawReports(), drawLog()]);
}
