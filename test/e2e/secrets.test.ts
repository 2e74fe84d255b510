// Secrets never reach the model, in a real VS Code (code-server): a prompt for a secret is handed to
// the person (terminal_input refused; the test types into the terminal itself, as a person would);
// a fake token in the terminal's environment and a .env file are redacted from the result, the run
// log on disk, the process log and the extension log (grepped on disk, not taken from the product's
// word); the shell's own /proc/<pid>/environ carries AI_AGENT and TERMINAL_SHEPHERD; the HISTFILE
// the person's shell writes holds the person's commands and none of the agent's.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TerminalRunResult } from '../../common/src/protocol';
import { terminalReadsSecret } from '../../extension/src/core/secrets/ttyEcho';
import { agentName } from '../../extension/src/core/terminals/agentMarks';
import { TEST_CLIENT_INFO, toolText } from '../support/mcpClient';
import { makeWorkspace, openShepherdWindow, suiteWindow, useShell, waitFor, type ShepherdWindow } from '../support/shepherdE2e';

// Built at run time: no scanner takes this file for a leak.
const FAKE_TOKEN = `ghp_${'Fake0Tok3n'.repeat(4)}`;
/** No token format: only the terminal's environment (terminal.integrated.env.linux) says it is a secret. */
const TERMINAL_ONLY = `plain-deploy-${'value'.repeat(3)}-4242`;
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

/**
 * Runs `command`, which asks for a secret: the result is waiting_for_input, sensitive, and says the
 * user must type it; terminal_input refuses the model's text. Returns that result.
 */
async function asksForSecret(win: ShepherdWindow, terminal: string, command: string, prompt: RegExp): Promise<TerminalRunResult & Record<string, unknown>> {
  const first = await win.run('terminal_run', { command, name: terminal });
  assert.equal(first.status, 'waiting_for_input', JSON.stringify(first));
  // The OS may show the read before the prompt is drawn: the next look has it.
  const asked = first.sensitive ? first : await waitFor('the prompt drawn', 10_000, async () => {
    const state = await win.run('terminal_state', { name: terminal });
    return state.sensitive ? state : undefined;
  });
  assert.equal(asked.sensitive, true, JSON.stringify(asked));
  assert.match(String(asked.prompt), prompt);
  assert.ok(String(asked.message).includes(`The user must type it in terminal "${terminal}" themselves`), String(asked.message));
  const refused = await win.call('terminal_input', { name: terminal, text: 'guessed-by-model' });
  assert.equal(refused.isError, true, toolText(refused));
  assert.match(toolText(refused), /asks for a secret/);
  return asked;
}

/**
 * asksForSecret, then the person types `answer` into the terminal and the run goes on to its end,
 * which is returned (neither text in its output).
 */
