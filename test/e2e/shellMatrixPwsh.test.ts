// PowerShell 7 (pwsh 7.6.9 on Linux, installed by the tests with `dotnet tool install`) in the shell
// matrix of the real VS Code (code-server): the same structure as shellMatrix.test.ts, one window,
// the shell switched through the machine setting, with VS Code's own shell integration (`vscode`)
// and without it (Terminal Shepherd's own, `shepherd`). PowerShell's own syntax in every check:
// the exit-code ladder with where each code came from, Read-Host, script blocks, its output
// streams, Ctrl+C, a dev server, the per-command check on a PowerShell line, the ledger. The
// terminal's process is checked in /proc: pwsh itself, not the product's word.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TerminalRunResult } from '../../common/src/protocol';
import { ensurePwsh, pwshAvailable, PWSH_MISSING, type PwshInstall } from '../../.devtools/scripts/pwshInstall';
import { connectMcpServer, toolText } from '../support/mcpClient';
import { alive, flatten, ledgerEvents, makeWorkspace, openShepherdWindow, suiteWindow, useShell, waitFor } from '../support/shepherdE2e';
import { describeWhere } from '../support/skips';
import { workspaceDirs } from '../support/tempDirs';

interface PwshCase {
  readonly label: string;
  readonly strategy: 'vscode' | 'shepherd';
  readonly settings: Record<string, unknown>;
}

/** pwsh's own files (PSReadLine history, module cache, profile) in a folder of the test, not the person's home. */
const pwshHome = workspaceDirs.make('tshep-pwsh-home-');
const PWSH_ENV = {
  XDG_CONFIG_HOME: path.join(pwshHome, 'config'),
  XDG_DATA_HOME: path.join(pwshHome, 'data'),
  XDG_CACHE_HOME: path.join(pwshHome, 'cache'),
  POWERSHELL_TELEMETRY_OPTOUT: '1',
  POWERSHELL_UPDATECHECK: 'Off',
};

const cases: readonly PwshCase[] = [
  { label: 'pwsh-vscode', strategy: 'vscode', settings: { 'terminalShepherd.terminal.strategy': 'vscode' } },
  { label: 'pwsh-no-si', strategy: 'shepherd', settings: { 'terminal.integrated.shellIntegration.enabled': false } },
];

async function httpText(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  return res.text();
}

