/**
 * Where the README's pictures go. A test run writes them to test-results/screenshots/ (outside the
 * tracked tree: `npm test` leaves it unchanged); `npm run screenshots` runs the suites that take
 * them with TS_UPDATE_SCREENSHOTS=1, which writes them to media/screenshots/ on purpose.
 */
import path from 'node:path';
import { repoRoot } from './mcpClient';

export const UPDATE_SCREENSHOTS_ENV = 'TS_UPDATE_SCREENSHOTS';

export function readmeScreenshot(name: string): string {
  const dir = process.env[UPDATE_SCREENSHOTS_ENV] === '1' ? path.join(repoRoot, 'media', 'screenshots') : path.join(repoRoot, 'test-results', 'screenshots');
  return path.join(dir, name);
}
