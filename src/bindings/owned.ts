import { getArena } from './instance.js';

// Blocks whose owner is collected without an explicit release go back to the
// arena here, so forgetting destroy() wastes memory only until the next GC.
// workerd has no FinalizationRegistry: there, only destroy() frees a block.
const orphans: Pick<FinalizationRegistry<number>, 'register' | 'unregister'> =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<number>((ptr) => getArena().free(ptr))
    : { register: () => undefined, unregister: () => false };

/** A block of wasm memory tied to the lifetime of a JavaScript object. */
export class OwnedBlock {
  readonly ptr: number;
  private released = false;

  constructor(
    owner: object,
    readonly bytes: number,
  ) {
    this.ptr = getArena().alloc(bytes);
    orphans.register(owner, this.ptr, this);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    orphans.unregister(this);
    getArena().free(this.ptr);
  }
}
