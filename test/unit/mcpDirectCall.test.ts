// Which tools/call requests the MCP server answers without the SDK (api/mcp/directToolCall.ts): only
// those the SDK would pass to its tools/call handler unchanged; everything else is left to the SDK,
// which answers it with its own errors. (The answers' equality: test/integration/mcpServer.test.ts.)
import { describe, expect, it } from 'vitest';
import { directToolCall } from '../../api/mcp/directToolCall.js';

const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' };
const CALL = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_company', arguments: { fnr: '30435h' } } };

describe('a tools/call answered directly', () => {
  it('is one JSON-RPC request of a known tool, with the SDK\'s headers', () => {
    const call = directToolCall(HEADERS, CALL);
    expect(call).toMatchObject({ id: 7, args: { fnr: '30435h' } });
    expect(call!.tool.name).toBe('get_company');
    expect(directToolCall({ accept: HEADERS.accept }, { ...CALL, id: 'a-1', params: { name: 'list_key_figures', _meta: { progressToken: 1 } } }))
      .toMatchObject({ id: 'a-1', args: undefined });
  });

  it('leaves to the SDK what it would refuse or treat otherwise', () => {
    const { params } = CALL;
    const refused: Array<[Record<string, string>, unknown]> = [
      [{ ...HEADERS, accept: 'application/json' }, CALL], // 406 from the SDK
      [{ ...HEADERS, 'mcp-protocol-version': '1999-01-01' }, CALL], // 400
      [HEADERS, [CALL]], // a batch
      [HEADERS, null], // no JSON body (415)
      [HEADERS, { ...CALL, jsonrpc: '1.0' }],
      [HEADERS, { ...CALL, id: 1.5 }],
      [HEADERS, { ...CALL, id: null }],
      [HEADERS, { ...CALL, extra: true }], // not a valid JSON-RPC request
      [HEADERS, { ...CALL, method: 'tools/list' }],
      [HEADERS, { ...CALL, params: { ...params, name: 'drop_tables' } }], // the SDK's "No tool" error
      [HEADERS, { ...CALL, params: { ...params, arguments: ['30435h'] } }],
      [HEADERS, { ...CALL, params: { ...params, task: { ttl: 1000 } } }], // task-augmented
      [HEADERS, { ...CALL, params: { name: 7 } }],
    ];
    for (const [headers, body] of refused) expect(directToolCall(headers, body)).toBeUndefined();
  });
});
