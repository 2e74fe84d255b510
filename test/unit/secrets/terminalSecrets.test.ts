/**
 * A terminal's own secret-named variables: a real child process stands in for the terminal's shell,
 * its environment holding tokens the test process's does not; read from /proc/<pid>/environ, they
 * are redacted from that terminal's results and its run log file on disk, and from no other's.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { silentLogger } from '../../../common/src/logger';
import { LedgerStore } from '../../../extension/src/core/ledger/ledgerStore';
import { createRunOutputFactory } from '../../../extension/src/core/output/runOutputFactory';
import { marker } from '../../../extension/src/core/secrets/redaction';
import { secretEntries, TerminalSecrets } from '../../../extension/src/core/secrets/terminalSecrets';
import { TempDirs } from '../../support/tempDirs';
import { FakeTerminalHost } from '../terminals/fakeTerminalHost';
import { fakeTerminalService } from '../service/serviceSupport';
import { testSettings } from '../service/terminalServiceSupport';
import { sampleEvent } from '../ledger/storeSupport';

const GITHUB = `ghp_${'Tv7'.repeat(12)}`;
/** No token format: only the terminal's environment says it is a secret. */
const DEPLOY = 'plain-deploy-value-4242';

describe('TerminalSecrets: the terminal’s own environment', () => {
  const dirs = new TempDirs();
  let child: ChildProcess | undefined;
  afterEach(() => {
    // The whole group: the bash test's own child (sleep) too.
    if (child?.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    child = undefined;
    dirs.cleanup();
  });

  /** A process whose environment holds the secrets (the test process's does not). */
  async function shellWithSecrets(): Promise<number> {
    assert.equal(process.env.DEPLOY_TOKEN, undefined);
    child = spawn('sleep', ['30'], { env: { PATH: process.env.PATH, GITHUB_TOKEN: GITHUB, DEPLOY_TOKEN: DEPLOY, HOME_DIR: '/home/dev-user' }, stdio: 'ignore', detached: true });
    await new Promise((resolve, reject) => child!.once('spawn', resolve).once('error', reject));
    return child.pid!;
  }

  it('keeps the secret-named entries of an environ block (values under 6 characters are left)', () => {
    assert.deepEqual(secretEntries(`PATH=/bin\0API_KEY=abcdef123\0SHORT_TOKEN=abc\0PUBLIC_KEY=not-a-secret\0=odd\0`), { API_KEY: 'abcdef123' });
  });

  it('reads the shell’s /proc environ on Linux: its values are redacted for that terminal only', async function () {
    if (process.platform !== 'linux') this.skip();
    const pid = await shellWithSecrets();
    const secrets = new TerminalSecrets();
    const line = `deploying with ${DEPLOY}`;
    assert.equal(secrets.redactor('t', testSettings).redact(line).text, line, 'unknown before the terminal is read');
    await secrets.refresh('t', pid);
    assert.deepEqual(secrets.valuesOf('t'), { GITHUB_TOKEN: GITHUB, DEPLOY_TOKEN: DEPLOY });
    assert.deepEqual(secrets.redactor('t', testSettings).redact(line), { text: `deploying with ${marker('value of DEPLOY_TOKEN')}`, count: 1 });
    assert.equal(secrets.redactor('other', testSettings).redact(line).text, line, 'another terminal’s output is not touched');
    assert.equal(secrets.redactor('t', { ...testSettings, redactSecrets: false }).redact(line).text, line, 'the setting off');
  });

  it('a variable the shell exported itself (its rc) is read from the processes it runs', async function () {
    if (process.platform !== 'linux') this.skip();
    const exported = 'rc-exported-value-777';
    child = spawn('bash', ['-c', `export RC_API_KEY=${exported}; sleep 30 & wait`], { env: { PATH: process.env.PATH }, stdio: 'ignore', detached: true });
    const shellPid = child.pid!;
    const secrets = new TerminalSecrets();
    // The shell's own environ never shows what it exported later; its child's does, once it runs.
    for (let i = 0; i < 50 && secrets.valuesOf('t').RC_API_KEY === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await secrets.refresh('t', shellPid);
    }
    assert.deepEqual(secrets.valuesOf('t'), { RC_API_KEY: exported });
    assert.equal(secrets.redactor('t', testSettings).redact(`key ${exported}`).text, `key ${marker('value of RC_API_KEY')}`);
  });

  it('elsewhere (no /proc) the configured env is read', async () => {
    const secrets = new TerminalSecrets({ platform: 'darwin', configuredEnv: () => ({ DEPLOY_TOKEN: DEPLOY, EDITOR: 'vim-editor' }) });
    await secrets.refresh('t', process.pid);
    assert.deepEqual(secrets.valuesOf('t'), { DEPLOY_TOKEN: DEPLOY });
  });

  it("a terminal-only secret in a command line never reaches the process log or active-processes.json on disk (the real LedgerStore), after its terminal closed too", async function () {
    if (process.platform !== 'linux') this.skip();
    const pid = await shellWithSecrets();
    const secrets = new TerminalSecrets();
    await secrets.refresh('t', pid);
    const dir = dirs.make('terminal-secrets-ledger-');
    const store = new LedgerStore({ dir, redact: () => (text) => secrets.anyTerminal(testSettings).redact(text).text });
    await store.init();
    const cmd = `./deploy --token ${DEPLOY}`;
    await store.append([{ ...sampleEvent(1), cmd }]);
    await store.updateActive(() => ({ entries: [{ pid: 7, startTime: '7@boot', startedAt: new Date(0).toISOString(), name: 'deploy', commandLine: cmd, parentPid: 1, terminalName: 't', ports: [], status: 'running', sessionId: 's', owner: { pid: 1, startTime: '1@boot' } }], result: undefined }));
    secrets.forget('t');
    await store.append([{ ...sampleEvent(2), cmd: `${cmd} --again` }]);
    const files = (folder: string): string[] => readdirSync(folder, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(folder, e.name)) : [path.join(folder, e.name)]));
    const disk = files(dir).map((file) => readFileSync(file, 'utf8')).join('\n');
    assert.ok(!disk.includes(DEPLOY), disk);
    assert.equal(disk.split(`--token ${marker('value of DEPLOY_TOKEN')}`).length - 1, 3, disk);
  });

  it('anyTerminal: the configured env before any terminal, then every terminal’s values, both kept when two terminals hold one name with different values', async () => {
    const a = 'first-terminal-value-1';
    const b = 'second-terminal-value-2';
    let configured = a;
    const both = new TerminalSecrets({ platform: 'darwin', configuredEnv: () => ({ DEPLOY_TOKEN: configured }) });
    // A command is checked and logged before its terminal exists.
    assert.equal(both.anyTerminal(testSettings).redact(`run ${a}`).text, `run ${marker('value of DEPLOY_TOKEN')}`);
    await both.refresh('one', undefined);
    configured = b;
    await both.refresh('two', undefined);
    const redacted = both.anyTerminal(testSettings).redact(`${a} ${b}`);
    assert.equal(redacted.count, 2);
    assert.match(redacted.text, /^‹redacted: value of (2_)?DEPLOY_TOKEN› ‹redacted: value of (2_)?DEPLOY_TOKEN›$/);
    assert.equal(both.anyTerminal({ ...testSettings, redactSecrets: false }).redact(a).text, a, 'the setting off');
  });

  it('a terminal whose shell holds the secrets: the result and the run log file on disk carry markers', async function () {
    if (process.platform !== 'linux') this.skip();
    const pid = await shellWithSecrets();
    const host = new FakeTerminalHost();
    host.nextPid = pid;
    const secrets = new TerminalSecrets();
    const settings = { ...testSettings, outputLimitChars: 200 };
    const service = fakeTerminalService(host, () => settings, dirs, {
      terminalSecrets: secrets,
      createOutput: createRunOutputFactory({ logsDir: dirs.make('terminal-secrets-logs-'), limitChars: () => settings.outputLimitChars, logger: silentLogger, redactor: (name) => secrets.redactor(name, settings) }),
    });
    try {
      const filler = Array.from({ length: 2000 }, (_, i) => `line ${i} of the build`).join('\r\n');
      host.onExecute = (execution) => execution.complete(`using ${DEPLOY}\r\n${filler}\r\nagain ${DEPLOY}\r\n`, 0);
      const result = await service.run({ command: 'make deploy' });
      assert.ok(result.outputFile, `the output was long enough for a log file: ${result.output.length} characters`);
      const onDisk = readFileSync(result.outputFile, 'utf8');
      assert.ok(!onDisk.includes(DEPLOY) && onDisk.includes(marker('value of DEPLOY_TOKEN')), onDisk.slice(0, 300));
      assert.ok(!JSON.stringify(result).includes(DEPLOY));
      assert.match(result.output, /again ‹redacted: value of DEPLOY_TOKEN›/);
    } finally {
      service.dispose();
      host.dispose();
    }
  });
});
