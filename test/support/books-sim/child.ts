// A second instance on the same books, in its own process, so the simulation can SIGKILL it mid-call:
// argv[2] is JSON { storage, origin }; it prints "ready" once its books are open, then runs each call
// read from stdin (one JSON SimCall per line, concurrently) and prints one JSON line { n, answer } per
// answer. At the end of stdin it lets its calls finish, closes the engine and exits.

import { createInterface } from 'node:readline';
import { runCall, type SimCall, type SimStorage, simEngine } from './world.js';

const { storage, origin } = JSON.parse(process.argv[2]!) as { storage: SimStorage; origin: string };
const engine = simEngine(storage, origin);
// Opening the books (for SQLite: a new session, which releases the holds of dead ones), retried while a
// fault the simulation injects keeps PostgreSQL away, as a process manager's restart would be.
for (let attempt = 0; ; attempt++) {
  try {
    await engine.admin.listOrganizations();
    break;
  } catch (error) {
    if (attempt >= 300) throw error;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
process.stdout.write('ready\n');

const running = new Set<Promise<void>>();
for await (const line of createInterface({ input: process.stdin })) {
  if (!line) continue;
  const call = JSON.parse(line) as SimCall;
  const done = runCall(engine, call).then((answer) => {
    process.stdout.write(`${JSON.stringify({ n: call.n, answer })}\n`);
  });
  running.add(done);
  void done.finally(() => running.delete(done));
}
await Promise.all(running);
await engine.close();
process.exit(0);
