import { parseSignerKey, parseVerifierKey, type NoteSigner, type NoteVerifier } from '../tlog/index.js';
import { parseUserValue } from './args.js';
import { readText } from './io.js';

/** A verifier key given inline (it holds a '+') or as a file; a malformed key is a usage error naming `flag`. */
export function verifierKeyArg(flag: string, value: string): NoteVerifier {
  const text = value.includes('+') ? value : readText(value, `${flag} ${value}`).trim();
  return parseUserValue(`${flag} ${value}`, undefined, () => parseVerifierKey(text));
}

/** A signer key file; a malformed key is a usage error naming `flag` (never echoing the file: it is a secret). */
export function signerKeyArg(flag: string, path: string): NoteSigner {
  const text = readText(path, `${flag} ${path}`).trim();
  return parseUserValue(`${flag} ${path}`, 'not a note signer key (PRIVATE+KEY+<name>+<key id>+<key>, as `parapet log keygen` writes it)', () => parseSignerKey(text));
}

/**
 * The checkpoint origin: `--origin` when given, else the key's name. C2SP
 * tlog-checkpoint recommends naming a log's key after its origin, and
 * `parapet log keygen NAME` does; a default nobody set (the store's
 * `parapet/vmg/<agent>`) made every checkpoint need a flag no help mentioned.
 */
export function originOf(flag: string | undefined, key: { name: string }): string {
  return flag ?? key.name;
}
