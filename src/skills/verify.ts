import { bytesEqual, toHex, utf8 } from '../bindings/encoding.js';
import { sha256 } from '../bindings/index.js';
import { assertInteger, assertOptions, ParapetRangeError } from '../bindings/errors.js';
import type { VerifyResult } from '../bindings/result.js';
import { buildManifest, diffManifests, inlineManifest, manifestText, parseManifest, type ManifestEntry, type SkillBundle } from './bundle.js';
import { findCarrier, type Carrier } from './carriers.js';
import { readFrontmatter, type SkillMeta } from './frontmatter.js';
import { commentPublicKey, parseMinisignSignature, verifyMinisign } from './formats/minisign.js';
import { parseSshSignature, verifySshSignature } from './formats/sshsig.js';
import type { SkillRatchet } from './ratchet.js';
import { compareVersions, isSemVer } from './semver.js';
import { envelopeSignatureValid, fingerprint, type SkillEnvelope } from './statement.js';
import { TrustRoot, type TrustRootConfig, type TrustedKey } from './trust.js';

/**
 * What verification found. `verified` is the only success; `not-checked` is
 * mode `off`, where nothing was read.
 */
export type SkillStatus = 'verified' | SkillFailure;

/** Every status but `verified`: the `code` of a failed verification. */
export type SkillFailure =
  | 'unsigned' | 'bad-signature' | 'untrusted-key' | 'digest-mismatch' | 'expired' | 'revoked'
  | 'rollback' | 'policy-denied' | 'malformed' | 'not-checked';

export type SkillMode = 'enforce' | 'warn' | 'off';
export type SkillFormat = 'sidecar' | 'inline' | 'minisign' | 'sshsig' | 'none';

/** The fields every skill verification reports, verified or not. */
export interface SkillReport {
  readonly status: SkillStatus;
  /**
   * Whether the caller may load the skill under `mode`: in enforce only when
   * verified; in warn and off always. This, not `ok`, is the loading decision.
   */
  readonly allowed: boolean;
  readonly mode: SkillMode;
  readonly format: SkillFormat;
  readonly name?: string;
  readonly version?: string;
  readonly keyId?: string;
  readonly fingerprint?: string;
  readonly signer?: string;
  readonly files: { readonly added: readonly string[]; readonly removed: readonly string[]; readonly changed: readonly string[] };
  readonly reasons: readonly string[];
}

/**
 * The result of `verifySkillSignature`. `ok` says whether the bundle verified
 * (status `verified`), whatever the mode; when it did not, `code` is the
 * status and `message` its reasons. `allowed` is the mode's decision: in
 * warn and off a bundle that did not verify is `ok: false` yet allowed, so
 * code that loads on `ok` fails closed and code that loads on `allowed`
 * follows the operator's mode (decision 41).
 */
export type SkillVerification = VerifyResult<
  SkillFailure,
  SkillReport & { readonly status: 'verified' },
  SkillReport & { readonly status: SkillFailure }
>;

/** The namespace for `ssh-keygen -Y sign -n parapet-skill`. */
export const SSH_NAMESPACE = 'parapet-skill';

export interface VerifyOptions {
  readonly trustRoot: TrustRoot | TrustRootConfig;
  readonly mode?: SkillMode;
  /** Seconds since the epoch; default now. */
  readonly now?: number;
  /** The version ratchet; updated when a skill verifies. */
  readonly state?: SkillRatchet;
  /** Where every result is recorded (e.g. an AuditLog from parapet/tlog). */
  readonly audit?: { append(event: Record<string, unknown>): unknown };
}

const NO_FILES = { added: [], removed: [], changed: [] } as const;

/**
 * Verify a whole skill bundle against the operator's trust root. Never throws
 * on bundle content: every outcome is a status with reasons (see
 * `SkillVerification` for what `ok` and `allowed` mean). A forged
 * signature (`bad-signature`) is told from a good signature by a key the
 * operator does not trust (`untrusted-key`).
 */
