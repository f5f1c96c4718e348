import { describe, expect, it } from 'vitest';
import { HookRegistry } from '../src/hooks/index.js';
import { init, registerRetentionHook, VmgMemoryStore } from '../src/vmg/index.js';
import { ParapetRangeError, ParapetTypeError } from '../src/bindings/errors.js';
import { expectThrows } from './helpers/errors.js';

await init();

describe('HookRegistry', () => {
  it('runs handlers by priority (higher first, then registration order) and stops at a veto', async () => {
    const r = new HookRegistry();
    const seen: string[] = [];
    r.register('pre-tool-call', () => void seen.push('low'), { name: 'low', priority: 1 });
    r.register('pre-tool-call', () => void seen.push('gate'), { name: 'gate', priority: 100 });
    r.register('pre-tool-call', () => void seen.push('mid-a'), { name: 'mid-a', priority: 50 });
    r.register('pre-tool-call', () => void seen.push('mid-b'), { name: 'mid-b', priority: 50 });
    expect(r.handlers('pre-tool-call')).toEqual(['gate', 'mid-a', 'mid-b', 'low']);
    const run = await r.run('pre-tool-call', {});
    expect(run.vetoed).toBe(false);
    expect(seen).toEqual(['gate', 'mid-a', 'mid-b', 'low']);
    r.register('pre-tool-call', async () => ({ veto: true, reason: 'injection' }), { name: 'veto', priority: 60 });
    seen.length = 0;
    const vetoed = await r.run('pre-tool-call', {});
    expect(vetoed).toMatchObject({ vetoed: true, vetoedBy: 'veto', reason: 'injection' });
    expect(seen).toEqual(['gate']);
  });

  it('fails closed on a throw or a timeout unless the handler opts out, and aborts a timed-out handler', async () => {
    const r = new HookRegistry();
    let aborted = false;
    r.register('post-tool-call', () => { throw new Error('boom'); }, { name: 'thrower', onFailure: 'continue', priority: 2 });
    r.register('post-tool-call', (_p, ctx) => new Promise(() => ctx.signal.addEventListener('abort', () => (aborted = true))), { name: 'slow', timeoutMs: 20, priority: 1 });
    const run = await r.run('post-tool-call', {});
    expect(run.handlers.map((h) => [h.name, h.outcome])).toEqual([['thrower', 'error'], ['slow', 'timeout']]);
    expect(run).toMatchObject({ vetoed: true, vetoedBy: 'slow' });
    expect(aborted).toBe(true);
  });

  it('unregisters, and refuses unknown events and bad options', async () => {
    const r = new HookRegistry();
    const off = r.register('pre-tool-call', () => ({ veto: true, reason: 'no' }));
    off();
    expect((await r.run('pre-tool-call', {})).vetoed).toBe(false);
    expectThrows(() => r.register('on-click' as 'pre-tool-call', () => undefined), ParapetRangeError, 'invalid-value');
    expectThrows(() => r.register('pre-tool-call', 'x' as unknown as () => void), ParapetTypeError, 'invalid-type');
    expectThrows(() => r.register('pre-tool-call', () => undefined, { timeoutMs: 0 }), ParapetRangeError, 'invalid-value');
  });

  it('refuses a handler for memory writes: nothing fires that event, so its veto would gate nothing', () => {
    const r = new HookRegistry();
    expectThrows(() => r.register('memory-write' as 'pre-tool-call', () => ({ veto: true, reason: 'no' })), ParapetRangeError, 'invalid-value');
  });
});

describe('registerRetentionHook', () => {
  it('purges a session when session-end fires', async () => {
    const r = new HookRegistry();
    const store = await VmgMemoryStore.open({ agentId: 'a', sessionId: 's1' });
    await store.put('scratch', 1, { policyTag: 'session' });
    await store.put('keep', 2, { policyTag: 'persistent' });
    const reports: unknown[] = [];
    registerRetentionHook(r, store, (rep) => reports.push(rep));
    const run = await r.run('session-end', { sessionId: 's1' });
    expect(run.vetoed).toBe(false);
    expect(reports).toMatchObject([{ sessionId: 's1', purged: [{ key: 'scratch' }] }]);
    expect(await store.get('scratch')).toBeUndefined();
    expect((await store.get('keep'))!.record.value).toBe(2);
  });
});
