// Types of the reading's JavaScript reference (reading-reference.mjs).
export const MIN_SEGMENT: number;
export const MAX_DEPTH: number;
export const TAG_WINDOW: number;
export const MIN_LINE: number;
export const MAX_WINDOW: number;
export const MAX_PARAGRAPH: number;
export const NOT_LETTERS: ReadonlyArray<readonly [number, number]>;

/** Spans as flattened [from, to) byte offsets into the reading. */
export interface ReferenceReading {
  bytes: Uint8Array;
  segments: number[];
  lines: number[];
  paragraphs: number[];
  /** Whether a link reference's address was left unread at a use (the budget was spent). */
  unreadReferences: boolean;
}

export function read(bytes: Uint8Array): ReferenceReading;
export function ranges(bytes: Uint8Array, spans: { segments: number[]; lines: number[]; paragraphs: number[] }): number[];
export function windowRanges(bytes: Uint8Array, from: number, to: number, max?: number): number[];
export function decodeUtf8(bytes: Uint8Array, at: number): [number, number];
export function foldOf(cp: number): number;
/** A label key's 32-bit FNV-1a hash, as the core hashes labels; `h` continues another's. */
export function labelHash(key: string, h?: number): number;
