import { fromBase64, toBase64 } from '../../bindings/encoding.js';
import { sha256 } from '../../bindings/index.js';
import { assertBytes, ParapetRangeError, ParapetTypeError } from '../../bindings/errors.js';
import { sha512 } from '../../crypto/hashes.js';
import { ed25519PublicKey, ed25519Sign, ed25519Verify } from '../../crypto/ed25519.js';

/**
 * OpenSSH signatures (PROTOCOL.sshsig), ssh-ed25519 keys only: the armored
 * blob "SSHSIG" ‖ u32 version ‖ string publickey ‖ string namespace ‖ string
 * reserved ‖ string hash_alg ‖ string signature, where Ed25519 signs
 * "SSHSIG" ‖ string namespace ‖ string reserved ‖ string hash_alg ‖ string H(message).
 */
export interface SshSignature {
  readonly publicKey: Uint8Array;
  readonly namespace: string;
  readonly hashAlgorithm: 'sha256' | 'sha512';
  readonly signature: Uint8Array;
}

/** RFC 4253 `string` fields, read with bounds checks. */
class Reader {
  at = 0;
  constructor(private readonly b: Uint8Array) {}
  u32(): number {
    if (this.at + 4 > this.b.length) throw new ParapetRangeError('truncated', 'invalid-length');
    const v = new DataView(this.b.buffer, this.b.byteOffset + this.at, 4).getUint32(0);
    this.at += 4;
    return v;
  }
  bytes(): Uint8Array {
    const n = this.u32();
    if (this.at + n > this.b.length) throw new ParapetRangeError('truncated', 'invalid-length');
    const v = this.b.subarray(this.at, this.at + n);
    this.at += n;
    return v;
  }
  text(): string {
    return new TextDecoder('utf-8', { fatal: true }).decode(this.bytes());
  }
  get done(): boolean {
    return this.at === this.b.length;
  }
}

function edKey(blob: Uint8Array): Uint8Array | undefined {
  const r = new Reader(blob);
  if (r.text() !== 'ssh-ed25519') return undefined;
  const pk = r.bytes();
  return r.done && pk.length === 32 ? pk.slice() : undefined;
}

/** Parse an `ssh-ed25519 AAAA… comment` public key line; undefined if it is not one. */
export function parseSshPublicKey(line: string): Uint8Array | undefined {
  if (typeof line !== 'string') return undefined;
  const m = /^ssh-ed25519 ([A-Za-z0-9+/]+=*)(?: .*)?$/.exec(line.trim());
  if (!m) return undefined;
  try {
    return edKey(fromBase64(m[1]!));
  } catch {
    return undefined;
  }
}

/** Parse an armored SSH signature; undefined when malformed (never throws). Any base64 line wrapping is accepted. */
export function parseSshSignature(text: string): SshSignature | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /^-----BEGIN SSH SIGNATURE-----\r?\n([\s\S]*?)\r?\n-----END SSH SIGNATURE-----\r?\n?$/.exec(text.trim() + '\n');
  if (!m) return undefined;
  try {
    const blob = fromBase64(m[1]!.replace(/\s+/g, ''));
    if (new TextDecoder().decode(blob.subarray(0, 6)) !== 'SSHSIG') return undefined;
    const r = new Reader(blob.subarray(6));
    if (r.u32() !== 1) return undefined;
    const publicKey = edKey(r.bytes());
    const namespace = r.text();
    r.bytes(); // reserved
    const hashAlgorithm = r.text();
    const sigBlob = new Reader(r.bytes());
    if (!r.done || !publicKey || (hashAlgorithm !== 'sha256' && hashAlgorithm !== 'sha512')) return undefined;
    if (sigBlob.text() !== 'ssh-ed25519') return undefined;
    const signature = sigBlob.bytes();
    if (!sigBlob.done || signature.length !== 64) return undefined;
    return { publicKey, namespace, hashAlgorithm, signature: signature.slice() };
  } catch {
    return undefined;
  }
}

function sshString(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length);
  out.set(bytes, 4);
  return out;
}

/** The exact bytes Ed25519 signs for `message` in `namespace`. */
export function sshSignedData(message: Uint8Array, namespace: string, hashAlgorithm: 'sha256' | 'sha512'): Uint8Array {
  assertBytes(message, 'message');
  if (typeof namespace !== 'string') throw new ParapetTypeError('"namespace" must be a string');
  if (hashAlgorithm !== 'sha256' && hashAlgorithm !== 'sha512') throw new ParapetRangeError('"hashAlgorithm" must be sha256 or sha512', 'invalid-value');
  const enc = new TextEncoder();
  const digest = hashAlgorithm === 'sha512' ? sha512(message) : sha256(message);
  return concat([enc.encode('SSHSIG'), sshString(enc.encode(namespace)), sshString(new Uint8Array(0)), sshString(enc.encode(hashAlgorithm)), sshString(digest)]);
}

/** Verify in `namespace` (a signature made for another namespace is refused). */
export function verifySshSignature(message: Uint8Array, sig: SshSignature, namespace: string): boolean {
  if (!(message instanceof Uint8Array) || typeof namespace !== 'string' || typeof sig !== 'object' || sig === null) return false;
  if (sig.namespace !== namespace || (sig.hashAlgorithm !== 'sha256' && sig.hashAlgorithm !== 'sha512')) return false;
  return ed25519Verify(sig.signature, sshSignedData(message, namespace, sig.hashAlgorithm), sig.publicKey);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const sshPublicKeyBlob = (publicKey: Uint8Array) => concat([sshString(new TextEncoder().encode('ssh-ed25519')), sshString(publicKey)]);

/** The `ssh-ed25519 AAAA… comment` line for a raw Ed25519 public key (for allowed_signers files). */
export function sshPublicKeyLine(publicKey: Uint8Array, comment = ''): string {
  assertBytes(publicKey, 'publicKey', 32);
  if (typeof comment !== 'string') throw new ParapetTypeError('"comment" must be a string');
  if (/[\r\n]/.test(comment)) throw new ParapetRangeError('"comment" must be one line', 'invalid-value');
  return `ssh-ed25519 ${toBase64(sshPublicKeyBlob(publicKey))}${comment ? ` ${comment}` : ''}`;
}

/**
 * An armored SSH signature of `message` in `namespace` (sha512), as
 * `ssh-keygen -Y sign` writes it, so `ssh-keygen -Y verify` can check it.
 */
export function signSsh(message: Uint8Array, secretKey: Uint8Array, namespace: string): string {
  if (typeof namespace !== 'string') throw new ParapetTypeError('"namespace" must be a string');
  const enc = new TextEncoder();
  const publicKey = ed25519PublicKey(secretKey);
  const signature = ed25519Sign(sshSignedData(message, namespace, 'sha512'), secretKey);
  const version = new Uint8Array(4);
  new DataView(version.buffer).setUint32(0, 1);
  const blob = concat([
    enc.encode('SSHSIG'), version, sshString(sshPublicKeyBlob(publicKey)), sshString(enc.encode(namespace)), sshString(new Uint8Array(0)),
    sshString(enc.encode('sha512')), sshString(concat([sshString(enc.encode('ssh-ed25519')), sshString(signature)])),
  ]);
  const b64 = toBase64(blob).replace(/(.{70})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN SSH SIGNATURE-----\n${b64}\n-----END SSH SIGNATURE-----\n`;
}
