/**
 * Byte strings copied into 1 MiB chunks and addressed by a small integer id:
 * no object is kept per string, only three int32s. A million entries and
 * values each held as a view of their own (an object that outlives many
 * garbage collections) made collection a tenth of a put at 1M entries, and
 * one ArrayBuffer each, a third. A view is made when one is read.
 *
 * A freed string is zeroed at once (an erased value must not linger in
 * memory). Its space comes back when its chunk is mostly free: once under a
 * quarter of a full chunk is still in use, the strings left are moved to the
 * chunk being filled (their ids stay) and the old chunk is dropped. So a
 * long-lived store that erases a lot (session values purged every session)
 * does not keep growing by what it erased, and the bytes copied stay under a
 * third of the bytes freed. A dropped chunk is not cleared: a view read before
 * still shows the same bytes (decision 14).
 */
export class ByteStore {
  static readonly CHUNK = 1 << 20;
  /** Larger strings get a buffer of their own. */
  static readonly LARGE = ByteStore.CHUNK >>> 4;

  #chunks: Uint8Array[] = [];
  /** Per chunk, the ids placed in it (a string moved elsewhere leaves its old chunk with it). */
  readonly #chunkIds: number[][] = [];
  /** Per chunk, bytes of strings not freed. */
  readonly #live: number[] = [];
  readonly #large: Uint8Array[] = [];
  #used = 0;
  /** Per id: chunk (or −1 − index into #large), offset, length (−1: freed). */
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
    if (bytes.length > ByteStore.LARGE) {
      this.#where[3 * id] = -1 - this.#large.length;
      this.#large.push(bytes.slice());
      this.#where[3 * id + 2] = bytes.length;
    } else {
      const chunks = this.#chunks.length;
      this.#place(id, bytes);
      // The chunk just finished may already be mostly free (frees while it was being filled do not compact).
      if (this.#chunks.length > chunks && chunks > 0) this.#compactIfSparse(chunks - 1);
    }
    return id;
  }

  /** A view of the bytes of `id` (valid until `id` is freed; one read before stays a view of zeros). */
  get(id: number): Uint8Array {
    const at = 3 * id;
    const chunk = this.#where[at]!;
    if (chunk < 0) return this.#large[-1 - chunk]!;
    const offset = this.#where[at + 1]!;
    return this.#chunks[chunk]!.subarray(offset, offset + Math.max(0, this.#where[at + 2]!));
  }

  /** Zero the bytes of `id` and give its space back; `id` must not be read again. */
  free(id: number): void {
    const at = 3 * id;
    const length = this.#where[at + 2]!;
    if (length < 0) return;
    this.get(id).fill(0);
    this.#where[at + 2] = -1;
    const chunk = this.#where[at]!;
    if (chunk < 0) {
      this.#large[-1 - chunk] = EMPTY;
      return;
    }
    this.#live[chunk]! -= length;
    this.#compactIfSparse(chunk);
  }

  /** Bytes held in chunks and large strings (for tests and capacity planning). */
  bytesHeld(): number {
    let sum = 0;
    for (const c of this.#chunks) sum += c.length;
    for (const l of this.#large) sum += l.length;
    return sum;
  }

  /** Append `bytes` to the chunk being filled (a new one when it is full) as `id`. */
  #place(id: number, bytes: Uint8Array): void {
    if (this.#chunks.length === 0 || this.#used + bytes.length > ByteStore.CHUNK) {
      this.#chunks.push(new Uint8Array(ByteStore.CHUNK));
      this.#chunkIds.push([]);
      this.#live.push(0);
      this.#used = 0;
    }
    const chunk = this.#chunks.length - 1;
    this.#chunks[chunk]!.set(bytes, this.#used);
    this.#chunkIds[chunk]!.push(id);
    this.#live[chunk]! += bytes.length;
    const at = 3 * id;
    this.#where[at] = chunk;
    this.#where[at + 1] = this.#used;
    this.#where[at + 2] = bytes.length;
    this.#used += bytes.length;
  }

  /** Compact `chunk` if it is finished, not dropped yet, and under a quarter in use. */
  #compactIfSparse(chunk: number): void {
    if (chunk !== this.#chunks.length - 1 && this.#chunks[chunk] !== EMPTY && this.#live[chunk]! < ByteStore.CHUNK / 4) this.#compact(chunk);
  }

  /** Move what is still in use out of `chunk` (ids stay), then drop it. */
  #compact(chunk: number): void {
    const ids = this.#chunkIds[chunk]!;
    const old = this.#chunks[chunk]!;
    this.#chunks[chunk] = EMPTY;
    this.#chunkIds[chunk] = [];
    this.#live[chunk] = 0;
    for (const id of ids) {
      const at = 3 * id;
      const length = this.#where[at + 2]!;
      if (length < 0) continue;
      const offset = this.#where[at + 1]!;
      this.#place(id, old.subarray(offset, offset + length));
    }
  }
}

const EMPTY = new Uint8Array(0);
