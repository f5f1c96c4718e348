import { describe, expect, it } from 'vitest';
import {
  ALG_COSIGNATURE_V1, CheckpointWitness, formatCheckpoint, generateNoteKey, init, keyIdFor, MerkleTree, noteKeysFromSeed,
  openCheckpoint, openNote, parseCheckpoint, parseSignerKey, parseVerifierKey, signCheckpoint, signNote,
} from '../src/tlog/index.js';
import { fromBase64, toBase64, toHex } from '../src/index.js';
import { hex, readVectorJson, readVectorText } from './helpers/vectors.js';
import { ParapetRangeError, ParapetStateError, ParapetTypeError } from '../src/bindings/errors.js';
import { expectThrows } from './helpers/errors.js';

await init();

type NoteCase = { id?: string; name?: string; note?: string; noteHex?: string; verifierKeys: string[]; expect: 'valid' | 'invalid' | 'malformed'; verifiedSigners?: string[]; expectedOrigin?: string; checkpoint?: { origin: string; treeSize: number; rootBase64: string } };

function check(c: NoteCase) {
  const label = c.id ?? c.name!;
  const verifiers = c.verifierKeys.map(parseVerifierKey);
  const note = c.noteHex !== undefined ? hex(c.noteHex) : c.note!;
  const result = c.checkpoint || c.expectedOrigin ? openCheckpoint(note, verifiers, { origin: c.expectedOrigin }) : openNote(note, verifiers);
  if (c.expect === 'valid') {
    expect(result.ok, `${label}: ${'message' in result ? result.message : ''}`).toBe(true);
    if (result.ok) expect(result.verified, label).toEqual(c.verifiedSigners);
  } else {
    expect(result.ok, label).toBe(false);
    if (!result.ok) expect(result.code === 'malformed', `${label}: ${result.code}`).toBe(c.expect === 'malformed');
  }
  return result;
}

describe('C2SP signed note vectors', () => {
  const upstream = readVectorJson<{ cases: NoteCase[]; keyIdVectors: { vkey: string; type: number }[]; badVerifierKeys: { vkey: string; why: string }[] }>(
    'signed-note/upstream_note_vectors.json',
  );

  it('opens every upstream case as expected (Go x/mod, transparency-dev, C2SP, the real sum.golang.org checkpoint)', () => {
    expect(upstream.cases.length).toBe(17);
    for (const c of upstream.cases) {
      const result = check(c);
      if (c.checkpoint && result.ok && 'checkpoint' in result) {
        expect(result.checkpoint.origin).toBe(c.checkpoint.origin);
        expect(result.checkpoint.size).toBe(c.checkpoint.treeSize);
        expect(toBase64(result.checkpoint.root)).toBe(c.checkpoint.rootBase64);
      }
    }
  });

  it('computes key IDs and refuses malformed verifier keys', () => {
    for (const v of upstream.keyIdVectors) {
      const key = parseVerifierKey(v.vkey);
      expect(toHex(keyIdFor(key.name, v.type, key.publicKey))).toBe(v.vkey.split('+')[1]);
    }
    for (const bad of upstream.badVerifierKeys) expectThrows(() => parseVerifierKey(bad.vkey), ParapetRangeError, 'invalid-value', bad.why);
  });

  const generated = readVectorJson<{ cases: NoteCase[]; signedCheckpoint: string; origin: string; treeSize: number; rootHex: string; logVerifierKey: string; witnessVerifierKey: string; cosignatureTimestamp: number }>(
    'signed-note/generated_checkpoint_vectors.json',
  );

  it('opens the generated checkpoint cases, including the witness cosignature', () => {
    for (const c of generated.cases) check(c);
    const r = openCheckpoint(generated.signedCheckpoint, [generated.logVerifierKey, generated.witnessVerifierKey].map(parseVerifierKey), {
      origin: generated.origin,
      require: [generated.origin, 'witness.example.test/w1'],
    });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.checkpoint.size).toBe(generated.treeSize);
      expect(toHex(r.checkpoint.root)).toBe(generated.rootHex);
      expect(r.timestamps['witness.example.test/w1']).toBe(generated.cosignatureTimestamp);
    }
    expect(readVectorText('signed-note/generated_checkpoint.txt')).toBe(generated.signedCheckpoint);
  });

  it('requires named signers when asked', () => {
    const r = openCheckpoint(generated.signedCheckpoint, [parseVerifierKey(generated.logVerifierKey)], { require: ['witness.example.test/w1'] });
    expect(r).toMatchObject({ ok: false, code: 'missing-signer' });
  });
});

