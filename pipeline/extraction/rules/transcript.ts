/**
 * Chat transcripts: lines such as "user: ..." / "Assistant: ..." (also human/ai,
 * bot, system, markdown-bold labels). Only what the user said is a source of facts.
 */

const USER_ROLES = new Set(['user', 'human', 'me', 'customer', 'client']);
const OTHER_ROLES = new Set(['assistant', 'ai', 'bot', 'system', 'model', 'gpt', 'chatgpt', 'claude', 'agent', 'tool', 'function', 'developer']);
const SPEAKER_LINE = /^\s*(?:[*_>]{0,2}\s*)?\[?([A-Za-z]+)\]?(?:[*_]{0,2})\s*:\s?(.*)$/;

interface Turn {
  role: 'user' | 'other';
  text: string;
}

function speakerOf(line: string): { role: 'user' | 'other'; rest: string } | undefined {
  const match = SPEAKER_LINE.exec(line);
  if (!match) return undefined;
  const label = match[1].toLowerCase();
  if (USER_ROLES.has(label) && label !== 'me') return { role: 'user', rest: match[2] };
  if (OTHER_ROLES.has(label)) return { role: 'other', rest: match[2] };
  return undefined;
}

/** True when at least one line carries a user or assistant speaker label. */
export function isTranscript(content: string): boolean {
  return content.split(/\r?\n/).some((line) => speakerOf(line) !== undefined);
}

/**
 * The parts of `content` written by the user. Plain content is returned whole.
 * In a transcript, unlabelled lines continue the previous speaker's turn; lines
 * before the first label are treated as the user's own text.
 */
export function userText(content: string): string[] {
  if (!isTranscript(content)) return [content];
  const turns: Turn[] = [];
  let current: Turn = { role: 'user', text: '' };
  for (const line of content.split(/\r?\n/)) {
    const speaker = speakerOf(line);
    if (speaker) {
      if (current.text.trim()) turns.push(current);
      current = { role: speaker.role, text: speaker.rest };
    } else {
      current.text += `\n${line}`;
    }
  }
  if (current.text.trim()) turns.push(current);
  return turns.filter((t) => t.role === 'user').map((t) => t.text.trim());
}