export function verifySkillSignature(bundle: SkillBundle, options: VerifyOptions): SkillVerification {
  assertOptions(options);
  const mode = options.mode ?? 'enforce';
  if (mode !== 'enforce' && mode !== 'warn' && mode !== 'off') throw new ParapetRangeError(`"mode" must be enforce, warn or off`, 'invalid-value');
  const trust = options.trustRoot instanceof TrustRoot ? options.trustRoot : new TrustRoot(options.trustRoot);
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (options.now !== undefined) assertInteger(now, 'now', 0, Number.MAX_SAFE_INTEGER);
  const base = { mode, format: 'none' as SkillFormat, files: NO_FILES };
  const done = (status: SkillStatus, extra: Partial<SkillReport> = {}): SkillVerification => {
    const reasons = extra.reasons ?? [];
    const report = { ...base, ...extra, status, allowed: mode !== 'enforce' || status === 'verified', reasons };
    const result: SkillVerification = status === 'verified'
      ? { ...report, ok: true, status }
      : { ...report, ok: false, status, code: status, message: reasons.join('; ') };
    options.audit?.append({
      type: 'skill-verification', at: now, status, allowed: result.allowed, mode, format: result.format,
      ...(result.name ? { name: result.name } : {}), ...(result.version ? { version: result.version } : {}),
      ...(result.fingerprint ? { fingerprint: result.fingerprint } : {}), reasons: [...result.reasons], files: result.files,
    });
    return result;
  };
  if (mode === 'off') return done('not-checked', { reasons: ['verification is off'] });

  const paths = buildManifest(bundle);
  if (!paths.ok) return done('malformed', { reasons: [...paths.problems] });
  const front = readFrontmatter(bundle.files.get('SKILL.md')!);
  if (!front.ok) return done('malformed', { reasons: [front.message] });
  const { meta } = front;
  const who = { name: meta.name, ...(meta.version !== undefined ? { version: meta.version } : {}) };
  const refused = trust.nameRefused(meta.name);
  if (refused) return done('policy-denied', { ...who, reasons: [refused] });

  const carrier = findCarrier(bundle, meta);
  if (!carrier) return done('unsigned', { ...who, reasons: ['no signature: no SKILL.sig, x-signature, MANIFEST.minisig or MANIFEST.sig'] });
  if ('malformed' in carrier) return done('malformed', { ...who, format: carrier.format, reasons: [carrier.malformed] });
  // Only the inline carrier's own line is left out of SKILL.md's digest.
  const entries = carrier.format === 'inline' ? inlineManifest(paths.entries, bundle.files.get('SKILL.md')!) : paths.entries;

  const checked = 'envelope' in carrier ? checkEnvelope(carrier.envelope, trust) : checkDetached(carrier, trust);
  const ids = { format: carrier.format, ...who, ...(checked.fingerprint ? { fingerprint: checked.fingerprint, keyId: checked.fingerprint } : {}), ...(checked.signer ? { signer: checked.signer } : {}) };
  if (checked.status) return done(checked.status, { ...ids, reasons: [checked.reason!] });

  // The signature is good and the key trusted: now what it covers.
  const files = diffManifests(checked.signedManifest!, entries);
  if (files.added.length || files.removed.length || files.changed.length) {
    return done('digest-mismatch', { ...ids, files, reasons: describeDiff(files) });
  }
  if (checked.statement && checked.statement.name !== meta.name) return done('digest-mismatch', { ...ids, reasons: ['the signed name differs from SKILL.md'] });
  if (checked.statement && (checked.statement.version ?? undefined) !== meta.version) return done('digest-mismatch', { ...ids, reasons: ['the signed version differs from SKILL.md'] });
  const key = checked.key!;
  if (key.names && !key.names.includes(meta.name)) return done('untrusted-key', { ...ids, reasons: [`key ${key.fingerprint} may not sign "${meta.name}"`] });
  if (checked.statement?.expires_at !== undefined && checked.statement.expires_at <= now) {
    return done('expired', { ...ids, reasons: [`signature expired at ${new Date(checked.statement.expires_at * 1000).toISOString()}`] });
  }
  const revoked = checkRevocation(trust, key.fingerprint, meta, now);
  if (revoked) return done(revoked.status, { ...ids, reasons: [revoked.reason] });
  const rolledBack = checkRatchet(options.state, meta);
  if (rolledBack) return done(rolledBack.status, { ...ids, reasons: [rolledBack.reason] });
  options.state?.accept(meta.name, meta.version);
  return done('verified', { ...ids, reasons: [`signed by ${key.signer}`] });
}

