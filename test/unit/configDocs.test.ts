// Every variable the service reads is listed in .env.example and in the README's configuration table.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../runtime/config.js';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('configuration documentation', () => {
  it('lists every variable in .env.example', () => {
    const listed = new Set([...read('.env.example').matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]));
    expect(CONFIG_VARIABLES.filter((v) => !listed.has(v))).toEqual([]);
  });
  it('lists every variable in the README', () => {
    const readme = read('README.md');
    expect(CONFIG_VARIABLES.filter((v) => !readme.includes(`\`${v}\``))).toEqual([]);
  });
});
