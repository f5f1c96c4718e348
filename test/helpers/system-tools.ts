import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * System tools some tests drive for real (Chromium, minisign, ssh-keygen). A
 * user's machine may lack them: the test then skips, saying what to install.
 * CI (.ci/run) installs them and sets PARAPET_REQUIRE_SYSTEM_TOOLS=1, under
 * which a missing tool fails the run instead, so CI still proves everything.
 */
export interface SystemTool {
  /** Names looked up on PATH, first found wins. */
  readonly names: readonly string[];
  /** The Debian package that provides it. */
  readonly apt: string;
  /** An environment variable naming the executable instead of PATH. */
  readonly env?: string;
}

export const CHROMIUM: SystemTool = { names: ['chromium', 'chromium-browser'], apt: 'chromium', env: 'PARAPET_CHROMIUM' };
export const MINISIGN: SystemTool = { names: ['minisign'], apt: 'minisign' };
export const SSH_KEYGEN: SystemTool = { names: ['ssh-keygen'], apt: 'openssh-client' };

export const toolsRequired = (): boolean => process.env.PARAPET_REQUIRE_SYSTEM_TOOLS === '1';

/** The executable's path on PATH (or from the tool's variable), or undefined. */
export function findTool(tool: SystemTool, path = process.env.PATH ?? ''): string | undefined {
  const override = tool.env ? process.env[tool.env] : undefined;
  if (override) return isExecutable(override) ? override : undefined;
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    for (const name of tool.names) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * The paths of `tools` when all are present. When one is missing: under
 * PARAPET_REQUIRE_SYSTEM_TOOLS=1 throw (the test file fails); otherwise print
 * one line naming what to install and return undefined (the caller skips).
 */
export function requireTools(what: string, ...tools: SystemTool[]): string[] | undefined {
  const found = tools.map((t) => findTool(t));
  const missing = tools.filter((_, i) => found[i] === undefined);
  if (missing.length === 0) return found as string[];
  const hint = `apt-get install ${missing.map((t) => t.apt).join(' ')}`;
  const names = missing.map((t) => t.names[0]).join(', ');
  if (toolsRequired()) throw new Error(`${what} needs ${names}, which is not on PATH, and PARAPET_REQUIRE_SYSTEM_TOOLS=1 (${hint})`);
  console.warn(`skipped: ${what} needs ${names} (${hint})`);
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
