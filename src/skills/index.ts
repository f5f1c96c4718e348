/**
 * parapet/skills — Ed25519 signatures over whole skill bundles, checked
 * against an operator trust root; interoperable with minisign and ssh-keygen -Y.
 */
import { init as initCore } from '../init.js';
import type { InitSource } from '../bindings/instance.js';
import { initEd25519 } from '../crypto/ed25519.js';

/** Load the core, Ed25519, SHA-512 and BLAKE2b. Idempotent. */
export async function init(source?: InitSource): Promise<void> {
  await Promise.all([initCore(source), initEd25519()]);
}

export { buildManifest, manifestText, parseManifest, skillMdForDigest, CARRIER_FILES, type SkillBundle, type ManifestEntry } from './bundle.js';
export { readFrontmatter, type SkillMeta } from './frontmatter.js';
export { fingerprint, type SkillStatement, type SkillEnvelope } from './statement.js';
export { TrustRoot, resolvePublishers, type TrustRootConfig, type TrustedKeyConfig, type PublisherConfig, type RevocationList } from './trust.js';
export {
  verifySkillSignature, bundleManifest, SSH_NAMESPACE, type SkillVerification, type SkillStatus,
  type SkillMode, type SkillFormat, type VerifyOptions,
} from './verify.js';
export { SkillRatchet } from './ratchet.js';
export { compareVersions, isSemVer } from './semver.js';
export { MAX_FRONTMATTER_BYTES, MAX_FRONTMATTER_KEYS } from './frontmatter.js';
export { signSkill, generateSkillKey, minisignKeyId, type SignOptions } from './sign.js';
export { parseMinisignPublicKey, parseMinisignSignature, verifyMinisign, signMinisign, minisignPublicKeyFile } from './formats/minisign.js';
export { parseSshPublicKey, parseSshSignature, verifySshSignature, sshSignedData, signSsh, sshPublicKeyLine } from './formats/sshsig.js';
