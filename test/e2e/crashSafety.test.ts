// Crash at any instant: background starts (terminal_run with waitMode background of `nohup sleep N
// &`, `setsid sleep N`, a double fork `(sleep N &)`, as an agent starts a server or a job), and the
// extension host SIGKILLed at a random instant 0-500 ms after one of the calls returned: before or
// after a poll saw the process, before or after its log line and the snapshot. After each kill the
// window is reloaded. Ground truth is the OS: every live process in /proc whose environment
// carries a managed terminal's mark (TERMINAL_SHEPHERD_SESSION) and that is one of our sleeps must
// be an orphan of the new window (lost: alive and not adopted). A process that died is not lost,
// but a start whose call answered must be accounted for by /proc at the crash instant (read just
// before the kill): alive after the restart; or, at the crash, a process of its terminal that was
// not yet safe from the terminal's hangup (a fork not yet `sleep`, `nohup` before it ignored
// SIGHUP, `setsid` before its new session), which the reload's hangup may end. A start with no
// process at all at the crash was answered before it was durable; one that was safe and is gone
// was killed: both fail. 20 starts by default, TS_CRASH_STARTS=100 for the full run;
// TS_CRASH_SEED=<n> replays.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { ListProcessesResult } from '../../common/src/protocol';
import { Random, newSeed } from '../soak/random';
import { procAlive, procEnvValue, procStatFields } from '../support/procStat';
import { alive, flatten, openShepherdWindow, suiteWindow, waitFor } from '../support/shepherdE2e';

const STARTS = Number(process.env.TS_CRASH_STARTS) || 20;
/** Our sleeps, told apart from anything else on the machine by their argument. */
const FIRST_ARG = 7100;
const SLEEP = /^sleep (7\d{3})$/;

/** The three ways a background start leaves the shell. */
const STARTERS = [
  (n: number) => `nohup sleep ${n} >/dev/null 2>&1 &`,
  (n: number) => `setsid sleep ${n} >/dev/null 2>&1 </dev/null &`,
  (n: number) => `(sleep ${n} >/dev/null 2>&1 &)`,
];

/** Ground truth: our live sleeps whose environment carries a managed terminal's mark, by argument. */
function markedSleeps(workspace: string): Map<number, number> {
  const found = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const m = SLEEP.exec(commandLine(pid) ?? '');
    if (m && procAlive(pid) && procEnvValue(pid, 'TERMINAL_SHEPHERD_SESSION') !== undefined && ranIn(pid, workspace)) found.set(Number(m[1]), pid);
  }
  return found;
}

/**
 * Started in this run's workspace (the terminals' folder): another run of this test on the machine
 * (a CI rehearsal in another clone) starts sleeps with the same arguments and marks.
 */
function ranIn(pid: number, workspace: string): boolean {
  try {
    return readlinkSync(`/proc/${pid}/cwd`) === realpathSync(workspace);
  } catch {
    return false;
  }
}

/** A process of a managed terminal at the crash instant, other than the terminal's shell. */
interface AtCrash {
  readonly terminal: string;
  readonly command: string;
  /** Our sleep itself, out of reach of its terminal's hangup: SIGHUP ignored (nohup), a session of its own (setsid), or no longer the shell's child (a subshell's). */
  readonly hangupSafe: boolean;
}

/** Every live process carrying a terminal mark, read from /proc at once (synchronously, just before the kill). */
function atCrashInstant(workspace: string): AtCrash[] {
  const out: AtCrash[] = [];
  const shells = new Set<number>();
  const rows: Array<{ pid: number; ppid: number; terminal: string; command: string; ownSession: boolean }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const terminal = procEnvValue(pid, 'TERMINAL_SHEPHERD_TERMINAL');
    const stat = terminal === undefined || !ranIn(pid, workspace) ? undefined : procStatFields(pid);
    if (!stat || stat[0] === 'Z') continue;
    const ownSession = Number(stat[3]) === pid;
    if (ownSession && stat[4] !== '0') {
      shells.add(pid); // a terminal's shell: leads its session and owns the terminal
      continue;
    }
    rows.push({ pid, ppid: Number(stat[1]), terminal: terminal!, command: commandLine(pid) ?? '', ownSession });
  }
  for (const { pid, ppid, terminal, command, ownSession } of rows) {
    const hangupSafe = SLEEP.test(command) && (ignoresHangup(pid) || ownSession || !shells.has(ppid));
    out.push({ terminal, command, hangupSafe });
  }
  return out;
}

function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').split('\0').join(' ');
  } catch {
    return undefined;
  }
}

/** SIGHUP (signal 1, the lowest bit) in the process's ignored set (/proc/PID/status SigIgn). */
function ignoresHangup(pid: number): boolean {
  try {
    const mask = /^SigIgn:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return mask !== undefined && (parseInt(mask.slice(-1), 16) & 1) === 1;
  } catch {
    return false;
  }
}

