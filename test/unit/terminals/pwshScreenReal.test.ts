/**
 * The screen report of our PowerShell integration (`633;P;TshepScreen=row,col,cols,rows`,
 * shell/pwshCommon.ps1 __TshepScreen) from a REAL pwsh under a real pty: util-linux `script` gives
 * pwsh the pty, a headless xterm of that size plays the terminal and answers its cursor queries
 * (as VS Code's terminal does). Ground truth is that terminal's own cursor when it read the report.
 * Each command's raw stream then goes through a capture that knows nothing of the screen, as a
 * live run's does. Linux has no ConPTY: its blank lines are real line breaks, so this proves the
 * report (on Windows the console itself knows the cursor) and the rendering from it, not ConPTY's paint.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Terminal } from '@xterm/headless';
import { ensurePwsh, pwshAvailable, PWSH_MISSING } from '../../../.devtools/scripts/pwshInstall';
import { OutputCapture } from '../../../extension/src/core/output/outputCapture';
import type { ScreenReport } from '../../../extension/src/core/output/outputStart';
import { SCREEN_PROPERTY } from '../../../extension/src/core/output/shellMarkers';
import { PWSH_COMMON_VARIABLE } from '../../../extension/src/core/terminals/commandText';
import { vscodeCommandLines } from '../../../extension/src/core/terminals/strategies/vscodeStrategy';
import { describeWhere } from '../../support/skips';
import { SHELL_SCRIPTS } from './fakeTerminalHost';

const COLS = 70;
const ROWS = 12;
const hasScript = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;

/** What the terminal saw when a report reached it: the report and its own cursor then. */
interface Seen {
  readonly value: string;
  readonly cursor: { readonly row: number; readonly col: number };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describeWhere(pwshAvailable() && hasScript, hasScript ? PWSH_MISSING : 'util-linux `script` (Linux) is needed to give pwsh a pty')('the screen report of a real pwsh under a pty', function () {
  this.timeout(120_000); // pwsh starts in a second or two, several times that on a busy machine
  let child: ChildProcess | undefined;
  let home: string;
  let term: Terminal;
  let raw = '';
  const seen: Seen[] = [];

  before(async function () {
    const install = await ensurePwsh();
    if (!install.ok) return this.skip();
    home = mkdtempSync(path.join(os.tmpdir(), 'tshep-screen-'));
    const pwshScript = path.join(SHELL_SCRIPTS, 'pwsh.ps1');
    const inner = `stty rows ${ROWS} cols ${COLS}; exec '${install.pwsh}' -NoLogo -NoProfile -NoExit -Command '. "${pwshScript}"'`;
    const env = { ...install.env, PATH: process.env.PATH ?? '', HOME: home, TERM: 'xterm-256color', LANG: 'C.UTF-8', POWERSHELL_TELEMETRY_OPTOUT: '1', POWERSHELL_UPDATECHECK: 'Off', [PWSH_COMMON_VARIABLE]: path.join(SHELL_SCRIPTS, 'pwshCommon.ps1') };
    term = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true, logLevel: 'off' });
    const spawned = spawn('script', ['-qfec', inner, '/dev/null'], { cwd: home, env, stdio: ['pipe', 'pipe', 'inherit'] });
    child = spawned;
    term.onData((answer) => spawned.stdin.write(answer)); // the cursor-position answers pwsh asks for
    term.parser.registerOscHandler(633, (data) => {
      if (data.startsWith(`P;${SCREEN_PROPERTY}=`)) {
        seen.push({ value: data.slice(`P;${SCREEN_PROPERTY}=`.length), cursor: { row: term.buffer.active.cursorY, col: term.buffer.active.cursorX } });
      }
      return false;
    });
    spawned.stdout.setEncoding('utf8');
    spawned.stdout.on('data', (data: string) => {
      raw += data;
      term.write(data);
    });
    assert.ok(await until(() => raw.includes('\x1b]633;B'), 60_000), `no prompt from pwsh: ${JSON.stringify(raw.slice(-500))}`);
  });

