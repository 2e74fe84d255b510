// Crash at any instant: background starts (terminal_run with waitMode background of `nohup sleep N
// &`, `setsid sleep N`, a double fork `(sleep N &)`, as an agent starts a server or a job), and the
// extension host SIGKILLed at a random instant 0-500 ms after one of the calls returned: before or
// after a poll saw the process, before or after its log line and the snapshot. After each kill the
// window is reloaded. Ground truth is the OS: every live process in /proc whose environment
// carries a managed terminal's mark (TERMINAL_SHEPHERD_SESSION) and that is one of our sleeps must
// be an orphan of the new window, and every start whose call answered must have such a process.
// 20 starts by default, TS_CRASH_STARTS=100 for the full run; TS_CRASH_SEED=<n> replays.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ListProcessesResult } from '../../common/src/protocol';
import { Random, newSeed } from '../soak/random';
import { procAlive, procEnvValue } from '../support/procStat';
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
function markedSleeps(): Map<number, number> {
  const found = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').split('\0').join(' ');
    } catch {
      continue;
    }
    const m = SLEEP.exec(cmd);
    if (m && procAlive(pid) && procEnvValue(pid, 'TERMINAL_SHEPHERD_SESSION') !== undefined) found.set(Number(m[1]), pid);
  }
  return found;
}

describe(`crash at any instant: the extension host SIGKILLed 0-500 ms after background starts returned (${STARTS} starts)`, function () {
  this.timeout(1_200_000);
  const seed = Number(process.env.TS_CRASH_SEED) || newSeed();
  const random = new Random(seed);
  const win = suiteWindow(
    () => openShepherdWindow({ label: 'crash-safety' }),
    () => {
      for (const pid of markedSleeps().values()) if (alive(pid)) process.kill(pid, 'SIGKILL');
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
    const answered: number[] = [];
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
      let made = 0;
      for (; made < count && !killed; made++, starts++) {
        const n = FIRST_ARG + starts;
        const r = await win.call('terminal_run', { command: STARTERS[starts % STARTERS.length]!(n), name: `r${round}-${made}`, waitMode: 'background' }).catch((error: Error) => error);
        // A call the kill cut short fails (the window is gone): never one before it.
        if (!killed) {
          assert.ok(!(r instanceof Error) && r.isError !== true, `start ${starts}: ${r instanceof Error ? r.message : JSON.stringify(r)}`);
          answered.push(n);
        }
        if (made === killAfter) {
          kill = new Promise<void>((resolve) =>
            setTimeout(() => {
              killed = true;
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

      const marked = markedSleeps();
      const unmarked = answered.filter((n) => !marked.has(n));
      assert.deepEqual(unmarked, [], `seed ${seed}, round ${round}: calls answered but no marked process in /proc for sleep ${unmarked.join(', ')}`);
      const listed = (await win.run('list_processes', {})) as unknown as ListProcessesResult;
      const orphans = new Set(flatten(listed.orphaned).map((p) => p.pid));
      const missing = [...marked].filter(([, pid]) => !orphans.has(pid)).map(([n, pid]) => `sleep ${n} (pid ${pid})`);
      rows.push(
        `round ${round}: ${made} start(s), killed ${delayMs} ms after start ${killAfter + 1} returned; marked in /proc ${marked.size} of ${starts}, ` +
          `orphans ${orphans.size} (${knownOnlyByMark()} so far found by the mark alone), missing ${missing.length}`,
      );
      assert.deepEqual(missing, [], `seed ${seed}, round ${round}: marked, alive, and no orphan: ${missing.join(', ')}\n${rows.join('\n')}`);
    }
    console.log(`      seed ${seed} (TS_CRASH_SEED replays it)\n${rows.map((r) => `      ${r}`).join('\n')}`);
    const killed = (await win.run('kill_orphans', {})) as unknown as { killed: number[] };
    assert.ok(killed.killed.length > 0);
    assert.equal(markedSleeps().size, 0, 'kill_orphans ended every marked sleep');
  });
});
