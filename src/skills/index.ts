/**
 * parapet/skills — Ed25519 signatures over whole skill bundles, checked
 * against an operator trust root; interoperable with minisign and ssh-keygen -Y.
 *
 * @module parapet/skills
 */
export { init, initSync } from '../init.js';
export { TrustRoot, resolvePublishers, type TrustRootConfig, type TrustedKeyConfig, type TrustedKey, type PublisherConfig, type RevocationList } from './trust.js';
export {
  verifySkillSignature, bundleManifest, SSH_NAMESPACE, type SkillVerification, type SkillReport, type SkillStatus, type SkillFailure,
  type SkillMode, type SkillFormat, type VerifyOptions,
} from './verify.js';
export { SkillRatchet } from './ratchet.js';
export { compareVersions, isSemVer } from './semver.js';
export { signSkill, generateSkillKey, minisignKeyId, type SignOptions } from './sign.js';
export { fingerprint, type SkillStatement, type SkillEnvelope } from './statement.js';
export { readFrontmatter, MAX_FRONTMATTER_BYTES, MAX_FRONTMATTER_KEYS, type SkillMeta, type FrontmatterFailure, type FrontmatterResult } from './frontmatter.js';

// The bundle format, for tools that build or check bundles themselves: the
// manifest and digest rule (decision 7), and the minisign and OpenSSH formats
// the detached carriers use. verifySkillSignature is all most callers need.
export {
  buildManifest, manifestText, parseManifest, skillMdForDigest, CARRIER_FILES, type SkillBundle, type ManifestEntry,
  type ManifestFailure, type ParsedManifest, type ManifestBuild,
} from './bundle.js';
export {
  parseMinisignPublicKey, parseMinisignSignature, verifyMinisign, signMinisign, minisignPublicKeyFile, type MinisignKey, type MinisignSignature,
} from './formats/minisign.js';
export { parseSshPublicKey, parseSshSignature, verifySshSignature, sshSignedData, signSsh, sshPublicKeyLine, type SshSignature } from './formats/sshsig.js';

// The package's errors and result shape, so that code using only this entry can catch and switch on them.
export { ParapetError, ParapetTypeError, ParapetRangeError, ParapetStateError } from '../bindings/errors.js';
export type { ParapetErrorCode } from '../bindings/errors.js';
export type { VerifyResult, VerifyFailure } from '../bindings/result.js';
