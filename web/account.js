// Who is playing: the identity every visitor gets without a form (issue 42), and the account
// menu in the page header.
//
// On the first page the client asks `POST /api/auth/guest`: the signed-in account, or a new
// guest from then on (`guest-4821`). The session lives in an
// HttpOnly cookie: this code never sees it, every same-origin fetch and the room's WebSocket
// carry it. If the server cannot give an identity (an older server, the API failing), the
// page falls back to asking for a name in each room, as before (`identity.me` stays null).
//
// The menu: change name (a guest, once), sign up (keeps the guest's matches), sign in, sign
// out, sign out everywhere, change password, passkeys (where the browser has WebAuthn), my
// profile, export my data, delete the account. Each form is a <dialog> whose fields have real
// <label for>s; the server's errors (`{"error": code, "reason": sentence}`) are shown in it.
// A change of who is signed in reloads the page, so that everything on it (a room's socket
// included) starts again as the new person.

import { h, replaceChildren } from '/dom.js';

/** The signed-in account (`{id, name, guest, createdAt, renamed, admin, passkeys}`), or null
 * while loading and when no identity could be had (`failed`). `banned`: the account is banned
 * (`{reason, until}`, `until` null for good; issue 44), the page says so and plays nothing. */
export const identity = { me: null, failed: false, banned: null };

/** An answer of the API that was not a success: its stable `code` and a sentence for people. */
export class ApiError extends Error {
  constructor(code, reason, status, data = null) {
    super(reason);
    this.code = code;
    this.status = status;
    // The whole answer (a ban's `until`).
    this.data = data;
  }
}

/**
 * A same-origin JSON request. Resolves to the answer's JSON (null for 204); rejects with an
 * ApiError carrying the server's `error` code and `reason` sentence.
 */
export async function api(method, path, body) {
  const opts = { method, cache: 'no-store', credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    opts.headers['content-type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch {
    throw new ApiError('network', 'Could not reach the server. Try again in a moment.', 0);
  }
  if (res.status === 204) return null;
  let data = null;
  try { data = await res.json(); } catch { /* not JSON */ }
  if (!res.ok) {
    // Most errors are {error: code, reason}; a few older ones are {error: sentence}.
    const reason = data?.reason ?? data?.error ?? `The server answered ${res.status}.`;
    throw new ApiError(data?.reason ? data.error : `http_${res.status}`, sentence(reason), res.status, data);
  }
  return data;
}

/** "wrong name or password" -> "Wrong name or password." */
function sentence(s) {
  const t = String(s).trim();
  if (!t) return t;
  return t[0].toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? '' : '.');
}

let loading = null;

/** Gets the visitor's identity once per page: the current account, else a new guest. One
 * request either way: `POST /api/auth/guest` answers the signed-in account (200) or makes a
 * guest (201), so a first visit logs no 401 in the console. */
export function loadIdentity() {
  loading ??= (async () => {
    try {
      identity.me = (await api('POST', '/api/auth/guest', {})).account;
      if (!identity.me?.name) throw new Error('no name in the identity');
    } catch (ex) {
      identity.me = null;
      identity.failed = true;
      if (ex instanceof ApiError && ex.code === 'banned') {
        identity.banned = { reason: ex.message, until: ex.data?.until ?? null };
        showBanned(identity.banned);
      }
    }
    return identity.me;
  })();
  return loading;
}

/** "until 7 Dec 2026, 10:00" in the reader's own time, or "for good". */
export function banEnd(until) {
  if (until == null) return 'for good';
  const d = new Date(until);
  return `until ${d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })}`;
}

/** The notice a banned person sees at the top of every page (`{reason, until}` from the
 * server: its sentence names the end in UTC; the line under it in the reader's time). */
export function bannedNotice(ban) {
  return h('section', { class: 'card banned-notice', dataset: { testid: 'banned' }, attrs: { role: 'alert' } },
    h('h2', { text: 'You are banned' }),
    h('p', { text: ban.reason }),
    h('p', { class: 'hint', text: ban.until == null ? 'The ban does not end.' : `It ends ${banEnd(ban.until).replace(/^until /, 'on ')}.` }));
}

