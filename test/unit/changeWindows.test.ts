import { describe, expect, it } from 'vitest';
import { changeWindows } from '../../pipeline/firmenbuch/changeWindows.js';
import { PdfTextError } from '../../pipeline/documents/pdfText.js';
import { AnnualAccountParseError } from '../../pipeline/firmenbuch/annualAccountParser.js';
import { FirmenbuchFaultError, FirmenbuchResponseParseError } from '../../pipeline/firmenbuch/soapResponse.js';
import { isUnrecoverable, retryAfterMs, UnrecoverableInputError, UpstreamUnavailableError } from '../../pipeline/jobs/errors.js';

describe('changeWindows', () => {
  it('cuts a range into consecutive windows of at most seven days', () => {
    expect(changeWindows('2026-10-01', '2026-10-21')).toEqual([
      { from: '2026-10-01', to: '2026-10-07' },
      { from: '2026-10-08', to: '2026-10-14' },
      { from: '2026-10-15', to: '2026-10-21' },
    ]);
  });
  it('handles month ends and single days', () => {
    expect(changeWindows('2026-02-26', '2026-03-04')).toEqual([{ from: '2026-02-26', to: '2026-03-04' }]);
    expect(changeWindows('2026-03-05', '2026-03-05')).toEqual([{ from: '2026-03-05', to: '2026-03-05' }]);
    expect(changeWindows('2026-03-06', '2026-03-05')).toEqual([]);
  });
});

describe('retry decisions', () => {
  it('reads Retry-After in seconds and as an HTTP date', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:30 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(30_000);
    expect(retryAfterMs(null)).toBe(30_000);
    expect(retryAfterMs('0')).toBe(1000);
  });
  it('treats every parser error and request fault as unrecoverable, transport errors as retryable', () => {
    expect(isUnrecoverable(new UnrecoverableInputError('bad filing'))).toBe(true);
    expect(isUnrecoverable(new AnnualAccountParseError('not a filing'))).toBe(true);
    expect(isUnrecoverable(new PdfTextError('unreadable PDF'))).toBe(true);
    expect(isUnrecoverable(new FirmenbuchResponseParseError('notSoap', 'not SOAP'))).toBe(true);
    const fault = new FirmenbuchFaultError({ soapVersion: '1.2', code: 'Receiver', subcode: null, reason: 'Der Zeitraum darf 7 Tage nicht überschreiten', validationErrors: [] });
    expect(fault.kind).toBe('dateWindowExceeded');
    expect(fault.name).toBe('FirmenbuchFaultError');
    expect(isUnrecoverable(fault)).toBe(true);
    expect(isUnrecoverable(new UpstreamUnavailableError('firmenbuch', 500, 'HTTP 500'))).toBe(false);
    expect(isUnrecoverable(new TypeError('fetch failed'))).toBe(false);
  });
});
