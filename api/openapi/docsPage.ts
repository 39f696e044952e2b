// The human-readable API reference: one self-contained HTML page (no CDN, no external assets) that
// fetches openapi.json from the same server and renders it: the description, then every endpoint
// by tag with its operationId, curl example, parameters (with examples and per-value meanings),
// request body and responses, schemas expanded inline and their named examples. The script runs
// under a per-response CSP nonce; nothing else may load.

const STYLE = `
  :root { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2330; }
  body { max-width: 1080px; margin: 0 auto; padding: 24px; line-height: 1.45; }
  h1 { margin-bottom: 0; } .version { color: #5b6478; margin-top: 4px; }
  h2 { border-bottom: 2px solid #dde2ea; padding-bottom: 4px; margin-top: 40px; }
  details.op { border: 1px solid #dde2ea; border-radius: 6px; margin: 10px 0; background: #fafbfd; }
  details.op > summary { cursor: pointer; padding: 8px 12px; list-style: none; }
  details.op[open] > summary { border-bottom: 1px solid #dde2ea; }
  .op-body { padding: 8px 16px 16px; }
  .method { display: inline-block; min-width: 64px; font-weight: 700; font-family: ui-monospace, monospace; }
  .get { color: #1769aa; } .post { color: #1f7a3a; } .patch { color: #a05a00; } .delete { color: #b3261e; } .put { color: #6b3fa0; }
  code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 13px; }
  pre { background: #f1f3f7; padding: 10px; border-radius: 4px; overflow-x: auto; white-space: pre-wrap; }
  table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; } td { overflow-wrap: anywhere; } td:nth-child(2) { overflow-wrap: normal; } td:last-child { width: 50%; } td, th { text-align: left; padding: 4px 8px; border-bottom: 1px solid #e6e9ef; vertical-align: top; }
  .status { font-weight: 700; font-family: ui-monospace, monospace; } .muted { color: #5b6478; }
  #description h2 { font-size: 1.1em; border: none; margin-top: 18px; }
  details.example > summary, details.values > summary { cursor: pointer; color: #1769aa; margin: 4px 0; }
  .opid { color: #5b6478; font-size: 13px; }
`;

