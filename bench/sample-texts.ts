import { memories } from '../test/eval/retrieval/dataset.js';

/** Texts of about `length` characters, all different, made from the evaluation memories. */
export function sampleTexts(count: number, length: number): string[] {
  const texts: string[] = [];
  for (let i = 0; texts.length < count; i++) {
    let text = `${i}.`;
    for (let j = i; text.length < length; j += 7) text += ` ${memories[j % memories.length].content}`;
    texts.push(text.slice(0, length));
  }
  return texts;
}
