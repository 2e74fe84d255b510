/**
 * The execution strategies a new terminal tries, in order, for its shell: VS Code's own shell
 * integration where VS Code injects it (and the user left injection on), Terminal Shepherd's own
 * integration where a script of ours covers the shell, and the extension-owned pseudoterminal,
 * which needs no shell hooks at all, last. Pure, so every choice is unit-tested.
 */
import type { StrategyName } from '../../../../common/src/protocol';
import type { ShellKind } from './shellKind';

export type StrategyPreference = 'auto' | StrategyName;

export interface ChainInput {
  readonly kind: ShellKind;
  /** terminal.integrated.shellIntegration.enabled: VS Code injects its scripts. */
  readonly vscodeInjection: boolean;
  /** terminalShepherd.terminal.strategy: where to start; later tiers stay as fallbacks. */
  readonly preference: StrategyPreference;
}

/** Shells VS Code injects its integration into (bash, zsh, fish, pwsh). */
const VSCODE_INJECTS: ReadonlySet<ShellKind> = new Set(['bash', 'zsh', 'fish', 'pwsh']);
/** Shells a script of ours covers. */
const SHEPHERD_COVERS: ReadonlySet<ShellKind> = new Set(['bash', 'zsh', 'fish', 'sh']);

export function strategyChain(input: ChainInput): StrategyName[] {
  const chain: StrategyName[] = [];
  if (input.vscodeInjection && VSCODE_INJECTS.has(input.kind)) chain.push('vscode');
  if (SHEPHERD_COVERS.has(input.kind)) chain.push('shepherd');
  chain.push('pseudoterminal');
  // A preferred tier goes first when it can work for this shell; the others stay as fallbacks.
  if (input.preference === 'auto' || !chain.includes(input.preference)) return chain;
  return [input.preference, ...chain.filter((s) => s !== input.preference)];
}
