// A transport-level fake of Elasticsearch: the real client, its bulk helper and serialisation run;
// only the HTTP exchange is replaced. Tests see every request and choose every answer.
import { Client } from '@elastic/elasticsearch';
import { BaseConnection } from '@elastic/transport';
import type {
  ConnectionRequestOptions,
  ConnectionRequestOptionsAsStream,
  ConnectionRequestParams,
  ConnectionRequestResponse,
  ConnectionRequestResponseAsStream,
} from '@elastic/transport/lib/connection/BaseConnection.js';

export interface RecordedRequest {
  method: string;
  path: string;
  body: string;
}

export type EsResponder = (req: RecordedRequest) => { statusCode?: number; body: unknown };

export function fakeEsClient(respond: EsResponder): { client: Client; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  class FakeConnection extends BaseConnection {
    override request(params: ConnectionRequestParams, options: ConnectionRequestOptions): Promise<ConnectionRequestResponse>;
    override request(params: ConnectionRequestParams, options: ConnectionRequestOptionsAsStream): Promise<ConnectionRequestResponseAsStream>;
    // The client never asks for streamed answers in these tests; every answer is a complete body.
    override async request(params: ConnectionRequestParams): Promise<ConnectionRequestResponse | ConnectionRequestResponseAsStream> {
      const body = params.body == null ? '' : Buffer.isBuffer(params.body) ? params.body.toString('utf8') : String(params.body);
      const req = { method: params.method, path: params.path, body };
      requests.push(req);
      const answer = respond(req);
      return {
        statusCode: answer.statusCode ?? 200,
        headers: { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' },
        body: JSON.stringify(answer.body),
      };
    }
  }
  const client = new Client({ node: 'http://es.test:9200', Connection: FakeConnection as never });
  return { client, requests };
}

/** Bulk answer for an NDJSON body: every action succeeds unless `fail` names its document id. */
export function bulkAnswer(body: string, fail: (id: string) => boolean = () => false) {
  const lines = body.trim().split('\n');
  const items: unknown[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const action = JSON.parse(lines[i]!) as { index: { _index: string; _id: string } };
    const id = action.index._id;
    items.push({
      index: fail(id)
        ? { _index: action.index._index, _id: id, status: 400, error: { type: 'mapper_parsing_exception', reason: 'bad value' } }
        : { _index: action.index._index, _id: id, status: 201, result: 'created' },
    });
  }
  return { took: 1, errors: items.some((it) => (it as { index: { status: number } }).index.status >= 300), items };
}
