/**
 * Every MCP tool from source: createServer() with an SDK client over the in-memory transport, the
 * tools reaching a scripted bridge (the extension's own bridge server) through the real
 * BridgeClient and socket. The built bundle has its own smoke test in mcpServer.test.ts.
 */
import assert from 'node:assert/strict';
import { BridgeErrorCode, methods, runStatusSchema, type LedgerSummary, type MethodKey } from '../../common/src/protocol';
import type { RequestContext } from '../../extension/src/bridge/bridgeServer';
import { ShepherdError } from '../../extension/src/core/errors';
import { notOwnedError } from '../../extension/src/core/ledger/killRefusal';
import { noStrategyError, nothingRunningError, terminalNotFoundError } from '../../extension/src/core/errors';
import { ALL_RUN_STATUSES, MAX_DESCRIPTION_CHARS, REPORTED_STATUSES, runStatusGuide } from '../../mcp-server/src/toolGuide';
import { runResult, startBridgeFixture, type BridgeFixture } from '../support/bridgeFixture';
import { IN_MEMORY_SERVER_VERSION, connectInMemory, type InMemoryMcpSession } from '../support/inMemoryMcp';
import { toolText as text } from '../support/mcpClient';

type ToolMethod = Exclude<MethodKey, 'hello' | 'ledgerSummary'>;

