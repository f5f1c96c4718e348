// The transparency log (`parapet/tlog`): an RFC 6962 tree, its proofs, a
// signed C2SP checkpoint and a witness that never goes backwards.
// Run after `npm run build`: node examples/transparency-log.mjs
import {
  init, MerkleTree, verifyInclusion, verifyConsistency, generateNoteKey, parseSignerKey, parseVerifierKey,
  signCheckpoint, openCheckpoint, CheckpointWitness,
} from 'parapet/tlog';
import { toBase64 } from 'parapet';

await init(); // the core and Ed25519
const enc = new TextEncoder();
const tree = new MerkleTree();
tree.appendMany(['a', 'b', 'c', 'd', 'e'].map((s) => enc.encode(s)));
console.log('size:', tree.size, 'root', toBase64(tree.root()));

const proof = tree.inclusionProof(2);
console.log('inclusion of leaf 2:', verifyInclusion(tree.leafHash(2), 2, tree.size, proof, tree.root()).ok);
const wrong = verifyInclusion(tree.leafHash(3), 2, tree.size, proof, tree.root());
console.log('leaf 3 with leaf 2\'s proof:', wrong.ok, wrong.code); // { ok: false, code, message }

const consistency = tree.consistencyProof(3);
console.log('size 3 is a prefix of size 5:', verifyConsistency(3, tree.size, consistency, tree.root(3), tree.root()).ok);

// A checkpoint's origin names the log; the key is named after it (C2SP).
const origin = 'example.com/log';
const { signerKey, verifierKey } = generateNoteKey(origin);
const signedAt = (size) => signCheckpoint({ origin, size, root: tree.root(size), extensions: [] }, [parseSignerKey(signerKey)]);
const note = signedAt(tree.size);
const opened = openCheckpoint(note, [parseVerifierKey(verifierKey)], { origin });
console.log('checkpoint opens:', opened.ok, 'size', opened.ok && opened.checkpoint.size);
console.log('for another origin:', openCheckpoint(note, [parseVerifierKey(verifierKey)], { origin: 'example.com/other' }).code);

const witness = new CheckpointWitness([{ origin, keys: [parseVerifierKey(verifierKey)] }]);
console.log('witness takes size 3:', witness.update(signedAt(3)).ok);
console.log('then size 5 with a consistency proof:', witness.update(note, tree.consistencyProof(3)).ok);
console.log('then size 3 again:', witness.update(signedAt(3)).code);
