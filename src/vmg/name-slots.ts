/** No slot (a version a key's array does not hold). */
const NONE = -1;
/** Longest version part read as a number: 15 digits stay exact in a double. */
const MAX_DIGITS = 15;

/**
 * MemoryBackend's map from name to slot, in two parts. A version's name
 * (`k\0<ns>\0<key>\0<version>`, entry.ts) is found through its key's head name
 * and the version, an index into an array per key; every other name is in one
 * Map. A million version names in one Map made lookups a sixth of a put (a
 * table that size misses the cache on every probe); split, puts/s at 1M rose
 * by about 15%.
 *
 * The mapping is exact for every string: only a canonical version name (its
 * last part a decimal without leading zero) whose version its key's array
 * holds or comes next goes to an array; anything else — an edited name, a
 * version past a gap — stays in the Map, so no name can make an array grow
 * beyond what is held. Iteration is not in insertion order.
 */
export class NameSlots {
  readonly #plain = new Map<string, number>();
  /** Per key head name, the slot of each version (index v − 1). */
  readonly #versions = new Map<string, number[]>();
  /** Version-shaped names held in #plain (past a gap): while 0, version lookups skip it. */
  #versionsInPlain = 0;

  get(name: string): number | undefined {
    const cut = versionCut(name);
    const v = cut < 0 ? -1 : versionAt(name, cut);
    if (v < 0) return this.#plain.get(name);
    const slots = this.#versions.get(name.slice(0, cut));
    if (slots !== undefined && v <= slots.length && slots[v - 1] !== NONE) return slots[v - 1];
    return this.#versionsInPlain > 0 ? this.#plain.get(name) : undefined;
  }

  set(name: string, slot: number): void {
    const cut = versionCut(name);
    const v = cut < 0 ? -1 : versionAt(name, cut);
    if (v < 0 || (this.#versionsInPlain > 0 && this.#plain.has(name))) {
      this.#plain.set(name, slot);
      return;
    }
    const head = name.slice(0, cut);
    let slots = this.#versions.get(head);
    if (v - 1 <= (slots?.length ?? 0)) {
      if (!slots) this.#versions.set(head, (slots = []));
      slots[v - 1] = slot;
    } else {
      this.#plain.set(name, slot);
      this.#versionsInPlain++;
    }
  }

  delete(name: string): void {
    const cut = versionCut(name);
    const v = cut < 0 ? -1 : versionAt(name, cut);
    if (v < 0) {
      this.#plain.delete(name);
      return;
    }
    const head = name.slice(0, cut);
    const slots = this.#versions.get(head);
    if (slots !== undefined && v <= slots.length && slots[v - 1] !== NONE) {
      slots[v - 1] = NONE;
      while (slots.length > 0 && slots[slots.length - 1] === NONE) slots.pop();
      if (slots.length === 0) this.#versions.delete(head);
    } else if (this.#plain.delete(name)) this.#versionsInPlain--;
  }

  *entries(): IterableIterator<[string, number]> {
    yield* this.#plain;
    for (const [head, slots] of this.#versions) {
      for (let i = 0; i < slots.length; i++) if (slots[i] !== NONE) yield [`${head}\u0000${i + 1}`, slots[i]!];
    }
  }
}

/** Where a version-shaped name's last part starts, less one (its last NUL), or −1: it starts `k\0` and has a NUL between the namespace and the last one. */
function versionCut(name: string): number {
  if (name.charCodeAt(0) !== 107 || name.charCodeAt(1) !== 0) return -1;
  const cut = name.lastIndexOf('\u0000');
  const mid = name.indexOf('\u0000', 2);
  return mid >= 0 && mid < cut ? cut : -1;
}

/** The version after `cut` when it is canonical (1–15 decimal digits, no leading zero), else −1. One pass. */
function versionAt(name: string, cut: number): number {
  const digits = name.length - cut - 1;
  if (digits < 1 || digits > MAX_DIGITS || name.charCodeAt(cut + 1) === 48) return -1;
  let v = 0;
  for (let i = cut + 1; i < name.length; i++) {
    const c = name.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}
