/**
 * The shell matrix of the desktop VS Code suite, per system: which shells a runner of each system
 * has (where), what each is called with, and the commands each check types in that shell's
 * language. Pure, so the choice per platform is unit-tested where the suite cannot run.
 */
import path from 'node:path';

export type ShellFamily = 'posix' | 'fish' | 'pwsh' | 'cmd';

export interface DesktopShell {
  /** Test title and terminal-name prefix. */
  readonly label: string;
  readonly family: ShellFamily;
  /** The first of these that exists is the shell. */
  readonly candidates: readonly string[];
  /** Strategies the shell may legitimately run with there. */
  readonly strategies: readonly string[];
  /** The executable name the OS shows for the terminal's process (lower case, without .exe). */
  readonly processName: string;
}

/** The shells of the matrix on `platform`, with the environment's install folders. */
export function desktopShells(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): DesktopShell[] {
  if (platform === 'win32') {
    const systemRoot = env.SystemRoot ?? 'C:\\Windows';
    const programFiles = env.ProgramFiles ?? 'C:\\Program Files';
    return [
      { label: 'pwsh 7', family: 'pwsh', candidates: [path.win32.join(programFiles, 'PowerShell', '7', 'pwsh.exe')], strategies: ['shepherd'], processName: 'pwsh' },
      {
        label: 'Windows PowerShell 5.1',
        family: 'pwsh',
        candidates: [path.win32.join(systemRoot, 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe')],
        strategies: ['shepherd'],
        processName: 'powershell',
      },
      { label: 'cmd.exe', family: 'cmd', candidates: [env.ComSpec ?? path.win32.join(systemRoot, 'System32', 'cmd.exe')], strategies: ['pseudoterminal'], processName: 'cmd' },
      { label: 'Git Bash', family: 'posix', candidates: [path.win32.join(programFiles, 'Git', 'bin', 'bash.exe')], strategies: ['vscode', 'shepherd'], processName: 'bash' },
    ];
  }
  if (platform === 'darwin') {
    return [
      { label: 'zsh', family: 'posix', candidates: ['/bin/zsh'], strategies: ['shepherd'], processName: 'zsh' },
      { label: 'bash 3.2', family: 'posix', candidates: ['/bin/bash'], strategies: ['vscode', 'shepherd'], processName: 'bash' },
      { label: 'fish', family: 'fish', candidates: ['/opt/homebrew/bin/fish', '/usr/local/bin/fish'], strategies: ['vscode', 'shepherd'], processName: 'fish' },
    ];
  }
  return [
    { label: 'bash', family: 'posix', candidates: ['/bin/bash'], strategies: ['vscode', 'shepherd'], processName: 'bash' },
    { label: 'zsh', family: 'posix', candidates: ['/usr/bin/zsh'], strategies: ['shepherd'], processName: 'zsh' },
    { label: 'fish', family: 'fish', candidates: ['/usr/bin/fish'], strategies: ['vscode', 'shepherd'], processName: 'fish' },
    { label: 'dash', family: 'posix', candidates: ['/usr/bin/dash'], strategies: ['shepherd'], processName: 'dash' },
    { label: 'mksh', family: 'posix', candidates: ['/usr/bin/mksh'], strategies: ['shepherd'], processName: 'mksh' },
  ];
}

/** What a check expects from one command. */
export interface ShellCheck {
  readonly title: string;
  readonly command: string;
  readonly output?: string;
  readonly exitCode: number;
  /** Acceptable exit code sources (any when absent). */
  readonly sources?: readonly string[];
}

/** The checks of one shell, in its language; `platform` decides how a native program exits 42. */
export function shellChecks(family: ShellFamily, platform: NodeJS.Platform): ShellCheck[] {
  const exit = (code: number): string => (platform === 'win32' ? `cmd /c exit ${code}` : `sh -c 'exit ${code}'`);
  switch (family) {
    case 'pwsh':
      return [
        { title: 'exact echo', command: "Write-Output 'hello world'", output: 'hello world', exitCode: 0, sources: ['shell'] },
        { title: 'a native exit code other than 0 and 1', command: exit(42), exitCode: 42, sources: ['native'] },
        { title: 'a `;` chain: the failing native program is not hidden by the cmdlet after it', command: `${exit(3)}; Get-Date | Out-Null`, exitCode: 3, sources: ['native'] },
        { title: 'a cmdlet after it: never the stale code', command: 'Get-Date | Out-Null', output: '', exitCode: 0, sources: ['shell'] },
        { title: 'a cmdlet error', command: "Get-Item -LiteralPath 'tshep-no-such-file'", exitCode: 1, sources: ['shell'] },
        { title: 'a terminating error still ends the run', command: "throw 'boom'", exitCode: 1, sources: ['shell'] },
        { title: 'and the terminal is not poisoned', command: "Write-Output 'after'", output: 'after', exitCode: 0 },
        { title: 'native stderr through 2>&1 from a program that exits 0 (5.1: inferred)', command: platform === 'win32' ? 'cmd /c "echo tshep-err 1>&2" 2>&1' : "sh -c 'echo tshep-err 1>&2' 2>&1", exitCode: 0, sources: ['native', 'inferred'] },
        { title: 'a multi-line command through a file', command: "$x = 1\nif ($x) {\n  'multi'\n}", output: 'multi', exitCode: 0 },
        { title: 'UTF-8 output', command: "Write-Output 'h\u00e9llo \u2713 \u4e2d\u6587'", output: 'h\u00e9llo \u2713 \u4e2d\u6587', exitCode: 0 },
      ];
    case 'cmd':
      return [
        { title: 'exact echo', command: 'echo hello world', output: 'hello world', exitCode: 0 },
        { title: 'an exit code other than 0 and 1', command: 'cmd /c exit 42', exitCode: 42 },
        { title: 'a multi-line command', command: 'set TSHEP_X=1\necho line-%TSHEP_X%', output: 'line-1', exitCode: 0 },
        { title: 'UTF-8 output', command: 'echo h\u00e9llo \u2713', output: 'h\u00e9llo \u2713', exitCode: 0 },
      ];
    case 'fish':
      return [
        { title: 'exact echo', command: 'echo hello world', output: 'hello world', exitCode: 0, sources: ['shell'] },
        { title: 'an exit code other than 0 and 1', command: "sh -c 'exit 42'", exitCode: 42, sources: ['shell'] },
        { title: 'a multi-line command', command: 'set x 1\necho line-$x', output: 'line-1', exitCode: 0 },
      ];
    default:
      return [
        { title: 'exact echo', command: 'echo hello world', output: 'hello world', exitCode: 0, sources: ['shell'] },
        { title: 'an exit code other than 0 and 1', command: "sh -c 'exit 42'", exitCode: 42, sources: ['shell'] },
        { title: 'a multi-line command', command: 'x=1\necho line-$x', output: 'line-1', exitCode: 0 },
        { title: 'UTF-8 output', command: "echo 'h\u00e9llo \u2713'", output: 'h\u00e9llo \u2713', exitCode: 0 },
      ];
  }
}

/** The image name in `tasklist /FO CSV /NH` output for one pid (`"pwsh.exe","1234",...`), lower case without .exe. */
export function tasklistImageName(csv: string): string | undefined {
  const match = /^"([^"]+)","\d+"/m.exec(csv.trim());
  return match ? match[1]!.toLowerCase().replace(/\.exe$/, '') : undefined;
}

/** The command name in `ps -o comm= -p PID` output (`/bin/zsh`, `-zsh`), without directory or login dash. */
export function psCommandName(output: string): string | undefined {
  const line = output.trim().split('\n')[0]?.trim();
  return line ? path.posix.basename(line).replace(/^-/, '') : undefined;
}
