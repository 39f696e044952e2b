// Passwords: argon2id (@node-rs/argon2's default algorithm), PHC strings with their own parameters,
// so changing the cost later still verifies old hashes. The cost comes from configuration
// (PASSWORD_MEMORY_KIB, PASSWORD_TIME_COST): OWASP's 19 MiB and 2 passes by default, tiny in tests.
import { hash, verify } from '@node-rs/argon2';

export interface PasswordCost {
  memoryKiB: number;
  timeCost: number;
}

export const DEFAULT_PASSWORD_COST: PasswordCost = { memoryKiB: 19_456, timeCost: 2 };
export const MIN_PASSWORD_LENGTH = 10;
/** Bounds the work a sign-in can ask for; argon2 reads the whole password. */
export const MAX_PASSWORD_LENGTH = 256;

export function hashPassword(password: string, cost: PasswordCost): Promise<string> {
  return hash(password, { memoryCost: cost.memoryKiB, timeCost: cost.timeCost, parallelism: 1 });
}

export async function verifyPassword(phc: string, password: string): Promise<boolean> {
  try {
    return await verify(phc, password);
  } catch {
    return false;
  }
}

/**
 * Verifying against this hash when the account does not exist (or has no password) makes a failed
 * sign-in take as long as a wrong password, so timing does not tell which e-mail addresses have accounts.
 */
export function decoyHash(cost: PasswordCost): Promise<string> {
  return hashPassword('decoy password that matches nothing', cost);
}

export function passwordProblem(password: string): 'short' | 'long' | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return 'short';
  if (password.length > MAX_PASSWORD_LENGTH) return 'long';
  return undefined;
}
