/**
 * Run as its own process (by safetyBench.ts, on the Node the extension host runs on): loads the
 * grammars as activation does, then makes the first 200 decisions of a fresh process, the corpus
 * lines and the pathological ones among them, each in its own turn of the event loop, as tool
 * calls arrive. A 1 ms heartbeat measures the longest stall of the loop, and the same for a second
 * with no decision (on a loaded machine the OS alone stalls it); prints JSON.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildRules, EMPTY_RULES } from '../../extension/src/core/checks/commandSafety/autoApproveRules';
import { decideLine } from '../../extension/src/core/checks/commandSafety/decide';
import { ShellGrammars } from '../../extension/src/core/checks/commandSafety/shellGrammars';
import { HARDENING_CORPUS } from '../fixtures/safety/hardeningCorpus';
import { PACKAGE_GRAMMARS } from '../support/packageGrammars';
import { CORPUS } from '../unit/checks/commandSafety/corpus';
import { HOME, defaultSafetySettings } from '../unit/checks/commandSafety/fixtures';

const DECISIONS = 200;

async function main(): Promise<void> {
  const workspace = mkdtempSync(path.join(tmpdir(), 'safety-stall-'));
  let longestGap = 0;
  let last = performance.now();
  const heartbeat = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
  }, 1);
  try {
    writeFileSync(path.join(workspace, 'package.json'), JSON.stringify({ scripts: { build: 'tsc', test: 'mocha' } }));
    const grammars = await new ShellGrammars(PACKAGE_GRAMMARS).load();
    const loadStallMs = longestGap;
    // The same wait with no decision at all: what the machine's load alone costs the loop.
    longestGap = 0;
    last = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleStallMs = longestGap;
    const settings = defaultSafetySettings(workspace);
    const context = { grammars, settings, rules: buildRules({}, false), session: { rules: EMPTY_RULES, allowAll: false }, home: HOME };
    const pathological = [`echo ${'a'.repeat(1_000_000)}`, `${'('.repeat(10_000)}ls${')'.repeat(10_000)}`, `${'$('.repeat(99)}ls${')'.repeat(99)}`, `ls ${'&& ls '.repeat(1600)}`];
    const lines = [...pathological, ...[...CORPUS, ...HARDENING_CORPUS].map((e) => ({ line: e.line, pwsh: e.shell === 'pwsh' }))].slice(0, DECISIONS);
    longestGap = 0;
    last = performance.now();
    const times: number[] = [];
    // CPU time of the process while deciding (not counting the time the OS gives other processes).
    const cpuTimes: number[] = [];
    let worst = { ms: 0, line: '' };
    for (const entry of lines) {
      await new Promise((resolve) => setTimeout(resolve, 2)); // the next call arrives in a later turn
      const { line, pwsh } = typeof entry === 'string' ? { line: entry, pwsh: false } : entry;
      const input = { line: line.replaceAll('/ws', workspace), powershell: pwsh, cwd: workspace };
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await decideLine(input, context).catch(() => undefined);
      const took = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      cpuTimes.push((cpu.user + cpu.system) / 1000);
      times.push(took);
      if (took > worst.ms) worst = { ms: took, line: line.length > 60 ? `${line.slice(0, 57)}... (${line.length.toLocaleString('en-US')} chars)` : line };
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    const slowest = times.map((ms, i) => ({ ms, line: String(typeof lines[i] === 'string' ? lines[i] : (lines[i] as { line: string }).line).slice(0, 50) })).sort((a, b) => b.ms - a.ms).slice(0, 5);
    process.stdout.write(JSON.stringify({ node: process.version, decisions: times.length, loadStallMs, idleStallMs, longestStallMs: longestGap, times, cpuMaxMs: Math.max(...cpuTimes), worst, slowest }));
  } finally {
    clearInterval(heartbeat);
    rmSync(workspace, { recursive: true, force: true });
  }
}

void main();
