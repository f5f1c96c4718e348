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
const { failed } = await runChecks({ core, tlog, vmg, ipi, skills });
if (globalThis.Deno) globalThis.Deno.exit(failed ? 1 : 0);
else globalThis.process.exitCode = failed ? 1 : 0;
