// Runs inside desktop VS Code's extension host (launched by test/desktop/runDesktopTest.ts through
// @vscode/test-electron, bundled to out/desktop-suite/index.js first): the extension activates,
// then the shell matrix of this system (test/desktop/shells.ts) runs the way a user's MCP client
// calls: an MCP SDK client starts dist/mcp-server.js (on VS Code's own runtime, as VS Code starts
// it), which reaches this window through the workspace's .devtools/bridge.json. The shell that
// really ran is read from the OS (tasklist, ps), not from the product. A shell this machine does
// not have is skipped with a line saying so.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import { desktopShells, psCommandName, shellChecks, tasklistImageName, type DesktopShell } from '../shells';

const EXTENSION_ID = 'terminal-shepherd.terminal-shepherd';
const say = (line: string): void => console.log(`[desktop-test] ${line}`);

async function withTimeout<T>(what: string, ms: number, promise: Thenable<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve(promise),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The executable name the OS shows for `pid`. */
function processName(pid: number): string | undefined {
  if (process.platform === 'win32') {
    return tasklistImageName(execFileSync('tasklist', ['/FI', `PID eq ${pid}`, '/FO', 'CSV', '/NH'], { encoding: 'utf8' }));
  }
  return psCommandName(execFileSync('ps', ['-o', 'comm=', '-p', String(pid)], { encoding: 'utf8' }));
}

type Result = { status: string; output: string; exitCode?: number; exitCodeSource?: string; strategy: string; pid?: number };

async function runShell(client: Client, shell: DesktopShell, shellPath: string, failures: string[]): Promise<void> {
  await vscode.workspace.getConfiguration('terminalShepherd').update('terminal.shellPath', shellPath, vscode.ConfigurationTarget.Global);
  const name = `matrix-${shell.label.replace(/\W+/g, '-')}`;
  const call = async (command: string): Promise<Result> => {
    const result = await client.callTool({ name: 'terminal_run', arguments: { command, name, timeout: 60_000 } }, CallToolResultSchema, { timeout: 90_000 });
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    return result.structuredContent as Result;
  };
  for (const check of shellChecks(shell.family, process.platform)) {
    const title = `${shell.label}: ${check.title}`;
    try {
      const r = await call(check.command);
      assert.equal(r.status, 'completed', JSON.stringify(r));
      assert.equal(r.exitCode, check.exitCode, JSON.stringify(r));
      if (check.output !== undefined) assert.equal(r.output, check.output, JSON.stringify(r));
      if (check.sources) assert.ok(check.sources.includes(String(r.exitCodeSource)), `exitCodeSource ${r.exitCodeSource}`);
      assert.ok(shell.strategies.includes(r.strategy), `strategy ${r.strategy}, expected one of ${shell.strategies.join(', ')}`);
      if (r.pid !== undefined && r.strategy !== 'pseudoterminal') assert.equal(processName(r.pid), shell.processName, `the terminal's process ${r.pid}`);
      say(`PASS ${title}`);
    } catch (error) {
      failures.push(`${title}: ${error instanceof Error ? error.message : String(error)}`);
      say(`FAIL ${title}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not loaded (extensions seen: ${vscode.extensions.all.map((e) => e.id).join(', ')})`);
  await withTimeout(`${EXTENSION_ID}'s activation`, 30_000, ext.activate());
  assert.equal(ext.isActive, true, `${EXTENSION_ID} is not active`);
  say(`${EXTENSION_ID} activated in VS Code ${vscode.version} (${process.platform})`);

  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(workspace, 'the suite needs a workspace folder');
  const bridgeFile = path.join(workspace, '.devtools', 'bridge.json');
  const deadline = Date.now() + 30_000;
  while (!existsSync(bridgeFile) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  assert.ok(existsSync(bridgeFile), `${bridgeFile} was not written`);

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(ext.extensionPath, 'dist', 'mcp-server.js'), '--workspace', workspace],
    // VS Code's own runtime, as it runs the server for Copilot (Electron acting as Node).
    env: { ...(process.env as Record<string, string>), ELECTRON_RUN_AS_NODE: '1' },
    cwd: workspace,
  });
  const client = new Client({ name: 'terminal-shepherd-desktop-test', version: '1.0.0' });
  await withTimeout('connecting to the MCP server', 30_000, client.connect(transport));
  const failures: string[] = [];
  try {
    for (const shell of desktopShells(process.platform, process.env)) {
      const shellPath = shell.candidates.find((candidate) => existsSync(candidate));
      if (!shellPath) {
        say(`SKIP ${shell.label}: not installed on this machine (looked for ${shell.candidates.join(', ')})`);
        continue;
      }
      await runShell(client, shell, shellPath, failures);
    }
  } finally {
    await client.close().catch(() => undefined);
  }
  assert.deepEqual(failures, [], `shell matrix failures:\n${failures.join('\n')}`);
}
