/** terminal/*: the requests that run, watch and type into managed terminals. */
import { z } from 'zod';
import { agentSessionSchema, limits } from './basics';
import { runStatusSchema, strategySchema, waitModeSchema } from './runResult';

const noControlChars = (s: string): boolean => !/[\u0000-\u001f\u007f]/.test(s);

export const terminalNameSchema = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(limits.nameChars, `name must be at most ${limits.nameChars} characters`)
  .refine(noControlChars, 'name must not contain control characters');

export const timeoutMsSchema = z
  .number()
  .int('timeout must be a whole number of milliseconds')
  .min(limits.minTimeoutMs, `timeout must be at least ${limits.minTimeoutMs} ms`)
  .max(limits.maxTimeoutMs, `timeout must be at most ${limits.maxTimeoutMs} ms (1 hour); for longer work use waitMode "background" and terminal_state`);

export const readyPatternSchema = z
  .string()
  .min(1, 'readyPattern must not be empty')
  .max(limits.readyPatternChars, `readyPattern must be at most ${limits.readyPatternChars} characters`)
  .refine(isValidRegExp, 'readyPattern must be a valid JavaScript regular expression (for example "Watching for file changes")');

function isValidRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// terminal/*

/** C0 controls other than tab and line breaks, and DEL: typed into a shell they act as keys. */
const keyLikeControlChars = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const commandSchema = z
  .string()
  .max(limits.commandChars, `command must be at most ${limits.commandChars} characters`)
  .refine((s) => s.trim().length > 0, 'command must not be empty')
  .refine(
    (s) => !keyLikeControlChars.test(s),
    'command must not contain control characters other than tab and line breaks (typed into the shell they act as keys); send keys such as Ctrl+C ("\\u0003") with terminal_input',
  );

export const runParamsSchema = z.object({
  command: commandSchema,
  timeoutMs: timeoutMsSchema.optional(),
  name: terminalNameSchema.optional(),
  waitMode: waitModeSchema.optional(),
  cwd: z.string().min(1).optional(),
  /** waitMode "ready": a regular expression; an output line matching it marks the command ready. */
  readyPattern: readyPatternSchema.optional(),
  /** Replace a matching dev server that already runs (its tree is killed first) instead of reporting it. */
  restart: z.boolean().optional(),
}).strict();
export type RunParams = z.infer<typeof runParamsSchema>;

export const stateParamsSchema = z.object({
  name: terminalNameSchema,
  wait: z.boolean().optional(),
  timeoutMs: timeoutMsSchema.optional(),
}).strict();
export type StateParams = z.infer<typeof stateParamsSchema>;

export const inputParamsSchema = z.object({
  name: terminalNameSchema,
  text: z.string().max(limits.inputChars, `text must be at most ${limits.inputChars} characters`),
  enter: z.boolean().optional(),
  timeoutMs: timeoutMsSchema.optional(),
}).strict();
export type InputParams = z.infer<typeof inputParamsSchema>;

export const terminalInfoSchema = z.object({
  name: z.string(),
  pid: z.number().int().optional(),
  busy: z.boolean(),
  cwd: z.string().optional(),
  shellIntegration: z.boolean(),
  /** The shell's kind (bash, zsh, fish, sh, pwsh, cmd, or the executable's name). */
  shell: z.string(),
  strategy: strategySchema,
  command: z.string().optional(),
  status: runStatusSchema.optional(),
  exitCode: z.number().int().optional(),
  /** The agent session whose call started that command, when its client named one. */
  agentSession: agentSessionSchema.optional(),
});
export type TerminalInfo = z.infer<typeof terminalInfoSchema>;

export const listResultSchema = z.object({ terminals: z.array(terminalInfoSchema) });
export type ListResult = z.infer<typeof listResultSchema>;
