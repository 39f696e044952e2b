// One fiscal year's accounts in cents: P&L and balance-sheet leaves drawn from the PRNG, totals computed
// from them, so the filings' sums add up and Aktiva = Passiva.
import { between, pick, type Random } from './random.js';

/** Amounts in cents: exact integers, formatted only when written. */
export type Cents = number;

export function money(cents: Cents): string {
  const negative = cents < 0;
  const abs = Math.abs(Math.round(cents));
  const out = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return negative ? `-${out}` : out;
}

/** The canonical decimal string the parser produces (`1250`, `42180.4`, `-3.05`). */
export function canonicalMoney(cents: Cents): string {
  const s = money(cents).replace(/\.?0+$/, '');
  return s === '-0' || s === '' ? '0' : s;
}

/** Leaves of one year's balance sheet and P&L, in cents; totals are computed from them. */
export interface YearAccounts {
  leaves: Record<string, Cents>;
  totals: Record<string, Cents>;
}

/** Parent -> children of the abstract position tree shared by the legacy and JAb 4.0 writers. */
export const POSITION_TREE: Readonly<Record<string, readonly string[]>> = {
  AKT: ['AV', 'UV', 'ARA', 'ALS'],
  AV: ['IMM', 'SACH', 'FIN'],
  IMM: ['IMM1', 'IMM2'],
  SACH: ['SACH1', 'SACH2', 'SACH3', 'SACH4'],
  FIN: ['FIN1', 'FIN3', 'FIN5'],
  UV: ['VOR', 'FORD', 'WP', 'KASSE'],
  VOR: ['VOR1', 'VOR2', 'VOR3'],
  FORD: ['FORD1', 'FORD2', 'FORD4'],
  PAS: ['EK', 'INV', 'RST', 'VBK', 'PRA'],
  EK: ['NENN', 'KRL', 'GRL', 'BG'],
  GRL: ['GRL1', 'GRL3'],
  RST: ['RST1', 'RST3', 'RST4'],
  VBK: ['VBK2', 'VBK3', 'VBK4', 'VBK8'],
};

function total(accounts: Record<string, Cents>, key: string): Cents {
  const children = POSITION_TREE[key];
  if (!children) return accounts[key] ?? 0;
  return children.reduce((sum, child) => sum + total(accounts, child), 0);
}

/** P&L (Gesamtkostenverfahren) leaves and subtotals; expenses negative, as filed. */
function profitAndLoss(random: Random, revenue: Cents, legalForm: string): Record<string, Cents> {
  const share = (low: number, high: number, base = revenue) => Math.round(base * between(random, low, high));
  const p: Record<string, Cents> = {};
  p.U1 = revenue;
  p.U2 = share(-0.01, 0.015);
  p.U3 = random() < 0.5 ? 0 : share(0, 0.004);
  p.U4a = share(0, 0.002);
  p.U4b = share(0, 0.003);
  p.U4c = share(0.001, 0.01);
  p.U4 = p.U4a + p.U4b + p.U4c;
  p.U5a = -share(0.25, 0.45);
  p.U5b = -share(0.03, 0.12);
  p.U5 = p.U5a + p.U5b;
  p.U6a = -share(0.14, 0.24);
  p.U6b = Math.round(p.U6a * between(random, 0.22, 0.3));
  p.U6 = p.U6a + p.U6b;
  p.U7 = -share(0.015, 0.05);
  p.U8 = -share(0.07, 0.14);
  p.U9 = p.U1 + p.U2 + p.U3 + p.U4 + p.U5 + p.U6 + p.U7 + p.U8;
  p.U10 = random() < 0.4 ? share(0, 0.004) : 0;
  p.U12 = share(0.0001, 0.001);
  p.U15 = -share(0.002, 0.012);
  p.U16 = p.U10 + p.U12 + p.U15;
  p.U17 = p.U9 + p.U16;
  // 23 % corporate tax; a loss still pays the minimum tax (500 EUR GmbH, 3 500 EUR AG).
  p.U21 = p.U17 > 0 ? -Math.round(p.U17 * 0.23) : legalForm === 'AG' ? -350000 : -50000;
  p.U30 = p.U17 + p.U21;
  p.U22 = p.U30;
  return p;
}