  after(() => {
    child?.kill('SIGKILL');
    term?.dispose();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  async function until(test: () => boolean, ms: number): Promise<boolean> {
    for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) if (test()) return true;
    return test();
  }

  /** Types `line`, waits for the next prompt; the raw stream from the line's C (or its start) to that prompt's start. */
  async function run(line: string): Promise<{ stream: string; reports: Seen[] }> {
    const from = raw.length;
    const seenBefore = seen.length;
    child!.stdin!.write(`${line}\r`);
    assert.ok(await until(() => /\x1b\]633;A[^]*\x1b\]633;B/.test(raw.slice(from)), 30_000), `no prompt after ${line}: ${JSON.stringify(raw.slice(from))}`);
    await new Promise<void>((resolve) => term.write('', resolve));
    const all = raw.slice(from);
    const c = all.indexOf('\x1b]633;C');
    return { stream: all.slice(c < 0 ? 0 : c, all.indexOf('\x1b]633;A', c < 0 ? 0 : c)), reports: seen.slice(seenBefore) };
  }

  async function captured(stream: string): Promise<{ output: string; reports: ScreenReport[] }> {
    const reports: ScreenReport[] = [];
    const capture = new OutputCapture({ onScreen: (report) => reports.push(report) });
    capture.write(stream);
    await capture.close();
    return { output: capture.snapshot().output, reports };
  }

  it("carries the terminal's own cursor and size with C, from the first row down to a full screen's last", async () => {
    const rowsSeen: number[] = [];
    for (let i = 0; i < 6; i++) {
      const { stream, reports } = await run(`__TshepC; 1..2 | % { "line $_" }`);
      assert.equal(reports.length, 1, JSON.stringify(stream));
      const [report] = reports;
      assert.equal(report!.value, `${report!.cursor.row},${report!.cursor.col},${COLS},${ROWS}`);
      rowsSeen.push(report!.cursor.row);
      assert.deepEqual(await captured(stream), { output: 'line 1\nline 2', reports: [{ row: report!.cursor.row, col: 0, cols: COLS, rows: ROWS }] });
    }
    // Each command takes 3 rows (output and prompt): the screen fills, then the prompt stays on the last row.
    assert.equal(rowsSeen[0]! < ROWS - 1, true, `first report at row ${rowsSeen[0]}`);
    assert.equal(rowsSeen[rowsSeen.length - 1], ROWS - 1, `rows ${rowsSeen.join(',')}`);
  });

  it('output painted at absolute rows (as ConPTY paints) reads as the screen showed it, at any row the command starts on', async () => {
    // The command jumps two rows below where it started, by the screen's own row numbers; on the
    // last row the jump stops there, right under the line it scrolled up.
    const jump = `$y = $Host.UI.RawUI.CursorPosition.Y; 'a'; Write-Host -NoNewline "$([char]27)[$($y + 3);1H"; 'b'`;
    await run('__TshepC; Clear-Host');
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { stream, reports } = await run(`__TshepC; ${jump}`);
      const row = reports[0]!.cursor.row;
      starts.push(row);
      const buffer = term.buffer.active;
      const shown = (r: number): string | undefined => buffer.getLine(buffer.baseY + r)?.translateToString(true);
      const atBottom = row === ROWS - 1;
      const expected = atBottom ? 'a\nb' : 'a\n\nb';
      // What the terminal shows (before the next prompt scrolled it): b under a, with a blank row or not.
      const bRow = atBottom ? ROWS - 1 - (buffer.cursorY === ROWS - 1 ? 1 : 0) : row + 2;
      assert.equal(shown(bRow), 'b', `b on the screen, from row ${row}`);
      assert.equal((await captured(stream)).output, expected, `from row ${row}`);
    }
    assert.equal(starts[starts.length - 1], ROWS - 1, `started on rows ${starts.join(',')}`);
  });

  it("VS Code's integration path: the command file reports the screen before the command runs", async () => {
    const file = path.join(home, 'c-screen.ps1');
    writeFileSync(file, vscodeCommandLines.fileText!('pwsh', "'from the file'; ''; 'after a blank line'"));
    const { stream, reports } = await run(`. '${file}'`);
    assert.equal(reports.length, 1, JSON.stringify(stream));
    const [report] = reports;
    assert.equal(report!.value, `${report!.cursor.row},${report!.cursor.col},${COLS},${ROWS}`);
    assert.equal(report!.cursor.col, 0);
    assert.equal((await captured(stream)).output, 'from the file\n\nafter a blank line');
  });

  it('after Clear-Host the next report is from the top', async () => {
    await run('__TshepC; Clear-Host');
    const { reports } = await run('__TshepC; 1');
    assert.equal(reports[0]!.value, `1,0,${COLS},${ROWS}`);
    assert.deepEqual(reports[0]!.cursor, { row: 1, col: 0 });
  });
});
