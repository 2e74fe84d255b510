/**
 * Checks before typing: every command a call would type is decided here before anything happens
 * (no terminal opened, no `cd` typed, no server restarted), the way VS Code's own terminal tool
 * runs its command-line rewriters and analyzers before it executes (microsoft/vscode,
 * chatAgentTools/browser/tools/runInTerminalTool.ts, commandLineAnalyzer/). Each check has one
 * job and one interface; the pipeline (checkCall) runs them in order.
 */
import type { CommandSafety, StrategyName, TerminalRunResult, WaitMode } from '../../../../common/src/protocol';
import type { ShepherdError } from '../errors';
import type { RunningServer } from '../servers/serverPlan';
import type { ShellInfo } from '../terminals/shellKind';

/** terminal_run, as planned: what would run, where, and in which terminal. */
export interface RunCall {
  readonly kind: 'run';
  readonly command: string;
  readonly terminal: string;
  /** The shell that would run it (of the open terminal, or of the one that would be opened). */
  readonly shell: ShellInfo;
  /** How that terminal runs commands (for a terminal still to open: the first strategy it tries). */
  readonly strategy: StrategyName;
  /** Where it would run; undefined when the terminal's directory is not known. */
  readonly cwd: string | undefined;
  /** A terminal would be opened for it. */
  readonly opensTerminal: boolean;
  readonly waitMode: WaitMode;
  readonly restart: boolean;
  /** The same command already runs in the same directory as a dev server (the never-twice rule). */
  readonly duplicate: RunningServer | undefined;
}

/** terminal_input, as planned: the text, and the command it is when it ends a line at a shell prompt. */
export interface InputCall {
  readonly kind: 'input';
  readonly text: string;
  readonly terminal: string;
  /** How that terminal runs commands. */
  readonly strategy: StrategyName;
  /** Set when the text is a new command for a shell (a nested shell or remote session waiting at its prompt). */
  readonly command: { readonly line: string; readonly shell: ShellInfo } | undefined;
}

export type CheckedCall = RunCall | InputCall;

export type CheckVerdict =
  /** No objection; `safety`: the safety check's decision, for the result and the audit. */
  | { readonly kind: 'pass'; readonly safety?: CommandSafety }
  /** Nothing runs; the call fails with this error. */
  | { readonly kind: 'refuse'; readonly error: ShepherdError }
  /** The person decides; `reason` says which rule asked; `offer`: the answers beyond "run" and what they allow. */
  | { readonly kind: 'ask'; readonly reason: string; readonly offer?: ApprovalOffer }
  /** The call is answered without running anything. */
  | { readonly kind: 'answer'; readonly result: TerminalRunResult }
  /** The command is replaced (the call is planned again with it); `reason` is logged. */
  | { readonly kind: 'rewrite'; readonly command: string; readonly reason: string };

/** Who makes the call: the session (one MCP client's connection) answers and allows are kept for. */
export interface Caller {
  readonly session: string;
}

export interface CommandCheck {
  /** A short name for logs and for the question shown to the person. */
  readonly id: string;
  check(call: CheckedCall, caller: Caller): CheckVerdict | Promise<CheckVerdict>;
}

/** A way to approve a command: run it once, or allow it (or more) for a scope. */
export interface ApprovalChoice {
  readonly id: string;
  readonly label: string;
}

/** What an asking check offers the person, and what it does with their choice. */
export interface ApprovalOffer {
  /** The ways to approve, "run once" first; declining is always possible. */
  readonly choices: readonly ApprovalChoice[];
  /** The line always asks (the floor): no allow is offered. */
  readonly floor: boolean;
  /** The check's decision, for the result and the audit. */
  readonly safety: CommandSafety;
  /** How long what a choice allows lasts, for the result. */
  scopeOf(choice: string): NonNullable<CommandSafety['scope']>;
  /** The person approved with this choice: record what it allows from now on. */
  approved(choice: string): Promise<void>;
}

export const PASS: CheckVerdict = Object.freeze({ kind: 'pass' });

/** What the person is asked when a check says so. */
export interface ApprovalQuestion {
  readonly command: string;
  readonly terminal: string;
  /** The shell's label (bash, pwsh, ...). */
  readonly shell: string;
  readonly cwd: string | undefined;
  /** Why they are asked: each asking check's reason. */
  readonly reasons: readonly string[];
  /** The ways to approve, the plain "run" first; declining is always possible besides. */
  readonly choices: readonly ApprovalChoice[];
  /** The line is on the floor: it always asks. */
  readonly floor: boolean;
}

export type ApprovalAnswer = { readonly kind: 'approved'; readonly choice: string } | { readonly kind: 'declined' } | { readonly kind: 'unanswered' };

/** Asks the person: through the MCP client's elicitation (bridge/), or a modal in the window (vscode/). */
export interface ApprovalPort {
  /** Where the question shows, for the result and the audit. */
  readonly via: 'elicitation' | 'modal';
  /** The answer; `signal` aborts when the answer is no longer waited for (the caller gave up, or the bound passed). */
  ask(question: ApprovalQuestion, signal: AbortSignal): Promise<ApprovalAnswer>;
}