function showBanned(ban) {
  const main = document.getElementById('app');
  document.querySelector('[data-testid=banned]')?.remove();
  main?.parentNode?.insertBefore(bannedNotice(ban), main);
}

/** Whether this browser can use passkeys (WebAuthn; only in a secure context). */
export function passkeysAvailable() {
  return typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;
}

/** A profile's address. */
export function profileHref(name) {
  return `/u/${encodeURIComponent(name)}`;
}

// ---- the header menu ---------------------------------------------------------------------------

/** Draws the account menu into `slot` (the header's), and again whenever the identity changes. */
export function mountAccountMenu(slot) {
  if (!slot) return;
  const draw = () => drawMenu(slot);
  draw();
  window.addEventListener('cardtable:identity', draw);
}

function changed(me) {
  identity.me = me;
  window.dispatchEvent(new CustomEvent('cardtable:identity'));
}

/** The page starts again as whoever the cookie now names. */
function restart() {
  location.reload();
}

function drawMenu(slot) {
  const me = identity.me;
  if (!me) { replaceChildren(slot); return; }
  const panel = h('div', { id: 'account-menu', class: 'account-menu', hidden: true, dataset: { testid: 'account-menu' } });
  const toggle = h('button', {
    type: 'button', class: 'account-button', id: 'account-button',
    dataset: { testid: 'account-button' },
    attrs: { 'aria-expanded': 'false', 'aria-controls': 'account-menu' },
  },
  h('span', { class: 'sr-only', text: me.guest ? 'Playing as guest ' : 'Signed in as ' }),
  h('bdi', { class: 'account-name', dataset: { testid: 'account-name' }, text: me.name }),
  // The words before the name say "guest" already: the badge is for the eye.
  me.guest ? h('span', { class: 'account-badge', text: 'guest', attrs: { 'aria-hidden': 'true' } }) : null,
  h('span', { class: 'account-caret', attrs: { 'aria-hidden': 'true' }, text: '▾' }));

  const open = (yes) => {
    panel.hidden = !yes;
    toggle.setAttribute('aria-expanded', String(yes));
    if (yes) panel.querySelector('a, button')?.focus();
  };
  toggle.addEventListener('click', () => open(panel.hidden));
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { open(false); toggle.focus(); }
  });
  // A click anywhere else closes the menu.
  document.addEventListener('click', (e) => {
    if (!panel.hidden && !slot.contains(e.target)) open(false);
  });

  const item = (text, testid, onClick, cls = '') => {
    const b = h('button', { type: 'button', class: `account-item ${cls}`, text, dataset: { testid } });
    b.addEventListener('click', () => { open(false); onClick(); });
    return h('li', {}, b);
  };
  const link = (text, testid, href, extra = {}) => h('li', {}, h('a', { class: 'account-item', href, text, dataset: { testid }, ...extra }));
  const pk = passkeysAvailable();
  const items = [
    link('My profile', 'menu-profile', profileHref(me.name)),
    me.admin ? link('Admin console', 'menu-admin', '/admin') : null,
    me.guest && !me.renamed ? item('Change name', 'menu-rename', renameDialog) : null,
    me.guest ? item('Sign up', 'menu-signup', signUpDialog, 'menu-strong') : null,
    me.guest ? item('Sign in', 'menu-signin', signInDialog) : null,
    me.guest && pk ? item('Sign in with a passkey', 'menu-passkey-signin', passkeySignIn) : null,
    !me.guest ? item('Change password', 'menu-password', passwordDialog) : null,
    !me.guest && pk ? item(me.passkeys ? `Add a passkey (${me.passkeys} so far)` : 'Add a passkey', 'menu-passkey-add', passkeyAdd) : null,
    link('Export my data', 'menu-export', '/api/me/export', { download: `cardtable-${me.name}.json` }),
    !me.guest ? item('Sign out', 'menu-signout', signOut) : null,
    !me.guest ? item('Sign out everywhere', 'menu-signout-all', signOutEverywhere) : null,
    item('Delete account', 'menu-delete', deleteDialog, 'menu-danger'),
  ];
  replaceChildren(panel,
    h('p', { class: 'menu-who' }, me.guest
      ? ['You play as the guest ', h('bdi', { text: me.name }), '. Sign up to keep this name and your games on any device.']
      : ['Signed in as ', h('bdi', { text: me.name }), '.']),
    h('ul', { class: 'account-list' }, items));
  replaceChildren(slot, h('div', { class: 'account' }, toggle, panel));
}

