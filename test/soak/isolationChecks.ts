/**
 * Isolation, from the OS's side: another Unix user can neither reach the bridge socket (even
 * holding the token) nor read bridge.json; neither the extension host nor the MCP server listens
 * on a TCP port.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { bridgeFilePath, readBridgeFile } from '../../common/src/bridgeDiscovery';
import { LinuxProcessMonitor } from '../../extension/src/core/processes/linuxProcessMonitor';
import { listProcesses } from '../support/vscodeProcesses';
import type { ShepherdWindow } from '../support/shepherdE2e';
import type { Check } from './report';

const OTHER_USER = 'tshep-other';

/** Run as the other user: what it gets trying to read bridge.json and to connect (with the token). */
const PROBE = `
const fs = require('fs'); const net = require('net');
const [file, endpoint, token] = process.argv.slice(1);
const out = {};
try { fs.readFileSync(file, 'utf8'); out.read = 'READ'; } catch (e) { out.read = e.code; }
try { fs.readdirSync(require('path').dirname(endpoint)); out.list = 'LISTED'; } catch (e) { out.list = e.code; }
const s = net.createConnection(endpoint);
s.on('connect', () => {
  s.write('Content-Length: ' + Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'bridge/hello', params: { token, protocolVersion: 1 } })) + '\\r\\n\\r\\n' + JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'bridge/hello', params: { token, protocolVersion: 1 } }));
  s.on('data', (d) => { out.connect = 'SERVED: ' + String(d).slice(0, 80); s.destroy(); console.log(JSON.stringify(out)); });
});
s.on('error', (e) => { out.connect = e.code; console.log(JSON.stringify(out)); });
setTimeout(() => { out.connect = out.connect || 'NO ANSWER'; console.log(JSON.stringify(out)); process.exit(0); }, 3000).unref();
`;

function ensureOtherUser(): void {
  if (spawnSync('id', [OTHER_USER], { stdio: 'ignore' }).status === 0) return;
  execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', OTHER_USER], { stdio: 'ignore' });
}

export async function anotherUser(win: ShepherdWindow): Promise<Check> {
  const name = 'another Unix user at the socket and bridge.json';
  if (process.platform !== 'linux' || process.getuid?.() !== 0) {
    const why = 'creating another Unix user needs root on Linux (CI runs as root)';
    console.warn(`\n!!! SKIPPING "${name}": ${why} !!!\n`);
    return { area: 'isolation', name, tried: 0, lost: 0, met: true, figures: '', skipped: why };
  }
  ensureOtherUser();
  const advertised = await readBridgeFile(bridgeFilePath(win.workspace));
  if (!advertised) throw new Error('no bridge.json');
  // Open every directory on the way so only the product's own modes stand in the way: bridge.json
  // (0600) and the socket's directory (0700). The harness's temp dirs are 0700 themselves.
  const opened = [win.workspace, path.dirname(bridgeFilePath(win.workspace)), win.vscode.runDir, path.join(win.vscode.runDir, 'tmp')];
  const modes = opened.map((d) => statSync(d).mode & 0o777);
  opened.forEach((d) => chmodSync(d, 0o755));
  let result: { read?: string; list?: string; connect?: string } = {};
  try {
    const out = execFileSync('runuser', ['-u', OTHER_USER, '--', process.execPath, '-e', PROBE, bridgeFilePath(win.workspace), advertised.endpoint, advertised.token], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    result = JSON.parse(out.trim().split('\n')[0]!);
  } finally {
    opened.forEach((d, i) => chmodSync(d, modes[i]!));
  }
  const refused = (code: string | undefined): boolean => code === 'EACCES' || code === 'EPERM';
  const lost = [result.read, result.list, result.connect].filter((code) => !refused(code)).length;
  return {
    area: 'isolation',
    name,
    tried: 3,
    lost,
    met: lost === 0,
    figures: `user ${OTHER_USER}, every directory on the way opened to it: reading bridge.json ${result.read}, listing the socket's directory ${result.list}, connecting with the token ${result.connect}`,
  };
}

/** No TCP socket in LISTEN state belongs to the extension host or to any Terminal Shepherd MCP server. */
export async function noTcpPort(win: ShepherdWindow): Promise<Check> {
  const name = 'no TCP port opened (extension host, MCP servers)';
  if (process.platform !== 'linux') {
    const why = 'reads /proc';
    console.warn(`\n!!! SKIPPING "${name}": ${why} !!!\n`);
    return { area: 'isolation', name, tried: 0, lost: 0, met: true, figures: '', skipped: why };
  }
  const host = win.vscode.driver.hello!.pid;
  // This window's (started by VS Code) and this runner's own: other users of the machine have theirs.
  const servers = [...win.vscode.processes(), ...listProcesses().filter((p) => p.ppid === process.pid)]
    .filter((p) => p.cmdline.includes('mcp-server.js'))
    .map((p) => p.pid);
  const monitor = new LinuxProcessMonitor();
  const ports = await monitor.listeningPorts([host, ...servers]);
  monitor.dispose();
  const unix = readFileSync('/proc/net/unix', 'utf8').includes((await readBridgeFile(bridgeFilePath(win.workspace)))?.endpoint ?? '\0');
  const lost = ports.size + (unix ? 0 : 1);
  return {
    area: 'isolation',
    name,
    tried: 1 + servers.length,
    lost,
    met: lost === 0,
    figures: `listening TCP ports of the extension host and ${servers.length} MCP server(s): ${ports.size === 0 ? 'none' : JSON.stringify([...ports])}; the bridge is a Unix socket (${unix ? 'in /proc/net/unix' : 'NOT FOUND'})`,
  };
}
