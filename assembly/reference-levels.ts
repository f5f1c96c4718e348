// Link references across the levels of a reading (assembly/reading.ts). A level's
// table (assembly/references.ts) resolves the uses of that level only, so a full
// reference in a quoted string or a JSON field whose definition stands outside it
// (`He wrote: "… download it [here][dl] …"` under `[dl]: https://…`) kept no address.
// Such a use is noted with its level, every definition with its own, and a label
// used unresolved in one level and defined in another says that an address was left
// unread: provenance then charges the riskiest passage (decision 85), rather than
// this reading pairing levels whose order it cannot know (decision 88).

import { referenceCount, referenceHash, referenceHasColon } from './references';

const MAX_UNRESOLVED: u32 = 256;
const MAX_DEFINED: u32 = 1024;
// Per entry two u32: the label's hash, the level's serial number.
const UNRESOLVED: usize = memory.data(<i32>(MAX_UNRESOLVED << 3));
const DEFINED: usize = memory.data(<i32>(MAX_DEFINED << 3));
let unresolvedCount: u32 = 0;
let definedCount: u32 = 0;
let overflow = false;

export function resetReferenceLevels(): void {
  unresolvedCount = 0;
  definedCount = 0;
  overflow = false;
}

/** Appends (hash, level) to a list of `count` entries; returns the new count (the same when full). */
function note(list: usize, count: u32, most: u32, hash: u32, level: u32): u32 {
  if (count == most) {
    overflow = true;
    return count;
  }
  store<u32>(list + (<usize>count << 3), hash);
  store<u32>(list + (<usize>count << 3), level, 4);
  return count + 1;
}

/** A full reference of `level` whose label (hashed) no definition of its level resolved. */
export function noteUnresolved(hash: u32, level: u32): void {
  unresolvedCount = note(UNRESOLVED, unresolvedCount, MAX_UNRESOLVED, hash, level);
}

/** The `[label]:` definitions of a level's table (a renderer reads no other form as one, decision 86). */
export function noteDefinitions(refs: usize, level: u32): void {
  for (let k: u32 = 0; k < referenceCount(refs); k++) {
    if (referenceHasColon(refs, k)) definedCount = note(DEFINED, definedCount, MAX_DEFINED, referenceHash(refs, k), level);
  }
}

/**
 * Whether a label used unresolved in one level is defined in another (by hash: a
 * collision only errs toward saying so), or the notes overflowed with both kinds
 * present. At most 256 × 1,024 comparisons, once a reading.
 */
export function crossLevelReference(): bool {
  if (unresolvedCount == 0 || definedCount == 0) return false;
  if (overflow) return true;
  for (let u: u32 = 0; u < unresolvedCount; u++) {
    const hash = load<u32>(UNRESOLVED + (<usize>u << 3));
    const level = load<u32>(UNRESOLVED + (<usize>u << 3), 4);
    for (let d: u32 = 0; d < definedCount; d++) {
      if (load<u32>(DEFINED + (<usize>d << 3)) == hash && load<u32>(DEFINED + (<usize>d << 3), 4) != level) return true;
    }
  }
  return false;
}