const SCRIPT = `
(async () => {
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    for (const child of children.flat()) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    return node;
  };
  const response = await fetch('openapi.json');
  const doc = await response.json();
  document.title = doc.info.title + ' ' + doc.info.version;
  document.getElementById('title').textContent = doc.info.title;
  document.getElementById('version').textContent = 'Version ' + doc.info.version + ' · OpenAPI ' + doc.openapi + ' · base path ' + (doc.servers?.[0]?.url ?? '/');

  // A tiny Markdown subset for the description: headings, bullet lists, paragraphs, inline code and bold.
  const inline = (text) => {
    const span = el('span');
    for (const part of text.split(/(\\x60[^\\x60]+\\x60|\\*\\*[^*]+\\*\\*)/)) {
      if (part.startsWith('\\x60')) span.append(el('code', {}, part.slice(1, -1)));
      else if (part.startsWith('**')) span.append(el('strong', {}, part.slice(2, -2)));
      else span.append(part);
    }
    return span;
  };
  const description = document.getElementById('description');
  let list = null;
  for (const block of doc.info.description.split('\\n')) {
    const line = block.trimEnd();
    if (line.startsWith('## ')) { list = null; description.append(el('h2', {}, line.slice(3))); }
    else if (line.startsWith('- ')) { if (!list) { list = el('ul'); description.append(list); } list.append(el('li', {}, inline(line.slice(2)))); }
    else if (line.startsWith('  ') && list) { list.lastChild.append(' ', inline(line.trim())); }
    else if (line.trim() === '') { list = null; }
    else { list = null; const last = description.lastChild; if (last && last.tagName === 'P') last.append(' ', inline(line)); else description.append(el('p', {}, inline(line))); }
  }

  const resolve = (schema) => {
    let s = schema;
    for (let i = 0; s && s.$ref && i < 10; i++) s = doc.components.schemas[s.$ref.split('/').pop()];
    return s ?? {};
  };
  const typeName = (schema) => {
    if (!schema) return 'any';
    if (schema.$ref) return schema.$ref.split('/').pop();
    // A long enum (orderBy's 48 values) would widen the table past the page: its first values and a count.
    if (schema.enum) return schema.enum.slice(0, 6).map((v) => JSON.stringify(v)).join(' | ') + (schema.enum.length > 6 ? ' | … (' + schema.enum.length + ' values)' : '');
    if (schema.anyOf || schema.oneOf) return (schema.anyOf || schema.oneOf).map(typeName).join(' | ');
    const t = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
    if (t === 'array') return typeName(schema.items) + '[]';
    if (schema.format) return t + ' (' + schema.format + ')';
    return t ?? 'object';
  };
  // Expands a schema into readable pseudo-JSON, one property per line with its description.
  const render = (schema, indent = '', seen = new Set()) => {
    const ref = schema && schema.$ref;
    if (ref && seen.has(ref)) return typeName(schema);
    const next = new Set(seen); if (ref) next.add(ref);
    const s = resolve(schema);
    if (s.type === 'array') {
      const item = resolve(s.items);
      if (item.type === 'object' || item.anyOf || item.oneOf) return '[ ' + render(s.items, indent, next) + ' ]';
      const name = render(s.items, indent, next);
      return (name.includes('|') ? '(' + name + ')' : name) + '[]';
    }
    if (s.anyOf || s.oneOf) return (s.anyOf || s.oneOf).map((x) => render(x, indent, next)).join(' | ');
    if (s.type === 'object' && s.properties) {
      const required = new Set(s.required ?? []);
      const lines = Object.entries(s.properties).map(([name, prop]) => {
        const p = resolve(prop);
        const note = (prop.description || p.description) ? '  // ' + (prop.description || p.description) : '';
        return indent + '  ' + name + (required.has(name) ? '' : '?') + ': ' + render(prop, indent + '  ', next) + note;
      });
      return '{\\n' + lines.join('\\n') + '\\n' + indent + '}';
    }
    if (s.type === 'object' && s.additionalProperties) return '{ [key: string]: ' + render(s.additionalProperties === true ? {} : s.additionalProperties, indent, next) + ' }';
    return typeName(s);
  };

  const byTag = new Map();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = op.tags?.[0] ?? 'Other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push({ path, method, op });
    }
  }
  const main = document.getElementById('operations');
  main.textContent = '';
  // Named examples of a media type or parameter, $refs into components/examples resolved; each collapsible.
  const examplesOf = (holder) => {
    const found = holder && holder.example !== undefined ? [{ summary: 'Example', value: holder.example }] : [];
    for (const [name, entry] of Object.entries((holder && holder.examples) ?? {})) {
      const ex = entry && entry.$ref ? (doc.components.examples ?? {})[entry.$ref.split('/').pop()] ?? {} : entry ?? {};
      found.push({ summary: ex.summary ?? name, value: ex.value });
    }
    return found.map((ex) => el('details', { class: 'example' }, el('summary', {}, 'Example: ' + ex.summary),
      el('pre', {}, typeof ex.value === 'string' ? ex.value : JSON.stringify(ex.value, null, 2))));
  };
  for (const tag of (doc.tags ?? []).map((t) => t.name).concat([...byTag.keys()]).filter((t, i, all) => all.indexOf(t) === i && byTag.has(t))) {
    const info = (doc.tags ?? []).find((t) => t.name === tag);
    main.append(el('h2', { id: tag }, tag));
    if (info?.description) main.append(el('p', { class: 'muted' }, info.description));
    for (const { path, method, op } of byTag.get(tag)) {
      const body = el('div', { class: 'op-body' });
      if (op.operationId) body.append(el('p', { class: 'opid' }, 'operationId ', el('code', {}, op.operationId)));
      if (op.description) body.append(el('p', {}, inline(op.description)));
      for (const sample of op['x-codeSamples'] ?? []) body.append(el('h4', {}, 'Example request (' + (sample.label ?? sample.lang) + ')'), el('pre', {}, sample.source));
      if (op.parameters?.length) {
        const table = el('table', {}, el('tr', {}, el('th', {}, 'Parameter'), el('th', {}, 'In'), el('th', {}, 'Type'), el('th', {}, 'Description')));
        for (const p of op.parameters) {
          const s = p.schema ?? {};
          const example = p.example ?? s.example;
          const extra = [s.default !== undefined ? 'default ' + JSON.stringify(s.default) : '', s.minimum !== undefined ? 'min ' + s.minimum : '', s.maximum !== undefined ? 'max ' + s.maximum : '', example !== undefined ? 'example ' + JSON.stringify(example) : ''].filter(Boolean).join(', ');
          const cell = el('td', {}, inline((p.description ?? s.description ?? '') + (extra ? ' (' + extra + ')' : '')));
          const meanings = s['x-enumDescriptions'];
          if (meanings) cell.append(el('details', { class: 'values' }, el('summary', {}, 'What each value means'),
            el('ul', {}, Object.entries(meanings).map(([value, text]) => el('li', {}, el('code', {}, value), ' ', text)))));
          table.append(el('tr', {}, el('td', {}, el('code', {}, p.name + (p.required ? '' : '?'))), el('td', {}, p.in), el('td', {}, typeName(s)), cell));
        }
        body.append(el('h4', {}, 'Parameters'), table);
      }
      const requestContent = op.requestBody?.content;
      if (requestContent) {
        const [type, media] = Object.entries(requestContent)[0];
        body.append(el('h4', {}, 'Request body (' + Object.keys(requestContent).join(', ') + ')'), el('pre', {}, render(media.schema)), ...examplesOf(media));
      }
      body.append(el('h4', {}, 'Responses'));
      for (const [status, res] of Object.entries(op.responses ?? {})) {
        const row = el('div', {}, el('span', { class: 'status' }, status), ' ', res.description ?? '');
        const content = res.content ? Object.entries(res.content) : [];
        if (content.length) {
          row.append(el('div', { class: 'muted' }, content.map(([t]) => t).join(', ')));
          const schema = content[0][1].schema;
          if (schema && (schema.$ref || schema.type === 'object' || schema.type === 'array')) row.append(el('pre', {}, render(schema)));
          // Every media type of one answer shares the same examples; each type's own are shown once.
          const seen = new Set();
          for (const [, media] of content) for (const node of examplesOf(media)) if (!seen.has(node.textContent)) { seen.add(node.textContent); row.append(node); }
        }
        body.append(row);
      }
      const summary = el('summary', {}, el('span', { class: 'method ' + method }, method.toUpperCase()), ' ', el('code', {}, path), ' ', el('span', { class: 'muted' }, op.summary ?? ''));
      main.append(el('details', { class: 'op' }, summary, body));
    }
  }
})().catch((err) => { document.getElementById('operations').textContent = 'Could not load openapi.json: ' + err; });
`;

export function docsPageHtml(nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<h1 id="title">API reference</h1>
<p class="version" id="version"></p>
<p class="muted">Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
<section id="description"></section>
<main id="operations">Loading…</main>
<script nonce="${nonce}">${SCRIPT}</script>
</body>
</html>`;
}
