/**
 * The execution strategies a new terminal tries, in order, for its shell: VS Code's own shell
 * integration where VS Code injects it (and the user left injection on), Terminal Shepherd's own
 * integration where a script of ours covers the shell, and the extension-owned pseudoterminal,
 * which needs no shell hooks at all, last. Pure, so every choice is unit-tested.
 */
import type { StrategyName } from '../../../../../common/src/protocol';
import type { StrategySetting } from '../../../../../common/src/settings';
import type { ShellKind } from '../shellKind';

export interface ChainInput {
  readonly kind: ShellKind;
  /** terminal.integrated.shellIntegration.enabled: VS Code injects its scripts. */
  readonly vscodeInjection: boolean;
  /** terminalShepherd.terminal.strategy: where to start; later tiers stay as fallbacks. */
  readonly preference: StrategySetting;
}

/** Shells VS Code injects its integration into (bash, zsh, fish, pwsh). */
const VSCODE_INJECTS: ReadonlySet<ShellKind> = new Set(['bash', 'zsh', 'fish', 'pwsh']);
/** Shells a script of ours covers. */
const SHEPHERD_COVERS: ReadonlySet<ShellKind> = new Set(['bash', 'zsh', 'fish', 'sh', 'pwsh']);

/**
 * Shells where our integration goes before VS Code's: under prompt themes VS Code's zsh script
 * loses command boundaries (seen with powerlevel9k + zsh-autosuggestions +
 * zsh-syntax-highlighting: executions that end at once with no exit code, command lines taken
 * from the right prompt, the real end never reported; powerlevel10k turns it off,
 * microsoft/vscode#146587), while ours keeps its precmd hooks first and last and marks the
 * prompt again after a theme rebuilt it.
 * PowerShell too: VS Code's end carries only `$?` (0 or 1), its script needs PSReadLine for the
 * command's start and turns itself off under ConstrainedLanguage (its method calls would fail
 * there), while ours reports the real exit code from the prompt, with its source, in any
 * language mode (shell/pwsh.ps1).
 * bash too: once HISTCONTROL ignores spaces or duplicates (Ubuntu's default `ignoreboth`, or
 * VS Code's own history prevention) VS Code's bash script reports a line by $BASH_COMMAND, its
 * first simple command, as a trusted command line; for `for …; do …; done` or `a && b` that is
 * not the line executeCommand sent, so VS Code opens a second execution, and when its start, its
 * output and its end reach the extension host together the output is lost (its read() listens a
 * microtask late; the soak's racing `for` loops came back empty). Ours reports no command line
 * (VS Code then gives the output to the execution executeCommand returned), whatever HISTCONTROL says.
 */
const SHEPHERD_FIRST: ReadonlySet<ShellKind> = new Set(['bash', 'zsh', 'pwsh']);

export function strategyChain(input: ChainInput): StrategyName[] {
  const chain: StrategyName[] = [];
  const vscode = input.vscodeInjection && VSCODE_INJECTS.has(input.kind);
  const shepherd = SHEPHERD_COVERS.has(input.kind);
  if (shepherd && SHEPHERD_FIRST.has(input.kind)) chain.push('shepherd');
  if (vscode) chain.push('vscode');
  if (shepherd && !SHEPHERD_FIRST.has(input.kind)) chain.push('shepherd');
  chain.push('pseudoterminal');
  // A preferred tier goes first when it can work for this shell; the others stay as fallbacks.
  if (input.preference === 'auto' || !chain.includes(input.preference)) return chain;
  return [input.preference, ...chain.filter((s) => s !== input.preference)];
}
