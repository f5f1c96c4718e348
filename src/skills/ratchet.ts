import { ParapetRangeError, ParapetStateError, ParapetTypeError } from '../bindings/errors.js';
import { compareVersions, isSemVer } from './semver.js';

/**
 * Persistable version ratchet: the highest version accepted per skill name,
 * by SemVer 2.0.0 precedence. It holds SemVer versions only — a version it
 * cannot order could not refuse a rollback — so `accept` and `fromJSON`
 * throw a typed error on anything else.
 */
export class SkillRatchet {
  readonly #latest = new Map<string, string>();

  get(name: string): string | undefined {
    return this.#latest.get(name);
  }

  accept(name: string, version: string | undefined): void {
    if (version === undefined) return;
    if (!isSemVer(version)) throw new ParapetRangeError(`"version" is not a SemVer 2.0.0 version: ${JSON.stringify(version)}`, 'invalid-value');
    const held = this.#latest.get(name);
    if (held === undefined || compareVersions(version, held) > 0) this.#latest.set(name, version);
  }

  toJSON(): { version: 1; skills: Record<string, string> } {
    return { version: 1, skills: Object.fromEntries(this.#latest) };
  }

  static fromJSON(state: unknown): SkillRatchet {
    const s = state as { version?: number; skills?: Record<string, unknown> };
    if (typeof state !== 'object' || state === null || s.version !== 1) throw new ParapetStateError('skill ratchet state must have version 1', 'state-version');
    if (typeof s.skills !== 'object' || s.skills === null) throw new ParapetTypeError('"state.skills" must be an object');
    const r = new SkillRatchet();
    for (const [name, v] of Object.entries(s.skills)) {
      if (typeof v !== 'string') throw new ParapetTypeError(`"state.skills.${name}" must be a string`);
      if (!isSemVer(v)) throw new ParapetRangeError(`"state.skills.${name}" is not a SemVer 2.0.0 version: ${JSON.stringify(v)}`, 'invalid-value');
      r.#latest.set(name, v);
    }
    return r;
  }
}
