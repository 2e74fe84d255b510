/**
 * The one owner of a run's result: its message is composed from notes, never overwritten, so a
 * port conflict's explanation keeps the caveats beside it (the output that could not be saved,
 * the end reported early).
 */
import assert from 'node:assert/strict';
import { silentLogger } from '../../../common/src/logger';
import type { PortConflict } from '../../../common/src/protocol';
import { Emitter } from '../../../extension/src/core/events';
import { CommandRun, type RunEnvironment } from '../../../extension/src/core/run/commandRun';
import type { RunOutput, RunOutputSnapshot } from '../../../extension/src/core/output/runOutput';
import { endedEarlyMessage, unsavedOutputNote } from '../../../extension/src/core/service/runMessages';
import { runResult } from '../../../extension/src/core/service/runResult';
import { portConflictMessage } from '../../../extension/src/core/servers/serverReport';

/** An output whose snapshot the test sets: truncated, with the log file failed. */
class FixedOutput implements RunOutput {
  private readonly writes = new Emitter<void>();
  readonly onDidWrite = this.writes.event;
  readonly totalChars = 0;
  constructor(private readonly fixed: RunOutputSnapshot) {}
  write(): boolean {
    return true;
  }
  flush(): Promise<void> {
    return Promise.resolve();
  }
  snapshot(): RunOutputSnapshot {
    return this.fixed;
  }
  lastLines(): string[] {
    return [];
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

const conflict: PortConflict = { port: 3000, holders: [{ pid: 77, name: 'python3', commandLine: 'python3 -m http.server 3000', owner: 'foreign' }] };

type Activity = Awaited<ReturnType<RunEnvironment['probeShell']>>;

/** A run whose shell the OS reports as `activity()` says. */
function makeRun(snapshot: RunOutputSnapshot, activity: () => Activity): CommandRun {
  return new CommandRun(
    'node server.js',
    'api',
    4242,
    'vscode',
    new FixedOutput(snapshot),
    {
      completion: { graceMs: 100, settleMs: 1, probeIntervalMs: 10 },
      input: { strongSilenceMs: 60_000, readingSilenceMs: 60_000, emptyReadingSilenceMs: 60_000, shellReadingSilenceMs: 60_000, weakSilenceMs: 60_000, replSilenceMs: 60_000 },
      drainTimeoutMs: 50,
    },
    { now: () => performance.now(), probeShell: () => Promise.resolve(activity()), logger: silentLogger },
  );
}

const idle = (): Activity => ({ foreground: 'shell', readingTerminal: false });
const busy = (): Activity => ({ foreground: 'job', readingTerminal: false });

describe('a run result composed from notes', () => {
  const truncated: RunOutputSnapshot = { output: 'Error: listen EADDRINUSE :::3000\n[... omitted ...]\nexit', truncated: true, outputFileError: 'ENOSPC: no space left on device' };

  it('keeps the unsaved-output note beside the port conflict it explains', async () => {
    const run = makeRun(truncated, idle);
    run.executionStarted('own');
    run.executionEnded('own', 1);
    assert.equal(await run.wait({ timeoutMs: 2000 }), 'completed');
    const result = await runResult(run, 'completed', { portConflict: conflict });
    assert.equal(result.portConflict, conflict);
    assert.equal(result.exitCode, 1);
    assert.equal(result.message, `${portConflictMessage(conflict)} ${unsavedOutputNote('ENOSPC: no space left on device')}`);
    run.dispose();
  });

  it('keeps the ended-early explanation beside it too', async () => {
    // An end while the OS says a job still holds the terminal for the whole grace: ended early, no exit code.
    let activity = busy;
    const run = makeRun({ output: 'Error: listen EADDRINUSE :::3000', truncated: false }, () => activity());
    run.executionStarted('own');
    run.executionEnded('own', 1);
    assert.equal(await run.wait({ timeoutMs: 300, stopAtInput: false }), 'timeout');
    activity = idle;
    assert.equal(await run.wait({ timeoutMs: 2000 }), 'completed');
    assert.deepEqual(run.state, { kind: 'completed', exitCode: undefined, endedEarly: true });
    const result = await runResult(run, 'completed', { portConflict: conflict });
    assert.equal(result.message, `${portConflictMessage(conflict)} ${endedEarlyMessage('api')}`);
    run.dispose();
  });
});
