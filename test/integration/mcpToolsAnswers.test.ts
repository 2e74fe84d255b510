/**
 * Every MCP tool from source (mcpToolsSupport.ts): each tool's call and answer. Its input mapped to
 * its bridge method (what the call left out left out), its result as structured content and text
 * with the ledger reminder, the same with a progress token (issue 10); a failure in the window as
 * an isError result naming the code and the next step; bad input refused before the bridge;
 * prompts, non-final statuses, process trees and kill results rendered.
 */
import assert from 'node:assert/strict';
import { BridgeErrorCode, methods, type LedgerSummary } from '../../common/src/protocol';
import { noStrategyError, nothingRunningError, ShepherdError, terminalNotFoundError } from '../../extension/src/core/errors';
import { notOwnedError } from '../../extension/src/core/ledger/killRefusal';
import { runResult, type BridgeFixture } from '../support/bridgeFixture';
import type { InMemoryMcpSession } from '../support/inMemoryMcp';
import { toolText as text } from '../support/mcpClient';
import { script, sessionHooks, type ToolMethod } from './mcpToolsSupport';

/** A ledger with one process running, and what the tools must make of it. */
function oneRunning(): { summary: LedgerSummary; reminder: unknown; reminderText: string } {
  const entry = { pid: 300, name: 'node', terminalName: 'dev', ports: [5173], startedAt: new Date(Date.now() - 65_000).toISOString() };
  return {
    summary: { running: [entry], orphaned: [] },
    reminder: { running: [entry], runningTotal: 1, orphanedTotal: 0, next: 'list_processes shows them, kill_process stops one.' },
    reminderText: 'Still running (1; list_processes shows them, kill_process stops one):\n- node, pid 300, listening on 5173, terminal "dev", up 1m 5s',
  };
}

/** What the bridge makes of an error a handler throws: ShepherdErrors keep their message. */
function bridgeMessage(error: Error): string {
  return error instanceof ShepherdError
    ? error.message
    : `Internal error in the Terminal Shepherd extension: ${error.message}. Details are in its log (command "Terminal Shepherd: Show Log").`;
}

interface ToolCase {
  readonly tool: string;
  readonly key: ToolMethod;
  readonly args: Record<string, unknown>;
  /** What the bridge method must receive for `args`. */
  readonly params: Record<string, unknown>;
  readonly result: Record<string, unknown>;
  readonly text: string;
  /** Thrown by the bridge handler; the tool must answer `${code}: ...` and name the next step. */
  readonly failure: { readonly error: Error; readonly code: string; readonly nextStep: RegExp };
}

const internal = { code: 'Internal', nextStep: /Details are in its log \(command "Terminal Shepherd: Show Log"\)/ };

