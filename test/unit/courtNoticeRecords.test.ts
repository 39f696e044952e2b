// The court notice a change recorded, as GET /edikte/changes/{id} presents it.
import { describe, expect, it } from 'vitest';
import { presentCourtNotice } from '../../api/presenters/changes.js';

describe('presentCourtNotice', () => {
  it('gives nulls for the columns a snapshot lacks and drops the ones a client must not see', () => {
    const presented = presentCourtNotice({ edikt_id: 'E1', raw: { internal: true }, unid: 'ABC', link_confidence: '0.50', blocks: null });
    expect(presented).toEqual({
      ediktId: 'E1', aktenzeichen: null, court: null, proceeding: null, debtor: { type: null, name: null, fnr: null, address: null },
      openedOn: null, firstPublishedOn: null, lastPublishedOn: null, isOpen: null, deletedAt: null, blocks: [],
      link: { evidence: null, confidence: 0.5 },
    });
  });

  it('keeps a court without a name as its code and a block as the register listed it', () => {
    const presented = presentCourtNotice({
      edikt_id: 'E2', court_code: '007', proceeding_code: 'KV', proceeding_text: 'Konkursverfahren', is_open: false, deleted_at: '2025-06-01T14:34:56.789123+02:00',
      blocks: [{ publishedOn: '2025-01-02', name: 'Aufhebung', extra: 1 }],
    });
    expect(presented).toMatchObject({
      court: { code: '007', text: null }, proceeding: { code: 'KV', text: 'Konkursverfahren' }, isOpen: false, deletedAt: '2025-06-01T12:34:56.789Z',
      blocks: [{ publishedOn: '2025-01-02', name: 'Aufhebung', text: null, decidedOn: null }],
    });
  });

  it('answers null for a snapshot that is no court notice row', () => {
    for (const snapshot of [null, undefined, 'E1', 42, [], { ediktId: 'E1' }, { edikt_id: 7 }, { edikt_id: 'E1', blocks: 'none' }, { edikt_id: 'E1', deleted_at: 'yesterday' }]) {
      expect(presentCourtNotice(snapshot), JSON.stringify(snapshot)).toBeNull();
    }
  });
});
