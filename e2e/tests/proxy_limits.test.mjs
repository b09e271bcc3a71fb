// Per-address limits behind HAProxy (issue 25, item 8). scripts/cluster.sh runs the proxy
// with deploy/haproxy.cfg, connecting to the nodes from 127.0.0.2, and the nodes with
// `--trusted-proxy 127.0.0.2`. A client's requests through the proxy must count against the
// client's own address (X-Forwarded-For, appended by the proxy), not the proxy's, and a
// client's own X-Forwarded-For must change nothing, through the proxy or straight to a node.
//
// The limit used: `--max-lookup-misses-per-minute-per-addr 5` (lookups of room ids that do
// not exist: 404, then 429 for every lookup from that address). Clients are told apart by
// their source address (loopback is all of 127/8 on Linux). One node, so that one counter
// sees every request. No browser. Skipped when the binary has no `--node-id`, or PostgreSQL
// 15 or HAProxy is missing.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverBinary, repo } from './helpers.js';

function ready() {
  if (!existsSync('/usr/lib/postgresql/15/bin/initdb')) return 'PostgreSQL 15 is not installed (scripts/pg.sh installs it)';
  const help = spawnSync(serverBinary(), ['serve', '--help'], { encoding: 'utf8' });
  if (!/--node-id/.test(help.stdout ?? '')) return 'this server binary has no --node-id';
  if (spawnSync('haproxy', ['-v']).status !== 0 && !existsSync('/usr/sbin/haproxy')) return 'haproxy is not installed';
  return null;
}
const skip = ready();

const clusterTmp = mkdtempSync(path.join(tmpdir(), 'cardtable-e2e-limits-'));
const clusterEnv = { ...process.env, CARDTABLE_BIN: serverBinary(), CARDTABLE_CLUSTER_DIR: path.join(clusterTmp, 'c') };
const cluster = (...args) => execFileSync(path.join(repo, 'scripts', 'cluster.sh'), args, { env: clusterEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 120000 }).trim();
let up = false;
after(() => {
  if (up) cluster('down');
  rmSync(clusterTmp, { recursive: true, force: true });
});

/** GET `url` from source address `from`, with extra headers; resolves to the status. */
function get(url, from, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { localAddress: from, headers, agent: false }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error(`GET ${url}: no answer in 5 s`)));
  });
}

let n = 0;
const missing = () => `/api/rooms/nosuchroom${(n++).toString().padStart(4, '0')}`;

/** `times` lookups of missing rooms; their statuses. */
async function misses(base, from, times, headers) {
  const out = [];
  for (let i = 0; i < times; i++) out.push(await get(`${base}${missing()}`, from, headers?.(i)));
  return out;
}

test('through HAProxy the lookup limit counts each client, not the proxy; a client\'s own X-Forwarded-For is ignored', { skip: skip ?? false }, async () => {
  const proxy = cluster('up', '1', '--', '--max-lookup-misses-per-minute-per-addr', '5').replace(/\/$/, '');
  up = true;
  const env = Object.fromEntries(cluster('env').split('\n').map((l) => l.split('=')).map(([k, ...v]) => [k, v.join('=').replace(/^'|'$/g, '')]));
  const node = env.CLUSTER_NODE_1;

  // Client A (127.0.0.3) through the proxy: five misses, then refused.
  assert.deepEqual(await misses(proxy, '127.0.0.3', 6), [404, 404, 404, 404, 404, 429]);
  // Client B (127.0.0.4) through the same proxy is not A: its lookups are its own.
  assert.deepEqual(await misses(proxy, '127.0.0.4', 2), [404, 404]);
  // A cannot get around it by naming someone else in its own X-Forwarded-For: the proxy
  // appends A's address, and the node counts the last hop.
  assert.equal(await get(`${proxy}${missing()}`, '127.0.0.3', { 'x-forwarded-for': '192.0.2.7' }), 429);
  // ... nor get B refused by naming B: C (127.0.0.5) claims to be B five times and is
  // refused itself, while B still gets its answers.
  assert.deepEqual(await misses(proxy, '127.0.0.5', 6, () => ({ 'x-forwarded-for': '127.0.0.4' })), [404, 404, 404, 404, 404, 429]);
  assert.equal(await get(`${proxy}${missing()}`, '127.0.0.4'), 404);

  // Straight to the node, the header counts for nothing: D (127.0.0.6) names a new address
  // each time and is refused after five all the same (D is not a trusted proxy).
  assert.deepEqual(await misses(node, '127.0.0.6', 6, (i) => ({ 'x-forwarded-for': `198.51.100.${i + 1}` })), [404, 404, 404, 404, 404, 429]);
  // And the proxy itself (127.0.0.2, whose requests carried eighteen misses for others) was
  // charged none of them: its own lookup still gets its answer.
  assert.equal(await get(`${node}${missing()}`, '127.0.0.2'), 404);
});
