import assert from 'node:assert/strict';
import { sandboxDenials } from '../../../extension/src/core/sandbox/sandboxDenials';

describe('sandbox denials (from the output)', () => {
  it('names the paths of "Read-only file system" and "Operation not permitted" lines, as bash, coreutils and Node print them', () => {
    const output = [
      "bash: line 1: /tmp/outside/a.txt: Read-only file system",
      "touch: cannot touch '/home/ann/.bashrc': Read-only file system",
      "Error: EROFS: read-only file system, open '/etc/hosts'",
      'cat: /home/ann/.ssh/id_rsa: Operation not permitted',
      "Error: EPERM: operation not permitted, open '/srv/x'",
      'ok: nothing here',
    ].join('\n');
    assert.deepEqual(sandboxDenials(output, false), { paths: ['/tmp/outside/a.txt', '/home/ann/.bashrc', '/etc/hosts', '/home/ann/.ssh/id_rsa', '/srv/x'], network: false, hosts: [] });
  });

  it("reads the runtime's own report", () => {
    const output = 'done\n[sandbox] denied:\n<sandbox_violations>\ndeny openat /dev/console\ndeny openat /tmp/outside/b\ndeny network example.com:443\n</sandbox_violations>';
    assert.deepEqual(sandboxDenials(output, true), { paths: ['/tmp/outside/b'], network: true, hosts: ['example.com:443'] });
  });

  it('takes a refused connection as a network denial only when the network was closed', () => {
    const output = "curl: (6) Could not resolve host: registry.npmjs.org\ncurl: (7) Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server";
    assert.deepEqual(sandboxDenials(output, true), { paths: [], network: true, hosts: ['registry.npmjs.org', '127.0.0.1'] });
    assert.equal(sandboxDenials(output, false), undefined);
  });

  it('finds nothing in ordinary output', () => {
    assert.equal(sandboxDenials('total 4\n-rw-r--r-- 1 ann ann 0 a.txt\nPermission denied (publickey).', true), undefined);
  });
});
