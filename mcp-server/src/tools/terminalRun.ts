import { z } from 'zod';
import { limits, readyPatternSchema, terminalNameSchema, terminalRunResultSchema, timeoutMsSchema, waitModeSchema } from '../../../common/src/protocol';
import { renderRunResult } from '../render';
import { callBridge, defaultTimeoutNote, toolResult, withReminder, type ToolRegistration } from '../toolSupport';

const inputSchema = {
  command: z
    .string()
    .max(limits.commandChars)
    .refine((s) => s.trim().length > 0, 'command must not be empty')
    .describe('The command line to run, exactly as you would type it in the shell (bash, zsh, fish or pwsh). Multi-line input runs line by line.'),
  timeout: timeoutMsSchema
    .optional()
    .describe(`Milliseconds to wait for the command to finish before returning status "timeout" (the command keeps running). ${defaultTimeoutNote}; ${limits.minTimeoutMs}..${limits.maxTimeoutMs}.`),
  name: terminalNameSchema
    .optional()
    .describe('Terminal to run in; "default" unless given. A new name creates a new terminal; an existing one is reused when idle (a busy terminal is refused, never interrupted).'),
  waitMode: waitModeSchema
    .optional()
    .describe(
      '"completion" (default) blocks until the command truly finished, asks for input, or times out. ' +
        '"ready" for dev servers and watchers: returns status "running" with ready {ports, urls} once a port its processes listen on answers ' +
        '(HTTP where there is a URL), or a watcher printed its ready line; fails fast when it exits (e.g. port taken: the holder is named), asks a question, or times out (it keeps running). ' +
        '"background" returns at once with status "running". In "ready" and "background" mode the same command already running in the same directory is not started twice: status "already_running" with its URLs.',
    ),
  cwd: z
    .string()
    .min(1)
    .optional()
    .describe('Working directory for the command, absolute or relative to the workspace folder. The terminal stays in it afterwards.'),
  readyPattern: readyPatternSchema
    .optional()
    .describe('waitMode "ready": a JavaScript regular expression; the first output line matching it marks the command ready (for watchers without a port, or a custom ready line). Implies waitMode "ready".'),
  restart: z
    .boolean()
    .optional()
    .describe('With waitMode "ready" or "background": when the same command already runs in the same directory, kill its process tree and start it again instead of reporting "already_running".'),
};

export const registerTerminalRun: ToolRegistration = (server, context) => {
  server.registerTool(
    'terminal_run',
    {
      title: 'Run a command in a VS Code terminal',
      description:
        'Runs a command in a real VS Code terminal and returns only when it has truly finished (exit code reported, shell back at its prompt), ' +
        'with the output a person would see and the exit code. Returns early with an honest status instead of guessing: ' +
        '"waiting_for_input" (with the prompt; answer with terminal_input), "timeout" (still running; follow with terminal_state), ' +
        '"running" (waitMode "background", or "ready" once the server answers, with ready {ports, urls}), "already_running" (the same dev server runs already: its URLs and output tail; restart: true replaces it). ' +
        'Long output keeps head and tail, with the full text in outputFile.',
      inputSchema,
      outputSchema: withReminder(terminalRunResultSchema),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    (args, extra) =>
      toolResult(context, () => callBridge(
        context,
        'run',
        // Absent fields stay undefined: JSON leaves them out and the extension applies its settings.
        {
          command: args.command,
          timeoutMs: args.timeout,
          name: args.name,
          waitMode: args.waitMode,
          cwd: args.cwd,
          readyPattern: args.readyPattern,
          restart: args.restart,
        },
        extra,
        args.timeout,
      ), renderRunResult),
  );
};
