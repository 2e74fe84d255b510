/**
 * The output streams of a run's executions, read into the run's output with backpressure, and
 * awaited (bounded) before the run completes so its result holds everything the shell sent.
 */
import type { RunOutput } from '../output/runOutput';

/** The subset of an execution a run consumes: its raw output stream. */
export interface ExecutionSource {
  read(): AsyncIterable<string>;
}

export class ExecutionDrains {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly output: Pick<RunOutput, 'write' | 'flush'>,
    private readonly onReadError: (error: unknown) => void,
  ) {}

  /** Starts reading an execution's stream; call synchronously after it was created or seen. */
  attach(execution: ExecutionSource): void {
    const drain = (async () => {
      try {
        for await (const chunk of execution.read()) {
          // Backpressure: a fast producer must not pile up unrendered data in memory.
          if (!this.output.write(chunk)) await this.output.flush();
        }
      } catch (error) {
        this.onReadError(error);
      }
    })();
    this.pending.add(drain);
    void drain.finally(() => this.pending.delete(drain));
  }

  /** Resolves once every stream attached so far has ended, or after `timeoutMs`. */
  async settle(timeoutMs: number): Promise<void> {
    if (this.pending.size === 0) return;
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.pending]),
      new Promise<void>((resolve) => {
        timeout = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timeout);
  }
}
