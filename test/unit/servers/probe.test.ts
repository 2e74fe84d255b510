/**
 * The loopback probes against real sockets in this process: an HTTP server per status, a TCP
 * server that speaks no HTTP, one that accepts and never answers, a closed port; and the rule
 * that nothing but loopback is ever contacted.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { connectLocal, isAcceptedStatus, probePort, probeUrl } from '../../../extension/src/core/servers/probe';

const fast = { connectMs: 500, answerMs: 400 };

function listen(server: net.Server, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as net.AddressInfo).port)));
}

describe('loopback probes', () => {
  const servers: net.Server[] = [];
  const sockets = new Set<net.Socket>();
  afterEach(async () => {
    sockets.forEach((s) => s.destroy());
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });
  const track = <T extends net.Server>(server: T): T => {
    servers.push(server);
    server.on('connection', (s: net.Socket) => {
      sockets.add(s);
      s.on('error', () => undefined); // the probe hangs up as soon as it knows enough
    });
    return server;
  };

  it("Playwright's accepted statuses: 2xx, 3xx, 400-403", () => {
    assert.deepEqual([200, 204, 301, 304, 400, 401, 403, 404, 500, 503].map(isAcceptedStatus), [true, true, true, true, true, true, true, false, false, false]);
  });

  it('an HTTP server: its status, accepted or not; a port probe reports http://localhost:PORT/', async () => {
    let status = 200;
    const port = await listen(track(http.createServer((_req, res) => res.writeHead(status).end('x'))));
    assert.deepEqual(await probeUrl(`http://127.0.0.1:${port}/`, fast), { kind: 'http', url: `http://127.0.0.1:${port}/`, status: 200, accepted: true });
    status = 404;
    assert.deepEqual(await probePort(port, fast), { kind: 'http', url: `http://localhost:${port}/`, status: 404, accepted: false });
    assert.deepEqual(await probeUrl(`http://localhost:${port}/`, fast), { kind: 'http', url: `http://localhost:${port}/`, status: 404, accepted: false });
  });

  it('a TCP server that speaks no HTTP, and one that accepts but never answers', async () => {
    const garbage = await listen(track(net.createServer((s) => s.end('SSH-2.0-not-http\r\n\r\n'))));
    assert.deepEqual(await probePort(garbage, fast), { kind: 'tcp', url: `http://localhost:${garbage}/`, why: 'not_http' });
    const silent = await listen(track(net.createServer(() => undefined)));
    const t0 = Date.now();
    assert.deepEqual(await probePort(silent, fast), { kind: 'tcp', url: `http://localhost:${silent}/`, why: 'no_answer' });
    assert.ok(Date.now() - t0 < 3000, 'bounded by the answer timeout');
  });

  it('a closed port is refused; an IPv6-only server is found over ::1', async () => {
    const probe = track(net.createServer());
    const port = await listen(probe);
    await new Promise((r) => probe.close(r));
    servers.splice(servers.indexOf(probe), 1);
    assert.deepEqual(await probePort(port, fast), { kind: 'refused' });
    assert.deepEqual(await probeUrl(`http://127.0.0.1:${port}/`, fast), { kind: 'refused' });
    const v6 = track(http.createServer((_req, res) => res.end()));
    let v6Port: number;
    try {
      v6Port = await listen(v6, '::1');
    } catch {
      return; // no IPv6 loopback on this machine: the v4 cases above still ran
    }
    assert.equal(await connectLocal(v6Port, 500), '::1');
    assert.equal((await probePort(v6Port, fast)).kind, 'http');
  });

  it('never contacts anything but loopback', async () => {
    for (const url of ['http://10.0.0.1:80/', 'http://192.168.1.2:5173/', 'http://example.com/', 'ftp://127.0.0.1:21/', 'not a url']) {
      assert.deepEqual(await probeUrl(url, fast), { kind: 'refused' }, url);
    }
  });
});
