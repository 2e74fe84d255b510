/**
 * An extension-owned terminal that runs each command itself (any shell, no shell hooks): the
 * command goes as typed to the PtyTerminal, which writes it to a file of its own, reports the
 * start and end, and shows the output. Every byte there is the command's own, so nothing is cut
 * as prompt or echo, and its processes end with the extension.
 */
import { trimCommand } from '../commandText';
import { managedEnv } from '../integration/integrationLaunch';
import { hasScriptCommand, PtyTerminal } from '../pty/ptyTerminal';
import { shellInfo } from '../shellKind';
import { filesOrFailure, terminalTitle, type ExecutionStrategy } from './executionStrategy';

export const pseudoterminalStrategy: ExecutionStrategy = {
  name: 'pseudoterminal',
  stripsPromptAndEcho: false,
  ownsProcesses: true,
  lateExecutions: true,
  async open(request, context) {
    const files = await filesOrFailure(context, 'no private folder for its command files');
    if ('failure' in files) return files;
    const { platform, events } = context;
    const terminal = new PtyTerminal(
      {
        name: terminalTitle(request.name),
        shell: request.shell.path !== undefined ? request.shell : shellInfo(platform === 'win32' ? 'cmd.exe' : '/bin/sh'),
        cwd: request.cwd,
        env: managedEnv(request.shell.kind, files, request.marks),
        runsDir: files.runsDir,
        platform,
        hasScript: hasScriptCommand(platform),
      },
      {
        createPseudoterminal: (title, behaviour) => context.host.createPseudoterminal(title, behaviour, request.settings.revealOnCreate),
        probeShell: context.probeShell,
        descendants: context.descendants,
        onDidStart: (t, execution) => events.start({ terminal: t, execution }),
        onDidEnd: (t, execution, exitCode) => events.end({ terminal: t, execution, exitCode }),
        onDidClose: (t, exitCode, reason) => events.close({ terminal: t, exitCode, reason }),
        logger: context.logger,
      },
    );
    return { terminal };
  },
  // Sent as typed: the terminal writes every command to a file of its own.
  prepareCommand: (command) => Promise.resolve({ line: trimCommand(command), dispose: () => undefined }),
};
