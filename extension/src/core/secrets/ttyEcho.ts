/**
 * A prompt the OS shows is for a secret, whatever its wording: the terminal's echo is off while
 * a line is read (`read -s`, getpass(3), readpassphrase(3): sudo, su, ssh, gpg on a tty). Read
 * from the terminal's line settings (termios) once a run waits for input: on Linux with
 * `stty -F <tty> -a`, the tty being the shell's standard input (/proc); on macOS with BSD stty's
 * `stty -f <tty> -a`, the tty named by `ps -o tty=` (no /proc; tcgetattr needs only an open of the
 * device, which the terminal's owner may do). Echo off with canonical input (a whole line is read)
 * is a secret being typed; readline programs (a shell, a REPL) turn canonical input off and echo
 * themselves, so they are not.
 */
import { execFile } from 'node:child_process';
import { readlink } from 'node:fs/promises';

/** Bound on the commands asked: a result waits no longer for them (they answer in a few milliseconds). */
const TERMIOS_TIMEOUT_MS = 1000;

/**
 * Whether `stty -a` output says a line is read with echo off. GNU's (`-echo` among the local
 * flags, `;` between some) and BSD's (`lflags: icanon … -echo …` over tab-indented lines) alike.
 */
export function echoOffLineRead(sttyAll: string): boolean {
  const flags = new Set(sttyAll.split(/[\s;]+/));
  return flags.has('-echo') && flags.has('icanon');
}

/** The device of a macOS process's terminal from `ps -o tty=` (`ttys003`); none for `??` (no terminal). */
export function macTerminalDevice(psTty: string): string | undefined {
  const name = psTty.trim();
  return /^tty\w+$/.test(name) ? `/dev/${name}` : undefined;
}

function output(file: string, args: readonly string[], timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs }, (error, stdout) => resolve(error ? undefined : stdout));
  });
}

/** `stty -a` of the terminal of `shellPid`, or undefined where it cannot be read. */
async function terminalSettings(shellPid: number, platform: NodeJS.Platform): Promise<string | undefined> {
  if (platform === 'linux') {
    const tty = await readlink(`/proc/${shellPid}/fd/0`).catch(() => undefined);
    if (tty === undefined || !/^\/dev\/(pts\/\d+|tty\w*)$/.test(tty)) return undefined;
    return output('stty', ['-F', tty, '-a'], TERMIOS_TIMEOUT_MS);
  }
  if (platform === 'darwin') {
    // Two commands share the bound.
    const tty = macTerminalDevice((await output('ps', ['-o', 'tty=', '-p', String(shellPid)], TERMIOS_TIMEOUT_MS / 2)) ?? '');
    return tty === undefined ? undefined : output('stty', ['-f', tty, '-a'], TERMIOS_TIMEOUT_MS / 2);
  }
  return undefined;
}

/**
 * Whether the terminal of `shellPid` (its standard input, a pseudo-terminal) reads a line with echo
 * off now. False where that cannot be told (Windows, no such process, not a tty, stty failed).
 */
export async function terminalReadsSecret(shellPid: number | undefined, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  if (shellPid === undefined) return false;
  const settings = await terminalSettings(shellPid, platform);
  return settings !== undefined && echoOffLineRead(settings);
}