// ---- forms -------------------------------------------------------------------------------------

let dialogSeq = 0;

/**
 * Opens a modal form. `fields`: `{name, label, type, autocomplete, hint, value}`; `submit`
 * gets the values by name and may throw (an ApiError's sentence is shown in the form, next to
 * its fields). Resolves nothing; the dialog removes itself when closed.
 */
function formDialog({ title, intro, fields = [], submitText, danger = false, testid, submit }) {
  const n = ++dialogSeq;
  const inputs = {};
  const rows = fields.map((f) => {
    const id = `acct-${n}-${f.name}`;
    const hintId = f.hint ? `${id}-hint` : null;
    const input = h('input', {
      id, name: f.name, type: f.type ?? 'text', required: f.required !== false, value: f.value ?? '',
      autocomplete: f.autocomplete ?? 'off',
      attrs: { 'aria-describedby': hintId, minlength: f.minLength, maxlength: f.maxLength, spellcheck: 'false', autocapitalize: 'none' },
      dataset: { testid: `field-${f.name}` },
    });
    inputs[f.name] = input;
    return h('div', { class: 'field' },
      h('label', { for: id, text: f.label }),
      input,
      hintId ? h('p', { id: hintId, class: 'hint', text: f.hint }) : null);
  });
  const err = h('p', { class: 'form-error', dataset: { testid: 'account-error' }, attrs: { role: 'alert' } });
  const ok = h('button', { type: 'submit', class: danger ? 'danger' : 'primary', text: submitText, dataset: { testid: 'dialog-submit' } });
  const cancel = h('button', { type: 'button', text: 'Cancel', dataset: { testid: 'dialog-cancel' } });
  const titleId = `acct-${n}-title`;
  const form = h('form', { class: 'account-form', noValidate: true },
    h('h2', { id: titleId, text: title }),
    intro ? h('p', { class: 'hint account-intro', text: intro }) : null,
    rows, err,
    h('div', { class: 'dialog-buttons' }, ok, cancel));
  const dialog = h('dialog', { class: 'account-dialog card', dataset: { testid: testid ?? 'account-dialog' }, attrs: { 'aria-labelledby': titleId } }, form);
  cancel.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    for (const [name, input] of Object.entries(inputs)) {
      if (input.required && !input.value) {
        err.textContent = `Fill in ${fields.find((f) => f.name === name).label.toLowerCase()}.`;
        input.focus();
        return;
      }
    }
    const values = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, v.value]));
    ok.disabled = true;
    try {
      await submit(values, dialog);
    } catch (ex) {
      err.textContent = ex instanceof ApiError ? ex.message : `Something went wrong: ${ex.message ?? ex}`;
      ok.disabled = false;
      // Back to the field the error is about, when it says which.
      const code = ex?.code ?? '';
      const target = /^name|taken/.test(code) ? inputs.name : /password|credentials/.test(code) ? (inputs.password ?? inputs.current) : null;
      (target ?? Object.values(inputs)[0])?.focus();
    }
  });
  document.body.appendChild(dialog);
  dialog.showModal();
  Object.values(inputs)[0]?.focus();
  return dialog;
}

const NAME_HINT = '2–20 letters or digits (any alphabet), _ or -, starting with a letter or digit.';
const PASSWORD_HINT = 'At least 8 characters.';

function renameDialog() {
  formDialog({
    title: 'Change your name',
    intro: 'A guest may change its name once. To pick a name for good, sign up instead.',
    testid: 'rename-dialog',
    fields: [{ name: 'name', label: 'New name', autocomplete: 'nickname', hint: NAME_HINT, maxLength: 20 }],
    submitText: 'Change name',
    async submit(v, dialog) {
      const me = await api('PATCH', '/api/me', { name: v.name.trim() });
      dialog.close();
      changed(me);
      notify(`You are now ${me.name}.`);
    },
  });
}

