/**
 * Ground truth about a process from Linux's /proc, for tests that check what the OS says rather
 * than what the product reports. Every reader answers undefined (or false) once the process is gone.
 */
import { readFileSync } from 'node:fs';

/** The fields of /proc/PID/stat after the command name: [0] state, [1] ppid, [2] pgrp, ... [19] start time. */
export function procStatFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses; the fields start after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** When the process started (field 22 of stat, clock ticks since boot): with the pid, its identity. */
export function procStartTicks(pid: number): string | undefined {
  return procStatFields(pid)?.[19];
}

/** A live process: a zombie is dead already, it only waits for its parent to reap it. */
export function procAlive(pid: number): boolean {
  const state = procStatFields(pid)?.[0];
  return state !== undefined && state !== 'Z';
}

/** A variable of the process's environment as it started (/proc/PID/environ), or undefined. */
export function procEnvValue(pid: number, name: string): string | undefined {
  try {
    const entry = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((e) => e.startsWith(`${name}=`));
    return entry?.slice(name.length + 1);
  } catch {
    return undefined;
  }
}
