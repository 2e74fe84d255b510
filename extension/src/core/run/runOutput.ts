/** What a run needs from its output pipeline (implemented by core/output/outputCapture). */
export interface RunOutputSnapshot {
  readonly output: string;
  readonly truncated: boolean;
  readonly outputFile?: string;
}

export interface RunOutput {
  /** Raw terminal data as read from the execution stream. */
  write(chunk: string): void;
  /** Resolves once everything written so far is rendered. */
  flush(): Promise<void>;
  snapshot(): RunOutputSnapshot;
  /** The last `count` rendered lines including the live screen, oldest first. */
  lastLines(count: number): string[];
  readonly totalChars: number;
  onDidWrite(listener: () => void): { dispose(): void };
  close(): Promise<void>;
}
