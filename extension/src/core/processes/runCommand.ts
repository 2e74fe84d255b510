/**
 * Runs an OS tool (ps, lsof) and hands back its output whatever the exit code: several tools
 * report "nothing found" as exit 1 (lsof, ps -p with dead pids), which is an answer, not an error.
 */
import { execFile } from 'node:child_process';

export interface CommandOutput {
  readonly stdout: string;
  readonly stderr: string;
  /** Exit code; null when the process was killed (timeout) or could not start. */
  readonly code: number | null;
  /** Set when the tool could not be started at all (ENOENT) or timed out. */
  readonly error?: Error;
}

export function runCommand(
  file: string,
  args: readonly string[],
  options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<CommandOutput> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        timeout: options.timeoutMs ?? 10_000,
        killSignal: 'SIGKILL',
        windowsHide: true,
        env: options.env ?? process.env,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        const failed = error && (code === null || error.killed);
        resolve({ stdout, stderr, code, ...(failed ? { error } : {}) });
      },
    );
  });
}
