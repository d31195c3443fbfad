/**
 * Reduces Markdown (and stray HTML) to plain text lines so formatting does not
 * end up inside fact objects. Each list item, heading and table row becomes its own line.
 */
export function stripMarkdown(text: string): string {
  return text
    .replace(/```[\s\S]*?(?:```|$)/g, '\n')
    .replace(/<[^>\n]{1,200}>/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\bhttps?:\/\/\S+/g, ' ')
    .split(/\r?\n/)
    .map(stripLine)
    .join('\n');
}

function stripLine(line: string): string {
  let l = line;
  if (/^\s*([-*_]\s*){3,}$/.test(l)) return '';
  if (/^\s*\|.*\|\s*$/.test(l)) {
    if (/^\s*\|?\s*:?-{2,}/.test(l)) return '';
    l = l.replace(/^\s*\||\|\s*$/g, '').split('|').map((c) => c.trim()).filter(Boolean).join(': ');
  }
  l = l
    .replace(/^\s{0,3}#{1,6}\s+/, '')
    .replace(/^\s*>+\s?/, '')
    .replace(/^\s*(?:[-*+•]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?/, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[\s(])[*_]([^*_\n]+?)[*_](?=[\s).,!?:;]|$)/g, '$1$2')
    .replace(/~~(.+?)~~/g, '$1')
    .replace(/`([^`]*)`/g, '$1');
  return l;
}
