// Issue 24 in the real VS Code (code-server 1.139): the per-command check decides on what the shell
// will run. Through an MCP client over stdio whose elicitation the test answers, a line of each
// class (terminal bytes, a write placed by cd or quotes, a reader's output option, a sed script
// that runs a program, history expansion) asks and, declined, leaves the disk unchanged; then which
// of the person's settings make every command run unasked, as VS Code 1.139 reads them (its tool
// service reads chat.tools.global.autoApprove from the local user settings, which code-server's
// remote extension host is not given).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TerminalRunResult } from '../../common/src/protocol';
import { connectMcpServer, toolText, type McpSession } from '../support/mcpClient';
import { E2E_SETTINGS, openShepherdWindow, suiteWindow } from '../support/shepherdE2e';
import { TempDirs } from '../support/tempDirs';

describe('issue 24: the hardened per-command check in the real VS Code', function () {
  this.timeout(300_000);
  const dirs = new TempDirs();
  const outside = dirs.make('hardening-outside-');
  const settings = { 'terminalShepherd.safety.perCommandCheck': true };
  const win = suiteWindow(() => openShepherdWindow({ label: 'safety-hardening', settings }), () => dirs.cleanup());
  let session: McpSession;
  const asked: string[] = [];
  before(async () => {
    // Every question is declined: nothing a test sends may run.
    session = await connectMcpServer({ workspace: win.workspace, elicit: (request: ElicitRequest['params']) => (asked.push(request.message), Promise.resolve({ action: 'decline' })) });
  });
  after(async () => session.close().catch(() => undefined));

  const run = async (command: string): Promise<TerminalRunResult> => {
    const result = (await session.client.callTool({ name: 'terminal_run', arguments: { command } }, CallToolResultSchema, { timeout: 120_000 })) as CallToolResult;
    assert.notEqual(result.isError, true, toolText(result));
    return result.structuredContent as TerminalRunResult;
  };

  it('a line of each class asks; declined, nothing on disk changed', async () => {
    const victim = path.join(win.workspace, 'victim');
    mkdirSync(victim, { recursive: true });
    writeFileSync(path.join(victim, 'keep.txt'), 'keep me\n');
    const lines = [
      'echo ok\rrm -rf victim', // 1: the carriage return ends the line early in a terminal
      `cd ${outside} && echo pwned > note.txt`, // 2: the cd moves the write outside the workspace
      `echo pwned > ''${outside}/quoted.txt`, // 2: quotes that do not wrap the whole word
      `find . -fprint0 ${outside}/list`, // 3: a reader's output option
      "sed -n '1e rm -rf victim' victim/keep.txt", // 4: sed's e command
      'echo "a" !#:1:gs/"// ; rm -rf victim ; # "', // 5: history expansion makes the rm a command
    ];
    for (const line of lines) {
      const before = asked.length;
      const result = await run(line);
      assert.equal(result.status, 'not_approved', `${JSON.stringify(line)}: ${JSON.stringify(result.safety)}`);
      assert.equal(asked.length, before + 1, `asked once: ${JSON.stringify(line)}`);
    }
    assert.ok(existsSync(path.join(victim, 'keep.txt')), 'the victim folder is untouched');
    assert.deepEqual(readdirSync(outside), [], 'nothing was written outside the workspace');
    assert.match(asked[0]!, /control character U\+000D/);
  });

  it("chat.tools.global.autoApprove in the person's user settings (where VS Code's tool service reads it) or the machine's runs every line unasked; a default permission level alone does not", async () => {
    const decided = async (): Promise<string> => {
      const result = await run('node -e "process.exit(0)"');
      return `${result.status} ${result.safety?.reason ?? ''}`;
    };
    const settled = async (expected: RegExp): Promise<string> => {
      let seen = '';
      for (let i = 0; i < 20 && !expected.test(seen); i++) {
        await new Promise((resolve) => setTimeout(resolve, 500)); // the window picks the settings file up
        seen = await decided();
      }
      return seen;
    };
    win.vscode.writeUserSettings({ ...E2E_SETTINGS, ...settings, 'chat.tools.global.autoApprove': true });
    assert.match(await settled(/^completed/), /^completed chat\.tools\.global\.autoApprove approves every tool call/);
    win.vscode.writeUserSettings({ ...E2E_SETTINGS, ...settings, 'chat.permissions.default': 'autoApprove' });
    assert.match(await settled(/^not_approved/), /^not_approved .*hands node code to load or evaluate/);
    win.vscode.writeUserSettings({ ...E2E_SETTINGS, ...settings });
    win.vscode.writeMachineSettings({ 'terminalShepherd.terminal.shellPath': '/bin/bash', 'chat.tools.global.autoApprove': true });
    assert.match(await settled(/^completed/), /^completed chat\.tools\.global\.autoApprove/);
    win.vscode.writeMachineSettings({ 'terminalShepherd.terminal.shellPath': '/bin/bash' });
    assert.match(await settled(/^not_approved/), /^not_approved/);
  });
});
