import { Arena } from './arena.js';
import { ParapetStateError } from './errors.js';
import { EXPECTED_ABI_VERSION, type CoreConstants, type CoreExports } from './exports.js';

/** What `init` accepts: a compiled module, the wasm bytes, a fetch Response, or a promise of one. */
export type InitInput = WebAssembly.Module | BufferSource | Response;
export type InitSource = InitInput | PromiseLike<InitInput>;

let core: CoreExports | undefined;
let constants: CoreConstants | undefined;
let arena: Arena | undefined;
let pending: Promise<void> | undefined;

// Views over wasm memory, rebuilt whenever memory.grow detaches the old buffer.
let viewBuffer: ArrayBuffer | undefined;
let u8View = new Uint8Array(0);
let u32View = new Uint32Array(0);
let f32View = new Float32Array(0);
let f64View = new Float64Array(0);

let scratchPtr = 0;
let scratchSize = 0;

/**
 * Load the core from `source`, or from `fallback()` when none is given.
 * Idempotent and memoised: concurrent and later calls share the first load;
 * a failed load is forgotten so that a later call can retry.
 */
export function loadCore(source: InitSource | undefined, fallback: () => InitSource): Promise<void> {
  if (core) return Promise.resolve();
  pending ??= (async () => {
    try {
      const input = await (source ?? fallback());
      const module = await toModule(input);
      adopt(new WebAssembly.Instance(module, {}));
    } catch (cause) {
      pending = undefined;
      throw initFailed(cause);
    }
  })();
  return pending;
}

/** Synchronous load for callers that hold the module or bytes already. */
export function loadCoreSync(source: WebAssembly.Module | BufferSource): void {
  if (core) return;
  try {
    const module = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
    adopt(new WebAssembly.Instance(module, {}));
  } catch (cause) {
    throw initFailed(cause);
  }
}

function initFailed(cause: unknown): ParapetStateError {
  if (cause instanceof ParapetStateError) return cause;
  return new ParapetStateError(
    `parapet: could not load core.wasm (${String(cause)}). Runtimes that forbid compiling ` +
      `wasm from bytes (edge workers) must pass the precompiled module: init({ module })`,
    'init-failed',
    { cause },
  );
}

async function toModule(input: InitInput): Promise<WebAssembly.Module> {
  if (input instanceof WebAssembly.Module) return input;
  if (input instanceof ArrayBuffer || ArrayBuffer.isView(input)) {
    try {
      // Synchronous compilation of a small module is ~0.3 ms here, where the
      // async path costs several ms of scheduling; engines that refuse it fall through.
      return new WebAssembly.Module(input);
    } catch (syncError) {
      if (!WebAssembly.validate(input)) throw syncError;
      return WebAssembly.compile(input);
    }
  }
  // A Response, recognised by shape: touching the global `Response` in Node 20
  // loads its fetch implementation, ~15 ms of cold start for nothing.
  const response = input as Response;
  if (typeof response?.arrayBuffer !== 'function') throw new TypeError(`unsupported source ${String(input)}`);
  if (!response.ok) throw new Error(`fetching core.wasm answered ${response.status}`);
  return new WebAssembly.Module(await response.arrayBuffer());
}

function adopt(instance: WebAssembly.Instance): void {
  const exports = instance.exports as unknown as CoreExports;
  const abi = exports.ABI_VERSION?.value;
  if (abi !== EXPECTED_ABI_VERSION) {
    throw new ParapetStateError(
      `parapet: core.wasm speaks ABI ${String(abi)}, these bindings expect ${EXPECTED_ABI_VERSION}; rebuild`,
      'init-failed',
    );
  }
  const read = (name: 'SHA256_CONTEXT_BYTES' | 'MODE_TEXT' | 'MODE_JSON' | 'MODE_AUTO' | 'MAX_SHINGLE_K'): number => {
    const value: unknown = exports[name]?.value;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw new ParapetStateError(`parapet: core.wasm does not export ${name} as a non-negative integer; rebuild`, 'init-failed');
    }
    return value;
  };
  for (const name of ['featurizeCapacity', 'shinglesCapacity', 'readingCapacity'] as const) {
    if (typeof exports[name] !== 'function') throw new ParapetStateError(`parapet: core.wasm does not export ${name}; rebuild`, 'init-failed');
  }
  const values = {
    sha256ContextBytes: read('SHA256_CONTEXT_BYTES'),
    modeText: read('MODE_TEXT'),
    modeJson: read('MODE_JSON'),
    modeAuto: read('MODE_AUTO'),
    maxShingleK: read('MAX_SHINGLE_K'),
  };
  arena = new Arena(exports.memory, exports.heapBase() >>> 0);
  constants = Object.freeze(values);
  core = exports;
}

/** True once `init` has completed. */
export function isInitialized(): boolean {
  return core !== undefined;
}

/** Bytes of wasm memory the core holds now (it grows on demand and is never returned). */
export function coreMemoryBytes(): number {
  return getCore().memory.buffer.byteLength;
}

/** The core's exports; throws if `init()` has not completed. */
export function getCore(): CoreExports {
  if (!core) {
    throw new ParapetStateError('parapet: call `await init()` before using the core', 'not-initialized');
  }
  return core;
}

/** The core's own constants (see `CoreConstants`); throws if `init()` has not completed. */
export function coreConstants(): CoreConstants {
  getCore();
  return constants!;
}

export function getArena(): Arena {
  getCore();
  return arena!;
}

function refreshViews(): void {
  const buffer = getCore().memory.buffer;
  if (buffer === viewBuffer) return;
  viewBuffer = buffer;
  u8View = new Uint8Array(buffer);
  u32View = new Uint32Array(buffer);
  f32View = new Float32Array(buffer);
  f64View = new Float64Array(buffer);
}

export function heapU8(): Uint8Array {
  refreshViews();
  return u8View;
}
export function heapU32(): Uint32Array {
  refreshViews();
  return u32View;
}
export function heapF32(): Float32Array {
  refreshViews();
  return f32View;
}
export function heapF64(): Float64Array {
  refreshViews();
  return f64View;
}

/**
 * A reusable staging region of at least `bytes` bytes for one synchronous
 * call. Every hot call is synchronous and none re-enters another, so one
 * region serves them all; it only grows. Take views after calling this, since
 * growing may move memory.
 */
export function scratch(bytes: number): number {
  if (bytes > scratchSize) {
    const a = getArena();
    if (scratchSize > 0) a.free(scratchPtr);
    scratchSize = 2 ** Math.max(16, Math.ceil(Math.log2(bytes)));
    scratchPtr = a.alloc(scratchSize);
  }
  return scratchPtr;
}

/** Largest input staged in one crossing; longer inputs stream through in pieces. */
export const STAGE_LIMIT = 1 << 18;
