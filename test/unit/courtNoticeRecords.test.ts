// The court notice a change recorded, as GET /edikte/changes/{id} presents it.
import { describe, expect, it } from 'vitest';
import { presentCourtNotice } from '../../api/presenters/changes.js';

describe('presentCourtNotice', () => {
  it('gives nulls for the columns a snapshot lacks and drops the ones a client must not see', () => {
    const presented = presentCourtNotice({ edikt_id: 'E1', raw: { internal: true }, unid: 'ABC', link_confidence: '0.50', blocks: null });
    expect(presented).toEqual({
      ediktId: 'E1', aktenzeichen: null, court: null, proceeding: null, debtor: { type: null, name: null, fnr: null, personId: null, address: null },
      openedOn: null, firstPublishedOn: null, lastPublishedOn: null, isOpen: null, deletedAt: null, blocks: [],
      link: { evidence: null, confidence: 0.5, candidates: [] },
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

  it('presents a link\'s candidates for review, and a tombstone as the deletion left it', () => {
    const presented = presentCourtNotice({
      edikt_id: 'E3', debtor_type: 'J', debtor_name: 'Donautal Logistik AG', fnr: null, link_evidence: null, link_confidence: null,
      link_candidates: [{ fnr: '98231h', name: 'Donautal Logistik AG', evidence: 'name', confidence: 0.6, extra: true }],
    });
    expect(presented?.link).toEqual({ evidence: null, confidence: null, candidates: [{ fnr: '98231h', name: 'Donautal Logistik AG', evidence: 'name', confidence: 0.6 }] });
    const tombstone = presentCourtNotice({ edikt_id: 'E4', deleted_at: '2026-11-22T05:12:41.000Z' });
    expect(tombstone).toMatchObject({ ediktId: 'E4', deletedAt: '2026-11-22T05:12:41.000Z', debtor: { type: null, name: null, personId: null, address: null }, blocks: [] });
    const person = presentCourtNotice({ edikt_id: 'E5', debtor_type: 'N', debtor_person_id: 'maria-huber-1970-03-15' });
    expect(person?.debtor.personId).toBe('maria-huber-1970-03-15');
  });

  it('answers null for a snapshot that is no court notice row', () => {
    for (const snapshot of [null, undefined, 'E1', 42, [], { ediktId: 'E1' }, { edikt_id: 7 }, { edikt_id: 'E1', blocks: 'none' }, { edikt_id: 'E1', deleted_at: 'yesterday' }, { edikt_id: 'E1', link_candidates: [{ name: 'x' }] }]) {
      expect(presentCourtNotice(snapshot), JSON.stringify(snapshot)).toBeNull();
    }
  });
});
