import { defineConfig } from 'vite';

// `npm run playground` serves this page on 127.0.0.1; the e2e test builds it.
export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  server: { host: '127.0.0.1', port: 5174, strictPort: false },
  preview: { host: '127.0.0.1' },
  build: { outDir: new URL('../test-results/playground-dist', import.meta.url).pathname, emptyOutDir: true, target: 'es2022' },
});
