interface TaskLogger {
  warn(obj: object, msg?: string): void;
}

/**
 * Work run at start and then every `everyMs` (a sweeper): never two runs at once (a tick while one runs is skipped),
 * a failed run is logged and the next tick tries again, the timer keeps no process alive, and `stop` waits for the
 * run in progress.
 */
export class IntervalTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    readonly name: string,
    private readonly everyMs: number,
    private readonly work: () => Promise<unknown>,
    private readonly logger: TaskLogger,
  ) {}

  /** Runs once now, then on the timer. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runNow(), this.everyMs);
    this.timer.unref();
    void this.runNow();
  }

  /** Runs now unless a run is in progress; resolves when that run (or the one in progress) is over. Never rejects. */
  runNow(): Promise<void> {
    this.running ??= Promise.resolve()
      .then(this.work)
      .then(
        () => undefined,
        (error: unknown) => this.logger.warn({ err: error, task: this.name }, `${this.name} failed; will try again`),
      )
      .finally(() => (this.running = null));
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
