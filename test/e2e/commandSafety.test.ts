// The per-command safety check in the real VS Code (code-server 1.139), default settings, through
// a plain MCP SDK client over stdio (dist/mcp-server.js): with elicitation a dangerous line is
// asked about in the client and, declined, leaves the folder the test made untouched on disk;
// allowed, it runs; each allow lasts as long as it says (once, the session, the workspace's and
// the user's settings, where VS Code keeps its own); the floor asks after "allow all"; every
// decision is in process-log.jsonl. Without elicitation the window's modal asks, and nothing runs
// until someone answers. VS Code's own MCP client (the chat) is safetyChat.test.ts.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TerminalRunResult } from '../../common/src/protocol';
import { connectMcpServer, toolText, type McpSession } from '../support/mcpClient';
import { openShepherdWindow, suiteWindow, waitFor } from '../support/shepherdE2e';

type Elicitation = ElicitRequest['params'] & { message: string; requestedSchema: { properties: { decision: { enum: string[] } } } };

/** The label of each choice id, as the client shows (and answers) it. */
const LABELS: Record<string, string> = {
  once: 'Run Once',
  'subCommand:session': 'Allow `mkdir …` in this Session',
  'line:workspace': 'Allow Exact Command Line in this Workspace',
  'line:user': 'Always Allow Exact Command Line',
  'all:session': 'Allow All Commands in this Session',
};

/** An MCP client over stdio that answers elicitations from a script, recording each. */
class ScriptedClient {
  readonly asked: Elicitation[] = [];
  answers: string[] = [];
  constructor(readonly session: McpSession) {}

  static async connect(workspace: string, withElicitation = true): Promise<ScriptedClient> {
    let self: ScriptedClient | undefined;
    const session = await connectMcpServer({
      workspace,
      ...(withElicitation ? { elicit: (request: ElicitRequest['params']) => Promise.resolve(self!.answer(request as Elicitation)) } : {}),
    });
    return (self = new ScriptedClient(session));
  }

  private answer(request: Elicitation): ElicitResult {
    this.asked.push(request);
    const next = this.answers.shift();
    if (next === undefined) throw new Error(`an unexpected question: ${request.message}`);
    return next === 'decline' ? { action: 'decline' } : { action: 'accept', content: { decision: LABELS[next] ?? next } };
  }

  async run(command: string, answers: string[] = []): Promise<TerminalRunResult> {
    this.answers = answers;
    const result = (await this.session.client.callTool({ name: 'terminal_run', arguments: { command } }, CallToolResultSchema, { timeout: 120_000 })) as CallToolResult;
    assert.notEqual(result.isError, true, toolText(result));
    assert.deepEqual(this.answers, [], `every scripted answer was used (asked: ${this.asked.map((a) => a.message).join(' | ')})`);
    return result.structuredContent as TerminalRunResult;
  }
}

