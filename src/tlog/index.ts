/**
 * parapet/tlog — a generic append-only log: RFC 6962 Merkle tree, pure proof
 * verifiers, C2SP signed-note checkpoints and a witness that never goes
 * backwards. Knows nothing of memory or skills.
 *
 * @module parapet/tlog
 */
export { init, initSync } from '../init.js';
export { emptyRoot, hashLeaf, hashChildren, HASH_SIZE } from './hasher.js';
export { MerkleTree } from './tree.js';
// Extension API: implement NodeStore to keep a tree's hashes in your own storage
// (the memory store's backends do); MemoryNodeStore is the in-memory one.
export { MemoryNodeStore, type NodeStore } from './storage.js';
export { verifyInclusion, verifyConsistency, type ProofResult, type ProofFailure } from './verify.js';
export {
  parseVerifierKey, parseSignerKey, generateNoteKey, noteKeysFromSeed, keyIdFor, openNote, signNote, parseNote,
  ALG_ED25519, ALG_COSIGNATURE_V1, type NoteVerifier, type NoteSigner, type NoteResult, type NoteFailure, type OpenedNote,
  type ParsedNote, type NoteSignature,
} from './note.js';
export {
  formatCheckpoint, parseCheckpoint, signCheckpoint, openCheckpoint, type Checkpoint, type CheckpointResult,
  type CheckpointFailure, type OpenCheckpointOptions, type ParsedCheckpoint,
} from './checkpoint.js';
export {
  CheckpointWitness, type WitnessResult, type WitnessFailure, type WitnessState, type WitnessStateEntry, type WitnessStateV1,
  type WitnessedLog, type WitnessOptions,
} from './witness.js';
export { AuditLog } from './audit.js';

// The package's errors and result shape, so that code using only this entry can catch and switch on them.
export { ParapetError, ParapetTypeError, ParapetRangeError, ParapetStateError } from '../bindings/errors.js';
export type { ParapetErrorCode } from '../bindings/errors.js';
export type { VerifyResult, VerifyFailure } from '../bindings/result.js';
