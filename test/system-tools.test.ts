import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findTool, requireTools, type SystemTool } from './helpers/system-tools.js';

const dir = mkdtempSync(join(tmpdir(), 'parapet-tools-'));
const present = join(dir, 'present-tool');
writeFileSync(present, '#!/bin/sh\n');
chmodSync(present, 0o755);
writeFileSync(join(dir, 'not-executable'), '');
const PRESENT: SystemTool = { names: ['absent-tool', 'present-tool'], apt: 'present-pkg' };
const ABSENT: SystemTool = { names: ['absent-tool'], apt: 'absent-pkg' };

describe('system tools the tests need', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    vi.restoreAllMocks();
  });

  it('are found on PATH by any of their names, and a file that is not executable is not one', () => {
    expect(findTool(PRESENT, `/nonexistent:${dir}`)).toBe(present);
    expect(findTool(ABSENT, dir)).toBeUndefined();
    expect(findTool({ names: ['not-executable'], apt: 'x' }, dir)).toBeUndefined();
  });

  it('when missing, skip with one line naming the package to install', () => {
    delete process.env.PARAPET_REQUIRE_SYSTEM_TOOLS;
    process.env.PATH = dir;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(requireTools('the x test', PRESENT, ABSENT)).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toBe('skipped: the x test needs absent-tool (apt-get install absent-pkg)');
    expect(requireTools('the x test', PRESENT)).toEqual([present]);
  });

  it('when missing under PARAPET_REQUIRE_SYSTEM_TOOLS=1, fail instead of skipping', () => {
    process.env.PARAPET_REQUIRE_SYSTEM_TOOLS = '1';
    process.env.PATH = dir;
    expect(() => requireTools('the x test', ABSENT)).toThrow(/the x test needs absent-tool.*PARAPET_REQUIRE_SYSTEM_TOOLS=1 \(apt-get install absent-pkg\)/);
  });
});
