import { fromBase64, toBase64, toHex } from '../bindings/encoding.js';
import { sha256 } from '../bindings/index.js';
import { canonicalJson, canonicalJsonBytes } from '../canonical/jcs.js';
import { ed25519Verify } from '../crypto/ed25519.js';

/** What a parapet signature signs: RFC 8785 canonical JSON of this. */
export interface SkillStatement {
  readonly type: 'parapet-skill-signature/v1';
  readonly name: string;
  readonly version: string | null;
  /** SHA-256 of the canonical manifest file, hex. */
  readonly manifest_digest: string;
  /** Fingerprint of the signing key: `sha256:<hex of SHA-256(raw public key)>`. */
  readonly key_id: string;
  /** Seconds since the epoch. */
  readonly issued_at: number;
  readonly expires_at?: number;
}

/**
 * The signature envelope, carried as SKILL.sig (canonical JSON) or inline as
 * SKILL.md's `x-signature` (base64 of the same). The manifest travels with it
 * (its hash is what the statement signs) so that a verifier can say which
 * files changed, and the public key so that a forged signature can be told
 * from an untrusted signer.
 */
export interface SkillEnvelope {
  readonly statement: SkillStatement;
  readonly manifest: string;
  readonly public_key: string;
  readonly signature: string;
}

export const fingerprint = (publicKey: Uint8Array): string => `sha256:${toHex(sha256(publicKey))}`;

export function encodeEnvelope(env: SkillEnvelope): string {
  return canonicalJson(env);
}

/**
 * Parse an envelope; undefined when it is not one (never throws). Only the
 * canonical JSON that `encodeEnvelope` writes is accepted: the carrier is left
 * out of the digest, so it may hold no bytes that a reader could take another
 * way — extra fields, duplicate keys (the first wins for some parsers, the
 * last for JSON.parse), whitespace, a BOM.
 */
export function parseEnvelope(text: string): SkillEnvelope | undefined {
  try {
    const e = JSON.parse(text) as SkillEnvelope;
    const s = e?.statement;
    if (!s || s.type !== 'parapet-skill-signature/v1' || typeof s.name !== 'string' || typeof s.manifest_digest !== 'string') return undefined;
    if (typeof s.key_id !== 'string' || !Number.isSafeInteger(s.issued_at) || (s.expires_at !== undefined && !Number.isSafeInteger(s.expires_at))) return undefined;
    if (s.version !== null && typeof s.version !== 'string') return undefined;
    if (typeof e.manifest !== 'string' || typeof e.public_key !== 'string' || typeof e.signature !== 'string') return undefined;
    fromBase64(e.public_key);
    fromBase64(e.signature);
    const statement: SkillStatement = {
      type: s.type, name: s.name, version: s.version, manifest_digest: s.manifest_digest, key_id: s.key_id, issued_at: s.issued_at,
      ...(s.expires_at !== undefined ? { expires_at: s.expires_at } : {}),
    };
    const envelope: SkillEnvelope = { statement, manifest: e.manifest, public_key: e.public_key, signature: e.signature };
    return encodeEnvelope(envelope) === text ? envelope : undefined;
  } catch {
    return undefined;
  }
}

/** Parse SKILL.sig: the canonical envelope, with or without the one LF that `signSkill` writes after it. */
export function parseSidecarEnvelope(bytes: Uint8Array): SkillEnvelope | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    return parseEnvelope(text.endsWith('\n') ? text.slice(0, -1) : text);
  } catch {
    return undefined;
  }
}

/** Parse an inline x-signature value: canonical base64 of the canonical envelope, nothing around it. */
export function parseInlineEnvelope(value: string): SkillEnvelope | undefined {
  try {
    return parseEnvelope(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(fromBase64(value)));
  } catch {
    return undefined;
  }
}

export const encodeInlineEnvelope = (env: SkillEnvelope): string => toBase64(new TextEncoder().encode(encodeEnvelope(env)));

/** Does the envelope's signature verify under its own public key? (Not whether that key is trusted.) */
export function envelopeSignatureValid(env: SkillEnvelope): boolean {
  try {
    const pk = fromBase64(env.public_key);
    return fingerprint(pk) === env.statement.key_id && ed25519Verify(fromBase64(env.signature), canonicalJsonBytes(env.statement), pk);
  } catch {
    return false;
  }
}
