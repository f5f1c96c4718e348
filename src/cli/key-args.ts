import { readFileSync } from 'node:fs';
import { parseSignerKey, parseVerifierKey, type NoteSigner, type NoteVerifier } from '../tlog/index.js';
import { parseUserValue } from './args.js';

/** A verifier key given inline (it holds a '+') or as a file; a malformed key is a usage error naming `flag`. */
export function verifierKeyArg(flag: string, value: string): NoteVerifier {
  const text = value.includes('+') ? value : readFileSync(value, 'utf8').trim();
  return parseUserValue(`${flag} ${value}`, () => parseVerifierKey(text));
}

/** A signer key file; a malformed key is a usage error naming `flag`. */
export function signerKeyArg(flag: string, path: string): NoteSigner {
  const text = readFileSync(path, 'utf8').trim();
  return parseUserValue(`${flag} ${path}`, () => parseSignerKey(text));
}