const toolCases: readonly ToolCase[] = [
  {
    tool: 'terminal_run',
    key: 'run',
    args: { command: 'npm run dev', name: 'dev', waitMode: 'background', cwd: 'web' },
    params: { command: 'npm run dev', name: 'dev', waitMode: 'background', cwd: 'web' },
    result: { status: 'running', output: '', name: 'dev', command: 'npm run dev', durationMs: 12, pid: 51, strategy: 'vscode' },
    text: 'running · 12 ms · terminal "dev" (shell pid 51, strategy vscode)\n$ npm run dev\n--- output ---\n(no output)',
    failure: {
      error: noStrategyError('dev', '/bin/tcsh', ['pseudoterminal: it failed']),
      code: 'ShellIntegrationUnavailable',
      nextStep: /set terminalShepherd\.terminal\.strategy to "pseudoterminal", then retry\./,
    },
  },
  {
    tool: 'terminal_run',
    key: 'run',
    args: { command: 'npm run dev', name: 'web', waitMode: 'ready', readyPattern: 'ready in', restart: true },
    params: { command: 'npm run dev', name: 'web', waitMode: 'ready', readyPattern: 'ready in', restart: true },
    result: {
      status: 'running',
      output: 'VITE v7 ready in 300 ms\n  ➜  Local:   http://localhost:5173/',
      name: 'web',
      command: 'npm run dev',
      durationMs: 412,
      pid: 52,
      strategy: 'vscode',
      ready: { ports: [5173], urls: ['http://localhost:5173/'], via: 'http', http: { url: 'http://localhost:5173/', status: 200 }, waitedMs: 401 },
      message: 'Ready after 401 ms.',
    },
    text: 'running · 412 ms · terminal "web" (shell pid 52, strategy vscode)\n$ npm run dev\nURLs: http://localhost:5173/\nReady after 401 ms.\n--- output ---\nVITE v7 ready in 300 ms\n  ➜  Local:   http://localhost:5173/',
    failure: { error: new ShepherdError(BridgeErrorCode.InvalidInput, 'readyPattern applies to waitMode "ready" only.'), code: 'InvalidInput', nextStep: /waitMode "ready" only/ },
  },
  {
    tool: 'workspace_info',
    key: 'workspaceInfo',
    args: {},
    params: {},
    result: {
      analysis: {
        detectedStacks: ['Node.js', 'pnpm'],
        projectRoot: '/w',
        expectedProcesses: ['node', 'npm', 'npx', 'pnpm'],
        projects: [{ path: 'apps/web', stacks: ['Node.js'], packageManager: 'pnpm', devCommands: [{ command: 'pnpm dev', cwd: 'apps/web', source: 'package.json script "dev": vite' }] }],
        devCommands: [{ command: 'pnpm dev', cwd: 'apps/web', source: 'package.json script "dev": vite' }],
        truncated: false,
        analyzedAt: '2026-11-22T09:00:00.000Z',
        scanMs: 3.5,
      },
      servers: [{ terminal: 'web', command: 'pnpm dev', cwd: '/w/apps/web', pid: 70, ports: [5173], urls: ['http://localhost:5173/'], startedAt: '2026-11-22T09:00:00.000Z', uptimeMs: 65_000, status: 'running', healthy: true }],
    },
    text:
      'Stacks: Node.js, pnpm (root /w)\n\nProjects:\n- apps/web: Node.js (package manager pnpm)\n\n' +
      'Dev-server commands (run with terminal_run, waitMode "ready"):\n- pnpm dev  (cwd "apps/web"; package.json script "dev": vite)\n\n' +
      'Expected processes: node, npm, npx, pnpm\n\n' +
      'Dev servers running now:\n- `pnpm dev` in /w/apps/web: terminal "web" · pid 70 · http://localhost:5173/ · up 1m 5s · answers',
    failure: { error: new Error('scan failed'), ...internal },
  },
  {
    tool: 'terminal_state',
    key: 'state',
    args: { name: 'ci', wait: true, timeout: 2000 },
    params: { name: 'ci', wait: true, timeoutMs: 2000 },
    result: { status: 'timeout', output: '3 of 9 suites', name: 'ci', command: 'npm test', durationMs: 2003, pid: 60, message: 'Still running; terminal_state waits again.', strategy: 'shepherd' },
    text: 'timeout · 2.0 s · terminal "ci" (shell pid 60, strategy shepherd)\n$ npm test\nStill running; terminal_state waits again.\n--- output ---\n3 of 9 suites',
    failure: { error: terminalNotFoundError('ci', ['default']), code: 'TerminalNotFound', nextStep: /Managed terminals: "default"\. terminal_run creates a terminal for a new name\./ },
  },
  {
    tool: 'terminal_input',
    key: 'input',
    args: { name: 'ci', text: 'y', enter: false, timeout: 3000 },
    params: { name: 'ci', text: 'y', enter: false, timeoutMs: 3000 },
    result: { status: 'completed', output: 'Continue? [y/N] y\ndone', exitCode: 0, name: 'ci', command: './setup.sh', durationMs: 840, pid: 60, strategy: 'pseudoterminal' },
    text: 'completed · exit code 0 · 840 ms · terminal "ci" (shell pid 60, strategy pseudoterminal)\n$ ./setup.sh\n--- output ---\nContinue? [y/N] y\ndone',
    failure: { error: nothingRunningError('ci'), code: 'NoActiveRun', nextStep: /To run a command use terminal_run\./ },
  },
  {
    tool: 'terminal_list',
    key: 'list',
    args: {},
    params: {},
    result: {
      terminals: [
        { name: 'dev', pid: 51, busy: true, cwd: '/w', shellIntegration: true, shell: 'bash', strategy: 'vscode', command: 'npm run dev', status: 'running' },
        { name: 'old', busy: false, shellIntegration: false, shell: 'cmd', strategy: 'pseudoterminal', command: 'make', status: 'completed', exitCode: 2 },
      ],
    },
    text: '"dev": busy · bash (strategy vscode) · shell pid 51 · cwd /w · running: npm run dev (running)\n"old": idle · cmd (strategy pseudoterminal) · last: make (completed, exit code 2) · no shell integration',
    failure: { error: new Error('the terminal registry is gone'), ...internal },
  },
  {
    tool: 'list_processes',
    key: 'listProcesses',
    args: {},
    params: {},
    result: { active: [], orphaned: [] },
    text: 'No process started from a managed terminal is running, and there are no orphans.',
    failure: { error: new Error('ps failed'), ...internal },
  },
  {
    tool: 'kill_process',
    key: 'killProcess',
    args: { pid: 11 },
    params: { pid: 11 },
    result: { killed: [11, 12], failed: [] },
    text: 'Killed 2: pid 11, 12.',
    failure: { error: notOwnedError(51, { ownPid: 1, shellTerminal: 'dev' }), code: 'ProcessNotOwned', nextStep: /Stop its command with terminal_input \{name: "dev", text: "\\u0003"\}/ },
  },
  {
    tool: 'kill_orphans',
    key: 'killOrphans',
    args: {},
    params: {},
    result: { killed: [], failed: [] },
    text: 'Nothing was killed.',
    failure: { error: new Error('the ledger is locked'), ...internal },
  },
];