async function handedToPerson(win: ShepherdWindow, terminal: string, command: string, answer: string, prompt = /Password:/): Promise<TerminalRunResult & Record<string, unknown>> {
  await asksForSecret(win, terminal, command, prompt);
  await personTypes(win, terminal, answer);
  // The answer reaches the shell a moment later: until then the run still waits at the prompt.
  const done = await waitFor('the run to go on after the person typed', 30_000, async () => {
    const state = await win.run('terminal_state', { name: terminal, wait: true, timeout: 5000 });
    return state.status === 'waiting_for_input' ? undefined : state;
  });
  assert.equal(done.status, 'completed', JSON.stringify(done));
  assert.ok(!done.output.includes(answer) && !done.output.includes('guessed-by-model'), done.output);
  return done;
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
      const done = await handedToPerson(win, 'secret', 'read -s -p "Password: " pw; echo; echo "got ${#pw} chars"', 'typed-by-person');
      assert.equal(done.exitCode, 0);
      assert.match(done.output, /got 15 chars$/);
    });

    it('a prompt whose wording names no secret, read with the terminal\'s echo off: sensitive all the same', async () => {
      const done = await handedToPerson(win, 'magic', 'read -s -p "Say the magic word> " w; echo; echo "heard ${#w} letters"', 'abracadabra', /Say the magic word>/);
      assert.match(done.output, /heard 11 letters$/);
    });
  });

  describe('a real su prompt as a user that is not root (no sudo on this machine)', () => {
    // The test runs as root, so `su` to another user asks nothing; that user's own `su root` does, through PAM, with the terminal's echo off.
    const canRun = process.getuid?.() === 0 && existsSync('/usr/bin/su');
    before(async function () {
      if (!canRun) this.skip();
      await useShell(win, '/bin/bash');
    });

    it("waiting_for_input sensitive; terminal_input refused; the person types a (wrong) password and the run ends with su's own answer", async () => {
      const done = await handedToPerson(win, 'su', "su nobody -s /bin/sh -c 'su root -c true'", 'not-the-root-password');
      assert.equal(done.exitCode, 1);
      assert.match(done.output, /su: Authentication failure/);
    });
  });

  describe('a real sudo password prompt as a user that is not root', () => {
    // As root sudo asks nothing; as `nobody` it authenticates before it reads sudoers, so it asks
    // "[sudo] password for nobody:" on the terminal with echo off (nobody has no password: every answer is wrong).
    const canRun = process.getuid?.() === 0 && existsSync('/usr/bin/sudo') && existsSync('/usr/sbin/runuser');
    before(async function () {
      if (!canRun) this.skip();
      await useShell(win, '/bin/bash');
    });

    it('waiting_for_input sensitive, echo off seen; terminal_input refused; the person types, sudo asks again; Ctrl+C cancels; no answer on disk', async () => {
      const answer = 'person-sudo-answer-7531';
      // seq: long enough output for a run log file on disk, to grep.
      const asked = await asksForSecret(win, 'sudo', 'seq 1 4000; runuser -u nobody -- sudo -k true', /^\[sudo\] password for nobody:/);
      assert.equal(await terminalReadsSecret(Number(asked.pid)), true, "the terminal's echo is off while sudo reads the password");
      await personTypes(win, 'sudo', answer);
      const again = await waitFor('sudo to ask again', 20_000, async () => {
        const state = await win.run('terminal_state', { name: 'sudo', wait: true, timeout: 3000 });
        return state.status === 'waiting_for_input' && state.sensitive && state.output.includes('Sorry, try again.') ? state : undefined;
      });
      assert.match(String(again.prompt), /^\[sudo\] password for nobody:/);
      const cancelled = await win.run('terminal_input', { name: 'sudo', text: '\u0003' });
      assert.equal(cancelled.status, 'completed', JSON.stringify(cancelled));
      assert.equal(cancelled.exitCode, 1, JSON.stringify(cancelled));
      assert.match(cancelled.output, /sudo: 1 incorrect password attempt$/);
      assert.equal(await terminalReadsSecret(Number(cancelled.pid)), false, 'the shell reads with echo on again');
      const log = String(cancelled.outputFile);
      assert.match(readFileSync(log, 'utf8'), /^1\n2\n[\s\S]*\[sudo\] password for nobody:/);
      // The ledger (process-log.jsonl, active-processes.json) records sudo; waits for sudo's record, then greps everything on disk.
      await waitFor('sudo in the process log', 20_000, () => readFileSync(path.join(workspace, '.devtools', 'process-log.jsonl'), 'utf8').includes('sudo -k true') || undefined);
      const disk = filesUnder(path.join(workspace, '.devtools'));
      assert.ok(disk.includes(log), `${log} under .devtools`);
      for (const file of disk) for (const secret of [answer, 'guessed-by-model']) assert.ok(!readFileSync(file, 'utf8').includes(secret), `${file} holds ${secret}`);
      const logs = win.vscode.extensionLogs().join('\n');
      for (const secret of [answer, 'guessed-by-model']) assert.ok(!logs.includes(secret), `the extension log holds ${secret}`);
    });
  });

  describe('redaction and marks (bash, a fake token in the terminal environment)', () => {
    const histfile = path.join(home, 'bash_history');
    before(async () => {
      writeFileSync(path.join(workspace, '.env'), DOTENV);
      await useShell(win, '/bin/bash', { 'terminal.integrated.env.linux': { GITHUB_TOKEN: FAKE_TOKEN, DEPLOY_TOKEN: TERMINAL_ONLY, HISTFILE: histfile, HISTSIZE: '1000', HISTFILESIZE: '1000' } });
    });

    it('printenv and cat .env: the result, the run log, the process log and the extension log hold no secret; the count is right', async () => {
      // Long enough for a run log on disk; a child process with the token and the terminal-only secret in its argv for the process log.
      const command = `seq 1 4000; sh -c 'sleep 3' ${FAKE_TOKEN} ${TERMINAL_ONLY}; printenv GITHUB_TOKEN; cat .env`;
      const r = await win.run('terminal_run', { command, name: 'leaky' });
      assert.equal(r.status, 'completed', JSON.stringify(r));
      assert.equal(r.truncated, true, 'the whole output went to a run log');
      const secrets = [FAKE_TOKEN, TERMINAL_ONLY, ...DOTENV_SECRETS];
      const resultText = JSON.stringify(r);
      for (const secret of secrets) assert.ok(!resultText.includes(secret), `the result holds ${secret}`);
      const tail = r.output.slice(-600);
      assert.match(tail, /‹redacted: GitHub token›\n# app settings\nAPI_KEY=‹redacted: value of API_KEY›\n/, tail);
      assert.match(tail, /postgres:\/\/app:‹redacted: URL password›@localhost/, tail);
      assert.match(tail, /NODE_ENV=development/, tail);
      // printenv's token, the three .env values, and the token and the terminal-only value in the command line.
      assert.equal(r.redacted, 6, JSON.stringify(r));
      const runLog = readFileSync(String(r.outputFile), 'utf8');
      assert.match(runLog, /^1\n2\n/);
      assert.match(runLog, /‹redacted: GitHub token›/);
      // The process log records the sleeping child's command line, the extension log the run.
      await waitFor('the child in the process log', 20_000, () => /sleep 3 ‹redacted: GitHub token› ‹redacted: value of DEPLOY_TOKEN›/.test(readFileSync(path.join(workspace, '.devtools', 'process-log.jsonl'), 'utf8')) || undefined);
      const disk = filesUnder(path.join(workspace, '.devtools')).map((file) => [file, readFileSync(file, 'utf8')] as const);
      assert.ok(disk.some(([file]) => file === r.outputFile));
      for (const [file, text] of disk) for (const secret of secrets) assert.ok(!text.includes(secret), `${file} holds ${secret}`);
      const logs = win.vscode.extensionLogs().join('\n');
      assert.match(logs, /sleep 3' ‹redacted: GitHub token› ‹redacted: value of DEPLOY_TOKEN›/, 'the extension log has the run, redacted');
      for (const secret of secrets) assert.ok(!logs.includes(secret), `the extension log holds ${secret}`);
    });

    it("the shell's environment (/proc) carries AI_AGENT and TERMINAL_SHEPHERD", async () => {
      const r = await win.run('terminal_run', { command: 'true', name: 'leaky' });
      const env = environOf(Number(r.pid));
      assert.equal(env.AI_AGENT, agentName(TEST_CLIENT_INFO.name));
      assert.equal(env.TERMINAL_SHEPHERD, '1');
    });

    it("the person's HISTFILE gets what the person typed and none of the agent's commands; a for loop typed that way keeps its output", async () => {
      // VSCODE_PREVENT_SHELL_HISTORY puts VS Code's bash script in its $BASH_COMMAND mode (the first simple command).
      const loop = await win.run('terminal_run', { command: 'for i in $(seq 1 20); do echo agent-command-$i; done', name: 'hist' });
      assert.equal(loop.output, Array.from({ length: 20 }, (_, i) => `agent-command-${i + 1}`).join('\n'), JSON.stringify(loop));
      await expectHistoryWithoutAgent(win, 'hist', histfile, ['echo agent-command-one', 'echo agent-command-two && true']);
    });
  });

  describe("history (bash, a .bashrc with HISTCONTROL=ignoreboth as Ubuntu's)", () => {
    // HISTCONTROL ignoring spaces put VS Code's bash script in its $BASH_COMMAND mode, where a line
    // is reported by its first simple command (strategyChain.ts): the runs must see their whole
    // output and exit code, and the lines typed with a leading space stay out of the HISTFILE.
    const bashHome = path.join(home, 'bash-home');
    const histfile = path.join(bashHome, '.bash_history');
    before(async () => {
      mkdirSync(bashHome, { recursive: true });
      writeFileSync(path.join(bashHome, '.bashrc'), 'HISTCONTROL=ignoreboth\nHISTSIZE=1000\nHISTFILESIZE=2000\nshopt -s histappend\n');
      await useShell(win, '/bin/bash', { 'terminal.integrated.env.linux': { HOME: bashHome } });
    });

    it('a for loop and a multi-command line: each run sees its whole output and its exit code', async () => {
      const loop = await win.run('terminal_run', { command: 'for i in $(seq 1 3); do echo agent-command-loop-$i; sleep 0.2; done', name: 'bhist' });
      assert.equal(loop.status, 'completed', JSON.stringify(loop));
      assert.equal(loop.output, 'agent-command-loop-1\nagent-command-loop-2\nagent-command-loop-3', JSON.stringify(loop));
      assert.equal(loop.exitCode, 0);
      const multi = await win.run('terminal_run', { command: 'echo agent-command-a && echo agent-command-b; false', name: 'bhist' });
      assert.equal(multi.status, 'completed', JSON.stringify(multi));
      assert.equal(multi.output, 'agent-command-a\nagent-command-b', JSON.stringify(multi));
      assert.equal(multi.exitCode, 1);
      const piped = await win.run('terminal_run', { command: 'if true; then seq 1 3 | tail -n 1; fi', name: 'bhist' });
      assert.equal(piped.output, '3', JSON.stringify(piped));
    });

    it("the HISTFILE on disk holds what the person typed and none of the agent's commands", async () => {
      await expectHistoryWithoutAgent(win, 'bhist', histfile, ['for i in 1 2; do echo agent-command-$i; done', 'echo agent-command-x; echo agent-command-y']);
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
