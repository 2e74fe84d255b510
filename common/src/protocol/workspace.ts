/** workspace/info: the stacks the workspace uses and the dev servers running now. */
import { z } from 'zod';
import { devServerSchema } from './runResult';

export const devCommandSchema = z.object({
  /** The command line to run, e.g. `npm run dev`. */
  command: z.string(),
  /** Where to run it, relative to the workspace folder ("." for the folder itself). */
  cwd: z.string(),
  /** Where it comes from, e.g. `package.json script "dev": vite`. */
  source: z.string(),
});
export type DevCommand = z.infer<typeof devCommandSchema>;

export const projectInfoSchema = z.object({
  /** Relative to the workspace folder ("." for the folder itself). */
  path: z.string(),
  stacks: z.array(z.string()),
  /** npm, pnpm, yarn or bun, from the lockfile (or package.json's packageManager). */
  packageManager: z.string().optional(),
  devCommands: z.array(devCommandSchema),
});
export type ProjectInfo = z.infer<typeof projectInfoSchema>;

/** What workspace/info reports of the workspace: its stacks and the processes they run, the projects found and their dev-server commands. */
export const workspaceAnalysisSchema = z.object({
  detectedStacks: z.array(z.string()),
  projectRoot: z.string(),
  expectedProcesses: z.array(z.string()),
  projects: z.array(projectInfoSchema),
  devCommands: z.array(devCommandSchema),
  /** The scan stopped at its bounds (depth, folders or time): nested projects deeper down may be missing. */
  truncated: z.boolean(),
  /** When this analysis was made (ISO 8601) and how long the scan took. */
  analyzedAt: z.string(),
  scanMs: z.number().nonnegative(),
});
export type WorkspaceAnalysis = z.infer<typeof workspaceAnalysisSchema>;

export const workspaceInfoResultSchema = z.object({
  /** Absent when no folder is open. */
  analysis: workspaceAnalysisSchema.optional(),
  servers: z.array(devServerSchema),
});
export type WorkspaceInfoResult = z.infer<typeof workspaceInfoResultSchema>;
