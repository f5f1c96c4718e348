import type { HookRegistry } from '../hooks/registry.js';
import type { PurgeReport, VmgMemoryStore } from './store.js';

/**
 * Run retention when a session ends: on `session-end` with a payload
 * `{ sessionId }`, purge that session's `session` and `ephemeral` values.
 * A failed purge fails the event (the registry's default), so a runtime that
 * checks the run sees that retention did not happen. Returns the unregister function.
 */
export function registerRetentionHook(
  registry: Pick<HookRegistry, 'register'>,
  store: VmgMemoryStore,
  onPurged?: (report: PurgeReport) => void,
): () => void {
  return registry.register<{ sessionId?: string }>(
    'session-end',
    async (payload) => {
      const report = await store.endSession(payload?.sessionId ?? store.sessionId);
      onPurged?.(report);
    },
    { name: 'vmg-retention', priority: 0, timeoutMs: 30_000 },
  );
}
