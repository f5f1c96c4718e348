/**
 * UTF-8 into a buffer that is reused: the view returned is valid until the
 * next call on the same instance. The store encodes a value and an entry on
 * every put, and backends copy what they keep; an array of its own per call
 * made allocation a fifth of a put at a million entries.
 */
export class Utf8Scratch {
  #buffer = new Uint8Array(4096);
  readonly #encoder = new TextEncoder();

  encode(text: string): Uint8Array {
    // encodeInto writes at most 3 bytes per UTF-16 unit.
    if (text.length * 3 > this.#buffer.length) this.#buffer = new Uint8Array(2 ** Math.ceil(Math.log2(text.length * 3)));
    const { written } = this.#encoder.encodeInto(text, this.#buffer);
    return this.#buffer.subarray(0, written);
  }
}
