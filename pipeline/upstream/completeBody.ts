// Whether an answer arrived whole. A body cut off part-way (a proxy or the upstream dropping the
// connection while streaming, with a clean end of a chunked response) is a transport fault that a
// retry can fix, not bad content; only a complete body that does not parse is the input's fault.

/** The root element's name, after the prolog (declaration, comments, processing instructions, doctype). */
function rootName(text: string): { name: string; end: number } | null {
  const prolog = /^\s*(?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>\s*)*/i.exec(text);
  const start = prolog ? prolog[0].length : 0;
  const tag = /^<([A-Za-z_][\w.:-]*)/.exec(text.slice(start));
  return tag ? { name: tag[1]!, end: start + tag[0].length } : null;
}

/**
 * True when the XML document ends with its root element's end: `</root>` or a self-closed root.
 * An empty body, or one that stops inside the root, is cut off. Text that is not XML at all counts
 * as complete: what it is, is for the parser to say.
 */
export function xmlDocumentComplete(text: string): boolean {
  const trimmed = text.trimEnd();
  if (trimmed === '') return false;
  if (!trimmed.trimStart().startsWith('<')) return true;
  const root = rootName(trimmed);
  if (!root) return false;
  const escaped = root.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (new RegExp(`</${escaped}\\s*>$`).test(trimmed)) return true;
  // A self-closed root: its start tag is the whole document.
  return trimmed.endsWith('/>') && trimmed.indexOf('>', root.end) === trimmed.length - 1;
}

/** True unless `text` is the start of a JSON value that stops early (V8 then fails at its last position). */
export function jsonDocumentComplete(text: string): boolean {
  const trimmed = text.trimEnd();
  if (trimmed === '') return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch (err) {
    const message = (err as Error).message;
    if (/end of JSON input/i.test(message)) return false;
    const position = /at position (\d+)/.exec(message);
    return !(position && Number(position[1]) >= trimmed.length - 1 && /^Unterminated|^Expected/.test(message));
  }
}
