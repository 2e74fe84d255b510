/**
 * Telling the person that a run waits for a secret only they may type. A client that can be asked
 * (MCP elicitation) is asked beside the result, so the model's call never waits on the person:
 * Focus Terminal shows the terminal, Cancel Command sends Ctrl+C. The question is taken down when
 * the run leaves the prompt (the person typed it) or after a bound; a question that could not be
 * asked falls back to the window's notification, as does a call without a client to ask.
 */
import type { Logger } from '../../../../common/src/logger';
import type { Disposable } from '../events';
import type { CommandRun } from '../run/commandRun';
import type { TerminalSession } from '../terminals/terminalSession';

/** A run waits at a prompt for a secret: the person is told where to type it. */
export interface SecretPrompt {
  readonly runId: number;
  readonly terminal: string;
  readonly command: string;
  readonly prompt: string;
}

/** What the person chose: focus the terminal, cancel the command, dismissed the question, or it could not be asked / was not answered. */
export type SecretAnswer = 'focus' | 'cancel' | 'declined' | 'unanswered';

/** Asks the person about a prompt for a secret through the calling client. */
export interface SecretAsker {
  ask(prompt: SecretPrompt, signal: AbortSignal): Promise<SecretAnswer>;
}

/** The choices, as a client shows them (ids are the answers). */
export const SECRET_CHOICES = [
  { id: 'focus', label: 'Focus Terminal (type it there)' },
  { id: 'cancel', label: 'Cancel Command' },
] as const;

export class SecretQuestions implements Disposable {
  /** Questions out, per run and prompt: the model's calls may report the same prompt again while it waits. */
  private readonly open = new Map<string, AbortController>();

  constructor(
    /** The window's notification (every client without a way to ask). */
    private readonly notify: (prompt: SecretPrompt) => void,
    private readonly logger: Logger,
  ) {}

  /** Tells the person about `prompt` of `run`: through `asker` when the call brings one (not awaited), else the notification. */
  tell(prompt: SecretPrompt, session: TerminalSession, run: CommandRun, asker: SecretAsker | undefined, boundMs: number): void {
    if (!asker) {
      this.notify(prompt);
      return;
    }
    const key = `${run.id}\n${prompt.prompt}`;
    if (this.open.has(key)) return;
    const abort = new AbortController();
    this.open.set(key, abort);
    const moot = run.onDidChangeState((state) => {
      if (state.kind !== 'waiting_for_input' || state.prompt !== prompt.prompt) abort.abort();
    });
    const gone = run.onDidDispose(() => abort.abort());
    const timer = setTimeout(() => abort.abort(), boundMs);
    void asker
      .ask(prompt, abort.signal)
      .catch((error: unknown): SecretAnswer => {
        this.logger.warn(`the client could not be asked about the prompt for a secret in terminal "${prompt.terminal}"`, error);
        return 'unanswered';
      })
      .then((answer) => {
        if (answer === 'focus') session.terminal.show(false);
        if (answer === 'cancel') {
          if (run.active && !session.closed) session.interrupt();
          else this.logger.info(`\`${prompt.command}\` had already ended in terminal "${prompt.terminal}"`);
        }
        // Not asked at all (the client refused, the connection is gone): the window tells instead.
        if (answer === 'unanswered' && !abort.signal.aborted) this.notify(prompt);
      })
      .finally(() => {
        clearTimeout(timer);
        moot.dispose();
        gone.dispose();
        this.open.delete(key);
      });
  }

  /** Takes every open question down (the window is closing). */
  dispose(): void {
    for (const abort of this.open.values()) abort.abort();
  }
}
