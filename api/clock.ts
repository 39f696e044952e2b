// The API reads time only through a Clock, so tests move it to a month boundary or past a rate-limit
// window instead of waiting.

/** Milliseconds since the epoch, like Date.now. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
