import { assertBytes, assertBytesArray, describe, ParapetRangeError, ParapetStateError, ParapetTypeError } from './errors.js';
import { coreConstants, getCore, heapU32, heapU8, scratch, STAGE_LIMIT } from './instance.js';
import { OwnedBlock } from './owned.js';

/** Streaming SHA-256, as returned by `sha256.create()`. */
export interface Sha256Hasher {
  /** Absorb more bytes; any split of the message gives the same digest. */
  update(data: Uint8Array): Sha256Hasher;
  /** Finish and return the 32-byte digest. The hasher cannot be used afterwards. */
  digest(): Uint8Array;
  /** Finish and write the digest into `out` (at least 32 bytes). */
  digestInto(out: Uint8Array): void;
  /** Forget the state without producing a digest. */
  destroy(): void;
}

class WasmSha256 implements Sha256Hasher {
  private ctx: OwnedBlock | undefined;

  constructor() {
    this.ctx = new OwnedBlock(this, coreConstants().sha256ContextBytes);
    getCore().sha256Init(this.ctx.ptr);
  }

  update(data: Uint8Array): this {
    assertBytes(data, 'data');
    const ctx = this.live().ptr;
    const core = getCore();
    for (let at = 0; at < data.length; at += STAGE_LIMIT) {
      const piece = data.subarray(at, at + STAGE_LIMIT);
      const ptr = scratch(piece.length);
      heapU8().set(piece, ptr);
      core.sha256Update(ctx, ptr, piece.length);
    }
    return this;
  }

  digestInto(out: Uint8Array): void {
    assertBytes(out, 'out');
    if (out.length < 32) throw new ParapetRangeError(`"out" must hold at least 32 bytes, got ${out.length}`);
    const ctx = this.live();
    const ptr = scratch(32);
    getCore().sha256Final(ctx.ptr, ptr);
    out.set(heapU8().subarray(ptr, ptr + 32));
    this.destroy();
  }

  digest(): Uint8Array {
    const out = new Uint8Array(32);
    this.digestInto(out);
    return out;
  }

  destroy(): void {
    if (!this.ctx) return;
    // Zero the context: it holds message bytes and intermediate state.
    heapU8().fill(0, this.ctx.ptr, this.ctx.ptr + this.ctx.bytes);
    this.ctx.release();
    this.ctx = undefined;
  }

  private live(): OwnedBlock {
    if (!this.ctx) throw new ParapetStateError('sha256: hasher already finished (digest or destroy was called)', 'hasher-finished');
    return this.ctx;
  }
}

function sha256OneShot(data: Uint8Array): Uint8Array {
  assertBytes(data, 'data');
  if (data.length > STAGE_LIMIT) return new WasmSha256().update(data).digest();
  const ptr = scratch(data.length + 32);
  const heap = heapU8();
  heap.set(data, ptr);
  getCore().sha256(ptr, data.length, ptr + data.length);
  return heap.slice(ptr + data.length, ptr + data.length + 32);
}

/**
 * SHA-256 (FIPS 180-4) of `data`. `sha256.create()` returns a streaming hasher.
 * Requires `await init()`.
 */
export const sha256: ((data: Uint8Array) => Uint8Array) & {
  create(): Sha256Hasher;
  readonly outputLen: 32;
  readonly blockLen: 64;
} = Object.assign(sha256OneShot, {
  create: (): Sha256Hasher => new WasmSha256(),
  outputLen: 32 as const,
  blockLen: 64 as const,
});

const encoder = new TextEncoder();

/**
 * SHA-256 of the UTF-8 encoding of `text` (as TextEncoder encodes it: a lone
 * surrogate becomes U+FFFD). The text is encoded straight into the core's
 * memory, so hashing a string costs no intermediate byte array.
 */
export function sha256Utf8(text: string): Uint8Array {
  if (typeof text !== 'string') throw new ParapetTypeError(`"text" must be a string, got ${describe(text)}`);
  const max = text.length * 3;
  if (max > STAGE_LIMIT) return sha256OneShot(encoder.encode(text));
  const ptr = scratch(max + 32);
  const heap = heapU8();
  const { written } = encoder.encodeInto(text, heap.subarray(ptr, ptr + max));
  getCore().sha256(ptr, written, ptr + max);
  return heap.slice(ptr + max, ptr + max + 32);
}

/**
 * Run `stage` over consecutive groups of `items` whose bytes fit one staging
 * crossing; an item too large to stage goes to `oversize` on its own.
 */
