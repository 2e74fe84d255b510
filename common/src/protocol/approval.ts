/** approval/ask: the extension asks the person through the MCP client (elicitation), about a request's command or its run's prompt for a secret. */
import { z } from 'zod';

/** One way to approve: run once, or allow for a scope; declining is always possible besides. */
export const approvalChoiceSchema = z.object({ id: z.string().min(1).max(64), label: z.string().min(1).max(300) });
export type ApprovalChoiceInfo = z.infer<typeof approvalChoiceSchema>;

/** Whether a command may run (the safety check asks). */
export const commandQuestionSchema = z
  .object({
    /** The elicitId of the request this question is for. */
    elicitId: z.string().min(1).max(64),
    /** Absent in questions from before the secret-prompt kind: the same question. */
    kind: z.literal('command').optional(),
    command: z.string(),
    terminal: z.string(),
    shell: z.string(),
    cwd: z.string().optional(),
    /** Why it asks: the rule or check that decided. */
    reasons: z.array(z.string()),
    choices: z.array(approvalChoiceSchema).min(1),
    /** The line is on the floor (always asks). */
    floor: z.boolean(),
    /** How long the extension waits for the answer; the MCP server gives the client as long. */
    timeoutMs: z.number().int().positive(),
  })
  .strict();

/**
 * A run waits at a prompt for a secret that only the person may type: focus the terminal or cancel
 * the command. Asked beside the result (the request may have ended when the answer comes).
 */
export const secretPromptQuestionSchema = z
  .object({
    elicitId: z.string().min(1).max(64),
    kind: z.literal('secretPrompt'),
    command: z.string(),
    terminal: z.string(),
    /** The prompt line, as the terminal shows it. */
    prompt: z.string(),
    choices: z.array(approvalChoiceSchema).min(1),
    timeoutMs: z.number().int().positive(),
  })
  .strict();

export const approvalAskParamsSchema = z.union([commandQuestionSchema, secretPromptQuestionSchema]);
export type ApprovalAskParams = z.infer<typeof approvalAskParamsSchema>;
/** A question as the extension asks it (the bridge adds the request's elicitId). */
export type ApprovalQuestionParams = Omit<z.infer<typeof commandQuestionSchema>, 'elicitId'> | Omit<z.infer<typeof secretPromptQuestionSchema>, 'elicitId'>;

export const approvalAskResultSchema = z.object({
  answer: z.enum(['approved', 'declined', 'unanswered']),
  /** With `approved`: the id of the choice taken. */
  choice: z.string().optional(),
});
export type ApprovalAskResult = z.infer<typeof approvalAskResultSchema>;

/** Requests the extension sends to the MCP server (the other direction of the same connection). */
export const serverRequests = {
  approvalAsk: { name: 'approval/ask', params: approvalAskParamsSchema, result: approvalAskResultSchema },
} as const;
