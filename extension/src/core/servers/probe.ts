/**
 * Asks a local port whether a server answers: an HTTP GET (Playwright's accepted statuses: 2xx,
 * 3xx, 400-403) and, for a bare port, a TCP connect to 127.0.0.1 and then ::1 first. Only
 * loopback addresses are ever contacted. Every probe is bounded in time and leaves no socket open.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export type ProbeResult =
  /** An HTTP answer; `accepted` per Playwright's webServer rule. */
  | { readonly kind: 'http'; readonly url: string; readonly status: number; readonly accepted: boolean }
  /** The port accepts connections but gave no HTTP answer (another protocol, or still busy). */
  | { readonly kind: 'tcp'; readonly url: string; readonly why: 'not_http' | 'no_answer' }
  /** Nothing accepts connections there (yet). */
  | { readonly kind: 'refused' };

export interface ProbeTimeouts {
  /** Longest wait for a TCP connection. */
  readonly connectMs: number;
  /** Longest wait for the response headers once connected. */
  readonly answerMs: number;
}

export const defaultProbeTimeouts: ProbeTimeouts = { connectMs: 1000, answerMs: 3000 };

/** Playwright's webServer: 2xx, 3xx and 400-403 count as up (a login wall is up). */
export function isAcceptedStatus(status: number): boolean {
  return (status >= 200 && status < 400) || (status >= 400 && status <= 403);
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|\[::ffff:127\.0\.0\.1\])$/i;

/** GETs a local URL and reports what answered. A URL on any other host is refused outright. */
export function probeUrl(url: string, timeouts: ProbeTimeouts = defaultProbeTimeouts): Promise<ProbeResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve({ kind: 'refused' });
  }
  if (!LOOPBACK_HOST.test(target.hostname) || (target.protocol !== 'http:' && target.protocol !== 'https:')) {
    return Promise.resolve({ kind: 'refused' });
  }
  return new Promise((resolve) => {
    let connected = false;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: ProbeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const get = target.protocol === 'https:' ? https.get : http.get;
    const request = get(target, {
      agent: false,
      headers: { 'user-agent': 'terminal-shepherd-ready-probe', accept: '*/*' },
      // A dev server's certificate is self-signed more often than not; nothing is sent but a GET.
      rejectUnauthorized: false,
    });
    timer = setTimeout(() => finish(connected ? { kind: 'tcp', url, why: 'no_answer' } : { kind: 'refused' }), timeouts.connectMs);
    request.on('socket', (socket) => {
      socket.once('connect', () => {
        connected = true;
        clearTimeout(timer);
        timer = setTimeout(() => finish({ kind: 'tcp', url, why: 'no_answer' }), timeouts.answerMs);
      });
      socket.once('secureConnect', () => (connected = true));
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      response.resume();
      finish({ kind: 'http', url, status, accepted: isAcceptedStatus(status) });
    });
    request.on('error', () => finish(connected ? { kind: 'tcp', url, why: 'not_http' } : { kind: 'refused' }));
  });
}

/** Whether something accepts TCP connections on the port, 127.0.0.1 first, then ::1; the host that did. */
export async function connectLocal(port: number, timeoutMs: number): Promise<'127.0.0.1' | '::1' | undefined> {
  for (const host of ['127.0.0.1', '::1'] as const) {
    if (await canConnect(host, port, timeoutMs)) return host;
  }
  return undefined;
}

function canConnect(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * A port with no URL known: connect (v4, then v6), then GET / on the address that accepted.
 * Reports the URL as http://localhost:PORT/, which a browser reaches over either family.
 */
export async function probePort(port: number, timeouts: ProbeTimeouts = defaultProbeTimeouts): Promise<ProbeResult> {
  const host = await connectLocal(port, timeouts.connectMs);
  if (!host) return { kind: 'refused' };
  const shown = `http://localhost:${port}/`;
  const result = await probeUrl(`http://${host === '::1' ? '[::1]' : host}:${port}/`, timeouts);
  switch (result.kind) {
    case 'http':
      return { ...result, url: shown };
    case 'tcp':
      return { ...result, url: shown };
    default:
      return { kind: 'tcp', url: shown, why: 'no_answer' }; // it accepted a moment ago
  }
}
