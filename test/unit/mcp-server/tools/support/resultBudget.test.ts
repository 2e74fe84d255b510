import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TerminalRunResult } from '../../../../../common/src/protocol';
import { OutputCapture } from '../../../../../extension/src/core/output/outputCapture';
import { knownResultBudget } from '../../../../../mcp-server/src/bridge/clientResultBudgets';
import { fitRunResult } from '../../../../../mcp-server/src/tools/support/resultBudget';

/** What an output costs in a result: its bytes in the text, and again in the structured content's JSON. */
const costOf = (output: string): number => Buffer.byteLength(output, 'utf8') + Buffer.byteLength(JSON.stringify(output), 'utf8') - 2;
const MARKER = /\n\[\.\.\. ([\d,]+) characters \(([\d,]+) lines\) omitted; full output in (\S+) \.\.\.\]\n/;

/** VS Code's agent host's budget: its outputs are cut at 2,000 characters by the window. */
const AGENT_HOST = knownResultBudget({ name: 'copilot-cli', version: '1.0.85' }, { AI_AGENT: 'github_copilot_vscode_agent' })!;

describe('fitRunResult: a cut output cut further, in bytes (resultBudget.ts)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'tshep-budget-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The window's own cut of `lines` at `limitChars` (the agent host's when absent), as a run result. */
  async function cutRun(lines: readonly string[], limitChars = AGENT_HOST.outputLimitChars): Promise<{ result: TerminalRunResult; whole: string }> {
    const capture = new OutputCapture({ logFilePath: () => path.join(dir, 'run.log'), limitChars });
    capture.write(lines.map((l) => `${l}\r\n`).join(''));
    await capture.flush();
    const { output, truncated } = capture.snapshot();
    await capture.close();
    return { result: { status: 'completed', output, exitCode: 0, name: 'build', command: 'make', durationMs: 5, strategy: 'shepherd', truncated }, whole: lines.join('\n') };
  }

  it('takes the bytes asked from the end of the head and the start of the tail, at line breaks, and the marker counts what is left out', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `${i + 1} ─── 構建 ───`);
    const { result, whole } = await cutRun(lines);
    assert.equal(result.truncated, true);
    const fitted = fitRunResult(result, 1500, AGENT_HOST);
    assert.ok(costOf(result.output) - costOf(fitted.output) >= 1500, `${costOf(result.output) - costOf(fitted.output)} bytes taken`);
    const marker = MARKER.exec(fitted.output);
    assert.ok(marker, fitted.output);
    assert.equal(marker[3], path.join(dir, 'run.log'), 'the marker still names the file');
    const head = fitted.output.slice(0, marker.index);
    const tail = fitted.output.slice(marker.index + marker[0].length);
    assert.ok(whole.startsWith(`${head}\n`), 'the head is whole lines from the start');
    assert.ok(whole.endsWith(`\n${tail}`), 'the tail is whole lines to the end');
    assert.ok(tail.endsWith('3000 ─── 構建 ───'));
    const shownLines = head.split('\n').length + tail.split('\n').length;
    assert.equal(Number(marker[2]!.replace(/,/g, '')), 3000 - shownLines, 'lines left out');
    assert.equal(Number(marker[1]!.replace(/,/g, '')), whole.length - head.length - tail.length - 2, 'characters left out (the breaks around them shown)');
  });

  it('leaves an output the window did not cut, one cut at a larger limit the person set, and a result within the budget', async () => {
    const short = await cutRun(['構建'.repeat(500)]);
    assert.equal(short.result.truncated, false);
    assert.equal(fitRunResult(short.result, 1000, AGENT_HOST), short.result);
    const set = await cutRun(Array.from({ length: 3000 }, (_, i) => `${i} 構建`), 6000);
    assert.equal(set.result.truncated, true);
    assert.equal(fitRunResult(set.result, 1000, AGENT_HOST), set.result);
    const copilotCli = knownResultBudget({ name: 'copilot-cli', version: '1.0.102' }, {})!;
    assert.notEqual(fitRunResult(set.result, 1000, copilotCli), set.result, "within the Copilot CLI's own limit: cut further for it");
    const fits = await cutRun(Array.from({ length: 3000 }, (_, i) => `${i}`));
    assert.equal(fitRunResult(fits.result, 0, AGENT_HOST), fits.result);
  });

  it('never splits a character made of two UTF-16 units', async () => {
    const { result } = await cutRun(['😀'.repeat(3000)]);
    const fitted = fitRunResult(result, 2001, AGENT_HOST);
    assert.doesNotMatch(fitted.output, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    const marker = MARKER.exec(fitted.output)!;
    const shown = fitted.output.length - marker[0].length;
    assert.equal(Number(marker[1]!.replace(/,/g, '')) + shown, 6000);
  });
});
