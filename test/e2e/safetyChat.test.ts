// The per-command safety check through VS Code's own MCP client, as Copilot agent mode calls
// terminal_run: a scripted model in VS Code's chat (test/support/scriptedChat), VS Code's tool
// confirmation clicked once ("Allow in this Session"), then our question in the chat itself (MCP
// elicitation, which VS Code 1.139 renders as a form under the tool call), answered by the test:
// declined, the folder the test made is untouched on disk; "Run Once", it runs. Its screenshot of
// the question is docs/safety.md's (command-question.png: see test/support/screenshots.ts).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';
import type { TerminalRunResult } from '../../common/src/protocol';
import { ChatSession, scriptedChatLaunch, type PlayedSession } from '../support/chatSession';
import { repoRoot } from '../support/mcpClient';
import { readmeScreenshot } from '../support/screenshots';
import { E2E_SETTINGS, makeWorkspace } from '../support/shepherdE2e';
import { launchVsCode, type VsCode } from '../support/vscodeHarness';

const SCREENSHOT = readmeScreenshot('command-question.png');

describe("the per-command safety check through VS Code's own MCP client: the question in the chat", function () {
  this.timeout(300_000);
  let vsc: VsCode;
  let chat: ChatSession;
  let workspace: string;
  let failed = false;

  before(async function () {
    this.timeout(900_000);
    await ensureVsCode();
    workspace = makeWorkspace();
    vsc = await launchVsCode({ workspace, settings: { ...E2E_SETTINGS, 'terminalShepherd.safety.perCommandCheck': true }, label: 'safety-chat', ...scriptedChatLaunch([repoRoot]) });
    chat = new ChatSession(vsc);
    await chat.ready();
  });
  afterEach(function () {
    failed ||= this.currentTest?.state === 'failed';
  });
  after(async () => {
    await vsc?.stop({ failed });
  });

  /** Plays one terminal_run call, answering VS Code's tool confirmation with its primary button and our question with `answer`. */
  async function runInChat(command: string, answer: string, screenshot?: string): Promise<{ played: PlayedSession; result: TerminalRunResult }> {
    const playing = chat.play(`run ${command}`, [{ calls: [{ tool: 'terminal_run', input: { command } }] }, { text: 'done' }], { timeoutMs: 120_000 });
    const answering = chat.answerElicitation(answer, screenshot ? { screenshot } : {});
    const [played] = await Promise.all([playing, answering]);
    const call = played.calls.find((c) => c.tool.endsWith('_terminal_run'));
    assert.ok(call?.text, JSON.stringify(played.calls));
    return { played, result: JSON.parse(call.text) as TerminalRunResult };
  }

  it('a dangerous line asks in the chat; "Do Not Run" leaves the folder untouched on disk', async () => {
    const victim = path.join(workspace, 'victim');
    mkdirSync(victim);
    writeFileSync(path.join(victim, 'keep.txt'), 'keep me\n');
    const { played, result } = await runInChat('rm -rf victim', 'Do Not Run', SCREENSHOT);
    assert.deepEqual(played.confirmations.map((c) => c.clicked), ['Allow in this Session'], "VS Code's own tool confirmation, once");
    assert.deepEqual([result.status, result.safety?.answer, result.safety?.via], ['not_approved', 'declined', 'elicitation']);
    assert.ok(existsSync(path.join(victim, 'keep.txt')), 'the folder is untouched');
  });

  it('"Run Once" runs it', async () => {
    const { played, result } = await runInChat('rm -rf victim', 'Run Once');
    assert.deepEqual(played.confirmations, [], 'terminal_run is allowed for the session: only our question asked');
    assert.deepEqual([result.status, result.exitCode, result.safety?.answer], ['completed', 0, 'once']);
    assert.equal(existsSync(path.join(workspace, 'victim')), false, 'the folder is gone');
  });
});
