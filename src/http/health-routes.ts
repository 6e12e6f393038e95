// The health routes the bindings serve when asked (`health: true`), without a key: `/healthz` answers
// while the process serves, `/readyz` what engine.readiness() says (503 naming the failing check).

import type { Engine } from '../types/index.js';
import type { ApiReply } from './exchange.js';
import { jsonReply } from './responses.js';

export const HEALTH_PATHS = ['/healthz', '/readyz'] as const;

export async function healthReply(engine: Engine, route: (typeof HEALTH_PATHS)[number]): Promise<ApiReply> {
  if (route === '/healthz') return jsonReply(200, { status: 'ok' });
  const { ready, checks } = await engine.readiness();
  return jsonReply(ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', checks });
}
