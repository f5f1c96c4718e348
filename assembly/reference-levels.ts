// Link references across the levels of a reading (assembly/reading.ts). A level's
// table (assembly/references.ts) resolves the uses of that level only, so a full
// reference in a quoted string or a JSON field whose definition stands outside it
// (`He wrote: "… download it [here][dl] …"` under `[dl]: https://…`) kept no address.
// Such a use is noted with its level, every definition with its own, and a label
// used unresolved in one level and defined in another says that an address was left
// unread: provenance then charges the riskiest passage (decision 85), rather than
// this reading pairing levels whose order it cannot know.

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

/** A full reference of `level` whose label (hashed) no definition of its level resolved. */
export function noteUnresolved(hash: u32, level: u32): void {
  if (unresolvedCount == MAX_UNRESOLVED) {
    overflow = true;
    return;
  }
  store<u32>(UNRESOLVED + (<usize>unresolvedCount << 3), hash);
  store<u32>(UNRESOLVED + (<usize>unresolvedCount << 3), level, 4);
  unresolvedCount++;
}

/** A definition of `level` whose label hashes to `hash`. */
export function noteDefined(hash: u32, level: u32): void {
  if (definedCount == MAX_DEFINED) {
    overflow = true;
    return;
  }
  store<u32>(DEFINED + (<usize>definedCount << 3), hash);
  store<u32>(DEFINED + (<usize>definedCount << 3), level, 4);
  definedCount++;
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
