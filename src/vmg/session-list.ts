import type { BackendTx } from './backend.js';
import { isCount, sessionIndexName } from './entry.js';
import { MemoryStoreError } from './errors.js';

/**
 * Per session, the (namespace, key, version) of each session and ephemeral
 * write, for retention at session end: a count under `s\0<session>` and one
 * record per write under `s\0<session>\0<i>`. One record per write keeps a
 * put O(1); the first layout, one array rewritten on every put, made n puts
 * in a session cost O(n²).
 */
export type SessionItem = readonly [ns: string, key: string, version: number];

const itemName = (session: string, i: number) => `${sessionIndexName(session)}\u0000${i}`;

function count(tx: BackendTx, session: string): number {
  const n = tx.getIndex(sessionIndexName(session)) ?? 0;
  // Each item is one write, hence one log entry: a larger count is damage, refused before any walk.
  if (!isCount(n) || n > tx.entryCount()) throw new MemoryStoreError(`the retention list of session "${session}" is unreadable: run verify()`, 'store-damaged');
  return n;
}

export function appendSessionList(tx: BackendTx, session: string, item: SessionItem): void {
  const n = count(tx, session);
  tx.setIndex(itemName(session, n), item);
  tx.setIndex(sessionIndexName(session), n + 1);
}

export function readSessionList(tx: BackendTx, session: string): SessionItem[] {
  const out: SessionItem[] = [];
  for (let i = 0, n = count(tx, session); i < n; i++) {
    const item = tx.getIndex(itemName(session, i));
    if (!Array.isArray(item) || item.length !== 3 || typeof item[0] !== 'string' || typeof item[1] !== 'string' || typeof item[2] !== 'number') {
      throw new MemoryStoreError(`the retention list of session "${session}" is unreadable: run verify()`, 'store-damaged');
    }
    out.push(item as unknown as SessionItem);
  }
  return out;
}

/**
 * Remove the list of `session`, `read` (what readSessionList returned in this
 * transaction): its length, not the stored count again, bounds the loop — each
 * of those items was read, so the deletes are as many as the records there are.
 */
export function clearSessionList(tx: BackendTx, session: string, read: readonly SessionItem[]): void {
  for (let i = 0; i < read.length; i++) tx.deleteIndex(itemName(session, i));
  tx.deleteIndex(sessionIndexName(session));
}
