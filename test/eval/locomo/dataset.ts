/**
 * LoCoMo conversations (Maharana et al., ACL 2024; CC BY-NC 4.0), read in place from the shared data
 * folder beside the repository and never copied into it. `LOCOMO_PATH` overrides the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const DEFAULT_LOCOMO_PATH = join(repoRoot, '..', 'shared', 'data', 'locomo', 'locomo-dev.json');

export interface Turn {
  conversation: string;
  diaId: string;
  speaker: string;
  /** What is stored as the memory: "Speaker: text", plus the caption of a shared photo. */
  content: string;
  /** ISO date-time of the session the turn belongs to. */
  timestamp: string;
}

export interface Question {
  conversation: string;
  question: string;
  category: 1 | 2 | 3 | 4;
  evidence: string[];
}

export interface Conversation {
  id: string;
  turns: Turn[];
  questions: Question[];
}

export function locomoPath(): string {
  return process.env.LOCOMO_PATH ?? DEFAULT_LOCOMO_PATH;
}

export const locomoAvailable = () => existsSync(locomoPath());

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" -> 2023-05-08T13:56:00.000Z */
export function parseSessionDate(text: string): string {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text);
  if (!m) throw new Error(`unrecognised LoCoMo session date: ${text}`);
  let hour = Number(m[1]) % 12;
  if (m[3].toLowerCase() === 'pm') hour += 12;
  const month = MONTHS.indexOf(m[5].toLowerCase());
  if (month < 0) throw new Error(`unrecognised month in ${text}`);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString();
}

export function loadLocomo(path = locomoPath()): Conversation[] {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as any[];
  return raw.map((sample) => {
    const id: string = sample.sample_id;
    const conv = sample.conversation;
    const turns: Turn[] = [];
    for (let n = 1; conv[`session_${n}`]; n++) {
      const timestamp = parseSessionDate(conv[`session_${n}_date_time`]);
      for (const t of conv[`session_${n}`] as any[]) {
        const caption = t.blip_caption ? ` [shares a photo: ${t.blip_caption}]` : '';
        turns.push({ conversation: id, diaId: t.dia_id, speaker: t.speaker, content: `${t.speaker}: ${t.text}${caption}`, timestamp });
      }
    }
    const questions: Question[] = (sample.qa as any[])
      .filter((q) => [1, 2, 3, 4].includes(q.category) && Array.isArray(q.evidence) && q.evidence.length > 0)
      .map((q) => ({ conversation: id, question: String(q.question), category: q.category, evidence: [...new Set<string>(q.evidence)] }));
    return { id, turns, questions };
  });
}
