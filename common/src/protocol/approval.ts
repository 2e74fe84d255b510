/** approval/ask: the extension asks the person through the MCP client (elicitation) during a request. */
import { z } from 'zod';

/** One way to approve: run once, or allow for a scope; declining is always possible besides. */
export const approvalChoiceSchema = z.object({ id: z.string().min(1).max(64), label: z.string().min(1).max(300) });
export type ApprovalChoiceInfo = z.infer<typeof approvalChoiceSchema>;

export const approvalAskParamsSchema = z
  .object({
    /** The elicitId of the request this question is for. */
    elicitId: z.string().min(1).max(64),
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
export type ApprovalAskParams = z.infer<typeof approvalAskParamsSchema>;

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