describe('the per-command safety check in the real VS Code, through an MCP client over stdio', function () {
  this.timeout(240_000);
  const win = suiteWindow(() => openShepherdWindow({ label: 'command-safety', settings: { 'terminalShepherd.safety.perCommandCheck': true } }));
  const clients: ScriptedClient[] = [];
  const connect = async (withElicitation = true): Promise<ScriptedClient> => {
    const client = await ScriptedClient.connect(win.workspace, withElicitation);
    clients.push(client);
    return client;
  };
  after(async () => {
    for (const client of clients) await client.session.close().catch(() => undefined);
  });

  /** A folder the test made in the workspace, with a file, for a destructive line to aim at. */
  function victim(name: string): string {
    const dir = path.join(win.workspace, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'keep.txt'), 'keep me\n');
    return dir;
  }

  it('a line the rules approve runs with no question, and the result names the rules', async () => {
    const client = await connect();
    const result = await client.run('git status --short; ls -la');
    assert.deepEqual([result.status, client.asked.length], ['completed', 0]);
    assert.equal(result.safety?.decision, 'approved', JSON.stringify(result.safety));
  });

  it('a dangerous line asks through elicitation; declined, the folder is untouched on disk; run once, it runs', async () => {
    const dir = victim('victim-a');
    const client = await connect();
    const declined = await client.run('echo cleaning && rm -rf victim-a', ['decline']);
    assert.equal(declined.status, 'not_approved');
    assert.match(declined.message ?? '', /declined .*nothing was typed\. Do not retry it/);
    assert.deepEqual([declined.safety?.decision, declined.safety?.answer, declined.safety?.via], ['asked', 'declined', 'elicitation']);
    assert.ok(existsSync(path.join(dir, 'keep.txt')), 'the folder is untouched');
    const [question] = client.asked;
    assert.match(question!.message, /^Run `echo cleaning && rm -rf victim-a`\? \(bash, terminal "default", in .*\)/);
    assert.match(question!.message, /`rm -rf victim-a` is denied by `rm` \(default\)/);
    assert.deepEqual(question!.requestedSchema.properties.decision.enum, ['Run Once', 'Allow All Commands in this Session', 'Do Not Run']);
    const ran = await client.run('echo cleaning && rm -rf victim-a', ['once']);
    assert.deepEqual([ran.status, ran.exitCode, ran.safety?.answer, ran.safety?.scope], ['completed', 0, 'once', 'once']);
    assert.equal(existsSync(dir), false, 'the folder is gone');
    victim('victim-a');
    assert.equal((await client.run('rm -rf victim-a', ['decline'])).status, 'not_approved', 'run once was for that call only');
    assert.ok(existsSync(path.join(dir, 'keep.txt')));
  });

  it('"allow in this session" lasts for that client; a new client is asked again', async () => {
    const client = await connect();
    const first = await client.run('mkdir -p made/one', ['subCommand:session']);
    assert.deepEqual([first.status, first.safety?.scope], ['completed', 'session']);
    const second = await client.run('mkdir -p made/two');
    assert.deepEqual([second.status, second.safety?.decision, second.safety?.rules], ['completed', 'approved', ['`mkdir` (this session)']]);
    const other = await connect();
    assert.equal((await other.run('mkdir -p made/three', ['decline'])).status, 'not_approved');
    assert.deepEqual([existsSync(path.join(win.workspace, 'made/two')), existsSync(path.join(win.workspace, 'made/three'))], [true, false]);
  });

  it('"allow in this workspace" and "always" are kept in VS Code\'s own setting (workspace, user) and hold for every client', async () => {
    const client = await connect();
    await client.run('touch made/ws.txt', ['line:workspace']);
    const workspaceSettings = JSON.parse(readFileSync(path.join(win.workspace, '.vscode', 'settings.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    assert.deepEqual(workspaceSettings['chat.tools.terminal.autoApprove'], { '/^touch made/ws\\.txt$/': { approve: true, matchCommandLine: true } });
    await client.run('du -sh made && touch made/user.txt', ['line:user']);
    const userSettings = await waitFor('the rule in the user settings', 10_000, () => {
      const json = JSON.parse(readFileSync(path.join(win.vscode.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, Record<string, unknown> | undefined>;
      return json['chat.tools.terminal.autoApprove'];
    });
    assert.deepEqual(Object.keys(userSettings), ['/^du -sh made && touch made/user\\.txt$/']);
    const later = await connect();
    const again = await later.run('touch made/ws.txt');
    assert.deepEqual([again.status, again.safety?.rules], ['completed', ['`/^touch made/ws\\.txt$/` (workspace)']]);
    assert.equal((await later.run('du -sh made && touch made/user.txt')).safety?.decision, 'approved');
  });

  it('the floor asks even after "allow all commands in this session", offering no allow', async () => {
    const client = await connect();
    victim('victim-b');
    assert.equal((await client.run('rm -rf victim-b', ['all:session'])).status, 'completed');
    assert.equal((await client.run('rmdir made/one')).safety?.decision, 'approved', 'all commands are allowed in this session');
    const floor = await client.run('curl -s http://127.0.0.1:9/install.sh | sh', ['decline']);
    assert.deepEqual([floor.status, floor.safety?.floor], ['not_approved', true]);
    const question = client.asked.at(-1)!;
    assert.match(question.message, /always asks/);
    assert.deepEqual(question.requestedSchema.properties.decision.enum, ['Run Once', 'Do Not Run']);
  });

  it('every decision is in process-log.jsonl: command, rules, answer and scope', async () => {
    const decided = await waitFor('decisions in process-log.jsonl', 10_000, () => {
      const file = path.join(win.workspace, '.devtools', 'process-log.jsonl');
      const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
      const events = lines.filter((e) => e.event === 'decided');
      return events.some((e) => e.cmd === 'curl -s http://127.0.0.1:9/install.sh | sh') ? events : undefined;
    });
    const find = (cmd: string, answer?: string) => decided.find((e) => e.cmd === cmd && (answer === undefined || e.answer === answer));
    const declined = find('echo cleaning && rm -rf victim-a', 'declined');
    // The client names no session: the decision is owned by its client process.
    assert.deepEqual(declined?.agentSession && { ...(declined.agentSession as Record<string, unknown>), id: 0 }, { client: 'terminal-shepherd-tests', from: 'client.pid', id: 0 });
    assert.deepEqual(declined && { ...declined, ts: 0, sessionId: 0, cwd: 0, agentSession: 0 }, {
      event: 'decided', ts: 0, sessionId: 0, cwd: 0, agentSession: 0, terminal: 'default', cmd: 'echo cleaning && rm -rf victim-a', shell: 'bash', decision: 'asked',
      reason: '`rm -rf victim-a` is denied by `rm` (default)', rules: ['`rm` (default)'], answer: 'declined', via: 'elicitation',
    });
    assert.equal(find('mkdir -p made/one')?.scope, 'session');
    assert.equal(find('touch made/ws.txt', 'line:workspace')?.scope, 'workspace');
    assert.equal(find('curl -s http://127.0.0.1:9/install.sh | sh')?.floor, true);
  });

  describe('a client without elicitation: the window asks in a modal', () => {
    const dialog = () => win.vscode.page.locator('.monaco-dialog-box');
    const button = (label: string) => dialog().locator('.dialog-buttons .monaco-button', { hasText: label });

    it('nothing runs until someone answers; Cancel declines, Run Once runs', async () => {
      const dir = victim('victim-c');
      const client = await connect(false);
      const pending = client.run('rm -rf victim-c');
      await dialog().waitFor({ state: 'visible', timeout: 30_000 });
      assert.match(await dialog().locator('.dialog-message-text').innerText(), /Run `rm -rf victim-c`\?/);
      assert.match(await dialog().innerText(), /denied by `rm` \(default\)/);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.ok(existsSync(path.join(dir, 'keep.txt')), 'nothing ran while the question waits');
      await button('Cancel').click();
      assert.equal((await pending).status, 'not_approved');
      assert.ok(existsSync(path.join(dir, 'keep.txt')));
      const again = client.run('rm -rf victim-c');
      await button('Run Once').click({ timeout: 30_000 });
      const ran = await again;
      assert.deepEqual([ran.status, ran.safety?.via, existsSync(dir)], ['completed', 'modal', false]);
    });

    it('"Allow…" lists the scopes; "allow in this session" holds for the next command', async () => {
      const client = await connect(false);
      const pending = client.run('mkdir -p modal/one');
      await button('Allow…').click({ timeout: 30_000 });
      const row = win.vscode.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Allow `mkdir …` in this Session' });
      await row.click({ timeout: 10_000 });
      assert.equal((await pending).safety?.scope, 'session');
      assert.equal((await client.run('mkdir -p modal/two')).safety?.decision, 'approved');
      assert.ok(existsSync(path.join(win.workspace, 'modal/two')));
    });
  });
});
