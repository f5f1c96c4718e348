// SHA-256 (FIPS 180-4) with the entry points parapet's hot paths need:
// one-shot, streaming over a caller-owned context, batch, hash chain,
// RFC 6962 leaf/node hashing and HMAC (RFC 2104).
//
// Nothing here allocates: every buffer is either static (`memory.data`) or a
// region the caller (src/bindings) owns and passes by pointer. All multi-byte
// values in contexts are little-endian wasm words; digests are big-endian bytes.

import { compress, compress4 } from './sha256-compress.generated';

// FIPS 180-4 §5.3.3: initial hash value H(0).
const H0: usize = memory.data<u32>([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/**
 * Context layout (bytes):
 *   0..32   H[0..7]   working hash value
 *  32..96   block     partial input block
 *  96..100  buffered  bytes held in `block`
 * 104..112  length    total message bytes so far (u64)
 */
export const SHA256_CONTEXT_BYTES: i32 = 112;
const CTX_BLOCK: usize = 32;
const CTX_BUFFERED: usize = 96;
const CTX_LENGTH: usize = 104;

/** Transposed message words for `compress4` (word j of lane i at 16·j + 4·i) and its state. */
const WORDS4: usize = memory.data(16 * 16, 16);
const STATE4: usize = memory.data(8 * 16, 16);

/** Contexts for the one-shot entry points, so they never disturb a caller's context. */
const ONESHOT: usize = memory.data(112, 16);
const HMAC_INNER: usize = memory.data(112, 16);
/** A 64-byte scratch block: HMAC pads, RFC 6962 prefixes, node blocks. */
const SCRATCH: usize = memory.data(128, 16);

/** Reset the context at `ctx` to the empty message. */
export function sha256Init(ctx: usize): void {
  memory.copy(ctx, H0, 32);
  store<u32>(ctx + CTX_BUFFERED, 0);
  store<u64>(ctx + CTX_LENGTH, 0);
}

/**
 * Absorb `len` bytes at `ptr`. Correct for any split: a partial block is
 * buffered in the context and topped up by the next call before whole blocks
 * are compressed straight from the input (the case as-sha256 got wrong).
 */
export function sha256Update(ctx: usize, ptr: usize, len: usize): void {
  store<u64>(ctx + CTX_LENGTH, load<u64>(ctx + CTX_LENGTH) + <u64>len);
  let buffered = <usize>load<u32>(ctx + CTX_BUFFERED);
  const block = ctx + CTX_BLOCK;
  if (buffered > 0) {
    const take = min<usize>(64 - buffered, len);
    memory.copy(block + buffered, ptr, take);
    buffered += take; ptr += take; len -= take;
    if (buffered < 64) {
      store<u32>(ctx + CTX_BUFFERED, <u32>buffered);
      return;
    }
    compress(ctx, block);
    buffered = 0;
  }
  while (len >= 64) {
    compress(ctx, ptr);
    ptr += 64; len -= 64;
  }
  if (len > 0) memory.copy(block, ptr, len);
  store<u32>(ctx + CTX_BUFFERED, <u32>len);
}

/** FIPS 180-4 §5.1.1 padding, then write the 32-byte digest to `out`. The context is spent. */
export function sha256Final(ctx: usize, out: usize): void {
  const block = ctx + CTX_BLOCK;
  let buffered = <usize>load<u32>(ctx + CTX_BUFFERED);
  const bits = load<u64>(ctx + CTX_LENGTH) << 3;
  store<u8>(block + buffered, 0x80);
  buffered++;
  if (buffered > 56) {
    memory.fill(block + buffered, 0, 64 - buffered);
    compress(ctx, block);
    buffered = 0;
  }
  memory.fill(block + buffered, 0, 56 - buffered);
  store<u64>(block + 56, bswap<u64>(bits));
  compress(ctx, block);
  writeDigest(ctx, out);
}

@inline function writeDigest(state: usize, out: usize): void {
  for (let i: usize = 0; i < 32; i += 4) store<u32>(out + i, bswap<u32>(load<u32>(state + i)));
}

/** One-shot SHA-256 of `len` bytes at `ptr` into `out`. */
export function sha256(ptr: usize, len: usize, out: usize): void {
  sha256Init(ONESHOT);
  sha256Update(ONESHOT, ptr, len);
  sha256Final(ONESHOT, out);
}

/**
 * Hash `count` messages laid end to end at `ptr`, whose byte lengths are the
 * u32s at `lens`, writing `count` digests to `out`. One wasm crossing for the
 * whole batch is what makes small-message hashing fast from JS.
 */
export function sha256Batch(ptr: usize, lens: usize, count: usize, out: usize): void {
  let i: usize = 0;
  for (; i + 4 <= count; i += 4) {
    const l0 = <usize>load<u32>(lens + (i << 2));
    const l1 = <usize>load<u32>(lens + (i << 2), 4);
    const l2 = <usize>load<u32>(lens + (i << 2), 8);
    const l3 = <usize>load<u32>(lens + (i << 2), 12);
    batch4(ptr, l0, ptr + l0, l1, ptr + l0 + l1, l2, ptr + l0 + l1 + l2, l3, out + (i << 5));
    ptr += l0 + l1 + l2 + l3;
  }
  for (; i < count; i++) {
    const len = <usize>load<u32>(lens + (i << 2));
    sha256(ptr, len, out + (i << 5));
    ptr += len;
  }
}

/** Lane contexts for `batch4`'s scalar finish. */
const LANES: usize = memory.data(4 * 112, 16);

/**
 * Four messages at once: their whole blocks in lockstep on the 4-lane
 * compression for as many blocks as the shortest has, then each lane's
 * state moves to a scalar context that finishes its own remainder and
 * padding. For a bundle of similar files nearly every block goes four wide.
 */
function batch4(m0: usize, l0: usize, m1: usize, l1: usize, m2: usize, l2: usize, m3: usize, l3: usize, out: usize): void {
  const blocks = min(min(l0, l1), min(l2, l3)) >> 6;
  if (blocks > 0) {
    for (let k: usize = 0; k < 8; k++) v128.store(STATE4 + (k << 4), i32x4.splat(load<u32>(H0 + (k << 2))));
    for (let b: usize = 0; b < blocks; b++) {
      const off = b << 6;
      for (let w: usize = 0; w < 16; w++) {
        const row = WORDS4 + (w << 4);
        const at = off + (w << 2);
        store<u32>(row, bswap<u32>(load<u32>(m0 + at)));
        store<u32>(row, bswap<u32>(load<u32>(m1 + at)), 4);
        store<u32>(row, bswap<u32>(load<u32>(m2 + at)), 8);
        store<u32>(row, bswap<u32>(load<u32>(m3 + at)), 12);
      }
      compress4(STATE4, WORDS4);
    }
  }
  const done = blocks << 6;
  finishLane(0, m0, l0, done, out);
  finishLane(1, m1, l1, done, out + 32);
  finishLane(2, m2, l2, done, out + 64);
  finishLane(3, m3, l3, done, out + 96);
}

function finishLane(lane: usize, msg: usize, len: usize, done: usize, out: usize): void {
  const ctx = LANES + lane * 112;
  if (done == 0) {
    sha256Init(ctx);
  } else {
    for (let k: usize = 0; k < 8; k++) store<u32>(ctx + (k << 2), load<u32>(STATE4 + (k << 4) + (lane << 2)));
    store<u32>(ctx + CTX_BUFFERED, 0);
    store<u64>(ctx + CTX_LENGTH, <u64>done);
  }
  sha256Update(ctx, msg + done, len - done);
  sha256Final(ctx, out);
}

/**
 * Hash chain: h_i = SHA-256(h_{i-1} ‖ r_i), starting from the 32 bytes at
 * `prev`; records as in `sha256Batch`. All `count` links are written to `out`.
 * `prev` may alias the end of a previous `out` (each link is read before the
 * next is written).
 */
export function sha256Chain(prev: usize, ptr: usize, lens: usize, count: usize, out: usize): void {
  let link = prev;
  for (let i: usize = 0; i < count; i++) {
    const len = <usize>load<u32>(lens + (i << 2));
    sha256Init(ONESHOT);
    sha256Update(ONESHOT, link, 32);
    sha256Update(ONESHOT, ptr, len);
    link = out + (i << 5);
    sha256Final(ONESHOT, link);
    ptr += len;
  }
}

/** RFC 6962 §2.1 leaf hashes SHA-256(0x00 ‖ d) of `count` leaves laid out as in `sha256Batch`. */
export function merkleLeafBatch(ptr: usize, lens: usize, count: usize, out: usize): void {
  store<u8>(SCRATCH, 0x00);
  for (let i: usize = 0; i < count; i++) {
    const len = <usize>load<u32>(lens + (i << 2));
    sha256Init(ONESHOT);
    sha256Update(ONESHOT, SCRATCH, 1);
    sha256Update(ONESHOT, ptr, len);
    sha256Final(ONESHOT, out + (i << 5));
    ptr += len;
  }
}


/**
 * Four RFC 6962 node hashes at once on the 4-lane compression: the 65-byte
 * message 0x01 ‖ left ‖ right is two blocks, block 1 = 0x01 ‖ pair[0..63),
 * block 2 = pair[63] ‖ 0x80 ‖ zeros ‖ bit length 520 (FIPS 180-4 §5.1.1).
 * All four pairs are read before any digest is written.
 */
function nodes4(pairs: usize, out: usize): void {
  for (let lane: usize = 0; lane < 4; lane++) {
    const pair = pairs + (lane << 6);
    const col = WORDS4 + (lane << 2);
    store<u32>(col, 0x01000000 | (bswap<u32>(load<u32>(pair)) >>> 8));
    // Word i of block 1 is pair bytes 4i−1 .. 4i+2, big-endian.
    for (let i: usize = 1; i < 16; i++) store<u32>(col + (i << 4), bswap<u32>(load<u32>(pair + (i << 2) - 1)));
  }
  for (let k: usize = 0; k < 8; k++) v128.store(STATE4 + (k << 4), i32x4.splat(load<u32>(H0 + (k << 2))));
  compress4(STATE4, WORDS4);
  for (let lane: usize = 0; lane < 4; lane++) {
    store<u32>(WORDS4 + (lane << 2), (<u32>load<u8>(pairs + (lane << 6) + 63) << 24) | 0x00800000);
  }
  for (let i: usize = 1; i < 15; i++) v128.store(WORDS4 + (i << 4), i32x4.splat(0));
  v128.store(WORDS4 + (15 << 4), i32x4.splat(520));
  compress4(STATE4, WORDS4);
  for (let lane: usize = 0; lane < 4; lane++) {
    for (let k: usize = 0; k < 8; k++) {
      store<u32>(out + (lane << 5) + (k << 2), bswap<u32>(load<u32>(STATE4 + (k << 4) + (lane << 2))));
    }
  }
}

/** One node hash on the scalar compression (the tail of a batch not divisible by four). */
function node1(pair: usize, out: usize): void {
  const block = SCRATCH;
  const tail = SCRATCH + 64;
  store<u8>(block, 0x01);
  memory.copy(block + 1, pair, 63);
  memory.fill(tail, 0, 64);
  store<u8>(tail, load<u8>(pair + 63));
  store<u8>(tail, 0x80, 1);
  store<u64>(tail + 56, bswap<u64>(<u64>520));
  memory.copy(ONESHOT, H0, 32);
  compress(ONESHOT, block);
  compress(ONESHOT, tail);
  writeDigest(ONESHOT, out);
}

/**
 * RFC 6962 §2.1 interior nodes SHA-256(0x01 ‖ left ‖ right) for `count`
 * 64-byte (left ‖ right) pairs at `ptr`, four at a time with SIMD.
 * `out` may alias `ptr` (digest i lands at or before pair i, after pairs up to
 * i are read), which lets a tree level be reduced in place.
 */
export function merkleNodeBatch(ptr: usize, count: usize, out: usize): void {
  let i: usize = 0;
  for (; i + 4 <= count; i += 4) nodes4(ptr + (i << 6), out + (i << 5));
  for (; i < count; i++) node1(ptr + (i << 6), out + (i << 5));
}

/**
 * HMAC-SHA256 (RFC 2104, FIPS 198-1) of the message at `msg` under the key at
 * `key`. Keys longer than the 64-byte block are hashed first, as the RFC says.
 */
export function hmacSha256(key: usize, keyLen: usize, msg: usize, msgLen: usize, out: usize): void {
  const pad = SCRATCH;
  memory.fill(pad, 0, 64);
  if (keyLen > 64) sha256(key, keyLen, pad);
  else memory.copy(pad, key, keyLen);
  for (let i: usize = 0; i < 64; i++) store<u8>(pad + i, load<u8>(pad + i) ^ 0x36);
  sha256Init(HMAC_INNER);
  sha256Update(HMAC_INNER, pad, 64);
  sha256Update(HMAC_INNER, msg, msgLen);
  // 0x36 ^ 0x5c turns the inner pad into the outer pad without keeping the key.
  for (let i: usize = 0; i < 64; i++) store<u8>(pad + i, load<u8>(pad + i) ^ (0x36 ^ 0x5c));
  sha256Init(ONESHOT);
  sha256Update(ONESHOT, pad, 64);
  sha256Final(HMAC_INNER, pad + 64);
  sha256Update(ONESHOT, pad + 64, 32);
  sha256Final(ONESHOT, out);
  memory.fill(pad, 0, 128);
}
