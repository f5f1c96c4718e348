// Skill verification benchmark (issue: skills): a 100-file, 1 MiB bundle,
// signed with the SKILL.sig sidecar, verified end to end (manifest, SHA-256 of
// every file, Ed25519, policy), against the ≤ 5 ms target.
import { init, signSkill, generateSkillKey, verifySkillSignature, TrustRoot } from '../dist/skills.js';
import { runSuite, stamp, writeSection } from './harness.mjs';

await init();
const enc = new TextEncoder();
const files = new Map([['SKILL.md', enc.encode('---\nname: big-skill\ndescription: A large bundle.\nversion: 1.0.0\n---\nbody\n')]]);
for (let i = 0; i < 99; i++) files.set(`lib/file-${String(i).padStart(2, '0')}.js`, new Uint8Array(10_590).map((_, j) => (i * 31 + j) & 0x7f));
const total = [...files.values()].reduce((n, b) => n + b.length, 0);
const key = generateSkillKey();
const bundle = signSkill({ files }, key.secretKey);
const trustRoot = new TrustRoot({ keys: [{ fingerprint: key.fingerprint }] });
if (verifySkillSignature(bundle, { trustRoot }).status !== 'verified') throw new Error('bundle does not verify');
const rows = await runSuite('skills', [
  { name: `verify ${files.size} files, ${(total / 2 ** 20).toFixed(2)} MiB`, fn: () => verifySkillSignature(bundle, { trustRoot }) },
  { name: 'sign the same bundle', fn: () => signSkill({ files }, key.secretKey) },
]);
const md = [
  `_${stamp()}_`, '', '| what | measured | target |', '|---|---|---|',
  `| ${rows[0].name} | ${(rows[0].meanUs / 1000).toFixed(2)} ms | ≤ 5 ms |`,
  `| ${rows[1].name} | ${(rows[1].meanUs / 1000).toFixed(2)} ms | |`,
].join('\n');
console.log(md);
writeSection('skills', `## Skill signatures\n\n${md}`);
