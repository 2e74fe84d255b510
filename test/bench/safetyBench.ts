/**
 * The per-command safety check: what a decision costs once the grammars are loaded (every line of
 * the unit and hardening corpora, in process, VS Code's default rules) and its slowest line, what
 * loading the grammars costs (the extension host's loop is safetyHostBench.ts), and the
 * questions a scripted 20-command agent session costs through terminal_run next to VS Code's own
 * run_in_terminal, both under VS Code's default rules in the same window, through VS Code's chat
 * (the scripted model of test/support/scriptedChat): every confirmation VS Code shows and every
 * question of ours is answered and counted.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureVsCode } from '../../.devtools/scripts/vscodeInstall';
import { buildRules, EMPTY_RULES } from '../../extension/src/core/checks/commandSafety/autoApproveRules';
import { decideLine } from '../../extension/src/core/checks/commandSafety/decide';
import { inProcessParser } from '../../extension/src/core/checks/commandSafety/lineParser';
import { ShellGrammars } from '../../extension/src/core/checks/commandSafety/shellGrammars';
import { ChatSession, scriptedChatLaunch, type Confirmation } from '../support/chatSession';
import { repoRoot } from '../support/mcpClient';
import { E2E_SETTINGS, makeWorkspace } from '../support/shepherdE2e';
import { TempDirs } from '../support/tempDirs';
import { launchVsCode, type VsCode } from '../support/vscodeHarness';
import { PACKAGE_GRAMMARS } from '../support/packageGrammars';
import { HARDENING_CORPUS } from '../fixtures/safety/hardeningCorpus';
import { CORPUS } from '../unit/checks/commandSafety/corpus';
import { HOME, defaultSafetySettings } from '../unit/checks/commandSafety/fixtures';
import { summarize, type Stats } from './stats';

export interface SafetyLocalResult {
  readonly lines: number;
  readonly decision: Stats;
  readonly decisionLong: Stats;
  readonly firstLoadMs: number;
  readonly reload: Stats;
  /** The slowest warm decision and its line. */
  readonly worst: { readonly ms: number; readonly line: string };
}

export async function runSafetyLocalBench(rounds = 20): Promise<SafetyLocalResult> {
  const dirs = new TempDirs();
  try {
    const first = await new ShellGrammars(PACKAGE_GRAMMARS).load();
    const reloads: number[] = [];
    for (let i = 0; i < 10; i++) reloads.push((await new ShellGrammars(PACKAGE_GRAMMARS).load()).loadMs);
    const workspace = dirs.make('safety-bench-');
    writeFileSync(path.join(workspace, 'package.json'), JSON.stringify({ scripts: { build: 'tsc', test: 'mocha' } }));
    const settings = defaultSafetySettings(workspace);
    const rules = buildRules({}, false);
    const context = { parser: inProcessParser(first), settings, rules, session: { rules: EMPTY_RULES, allowAll: false }, home: HOME };
    const lines = CORPUS.filter((e) => e.line.length <= 1000);
    const long = CORPUS.filter((e) => e.line.length > 1000);
    const times: number[] = [];
    const longTimes: number[] = [];
    let worst = { ms: 0, line: '' };
    const all = [...lines, ...long, ...HARDENING_CORPUS];
    for (let round = 0; round < rounds + 2; round++) {
      for (const entry of all) {
        const t0 = performance.now();
        await decideLine({ line: entry.line.replaceAll('/ws', workspace), powershell: entry.shell === 'pwsh', cwd: workspace }, context);
        const ms = performance.now() - t0;
        if (round < 2) continue; // two warm-up rounds (JIT)
        (entry.line.length > 1000 ? longTimes : times).push(ms);
        if (ms > worst.ms) worst = { ms, line: entry.line.length > 60 ? `${entry.line.slice(0, 57)}... (${entry.line.length.toLocaleString('en-US')} chars)` : entry.line };
      }
    }
    return { lines: all.length, decision: summarize(times), decisionLong: summarize(longTimes), firstLoadMs: first.loadMs, reload: summarize(reloads), worst };
  } finally {
    dirs.cleanup();
  }
}

/** The scripted agent session: builds, tests, git reads, a dev server, file reads, one dangerous line. */
export const AGENT_SESSION: readonly { readonly command: string; readonly background?: boolean }[] = [
  { command: 'git status' }, { command: 'git log --oneline -5' }, { command: 'git diff --stat' }, { command: 'ls -la' }, { command: 'cat package.json' },
  { command: 'npm run build' }, { command: 'npm test' }, { command: 'npm ls --depth=0' }, { command: 'grep -rn TODO src' }, { command: 'find src -name "*.js"' },
  { command: 'wc -l src/*.js' }, { command: 'npm run lint' }, { command: 'head -5 README.md' }, { command: 'mkdir -p build' }, { command: 'node --version' },
  { command: 'npm run dev', background: true }, { command: 'tail -3 README.md' }, { command: 'git show --stat HEAD' }, { command: 'rm -rf build' }, { command: 'echo done' },
];

export interface QuestionCount {
  /** VS Code's confirmations, by button clicked. */
  readonly confirmations: number;
  /** Terminal Shepherd's own questions (MCP elicitation in the chat), from the results' safety decisions. */
  readonly elicitations: number;
  readonly calls: number;
  readonly buttons: string[];
  /** The commands that were asked about (by VS Code or by us). */
  readonly asked: string[];
}

export interface SafetyChatResult {
  readonly terminalRun: QuestionCount;
  readonly runInTerminal: QuestionCount;
  /** How run_in_terminal's auto-approval was enabled (its one-time opt-in), or why not. */
  readonly optIn: string;
}

