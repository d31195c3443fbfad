import { ANY_OBJECT } from '../taxonomy.js';
import { CONDITION_ADJECTIVES, NATIONALITIES, NUMBER_WORD, isJobPhrase, parseSmallNumber } from './lexicon.js';
import { dietOf, extractObjects } from './objects.js';
import { isAdjective } from './word-class.js';

/**
 * Facts stated with "to be" and a complement that is not a taxonomy surface:
 * "I'm 34", "I'm German", "I'm vegetarian", "I'm a nurse at St. Mary's",
 * "I'm diabetic", "I'm retired", "I'm 180 cm tall".
 */

export interface CopulaFact {
  predicate: string;
  object: string;
  /** Extra negation carried by the complement ("a non-smoker", "unemployed"). */
  negated?: boolean;
}

const AGE = new RegExp(`^(?:about |around |almost |nearly |over |just )?(${NUMBER_WORD})(?:\\s*(?:years?|yrs?)(?:\\s+old)?|\\s*(?:yo|y/o|y\\.o\\.)|\\s+years of age)?$`, 'i');
const HEIGHT = /^((?:\d+(?:[.,]\d+)?\s*(?:cm|centimeters|centimetres|m|meters|metres))|(?:\d\s*(?:'|ft|feet|foot)\s*(?:\d{1,2}\s*(?:"|''|in|inches)?)?))\s+tall$/i;
const EMPLOYER_TAIL = /\s+(?:at|for|with)\s+(.+)$/i;
const STUDENT = /\bstudent$/i;
const NOT_A_NAME = /^(?:fine|ok|okay|good|great|sorry|happy|sad|tired|here|back|done|ready|sure|busy|free|home|well|alright|excited|bored|new|single|married|engaged|pregnant|sick|ill|better|worse|late|early|hungry|thirsty|cold|hot|stressed|confused|curious|interested|lost|stuck|available|online|offline|awake|asleep|okay)\b/i;

function nationalityOf(complement: string): string | undefined {
  const m = /^(?:a |an )?(?:proud |naturali[sz]ed )?([a-z][a-z ]+?)(?:\s+(?:citizen|national|native))?$/i.exec(complement);
  if (!m) return undefined;
  const nat = m[1].toLowerCase().trim();
  if (!NATIONALITIES.has(nat)) return undefined;
  return nat.replace(/\b\w/g, (c) => c.toUpperCase());
}

function jobFacts(complement: string): CopulaFact[] {
  const withArticle = /^(?:a|an|the)\s+(.+)$/i.exec(complement);
  const headOf = /^((?:the\s+)?(?:head|director|vp|vice president|chief [a-z]+ officer|lead|manager|ceo|cto|cfo|coo|founder|co-founder|owner|principal) of [a-z][a-z ]*?)(?:\s+(?:at|for|with)\s+(.+))?$/i.exec(complement);
  if (headOf) {
    const facts: CopulaFact[] = [{ predicate: 'job_title', object: headOf[1].replace(/^the\s+/i, '') }];
    const employer = headOf[2] && extractObjects(headOf[2], { objectClass: 'organization', predicate: 'works_at', multi: false })[0];
    if (employer) facts.push({ predicate: 'works_at', object: employer });
    return facts;
  }
  const body = withArticle ? withArticle[1] : complement;
  const title = body.replace(/\s*,.*$/, '').replace(/\s+(?:at|for|with|in|from|since|who|which|and|but|because|so|on)\b.*$/i, '').replace(/[.,!?]+$/, '').trim();
  if (!isJobPhrase(title)) return [];
  if (!withArticle && !/^(?:retired|self-employed|freelance|unemployed)/i.test(title) && title.split(' ').length === 1 && !/s$/.test(title)) {
    // "I am manager material" is an adjective use; "I am electrician", "she is doctor in the hospital" (no article, common
    // in non-native English) is a title when nothing but a place of work follows it.
    const rest = body.slice(title.length).trim();
    if (!/^(?:ceo|cto|cfo|coo|head|chef)$/i.test(title) && !(rest === '' || /^(?:,|at\b|in\b|for\b|with\b)/i.test(rest))) return [];
  }
  const facts: CopulaFact[] = [{ predicate: 'job_title', object: title.replace(/^(?:(?:newly|fully)\s+)?(?:qualified|certified|registered|licensed|trained|chartered|self-employed)\s+/i, '') }];
  const tail = EMPLOYER_TAIL.exec(body.slice(title.length));
  if (tail) {
    const student = STUDENT.test(title);
    const employer = extractObjects(tail[1], { objectClass: 'organization', predicate: student ? 'studies_at' : 'works_at', multi: false })[0];
    if (employer) facts.push({ predicate: student ? 'studies_at' : 'works_at', object: employer });
  }
  return facts;
}

/** Facts for `subject is <complement>`; empty when the complement states none. */
export function copulaFacts(complement: string, subjectIsUser: boolean): CopulaFact[] {
  const c = complement
    .replace(/\s+(?:so|but|because|cause|since|although|though|which|and i|and we|and my|lol|haha|tbh|btw|please)\b.*$/i, '')
    .replace(/[.!,;]+$/, '').replace(/\s+(?:now|anymore|any more|these days|at the moment|right now|again|too|as well)$/i, '').trim();
  if (!c) return [];
  const lower = c.toLowerCase();

  const age = AGE.exec(c);
  if (age) {
    const n = parseSmallNumber(age[1]);
    if (n !== undefined && n > 0 && n < 120) return [{ predicate: 'age', object: String(n) }];
  }
  const height = HEIGHT.exec(c);
  if (height) return [{ predicate: 'height', object: height[1].replace(/\s+/g, ' ') }];

  const diet = dietOf(c);
  if (diet) return [{ predicate: 'diet', object: diet }];
  const condition = CONDITION_ADJECTIVES[lower.replace(/^(?:severely|mildly|slightly|very|a bit|kind of|type \d)\s+/, '')];
  if (condition) return [{ predicate: 'has_condition', object: condition }];
  if (/^(?:a\s+)?non-?smoker$/i.test(c)) return [{ predicate: 'habit', object: 'smoking', negated: true }];
  if (/^(?:a\s+)?(?:heavy |social |chain |regular )?smoker$/i.test(c)) return [{ predicate: 'habit', object: 'smoking' }];
  if (/^(?:unemployed|jobless|out of work|between jobs|looking for (?:a )?(?:new )?(?:job|work))$/i.test(c)) return [{ predicate: 'works_at', object: ANY_OBJECT, negated: true }];
  // Retiring ends the current employment too.
  if (/^retired$/i.test(c)) return [{ predicate: 'job_title', object: 'retired' }, { predicate: 'works_at', object: ANY_OBJECT, negated: true }];
  if (/^(?:self-employed|self employed)$/i.test(c)) return [{ predicate: 'job_title', object: 'self-employed' }];
  if (/^single$/i.test(c)) return [{ predicate: 'partner', object: ANY_OBJECT, negated: true }];

  const nationality = nationalityOf(c);
  if (nationality) return [{ predicate: 'nationality', object: nationality }];

  const fan = /^(?:a|an)\s+(?:(?:big|huge|massive|great|lifelong|die-hard|diehard|long-time|longtime|total|real)\s+)?([A-Z][\p{L}'’ -]*?)\s+fan$/u.exec(c);
  if (fan) return [{ predicate: 'likes', object: fan[1] }];
  // "a huge Star Wars nerd", "a tea person", "not really a beach person" (negated by the clause: dislikes).
  const tasteNoun = /^(?:a|an)\s+(?:(?:big|huge|massive|great|total|real|proper|complete|massive|bit of a|real|true)\s+)*([\p{L}'’ -]+?)\s+(?:nerd|geek|lover|buff|person|addict|junkie|fanatic|snob)$/iu.exec(c);
  if (tasteNoun && !/^(?:morning|night|people)$/i.test(tasteNoun[1]) && !isAdjective(tasteNoun[1].split(' ')[0])) return [{ predicate: 'likes', object: tasteNoun[1] }];
  const fanOf = /^(?:a|an)\s+(?:\w+\s+)?fan of\s+(.+)$/i.exec(c);
  if (fanOf) return extractObjects(fanOf[1], { objectClass: 'any', predicate: 'likes', multi: true }).map((object) => ({ predicate: 'likes', object }));

  const jobs = jobFacts(c);
  if (jobs.length > 0) return jobs;

  if (subjectIsUser) {
    const name = /^([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)$/.exec(c);
    if (name && !NATIONALITIES.has(lower) && !NOT_A_NAME.test(name[1])) return [{ predicate: 'name', object: name[1] }];
  }
  return [];
}
