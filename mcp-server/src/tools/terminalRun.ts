import { z } from 'zod';
import { limits, terminalNameSchema, terminalRunResultSchema, timeoutMsSchema, waitModeSchema } from '../../../common/src/protocol';
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
    .describe('"completion" (default) blocks until the command truly finished, asks for input, or times out. "background" returns at once with status "running", for dev servers and watchers.'),
  cwd: z
    .string()
    .min(1)
    .optional()
    .describe('Working directory for the command, absolute or relative to the workspace folder. The terminal stays in it afterwards.'),
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
        '"running" (waitMode "background"). Long output keeps head and tail, with the full text in outputFile.',
      inputSchema,
      outputSchema: withReminder(terminalRunResultSchema),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    (args, extra) =>
      toolResult(context, () => callBridge(
        context,
        'run',
        // Absent fields stay undefined: JSON leaves them out and the extension applies its settings.
        { command: args.command, timeoutMs: args.timeout, name: args.name, waitMode: args.waitMode, cwd: args.cwd },
        extra,
        args.timeout,
      ), renderRunResult),
  );
};
