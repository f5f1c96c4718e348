// The package as npm ships it, installed the way a new user installs it:
// packed, unpacked into a fresh node_modules with its dependencies but not
// the optional better-sqlite3, and used from the CLI and from TypeScript.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface PackedFile { path: string; size: number }

describe('the packed package', () => {
  let files: PackedFile[] = [];
  const app = mkdtempSync(join(tmpdir(), 'parapet-installed-'));
  const installed = join(app, 'node_modules', 'parapet');
  const cli = (args: string[], input = '') => spawnSync(process.execPath, [join(installed, 'bin', 'parapet.js'), ...args], { cwd: app, input, encoding: 'utf8', timeout: 30_000 });

  beforeAll(() => {
    const out = execFileSync(npm, ['pack', '--json', '--pack-destination', app], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const packed = (JSON.parse(out) as { filename: string; files: PackedFile[] }[])[0]!;
    files = packed.files;
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', join(app, packed.filename), '-C', installed, '--strip-components=1']);
    // The runtime dependencies, as npm would install them beside it; better-sqlite3 (an optional peer) left out.
    for (const dep of ['@noble', 'hash-wasm', 'yaml']) symlinkSync(join(root, 'node_modules', dep), join(app, 'node_modules', dep));
  }, 120_000);

  it('ships the weights once (embedded in dist; contentModelOnnx() builds the ONNX bytes from them), the model metadata and card, and no training scripts', () => {
    const paths = files.map((f) => f.path);
    expect(paths.filter((p) => p.startsWith('models/')).sort()).toEqual(['models/README.md', 'models/ipi-content.json', 'models/ipi-trace.json']);
    expect(paths.filter((p) => /\.(mjs|py)$/.test(p) && !p.startsWith('bin/'))).toEqual([]);
    expect(paths.some((p) => p.startsWith('training/') || p.startsWith('data/') || p.startsWith('src/'))).toBe(false);
  });

  it('carries the content weights once: one base64 copy in the JavaScript, no weight file beside it', () => {
    const head = readFileSync(join(root, 'models', 'ipi-content.i8')).subarray(0, 96).toString('base64');
    const copies = files
      .filter((f) => f.path.endsWith('.js'))
      .reduce((n, f) => n + readFileSync(join(installed, f.path), 'utf8').split(head).length - 1, 0);
    expect(copies).toBe(1);
    expect(files.filter((f) => /\.(onnx|f32|i8)$/.test(f.path))).toEqual([]);
  });

  it('ships no declaration file of an embedded blob (the model as a literal type of its base64)', () => {
    const declarations = files.filter((f) => f.path.endsWith('.d.ts'));
    expect(declarations.length).toBeGreaterThan(10);
    expect(declarations.filter((f) => f.size > 32 * 1024)).toEqual([]);
    expect(declarations.filter((f) => f.path.includes('.generated.'))).toEqual([]);
  });

  it('runs every command that does not need SQLite without better-sqlite3 installed', () => {
    expect(readdirSync(join(app, 'node_modules'))).not.toContain('better-sqlite3');
    const hash = cli(['hash'], 'abc');
    expect(hash.stderr).toBe('');
    expect(hash.stdout).toBe(`${createHash('sha256').update('abc').digest('hex')}  -\n`);
    expect(cli(['--version']).status).toBe(0);
    writeFileSync(join(app, 'leaves.txt'), 'a\nb\n');
    expect(cli(['log', 'head', join(app, 'leaves.txt'), '--json']).status).toBe(0);
    expect(cli(['scan'], 'The weather in Rome is sunny.').status).toBe(0);
  });

  it('says how to install better-sqlite3 for the commands that need it', () => {
    for (const args of [['memory', 'verify', '--db', join(app, 'm.db')], ['demo']]) {
      const r = cli(args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/needs better-sqlite3, an optional peer dependency that is not installed: npm install better-sqlite3/);
      expect(r.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
    }
  });

  it('resolves the types of every subpath under moduleResolution node (typesVersions)', () => {
    const project = join(app, 'ts');
    mkdirSync(project);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'commonjs', moduleResolution: 'node', target: 'es2022', lib: ['es2022', 'dom'], strict: true, noEmit: true, skipLibCheck: true, types: [] },
      files: ['good.ts'],
    }));
    writeFileSync(join(project, 'good.ts'), [
      "import { sha256 } from 'parapet';",
      "import { sha256 as coreSha256 } from 'parapet/core';",
      "import { MerkleTree } from 'parapet/tlog';",
      "import { VmgMemoryStore } from 'parapet/vmg';",
      "import { SqliteBackend } from 'parapet/vmg/sqlite';",
      "import { IndexedDbBackend } from 'parapet/vmg/indexeddb';",
      "import { HookRegistry } from 'parapet/hooks';",
      "import { verifySkillSignature } from 'parapet/skills';",
      "import { loadSkillFolder } from 'parapet/skills/node';",
      "import { IpiDetector } from 'parapet/ipi';",
      "import { init } from 'parapet/edge';",
      'const digest: Uint8Array = sha256(new Uint8Array(1));',
      'const size: number = new MerkleTree().size;',
      'export const used = [digest, size, coreSha256, VmgMemoryStore, SqliteBackend, IndexedDbBackend, HookRegistry, verifySkillSignature, loadSkillFolder, IpiDetector, init];',
    ].join('\n'));
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const good = spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
    expect(good.status, good.stdout).toBe(0);
    // The types are the package's, not `any`: a misuse is an error.
    writeFileSync(join(project, 'bad.ts'), "import { MerkleTree } from 'parapet/tlog';\nexport const wrong: string = new MerkleTree().size;\n");
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'commonjs', moduleResolution: 'node', target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: [] },
      files: ['bad.ts'],
    }));
    const bad = spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/TS2322: Type 'number' is not assignable to type 'string'/);
  });
});

describe('package.json', () => {
  // typesVersions is a second copy of the exports' types for moduleResolution node;
  // a subpath moved in one and not the other resolves to nothing there.
  it('gives typesVersions the same declaration file as each subpath export', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, string | { types?: string }>;
      typesVersions: { '*': Record<string, string[]> };
    };
    const fromExports = Object.fromEntries(
      Object.entries(pkg.exports)
        .filter(([subpath, target]) => subpath !== '.' && typeof target === 'object' && target.types !== undefined)
        .map(([subpath, target]) => [subpath.slice(2), [(target as { types: string }).types]]),
    );
    expect(pkg.typesVersions['*']).toEqual(fromExports);
  });
});
