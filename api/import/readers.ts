import { parse as parseCsv } from 'csv-parse/sync';

/** One input record and where it came from, before validation. */
export interface SourceRow {
  line: number;
  value: unknown;
}

export type InputFormat = 'jsonl' | 'json' | 'csv';

export function detectFormat(path: string, text: string): InputFormat {
  const lower = path.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  return text.trimStart().startsWith('[') ? 'json' : 'jsonl';
}

/** JSON Lines: one object per line; a line that is not JSON is a row with a problem, not the end of the import. */
function readJsonLines(text: string): SourceRow[] {
  const rows: SourceRow[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      rows.push({ line: i + 1, value: JSON.parse(raw) });
    } catch (error) {
      rows.push({ line: i + 1, value: new SyntaxError(`invalid JSON (${(error as Error).message})`) });
    }
  });
  return rows;
}

/** Line on which each top-level element of a JSON array starts, so problems can name it. */
function elementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let expectValue = false;
  for (const ch of text) {
    if (ch === '\n') line++;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (/\s/.test(ch)) continue;
    if (depth === 1 && expectValue && ch !== ']') {
      lines.push(line);
      expectValue = false;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') {
      depth++;
      if (depth === 1) expectValue = true;
    } else if (ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 1) expectValue = true;
  }
  return lines;
}

function readJsonArray(text: string): SourceRow[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed)) throw new Error('a JSON file must hold an array of memories');
  const lines = elementLines(text);
  return parsed.map((value, i) => ({ line: lines[i] ?? i + 1, value }));
}

const CSV_COLUMNS = new Set(['content', 'user_id', 'agent_id', 'run_id', 'timestamp']);

/** CSV with a header: `content`, optional `user_id`, `agent_id`, `run_id`, `timestamp`, and `metadata.<key>` columns. */
function readCsv(text: string): SourceRow[] {
  const records = parseCsv(text, { columns: true, skip_empty_lines: true, bom: true, info: true, relax_column_count: true }) as {
    record: Record<string, string>;
    info: { lines: number };
  }[];
  if (records.length > 0 && !('content' in records[0].record)) throw new Error('a CSV file needs a `content` column');
  let previousEnd = 1; // the header line
  return records.map(({ record, info }) => {
    const line = previousEnd + 1; // a quoted cell may span lines: report where the record starts
    previousEnd = info.lines;
    const value: Record<string, unknown> = {};
    const metadata: Record<string, string> = {};
    for (const [column, cell] of Object.entries(record)) {
      if (cell === '' || cell === undefined) continue;
      if (column.startsWith('metadata.')) metadata[column.slice('metadata.'.length)] = cell;
      else if (CSV_COLUMNS.has(column)) value[column] = cell;
      else value[column] = cell; // unknown columns are reported by validation, naming the column
    }
    if (Object.keys(metadata).length > 0) value.metadata = metadata;
    return { line, value };
  });
}

export function readRows(path: string, text: string, format = detectFormat(path, text)): SourceRow[] {
  if (format === 'csv') return readCsv(text);
  if (format === 'json') return readJsonArray(text);
  return readJsonLines(text);
}
