export type EntryStatus = 'ok' | 'erased' | 'tampered';

/** A report on one log entry while verify() builds it (handed out as an EntryReport). */
export interface Report {
  seq: number;
  status: EntryStatus;
  reasons: string[];
  op?: string;
  key?: string;
  version?: number;
}

/** The reasons list ok reports share until something is flagged (frozen: it is handed out). */
export const NO_REASONS = Object.freeze([]) as unknown as string[];

/** Mark `report` tampered, for `reason` (once). */
export function flag(report: Report, reason: string): void {
  report.status = 'tampered';
  if (report.reasons === NO_REASONS) report.reasons = [reason];
  else if (!report.reasons.includes(reason)) report.reasons.push(reason);
}
