// SHA-256 (FIPS 180-4) with the entry points parapet's hot paths need:
// one-shot, streaming over a caller-owned context, batch, hash chain,
// RFC 6962 leaf/node hashing and HMAC (RFC 2104).
//
// Nothing here allocates: every buffer is either static (`memory.data`) or a
// region the caller (src/bindings) owns and passes by pointer. All multi-byte
// values in contexts are little-endian wasm words; digests are big-endian bytes.

// FIPS 180-4 §4.2.2: first 32 bits of the fractional parts of the cube roots
// of the first 64 primes.
const K: usize = memory.data<u32>([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

// FIPS 180-4 §5.3.3: initial hash value H(0).
const H0: usize = memory.data<u32>([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** Message schedule W[0..63] (FIPS 180-4 §6.2.2 step 1). */
const W: usize = memory.data(64 * 4, 16);

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

/** Contexts for the one-shot entry points, so they never disturb a caller's context. */
const ONESHOT: usize = memory.data(112, 16);
const HMAC_INNER: usize = memory.data(112, 16);
/** A 64-byte scratch block: HMAC pads, RFC 6962 prefixes, node blocks. */
const SCRATCH: usize = memory.data(128, 16);

@inline function bigSigma0(x: u32): u32 { return rotr<u32>(x, 2) ^ rotr<u32>(x, 13) ^ rotr<u32>(x, 22); }
@inline function bigSigma1(x: u32): u32 { return rotr<u32>(x, 6) ^ rotr<u32>(x, 11) ^ rotr<u32>(x, 25); }
@inline function smallSigma0(x: u32): u32 { return rotr<u32>(x, 7) ^ rotr<u32>(x, 18) ^ (x >>> 3); }
@inline function smallSigma1(x: u32): u32 { return rotr<u32>(x, 17) ^ rotr<u32>(x, 19) ^ (x >>> 10); }
@inline function ch(x: u32, y: u32, z: u32): u32 { return z ^ (x & (y ^ z)); }
@inline function maj(x: u32, y: u32, z: u32): u32 { return (x & y) | (z & (x | y)); }

/** FIPS 180-4 §6.2.2: fold one 64-byte block at `block` into the hash value at `state`. */
function compress(state: usize, block: usize): void {
  for (let i: usize = 0; i < 16; i++) {
    store<u32>(W + (i << 2), bswap<u32>(load<u32>(block + (i << 2))));
  }
  for (let i: usize = 16; i < 64; i++) {
    const p = W + (i << 2);
    store<u32>(p,
      smallSigma1(load<u32>(p - 8)) + load<u32>(p - 28) + smallSigma0(load<u32>(p - 60)) + load<u32>(p - 64));
  }
  let a = load<u32>(state, 0), b = load<u32>(state, 4), c = load<u32>(state, 8), d = load<u32>(state, 12);
  let e = load<u32>(state, 16), f = load<u32>(state, 20), g = load<u32>(state, 24), h = load<u32>(state, 28);
  for (let i: usize = 0; i < 256; i += 4) {
    const t1 = h + bigSigma1(e) + ch(e, f, g) + load<u32>(K + i) + load<u32>(W + i);
    const t2 = bigSigma0(a) + maj(a, b, c);
    h = g; g = f; f = e; e = d + t1;
    d = c; c = b; b = a; a = t1 + t2;
  }
  store<u32>(state, load<u32>(state, 0) + a, 0);
  store<u32>(state, load<u32>(state, 4) + b, 4);
  store<u32>(state, load<u32>(state, 8) + c, 8);
  store<u32>(state, load<u32>(state, 12) + d, 12);
  store<u32>(state, load<u32>(state, 16) + e, 16);
  store<u32>(state, load<u32>(state, 20) + f, 20);
  store<u32>(state, load<u32>(state, 24) + g, 24);
  store<u32>(state, load<u32>(state, 28) + h, 28);
}

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
  for (let i: usize = 0; i < count; i++) {
    const len = <usize>load<u32>(lens + (i << 2));
    sha256(ptr, len, out + (i << 5));
    ptr += len;
  }
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
 * RFC 6962 §2.1 interior nodes SHA-256(0x01 ‖ left ‖ right) for `count`
 * 64-byte (left ‖ right) pairs at `ptr`. The 65-byte message always pads to
 * exactly two blocks, so they are built directly instead of going through the
 * buffering path: block 2 is right[31] ‖ 0x80 ‖ zeros ‖ bit length 520.
 * `out` may alias `ptr` (each pair is fully read before its digest is written),
 * which lets a tree level be reduced in place.
 */
export function merkleNodeBatch(ptr: usize, count: usize, out: usize): void {
  const block = SCRATCH;
  const tail = SCRATCH + 64;
  memory.fill(tail, 0, 64);
  store<u8>(tail, 0x80, 1);
  store<u64>(tail + 56, bswap<u64>(<u64>520));
  for (let i: usize = 0; i < count; i++) {
    const pair = ptr + (i << 6);
    store<u8>(block, 0x01);
    memory.copy(block + 1, pair, 63);
    store<u8>(tail, load<u8>(pair + 63));
    memory.copy(ONESHOT, H0, 32);
    compress(ONESHOT, block);
    compress(ONESHOT, tail);
    writeDigest(ONESHOT, out + (i << 5));
  }
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
