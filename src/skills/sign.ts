import { toBase64, toHex } from '../bindings/encoding.js';
import { sha256 } from '../bindings/index.js';
import { assertBytes, assertInteger, ParapetRangeError } from '../bindings/errors.js';
import { canonicalJsonBytes } from '../canonical/jcs.js';
import { ed25519PublicKey, ed25519Sign } from '../crypto/ed25519.js';
import { frontmatterRange, type SkillBundle } from './bundle.js';
import { readFrontmatter } from './frontmatter.js';
import { encodeEnvelope, encodeInlineEnvelope, fingerprint, type SkillEnvelope, type SkillStatement } from './statement.js';
import { bundleManifest } from './verify.js';

export interface SignOptions {
  /** SKILL.sig beside SKILL.md (default), or `x-signature` inside its frontmatter. */
  readonly carrier?: 'sidecar' | 'inline';
  /** Seconds since the epoch; default now. */
  readonly issuedAt?: number;
  readonly expiresAt?: number;
}

/**
 * Sign a whole bundle with a 32-byte Ed25519 secret key. Returns a new bundle
 * carrying the signature (the input is not changed). Any earlier parapet
 * carrier is replaced.
 */
export function signSkill(bundle: SkillBundle, secretKey: Uint8Array, options: SignOptions = {}): SkillBundle {
  assertBytes(secretKey, 'secretKey', 32);
  const carrier = options.carrier ?? 'sidecar';
  if (carrier !== 'sidecar' && carrier !== 'inline') throw new ParapetRangeError(`"carrier" must be sidecar or inline`, 'invalid-value');
  const issuedAt = options.issuedAt ?? Math.floor(Date.now() / 1000);
  assertInteger(issuedAt, 'issuedAt', 0, Number.MAX_SAFE_INTEGER);
  if (options.expiresAt !== undefined) assertInteger(options.expiresAt, 'expiresAt', issuedAt + 1, Number.MAX_SAFE_INTEGER);
  const files = new Map(bundle.files);
  files.delete('SKILL.sig');
  const skillMd = files.get('SKILL.md');
  if (!skillMd) throw new ParapetRangeError('the bundle has no SKILL.md', 'invalid-value');
  files.set('SKILL.md', withoutInline(skillMd));
  const meta = readFrontmatter(files.get('SKILL.md')!);
  if ('problem' in meta) throw new ParapetRangeError(`SKILL.md: ${meta.problem}`, 'invalid-value');
  const manifest = bundleManifest({ files });
  const publicKey = ed25519PublicKey(secretKey);
  const statement: SkillStatement = {
    type: 'parapet-skill-signature/v1', name: meta.name, version: meta.version ?? null,
    manifest_digest: toHex(sha256(new TextEncoder().encode(manifest))), key_id: fingerprint(publicKey), issued_at: issuedAt,
    ...(options.expiresAt !== undefined ? { expires_at: options.expiresAt } : {}),
  };
  const envelope: SkillEnvelope = {
    statement, manifest, public_key: toBase64(publicKey), signature: toBase64(ed25519Sign(canonicalJsonBytes(statement), secretKey)),
  };
  if (carrier === 'sidecar') files.set('SKILL.sig', new TextEncoder().encode(`${encodeEnvelope(envelope)}\n`));
  else files.set('SKILL.md', withInline(files.get('SKILL.md')!, encodeInlineEnvelope(envelope)));
  return { files };
}

/** Remove an existing `x-signature:` line (the digest rule ignores it anyway). */
function withoutInline(bytes: Uint8Array): Uint8Array {
  const text = new TextDecoder().decode(bytes);
  const fm = frontmatterRange(text);
  if (!fm) return bytes;
  const block = text.slice(fm.start, fm.end).replace(/^x-signature:[^\n]*\n/m, '');
  return new TextEncoder().encode(text.slice(0, fm.start) + block + text.slice(fm.end));
}

/** Add `x-signature: <base64>` as the last frontmatter line. */
function withInline(bytes: Uint8Array, value: string): Uint8Array {
  const text = new TextDecoder().decode(bytes);
  const fm = frontmatterRange(text)!;
  return new TextEncoder().encode(`${text.slice(0, fm.end)}x-signature: ${value}\n${text.slice(fm.end)}`);
}

/** A new signing key pair and the fingerprint to pin in a trust root. */
export function generateSkillKey(): { secretKey: Uint8Array; publicKey: Uint8Array; fingerprint: string } {
  const secretKey = crypto.getRandomValues(new Uint8Array(32));
  const publicKey = ed25519PublicKey(secretKey);
  return { secretKey, publicKey, fingerprint: fingerprint(publicKey) };
}
