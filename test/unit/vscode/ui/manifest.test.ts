/**
 * The manifest's UI contributions agree with the code: every command the UI registers is
 * contributed with the category, menu-only ones are hidden from the palette, menus name real
 * commands, context values and keys, and the view's icon ships.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { COMMANDS, CONTEXT_KEYS, CONTEXT_VALUES, MENU_ONLY_COMMANDS, PROCESSES_VIEW_ID, VIEW_CONTAINER_ID } from '../../../../extension/src/vscode/ui/ids';

const root = path.resolve(__dirname, '..', '..', '..', '..');
interface MenuEntry { command: string; when?: string; group?: string }
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: {
    commands: Array<{ command: string; title: string; category?: string; icon?: string }>;
    viewsContainers: { activitybar: Array<{ id: string; title: string; icon: string }> };
    views: Record<string, Array<{ id: string; name: string; icon?: string }>>;
    viewsWelcome: Array<{ view: string; contents: string }>;
    menus: Record<string, MenuEntry[]>;
  };
};
const c = manifest.contributes;

describe('ui manifest contributions', () => {
  it('contributes every UI command with the Terminal Shepherd category and an icon', () => {
    for (const id of Object.values(COMMANDS)) {
      const cmd = c.commands.find((x) => x.command === id);
      assert.ok(cmd, `${id} is contributed`);
      assert.equal(cmd.category, 'Terminal Shepherd', id);
      assert.match(cmd.icon ?? '', /^\$\([a-z-]+\)$/, `${id} has a codicon for menus`);
      assert.match(id, /^terminalShepherd\.[a-z]+[A-Z][A-Za-z]*$/, `${id} is terminalShepherd.verbNoun`);
    }
  });

  it('hides exactly the menu-only commands from the palette', () => {
    const hidden = c.menus.commandPalette.filter((m) => m.when === 'false').map((m) => m.command).sort();
    assert.deepEqual(hidden, [...MENU_ONLY_COMMANDS].sort());
  });

  it('menus name contributed commands, known context values and keys', () => {
    const ids = new Set(c.commands.map((x) => x.command));
    const values = new Set<string>(Object.values(CONTEXT_VALUES));
    for (const [menu, entries] of Object.entries(c.menus)) {
      for (const e of entries) {
        assert.ok(ids.has(e.command), `${menu}: ${e.command}`);
        for (const [, v] of (e.when ?? '').matchAll(/viewItem == (\w+)/g)) assert.ok(values.has(v!), `${menu}: unknown viewItem ${v}`);
        for (const [, v] of (e.when ?? '').matchAll(/view == ([\w.]+)/g)) assert.equal(v, PROCESSES_VIEW_ID, `${menu}: ${e.when}`);
      }
    }
    const killOrphansTitle = c.menus['view/title']!.find((m) => m.command === COMMANDS.killOrphans);
    assert.match(killOrphansTitle?.when ?? '', new RegExp(CONTEXT_KEYS.hasOrphans.replace('.', '\\.')));
  });

  it('the Processes view lives in its own activity bar container with a shipped monochrome SVG icon and a welcome', () => {
    const container = c.viewsContainers.activitybar.find((x) => x.id === VIEW_CONTAINER_ID);
    assert.ok(container);
    const view = c.views[VIEW_CONTAINER_ID]?.find((v) => v.id === PROCESSES_VIEW_ID);
    assert.equal(view?.name, 'Processes');
    for (const icon of [container.icon, view?.icon ?? '']) {
      assert.match(icon, /^media\/.+\.svg$/);
      const svg = readFileSync(path.join(root, icon), 'utf8');
      const colours = new Set([...svg.matchAll(/(?:fill|stroke)="([^"]+)"/g)].map((m) => m[1]).filter((v) => v !== 'none'));
      assert.deepEqual([...colours], ['currentColor'], `${icon} is monochrome`);
    }
    assert.ok(existsSync(path.join(root, 'media', 'icon.png')));
    const welcome = c.viewsWelcome.find((w) => w.view === PROCESSES_VIEW_ID);
    assert.match(welcome?.contents ?? '', /command:terminalShepherd\.showLog/);
  });
});