interface Checked {
  status?: SkillStatus;
  reason?: string;
  key?: TrustedKey;
  fingerprint?: string;
  signer?: string;
  signedManifest?: ManifestEntry[];
  statement?: SkillEnvelope['statement'];
}

function checkEnvelope(env: SkillEnvelope, trust: TrustRoot): Checked {
  const fp = env.statement.key_id;
  if (!envelopeSignatureValid(env)) return { status: 'bad-signature', reason: 'the signature does not verify under the key it names', fingerprint: fp };
  const key = trust.byFingerprint(fp);
  if (!key) return { status: 'untrusted-key', reason: `a valid signature by ${fp}, which the trust root does not hold`, fingerprint: fp };
  const signedManifest = parseManifest(env.manifest);
  if (toHex(sha256(utf8(env.manifest))) !== env.statement.manifest_digest) {
    return { status: 'malformed', reason: 'the envelope manifest does not match the signed digest', fingerprint: fp };
  }
  if (!signedManifest.ok) return { status: 'malformed', reason: `the signed manifest is not one: ${signedManifest.message}`, fingerprint: fp };
  return { key, fingerprint: fp, signer: key.signer, signedManifest: signedManifest.entries, statement: env.statement };
}

/** minisign and SSHSIG sign the MANIFEST file shipped in the bundle. */
function checkDetached(carrier: Extract<Carrier, { signature: string }>, trust: TrustRoot): Checked {
  if (!carrier.manifest) return { status: 'malformed', reason: `${carrier.format} signature without a MANIFEST file` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(carrier.manifest);
  } catch {
    return { status: 'malformed', reason: 'MANIFEST is not UTF-8' };
  }
  const parsed = parseManifest(text);
  if (!parsed.ok) return { status: 'malformed', reason: `MANIFEST is not a manifest: ${parsed.message}` };
  const signedManifest = parsed.entries;
  if (carrier.format === 'sshsig') {
    const sig = parseSshSignature(carrier.signature);
    if (!sig) return { status: 'malformed', reason: 'MANIFEST.sig is not an SSH signature' };
    const fp = fingerprint(sig.publicKey);
    if (sig.namespace !== SSH_NAMESPACE) return { status: 'bad-signature', reason: `signed for namespace "${sig.namespace}", not "${SSH_NAMESPACE}"`, fingerprint: fp };
    if (!verifySshSignature(carrier.manifest, sig, SSH_NAMESPACE)) return { status: 'bad-signature', reason: 'the SSH signature does not verify', fingerprint: fp };
    const key = trust.byFingerprint(fp);
    if (!key) return { status: 'untrusted-key', reason: `a valid signature by ${fp}, which the trust root does not hold`, fingerprint: fp };
    return { key, fingerprint: fp, signer: key.signer, signedManifest };
  }
  const sig = parseMinisignSignature(carrier.signature);
  if (!sig) return { status: 'malformed', reason: 'MANIFEST.minisig is not a minisign signature' };
  // minisign names only a key id: look for a trusted minisign key with that id.
  const key = trust.keys.find((k) => k.minisign && bytesEqual(k.minisign.keyId, sig.keyId));
  if (key) {
    if (!verifyMinisign(carrier.manifest, sig, key.minisign!)) return { status: 'bad-signature', reason: 'the minisign signature or its trusted comment does not verify', fingerprint: key.fingerprint };
    return { key, fingerprint: key.fingerprint, signer: key.signer, signedManifest };
  }
  // A parapet signature names its key in the trusted comment. The claim is only a
  // hint: the signatures are checked under that key, and the key must be pinned.
  const claimed = commentPublicKey(sig.trustedComment);
  if (!claimed) return { status: 'untrusted-key', reason: `signed by minisign key ${toHex(sig.keyId)}, which the trust root does not hold` };
  const fp = fingerprint(claimed);
  if (!verifyMinisign(carrier.manifest, sig, { keyId: sig.keyId, publicKey: claimed })) {
    return { status: 'bad-signature', reason: 'the minisign signature or its trusted comment does not verify under the key it names', fingerprint: fp };
  }
  const pinned = trust.byFingerprint(fp);
  if (!pinned) return { status: 'untrusted-key', reason: `a valid signature by ${fp}, which the trust root does not hold`, fingerprint: fp };
  return { key: pinned, fingerprint: fp, signer: pinned.signer, signedManifest };
}

