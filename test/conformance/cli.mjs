// Runner for runtimes with a module loader and a file system: Node, Deno, Bun.
// Imports the built package (dist/), not the sources.
import * as core from '../../dist/index.js';
import * as tlog from '../../dist/tlog.js';
import * as vmg from '../../dist/vmg.js';
import * as ipi from '../../dist/ipi.js';
import * as skills from '../../dist/skills.js';
import { runChecks } from './checks.mjs';

const runtime = globalThis.Deno ? `deno ${globalThis.Deno.version.deno}` : globalThis.Bun ? `bun ${globalThis.Bun.version}` : `node ${globalThis.process?.version}`;
console.log(`runtime: ${runtime}`);
// The ONNX path where onnxruntime-web loads (an optional peer: Node here).
let ort;
if (!globalThis.Deno && !globalThis.Bun) {
  try {
    const { readFileSync } = await import('node:fs');
    ort = {
      ort: await import('onnxruntime-web'),
      model: readFileSync(new URL('../../models/ipi-content.onnx', import.meta.url)),
      meta: JSON.parse(readFileSync(new URL('../../models/ipi-content.json', import.meta.url), 'utf8')),
    };
    ort.ort.env.wasm.numThreads = 1;
  } catch {
    ort = undefined;
  }
}
const { failed } = await runChecks({ core, tlog, vmg, ipi, skills }, { ort });
if (globalThis.Deno) globalThis.Deno.exit(failed ? 1 : 0);
else globalThis.process.exitCode = failed ? 1 : 0;
