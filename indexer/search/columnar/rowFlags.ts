// The bits of a screener row's flags column (one byte a row).
export const ACTIVE = 1;
export const SCHEIN = 2;
export const EDIKT = 4;
export const FILING = 8;
