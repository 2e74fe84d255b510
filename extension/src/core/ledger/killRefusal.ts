/**
 * Why a pid is refused by kill_process, said so the agent knows what to do instead. The ledger
 * kills only processes it tracks, with their identity re-checked; everything else lands here.
 */
import { BridgeErrorCode, ShepherdError } from '../errors';

const HINT = 'list_processes shows the processes Terminal Shepherd can kill.';

export interface RefusalContext {
  /** The extension host (this window). */
  readonly ownPid: number;
  /** The terminal of a shell pid, when the pid is one of ours. */
  readonly shellTerminal?: string;
  /** A process the ledger tracked that has ended (its pid may now name another process). */
  readonly ended?: { readonly commandLine: string; readonly terminalName: string; readonly endedAt?: string };
}

export function notOwnedError(pid: number, ctx: RefusalContext): ShepherdError {
  return new ShepherdError(BridgeErrorCode.ProcessNotOwned, refusalMessage(pid, ctx));
}

function refusalMessage(pid: number, ctx: RefusalContext): string {
  if (pid === 1) {
    return `pid 1 is not a process Terminal Shepherd started (it is the system's init process); ${HINT}`;
  }
  if (pid === ctx.ownPid) {
    return `pid ${pid} is the VS Code extension host that runs Terminal Shepherd; it is never killed. ${HINT}`;
  }
  if (ctx.shellTerminal !== undefined) {
    const name = JSON.stringify(ctx.shellTerminal);
    return (
      `pid ${pid} is the shell of terminal ${name}, not a process its commands started. ` +
      `Stop its command with terminal_input {name: ${name}, text: "\\u0003"}, or kill one of the processes it started; ${HINT}`
    );
  }
  if (ctx.ended) {
    const when = ctx.ended.endedAt ? ` at ${ctx.ended.endedAt}` : '';
    return (
      `pid ${pid} (\`${ctx.ended.commandLine}\` in terminal "${ctx.ended.terminalName}") already ended${when}; ` +
      `the pid may now belong to another process, so it is not killed. ${HINT}`
    );
  }
  return `pid ${pid} is not a process Terminal Shepherd started in this window, so it is not killed. ${HINT}`;
}

/** The window is closing: nothing is killed now (the next window finds what still runs as orphans). */
export function closingError(): ShepherdError {
  return new ShepherdError(
    BridgeErrorCode.WindowClosing,
    'The VS Code window is closing, so nothing was killed. Once the window is back, list_processes shows what still runs (as orphans) and kill_process / kill_orphans end it.',
  );
}