describe('signing', () => {
  it('round-trips a checkpoint signed by a log key and cosigned by a witness', () => {
    const log = generateNoteKey('example.test/log');
    const witness = generateNoteKey('witness.test/w', ALG_COSIGNATURE_V1);
    const tree = new MerkleTree();
    tree.appendMany([1, 2, 3].map((i) => new Uint8Array([i])));
    const note = signCheckpoint(
      { origin: 'example.test/log', size: tree.size, root: tree.root(), extensions: ['ext line'] },
      [parseSignerKey(log.signerKey), { ...parseSignerKey(witness.signerKey), timestamp: 1_800_000_000 }],
    );
    const opened = openCheckpoint(note, [log.verifierKey, witness.verifierKey].map(parseVerifierKey), { origin: 'example.test/log' });
    expect(opened.ok).toBe(true);
    if (opened.ok) {
      expect(opened.verified).toEqual(['example.test/log', 'witness.test/w']);
      expect(opened.checkpoint.extensions).toEqual(['ext line']);
      expect(opened.timestamps['witness.test/w']).toBe(1_800_000_000);
    }
    // Any change to the text breaks the log's signature.
    const tampered = note.replace('\n3\n', '\n4\n');
    expect(openCheckpoint(tampered, [parseVerifierKey(log.verifierKey)])).toMatchObject({ ok: false, code: 'bad-signature' });
  });

  it('a junk line carrying a known key id does not spoil that key\'s valid signature, in either order; only-bad lines still fail', () => {
    const k = generateNoteKey('example.test/k');
    const signer = parseSignerKey(k.signerKey);
    const verifiers = [parseVerifierKey(k.verifierKey)];
    const note = signNote('hello\n', [signer]);
    const good = note.slice(note.indexOf('\u2014'));
    const junk = `\u2014 example.test/k ${toBase64(Uint8Array.of(...signer.keyId, ...new Uint8Array(64).fill(9)))}\n`;
    for (const lines of [[good, junk], [junk, good], [good, good], [junk, good, junk]]) {
      const r = openNote(`hello\n\n${lines.join('')}`, verifiers);
      expect(r, lines.map((l) => (l === good ? 'good' : 'junk')).join(',')).toMatchObject({ ok: true, verified: ['example.test/k'], unknown: [] });
    }
    expect(openNote(`hello\n\n${junk}`, verifiers)).toMatchObject({ ok: false, code: 'bad-signature' });
    expect(openNote(`hello\n\n${junk}${junk}`, verifiers)).toMatchObject({ ok: false, code: 'bad-signature' });
    // Another known key with only a bad line still spoils the note (the spec's SHOULD reject).
    const other = generateNoteKey('example.test/other');
    const otherJunk = `\u2014 example.test/other ${toBase64(Uint8Array.of(...parseSignerKey(other.signerKey).keyId, ...new Uint8Array(64)))}\n`;
    expect(openNote(`hello\n\n${good}${otherJunk}`, [...verifiers, parseVerifierKey(other.verifierKey)])).toMatchObject({ ok: false, code: 'bad-signature' });
    // Identical unknown lines are reported once, as Go drops them.
    expect(openNote(`hello\n\n${good}${otherJunk}${otherJunk}`, verifiers)).toMatchObject({ ok: true, unknown: [{ name: 'example.test/other' }] });
  });

  it('keeps a cosignature timestamp for a key named __proto__', () => {
    const w = generateNoteKey('__proto__', ALG_COSIGNATURE_V1);
    const note = signNote('hello\n', [{ ...parseSignerKey(w.signerKey), timestamp: 1_800_000_000 }]);
    const r = openNote(note, [parseVerifierKey(w.verifierKey)]);
    expect(r.ok && r.timestamps['__proto__']).toBe(1_800_000_000);
  });

  it('is deterministic from a seed and matches the published key format', () => {
    const seed = new Uint8Array(32).fill(7);
    const a = noteKeysFromSeed('PeterNeumann', seed);
    const b = noteKeysFromSeed('PeterNeumann', seed);
    expect(a).toEqual(b);
    expect(a.verifierKey).toMatch(/^PeterNeumann\+[0-9a-f]{8}\+A[A-Za-z0-9+/]{43}$/);
    const note = signNote('hello\n', [parseSignerKey(a.signerKey)]);
    expect(openNote(note, [parseVerifierKey(a.verifierKey)]).ok).toBe(true);
  });

  it('refuses text that cannot be a note, and bad checkpoints', () => {
    const k = parseSignerKey(generateNoteKey('k').signerKey);
    expectThrows(() => signNote('no newline', [k]), ParapetRangeError, 'invalid-value');
    expectThrows(() => signNote('a\n\nb\n', [k]), ParapetRangeError, 'invalid-value');
    expectThrows(() => signNote('ok\n', []), ParapetRangeError, 'invalid-value');
    expectThrows(() => formatCheckpoint({ origin: '', size: 1, root: new Uint8Array(32), extensions: [] }), ParapetRangeError, 'invalid-value');
    expectThrows(() => formatCheckpoint({ origin: 'o', size: -1, root: new Uint8Array(32), extensions: [] }), ParapetRangeError, 'invalid-value');
    expectThrows(() => formatCheckpoint({ origin: 'o', size: 1, root: new Uint8Array(31), extensions: [] }), ParapetRangeError, 'invalid-length');
  });

  it('parses checkpoint text strictly', () => {
    const root = toBase64(new Uint8Array(32));
    expect(parseCheckpoint(`o\n5\n${root}\n`)).toMatchObject({ ok: true, checkpoint: { origin: 'o', size: 5 } });
    for (const bad of [`o\n05\n${root}\n`, `o\n-1\n${root}\n`, `o\n5\n${root}`, `o\n5\nAAAA\n`, `\n5\n${root}\n`, `o\n5\n${root}\n\n`, 'o\n5\n']) {
      expect(parseCheckpoint(bad), JSON.stringify(bad)).toMatchObject({ ok: false, code: 'malformed-checkpoint' });
    }
    expect(fromBase64(root)).toHaveLength(32);
  });
});

