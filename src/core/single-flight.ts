// Runs tasks sharing a key one after another (per process), so that identical requests of one
// organization don't race past each other's repeat window.

export class SingleFlight {
  readonly #running = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    for (let prior = this.#running.get(key); prior; prior = this.#running.get(key)) {
      await prior.then(
        () => undefined,
        () => undefined,
      );
    }
    const current = task();
    this.#running.set(key, current);
    try {
      return await current;
    } finally {
      if (this.#running.get(key) === current) this.#running.delete(key);
    }
  }
}
