// Test-only "driver" extension for the e2e harness (test/support/vscodeHarness.ts; its client is driverClient.ts). Never shipped.
//
// When the extension host's environment has TS_TEST_DRIVER_SOCKET, it listens on that Unix socket
// and serves a tiny newline-delimited JSON protocol:
//   server -> client, once on connect: {"hello":{"pid":<extension host pid>,"vscodeVersion":"1.139.1"}}
//   client -> server: {"id":1,"method":"evaluate","params":{"code":"return vscode.version"}}
//   server -> client: {"id":1,"result":<JSON value>}   (absent when the code returned undefined)
//                  or {"id":1,"error":{"name":"Error","message":"...","stack":"..."}}
// `code` is the body of an async function with parameters (vscode, require, state): `state` is one
// object shared by all calls in this extension host, to keep listeners and disposables between calls.
// With TS_TEST_DRIVER_LOOP=1 it also measures the extension host's event loop from its own
// activation (before the extensions that activate on startup finished): `state.loop` (see watchLoop).
'use strict';
const fs = require('fs');
const net = require('net');
const { monitorEventLoopDelay } = require('perf_hooks');
const vscode = require('vscode');

const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
const state = {};

function errorJson(e) {
  if (e instanceof Error) return { name: e.name, message: e.message, stack: e.stack };
  return { name: 'Error', message: typeof e === 'string' ? e : safeString(e), stack: undefined };
}

function safeString(v) {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

function replacer(_key, value) {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return [...value];
  return value;
}

async function handle(request) {
  if (request.method !== 'evaluate') throw new Error(`unknown method ${JSON.stringify(request.method)}: only "evaluate" is served`);
  const code = request.params && request.params.code;
  if (typeof code !== 'string') throw new Error('evaluate needs params.code (a string)');
  return new AsyncFunction('vscode', 'require', 'state', code)(vscode, require, state);
}

function serve(socketPath, context, output) {
  try {
    fs.unlinkSync(socketPath); // a socket left by an earlier extension host (window reload, restart)
  } catch {
    /* none */
  }
  const sockets = new Set();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setEncoding('utf8');
    const send = (obj) => {
      if (!socket.destroyed) socket.write(obj + '\n');
    };
    send(JSON.stringify({ hello: { pid: process.pid, vscodeVersion: vscode.version } }));
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!line.trim()) continue;
        let request;
        try {
          request = JSON.parse(line);
        } catch (e) {
          send(JSON.stringify({ id: null, error: errorJson(new Error(`bad JSON from client: ${e.message}`)) }));
          continue;
        }
        handle(request).then(
          (result) => {
            let text;
            try {
              text = JSON.stringify({ id: request.id, result }, replacer);
            } catch (e) {
              text = JSON.stringify({ id: request.id, error: errorJson(new Error(`the result is not JSON-serialisable: ${e.message}`)) });
            }
            send(text);
          },
          (e) => send(JSON.stringify({ id: request.id, error: errorJson(e) })),
        );
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('error', (e) => output.appendLine(`driver socket error: ${e.stack || e}`));
  server.listen(socketPath, () => output.appendLine(`driver listening on ${socketPath} (extension host pid ${process.pid})`));
  context.subscriptions.push({
    dispose() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  });
}

/** Heartbeat period (ms): a gap longer than this by STALL_MS or more is kept with its wall-clock end. */
const BEAT_MS = 2;
const STALL_MS = 10;

/**
 * The event loop's delay, in phases the test names: `state.loop.phase(name)` closes the current
 * phase (its histogram: max, p50, p99 in ms) and opens the next; `state.loop.report()` closes the
 * last and returns every phase and every stall (a heartbeat gap over STALL_MS, its end as Date.now()).
 */
function watchLoop(context) {
  const phases = [];
  const stalls = [];
  let current = { name: 'activation', startedAt: Date.now(), histogram: monitorEventLoopDelay({ resolution: 1 }) };
  current.histogram.enable();
  let last = performance.now();
  const heartbeat = setInterval(() => {
    const now = performance.now();
    if (now - last - BEAT_MS >= STALL_MS) stalls.push({ endedAt: Date.now(), ms: now - last - BEAT_MS, phase: current.name });
    last = now;
  }, BEAT_MS);
  const close = () => {
    const h = current.histogram;
    h.disable();
    const ms = (ns) => ns / 1e6;
    phases.push({ name: current.name, startedAt: current.startedAt, endedAt: Date.now(), maxMs: ms(h.max), p50Ms: ms(h.percentile(50)), p99Ms: ms(h.percentile(99)), samples: h.count });
  };
  state.loop = {
    phase(name) {
      close();
      current = { name, startedAt: Date.now(), histogram: monitorEventLoopDelay({ resolution: 1 }) };
      current.histogram.enable();
    },
    report() {
      close();
      clearInterval(heartbeat);
      return { phases, stalls };
    },
  };
  context.subscriptions.push({ dispose: () => (clearInterval(heartbeat), current.histogram.disable()) });
}

function activate(context) {
  if (process.env.TS_TEST_DRIVER_LOOP === '1') watchLoop(context);
  const output = vscode.window.createOutputChannel('Terminal Shepherd Test Driver');
  context.subscriptions.push(output);
  const socketPath = process.env.TS_TEST_DRIVER_SOCKET;
  if (!socketPath) {
    output.appendLine('TS_TEST_DRIVER_SOCKET is not set: the driver stays idle');
    return;
  }
  serve(socketPath, context, output);
}

function deactivate() {}

module.exports = { activate, deactivate };
