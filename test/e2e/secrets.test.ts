// Secrets never reach the model, in a real VS Code (code-server): a prompt for a secret is handed to
// the person (terminal_input refused; the test types into the terminal itself, as a person would);
// a fake token in the terminal's environment and a .env file are redacted from the result, the run
// log on disk, the process log and the extension log (grepped on disk, not taken from the product's
// word); the shell's own /proc/<pid>/environ carries AI_AGENT and TERMINAL_SHEPHERD; the HISTFILE
// the person's shell writes holds the person's commands and none of the agent's.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { agentName } from '../../extension/src/core/terminals/agentMarks';
import { TEST_CLIENT_INFO, toolText } from '../support/mcpClient';
import { makeWorkspace, openShepherdWindow, suiteWindow, useShell, waitFor, type ShepherdWindow } from '../support/shepherdE2e';

// Built at run time: no scanner takes this file for a leak.
const FAKE_TOKEN = `ghp_${'Fake0Tok3n'.repeat(4)}`;
const DOTENV_SECRETS = ['fake-api-key-1234567', 'fake-db-pass-987', 'fake_stripe_value_abcdef'];
const DOTENV = ['# app settings', `API_KEY=${DOTENV_SECRETS[0]}`, `DATABASE_URL=postgres://app:${DOTENV_SECRETS[1]}@localhost:5432/app`, 'NODE_ENV=development', `STRIPE_SECRET=${DOTENV_SECRETS[2]}`, ''].join('\n');

/** Every file under `dir` (the workspace's .devtools), for grepping. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/** The environment of a live process, from the OS. */
function environOf(pid: number): Record<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/** Types into a managed terminal as the person would (the API VS Code's own UI input goes through). */
async function personTypes(win: ShepherdWindow, terminal: string, text: string): Promise<void> {
  await win.vscode.driver.evaluate(`
    const t = vscode.window.terminals.find((x) => x.name === ${JSON.stringify(`Shepherd: ${terminal}`)});
    if (!t) throw new Error('no terminal ${terminal}');
    t.sendText(${JSON.stringify(text)}, true);
  `);
}

/** The agent runs `commands` in `terminal`, the person types a line and exits: the HISTFILE the shell writes has the person's line and none of the agent's. */
async function expectHistoryWithoutAgent(win: ShepherdWindow, terminal: string, histfile: string, commands: readonly string[]): Promise<void> {
  for (const command of commands) assert.equal((await win.run('terminal_run', { command, name: terminal })).status, 'completed');
  await personTypes(win, terminal, 'echo person-typed-line');
  await personTypes(win, terminal, 'exit');
  const history = await waitFor(`${histfile} to be written at exit`, 20_000, () => {
    const text = existsSync(histfile) ? readFileSync(histfile, 'utf8') : '';
    return text.includes('person-typed-line') ? text : undefined;
  });
  assert.ok(!history.includes('agent-command'), history);
}

