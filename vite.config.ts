import { configDefaults, defineConfig } from 'vitest/config';
import { UNIT_TESTS } from './test/projects.js';

// `vite build` bundles each public entry into one ES module in dist/ (fewer
// files to load: importing 12 unbundled modules cost ~7 ms of cold start);
// tsc writes the .d.ts files beside them. Vitest reads the `test` section.
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    minify: false,
    sourcemap: false,
    lib: {
      entry: {
        index: 'src/index.ts',
        edge: 'src/edge/index.ts',
        tlog: 'src/tlog/index.ts',
        'tlog-edge': 'src/edge/tlog.ts',
        vmg: 'src/vmg/index.ts',
        'vmg-edge': 'src/edge/vmg.ts',
        'vmg-sqlite': 'src/vmg/sqlite.ts',
        'vmg-indexeddb': 'src/vmg/indexeddb.ts',
        hooks: 'src/hooks/index.ts',
        skills: 'src/skills/index.ts',
        'skills-edge': 'src/edge/skills.ts',
        'skills-node': 'src/skills/node.ts',
        ipi: 'src/ipi/index.ts',
        'ipi-edge': 'src/edge/ipi.ts',
        cli: 'src/cli/main.ts',
      },
      formats: ['es'],
    },
    rollupOptions: {
      // The edge entry imports core.wasm as a module for the runtime's loader to compile.
      external: [/\.wasm$/, /^node:/, 'better-sqlite3', 'yaml', 'hash-wasm', '@noble/ed25519'],
      output: {
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
        // One shared chunk for the core so that `parapet` loads two files, and
        // every entry shares one core instance (one init, one arena).
        // The readiness logic (core + SHA-512) goes with it: the edge init shares it too.
        manualChunks: (id: string) => {
          if (id.includes('/src/bindings/') || /\/src\/(ready|crypto\/hashes)\.ts$/.test(id)) return 'core';
          // The embedded core (its base64 is larger than the wasm) stays out of the edge entry.
          if (/\/src\/(init|core-wasm\.generated)\.ts$/.test(id)) return 'embedded';
          return undefined;
        },
      },
    },
  },
  test: {
    // The NIST Monte Carlo and 10^6-value statistics tests take a few seconds.
    testTimeout: 60_000,
    pool: 'threads',
    globalSetup: ['test/helpers/tmpdir.ts'],
    // `npm test` runs both; `npm run test:unit` only the first (test/projects.ts says which is which).
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT_TESTS } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...UNIT_TESTS] } },
    ],
  },
});
