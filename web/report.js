// Reporting a player from a room (issue 44): the room menu's "Report a player" opens a form —
// who (the room's other people), what (chat abuse, cheating, leaving) and an optional line —
// sent as `POST /api/reports`. The server keeps the room's chat and last match with the
// report, for the moderators' console.

import { h } from '/dom.js';
import { api, ApiError } from '/account.js';

export const REPORT_KINDS = [
  ['chat', 'Abuse in the chat'],
  ['cheating', 'Cheating'],
  ['leaving', 'Leaving games'],
];

/**
 * Opens the report form for room `roomId`; `players` are the usernames that may be reported
 * (people, not bots, not the reporter). `done(text)` is told the outcome to show.
 */
export function reportDialog(roomId, players, done) {
  const player = h('select', { id: 'report-player', name: 'player', required: true, dataset: { testid: 'report-player' } },
    players.map((p) => h('option', { value: p, text: p })));
  const kind = h('select', { id: 'report-kind', name: 'kind', dataset: { testid: 'report-kind' } },
    REPORT_KINDS.map(([v, t]) => h('option', { value: v, text: t })));
  const line = h('input', { id: 'report-line', name: 'line', maxLength: 500, autocomplete: 'off', dataset: { testid: 'report-line' }, attrs: { 'aria-describedby': 'report-line-hint' } });
  const err = h('p', { class: 'form-error', dataset: { testid: 'report-error' }, attrs: { role: 'alert' } });
  const send = h('button', { type: 'submit', class: 'primary', text: 'Send report', dataset: { testid: 'report-send' } });
  const cancel = h('button', { type: 'button', text: 'Cancel' });
  const form = h('form', { class: 'account-form', noValidate: true },
    h('h2', { id: 'report-title', text: 'Report a player' }),
    h('p', { class: 'hint account-intro', text: 'The moderators see your report with this room\u2019s chat and its last game.' }),
    h('div', { class: 'field' }, h('label', { for: 'report-player', text: 'Player' }), player),
    h('div', { class: 'field' }, h('label', { for: 'report-kind', text: 'What happened' }), kind),
    h('div', { class: 'field' }, h('label', { for: 'report-line', text: 'In a few words (optional)' }), line,
      h('p', { id: 'report-line-hint', class: 'hint', text: 'At most 500 characters.' })),
    err,
    h('div', { class: 'dialog-buttons' }, send, cancel));
  const dialog = h('dialog', { class: 'account-dialog card', dataset: { testid: 'report-dialog' }, attrs: { 'aria-labelledby': 'report-title' } }, form);
  cancel.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    send.disabled = true;
    try {
      await api('POST', '/api/reports', { room: roomId, player: player.value, kind: kind.value, line: line.value });
      dialog.close();
      done(`Thank you: your report on ${player.value} went to the moderators.`);
    } catch (ex) {
      err.textContent = ex instanceof ApiError ? ex.message : `Something went wrong: ${ex.message ?? ex}`;
      send.disabled = false;
    }
  });
  document.body.appendChild(dialog);
  dialog.showModal();
  player.focus();
  return dialog;
}