/** Scripts one bridge method; returns the params of every call it receives. */
function script(fixture: BridgeFixture, key: ToolMethod, answer: (context: RequestContext) => unknown): Record<string, unknown>[] {
  const calls: Record<string, unknown>[] = [];
  (fixture.handlers as Record<ToolMethod, unknown>)[key] = (params: Record<string, unknown>, context: RequestContext) => {
    calls.push(params);
    return answer(context);
  };
  return calls;
}

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
  beforeEach(async () => {
    fixture = await startBridgeFixture();
    session = await connectInMemory({ workspaceFolder: fixture.workspace });
  });
  afterEach(async () => {
    await session.close();
    await fixture.dispose();
  });

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

  it('lists the terminal tools with described inputs, output schemas and honest annotations', async () => {
    const { tools } = await session.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.deepEqual(Object.keys(byName).sort(), ['kill_orphans', 'kill_process', 'list_processes', 'terminal_input', 'terminal_list', 'terminal_run', 'terminal_state', 'workspace_info']);
    for (const tool of tools) {
      assert.ok(tool.description && tool.description.length > 40, `${tool.name} has a description`);
      assert.ok(tool.outputSchema, `${tool.name} has an output schema`);
      const a = tool.annotations!;
      for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        assert.equal(typeof a[key], 'boolean', `${tool.name}.${key} is set`);
      }
      for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        assert.ok((schema as { description?: string }).description, `${tool.name}.${field} is described`);
      }
    }
    assert.equal(byName.terminal_run!.annotations!.readOnlyHint, false);
    assert.equal(byName.terminal_state!.annotations!.readOnlyHint, true);
    assert.deepEqual(byName.terminal_run!.inputSchema.required, ['command']);
    assert.deepEqual(session.client.getServerVersion(), { name: 'terminal-shepherd', title: 'Terminal Shepherd', version: IN_MEMORY_SERVER_VERSION });
  });

  it('annotations ask VS Code for what each tool does: no confirmation to read, one before acting, never a review of results', async () => {
    const { tools } = await session.client.listTools();
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    // VS Code 1.139: readOnlyHint false = a confirmation before the call; openWorldHint true = a review of every result.
    const readOnly = ['terminal_state', 'terminal_list', 'list_processes', 'workspace_info'];
    const acting = ['terminal_run', 'terminal_input', 'kill_process', 'kill_orphans'];
    for (const name of readOnly) assert.deepEqual(hints[name], { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }, name);
    for (const name of acting) {
      assert.equal(hints[name]!.readOnlyHint, false, `${name} asks before it acts`);
      assert.equal(hints[name]!.destructiveHint, true, `${name} is honest about what it can destroy`);
      assert.equal(hints[name]!.openWorldHint, false, `${name}'s results reach the model without a review`);
    }
    assert.deepEqual([...readOnly, ...acting].sort(), tools.map((t) => t.name).sort(), 'every tool is classified');
  });

  it('descriptions fit a model\'s budget and say what a model needs: when to prefer terminal_run, each status and the next call', async () => {
    const { tools } = await session.client.listTools();
    for (const tool of tools) {
      assert.ok(tool.description!.length <= MAX_DESCRIPTION_CHARS, `${tool.name}: ${tool.description!.length} characters (most ${MAX_DESCRIPTION_CHARS})`);
      assert.ok(tool.title && !/^Run\b/.test(tool.title), `${tool.name}: VS Code shows "Run <title>", so the title is a noun (${tool.title})`);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.description!]));
    assert.match(byName.terminal_run!, /Prefer it to run_in_terminal/);
    const returns = { terminal_run: ALL_RUN_STATUSES, terminal_state: REPORTED_STATUSES, terminal_input: REPORTED_STATUSES };
    for (const [name, statuses] of Object.entries(returns)) {
      for (const status of statuses) assert.ok(byName[name]!.includes(`- ${status}: ${runStatusGuide[status]}`), `${name} describes the status ${status}`);
    }
    assert.ok(!(REPORTED_STATUSES as readonly string[]).includes('already_running'), 'a report is always about a run that exists');
    for (const status of runStatusSchema.options) assert.ok(runStatusGuide[status], `the guide covers ${status}`);
  });

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

  it('the reminder names the running dev servers with their URLs', async () => {
    fixture.handlers.ledgerSummary = () => ({
      running: [],
      orphaned: [],
      servers: [{ terminal: 'web', command: 'npm run dev', pid: 70, ports: [5173], urls: ['http://localhost:5173/'] }],
    });
    script(fixture, 'list', () => ({ terminals: [] }));
    const result = await session.call('terminal_list', {});
    assert.match(text(result), /Dev servers running \(reuse them; terminal_run with the same command says already_running\):\n- `npm run dev` in terminal "web": http:\/\/localhost:5173\/ \(pid 70\)$/);
    assert.deepEqual((result.structuredContent as { ledger: { servers: unknown } }).ledger.servers, [
      { terminal: 'web', command: 'npm run dev', pid: 70, ports: [5173], urls: ['http://localhost:5173/'] },
    ]);
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

  it('relays progress while a run is long, when the client sent a progress token', async () => {
    fixture.handlers.run = async (params, context) => {
      for (let i = 1; i <= 3; i++) {
        context.progress({ elapsedMs: i * 1000, outputChars: i * 10, lastLine: `step ${i}` });
        await new Promise((r) => setTimeout(r, 30));
      }
      return runResult({ command: params.command });
    };
    const updates: { progress: number; message?: string }[] = [];
    await session.call('terminal_run', { command: 'make' }, { onprogress: (p) => updates.push(p) });
    assert.deepEqual(
      updates.map((u) => [u.progress, u.message]),
      [
        [1000, '1s: step 1'],
        [2000, '2s: step 2'],
        [3000, '3s: step 3'],
      ],
    );
  });

  const waitingCalls: { tool: string; key: 'run' | 'state' | 'input'; args: Record<string, unknown> }[] = [
    { tool: 'terminal_run', key: 'run', args: { command: 'sleep 100' } },
    { tool: 'terminal_state', key: 'state', args: { name: 'ci', wait: true, timeout: 3000 } },
    { tool: 'terminal_input', key: 'input', args: { name: 'ci', text: 'y', timeout: 3000 } },
  ];

  for (const { tool, key, args } of waitingCalls) {
    it(`${tool}: progress says the elapsed time and the last line, out of the call's timeout when it gave one`, async () => {
      script(fixture, key, async (context) => {
        context.progress({ elapsedMs: 1500, outputChars: 0 });
        await new Promise((r) => setTimeout(r, 30));
        context.progress({ elapsedMs: 2000, outputChars: 3, lastLine: 'ok' });
        await new Promise((r) => setTimeout(r, 30));
        return runResult();
      });
      const updates: { progress: number; total?: number; message?: string }[] = [];
      await session.call(tool, args, { onprogress: (p) => updates.push(p) });
      const total = args.timeout as number | undefined;
      assert.deepEqual(
        updates.map((u) => [u.progress, u.total, u.message]),
        [
          [1500, total, '1.5s, no output yet'],
          [2000, total, '2s: ok'],
        ],
      );
    });

    it(`${tool}: honours cancellation: the extension side sees the abort`, async () => {
      let started: () => void = () => undefined;
      const sawStart = new Promise<void>((resolve) => (started = resolve));
      let aborted: () => void = () => undefined;
      const sawAbort = new Promise<void>((resolve) => (aborted = resolve));
      script(fixture, key, (context) => {
        started();
        return new Promise((resolve) => {
          context.signal.addEventListener('abort', () => {
            aborted();
            resolve(runResult({ status: 'cancelled' }));
          });
        });
      });
      const abort = new AbortController();
      const call = session.call(tool, args, { signal: abort.signal });
      await sawStart;
      abort.abort('user pressed stop');
      await assert.rejects(call);
      await sawAbort;
      fixture.handlers.list = () => ({ terminals: [] });
      assert.equal((await session.call('terminal_list', {})).isError, undefined, 'the session still serves calls');
    });
  }

  it('starts nothing in the window for a call cancelled before it was sent', async () => {
    const runs = script(fixture, 'run', () => runResult());
    fixture.handlers.list = () => ({ terminals: [] });
    const abort = new AbortController();
    // The session's first call, so the bridge connection is still being made when it is cancelled.
    const call = session.call('terminal_run', { command: 'rm -rf build' }, { signal: abort.signal });
    abort.abort('user pressed stop');
    await assert.rejects(call);
    // This call goes over the same connection after anything the cancelled one sent.
    assert.equal((await session.call('terminal_list', {})).isError, undefined);
    assert.deepEqual(runs, []);
  });

  it('reconnects for the next call after the bridge dropped mid-call', async () => {
    fixture.handlers.run = () => new Promise(() => undefined);
    const call = session.call('terminal_run', { command: 'sleep 100' });
    await new Promise((r) => setTimeout(r, 200));
    await fixture.dispose();
    const dropped = await call;
    assert.equal(dropped.isError, true);
    assert.match(text(dropped), /^ConnectionLost: .*may still be running/);
    fixture = await startBridgeFixture({ workspace: fixture.workspace });
    fixture.handlers.list = () => ({ terminals: [{ name: 'default', busy: false, shellIntegration: true, shell: 'bash', strategy: 'vscode', pid: 7 }] });
    const listed = await session.call('terminal_list', {});
    assert.equal(listed.isError, undefined, text(listed));
    assert.match(text(listed), /"default": idle · bash \(strategy vscode\) · shell pid 7/);
  });

  it('attaches the ledger reminder to every response, capped, and to errors too', async () => {
    const entry = (pid: number) => ({ pid, name: `node${pid}`, terminalName: 'dev', ports: pid === 1 ? [5173] : [], startedAt: new Date(Date.now() - 125_000).toISOString() });
    fixture.handlers.ledgerSummary = () => ({ running: Array.from({ length: 10 }, (_, i) => entry(i + 1)), orphaned: [entry(99)] });
    fixture.handlers.list = () => ({ terminals: [] });
    const listed = await session.call('terminal_list', {});
    const t = text(listed);
    assert.match(t, /Still running \(10; list_processes shows them, kill_process stops one\):\n- node1, pid 1, listening on 5173, terminal "dev", up 2m 5s\n/);
    assert.match(t, /- and 2 more\n/);
    assert.match(t, /Orphaned by an earlier window \(1; kill_orphans ends them\):\n- node99, pid 99/);
    const ledger = (listed.structuredContent as { ledger: { running: unknown[]; runningTotal: number; orphanedTotal: number } }).ledger;
    assert.equal(ledger.running.length, 8);
    assert.equal(ledger.runningTotal, 10);
    assert.equal(ledger.orphanedTotal, 1);
    assert.equal((ledger as { next?: string }).next, 'list_processes shows them, kill_process stops one; kill_orphans ends them.', 'the next step is in the structured ledger too');
    fixture.handlers.killProcess = async () => {
      throw new ShepherdError(BridgeErrorCode.ProcessNotOwned, 'pid 1 is not a process Terminal Shepherd started.');
    };
    const refused = await session.call('kill_process', { pid: 1 });
    assert.equal(refused.isError, true);
    assert.match(text(refused), /^ProcessNotOwned: pid 1 is not a process Terminal Shepherd started\.\n\nStill running \(10/);
  });

  it('adds no reminder text when nothing runs, and only the two totals to the structured ledger', async () => {
    fixture.handlers.ledgerSummary = () => ({ running: [], orphaned: [] });
    fixture.handlers.list = () => ({ terminals: [] });
    const listed = await session.call('terminal_list', {});
    assert.equal(text(listed), 'No managed terminals. terminal_run creates one (name "default" unless you give a name).');
    assert.deepEqual((listed.structuredContent as { ledger: unknown }).ledger, { runningTotal: 0, orphanedTotal: 0 });
  });

  it('answers without the reminder when the ledger cannot be read, and logs why', async () => {
    fixture.handlers.ledgerSummary = () => {
      throw new Error('ledger file locked');
    };
    fixture.handlers.killOrphans = () => ({ killed: [20], failed: [] });
    const killed = await session.call('kill_orphans', {});
    assert.equal(killed.isError, undefined, text(killed));
    assert.equal(text(killed), 'Killed 1: pid 20.');
    assert.deepEqual(killed.structuredContent, { killed: [20], failed: [] });
    assert.match(session.log(), /debug .*no ledger summary for this response .*ledger file locked/);
  });

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

describe('MCP tools from source: which window they reach', () => {
  it('reaches the window VS Code passed (target) before the one bridge.json advertises', async () => {
    const advertised = await startBridgeFixture();
    const passed = await startBridgeFixture();
    advertised.handlers.list = () => ({ terminals: [{ name: 'advertised', busy: false, shellIntegration: true, shell: 'bash', strategy: 'vscode' }] });
    passed.handlers.list = () => ({ terminals: [{ name: 'passed', busy: false, shellIntegration: true, shell: 'bash', strategy: 'vscode' }] });
    const session = await connectInMemory({ workspaceFolder: advertised.workspace, target: { endpoint: passed.server.endpoint, token: passed.server.token } });
    try {
      assert.match(text(await session.call('terminal_list', {})), /^"passed": idle/);
    } finally {
      await session.close();
      await passed.dispose();
      await advertised.dispose();
    }
  });

  it('falls back to bridge.json when the target is gone, and says what it tried when nothing answers', async () => {
    const fixture = await startBridgeFixture();
    fixture.handlers.list = () => ({ terminals: [] });
    const gone = `${fixture.server.endpoint}.gone`;
    const session = await connectInMemory({ workspaceFolder: fixture.workspace, target: { endpoint: gone, token: fixture.server.token } });
    try {
      assert.equal((await session.call('terminal_list', {})).isError, undefined);
      await fixture.dispose();
      const result = await session.call('terminal_list', {});
      assert.equal(result.isError, true);
      assert.equal(
        text(result),
        `Unreachable: No VS Code window with the Terminal Shepherd extension serves ${fixture.workspace}: there is no live ${fixture.workspace}/.devtools/bridge.json. ` +
          `Open ${fixture.workspace} in VS Code with Terminal Shepherd installed and enabled, and trust it, then retry. ` +
          `(Tried the bridge VS Code passed in the environment: cannot connect to ${gone} (ENOENT).)`,
      );
    } finally {
      await session.close();
      await fixture.dispose();
    }
  });
});
