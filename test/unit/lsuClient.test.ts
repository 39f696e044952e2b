// The BMF list download (pipeline/bmf/lsuClient.ts) against the fake: the ISO-8859-1 bytes with CRLF
// as served, decoded; a conditional download that costs a 304; and each transport fault as the error
// type the job runner retries, throttles or (for a cut-off 200) leaves to the footer check.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeLsu, type FakeLsu } from '../../pipeline/bmf/fake/fakeLsu.js';
import { LsuClient } from '../../pipeline/bmf/lsuClient.js';
import { lsuListComplete } from '../../pipeline/bmf/lsuParser.js';
import { UpstreamThrottledError, UpstreamUnavailableError } from '../../pipeline/jobs/errors.js';

const V1 = readFileSync(new URL('../../fixtures/corpus/bmf/lists/01-stand-2026-10-01.csv', import.meta.url));
const V2 = readFileSync(new URL('../../fixtures/corpus/bmf/lists/02-stand-2026-10-15.csv', import.meta.url));
let fake: FakeLsu | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('LsuClient', () => {
  it('gets the list as the BMF serves it (ISO-8859-1, CRLF) and decodes it', async () => {
    expect(V1.includes(Buffer.from('Ver\xf6ffentlichung', 'latin1'))).toBe(true);
    expect(V1.includes(Buffer.from('\r\n'))).toBe(true);
    fake = await startFakeLsu({ lists: [V1] });
    const got = await new LsuClient({ url: fake.url }).fetchList();
    expect(got.status).toBe('ok');
    if (got.status !== 'ok') return;
    expect(got.text.startsWith('Name~ Anschrift~ Veröffentlichung~')).toBe(true);
    expect(got.text).toContain('Wörthersee Schifffahrt GmbH');
    expect(got.bytes).toBe(V1.length);
    expect(lsuListComplete(got.text)).toBe(true);
  });

  it('sends the validators back and takes a 304 as "unchanged"; a new version comes whole', async () => {
    fake = await startFakeLsu({ lists: [V1, V2] });
    const client = new LsuClient({ url: fake.url });
    const first = await client.fetchList();
    if (first.status !== 'ok') throw new Error('expected the list');
    expect(first.etag).toMatch(/^".+"$/);
    const second = await client.fetchList({ etag: first.etag, lastModified: first.lastModified });
    expect(second).toMatchObject({ status: 'ok' });
    if (second.status !== 'ok') return;
    expect(second.text).toContain('Stand:  15.10.2026 06:00:02');
    expect(await client.fetchList({ etag: second.etag })).toEqual({ status: 'not-modified' });
    expect(await client.fetchList({ lastModified: second.lastModified })).toEqual({ status: 'not-modified' });
    expect(fake.stats).toMatchObject({ delivered: 2, notModified: 2 });
  });

  it('turns each transport fault into the error the job runner acts on', async () => {
    const events: Array<number | 'error'> = [];
    const client = (url: string) => new LsuClient({ url, timeoutMs: 300, onRequest: (e) => events.push(e.status) });
    const cases = [
      { faults: { rate401: 1 }, error: UpstreamUnavailableError, message: /HTTP 401/ },
      { faults: { rate429: 1, retryAfterSeconds: 7 }, error: UpstreamThrottledError, message: /retry after 7 s/ },
      { faults: { rate500: 1 }, error: UpstreamUnavailableError, message: /HTTP 500/ },
      { faults: { rateTimeout: 1, timeoutMs: 2000 }, error: UpstreamUnavailableError, message: /download failed/ },
      { faults: { rateTruncated: 1 }, error: UpstreamUnavailableError, message: /download failed/ },
    ];
    for (const c of cases) {
      fake = await startFakeLsu({ lists: [V1], faults: c.faults });
      const failed = client(fake.url).fetchList();
      await expect(failed, JSON.stringify(c.faults)).rejects.toBeInstanceOf(c.error);
      await expect(failed).rejects.toThrow(c.message);
      await fake.close();
    }
    expect(events).toEqual([401, 429, 500, 'error', 200]);
    // A 200 cut off with a clean end arrives; only its missing footer tells.
    fake = await startFakeLsu({ lists: [V1], faults: { rateCutOff: 1 } });
    const cut = await client(fake.url).fetchList();
    expect(cut.status === 'ok' && lsuListComplete(cut.text)).toBe(false);
  });
});
