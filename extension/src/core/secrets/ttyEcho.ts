/**
 * A prompt the OS shows is for a secret, whatever its wording: the terminal's echo is off while
 * a line is read (`read -s`, getpass(3), readpassphrase(3): sudo, su, ssh, gpg on a tty). Read
 * from the terminal's line settings (termios) with `stty -F <tty> -a` on Linux, once a run waits
 * for input. Echo off with canonical input (a whole line is read) is a secret being typed;
 * readline programs (a shell, a REPL) turn canonical input off and echo themselves, so they are not.
 */
import { execFile } from 'node:child_process';
import { readlink } from 'node:fs/promises';

/** Bound on the stty call: a result waits no longer for it (it answers in a few milliseconds). */
const STTY_TIMEOUT_MS = 1000;

/** Whether `stty -a` output says a line is read with echo off. */
export function echoOffLineRead(sttyAll: string): boolean {
  const flags = new Set(sttyAll.split(/[\s;]+/));
  return flags.has('-echo') && flags.has('icanon');
}

function sttyAll(tty: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('stty', ['-F', tty, '-a'], { timeout: STTY_TIMEOUT_MS }, (error, stdout) => resolve(error ? undefined : stdout));
  });
}

/**
 * Whether the terminal of `shellPid` (its standard input, a pseudo-terminal) reads a line with echo
 * off now. False where that cannot be told (not Linux, no such process, not a tty, stty failed).
 */
export async function terminalReadsSecret(shellPid: number | undefined, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  if (platform !== 'linux' || shellPid === undefined) return false;
  const tty = await readlink(`/proc/${shellPid}/fd/0`).catch(() => undefined);
  if (tty === undefined || !/^\/dev\/(pts\/\d+|tty\w*)$/.test(tty)) return false;
  const settings = await sttyAll(tty);
  return settings !== undefined && echoOffLineRead(settings);
}