describe('secrets: handed to the person, redacted everywhere, agent commands marked', function () {
  this.timeout(180_000);
  const home = mkdtempSync(path.join(os.tmpdir(), 'tshep-secrets-home-'));
  const workspace = makeWorkspace();
  const win = suiteWindow(
    () => openShepherdWindow({ label: 'secrets', workspace }),
    () => rmSync(home, { recursive: true, force: true }),
  );

  describe('a prompt for a secret (bash, read -s)', () => {
    before(async () => useShell(win, '/bin/bash'));

    it('waiting_for_input sensitive; terminal_input refused; the person types it and the run completes', async () => {
      const first = await win.run('terminal_run', { command: 'read -s -p "Password: " pw; echo; echo "got ${#pw} chars"', name: 'secret' });
      assert.equal(first.status, 'waiting_for_input', JSON.stringify(first));
      // The OS may show the read before the prompt is drawn: the next look has it.
      const asked = first.sensitive ? first : await waitFor('the prompt drawn', 10_000, async () => {
        const state = await win.run('terminal_state', { name: 'secret' });
        return state.sensitive ? state : undefined;
      });
      assert.equal(asked.sensitive, true, JSON.stringify(asked));
      assert.match(String(asked.message), /The user must type it in terminal "secret" themselves/);
      const refused = await win.call('terminal_input', { name: 'secret', text: 'guessed-by-model' });
      assert.equal(refused.isError, true, toolText(refused));
      assert.match(toolText(refused), /asks for a secret/);
      await personTypes(win, 'secret', 'typed-by-person');
      // The answer reaches the shell a moment later: until then the run still waits at the prompt.
      const done = await waitFor('the run to go on after the person typed', 20_000, async () => {
        const state = await win.run('terminal_state', { name: 'secret', wait: true, timeout: 5000 });
        return state.status === 'waiting_for_input' ? undefined : state;
      });
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.equal(done.exitCode, 0);
      assert.match(done.output, /got 15 chars$/);
      assert.ok(!done.output.includes('typed-by-person'), done.output);
    });
  });

  describe('redaction and marks (bash, a fake token in the terminal environment)', () => {
    const histfile = path.join(home, 'bash_history');
    before(async () => {
      writeFileSync(path.join(workspace, '.env'), DOTENV);
      await useShell(win, '/bin/bash', { 'terminal.integrated.env.linux': { GITHUB_TOKEN: FAKE_TOKEN, HISTFILE: histfile, HISTSIZE: '1000', HISTFILESIZE: '1000' } });
    });

    it('printenv and cat .env: the result, the run log, the process log and the extension log hold no secret; the count is right', async () => {
      // Long enough for a run log on disk; a child process with the token in its argv for the process log.
      const command = `seq 1 4000; sh -c 'sleep 1.5' ${FAKE_TOKEN}; printenv GITHUB_TOKEN; cat .env`;
      const r = await win.run('terminal_run', { command, name: 'leaky' });
      assert.equal(r.status, 'completed', JSON.stringify(r));
      assert.equal(r.truncated, true, 'the whole output went to a run log');
      const secrets = [FAKE_TOKEN, ...DOTENV_SECRETS];
      const resultText = JSON.stringify(r);
      for (const secret of secrets) assert.ok(!resultText.includes(secret), `the result holds ${secret}`);
      const tail = r.output.slice(-600);
      assert.match(tail, /‹redacted: GitHub token›\n# app settings\nAPI_KEY=‹redacted: value of API_KEY›\n/, tail);
      assert.match(tail, /postgres:\/\/app:‹redacted: URL password›@localhost/, tail);
      assert.match(tail, /NODE_ENV=development/, tail);
      // printenv's token, the three .env values, and the token in the command line.
      assert.equal(r.redacted, 5, JSON.stringify(r));
      const runLog = readFileSync(String(r.outputFile), 'utf8');
      assert.match(runLog, /^1\n2\n/);
      assert.match(runLog, /‹redacted: GitHub token›/);
      // The process log records the sleeping child's command line, the extension log the run.
      await waitFor('the child in the process log', 20_000, () => readFileSync(path.join(workspace, '.devtools', 'process-log.jsonl'), 'utf8').includes('sleep 1.5') || undefined);
      const disk = filesUnder(path.join(workspace, '.devtools')).map((file) => [file, readFileSync(file, 'utf8')] as const);
      assert.ok(disk.some(([file]) => file === r.outputFile));
      for (const [file, text] of disk) for (const secret of secrets) assert.ok(!text.includes(secret), `${file} holds ${secret}`);
      const logs = win.vscode.extensionLogs().join('\n');
      assert.match(logs, /sleep 1\.5' ‹redacted: GitHub token›/, 'the extension log has the run, redacted');
      for (const secret of secrets) assert.ok(!logs.includes(secret), `the extension log holds ${secret}`);
    });

    it("the shell's environment (/proc) carries AI_AGENT and TERMINAL_SHEPHERD", async () => {
      const r = await win.run('terminal_run', { command: 'true', name: 'leaky' });
      const env = environOf(Number(r.pid));
      assert.equal(env.AI_AGENT, agentName(TEST_CLIENT_INFO.name));
      assert.equal(env.TERMINAL_SHEPHERD, '1');
    });

    it("bash keeps the person's history settings: no VSCODE_PREVENT_SHELL_HISTORY in its environment (VS Code's bash script would then report lines by their first simple command)", async () => {
      const r = await win.run('terminal_run', { command: 'true', name: 'hist' });
      assert.equal(environOf(Number(r.pid)).VSCODE_PREVENT_SHELL_HISTORY, undefined);
    });
  });

  describe('history (zsh, our integration)', () => {
    const histfile = path.join(home, 'zsh_history');
    before(async () => useShell(win, '/usr/bin/zsh', { 'terminal.integrated.env.linux': { HISTFILE: histfile, SAVEHIST: '1000', HISTSIZE: '1000' } }));

    it("the person's HISTFILE gets what the person typed and none of the agent's commands", async () => {
      await expectHistoryWithoutAgent(win, 'zhist', histfile, ['echo agent-command-one', 'echo agent-command-two']);
    });
  });

  describe('history (fish)', () => {
    before(async () => useShell(win, '/usr/bin/fish'));

    it('the terminal runs in private mode: nothing typed there is saved', async () => {
      const r = await win.run('terminal_run', { command: 'set -q fish_private_mode; and echo private-mode-on', name: 'fhist' });
      assert.equal(r.output, 'private-mode-on', JSON.stringify(r));
      assert.equal(environOf(Number(r.pid)).AI_AGENT, agentName(TEST_CLIENT_INFO.name));
    });
  });
});
