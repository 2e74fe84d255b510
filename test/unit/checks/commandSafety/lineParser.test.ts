/**
 * Where lines are parsed: the worker thread (as the extension parses) reads every corpus line as
 * the in-process parser does, bash and PowerShell; a pathological line comes back or fails within
 * the bound; a worker that does not answer within its bound is terminated, its line fails (the
 * decision asks unread), and the next line starts a new worker. A line read lately is not sent again.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { EMPTY_RULES, buildRules } from '../../../../extension/src/core/checks/commandSafety/autoApproveRules';
import { decideLine } from '../../../../extension/src/core/checks/commandSafety/decide';
import { WorkerParser, inProcessParser, type LineParser } from '../../../../extension/src/core/checks/commandSafety/lineParser';
import type { GrammarName } from '../../../../extension/src/core/checks/commandSafety/shellGrammars';
import { HARDENING_CORPUS } from '../../../fixtures/safety/hardeningCorpus';
import { PACKAGE_GRAMMARS, grammars, workerParser } from '../../../support/packageGrammars';
import { CORPUS } from './corpus';
import { HOME, defaultSafetySettings } from './fixtures';

const WORKER_SCRIPT = path.join(__dirname, '..', '..', '..', '..', 'extension', 'src', 'core', 'checks', 'commandSafety', 'parseWorker.ts');
const grammarOf = (shell: string): GrammarName => (shell === 'pwsh' ? 'powershell' : 'bash');

describe('command safety: the line parser (worker thread)', function () {
  this.timeout(60_000);
  let inProcess: LineParser;
  before(async () => {
    inProcess = inProcessParser(await grammars.load());
  });

  it('the worker reads every corpus line as the in-process parser does', async () => {
    const lines = [...CORPUS, ...HARDENING_CORPUS].filter((e) => e.line.length <= 10_000);
    const compare = async ({ line, shell }: (typeof lines)[number]): Promise<void> => {
      const [there, here] = await Promise.allSettled([workerParser.parse(grammarOf(shell), line), inProcess.parse(grammarOf(shell), line)]);
      // Either may run past the time bound on a loaded machine; any other outcome is the same.
      const timedOut = [there, here].some((r) => r.status === 'rejected' && /longer than the bound/.test(String(r.reason)));
      if (timedOut) return;
      assert.equal(there.status, here.status, line);
      if (there.status === 'fulfilled' && here.status === 'fulfilled') assert.deepEqual(there.value, here.value, line);
    };
    // Twenty at a time: they queue in the worker, as concurrent calls do.
    for (let i = 0; i < lines.length; i += 20) await Promise.all(lines.slice(i, i + 20).map(compare));
  });

  it('a line nested 99 deep comes back from the worker, read or failed, within the bound', async () => {
    const deep = `echo ${'$('.repeat(99)}ls${')'.repeat(99)}`;
    const outcome = await workerParser.parse('bash', deep).then(
      (parsed) => `read, ${parsed.commands.length} commands`,
      (error: Error) => error.message,
    );
    assert.match(outcome, /^read, \d+ commands$|longer than the bound|more than 64 commands/);
  });

  it('a line read again comes from the lines read lately, not from the worker; the oldest of 64 gives way', async () => {
    const first = await workerParser.parse('bash', 'git status --short');
    // The worker's answer is a fresh copy every time: the same object is the kept one.
    assert.equal(await workerParser.parse('bash', 'git status --short'), first);
    assert.notEqual(await workerParser.parse('powershell', 'git status --short'), first);
    for (let i = 0; i < 64; i++) await workerParser.parse('bash', `echo recent-${i}`);
    const again = await workerParser.parse('bash', 'git status --short');
    assert.notEqual(again, first);
    assert.deepEqual(again, first);
  });

  it('a worker past its bound is terminated, the line asks unread, and the next line starts a new worker', async () => {
    // A bound of 1 ms and a line of 4,800 words, which takes the worker several milliseconds to read.
    const hurried = new WorkerParser({ script: WORKER_SCRIPT, grammars: PACKAGE_GRAMMARS, execArgv: ['--require', 'tsx/cjs'], boundMs: 1 });
    const long = `echo ${'a b '.repeat(2_400)}`;
    try {
      const firstLoadMs = await hurried.start();
      await assert.rejects(hurried.parse('bash', long), /longer than 1 ms/);
      const settings = defaultSafetySettings('/ws');
      const decision = await decideLine({ line: long, powershell: false, cwd: '/ws' }, { parser: hurried, settings, rules: buildRules({}, false), session: { rules: EMPTY_RULES, allowAll: false }, home: HOME });
      assert.equal(decision.approved, false);
      assert.match(decision.reason, /asks unread, whatever the settings: reading it took longer than 1 ms/);
      // Each of those lines ended its worker; start() loads the grammars in a new one (a load of its own).
      assert.notEqual(await hurried.start(), firstLoadMs);
    } finally {
      hurried.dispose();
    }
  });
});