function signUpDialog() {
  formDialog({
    title: 'Sign up',
    intro: 'Your games as a guest stay yours under the new name.',
    testid: 'signup-dialog',
    fields: [
      { name: 'name', label: 'Name', autocomplete: 'username', hint: NAME_HINT, maxLength: 20 },
      { name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', hint: PASSWORD_HINT },
    ],
    submitText: 'Sign up',
    async submit(v) {
      await api('POST', '/api/auth/register', { name: v.name.trim(), password: v.password });
      restart();
    },
  });
}

function signInDialog() {
  formDialog({
    title: 'Sign in',
    testid: 'signin-dialog',
    fields: [
      { name: 'name', label: 'Name', autocomplete: 'username', maxLength: 40 },
      { name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password' },
    ],
    submitText: 'Sign in',
    async submit(v) {
      await api('POST', '/api/auth/login', { name: v.name.trim(), password: v.password });
      restart();
    },
  });
}

function passwordDialog() {
  formDialog({
    title: 'Change password',
    intro: 'You stay signed in here; every other device is signed out.',
    testid: 'password-dialog',
    fields: [
      { name: 'current', label: 'Current password', type: 'password', autocomplete: 'current-password' },
      { name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: PASSWORD_HINT },
    ],
    submitText: 'Change password',
    async submit(v, dialog) {
      const me = await api('PATCH', '/api/me', { password: v.password, currentPassword: v.current });
      dialog.close();
      changed(me);
      notify('Password changed. Your other devices are signed out.');
    },
  });
}

function deleteDialog() {
  const me = identity.me;
  formDialog({
    title: 'Delete account',
    intro: `This deletes ${me.name} for good: you are signed out everywhere and its passkeys go. The matches it played stay, under a name shown as deleted. Export your data first if you want a copy.`,
    testid: 'delete-dialog',
    danger: true,
    fields: me.guest ? [] : [{ name: 'password', label: 'Your password', type: 'password', autocomplete: 'current-password' }],
    submitText: 'Delete my account',
    async submit(v) {
      await api('DELETE', '/api/me', me.guest ? {} : { password: v.password });
      restart();
    },
  });
}

async function signOut() {
  try {
    await api('POST', '/api/auth/logout', {});
    restart();
  } catch (ex) { notify(ex.message, 'error'); }
}

async function signOutEverywhere() {
  try {
    await api('POST', '/api/auth/logout-all', {});
    restart();
  } catch (ex) { notify(ex.message, 'error'); }
}

/** A short message in the page's alert area (the shell's, if it is there). */
function notify(text, kind = 'info') {
  const alerts = document.getElementById('alerts');
  if (!alerts) return;
  const el = h('div', { class: `alert alert-${kind}`, dataset: { testid: 'account-notice' }, attrs: { role: kind === 'error' ? 'alert' : 'status' } },
    h('span', { class: 'alert-text', text }));
  alerts.appendChild(el);
  setTimeout(() => el.remove(), kind === 'error' ? 8000 : 6000);
}

// ---- passkeys (WebAuthn) -----------------------------------------------------------------------
//
// The server (webauthn-rs) sends its options with binary fields as base64url strings and wants
// the browser's answer the same way: these two turn them into ArrayBuffers and back.

export function fromB64url(s) {
  const b64 = String(s).replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}

export function toB64url(buf) {
  const bytes = new Uint8Array(buf);
  let bin = '';
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Extension outputs as JSON (binary ones, which the server does not ask for, dropped). */
function extensionResults(cred) {
  try {
    return JSON.parse(JSON.stringify(cred.getClientExtensionResults?.() ?? {}));
  } catch {
    return {};
  }
}

/** Registers a passkey for the signed-in account: `register/start`, the browser, `register/finish`. */
export async function addPasskey() {
  const { challenge, options } = await api('POST', '/api/auth/passkey/register/start', {});
  const pk = options.publicKey;
  pk.challenge = fromB64url(pk.challenge);
  pk.user = { ...pk.user, id: fromB64url(pk.user.id) };
  if (pk.excludeCredentials) pk.excludeCredentials = pk.excludeCredentials.map((c) => ({ ...c, id: fromB64url(c.id) }));
  // Signing in with a passkey asks no name (`login/start` lists no credentials), so the
  // passkey must be one the authenticator can find by itself: a discoverable ("resident")
  // credential. webauthn-rs's passkey options say `residentKey: "discouraged"`, which many
  // authenticators (security keys, Chromium's virtual one) follow, making a passkey that could
  // never sign in here. The server does not check this choice; the page makes it.
  pk.authenticatorSelection = { ...pk.authenticatorSelection, residentKey: 'required', requireResidentKey: true };
  const cred = await navigator.credentials.create({ publicKey: pk });
  if (!cred) throw new ApiError('passkey_cancelled', 'No passkey was made.', 0);
  const credential = {
    id: cred.id,
    rawId: toB64url(cred.rawId),
    type: cred.type,
    response: {
      attestationObject: toB64url(cred.response.attestationObject),
      clientDataJSON: toB64url(cred.response.clientDataJSON),
    },
    extensions: extensionResults(cred),
  };
  return (await api('POST', '/api/auth/passkey/register/finish', { challenge, credential })).account;
}

/** Signs in with a passkey the browser offers: `login/start`, the browser, `login/finish`. */
export async function signInWithPasskey() {
  const { challenge, options } = await api('POST', '/api/auth/passkey/login/start', {});
  const pk = options.publicKey;
  pk.challenge = fromB64url(pk.challenge);
  if (pk.allowCredentials) pk.allowCredentials = pk.allowCredentials.map((c) => ({ ...c, id: fromB64url(c.id) }));
  const cred = await navigator.credentials.get({ publicKey: pk });
  if (!cred) throw new ApiError('passkey_cancelled', 'No passkey was chosen.', 0);
  const r = cred.response;
  const credential = {
    id: cred.id,
    rawId: toB64url(cred.rawId),
    type: cred.type,
    response: {
      authenticatorData: toB64url(r.authenticatorData),
      clientDataJSON: toB64url(r.clientDataJSON),
      signature: toB64url(r.signature),
      userHandle: r.userHandle ? toB64url(r.userHandle) : null,
    },
    extensions: extensionResults(cred),
  };
  return (await api('POST', '/api/auth/passkey/login/finish', { challenge, credential })).account;
}

/** What a failed ceremony says: the browser's refusals (cancelled, timed out) in words. */
function passkeyError(ex) {
  if (ex instanceof ApiError) return ex.message;
  if (ex?.name === 'NotAllowedError') return 'The passkey request was cancelled or timed out.';
  if (ex?.name === 'InvalidStateError') return 'This device already holds a passkey for this account.';
  if (ex?.name === 'SecurityError') return 'Passkeys do not work on this address (they need a domain name, not an IP address).';
  return `The passkey did not work: ${ex?.message ?? ex}`;
}

function passkeyAdd() {
  formDialog({
    title: 'Add a passkey',
    intro: 'A passkey lets you sign in on this device with its screen lock or security key, without your password.',
    testid: 'passkey-add-dialog',
    submitText: 'Add a passkey',
    async submit(_v, dialog) {
      let me;
      try { me = await addPasskey(); } catch (ex) { throw new ApiError(ex?.code ?? 'passkey', passkeyError(ex), 0); }
      dialog.close();
      changed(me);
      notify('Passkey added: you can sign in with it from now on.');
    },
  });
}

function passkeySignIn() {
  formDialog({
    title: 'Sign in with a passkey',
    intro: 'Your browser asks which passkey to use.',
    testid: 'passkey-signin-dialog',
    submitText: 'Use a passkey',
    async submit() {
      try { await signInWithPasskey(); } catch (ex) { throw new ApiError(ex?.code ?? 'passkey', passkeyError(ex), 0); }
      restart();
    },
  });
}
