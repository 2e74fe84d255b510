/** terminal_run's task store on its own: which tasks are followed, a direct result read once, a cancel or a vanished follower ending the wait. */
import assert from 'node:assert/strict';
import type { Request } from '@modelcontextprotocol/sdk/types.js';
import { RunTaskStore } from '../../../../../mcp-server/src/tools/support/runTaskStore';

const asTask: Request = { method: 'tools/call', params: { name: 'terminal_run', arguments: {}, task: {} } };
const direct: Request = { method: 'tools/call', params: { name: 'terminal_run', arguments: {} } };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('the MCP task store of terminal_run', () => {
  it('knows a followed task from the request; a direct call\'s result is read once, then forgotten', async () => {
    const store = new RunTaskStore();
    try {
      const followed = await store.createTask({ ttl: 60_000 }, 1, asTask);
      const inline = await store.createTask({}, 2, direct);
      assert.deepEqual([store.followed(followed.taskId), store.followed(inline.taskId)], [true, false]);
      assert.deepEqual([followed.status, followed.pollInterval, followed.ttl], ['working', 1000, 60_000]);
      await store.storeTaskResult(inline.taskId, 'completed', { content: [] });
      assert.deepEqual(await store.getTaskResult(inline.taskId), { content: [] });
      assert.equal(await store.getTask(inline.taskId), null);
      assert.deepEqual((await store.listTasks()).tasks.map((t) => t.taskId), [followed.taskId], 'only followed tasks are listed');
      await store.storeTaskResult(followed.taskId, 'completed', { content: [] });
      assert.deepEqual(await store.getTaskResult(followed.taskId), { content: [] });
      assert.equal((await store.getTask(followed.taskId))?.status, 'completed', 'a followed result stays for its ttl');
    } finally {
      store.dispose();
    }
  });

  it('a cancel aborts its wait; a store that closes aborts every wait', async () => {
    const store = new RunTaskStore();
    const a = await store.createTask({}, 1, asTask);
    const b = await store.createTask({}, 2, asTask);
    await store.updateTaskStatus(a.taskId, 'cancelled', 'Client cancelled task execution.');
    assert.equal(store.signal(a.taskId).aborted, true);
    assert.equal(store.signal(b.taskId).aborted, false);
    await assert.rejects(store.storeTaskResult(a.taskId, 'completed', { content: [] }), /already ended \(cancelled\)/);
    const signal = store.signal(b.taskId);
    store.dispose();
    assert.equal(signal.aborted, true);
  });

  it('a followed task its follower stopped looking at stops waiting; one still looked at does not', async () => {
    const store = new RunTaskStore({ followerGoneMs: 150 });
    try {
      const watched = await store.createTask({}, 1, asTask);
      const left = await store.createTask({}, 2, asTask);
      for (let i = 0; i < 8; i++) {
        await sleep(50);
        await store.getTask(watched.taskId);
      }
      assert.equal(store.signal(left.taskId).aborted, true);
      assert.equal(store.signal(watched.taskId).aborted, false);
    } finally {
      store.dispose();
    }
  });
});
