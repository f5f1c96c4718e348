import type { LogOp } from './entry.js';

export type EntryStatus = 'ok' | 'erased' | 'tampered';

/**
 * Why verify() flags one entry (the list is in verify-store.ts). Stable codes:
 * an entry may carry several.
 */
export type EntryReason =
  | 'entry-missing'
  | 'entry-unreadable'
  | 'entry-moved'
  | 'chain-broken'
  | 'node-mismatch'
  | 'value-changed'
  | 'value-missing'
  | 'ephemeral-stored'
  | 'value-not-erased'
  | 'version-out-of-order'
  | 'parent-mismatch'
  | 'rollback-mismatch'
  | 'immutable-violated'
  | 'purge-mismatch'
  | 'retention-missed'
  | 'quarantine-mismatch';

/** A report on one log entry while verify() builds it (handed out as an EntryReport). */
export interface Report {
  seq: number;
  status: EntryStatus;
  reasons: EntryReason[];
  op?: LogOp;
  ns?: string;
  key?: string;
  version?: number;
}

/** The reasons list ok reports share until something is flagged (frozen: it is handed out). */
export const NO_REASONS = Object.freeze([]) as unknown as EntryReason[];

/** Mark `report` tampered, for `reason` (once). */
export function flag(report: Report, reason: EntryReason): void {
  report.status = 'tampered';
  if (report.reasons === NO_REASONS) report.reasons = [reason];
  else if (!report.reasons.includes(reason)) report.reasons.push(reason);
}
