// Every register the pipeline crawls. Adding one is a folder with an index.ts that exports a
// Register (pipeline/register.ts), and one line here; README.md "Adding a register" has the recipe.
import { bmf } from './bmf/index.js';
import { edikte } from './edikte/index.js';
import { firmenbuch } from './firmenbuch/index.js';
import { gisa } from './gisa/index.js';
import type { AnyRegister } from './register.js';

export const REGISTERS: readonly AnyRegister[] = [firmenbuch, gisa, bmf, edikte];

export function registerNamed(name: string, registers: readonly AnyRegister[] = REGISTERS): AnyRegister | undefined {
  return registers.find((r) => r.name === name);
}