describe(`crash at any instant: the extension host SIGKILLed 0-500 ms after background starts returned (${STARTS} starts)`, function () {
  this.timeout(1_200_000);
  const seed = Number(process.env.TS_CRASH_SEED) || newSeed();
  const random = new Random(seed);
  const win = suiteWindow(
    () => openShepherdWindow({ label: 'crash-safety' }),
    () => {
      for (const pid of markedSleeps(win.workspace).values()) if (alive(pid)) process.kill(pid, 'SIGKILL');
    },
  );

  /** What the windows' logs say they adopted by the mark alone (no poll of their dead predecessor had seen them). */
  function knownOnlyByMark(): number {
    return win.vscode
      .extensionLogs()
      .flatMap((text) => [...text.matchAll(/\((\d+) known only by the terminal mark/g)].map((m) => Number(m[1])))
      .reduce((a, b) => a + b, 0);
  }

  it('every started process (marked, in /proc) is an orphan after the restart', async () => {
    // Said first, so a run that fails in any way (a call that times out too) can be replayed.
    console.log(`      seed ${seed} (TS_CRASH_SEED replays it)`);
    const bridgeFile = path.join(win.workspace, '.devtools', 'bridge.json');
    const rows: string[] = [];
    /** Answered starts by their sleep's argument: the terminal they ran in. */
    const answered = new Map<number, string>();
    let hangupDeaths = 0;
    let starts = 0;
    for (let round = 0; starts < STARTS; round++) {
      // A round: starts one after the other; the kill comes 0-500 ms after the call of a random one returned.
      const count = Math.min(STARTS - starts, random.int(1, 5));
      const killAfter = random.int(0, count - 1);
      const delayMs = random.int(0, 500);
      const host = win.vscode.driver.hello?.pid;
      assert.ok(host, 'the extension host pid');
      let killed = false;
      let kill: Promise<void> | undefined;
      let atCrash: AtCrash[] = [];
      let made = 0;
      for (; made < count && !killed; made++, starts++) {
        const n = FIRST_ARG + starts;
        const name = `r${round}-${made}`;
        const r = await win.call('terminal_run', { command: STARTERS[starts % STARTERS.length]!(n), name, waitMode: 'background' }).catch((error: Error) => error);
        // A call the kill cut short fails (the window is gone): never one before it.
        if (!killed) {
          assert.ok(!(r instanceof Error) && r.isError !== true, `start ${starts}: ${r instanceof Error ? r.message : JSON.stringify(r)}`);
          answered.set(n, name);
        }
        if (made === killAfter) {
          kill = new Promise<void>((resolve) =>
            setTimeout(() => {
              killed = true;
              atCrash = atCrashInstant(win.workspace);
              process.kill(host, 'SIGKILL');
              resolve();
            }, delayMs),
          );
        }
      }
      await kill;
      const oldWindow = JSON.parse(readFileSync(bridgeFile, 'utf8')).pid;
      await win.vscode.reloadWindow();
      await waitFor('the new window to advertise its bridge', 60_000, () => existsSync(bridgeFile) && JSON.parse(readFileSync(bridgeFile, 'utf8')).pid !== oldWindow);

      const marked = markedSleeps(win.workspace);
      const gone = [...answered].filter(([n]) => !marked.has(n));
      const seen = (terminal: string): AtCrash[] => atCrash.filter((p) => p.terminal === terminal);
      const neverStarted = gone.filter(([, terminal]) => seen(terminal).length === 0).map(([n]) => n);
      assert.deepEqual(neverStarted, [], `seed ${seed}, round ${round}: calls answered but no process of their terminal in /proc at the crash, none after: sleep ${neverStarted.join(', ')}`);
      const killedSafe = gone.filter(([, terminal]) => seen(terminal).some((p) => p.hangupSafe)).map(([n]) => n);
      assert.deepEqual(killedSafe, [], `seed ${seed}, round ${round}: safe from the hangup at the crash, gone after the restart: sleep ${killedSafe.join(', ')}`);
      for (const [n, terminal] of gone) {
        console.log(`      sleep ${n} died with its terminal: at the crash ${seen(terminal).map((p) => `\`${p.command}\``).join(', ')}`);
        answered.delete(n); // accounted for: not counted again in later rounds
      }
      hangupDeaths += gone.length;
      const listed = (await win.run('list_processes', {})) as unknown as ListProcessesResult;
      const orphans = new Set(flatten(listed.orphaned).map((p) => p.pid));
      const missing = [...marked].filter(([, pid]) => !orphans.has(pid)).map(([n, pid]) => `sleep ${n} (pid ${pid})`);
      rows.push(
        `round ${round}: ${made} start(s), killed ${delayMs} ms after start ${killAfter + 1} returned; marked in /proc ${marked.size} of ${starts}, ` +
          `orphans ${orphans.size} (${knownOnlyByMark()} so far found by the mark alone), missing ${missing.length}, died with their terminal so far ${hangupDeaths}`,
      );
      assert.deepEqual(missing, [], `seed ${seed}, round ${round}: marked, alive, and no orphan: ${missing.join(', ')}\n${rows.join('\n')}`);
    }
    console.log(`      seed ${seed} (TS_CRASH_SEED replays it)\n${rows.map((r) => `      ${r}`).join('\n')}`);
    const killed = (await win.run('kill_orphans', {})) as unknown as { killed: number[] };
    assert.ok(killed.killed.length > 0);
    assert.equal(markedSleeps(win.workspace).size, 0, 'kill_orphans ended every marked sleep');
  });
});
