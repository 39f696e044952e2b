// OpenAPI entries of the people endpoints (people.ts): search, name index and person profile, with
// the query schemas the routes validate with; the examples are the people of Müller Bau GmbH.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { TradeLicense, tradeLicenseExample } from './trades.docs.js';
import { codeText, nullableString, pageOf, registerExample, registerJsonGet, TAGS } from '../openapi/common.js';
import { EINZELVERTRETUNG, GEMEINSAM, GF } from '../openapi/exampleData.js';
import { peopleNamesQuery, peopleQuery } from '../operations/people.js';

const PersonFunction = z.object({
  fnr: z.string(), companyName: z.string(), companyIsActive: z.boolean(), functionCode: z.string(), functionText: nullableString,
  representation: codeText.nullable(), since: nullableString, until: nullableString, isCurrent: z.boolean(),
}).loose();

const OpenNotice = z.object({
  ediktId: z.string(), aktenzeichen: nullableString, proceeding: codeText.nullable(), firstPublishedOn: nullableString,
  relation: z.enum(['debtor', 'company']), fnr: z.string().optional().meta({ description: 'The company (relation `company` only).' }),
});

const andreaFunctions = [
  {
    fnr: '30435h', companyName: 'Müller Bau GmbH', companyIsActive: true, functionCode: 'GF', functionText: GF, representation: EINZELVERTRETUNG,
    since: '2011-03-01', until: null, isCurrent: true,
  },
  {
    fnr: '388410t', companyName: 'Murtal Beteiligungsverwaltung GmbH', companyIsActive: true, functionCode: 'GF', functionText: GF,
    representation: GEMEINSAM, since: '2016-05-20', until: null, isCurrent: true,
  },
];

const peoplePageExample = {
  data: [
    { personId: 'andrea-müller-1972-04-18', firstName: 'Andrea', lastName: 'Müller', birthDate: '1972-04-18', functions: andreaFunctions },
    {
      personId: 'josef-müller-1944-11-02', firstName: 'Josef', lastName: 'Müller', birthDate: '1944-11-02',
      functions: [{
        fnr: '30435h', companyName: 'Müller Bau GmbH', companyIsActive: true, functionCode: 'GF', functionText: GF,
        representation: EINZELVERTRETUNG, since: '1988-06-01', until: '2011-02-28', isCurrent: false,
      }],
    },
  ],
  pageNumber: 1, pageSize: 10, totalRecords: 2, totalPages: 1,
};

const personExample = {
  personId: 'andrea-müller-1972-04-18', firstName: 'Andrea', lastName: 'Müller', titles: { before: 'Ing.', after: 'MSc' },
  birthDate: '1972-04-18', functions: andreaFunctions,
  openNotices: [{
    ediktId: '007015S0004125001', aktenzeichen: '007 015 S 00041/25', proceeding: { code: 'SVME', text: 'Sanierungsverfahren mit Eigenverwaltung' },
    firstPublishedOn: '2025-10-14', relation: 'company', fnr: '30435h',
  }],
  hasOpenNotices: true,
  tradeLicenses: [{
    ...tradeLicenseExample, gisaZahl: '100000542', fnr: null, tradeKey: '740100', wording: 'Unternehmensberatung einschließlich der Unternehmensorganisation',
    effectiveFrom: '2011-01-10', holder: { type: 'natural', name: 'Andrea Müller', fnr: null }, manager: null,
  }],
};

const peopleNamesExample = {
  data: [
    { personId: 'andrea-müller-1972-04-18', name: 'Andrea Müller', birthDate: '1972-04-18' },
    { personId: 'josef-müller-1944-11-02', name: 'Josef Müller', birthDate: '1944-11-02' },
    { personId: 'karin-müller-x', name: 'Karin Müller', birthDate: null },
  ],
  pageNumber: 1, pageSize: 10, totalRecords: 3, totalPages: 1,
};

export function registerPeopleDocs(registry: OpenAPIRegistry): void {
  const example = (name: string, summary: string, value: unknown) => registerExample(registry, name, summary, value);
  const tags = [TAGS.people.name];
  registerJsonGet(registry, '/people', tags, 'Search people', peopleQuery,
    pageOf(z.object({ personId: z.string(), firstName: nullableString, lastName: nullableString, birthDate: nullableString, functions: z.array(PersonFunction) })), {
      operationId: 'searchPeople', request: '/people?lastName=M%C3%BCller&fnr=30435h',
      description: 'People in the company register by name (first and last name start with the given text), function and company, ' +
        'each with their functions (current first). Filters combine with AND; ordered by last name, first name.',
      examples: example('PeoplePage', 'lastName=Müller&fnr=30435h: current and former managing directors', peoplePageExample),
    });
  registerJsonGet(registry, '/people/names', tags, 'Person name index', peopleNamesQuery,
    pageOf(z.object({ personId: z.string(), name: z.string(), birthDate: nullableString })), {
      operationId: 'autocompletePersonNames', request: '/people/names?search=m%C3%BCller',
      description: 'Person autocomplete: people whose full name or last name starts with the term, ordered by name, with the personId ' +
        'to open their profile. A person without a registered birth date has an id ending in `-x`.',
      examples: example('PeopleNames', 'search=müller (a person without a registered birth date has an id ending in -x)', peopleNamesExample),
    });
  registerJsonGet(registry, '/people/{personId}', tags, 'Person profile', undefined,
    z.object({
      personId: z.string(), firstName: nullableString, lastName: nullableString,
      titles: z.object({ before: nullableString, after: nullableString }), birthDate: nullableString, functions: z.array(PersonFunction),
      openNotices: z.array(OpenNotice).meta({
        description: 'Open court notices (Ediktsdatei) of the person: their own proceedings (relation `debtor`: the debtor\'s name and birth date give this personId) ' +
          'and the notices asserted (link confidence >= 0.9) to companies they hold a current function in (relation `company`, with `fnr`). Ended functions do not count.',
      }),
      hasOpenNotices: z.boolean().meta({ description: 'openNotices is not empty.' }),
      tradeLicenses: z.array(TradeLicense).meta({ description: 'Trade licences the person holds themselves (sole trader), found in GISA by name and birth date.' }),
    }).loose(), {
      operationId: 'getPersonProfile', request: '/people/andrea-m%C3%BCller-1972-04-18',
      description: 'One person: names, titles, birth date, every registered function, open court notices and own trade licences. Person ids keep their letters (`zoë-fürst-1990-02-14`). An id spelled in ASCII resolves to the person it spells: umlauts written ' +
        'out or plain (`zoe-fuerst-1990-02-14`, `zoe-furst-1990-02-14`), ß as ss, accents dropped, any case. Such a request answers 200 with the ' +
        'profile under its canonical `personId` and a `Content-Location` header holding the canonical path (no redirect: one request, ' +
        'as with the canonical id). When a spelling fits several people, the 404 names their ids.',
      params: z.object({
        personId: z.string().meta({ description: 'The person id, or its ASCII spelling (see the description).', example: 'andrea-müller-1972-04-18' }),
      }),
      problems: [404],
      examples: example('PersonProfile', 'A managing director of two companies', personExample),
    });
}
