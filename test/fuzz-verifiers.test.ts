// Verifiers never throw on attacker content: they return a result that says
// why. Each is fed mutations of a valid input (byte flips, cuts, splices,
// duplicated lines) and arbitrary values where the attacker controls them.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CheckpointWitness, generateNoteKey, init, MerkleTree, openCheckpoint, openNote, parseSignerKey, parseVerifierKey, signCheckpoint,
  verifyConsistency, verifyInclusion,
} from '../src/tlog/index.js';
import {
  generateSkillKey, parseMinisignPublicKey, parseMinisignSignature, parseSshSignature, signSkill, verifyMinisign, verifySkillSignature, verifySshSignature,
  type SkillBundle,
} from '../src/skills/index.js';
import { vectorPath } from './helpers/vectors.js';

await init();

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A byte-level mutation of `bytes`: flip, delete, insert, splice a slice elsewhere, or cut. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.nat(7) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 40 }) }),
  fc.record({ kind: fc.constant('splice' as const), from: fc.nat(), len: fc.integer({ min: 1, max: 80 }), to: fc.nat() }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(bytes: Uint8Array, ms: readonly Mutation[]): Uint8Array {
  let b = Array.from(bytes);
  for (const m of ms) {
    const at = b.length ? ('at' in m ? m.at % (b.length + 1) : 0) : 0;
    if (m.kind === 'flip' && b.length) b[at % b.length]! ^= 1 << m.bit;
    else if (m.kind === 'delete') b.splice(at, m.len);
    else if (m.kind === 'insert') b.splice(at, 0, ...m.bytes);
    else if (m.kind === 'splice' && b.length) {
      const from = m.from % b.length;
      b.splice(m.to % (b.length + 1), 0, ...b.slice(from, from + m.len));
    } else if (m.kind === 'cut') b = b.slice(0, at);
  }
  return Uint8Array.from(b);
}
const mutations = fc.array(mutation, { minLength: 1, maxLength: 4 });

describe('tlog verifiers never throw', () => {
  const keys = generateNoteKey('log.example/a');
  const other = generateNoteKey('log.example/b');
  const verifiers = [parseVerifierKey(keys.verifierKey), parseVerifierKey(other.verifierKey)];
  const tree = new MerkleTree();
  for (let i = 0; i < 13; i++) tree.append(enc.encode(`leaf ${i}`));
  const note = signCheckpoint({ origin: 'log.example/a', size: 13, root: tree.root(), extensions: [] }, [parseSignerKey(keys.signerKey), parseSignerKey(other.signerKey)]);

  it('openNote and openCheckpoint on mutated notes, as bytes and as text', () => {
    fc.assert(
      fc.property(mutations, (ms) => {
        const bad = mutate(enc.encode(note), ms);
        for (const input of [bad, dec.decode(bad)]) {
          expect(typeof openNote(input, verifiers).ok).toBe('boolean');
          expect(typeof openCheckpoint(input, verifiers, { origin: 'log.example/a', require: ['log.example/b'] }).ok).toBe('boolean');
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('CheckpointWitness.update on mutated notes and arbitrary proofs, and its state only moves forward', () => {
    const witness = new CheckpointWitness(verifiers);
    expect(witness.update(note).ok).toBe(true);
    fc.assert(
      fc.property(mutations, fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 6 }), (ms, proof) => {
        const r = witness.update(mutate(enc.encode(note), ms), proof);
        expect(typeof r.ok).toBe('boolean');
        expect(witness.current('log.example/a')!.size).toBeGreaterThanOrEqual(13);
      }),
      { numRuns: 800 },
    );
  });

  it('verifyInclusion and verifyConsistency on arbitrary numbers and proofs', () => {
    const num = fc.oneof(fc.integer({ min: -5, max: 40 }), fc.constantFrom(Number.NaN, Infinity, -0, 2 ** 53, 1.5));
    const hash = fc.oneof(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 40 }));
    fc.assert(
      fc.property(hash, num, num, fc.array(hash, { maxLength: 8 }), hash, (leaf, a, b, proof, root) => {
        expect(typeof verifyInclusion(leaf, a, b, proof, root).ok).toBe('boolean');
        expect(typeof verifyConsistency(a, b, proof, root, leaf).ok).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });
});

describe('skill verification never throws', () => {
  const key = generateSkillKey();
  const bundle: SkillBundle = {
    files: new Map([
      ['SKILL.md', enc.encode('---\nname: weather\ndescription: Looks up the weather.\nversion: 1.2.0\n---\n\n# Weather\n')],
      ['scripts/get.sh', enc.encode('#!/bin/sh\necho sunny\n')],
    ]),
  };
  const signed = signSkill(bundle, key.secretKey, { issuedAt: 1_800_000_000 - 10 });
  const trustRoot = { keys: [{ fingerprint: key.fingerprint, signer: 'acme' }] };

  it('on bundles whose files (signature carriers included) are mutated', () => {
    const names = [...signed.files.keys()];
    fc.assert(
      fc.property(fc.constantFrom(...names), mutations, (name, ms) => {
        const files = new Map(signed.files);
        files.set(name, mutate(files.get(name)!, ms));
        const r = verifySkillSignature({ files }, { trustRoot, now: 1_800_000_000 });
        expect(typeof r.status).toBe('string');
      }),
      { numRuns: 600 },
    );
  });

  it('minisign and SSHSIG verifiers on mutated real signatures (test/vectors)', () => {
    const read = (p: string) => new Uint8Array(readFileSync(vectorPath(p)));
    const mKey = parseMinisignPublicKey(dec.decode(read('minisign/minisign.pub')))!;
    const mMsg = read('minisign/SKILL.md');
    const mSig = read('minisign/SKILL.md.minisig');
    const sMsg = read('sshsig/SKILL.md');
    const sSig = read('sshsig/SKILL.md.sig');
    let parsed = 0;
    fc.assert(
      fc.property(mutations, (ms) => {
        const m = parseMinisignSignature(dec.decode(mutate(mSig, ms)));
        if (m) {
          parsed++;
          expect(typeof verifyMinisign(mMsg, m, mKey)).toBe('boolean');
        }
        const s = parseSshSignature(dec.decode(mutate(sSig, ms)));
        if (s) {
          parsed++;
          expect(typeof verifySshSignature(sMsg, s, 'skill')).toBe('boolean');
        }
      }),
      { numRuns: 1500 },
    );
    expect(parsed).toBeGreaterThan(100); // the mutations reach the verifiers, not only the parsers
  });

  it('minisign and SSHSIG parsers and verifiers on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const m = parseMinisignSignature(text);
        if (m) expect(typeof verifyMinisign(enc.encode('x'), m, { keyId: new Uint8Array(8), publicKey: new Uint8Array(32) } as never)).toBe('boolean');
        const s = parseSshSignature(text);
        if (s) expect(typeof verifySshSignature(enc.encode('x'), s, 'parapet-skill')).toBe('boolean');
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the injection detector never throws on content', () => {
  it('observe, inspect and assess take arbitrary text and JSON arguments', async () => {
    const { IpiDetector } = await import('../src/ipi/index.js');
    const detector = new IpiDetector({ mode: 'block', env: {} });
    const text = fc.string({ unit: 'binary', maxLength: 600 });
    fc.assert(
      fc.property(text, text, fc.jsonValue({ maxDepth: 4 }), fc.string({ maxLength: 30 }), (result, user, args, name) => {
        const s = detector.session('fuzz');
        s.observe({ role: 'user', content: user });
        s.observe({ role: 'tool', content: result, toolName: name });
        expect(detector.inspect(result).score).toBeGreaterThanOrEqual(0);
        const risk = s.evaluate({ name, arguments: args });
        expect(Number.isFinite(risk.score)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
