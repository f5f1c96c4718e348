import { toBase64, toHex } from '../bindings/encoding.js';
import { sha256 } from '../bindings/index.js';
import { assertBytes, assertInteger, assertOptions, ParapetRangeError, ParapetTypeError } from '../bindings/errors.js';
import { canonicalJsonBytes } from '../canonical/jcs.js';
import { ed25519PublicKey, ed25519Sign } from '../crypto/ed25519.js';
import { CARRIER_FILES, type SkillBundle } from './bundle.js';
import { MINISIGN_KEY_FIELD, signMinisign } from './formats/minisign.js';
import { signSsh } from './formats/sshsig.js';
import { readFrontmatter } from './frontmatter.js';
import { frontmatterRange, locateInlineSignature, skillMdForDigest } from './skill-md.js';
import { encodeEnvelope, encodeInlineEnvelope, fingerprint, type SkillEnvelope, type SkillStatement } from './statement.js';
import { bundleManifest, SSH_NAMESPACE } from './verify.js';

export interface SignOptions {
  /**
   * SKILL.sig beside SKILL.md (default), `x-signature` inside its frontmatter,
   * or MANIFEST plus a minisign (`MANIFEST.minisig`) or OpenSSH
   * (`MANIFEST.sig`, namespace parapet-skill) signature that the real tools verify.
   */
  readonly carrier?: 'sidecar' | 'inline' | 'minisign' | 'sshsig';
  /** For the minisign carrier: the 8-byte key id of the minisign public key. */
  readonly minisignKeyId?: Uint8Array;
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
  if (!(bundle?.files instanceof Map)) throw new ParapetTypeError('"bundle.files" must be a Map of path to bytes');
  assertOptions(options);
  assertBytes(secretKey, 'secretKey', 32);
  const carrier = options.carrier ?? 'sidecar';
  if (!['sidecar', 'inline', 'minisign', 'sshsig'].includes(carrier)) throw new ParapetRangeError(`"carrier" must be sidecar, inline, minisign or sshsig`, 'invalid-value');
  const issuedAt = options.issuedAt ?? Math.floor(Date.now() / 1000);
  assertInteger(issuedAt, 'issuedAt', 0, Number.MAX_SAFE_INTEGER);
  if (options.expiresAt !== undefined) assertInteger(options.expiresAt, 'expiresAt', issuedAt + 1, Number.MAX_SAFE_INTEGER);
  const files = new Map(bundle.files);
  for (const carrierFile of CARRIER_FILES) files.delete(carrierFile);
  const skillMd = files.get('SKILL.md');
  if (!skillMd) throw new ParapetRangeError('the bundle has no SKILL.md', 'invalid-value');
  // An earlier inline signature line goes; anything else that mentions x-signature stays content.
  files.set('SKILL.md', skillMdForDigest(skillMd));
  const front = readFrontmatter(files.get('SKILL.md')!);
  if (!front.ok) throw new ParapetRangeError(`SKILL.md: ${front.message}`, 'invalid-value');
  const { meta } = front;
  // An x-signature key left after the old line is removed would be a second carrier to the verifier.
  if (meta.xSignature !== undefined) throw new ParapetRangeError('SKILL.md: an x-signature that is not an inline signature line signSkill can replace; remove it before signing', 'invalid-value');
  const manifest = bundleManifest({ files }, { inline: carrier === 'inline' });
  const publicKey = ed25519PublicKey(secretKey);
  if (carrier === 'minisign' || carrier === 'sshsig') {
    const bytes = new TextEncoder().encode(manifest);
    files.set('MANIFEST', bytes);
    if (carrier === 'sshsig') files.set('MANIFEST.sig', new TextEncoder().encode(signSsh(bytes, secretKey, SSH_NAMESPACE)));
    else {
      const keyId = options.minisignKeyId ?? minisignKeyId(publicKey);
      assertBytes(keyId, 'minisignKeyId', 8);
      // The public key rides in the signed comment (minisign names only a key
      // id), so a trust root that pins the key by fingerprint alone can check it.
      const comment = `timestamp:${issuedAt}\tfile:MANIFEST\thashed\tskill:${meta.name}${meta.version ? ` ${meta.version}` : ''}\t${MINISIGN_KEY_FIELD}${toBase64(publicKey)}`;
      files.set('MANIFEST.minisig', new TextEncoder().encode(signMinisign(bytes, secretKey, keyId, comment)));
    }
    return { files };
  }
  const statement: SkillStatement = {
    type: 'parapet-skill-signature/v1', name: meta.name, version: meta.version ?? null,
    manifest_digest: toHex(sha256(new TextEncoder().encode(manifest))), key_id: fingerprint(publicKey), issued_at: issuedAt,
    ...(options.expiresAt !== undefined ? { expires_at: options.expiresAt } : {}),
  };
  const envelope: SkillEnvelope = {
    statement, manifest, public_key: toBase64(publicKey), signature: toBase64(ed25519Sign(canonicalJsonBytes(statement), secretKey)),
  };
  if (carrier === 'sidecar') files.set('SKILL.sig', new TextEncoder().encode(`${encodeEnvelope(envelope)}\n`));
  else {
    const inline = withInline(files.get('SKILL.md')!, encodeInlineEnvelope(envelope));
    // A frontmatter that mentions x-signature elsewhere would make the verifier refuse the line: say so now.
    const line = locateInlineSignature(inline);
    if (!line || 'problem' in line) throw new ParapetRangeError(`SKILL.md: cannot carry an inline signature: ${line ? line.problem : 'no frontmatter'}`, 'invalid-value');
    files.set('SKILL.md', inline);
  }
  return { files };
}

/** Add `x-signature: <base64>` as the last frontmatter line. */
function withInline(bytes: Uint8Array, value: string): Uint8Array {
  const fm = frontmatterRange(bytes)!;
  const line = new TextEncoder().encode(`x-signature: ${value}\n`);
  const out = new Uint8Array(bytes.length + line.length);
  out.set(bytes.subarray(0, fm.end));
  out.set(line, fm.end);
  out.set(bytes.subarray(fm.end), fm.end + line.length);
  return out;
}

/**
 * The minisign key id `signSkill` uses for `publicKey` unless given one: the
 * first 8 bytes of its SHA-256. `minisignPublicKeyFile(publicKey,
 * minisignKeyId(publicKey))` is the file `minisign -V -p` needs.
 */
export function minisignKeyId(publicKey: Uint8Array): Uint8Array {
  assertBytes(publicKey, 'publicKey', 32);
  return sha256(publicKey).slice(0, 8);
}

/** A new signing key pair and the fingerprint to pin in a trust root. */
export function generateSkillKey(): { secretKey: Uint8Array; publicKey: Uint8Array; fingerprint: string } {
  const secretKey = crypto.getRandomValues(new Uint8Array(32));
  const publicKey = ed25519PublicKey(secretKey);
  return { secretKey, publicKey, fingerprint: fingerprint(publicKey) };
}
