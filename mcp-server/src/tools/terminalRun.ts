import { limits, runParamsSchema } from '../../../common/src/protocol';
import { registerRunTool } from './support/runTool';
import type { ToolRegistration } from './support/toolContext';
import { defaultTimeoutNote, describeStatuses } from './support/toolGuide';

const params = runParamsSchema.shape;

const inputSchema = {
  command: params.command.describe('The command line to run, exactly as you would type it in the shell (bash, zsh, fish or pwsh). Multi-line input runs line by line.'),
  timeout: params.timeoutMs.describe(
    `Milliseconds to wait for the command to finish before returning status "timeout" (the command keeps running); the call returns earlier, status "running", when your MCP client's own time limit comes first. ${defaultTimeoutNote}; ${limits.minTimeoutMs}..${limits.maxTimeoutMs}.`,
  ),
  name: params.name.describe(
    'Terminal to run in; "default" unless given. A new name creates a new terminal; an existing one is reused when idle (a busy terminal is refused, never interrupted).',
  ),
  waitMode: params.waitMode.describe(
    '"completion" (default) blocks until the command truly finished, asks for input, or times out. ' +
      '"ready" for dev servers and watchers: returns status "running" with ready {ports, urls} once a port its processes listen on answers ' +
      '(HTTP where there is a URL), or a watcher printed its ready line; fails fast when it exits (e.g. port taken: the holder is named), asks a question, or times out (it keeps running). ' +
      '"background" returns at once with status "running". In "ready" and "background" mode the same command already running in the same directory is not started twice: status "already_running" with its URLs.',
  ),
  cwd: params.cwd.describe('Working directory for the command, absolute or relative to the workspace folder. The terminal stays in it afterwards.'),
  readyPattern: params.readyPattern.describe(
    'waitMode "ready": a JavaScript regular expression; the first output line matching it marks the command ready (for watchers without a port, or a custom ready line). Implies waitMode "ready".',
  ),
  restart: params.restart.describe(
    'With waitMode "ready" or "background": when the same command already runs in the same directory, kill its process tree and start it again instead of reporting "already_running".',
  ),
};

export const registerTerminalRun: ToolRegistration = (server, context) =>
  registerRunTool(
    server,
    context,
    'terminal_run',
    {
      method: 'run',
      // VS Code shows "Run <title>" on the confirmation and "Ran <title>" afterwards: a noun reads well there.
      title: 'Terminal Command',
      description:
        'Runs a shell command in a terminal the user sees; returns when it truly finished, with exit code and output. Prefer ' +
        'it to run_in_terminal. Within your client\'s time limit: a longer command returns "running" and nextCall. A cancel ' +
        'never stops it.\n' +
        describeStatuses(),
      inputSchema,
      tasks: context.tasks,
      annotations: {
        // Runs any command: VS Code asks before each call, offering "Allow in this Session/Workspace", as for run_in_terminal.
        readOnlyHint: false,
        // A command can delete files. VS Code 1.139 ignores this hint; other clients may ask harder.
        destructiveHint: true,
        // Running a command twice runs it twice.
        idempotentHint: false,
        // VS Code turns openWorldHint into a review of every result before the model sees it ("Approve Tool Result"), a
        // second click per command that its own run_in_terminal does not ask for. The tool's domain is closed: the
        // user's own terminal, in the workspace, running the command the user approved and watches; the output is what
        // that command printed there. The approval that protects the user is the one before the command runs.
        openWorldHint: false,
      },
    },
    (args) => ({
      command: args.command,
      timeoutMs: args.timeout,
      name: args.name,
      waitMode: args.waitMode,
      cwd: args.cwd,
      readyPattern: args.readyPattern,
      restart: args.restart,
    }),
  );
