import { assertInteger, describe, ParapetTypeError } from '../bindings/errors.js';
import { canonicalJsonBytes } from '../canonical/jcs.js';
import { signCheckpoint } from './checkpoint.js';
import type { NoteSigner } from './note.js';
import { MerkleTree } from './tree.js';

/**
 * An append-only audit log: each event is stored as RFC 8785 canonical JSON
 * and committed to an RFC 6962 tree, so a signed checkpoint of it lets anyone
 * check later that no event was removed or changed. Events are kept in memory;
 * give it a NodeStore-backed tree to keep the hashes elsewhere.
 */
export class AuditLog {
  readonly #events: Uint8Array[] = [];

  constructor(readonly tree: MerkleTree = new MerkleTree()) {}

  /** Append one event (any I-JSON object); returns its index. */
  append(event: Record<string, unknown>): number {
    if (typeof event !== 'object' || event === null || Array.isArray(event)) throw new ParapetTypeError(`"event" must be an object, got ${describe(event)}`);
    const bytes = canonicalJsonBytes(event);
    this.#events.push(bytes);
    return this.tree.append(bytes);
  }

  get size(): number {
    return this.tree.size;
  }

  /** The event at `index`, as stored. */
  event(index: number): unknown {
    assertInteger(index, 'index', 0, this.#events.length - 1);
    return JSON.parse(new TextDecoder().decode(this.#events[index]));
  }

  /** A signed checkpoint of the log's current head. */
  checkpoint(origin: string, signers: readonly NoteSigner[]): string {
    return signCheckpoint({ origin, size: this.tree.size, root: this.tree.root(), extensions: [] }, signers);
  }
}
