import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

const root = new URL('../..', import.meta.url).pathname;

/** What one run of a worker gave: the body of one GET, the bundle workerd served, workerd's output. */
export interface WorkerRun {
  readonly body: string;
  readonly bundle: string;
  readonly logs: string;
}

/**
 * Bundle a worker module the way an application would (vite, the workerd
 * conditions, `*.wasm` left as modules for the runtime to provide), serve it
 * with workerd on 127.0.0.1 and GET it once.
 */
export async function runWorker(entry: string, outDir: string): Promise<WorkerRun> {
  const { build } = await import('vite');
  mkdirSync(outDir, { recursive: true });
  await build({
    configFile: false,
    logLevel: 'warn',
    resolve: { conditions: ['workerd', 'worker', 'browser'] },
    build: {
      outDir, emptyOutDir: true, minify: false, target: 'es2022',
      lib: { entry, formats: ['es'], fileName: () => 'worker.mjs' },
      // Every import of core.wasm becomes the one module workerd provides; one file for workerd's module list.
      rollupOptions: {
        external: [/\.wasm$/],
        output: { paths: (id: string) => (id.endsWith('.wasm') ? './core.wasm' : id), codeSplitting: false },
      },
    },
  });
  copyFileSync(`${root}dist/core.wasm`, `${outDir}/core.wasm`);
  const bundle = readFileSync(`${outDir}/worker.mjs`, 'utf8');
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  writeFileSync(`${outDir}/config.capnp`, `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .example) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const example :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "core.wasm", wasm = embed "core.wasm"),
  ],
  compatibilityDate = "2024-09-23",
);
`);
  const child = spawn(`${root}node_modules/.bin/workerd`, ['serve', `${outDir}/config.capnp`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let logs = '';
  child.stdout!.on('data', (d) => (logs += d));
  child.stderr!.on('data', (d) => (logs += d));
  try {
    for (let i = 0; i < 100; i++) {
      try {
        const body = await (await fetch(`http://127.0.0.1:${port}/`)).text();
        return { body, bundle, logs };
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`workerd did not answer:\n${logs}`);
  } finally {
    child.kill('SIGTERM');
  }
}