/** Balance-sheet leaves for a company of that revenue and annual result; cash and other liabilities balance it. */
function balanceSheet(random: Random, revenue: Cents, result: Cents, legalForm: string): Record<string, Cents> {
  const share = (low: number, high: number, base = revenue) => Math.round(base * between(random, low, high));
  const maybe = (probability: number, low: number, high: number) => (random() < probability ? share(low, high) : 0);
  const b: Record<string, Cents> = {
    IMM1: share(0.001, 0.006), IMM2: maybe(0.3, 0.003, 0.02),
    SACH1: share(0.03, 0.15), SACH2: share(0.03, 0.1), SACH3: share(0.01, 0.04), SACH4: maybe(0.4, 0, 0.015),
    FIN1: maybe(0.3, 0.01, 0.04), FIN3: maybe(0.5, 0.003, 0.02), FIN5: maybe(0.3, 0.001, 0.008),
    VOR1: share(0.01, 0.05), VOR2: share(0.005, 0.03), VOR3: share(0.01, 0.05),
    FORD1: share(0.05, 0.12), FORD2: maybe(0.3, 0, 0.02), FORD4: share(0.004, 0.02),
    WP: maybe(0.2, 0, 0.015), ARA: share(0.001, 0.004), ALS: maybe(0.5, 0, 0.003),
  };
  const others = Object.values(b).reduce((s, v) => s + v, 0);
  const cashShare = between(random, 0.04, 0.16);
  b.KASSE = Math.round((others * cashShare) / (1 - cashShare));
  let assets = others + b.KASSE;

  b.NENN = legalForm === 'AG' ? pick(random, [7000000, 10000000, 50000000]) : pick(random, [3500000, 3500000, 1000000, 7267283]);
  b.BG_GV = Math.round(assets * between(random, -0.01, 0.08));
  b.BG = result + b.BG_GV;
  b.KRL = random() < 0.4 ? Math.round(assets * between(random, 0, 0.05)) : 0;
  b.GRL1 = random() < 0.5 ? Math.round(b.NENN * 0.1) : 0;
  b.GRL3 = Math.round(assets * between(random, 0, 0.15));
  b.INV = random() < 0.3 ? Math.round(assets * between(random, 0, 0.03)) : 0;
  b.RST1 = Math.round(assets * between(random, 0.01, 0.05));
  b.RST3 = result > 0 ? Math.round(result * between(random, 0.05, 0.1)) : 0;
  b.RST4 = Math.round(assets * between(random, 0.02, 0.06));
  b.PRA = random() < 0.3 ? Math.round(assets * between(random, 0, 0.01)) : 0;
  const ek = b.NENN + b.KRL + b.GRL1 + b.GRL3 + b.BG;
  let liabilities = assets - ek - b.INV - b.RST1 - b.RST3 - b.RST4 - b.PRA;
  const minimum = Math.round(assets * 0.08);
  if (liabilities < minimum) {
    // Not enough room for liabilities: the company simply holds more cash.
    b.KASSE += minimum - liabilities;
    assets += minimum - liabilities;
    liabilities = minimum;
  }
  b.VBK2 = Math.round(liabilities * between(random, 0.2, 0.5));
  b.VBK3 = Math.round(liabilities * between(random, 0, 0.08));
  b.VBK4 = Math.round(liabilities * between(random, 0.2, 0.4));
  b.VBK8 = liabilities - b.VBK2 - b.VBK3 - b.VBK4;
  b.VBK2_KURZ = Math.round(b.VBK2 * between(random, 0.1, 0.4));
  return b;
}

export function yearAccounts(random: Random, revenue: Cents, legalForm: string): YearAccounts {
  const pnl = profitAndLoss(random, revenue, legalForm);
  const leaves = { ...balanceSheet(random, revenue, pnl.U22!, legalForm), ...pnl };
  const totals: Record<string, Cents> = {};
  for (const key of Object.keys(POSITION_TREE)) totals[key] = total(leaves, key);
  totals.VBK_KURZ = leaves.VBK2_KURZ! + leaves.VBK3! + leaves.VBK4! + leaves.VBK8!;
  totals.VBK_LANG = totals.VBK! - totals.VBK_KURZ;
  totals.VBK2_LANG = leaves.VBK2! - leaves.VBK2_KURZ!;
  return { leaves, totals };
}

/** Amount of a position; `NONE` (and anything unknown) is a position filed as 0.00. */
export function amount(a: YearAccounts, key: string): Cents {
  return a.totals[key] ?? a.leaves[key] ?? 0;
}
