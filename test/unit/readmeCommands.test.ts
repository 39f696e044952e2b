// Issue 23: "README: the admin commands table is complete". Every npm script is named in the README's
// Commands table, and every command of `npm run admin` (as its usage text lists them) is named there
// and in docs/api-platform.md, so a new script or admin command cannot land undocumented.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

function commandsSection(): string {
  const readme = read('README.md');
  const start = readme.indexOf('\n## Commands');
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** `noun verb` (or `noun` alone) of each line of the admin CLI's usage text. */
function adminCommands(): string[] {
  const source = read('runtime/cli/admin.ts');
  const usage = /const USAGE = `([^`]*)`/.exec(source)?.[1] ?? '';
  const commands = [...usage.matchAll(/npm run admin -- ([a-z]+)(?: ([a-z]+))?/g)].map((m) => (m[2] ? `${m[1]} ${m[2]}` : m[1]!));
  return [...new Set(commands)];
}

describe('README commands table', () => {
  it('names every npm script of package.json', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const section = commandsSection();
    // `npm start` and `npm test` run without `run`; the benchmarks share a row by their script names.
    const named = (script: string) => section.includes(`npm run ${script}`) || section.includes(`npm ${script}`) || section.includes(`\`${script}\``);
    expect(scripts.length).toBeGreaterThan(10);
    expect(scripts.filter((s) => !named(s))).toEqual([]);
  });

  it('names every admin command, as README and docs/api-platform.md', () => {
    const commands = adminCommands();
    expect(commands).toEqual(expect.arrayContaining(['account create', 'key create', 'key rotate', 'key revoke', 'session create', 'usage']));
    const section = commandsSection();
    const docs = read('docs/api-platform.md');
    expect(commands.filter((c) => !section.includes(`\`${c}\``))).toEqual([]);
    expect(commands.filter((c) => !docs.includes(`npm run admin -- ${c}`))).toEqual([]);
  });
});
