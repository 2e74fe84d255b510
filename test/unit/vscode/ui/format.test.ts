/** The words and numbers of the process UI. */
import assert from 'node:assert/strict';
import type { TrackedProcess } from '../../../../common/src/protocol';
import {
  countProcesses,
  describeKill,
  escapeMarkdown,
  flattenProcesses,
  formatAge,
  formatPorts,
  formatStartTime,
  listPhrases,
  markdownCodeBlock,
  processDescription,
  processPhrase,
} from '../../../../extension/src/vscode/ui/format';
import { proc } from './fixtures';

const T0 = Date.parse('2025-01-01T10:00:00.000Z');
const at = (ms: number): string => new Date(T0 - ms).toISOString();

describe('ui format', () => {
  it('formatAge: seconds, minutes, hours and days, compact', () => {
    assert.equal(formatAge(at(0), T0), '0s');
    assert.equal(formatAge(at(12_400), T0), '12s');
    assert.equal(formatAge(at(59_999), T0), '59s');
    assert.equal(formatAge(at(60_000), T0), '1m');
    assert.equal(formatAge(at(3 * 60_000 + 30_000), T0), '3m');
    assert.equal(formatAge(at(2 * 3_600_000), T0), '2h');
    assert.equal(formatAge(at(2 * 3_600_000 + 5 * 60_000), T0), '2h 5m');
    assert.equal(formatAge(at(3 * 86_400_000 + 4 * 3_600_000 + 59_000), T0), '3d 4h');
    assert.equal(formatAge(at(-5000), T0), '0s', 'clock skew: a start in the future');
    assert.equal(formatAge('not a date', T0), undefined);
  });

  it('formatPorts: sorted, each with a colon', () => {
    assert.equal(formatPorts([]), '');
    assert.equal(formatPorts([24678, 5173]), ':5173, :24678');
  });

  it('processDescription: pid, ports and age, leaving out what is unknown', () => {
    assert.equal(processDescription({ pid: 42, name: 'vite', ports: [5173], startedAt: at(180_000) }, T0), 'pid 42 · :5173 · 3m');
    assert.equal(processDescription({ pid: 42, name: 'sleep', ports: [], startedAt: '' }, T0), 'pid 42');
  });

  it('processDescription: what it costs after the age, joined as the other fields are', () => {
    const yes = { pid: 7, name: 'yes', ports: [], startedAt: at(12_000), cpuPercent: 96.4, rssBytes: 1.2 * 1024 ** 3 };
    assert.equal(processDescription(yes, T0), 'pid 7 · 12s · 96% CPU · 1.2 GB');
  });

  it('processPhrase and listPhrases name processes in sentences', () => {
    assert.equal(processPhrase({ pid: 7, name: 'python3', ports: [8000], startedAt: '' }), 'python3 (pid 7, :8000)');
    assert.equal(processPhrase({ pid: 7, name: '', ports: [], startedAt: '' }), 'process (pid 7)');
    const ps = [1, 2, 3, 4, 5].map((pid) => ({ pid, name: `p${pid}`, ports: [], startedAt: '' }));
    assert.equal(listPhrases(ps.slice(0, 1)), 'p1 (pid 1)');
    assert.equal(listPhrases(ps.slice(0, 2)), 'p1 (pid 1) and p2 (pid 2)');
    assert.equal(listPhrases(ps.slice(0, 3)), 'p1 (pid 1), p2 (pid 2) and p3 (pid 3)');
    assert.equal(listPhrases(ps), 'p1 (pid 1), p2 (pid 2), p3 (pid 3) and 2 more');
  });

  it('countProcesses: singular and plural', () => {
    assert.equal(countProcesses(1), '1 process');
    assert.equal(countProcesses(0, 'running'), '0 running processes');
    assert.equal(countProcesses(2, 'orphaned'), '2 orphaned processes');
  });

  it('flattenProcesses: parents before children, each pid once', () => {
    const tree: TrackedProcess = proc(1, { children: [proc(2, { children: [proc(3)] }), proc(4)] });
    assert.deepEqual(flattenProcesses([tree, proc(3)]).map((p) => p.pid), [1, 2, 3, 4]);
  });

  it('describeKill: names what died and what did not', () => {
    const known = [proc(10, { name: 'python3', ports: [8000] }), proc(11, { name: 'sleep' })];
    assert.deepEqual(describeKill({ killed: [10, 11], failed: [] }, known), {
      message: 'Killed python3 (pid 10, :8000) and sleep (pid 11).',
      partial: false,
    });
    const partial = describeKill({ killed: [10], failed: [11, 99] }, known);
    assert.equal(partial.partial, true);
    assert.equal(partial.message, 'Killed python3 (pid 10, :8000). Could not kill sleep (pid 11) and pid 99; see the log for why.');
    assert.match(describeKill({ killed: [], failed: [] }, known, 'orphaned processes').message, /orphaned processes had already exited/);
    const many = describeKill({ killed: [1, 2, 3, 4, 5, 6, 7], failed: [] }, []);
    assert.equal(many.message, 'Killed pid 1, pid 2, pid 3, pid 4, pid 5 and 2 more.');
  });

  it('escapeMarkdown keeps names from becoming markup or links', () => {
    assert.equal(escapeMarkdown('a_b*[x](y)'), 'a\\_b\\*\\[x\\]\\(y\\)');
    assert.equal(escapeMarkdown('plain name'), 'plain name');
  });

  it('markdownCodeBlock: a fence longer than any backtick run inside', () => {
    assert.equal(markdownCodeBlock('ls -la'), '```\nls -la\n```');
    assert.equal(markdownCodeBlock('echo ````x````'), '`````\necho ````x````\n`````');
  });

  it('formatStartTime: local date and time, or the input when it is no date', () => {
    assert.match(formatStartTime('2025-01-01T10:00:00.000Z'), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(formatStartTime('garbage'), 'garbage');
  });
});
