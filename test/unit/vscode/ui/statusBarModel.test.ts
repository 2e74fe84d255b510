/** The status bar item's texts. */
import assert from 'node:assert/strict';
import type { LedgerSummary } from '../../../../common/src/protocol';
import { sameModel, statusBarModel, TOOLTIP_MAX_LISTED } from '../../../../extension/src/vscode/ui/statusBarModel';

const NOW = Date.parse('2025-01-01T10:00:00.000Z');
const entry = (pid: number, over: Partial<LedgerSummary['running'][number]> = {}) => ({
  pid,
  name: `p${pid}`,
  terminalName: 'default',
  ports: [],
  startedAt: '2025-01-01T09:57:00.000Z',
  ...over,
});

describe('ui status bar model', () => {
  it('hidden while nothing is tracked', () => {
    const m = statusBarModel({ running: [], orphaned: [] }, NOW);
    assert.equal(m.visible, false);
    assert.equal(m.warning, false);
  });

  it('running only: the count, no warning', () => {
    const m = statusBarModel({ running: [entry(1, { name: 'python3', ports: [8000] }), entry(2)], orphaned: [] }, NOW);
    assert.equal(m.visible, true);
    assert.equal(m.text, '$(server-process) 2');
    assert.equal(m.warning, false);
    assert.equal(m.accessibilityLabel, 'Terminal Shepherd: 2 running processes');
    assert.match(m.tooltip, /\*\*python3\*\* pid 1 · :8000 · 3m in default/);
    assert.match(m.tooltip, /Click to show processes\.$/);
  });

  it('dev servers: counted with their URLs in the tooltip', () => {
    const server = { terminal: 'web', command: 'npm run dev', pid: 1, ports: [5173], urls: ['http://localhost:5173/'], startedAt: '2025-01-01T09:57:00.000Z', uptimeMs: 1, status: 'running' as const };
    const m = statusBarModel({ running: [entry(1, { name: 'node', ports: [5173] })], orphaned: [entry(9)] }, NOW, [server]);
    assert.equal(m.text, '$(server-process) 1  $(globe) 1  $(warning) 1');
    assert.equal(m.accessibilityLabel, 'Terminal Shepherd: 1 running process, 1 dev server, 1 orphaned process');
    assert.ok(m.tooltip.includes('Dev servers:\n\n- [http://localhost:5173/](http://localhost:5173/) · npm run dev in web\n'), m.tooltip);
  });

  it('orphans: both counts and the warning colours', () => {
    const m = statusBarModel({ running: [], orphaned: [entry(9, { name: 'sleep', terminalName: 'old' })] }, NOW);
    assert.equal(m.text, '$(server-process) 0  $(warning) 1');
    assert.equal(m.warning, true);
    assert.equal(m.visible, true);
    assert.match(m.tooltip, /Orphaned \(left by an earlier window\):/);
    assert.equal(m.accessibilityLabel, 'Terminal Shepherd: 0 running processes, 1 orphaned process');
  });

  it('the tooltip lists a bounded number of processes and counts the rest', () => {
    const running = Array.from({ length: TOOLTIP_MAX_LISTED + 3 }, (_, i) => entry(i + 1));
    const m = statusBarModel({ running, orphaned: [entry(99)] }, NOW);
    assert.equal((m.tooltip.match(/^- \*\*/gm) ?? []).length, TOOLTIP_MAX_LISTED);
    assert.match(m.tooltip, /… and 3 more/);
    assert.match(m.tooltip, /… and 1 more/, 'the orphan section is counted when the budget is spent');
  });

  it('escapes names so a process cannot inject markdown', () => {
    const m = statusBarModel({ running: [entry(1, { name: '[x](command:evil)' })], orphaned: [] }, NOW);
    assert.ok(!m.tooltip.includes('[x](command:evil)'), m.tooltip);
  });

  it('sameModel: an unchanged summary is not re-sent; a count, a tooltip age or the warning is', () => {
    const summary = { running: [entry(1)], orphaned: [] };
    assert.equal(sameModel(statusBarModel(summary, NOW), statusBarModel({ running: [entry(1)], orphaned: [] }, NOW)), true);
    assert.equal(sameModel(statusBarModel(summary, NOW), statusBarModel({ running: [entry(1), entry(2)], orphaned: [] }, NOW)), false);
    assert.equal(sameModel(statusBarModel(summary, NOW), statusBarModel(summary, NOW + 60 * 60_000)), false, 'ages move on in the tooltip');
    assert.equal(sameModel(statusBarModel(summary, NOW), statusBarModel({ running: [entry(1)], orphaned: [entry(3)] }, NOW)), false);
    assert.equal(sameModel(statusBarModel({ running: [], orphaned: [] }, NOW), statusBarModel({ running: [], orphaned: [] }, NOW + 1000)), true);
  });
});
