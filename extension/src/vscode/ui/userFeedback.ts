/**
 * How the process UI talks back: results as notifications, failures as error messages with a
 * "Show Log" button, and a wrapper that keeps every user action and event handler from throwing.
 */
import * as vscode from 'vscode';
import type { ProcessUiDependencies } from './dependencies';

export const SHOW_LOG_BUTTON = 'Show Log';

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type Feedback = Pick<ProcessUiDependencies, 'logger'>;

/**
 * An error notification with "Show Log"; the details are in the log. Not awaited by callers that
 * must go on (the promise settles only when the notification is dismissed).
 */
export function showFailure(deps: Feedback, message: string): Promise<void> {
  return Promise.resolve(vscode.window.showErrorMessage(message, SHOW_LOG_BUTTON)).then(
    (choice) => {
      if (choice === SHOW_LOG_BUTTON) deps.logger.show();
    },
    () => undefined,
  );
}

/** A warning that something only partly worked, with "Show Log". */
export function showPartialFailure(deps: Feedback, message: string): Promise<void> {
  return Promise.resolve(vscode.window.showWarningMessage(message, SHOW_LOG_BUTTON)).then(
    (choice) => {
      if (choice === SHOW_LOG_BUTTON) deps.logger.show();
    },
    () => undefined,
  );
}

/**
 * Wraps a user-started action (a command): a failure is logged with its stack and shown as
 * "Could not <what>: <reason>" with "Show Log"; nothing escapes to VS Code's command service.
 */
export function userAction<A extends unknown[]>(
  deps: Feedback,
  what: string,
  action: (...args: A) => Promise<unknown> | unknown,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await action(...args);
    } catch (error) {
      deps.logger.error(`ui: could not ${what}`, error);
      void showFailure(deps, `Could not ${what}: ${errorText(error)}`);
    }
  };
}

/** Runs background work started by an event (no user waiting on it): failures are only logged. */
export function inBackground(deps: Feedback, what: string, work: () => Promise<unknown>): void {
  try {
    work().catch((error: unknown) => deps.logger.warn(`ui: ${what} failed`, error));
  } catch (error) {
    deps.logger.warn(`ui: ${what} failed`, error);
  }
}

/** Wraps a timer or VS Code event handler: a failure is logged, never thrown into VS Code. */
export function guarded<A extends unknown[]>(deps: Feedback, what: string, handler: (...args: A) => void): (...args: A) => void {
  return (...args: A) => {
    try {
      handler(...args);
    } catch (error) {
      deps.logger.error(`ui: ${what} failed`, error);
    }
  };
}
