import { ParapetRangeError } from './errors.js';

const WASM_PAGE = 65536;
const MIN_CLASS = 6; // 64-byte blocks: one SHA-256 context fits with room to spare
const MAX_CLASS = 31;

/**
 * A size-class allocator over the wasm linear memory above the core's static
 * data. The core never allocates (stub runtime), so the bindings own this
 * space outright. Blocks are powers of two, recycled through one free list per
 * class; memory grows on demand and, as wasm memory cannot shrink, is kept.
 * Alignment is 16 bytes for every block, enough for f64 and v128.
 */
export class Arena {
  private readonly freeLists: number[][] = [];
  private readonly classOf = new Map<number, number>();
  private top: number;

  constructor(private readonly memory: WebAssembly.Memory, base: number) {
    this.top = (base + 15) & ~15;
    for (let c = 0; c <= MAX_CLASS; c++) this.freeLists.push([]);
  }

  /** A block of at least `bytes` bytes; its contents are unspecified. */
  alloc(bytes: number): number {
    const cls = Math.max(MIN_CLASS, Math.ceil(Math.log2(Math.max(1, bytes))));
    if (cls > MAX_CLASS) throw new ParapetRangeError(`cannot allocate ${bytes} bytes in wasm memory`);
    const reused = this.freeLists[cls]!.pop();
    const ptr = reused ?? this.bump(2 ** cls);
    this.classOf.set(ptr, cls);
    return ptr;
  }

  /** Return a block from `alloc`. Freeing an unknown pointer is a no-op. */
  free(ptr: number): void {
    const cls = this.classOf.get(ptr);
    if (cls === undefined) return;
    this.classOf.delete(ptr);
    this.freeLists[cls]!.push(ptr);
  }

  private bump(size: number): number {
    const ptr = this.top;
    const end = ptr + size;
    const have = this.memory.buffer.byteLength;
    if (end > have) {
      const pages = Math.ceil((end - have) / WASM_PAGE);
      try {
        this.memory.grow(pages);
      } catch (cause) {
        throw new ParapetRangeError(`wasm memory cannot grow by ${pages} pages (${String(cause)})`);
      }
    }
    this.top = end;
    return ptr;
  }
}