describeWhere(process.platform === 'linux' && pwshAvailable(), PWSH_MISSING)('pwsh (PowerShell 7), in a real VS Code', function () {
  this.timeout(180_000);
  let pwsh: Extract<PwshInstall, { ok: true }>;
  const leftovers: number[] = [];
  before(async function () {
    this.timeout(300_000);
    const found = await ensurePwsh();
    if (!found.ok) return this.skip();
    pwsh = found;
  });
  const win = suiteWindow(
    () => openShepherdWindow({ label: 'shell-matrix-pwsh', workspace: makeWorkspace(), launch: { env: pwsh.env } }),
    () => {
      for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
    },
  );

  for (const c of cases) {
    describe(c.label, () => {
      const t = (suffix: string): string => `${c.label}-${suffix}`;
      before(async () => useShell(win, pwsh.pwsh, { ...c.settings, 'terminal.integrated.env.linux': PWSH_ENV }));

      it('exact output; the strategy reported; the shell that really ran is pwsh (from /proc)', async () => {
        const r = await win.run('terminal_run', { command: "Write-Output 'hello world'", name: t('main') });
        assert.deepEqual([r.status, r.output, r.exitCode, r.exitCodeSource], ['completed', 'hello world', 0, 'shell'], JSON.stringify(r));
        assert.equal(r.strategy, c.strategy);
        assert.equal(readlinkSync(`/proc/${r.pid}/exe`), realpathSync(pwsh.pwsh), 'the terminal process is pwsh');
        const inner = await win.run('terminal_run', { command: '$PID; $PSVersionTable.PSVersion.ToString()', name: t('main') });
        assert.equal(inner.output, `${r.pid}\n${pwsh.version}`, 'the commands run in that very pwsh');
        const list = await win.run('terminal_list', {});
        const mine = (list.terminals as { name: string; shell: string; strategy: string }[]).find((x) => x.name === t('main'));
        assert.deepEqual([mine?.shell, mine?.strategy], ['pwsh', c.strategy]);
      });

      it("exit codes through the ladder, each with its source: a native program's, a cmdlet error, exit 3, a terminating error", async () => {
        const native = await win.run('terminal_run', { command: "sh -c 'exit 42'", name: t('main') });
        assert.deepEqual([native.status, native.exitCode, native.exitCodeSource], ['completed', 42, 'native'], JSON.stringify(native));
        const chain = await win.run('terminal_run', { command: "sh -c 'exit 7'; Write-Output after", name: t('main') });
        assert.deepEqual([chain.output, chain.exitCode, chain.exitCodeSource], ['after', 7, 'native'], 'a cmdlet after a failed program does not hide its code');
        const cmdlet = await win.run('terminal_run', { command: "Get-Item -LiteralPath '/no/such/tshep-file'; Write-Output \"ok=$?\"", name: t('main') });
        assert.deepEqual([cmdlet.exitCode, cmdlet.exitCodeSource], [0, 'shell'], 'the last statement succeeded');
        assert.match(cmdlet.output, /Cannot find path '\/no\/such\/tshep-file' because it does not exist\.\nok=False$/);
        const failed = await win.run('terminal_run', { command: "Get-Item -LiteralPath '/no/such/tshep-file'", name: t('main') });
        assert.deepEqual([failed.exitCode, failed.exitCodeSource], [1, 'shell'], '$? false');
        // `exit 3` in the command's file sets $LASTEXITCODE as a program would: the ladder says native.
        const exited = await win.run('terminal_run', { command: 'exit 3', name: t('main') });
        assert.deepEqual([exited.status, exited.exitCode, exited.exitCodeSource], ['completed', 3, 'native'], JSON.stringify(exited));
        const thrown = await win.run('terminal_run', { command: "throw 'tshep boom'", name: t('main') });
        assert.deepEqual([thrown.status, thrown.exitCode, thrown.exitCodeSource], ['completed', 1, 'shell'], JSON.stringify(thrown));
        assert.match(thrown.output, /tshep boom/);
        const stale = await win.run('terminal_run', { command: "Write-Output 'no stale code'", name: t('main') });
        assert.deepEqual([stale.output, stale.exitCode, stale.exitCodeSource], ['no stale code', 0, 'shell'], 'the run after a throw is clean');
      });

      it('Read-Host is waiting_for_input, answered through terminal_input; Read-Host -AsSecureString waits for the person, who answers in the terminal', async () => {
        const asked = await win.run('terminal_run', { command: "$answer = Read-Host 'Your name'; \"hi $answer\"", name: t('ask') });
        assert.equal(asked.status, 'waiting_for_input', JSON.stringify(asked));
        assert.equal(asked.prompt, 'Your name:');
        const answered = await win.run('terminal_input', { name: t('ask'), text: 'Ada' });
        assert.deepEqual([answered.status, answered.exitCode], ['completed', 0], JSON.stringify(answered));
        assert.match(answered.output, /hi Ada$/);
        const secret = await win.run('terminal_run', { command: "$s = Read-Host 'Token' -AsSecureString; \"length $($s.Length)\"", name: t('ask') });
        assert.equal(secret.status, 'waiting_for_input', JSON.stringify(secret));
        assert.equal(secret.prompt, 'Token:');
        // Secrets never pass through the model: terminal_input refuses, the person types it in the terminal.
        const refused = await win.call('terminal_input', { name: t('ask'), text: 'tshep-secret' });
        assert.equal(refused.isError, true);
        assert.match(toolText(refused), /^SensitivePrompt: .*asks for a secret \("Token:"\)/);
        await win.vscode.driver.evaluate(`vscode.window.terminals.find((t) => t.name === 'Shepherd: ${t('ask')}').sendText('tshep-secret');`);
        const given = await waitFor('the run to go on once the person typed', 30_000, async () => {
          const s = await win.run('terminal_state', { name: t('ask'), wait: true, timeout: 5000 });
          return s.status === 'completed' ? s : undefined;
        });
        assert.deepEqual([given.status, given.exitCode], ['completed', 0], JSON.stringify(given));
        assert.match(given.output, /length 12$/);
        assert.doesNotMatch(given.output, /tshep-secret/, 'a secure prompt never echoes the answer');
      });

      it('a multi-line script block: one run, whole output, exit code of the last line, variables and cd persist', async () => {
        const command = "$TshepV = 'persisted'\nforeach ($i in 1..2) {\n  \"line $i\"\n}\nSet-Location /tmp\nWrite-Output after\nsh -c 'exit 3'";
        const r = await win.run('terminal_run', { command, name: t('main') });
        assert.deepEqual([r.status, r.output, r.exitCode, r.exitCodeSource], ['completed', 'line 1\nline 2\nafter', 3, 'native'], JSON.stringify(r));
        const v = await win.run('terminal_run', { command: '$TshepV; (Get-Location).Path', name: t('main') });
        assert.equal(v.output, 'persisted\n/tmp');
      });

      it('Write-Host, Write-Output and Write-Error as a person sees them', async () => {
        const r = await win.run('terminal_run', { command: "Write-Host 'host line'; Write-Output 'output line'; Write-Error 'error line'", name: t('main') });
        assert.equal(r.status, 'completed');
        assert.equal(r.output, 'host line\noutput line\nWrite-Error: error line', JSON.stringify(r));
        assert.deepEqual([r.exitCode, r.exitCodeSource], [1, 'shell']);
      });

      it('output painted at absolute rows (as ConPTY paints) reads as the screen showed it: the run knows where it started', async () => {
        // Two rows below where the command started, by the screen's own row numbers. The first run
        // of a terminal learns its size from the report; the next starts at that size.
        const command = `$y = $Host.UI.RawUI.CursorPosition.Y; 'a'; Write-Host -NoNewline "$([char]27)[$($y + 3);1H"; 'b'`;
        for (let i = 0; i < 2; i++) {
          await win.run('terminal_run', { command: 'Clear-Host', name: t('screen') }); // the command starts near the top, never at a full screen's bottom
          const r = await win.run('terminal_run', { command, name: t('screen') });
          assert.deepEqual([r.status, r.output], ['completed', 'a\n\nb'], JSON.stringify(r));
        }
      });

      it('a long-running command is never taken as done; timeout keeps it running; Ctrl+C ends it', async () => {
        const quiet = await win.run('terminal_run', { command: 'Start-Sleep -Seconds 2', name: t('main') });
        assert.deepEqual([quiet.status, quiet.output], ['completed', '']);
        assert.ok(quiet.durationMs >= 1900, `${quiet.durationMs} ms`);
        const slow = await win.run('terminal_run', { command: "Write-Output started; Start-Sleep -Seconds 30; Write-Output 'not reached'", name: t('slow'), timeout: 2000 });
        assert.deepEqual([slow.status, slow.output, slow.exitCode], ['timeout', 'started', undefined], JSON.stringify(slow));
        assert.equal((await win.run('terminal_state', { name: t('slow') })).status, 'running');
        const stopped = await win.run('terminal_input', { name: t('slow'), text: '\u0003' });
        assert.equal(stopped.status, 'completed', JSON.stringify(stopped));
        assert.doesNotMatch(stopped.output, /not reached/);
        const native = await win.run('terminal_run', { command: 'sleep 30', name: t('slow'), waitMode: 'background' });
        assert.equal(native.status, 'running');
        const interrupted = await win.run('terminal_input', { name: t('slow'), text: '\u0003' });
        // Ctrl+C stops the whole typed line, the file's report included: with VS Code's integration
        // only its own end remains, `$?` false (docs/shells.md); ours reads the program's 130.
        const code = c.strategy === 'shepherd' ? [130, 'native'] : [1, 'shell'];
        assert.deepEqual([interrupted.status, interrupted.exitCode, interrupted.exitCodeSource], ['completed', ...code], JSON.stringify(interrupted));
        const after = await win.run('terminal_run', { command: "Write-Output 'after ctrl-c'", name: t('slow') });
        assert.deepEqual([after.output, after.exitCode], ['after ctrl-c', 0]);
      });

      it('a dev server started from pwsh is ready on its port, and the ledger tracks it until kill_process ends it', async () => {
        const server = `node -e "require('http').createServer((q, s) => s.end('tshep ok')).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port + '/') })"`;
        const r = await win.run('terminal_run', { command: server, name: t('web'), waitMode: 'ready', timeout: 30_000 });
        assert.equal(r.status, 'running', JSON.stringify(r));
        const port = r.ready!.ports[0]!;
        assert.ok(port > 0 && r.ready!.urls.includes(`http://127.0.0.1:${port}/`), JSON.stringify(r.ready));
        assert.equal(await httpText(`http://127.0.0.1:${port}/`), 'tshep ok');
        const node = await waitFor('the server in list_processes', 15_000, async () =>
          flatten(((await win.run('list_processes', {})) as unknown as { active: Parameters<typeof flatten>[0] }).active).find((p) => p.name === 'node' && p.ports.includes(port)),
        );
        leftovers.push(node.pid);
        assert.equal(node.parentPid, r.pid, 'a child of the pwsh terminal');
        assert.equal(node.terminalName, t('web'));
        assert.equal(readlinkSync(`/proc/${node.parentPid}/exe`), realpathSync(pwsh.pwsh));
        await waitFor('the server in the ledger file', 5000, () => ledgerEvents(win.workspace).some((e) => e.pid === node.pid));
        const killed = await win.run('kill_process', { pid: node.pid });
        assert.deepEqual(killed.killed, [node.pid]);
        await waitFor('the server gone by the OS', 5000, () => !alive(node.pid));
        assert.ok(ledgerEvents(win.workspace).some((e) => e.event === 'killed' && e.pid === node.pid));
        const ended = await waitFor('the run to end after its server died', 10_000, async () => {
          const s = await win.run('terminal_state', { name: t('web') });
          return s.status === 'completed' ? s : undefined;
        });
        assert.notEqual(ended.exitCode, 0);
      });

      it('the per-command check on a PowerShell line: Remove-Item -Recurse asks; declined, the folder is untouched on disk', async () => {
        const dir = path.join(win.workspace, `victim-${c.label}`);
        mkdirSync(path.join(dir, 'inner'), { recursive: true });
        writeFileSync(path.join(dir, 'inner', 'keep.txt'), 'keep me\n');
        const asked: string[] = [];
        const elicit = (request: ElicitRequest['params']) => {
          asked.push(String(request.message));
          return Promise.resolve({ action: 'decline' as const });
        };
        await win.vscode.driver.evaluate(`await vscode.workspace.getConfiguration('terminalShepherd').update('safety.perCommandCheck', true, vscode.ConfigurationTarget.Global);`);
        const client = await connectMcpServer({ workspace: win.workspace, elicit });
        try {
          const command = `Write-Output cleaning; Remove-Item -Recurse -Force victim-${c.label}`;
          const result = (await client.client.callTool({ name: 'terminal_run', arguments: { command, name: t('main'), cwd: win.workspace } }, CallToolResultSchema, {
            timeout: 120_000,
          })) as CallToolResult;
          assert.notEqual(result.isError, true, toolText(result));
          const declined = result.structuredContent as TerminalRunResult;
          assert.equal(declined.status, 'not_approved', JSON.stringify(declined));
          assert.deepEqual([declined.safety?.decision, declined.safety?.answer], ['asked', 'declined']);
          assert.equal(asked.length, 1);
          assert.match(asked[0]!, new RegExp(`^Run \`${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`\\? \\(pwsh, terminal "${t('main')}"`));
          assert.ok(existsSync(path.join(dir, 'inner', 'keep.txt')), 'the folder is untouched on disk');
        } finally {
          await client.close().catch(() => undefined);
          await win.vscode.driver.evaluate(`await vscode.workspace.getConfiguration('terminalShepherd').update('safety.perCommandCheck', false, vscode.ConfigurationTarget.Global);`);
        }
        const removed = await win.run('terminal_run', { command: `Remove-Item -Recurse -Force victim-${c.label}; Test-Path victim-${c.label}`, name: t('main'), cwd: win.workspace });
        assert.deepEqual([removed.status, removed.output, removed.exitCode], ['completed', 'False', 0], 'with the check off, the same cmdlet runs');
        assert.equal(existsSync(dir), false);
      });
    });
  }
});