describe('CheckpointWitness', () => {
  const log = generateNoteKey('example.test/log');
  const signer = () => parseSignerKey(log.signerKey);
  const verifiers = () => [parseVerifierKey(log.verifierKey)];
  const leaves = Array.from({ length: 40 }, (_, i) => new TextEncoder().encode(`entry ${i}`));
  const tree = new MerkleTree();
  tree.appendMany(leaves);
  const sign = (size: number, t: MerkleTree = tree) => signCheckpoint({ origin: 'example.test/log', size, root: t.root(size), extensions: [] }, [signer()]);

  it('accepts a growing log with consistency proofs and persists its state', () => {
    const w = new CheckpointWitness(verifiers());
    expect(w.update(sign(10))).toMatchObject({ ok: true, previousSize: undefined });
    expect(w.update(sign(25), tree.consistencyProof(10, 25))).toMatchObject({ ok: true, previousSize: 10 });
    expect(w.update(sign(25))).toMatchObject({ ok: true, previousSize: 25 });
    const restored = CheckpointWitness.fromJSON(JSON.parse(JSON.stringify(w)), verifiers());
    expect(restored.current('example.test/log')?.size).toBe(25);
    expect(restored.update(sign(40), tree.consistencyProof(25, 40))).toMatchObject({ ok: true });
  });

  it('refuses rollback, fork and truncate-and-reroot with distinct reasons, keeping its state', () => {
    const w = new CheckpointWitness(verifiers());
    w.update(sign(20));
    expect(w.update(sign(10))).toMatchObject({ ok: false, code: 'rollback' });
    // A second log with the same first 15 entries, then different ones.
    const forked = new MerkleTree();
    forked.appendMany([...leaves.slice(0, 15), ...Array.from({ length: 25 }, (_, i) => new TextEncoder().encode(`evil ${i}`))]);
    expect(w.update(sign(20, forked))).toMatchObject({ ok: false, code: 'fork' });
    const reroot = w.update(sign(30, forked), forked.consistencyProof(20, 30));
    expect(reroot).toMatchObject({ ok: false, code: 'truncate-and-reroot' });
    expect(w.update(sign(30), [])).toMatchObject({ ok: false, code: 'truncate-and-reroot' });
    expect(w.current('example.test/log')).toMatchObject({ size: 20 });
    expect(toHex(w.current('example.test/log')!.root)).toBe(toHex(tree.root(20)));
  });

  it('refuses notes that do not verify, and stale state versions', () => {
    const w = new CheckpointWitness(verifiers());
    const other = generateNoteKey('example.test/log');
    const forged = signCheckpoint({ origin: 'example.test/log', size: 5, root: tree.root(5), extensions: [] }, [parseSignerKey(other.signerKey)]);
    expect(w.update(forged)).toMatchObject({ ok: false, code: 'unverified' });
    expect(w.update('garbage')).toMatchObject({ ok: false, code: 'malformed' });
    expectThrows(() => CheckpointWitness.fromJSON({ version: 3, checkpoints: [] }, verifiers()), ParapetStateError, 'state-version');
    expectThrows(() => CheckpointWitness.fromJSON({ version: 2, checkpoints: [{ origin: 'o', size: 1, root: 'AAAA' }] }, verifiers()), ParapetRangeError, 'invalid-length');
  });

  it('binds keys to origins: another log\'s key cannot plant a first checkpoint that makes the real log look like a rollback', () => {
    const logB = generateNoteKey('example.test/logB');
    const w = new CheckpointWitness([...verifiers(), parseVerifierKey(logB.verifierKey)]);
    const signB = (size: number, key: string) => signCheckpoint({ origin: 'example.test/logB', size, root: tree.root(size), extensions: [] }, [parseSignerKey(key)]);
    expect(w.update(signB(30, log.signerKey))).toMatchObject({ ok: false, code: 'unverified' });
    expect(w.current('example.test/logB')).toBeUndefined();
    expect(w.update(signB(5, logB.signerKey))).toMatchObject({ ok: true, previousSize: undefined });
    // logA's key still signs for logA only.
    expect(w.update(sign(10))).toMatchObject({ ok: true });
  });

  it('takes { origin, keys } pairs for a log whose key is not named like its origin, and refuses origins it has no key for', () => {
    const note = sign(10).replace('example.test/log\n', 'go.sum database tree\n');
    const renamed = signCheckpoint({ origin: 'go.sum database tree', size: 10, root: tree.root(10), extensions: [] }, [signer()]);
    const flat = new CheckpointWitness(verifiers());
    expect(flat.update(renamed)).toMatchObject({ ok: false, code: 'unknown-origin' });
    const paired = new CheckpointWitness([{ origin: 'go.sum database tree', keys: verifiers() }]);
    expect(paired.update(renamed)).toMatchObject({ ok: true });
    expect(paired.update(sign(10))).toMatchObject({ ok: false, code: 'unknown-origin' });
    expect(paired.update(note)).toMatchObject({ ok: false, code: 'bad-signature' });
    expectThrows(() => new CheckpointWitness([]), ParapetRangeError, 'invalid-value');
    expectThrows(() => new CheckpointWitness([{ origin: 'a', keys: verifiers() }, { origin: 'a', keys: verifiers() }]), ParapetRangeError, 'invalid-value');
    expectThrows(() => new CheckpointWitness([{ origin: 'a', keys: [] }]), ParapetTypeError, 'invalid-type');
    expectThrows(() => new CheckpointWitness(verifiers(), { require: ['example.test/log'] }), ParapetTypeError, 'invalid-type');
  });

  it('keeps an origin named __proto__ across toJSON/fromJSON, so a smaller checkpoint is still a rollback', () => {
    const proto = generateNoteKey('__proto__');
    const keys = () => [parseVerifierKey(proto.verifierKey)];
    const signProto = (size: number) => signCheckpoint({ origin: '__proto__', size, root: tree.root(size), extensions: [] }, [parseSignerKey(proto.signerKey)]);
    const w = new CheckpointWitness(keys());
    expect(w.update(signProto(20))).toMatchObject({ ok: true });
    const restored = CheckpointWitness.fromJSON(JSON.parse(JSON.stringify(w)), keys());
    expect(restored.current('__proto__')?.size).toBe(20);
    expect(restored.update(signProto(10))).toMatchObject({ ok: false, code: 'rollback' });
  });

  it('refuses version 1 state and migrates it only when asked, keeping an own __proto__ origin', () => {
    const root = toBase64(tree.root(20));
    const v1 = JSON.parse(`{"version":1,"origins":{"__proto__":{"size":20,"root":"${root}"},"example.test/log":{"size":3,"root":"${toBase64(tree.root(3))}"}}}`);
    expectThrows(() => CheckpointWitness.fromJSON(v1, verifiers()), ParapetStateError, 'state-version');
    const v2 = CheckpointWitness.migrateState(v1);
    expect(v2).toEqual({ version: 2, checkpoints: [{ origin: '__proto__', size: 20, root }, { origin: 'example.test/log', size: 3, root: toBase64(tree.root(3)) }] });
    expect(CheckpointWitness.fromJSON(v2, verifiers()).update(sign(2))).toMatchObject({ ok: false, code: 'rollback' });
    expectThrows(() => CheckpointWitness.migrateState(v2), ParapetStateError, 'state-version');
    expectThrows(() => CheckpointWitness.migrateState({ version: 1, origins: { o: 5 } }), ParapetTypeError, 'invalid-type');
    const dup = { version: 2, checkpoints: [{ origin: 'o', size: 1, root }, { origin: 'o', size: 2, root }] };
    expectThrows(() => CheckpointWitness.fromJSON(dup, verifiers()), ParapetRangeError, 'invalid-value');
  });
});