function forEachGroup(
  items: readonly Uint8Array[],
  stage: (from: number, to: number, bytes: number) => void,
  oversize: (index: number) => void,
): void {
  let from = 0;
  let bytes = 0;
  for (let i = 0; i < items.length; i++) {
    const len = items[i]!.length;
    if (len > STAGE_LIMIT) {
      if (i > from) stage(from, i, bytes);
      oversize(i);
      from = i + 1;
      bytes = 0;
    } else if (bytes + len > STAGE_LIMIT) {
      stage(from, i, bytes);
      from = i;
      bytes = len;
    } else {
      bytes += len;
    }
  }
  if (items.length > from) stage(from, items.length, bytes);
}

/**
 * Lay items[from..to) out in scratch memory: data, then a u32 length table,
 * then room for one digest per item. Returns the three pointers. With
 * `prefix`, each item is staged as that one byte followed by the item.
 */
function stageItems(items: readonly Uint8Array[], from: number, to: number, bytes: number, extra = 0, prefix?: number) {
  const count = to - from;
  const staged = prefix === undefined ? bytes : bytes + count;
  const data = scratch(((staged + 3) & ~3) + count * 4 + count * 32 + extra);
  const lens = data + ((staged + 3) & ~3);
  const out = lens + count * 4;
  const heap = heapU8();
  const u32 = heapU32();
  const extraByte = prefix === undefined ? 0 : 1;
  let at = data;
  for (let i = from; i < to; i++) {
    const item = items[i]!;
    if (prefix !== undefined) heap[at] = prefix;
    heap.set(item, at + extraByte);
    at += item.length + extraByte;
    u32[(lens >>> 2) + i - from] = item.length + extraByte;
  }
  return { data, lens, out, count };
}

/** Copy `count` digests out of wasm memory as 32-byte views of one new buffer. */
function collectDigests(out: number, count: number, into: Uint8Array[], flat: Uint8Array, at: number): void {
  flat.set(heapU8().subarray(out, out + count * 32), at * 32);
  for (let i = 0; i < count; i++) into[at + i] = flat.subarray((at + i) * 32, (at + i + 1) * 32);
}

/**
 * SHA-256 of each message, in one wasm crossing per ~256 KiB. The digests are
 * 32-byte views into one buffer (cheaper than one allocation each).
 */
export function sha256Batch(messages: readonly Uint8Array[]): Uint8Array[] {
  assertBytesArray(messages, 'messages');
  const digests = new Array<Uint8Array>(messages.length);
  const flat = new Uint8Array(messages.length * 32);
  forEachGroup(
    messages,
    (from, to, bytes) => {
      const { data, lens, out, count } = stageItems(messages, from, to, bytes);
      getCore().sha256Batch(data, lens, count, out);
      collectDigests(out, count, digests, flat, from);
    },
    (i) => {
      flat.set(sha256OneShot(messages[i]!), i * 32);
      digests[i] = flat.subarray(i * 32, i * 32 + 32);
    },
  );
  return digests;
}

/**
 * Hash chain over `records`: h_i = SHA-256(h_{i-1} ‖ r_i), with h_0 = `prev`
 * (32 bytes). Returns every link h_1..h_n; the last one is the chain head.
 */
export function hashChain(prev: Uint8Array, records: readonly Uint8Array[]): Uint8Array[] {
  assertBytes(prev, 'prev', 32);
  assertBytesArray(records, 'records');
  const links = new Array<Uint8Array>(records.length);
  const flat = new Uint8Array(records.length * 32);
  let head = prev;
  forEachGroup(
    records,
    (from, to, bytes) => {
      // The previous link rides in the same staging region, after the digests.
      const { data, lens, out, count } = stageItems(records, from, to, bytes, 32);
      const prevPtr = out + count * 32;
      heapU8().set(head, prevPtr);
      getCore().sha256Chain(prevPtr, data, lens, count, out);
      collectDigests(out, count, links, flat, from);
      head = links[to - 1]!;
    },
    (i) => {
      flat.set(new WasmSha256().update(head).update(records[i]!).digest(), i * 32);
      links[i] = head = flat.subarray(i * 32, i * 32 + 32);
    },
  );
  return links;
}

const LEAF_PREFIX = new Uint8Array([0x00]);

