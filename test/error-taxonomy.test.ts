// Every error the package throws is a ParapetError with one of its codes:
// each public function and method of the core, tlog, skills, hooks and
// canonical JSON is called with arguments of every wrong kind, and whatever
// it throws must be one of the package's errors (a platform TypeError from
// reading a property of undefined is a crash the caller cannot switch on).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as core from '../src/index.js';
import * as tlog from '../src/tlog/index.js';
import * as skills from '../src/skills/index.js';
import * as hooks from '../src/hooks/index.js';
import * as ipi from '../src/ipi/index.js';
import { canonicalJson, canonicalJsonBytes } from '../src/canonical/jcs.js';
import { ParapetError } from '../src/bindings/errors.js';

const CODES = new Set([
  'invalid-type', 'invalid-length', 'invalid-value', 'not-initialized', 'init-failed', 'hasher-finished', 'destroyed',
  'state-version', 'store-damaged', 'core-mismatch', 'result-withheld',
]);

const junk = fc.constantFrom<unknown>(
  undefined, null, 0, -1, 1.5, NaN, 2 ** 60, '', 'x', 'a\nb', true, {}, [], [null], [1, 2], { files: 'x' }, { keys: 'oops' },
  new Uint8Array(0), new Uint8Array(3), new Uint8Array(32), new Map(), () => 1,
);

function check(call: () => unknown): void {
  let result: unknown;
  try {
    result = call();
  } catch (e) {
    if (!(e instanceof ParapetError)) throw new Error(`threw ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`);
    expect(CODES.has(e.code), e.code).toBe(true);
    return;
  }
  if (result instanceof Promise) result.catch(() => undefined);
}

async function checkAsync(call: () => unknown): Promise<void> {
  try {
    await call();
  } catch (e) {
    if (!(e instanceof ParapetError)) throw new Error(`rejected with ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`);
    expect(CODES.has(e.code), e.code).toBe(true);
  }
}

const isClass = (f: unknown) => typeof f === 'function' && /^class\b/.test(Function.prototype.toString.call(f));

// TypeScript-private methods: on the prototype, but not part of the typed API.
const PRIVATE = new Set(['subtreeHash', 'node', 'checkSize', 'checkIndex', 'live', 'ptr', 'slot', 'stage']);

function methodsOf(instance: object): string[] {
  const names = new Set<string>();
  for (let p = Object.getPrototypeOf(instance); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const n of Object.getOwnPropertyNames(p)) {
      if (n !== 'constructor' && !PRIVATE.has(n) && typeof (instance as Record<string, unknown>)[n] === 'function') names.add(n);
    }
  }
  return [...names];
}

beforeAll(() => skills.init());

describe('every thrown error is a ParapetError', () => {
  const modules = { core, tlog, skills, hooks, ipi, canonical: { canonicalJson, canonicalJsonBytes } };
  // Functions that run callers' code or reach the network take their arguments on trust of type only.
  const skip = new Set(['init', 'initSync', 'initEd25519', 'resolvePublishers', 'guardTool']);
  for (const [where, mod] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value !== 'function' || skip.has(name)) continue;
      it(`${where}.${name}`, () => {
        fc.assert(
          fc.property(fc.array(junk, { maxLength: 3 }), (args) => {
            if (isClass(value)) check(() => new (value as new (...a: unknown[]) => unknown)(...args));
            else check(() => (value as (...a: unknown[]) => unknown)(...args));
          }),
          { numRuns: 300 },
        );
      });
    }
  }

  it('resolvePublishers', async () => {
    await fc.assert(fc.asyncProperty(fc.array(junk, { maxLength: 2 }), (args) => checkAsync(() => (skills.resolvePublishers as (...a: unknown[]) => unknown)(...args))), { numRuns: 200 });
  });

  const k = () => tlog.noteKeysFromSeed('example.test/log', new Uint8Array(32).fill(1));
  const instances: Record<string, () => object> = {
    MerkleTree: () => new tlog.MerkleTree(),
    MemoryNodeStore: () => new tlog.MemoryNodeStore(),
    CheckpointWitness: () => new tlog.CheckpointWitness([tlog.parseVerifierKey(k().verifierKey)]),
    AuditLog: () => {
      const log = new tlog.AuditLog();
      log.append({ a: 1 });
      return log;
    },
    TrustRoot: () => new skills.TrustRoot({ keys: [], allow: ['a'] }),
    SkillRatchet: () => new skills.SkillRatchet(),
    HookRegistry: () => new hooks.HookRegistry(),
    RunningStats: () => new core.RunningStats(2),
    DiagonalGaussian: () => new core.DiagonalGaussian(2),
    Sha256Hasher: () => core.sha256.create(),
    LinearModel: () => new core.LinearModel(new Float32Array(16), 0),
    IpiDetector: () => new ipi.IpiDetector({ mode: 'warn', env: {} }),
    IpiSession: () => new ipi.IpiDetector({ mode: 'warn', env: {} }).session('s'),
  };
  for (const [name, make] of Object.entries(instances)) {
    it(`methods of ${name}`, () => {
      for (const method of methodsOf(make())) {
        fc.assert(
          fc.property(fc.array(junk, { maxLength: 3 }), (args) => {
            const instance = make() as Record<string, (...a: unknown[]) => unknown>;
            check(() => instance[method]!(...args));
          }),
          { numRuns: 100 },
        );
      }
    });
  }
});