function checkRevocation(trust: TrustRoot, fp: string, meta: SkillMeta, now: number): { status: SkillStatus; reason: string } | undefined {
  const list = trust.revocations;
  if (!list) return undefined;
  // An expired list cannot say what has been revoked since: fail closed.
  if (list.expires_at <= now) return { status: 'revoked', reason: 'the revocation list has expired; refusing until it is renewed' };
  if (list.keys.includes(fp)) return { status: 'revoked', reason: `key ${fp} is revoked` };
  const entries = list.skills.filter((s) => s.name === meta.name);
  if (entries.some((s) => s.version === undefined)) return { status: 'revoked', reason: `every version of "${meta.name}" is revoked` };
  // A bundle without a version is not any revoked version: its signature covers other bytes than theirs.
  if (entries.length === 0 || meta.version === undefined) return undefined;
  // Versions compare by SemVer precedence, never as strings: "2.0.0+x" is the revoked 2.0.0.
  if (!isSemVer(meta.version)) return { status: 'malformed', reason: `version ${JSON.stringify(meta.version)} is not SemVer 2.0.0, and versions of "${meta.name}" are revoked` };
  const hit = entries.find((s) => compareVersions(meta.version!, s.version!) === 0);
  if (hit) return { status: 'revoked', reason: `"${meta.name}" ${hit.version} is revoked` };
  return undefined;
}

/**
 * The ratchet refuses what it cannot order: a non-SemVer version is
 * malformed, and a bundle without a version is a rollback once a version of
 * that skill was accepted (dropping the field must not step around it).
 */
function checkRatchet(state: SkillRatchet | undefined, meta: SkillMeta): { status: SkillStatus; reason: string } | undefined {
  if (!state) return undefined;
  const held = state.get(meta.name);
  if (meta.version === undefined) return held === undefined ? undefined : { status: 'rollback', reason: `no version, and ${held} was accepted` };
  if (!isSemVer(meta.version)) return { status: 'malformed', reason: `version ${JSON.stringify(meta.version)} is not SemVer 2.0.0, which the version ratchet needs` };
  if (held !== undefined && compareVersions(meta.version, held) < 0) return { status: 'rollback', reason: `version ${meta.version} is older than the accepted ${held}` };
  return undefined;
}

function describeDiff(files: { added: readonly string[]; removed: readonly string[]; changed: readonly string[] }): string[] {
  return [
    ...files.added.map((p) => `added after signing: ${p}`),
    ...files.removed.map((p) => `removed after signing: ${p}`),
    ...files.changed.map((p) => `changed after signing: ${p}`),
  ];
}

/** Exposed for signers: the manifest of a bundle, or why there is none. */
export function bundleManifest(bundle: SkillBundle, options: { inline?: boolean } = {}): string {
  const m = buildManifest(bundle, options);
  if (!m.ok) throw new ParapetRangeError(`bundle is malformed: ${m.message}`, 'invalid-value');
  return manifestText(m.entries);
}