/** RFC 6962 §2.1 leaf hash: SHA-256(0x00 ‖ data). */
export function merkleLeafHash(data: Uint8Array): Uint8Array {
  assertBytes(data, 'data');
  if (data.length > STAGE_LIMIT) return new WasmSha256().update(LEAF_PREFIX).update(data).digest();
  // One leaf straight through the batch entry point, without the batch bookkeeping.
  const ptr = scratch(data.length + 40);
  const lens = (ptr + data.length + 3) & ~3;
  const out = lens + 4;
  heapU8().set(data, ptr);
  heapU32()[lens >>> 2] = data.length;
  getCore().merkleLeafBatch(ptr, lens, 1, out);
  return heapU8().slice(out, out + 32);
}

/**
 * RFC 6962 leaf hashes of many leaves in few crossings; 32-byte views into one
 * buffer. Each leaf is staged behind its 0x00 prefix so that the batch runs
 * four leaves at a time on the 4-lane compression (a log's entries are of
 * similar length, so nearly all their blocks go four wide).
 */
export function merkleLeafHashBatch(leaves: readonly Uint8Array[]): Uint8Array[] {
  assertBytesArray(leaves, 'leaves');
  const hashes = new Array<Uint8Array>(leaves.length);
  const flat = new Uint8Array(leaves.length * 32);
  forEachGroup(
    leaves,
    (from, to, bytes) => {
      const { data, lens, out, count } = stageItems(leaves, from, to, bytes, 0, 0x00);
      getCore().sha256Batch(data, lens, count, out);
      collectDigests(out, count, hashes, flat, from);
    },
    (i) => {
      flat.set(new WasmSha256().update(LEAF_PREFIX).update(leaves[i]!).digest(), i * 32);
      hashes[i] = flat.subarray(i * 32, i * 32 + 32);
    },
  );
  return hashes;
}

/** RFC 6962 §2.1 interior node hash: SHA-256(0x01 ‖ left ‖ right), both 32 bytes. */
export function merkleNodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  assertBytes(left, 'left', 32);
  assertBytes(right, 'right', 32);
  const ptr = scratch(64);
  const heap = heapU8();
  heap.set(left, ptr);
  heap.set(right, ptr + 32);
  getCore().merkleNodeBatch(ptr, 1, ptr);
  return heap.slice(ptr, ptr + 32);
}

const PAIRS_PER_CROSSING = STAGE_LIMIT / 64;

/**
 * RFC 6962 node hashes of n (left ‖ right) pairs given back to back in
 * `pairs` (64·n bytes); returns the n digests back to back (32·n bytes), the
 * shape of the next tree level up.
 */
export function merkleNodeHashBatch(pairs: Uint8Array): Uint8Array {
  assertBytes(pairs, 'pairs');
  if (pairs.length % 64 !== 0) throw new ParapetRangeError(`"pairs" must be a multiple of 64 bytes, got ${pairs.length}`);
  const total = pairs.length / 64;
  const result = new Uint8Array(total * 32);
  const core = getCore();
  for (let at = 0; at < total; at += PAIRS_PER_CROSSING) {
    const count = Math.min(PAIRS_PER_CROSSING, total - at);
    const ptr = scratch(count * 64);
    const heap = heapU8();
    heap.set(pairs.subarray(at * 64, (at + count) * 64), ptr);
    core.merkleNodeBatch(ptr, count, ptr);
    result.set(heap.subarray(ptr, ptr + count * 32), at * 32);
  }
  return result;
}

/** HMAC-SHA256 (RFC 2104) of `message` under `key`. */
export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  assertBytes(key, 'key');
  assertBytes(message, 'message');
  if (key.length + message.length > STAGE_LIMIT) return hmacStreaming(key, message);
  const ptr = scratch(key.length + message.length + 32);
  const heap = heapU8();
  heap.set(key, ptr);
  heap.set(message, ptr + key.length);
  const out = ptr + key.length + message.length;
  getCore().hmacSha256(ptr, key.length, ptr + key.length, message.length, out);
  const tag = heap.slice(out, out + 32);
  heap.fill(0, ptr, ptr + key.length);
  return tag;
}

/** The same HMAC for inputs too large to stage at once, over streaming hashers. */
function hmacStreaming(key: Uint8Array, message: Uint8Array): Uint8Array {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256OneShot(key) : key);
  const inner = new WasmSha256().update(block.map((b) => b ^ 0x36)).update(message).digest();
  const tag = new WasmSha256().update(block.map((b) => b ^ 0x5c)).update(inner).digest();
  block.fill(0);
  return tag;
}