describe('MCP tools from source (createServer over an in-memory transport)', () => {
  let fixture: BridgeFixture;
  let session: InMemoryMcpSession;
  sessionHooks((fresh) => ({ fixture, session } = fresh), () => ({ fixture, session }));

  /** Calls a tool case's tool against its scripted result and checks every part of the answer. */
  async function expectAnswer(c: ToolCase, withProgressToken: boolean): Promise<void> {
    const ledger = oneRunning();
    fixture.handlers.ledgerSummary = () => ledger.summary;
    const calls = script(fixture, c.key, () => c.result);
    const result = await session.call(c.tool, c.args, withProgressToken ? { onprogress: () => undefined } : {});
    assert.equal(result.isError, undefined, text(result));
    // A progress token changes nothing in the params: progress is asked for beside them.
    assert.deepEqual(calls, [c.params]);
    assert.deepEqual(result.structuredContent, { ...c.result, ledger: ledger.reminder });
    assert.equal(text(result), `${c.text}\n\n${ledger.reminderText}`);
  }

  it('terminal_run maps its input to the bridge and returns structured content plus text', async () => {
    let seen: unknown;
    fixture.handlers.run = async (params) => {
      seen = params;
      return runResult({ command: params.command, output: 'a\nb', exitCode: 3 });
    };
    const result = await session.call('terminal_run', { command: 'false', timeout: 5000, name: 'build', waitMode: 'completion', cwd: 'sub' });
    assert.deepEqual(seen, { command: 'false', timeoutMs: 5000, name: 'build', waitMode: 'completion', cwd: 'sub' });
    assert.equal(result.isError, undefined);
    assert.equal((result.structuredContent as { exitCode: number }).exitCode, 3);
    assert.match(text(result), /^completed · exit code 3 · 12 ms · terminal "default" \(shell pid 4242, strategy vscode\)\n\$ false\n/);
    assert.match(text(result), /--- output ---\na\nb$/);
  });

  it('terminal_run leaves out what the call left out, so the extension applies its settings', async () => {
    const calls = script(fixture, 'run', () => runResult());
    await session.call('terminal_run', { command: 'ls' });
    assert.deepEqual(calls, [{ command: 'ls' }]);
  });

  it('renders the prompt, the message and an empty output for non-final statuses', async () => {
    fixture.handlers.run = async () => runResult({ status: 'waiting_for_input', exitCode: undefined, prompt: 'Continue? [y/N]', message: 'Answer with terminal_input.' });
    const waiting = await session.call('terminal_run', { command: 'x' });
    assert.match(text(waiting), /Prompt: "Continue\? \[y\/N\]"\nAnswer with terminal_input\.\n--- output ---/);
    fixture.handlers.run = async () => runResult({ status: 'running', exitCode: undefined, output: '' });
    const running = await session.call('terminal_run', { command: 'x', waitMode: 'background' });
    assert.match(text(running), /^running · 12 ms/);
    assert.match(text(running), /--- output ---\n\(no output\)$/);
  });

  it('rejects bad input with a clear tool error before reaching the bridge', async () => {
    const reached = toolCases.flatMap((c) => script(fixture, c.key, () => c.result));
    const empty = await session.call('terminal_run', { command: '  ' });
    assert.equal(empty.isError, true);
    assert.match(text(empty), /command must not be empty/);
    const range = await session.call('terminal_run', { command: 'ls', timeout: 99_999_999 });
    assert.equal(range.isError, true);
    assert.match(text(range), /at most 3600000 ms/);
    const bad: [string, Record<string, unknown>, RegExp][] = [
      ['terminal_run', { command: 'ls', name: 'a\u0007b' }, /name must not contain control characters/],
      ['terminal_run', { command: 'ls', waitMode: 'later' }, /waitMode/],
      ['terminal_run', { command: 'ls', timeout: 50 }, /timeout must be at least 100 ms/],
      ['terminal_run', { command: 'ls', waitMode: 'ready', readyPattern: '(unclosed' }, /readyPattern must be a valid JavaScript regular expression/],
      ['terminal_state', { name: '' }, /name must not be empty/],
      ['terminal_input', { name: 'ci' }, /text/],
      ['kill_process', { pid: 0 }, /pid/],
      ['kill_process', { pid: 1.5 }, /pid/],
    ];
    for (const [tool, args, pattern] of bad) {
      const result = await session.call(tool, args);
      assert.equal(result.isError, true, `${tool} ${JSON.stringify(args)} is refused`);
      assert.match(text(result), pattern);
    }
    assert.deepEqual(reached, [], 'no bad call reached the bridge');
  });

  it('turns extension errors into isError results naming the code and the next step', async () => {
    fixture.handlers.run = async () => {
      throw new ShepherdError(BridgeErrorCode.TerminalBusy, 'Terminal "default" is busy: `npm run dev` is running. Use another name.');
    };
    const result = await session.call('terminal_run', { command: 'ls' });
    assert.equal(result.isError, true);
    assert.match(text(result), /^TerminalBusy: Terminal "default" is busy: `npm run dev` is running\. Use another name\.$/);
  });

  for (const c of toolCases) {
    it(`${c.tool}: maps its input to ${methods[c.key].name} and answers with structured content, text and the ledger reminder`, () => expectAnswer(c, false));

    it(`${c.tool}: a failure in the window is an isError result naming ${c.failure.code} and the next step, with the ledger reminder`, async () => {
      const ledger = oneRunning();
      fixture.handlers.ledgerSummary = () => ledger.summary;
      script(fixture, c.key, () => {
        throw c.failure.error;
      });
      const result = await session.call(c.tool, c.args);
      assert.equal(result.isError, true);
      assert.equal(result.structuredContent, undefined);
      assert.equal(text(result), `${c.failure.code}: ${bridgeMessage(c.failure.error)}\n\n${ledger.reminderText}`);
      assert.match(text(result), c.failure.nextStep);
    });
  }

  // VS Code's own MCP client sends a progress token with every call. Those with strict empty params
  // (terminal_list, list_processes, kill_orphans, workspace_info) failed with it:
  // `error -32602: Invalid input: Unrecognized key: "progressId"` (issue 10).
  for (const c of toolCases) {
    it(`${c.tool} ${JSON.stringify(c.args)}: answers the same when the client sends a progress token`, () => expectAnswer(c, true));
  }

  it('renders process trees and kill results', async () => {
    const started = new Date(Date.now() - 60_000).toISOString();
    const proc = (pid: number, name: string, children: unknown[] = []) => ({ pid, name, commandLine: `${name} --serve`, parentPid: 10, terminalName: 'dev', startedAt: started, status: 'running', ports: pid === 11 ? [8080] : [], children });
    fixture.handlers.listProcesses = () => ({ active: [proc(11, 'node', [proc(12, 'esbuild')])], orphaned: [{ ...proc(20, 'sleep'), status: 'orphaned', terminalName: 'old' }] } as never);
    const listed = await session.call('list_processes', {});
    assert.match(text(listed), /^Terminal "dev":\n- node \(pid 11, parent 10\) · listening on 8080 · up 1m: node --serve\n  - esbuild \(pid 12, parent 10\) · up 1m: esbuild --serve\n\nOrphaned/);
    fixture.handlers.killOrphans = () => ({ killed: [20, 21], failed: [22] });
    const killed = await session.call('kill_orphans', {});
    assert.equal(text(killed), 'Killed 2: pid 20, 21. Could not kill pid 22 (still alive, or not permitted); see list_processes.');
  });
});
