/**
 * Where the pictures of the README, the docs and the walkthrough go. A test run writes them under
 * test-results/screenshots/ (outside the tracked tree: `npm test` leaves it unchanged);
 * `npm run screenshots` runs the suites that take them with TS_UPDATE_SCREENSHOTS=1, which writes
 * them under media/ on purpose: media/screenshots/ (the README's and the docs', not shipped) and
 * media/walkthrough/ (the Getting Started walkthrough's, shipped in the .vsix).
 */
import path from 'node:path';
import { repoRoot } from './mcpClient';

export const UPDATE_SCREENSHOTS_ENV = 'TS_UPDATE_SCREENSHOTS';

function picture(folder: 'screenshots' | 'walkthrough', name: string): string {
  const updating = process.env[UPDATE_SCREENSHOTS_ENV] === '1';
  return updating ? path.join(repoRoot, 'media', folder, name) : path.join(repoRoot, 'test-results', 'screenshots', folder, name);
}

/** A picture of the README or the docs (media/screenshots/<name> when updating). */
export const readmeScreenshot = (name: string): string => picture('screenshots', name);

/** A walkthrough step's picture (media/walkthrough/<name> when updating); the README and the docs show them too. */
export const walkthroughPicture = (name: string): string => picture('walkthrough', name);
