/**
 * What a new managed terminal is (its shell and the strategies it tries, decided without side
 * effects, so a call can be checked before anything opens) and opening it: the first strategy of
 * the chain that works for the shell (see strategies/strategyChain.ts).
 */
import { closedAtStartError, noStrategyError } from '../errors';
import { agentName } from './agentMarks';
import type { ShepherdSettings } from '../settings';
import { chooseShell, shellInfo, type ShellInfo } from './shellKind';
import { strategies, strategyChain, type ExecutionStrategy } from './strategies';
import type { StrategyContext } from './strategies/executionStrategy';
import { TerminalSession } from './terminalSession';
import type { TerminalHost } from './terminalPort';

export interface NewTerminal {
  readonly shell: ShellInfo;
  /** AI_AGENT in its environment: the client that asked for it (agentMarks.ts). */
  readonly agent: string;
  /** The strategies to try, in order; the first that works is the terminal's. */
  readonly chain: readonly ExecutionStrategy[];
}

/** The terminal a new name gets under the current settings. */
export function planNewTerminal(settings: ShepherdSettings, host: TerminalHost, platform: NodeJS.Platform, clientName?: string): NewTerminal {
  const shell = shellInfo(chooseShell(settings.shellPath, host.defaultShell(), platform, process.env.PATH ?? process.env.Path ?? ''));
  const chain = strategyChain({ kind: shell.kind, vscodeInjection: host.vscodeInjectionEnabled(), preference: settings.strategy });
  return { shell, agent: agentName(clientName), chain: chain.map((name) => strategies[name]) };
}

/** Opens `name` with the first strategy of the plan's chain that works; every failure is logged and named if none does. */
export async function openSession(
  name: string,
  plan: NewTerminal,
  cwd: string | undefined,
  settings: ShepherdSettings,
  context: StrategyContext,
): Promise<TerminalSession> {
  const { shell } = plan;
  const failures: string[] = [];
  for (const strategy of plan.chain) {
    const marks = { agent: plan.agent, preventShellHistory: settings.preventShellHistory, ...(context.ledgerSession ? { ledger: { session: context.ledgerSession, terminal: name } } : {}) };
    const opened = await strategy.open({ name, shell, cwd, settings, marks }, context);
    if ('failure' in opened) {
      failures.push(`${strategy.name}: ${opened.failure}`);
      context.logger.warn(`terminal "${name}": ${strategy.name} strategy failed (${opened.failure}); trying the next one`);
      continue;
    }
    const { terminal, runsDir } = opened;
    const shellPid = await terminal.processId();
    // Checked after the last await: a close event before registration would find no session.
    if (terminal.closed) {
      throw closedAtStartError(name);
    }
    context.logger.info(
      `terminal "${name}" created (shell ${shell.path ?? 'default'}, pid ${shellPid ?? 'unknown'}, strategy ${strategy.name}${failures.length > 0 ? ` after ${failures.join('; ')}` : ''})`,
    );
    return new TerminalSession(name, terminal, shellPid, shell, strategy, runsDir);
  }
  throw noStrategyError(name, shell.path ?? 'the default shell', failures);
}
