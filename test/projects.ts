/**
 * Which test files are unit tests: pure, against src/, in one process. They
 * build nothing beyond core.wasm, read no dist/, start no subprocess or
 * browser and open no SQLite file, so `npm run test:unit` takes seconds. Every
 * other file under test/ is an integration test (the built package, the CLI,
 * real tools, SQLite, other runtimes); a new file is one until listed here.
 * test/projects.test.ts holds this list to that definition.
 */
export const UNIT_TESTS = [
  'test/ed25519.test.ts',
  'test/error-taxonomy.test.ts',
  'test/fuzz-verifiers.test.ts',
  'test/hooks.test.ts',
  'test/init.test.ts',
  'test/init-options.test.ts',
  'test/ipi.test.ts',
  'test/ipi-calibration.test.ts',
  'test/ipi-joined-words.test.ts',
  'test/ipi-passages.test.ts',
  'test/jcs.test.ts',
  'test/misuse.test.ts',
  'test/projects.test.ts',
  'test/sha256-batch.test.ts',
  'test/sha256-streaming.test.ts',
  'test/sha256-vectors.test.ts',
  'test/skills-minisign-pin.test.ts',
  'test/skills-results.test.ts',
  'test/skills-trust-config.test.ts',
  'test/stats.test.ts',
  'test/system-tools.test.ts',
  'test/tlog-checkpoint.test.ts',
  'test/tlog-proofs.test.ts',
  'test/tokenizer.test.ts',
  'test/vmg-byte-store.test.ts',
  'test/vmg-entry.test.ts',
  'test/vmg-wire-format.test.ts',
];
