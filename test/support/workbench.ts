/**
 * The workbench as a person uses it, for the UI suites: the command palette and quick picks,
 * notifications, Terminal Shepherd's Processes view in the side bar.
 */
import type { Locator, Page } from 'playwright-core';

export const quickInput = (page: Page): Locator => page.locator('.quick-input-widget');
export const pickRow = (page: Page, text: string): Locator => page.locator(`.quick-input-list .monaco-list-row[aria-label*="${text}"]`);

/** F1, type the command's title, click it in the list: what a user does. */
export async function runFromPalette(page: Page, title: string): Promise<void> {
  await page.keyboard.press('Escape'); // nothing else open on top
  await page.keyboard.press('F1');
  const input = quickInput(page).locator('input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${title}`);
  await pickRow(page, title).first().click({ timeout: 10_000 });
}

/** The aria-labels of the open pick's rows (label, description, detail, separator of each). */
export async function pickRows(page: Page): Promise<string[]> {
  return page.locator('.quick-input-list .monaco-list-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
}

/** Rows of the Processes view: [aria-level, aria-label]. */
export async function viewRows(page: Page): Promise<Array<[number, string]>> {
  const view = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header[aria-label^="Processes"]') });
  return view
    .locator('.monaco-list-row[role="treeitem"]')
    .evaluateAll((rows) => rows.map((r) => [Number(r.getAttribute('aria-level')), r.getAttribute('aria-label') ?? ''] as [number, string]));
}

export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.notifications-toasts .notification-toast').filter({ hasText: text });
}

/** Clicks Terminal Shepherd's icon in the activity bar, unless its view is showing already (a click would hide it). */
export async function openProcessesView(page: Page): Promise<void> {
  if (await page.locator('.part.sidebar[data-active-composite="workbench.view.extension.terminalShepherd"]').isVisible()) return;
  await page.locator('.activitybar .action-item', { has: page.locator('a[aria-label^="Terminal Shepherd"]') }).click(); // its badge may sit on top: click the item
}

/** Drags the side bar's edge to the right, so the screenshots show whole rows. */
export async function widenSideBar(page: Page, by = 160): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box) return;
  const x = box.x + box.width + 1;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + by, y, { steps: 8 });
  await page.mouse.up();
}
