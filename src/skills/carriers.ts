import type { SkillBundle } from './bundle.js';
import type { SkillMeta } from './frontmatter.js';
import { locateInlineSignature } from './skill-md.js';
import { parseInlineEnvelope, parseSidecarEnvelope, type SkillEnvelope } from './statement.js';

export type CarrierFormat = 'sidecar' | 'inline' | 'minisign' | 'sshsig';

export type Carrier =
  | { format: 'sidecar' | 'inline'; envelope: SkillEnvelope }
  | { format: 'minisign' | 'sshsig'; signature: string; manifest: Uint8Array | undefined }
  | { format: CarrierFormat | 'none'; malformed: string };

/**
 * Find the bundle's one signature carrier. Carriers are left out of the
 * digest, so a carrier that is not the one verified would ride along
 * unsigned: a bundle with two (say a SKILL.sig left behind when the skill was
 * re-signed with ssh-keygen, which a verifier reading SKILL.sig first would
 * still pick), or a MANIFEST beside a SKILL.sig or x-signature, is malformed.
 */
export function findCarrier(bundle: SkillBundle, meta: SkillMeta): Carrier | undefined {
  const has = (path: string) => bundle.files.has(path);
  const present: CarrierFormat[] = [];
  if (has('SKILL.sig')) present.push('sidecar');
  if (meta.xSignature !== undefined) present.push('inline');
  if (has('MANIFEST.minisig')) present.push('minisign');
  if (has('MANIFEST.sig')) present.push('sshsig');
  if (present.length > 1) return { format: 'none', malformed: `more than one signature carrier (${present.join(', ')}); a bundle carries exactly one` };
  const format = present[0];
  if (format === undefined) return undefined;
  if ((format === 'sidecar' || format === 'inline') && has('MANIFEST')) {
    return { format, malformed: `a MANIFEST file beside a ${format} signature, which does not cover it` };
  }
  if (format === 'sidecar') {
    const envelope = parseSidecarEnvelope(bundle.files.get('SKILL.sig')!);
    return envelope ? { format, envelope } : { format, malformed: 'SKILL.sig is not a canonical parapet signature envelope' };
  }
  if (format === 'inline') {
    const line = locateInlineSignature(bundle.files.get('SKILL.md')!);
    if (!line) return { format, malformed: 'x-signature is not written as a line of its own in the frontmatter' };
    if ('problem' in line) return { format, malformed: line.problem };
    // The line cut out of the digest must be the very value YAML reads as x-signature.
    if (line.value !== meta.xSignature) return { format, malformed: 'the x-signature line is not the value the frontmatter holds' };
    const envelope = parseInlineEnvelope(line.value);
    return envelope ? { format, envelope } : { format, malformed: 'x-signature is not a canonical parapet signature envelope' };
  }
  const file = format === 'minisign' ? 'MANIFEST.minisig' : 'MANIFEST.sig';
  let signature: string;
  try {
    signature = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bundle.files.get(file)!);
  } catch {
    return { format, malformed: `${file} is not UTF-8` };
  }
  return { format, signature, manifest: bundle.files.get('MANIFEST') };
}
