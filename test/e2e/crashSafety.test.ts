// Crash at any instant: during 100 background starts (terminal_run of `nohup sleep N &`, as an
// agent starts a server or a job) the extension host is SIGKILLed at random points: right after a
// start, before or after its process was logged, before or after the snapshot
// (active-processes.json, written up to a second later). After each kill the window is reloaded:
// every process whose `started` event reached process-log.jsonl and that is still alive (checked in
// /proc: same pid, same start time) must be an orphan of the new window. TS_CRASH_SEED=<n> replays.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ListProcessesResult } from '../../common/src/protocol';
import { Random, newSeed } from '../soak/random';
import { procStartTicks } from '../support/procStat';
import { alive, flatten, ledgerEvents, openShepherdWindow, suiteWindow, waitFor } from '../support/shepherdE2e';

const STARTS = 100;
/** Our sleeps, told apart from anything else on the machine by their argument. */
const FIRST_ARG = 7100;

describe('crash at any instant: the extension host SIGKILLed at random points during 100 background starts', function () {
  this.timeout(1_200_000);
  const seed = Number(process.env.TS_CRASH_SEED) || newSeed();
  const random = new Random(seed);
  const sleeps = new Set<number>();
  const win = suiteWindow(
    () => openShepherdWindow({ label: 'crash-safety' }),
    () => {
      for (const pid of sleeps) if (alive(pid)) process.kill(pid, 'SIGKILL');
    },
  );

  /** What the windows' logs say they adopted from process-log.jsonl alone (their dead predecessor had not written its snapshot). */
  function knownOnlyFromLog(): number {
    return win.vscode
      .extensionLogs()
      .flatMap((text) => [...text.matchAll(/\((\d+) known only from process-log\.jsonl/g)].map((m) => Number(m[1])))
      .reduce((a, b) => a + b, 0);
  }

  it('every process whose start reached the log is an orphan after the restart', async () => {
    // Said first, so a run that fails in any way (a call that times out too) can be replayed.
    console.log(`      seed ${seed} (TS_CRASH_SEED replays it)`);
    const bridgeFile = path.join(win.workspace, '.devtools', 'bridge.json');
    const rows: string[] = [];
    let starts = 0;
    for (let round = 0; starts < STARTS; round++) {
      // A round: starts one after the other, and the kill at a random moment among them (half the
      // time within 250 ms of the round's start, so before or around a first snapshot).
      const count = Math.min(STARTS - starts, random.int(1, 20));
      const delayMs = random.chance(0.5) ? random.int(0, 250) : random.int(0, 3000);
      const host = win.vscode.driver.hello?.pid;
      assert.ok(host, 'the extension host pid');
      let killed = false;
      const kill = new Promise<void>((resolve) =>
        setTimeout(() => {
          killed = true;
          process.kill(host, 'SIGKILL');
          resolve();
        }, delayMs),
      );
      let made = 0;
      for (; made < count && !killed; made++, starts++) {
        const r = await win.call('terminal_run', { command: `nohup sleep ${FIRST_ARG + starts} >/dev/null 2>&1 &`, name: `r${round}-${made % 3}` }).catch((error: Error) => error);
        // A call the kill cut short fails (the window is gone): never one before it.
        if (!killed) assert.ok(!(r instanceof Error) && r.isError !== true, `start ${starts}: ${r instanceof Error ? r.message : JSON.stringify(r)}`);
      }
      await kill;
      const oldWindow = JSON.parse(readFileSync(bridgeFile, 'utf8')).pid;
      await win.vscode.reloadWindow();
      await waitFor('the new window to advertise its bridge', 60_000, () => existsSync(bridgeFile) && JSON.parse(readFileSync(bridgeFile, 'utf8')).pid !== oldWindow);

      // Ground truth: the log's starts of our sleeps whose process lives on with the same identity.
      const logged = ledgerEvents(win.workspace).filter((e) => (e.event === 'started' || e.event === 'spawned') && /^sleep 7\d{3}$/.test((e as { cmd?: string }).cmd ?? ''));
      const living = new Map<number, string>();
      for (const e of logged) {
        sleeps.add(e.pid);
        const ticks = (e as unknown as { startTime: string }).startTime.split('@')[0];
        if (procStartTicks(e.pid) === ticks) living.set(e.pid, ticks!);
      }
      const listed = (await win.run('list_processes', {})) as unknown as ListProcessesResult;
      const orphans = new Set(flatten(listed.orphaned).map((p) => p.pid));
      const missing = [...living.keys()].filter((pid) => !orphans.has(pid));
      rows.push(
        `round ${round}: ${made} start(s), killed ${delayMs} ms into them; logged so far ${new Set(logged.map((e) => e.pid)).size} of ${starts}, ` +
          `alive ${living.size}, orphans ${orphans.size} (${knownOnlyFromLog()} so far found from the log alone: the snapshot had not seen them), missing ${missing.length}`,
      );
      assert.deepEqual(missing, [], `seed ${seed}, round ${round}: logged, alive, and no orphan: ${missing.join(', ')}\n${rows.join('\n')}`);
    }
    console.log(`      seed ${seed} (TS_CRASH_SEED replays it)\n${rows.map((r) => `      ${r}`).join('\n')}`);
    const killed = (await win.run('kill_orphans', {})) as unknown as { killed: number[] };
    assert.ok(killed.killed.length > 0);
  });
});
