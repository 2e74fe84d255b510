/** Temporary directories that tests make, and remove again. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Fresh temp dirs; `cleanup()` removes them all (from an after hook, or at exit). */
export class TempDirs {
  private readonly dirs: string[] = [];

  make(prefix = 'tshep-test-'): string {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  cleanup(): void {
    for (const dir of this.dirs.splice(0)) {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/**
 * Workspaces of the integration and end-to-end helpers, removed when the test process exits (a
 * window's logs are copied to test-results/ when its test fails; TS_KEEP_VSCODE_ARTIFACTS=1 keeps
 * the workspaces too).
 */
export const workspaceDirs = new TempDirs();
process.once('exit', () => {
  if (process.env.TS_KEEP_VSCODE_ARTIFACTS !== '1') workspaceDirs.cleanup();
});