export async function runSafetyChatBench(): Promise<SafetyChatResult> {
  await ensureVsCode();
  const workspace = makeWorkspace();
  mkdirSync(path.join(workspace, 'src'));
  writeFileSync(path.join(workspace, 'src', 'app.js'), '// TODO: more\nconsole.log("app");\n');
  const server = "node -e \"require('http').createServer((q, s) => s.end('ok')).listen(0)\"";
  writeFileSync(path.join(workspace, 'package.json'), JSON.stringify({ name: 'bench', version: '1.0.0', scripts: { build: 'echo built', test: 'echo tested', lint: 'echo linted', dev: server } }, null, 2));
  const vsc = await launchVsCode({
    workspace,
    settings: { ...E2E_SETTINGS, 'terminalShepherd.safety.perCommandCheck': true, 'terminalShepherd.terminal.revealOnCreate': false },
    label: 'bench-safety',
    ...scriptedChatLaunch([repoRoot]),
  });
  try {
    const chat = new ChatSession(vsc);
    await chat.ready();
    const optIn = await enableRunInTerminalAutoApprove(vsc, chat);
    const terminalRun = await playSession(chat, 'terminal_run');
    const runInTerminal = await playSession(chat, 'run_in_terminal');
    return { terminalRun, runInTerminal, optIn };
  } finally {
    await vsc.stop();
  }
}

/** One session of the 20 commands through one tool, answering every question with "run" (VS Code's primary button, our "Run Once"). */
async function playSession(chat: ChatSession, tool: 'terminal_run' | 'run_in_terminal'): Promise<QuestionCount> {
  const input = (c: (typeof AGENT_SESSION)[number]): Record<string, unknown> =>
    tool === 'terminal_run'
      ? { command: c.command, name: c.background ? 'dev' : 'bench', ...(c.background ? { waitMode: 'background' } : {}) }
      : { command: c.command, explanation: 'Benchmark', goal: 'Benchmark', mode: c.background ? 'async' : 'sync' };
  let ended = false;
  const answering = (async () => {
    while (!ended) {
      await chat.answerElicitation('Run Once', { timeoutMs: 500 }).catch(() => undefined); // none showing right now
    }
  })();
  try {
    const played = await chat.play(`Work on the project with ${tool}.`, [...AGENT_SESSION.map((c) => ({ calls: [{ tool, input: input(c) }] })), { text: 'Done.' }], { timeoutMs: 600_000 });
    const calls = played.calls.filter((c) => (tool === 'terminal_run' ? c.tool.endsWith('_terminal_run') : c.tool === tool));
    if (calls.length !== AGENT_SESSION.length) throw new Error(`${calls.length} ${tool} calls made, ${AGENT_SESSION.length} scripted`);
    const failed = calls.filter((c) => c.error !== undefined || /^[A-Z][a-zA-Z]+: /.test(c.text ?? ''));
    if (failed.length > 0) throw new Error(`${tool} calls failed: ${failed.map((c) => `${String(c.input.command)}: ${(c.error ?? c.text ?? '').slice(0, 120)}`).join('; ')}`);
    const confirmations: Confirmation[] = played.confirmations;
    const ours = calls.filter((c) => /"decision":"asked"/.test(c.text ?? ''));
    const answer = (text: string | undefined): string => /"answer":"([^"]+)"/.exec(text ?? '')?.[1] ?? '';
    const asked = calls
      .filter((c) => ours.includes(c) || (tool === 'run_in_terminal' && c.confirmations.length > 0))
      .map((c) => `${String(c.input.command)}${ours.includes(c) ? ` (${answer(c.text)})` : ''}`);
    return { confirmations: confirmations.length, elicitations: ours.length, calls: calls.length, buttons: [...new Set(confirmations.flatMap((c) => (c.clicked ? [c.clicked] : [])))], asked };
  } finally {
    ended = true;
    await answering;
  }
}

/**
 * run_in_terminal approves by its rules only once the user accepted its one-time warning
 * ("Enable Auto Approve..." in its confirmation's menu, then "Enable"): done here on a first `ls`,
 * so both tools run under the same rules. Returns how it went.
 */
async function enableRunInTerminalAutoApprove(vsc: VsCode, chat: ChatSession): Promise<string> {
  const page = vsc.page;
  let enabled = false;
  const played = chat.play('List the files.', [{ calls: [{ tool: 'run_in_terminal', input: { command: 'ls', explanation: 'List', goal: 'List', mode: 'sync' } }] }, { text: 'Done.' }], {
    timeoutMs: 120_000,
    policy: () => undefined,
  });
  const widget = page.locator('.chat-confirmation-widget-container').last();
  const enabling = (async () => {
    await widget.waitFor({ state: 'visible', timeout: 60_000 });
    await widget.locator('.chat-confirmation-widget-buttons .monaco-dropdown-button').first().click({ timeout: 10_000 });
    // The menu's only entry (VS Code's menus take the keyboard; a click on the item is not stable in the web workbench).
    await page.waitForTimeout(500);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.locator('.monaco-dialog-box .monaco-button', { hasText: /^\s*Enable\s*$/ }).click({ timeout: 10_000 });
    enabled = true;
  })().catch(async (error: unknown) => {
    // Could not find the opt-in: the figures say so; the call is allowed so the session ends.
    await vsc.screenshot(path.join(repoRoot, 'test-results', 'bench-safety-opt-in.png')).catch(() => undefined);
    await page.keyboard.press('Escape').catch(() => undefined);
    await widget.locator('.chat-confirmation-widget-buttons .monaco-button').first().click({ timeout: 10_000 }).catch(() => undefined);
    return String(error).split('\n')[0];
  });
  const failure = await enabling;
  await played;
  return enabled ? 'accepted on a first `ls` (one confirmation and its warning dialog, not counted below)' : `not given (${failure}); every run_in_terminal call asks`;
}
