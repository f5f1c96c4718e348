/**
 * Byte strings copied into 1 MiB chunks and addressed by a small integer id:
 * no object is kept per string, only three int32s. A million entries and
 * values each held as a view of their own (an object that outlives many
 * garbage collections) made collection a tenth of a put at 1M entries, and
 * one ArrayBuffer each, a third. A view is made when one is read.
 *
 * Space is never reused: an erased string is zeroed (`zero`) and its bytes
 * stay allocated until the store is dropped.
 */
export class ByteStore {
  static readonly CHUNK = 1 << 20;
  /** Larger strings get a buffer of their own. */
  static readonly LARGE = ByteStore.CHUNK >>> 4;

  readonly #chunks: Uint8Array[] = [];
  readonly #large: Uint8Array[] = [];
  #used = 0;
  /** Per id: chunk (or −1 − index into #large), offset, length. */
  #where = new Int32Array(3 * 1024);
  #count = 0;

  /** Copy `bytes` in; returns their id. */
  add(bytes: Uint8Array): number {
    const id = this.#count++;
    if (3 * this.#count > this.#where.length) {
      const grown = new Int32Array(this.#where.length * 2);
      grown.set(this.#where);
      this.#where = grown;
    }
    const at = 3 * id;
    if (bytes.length > ByteStore.LARGE) {
      this.#where[at] = -1 - this.#large.length;
      this.#large.push(bytes.slice());
      this.#where[at + 2] = bytes.length;
      return id;
    }
    if (this.#chunks.length === 0 || this.#used + bytes.length > ByteStore.CHUNK) {
      this.#chunks.push(new Uint8Array(ByteStore.CHUNK));
      this.#used = 0;
    }
    this.#chunks[this.#chunks.length - 1]!.set(bytes, this.#used);
    this.#where[at] = this.#chunks.length - 1;
    this.#where[at + 1] = this.#used;
    this.#where[at + 2] = bytes.length;
    this.#used += bytes.length;
    return id;
  }

  /** A view of the bytes of `id` (valid for as long as the store). */
  get(id: number): Uint8Array {
    const at = 3 * id;
    const chunk = this.#where[at]!;
    if (chunk < 0) return this.#large[-1 - chunk]!;
    const offset = this.#where[at + 1]!;
    return this.#chunks[chunk]!.subarray(offset, offset + this.#where[at + 2]!);
  }

  /** Overwrite the bytes of `id` with zeros: an erased value must not linger in memory. */
  zero(id: number): void {
    this.get(id).fill(0);
  }
}
