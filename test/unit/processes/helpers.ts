/**
 * Test helpers for the process layer: spawn real processes and always clean them up, wait for
 * conditions instead of sleeping fixed times, read fixtures.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { procStartTicks } from '../../support/procStat';
import assert from 'node:assert/strict';
import type { TreeKillResult } from '../../../extension/src/core/processes/types';

export const fixturesDir = path.resolve(__dirname, '../../fixtures/processes');

export function fixture(name: string): string {
  return readFileSync(path.join(fixturesDir, name), 'utf8');
}

export function fixtureJson(name: string): unknown {
  return JSON.parse(fixture(name));
}

/** Polls `check` until it returns a value other than undefined/false, or throws after timeoutMs. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 5000, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) {
        return value as T;
      }
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Spawns processes for a test and kills what is left in `cleanup()` (after hooks): the process
 * group of detached children, and every extra pid registered with `track` if it is still the
 * same process (start time from /proc, so a reused pid is never hit).
 */
export class ProcessJanitor {
  private readonly children: Array<{ child: ChildProcess; group: boolean }> = [];
  private readonly extra = new Map<number, string | undefined>();

  spawn(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
    const child = spawn(command, args, { stdio: 'ignore', ...options });
    child.on('error', () => undefined);
    this.children.push({ child, group: options.detached === true });
    return child;
  }

  track(pid: number): void {
    this.extra.set(pid, procStartTicks(pid));
  }

  cleanup(): void {
    for (const [pid, ticks] of this.extra) {
      if (ticks !== undefined && procStartTicks(pid) === ticks) {
        trySignal(pid, 'SIGKILL');
      }
    }
    this.extra.clear();
    for (const { child, group } of this.children.splice(0)) {
      if (child.pid === undefined) {
        continue;
      }
      if (group) {
        trySignal(-child.pid, 'SIGKILL'); // the whole group, including members that escaped the tree
      }
      if (child.exitCode === null && child.signalCode === null) {
        trySignal(child.pid, 'SIGKILL');
      }
    }
  }
}

function trySignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}


/** A kill's outcome by pid, after checking that its targets name (with identities) every pid it reports. */
export function killOutcome(result: TreeKillResult): { killed: number[]; failed: number[] } {
  const targets = new Map(result.targets.map((p) => [p.pid, p]));
  for (const pid of [...result.killed, ...result.failed]) {
    assert.ok(targets.get(pid)?.startTime, `pid ${pid} is reported, but not among the kill's targets with its identity`);
  }
  return { killed: result.killed, failed: result.failed };
}
