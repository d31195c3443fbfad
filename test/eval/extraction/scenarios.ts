/**
 * Multi-step contradiction scenarios, as plain data so they can be replayed
 * against the HTTP API as well as through simulate.ts.
 *
 * Steps without a timestamp are written in order (the simulator spaces them one
 * minute apart from 2024-06-01T10:00Z). `subject` is "user" for the user's own
 * facts. expectInvalidated means "stored, but not live": invalidated by a later
 * fact or stored already closed. expectNoLive lists (user, subject, predicate)
 * keys that must end with no live fact.
 */

export interface ScenarioStep {
  user_id: string;
  content: string;
  /** ISO 8601; the add's `timestamp`. */
  timestamp?: string;
}

export interface ScenarioKey {
  user_id: string;
  subject: string;
  predicate: string;
}

export interface ScenarioFact extends ScenarioKey {
  /** One value or acceptable alternatives. */
  object: string | string[];
}

/** A point-in-time check: at `at`, these facts must (not) be valid. */
export interface AsOfCheck {
  at: string;
  expectLive?: ScenarioFact[];
  expectNotLive?: ScenarioFact[];
}

/**
 * Semantics (now = the last step's time; a fact is valid at t when validFrom <= t < invalidAt):
 * expectLive facts are valid now (exactly one copy); expectPlanned facts are stored with a validFrom
 * after now and not cancelled; expectInvalidated facts were stored but are neither valid now nor planned;
 * expectNoLive keys have no fact valid now; asOf checks validity at other instants.
 */
export interface Scenario {
  id?: string;
  name: string;
  steps: ScenarioStep[];
  expectLive: ScenarioFact[];
  expectPlanned?: ScenarioFact[];
  expectInvalidated?: ScenarioFact[];
  expectNoLive?: ScenarioKey[];
  asOf?: AsOfCheck[];
  tags?: string[];
}

const A = 'alice';
const B = 'bob';
const C = 'carol';
const step = (content: string, timestamp?: string, user_id = A): ScenarioStep => (timestamp ? { user_id, content, timestamp } : { user_id, content });
const fact = (predicate: string, object: string, subject = 'user', user_id = A): ScenarioFact => ({ user_id, subject, predicate, object });
const key = (predicate: string, subject = 'user', user_id = A): ScenarioKey => ({ user_id, subject, predicate });

export const scenarios: Scenario[] = [
  {
    name: 'move: Berlin then Munich',
    steps: [step('I live in Berlin.'), step('I moved to Munich.')],
    expectLive: [fact('lives_in', 'Munich')],
    expectInvalidated: [fact('lives_in', 'Berlin')],
  },
  {
    name: 'move chain: Berlin, Munich, Hamburg',
    steps: [step('I live in Berlin.', '2024-01-10T09:00:00Z'), step('We relocated to Munich last month.', '2024-06-01T09:00:00Z'), step('Just moved to Hamburg!', '2024-06-20T09:00:00Z')],
    expectLive: [fact('lives_in', 'Hamburg')],
    expectInvalidated: [fact('lives_in', 'Berlin'), fact('lives_in', 'Munich')],
  },
  {
    name: 'restatement confirms instead of duplicating',
    steps: [step('I live in Berlin.'), step('i live in berlin'), step('Yes, I live in Berlin.')],
    expectLive: [fact('lives_in', 'Berlin')],
  },
  {
    name: 'restatement with different wording and article',
    steps: [step('I live in Munich.'), step("I'm based in the city of Munich.")],
    expectLive: [fact('lives_in', 'Munich')],
  },
  {
    name: 'job change',
    steps: [step('I work at Google.'), step('I just joined Spotify.')],
    expectLive: [fact('works_at', 'Spotify')],
    expectInvalidated: [fact('works_at', 'Google')],
  },
  {
    name: 'quitting a job leaves no employer',
    steps: [step('I work at Siemens.'), step('I quit my job.')],
    expectLive: [],
    expectInvalidated: [fact('works_at', 'Siemens')],
    expectNoLive: [key('works_at')],
  },
  {
    name: 'preference reversal: likes then no longer likes',
    steps: [step('I love coffee.'), step("I don't like coffee anymore.")],
    expectLive: [fact('dislikes', 'coffee')],
    expectInvalidated: [fact('likes', 'coffee')],
  },
  {
    name: 'preference reversal: dislikes then likes',
    steps: [step('I hate olives.'), step('Actually I love olives now.')],
    expectLive: [fact('likes', 'olives')],
    expectInvalidated: [fact('dislikes', 'olives')],
  },
  {
    name: 'multi-valued likes accumulate',
    steps: [step('I like tea.'), step('I like coffee.')],
    expectLive: [fact('likes', 'tea'), fact('likes', 'coffee')],
  },
  {
    name: 'negation retracts a habit',
    steps: [step('I eat meat.'), step("I don't eat meat any more.")],
    expectLive: [],
    expectInvalidated: [fact('eats', 'meat')],
    expectNoLive: [key('eats')],
  },
  {
    name: 'negation with nothing to retract stores nothing',
    steps: [step("I don't eat pork.")],
    expectLive: [],
    expectNoLive: [key('eats')],
  },
  {
    name: 'back-dated move does not invalidate the newer (dated) residence',
    steps: [step('I have lived in Munich since 2022.', '2024-06-01T10:00:00Z'), step('I moved to Berlin in 2019.', '2024-06-02T10:00:00Z')],
    expectLive: [fact('lives_in', 'Munich')],
    expectInvalidated: [fact('lives_in', 'Berlin')],
  },
  {
    name: 'older REST timestamp is stored closed',
    steps: [step('I work at Google.', '2024-05-01T09:00:00Z'), step('I work at IBM.', '2023-01-01T09:00:00Z')],
    expectLive: [fact('works_at', 'Google')],
    expectInvalidated: [fact('works_at', 'IBM')],
  },
  {
    name: 'same facts in the other processing order give the same live state',
    steps: [step('I work at IBM.', '2023-01-01T09:00:00Z'), step('I work at Google.', '2024-05-01T09:00:00Z')],
    expectLive: [fact('works_at', 'Google')],
    expectInvalidated: [fact('works_at', 'IBM')],
  },
  {
    name: 'interleaved users keep separate residences',
    steps: [step('I live in Berlin.', undefined, A), step('I live in Paris.', undefined, B), step('I moved to Munich.', undefined, A), step('I live in Paris.', undefined, B)],
    expectLive: [fact('lives_in', 'Munich', 'user', A), fact('lives_in', 'Paris', 'user', B)],
    expectInvalidated: [fact('lives_in', 'Berlin', 'user', A)],
  },
  {
    name: 'users do not invalidate each other',
    steps: [step('I work at Google.', undefined, A), step('I work at Apple.', undefined, B)],
    expectLive: [fact('works_at', 'Google', 'user', A), fact('works_at', 'Apple', 'user', B)],
  },
  {
    name: 'past residence does not invalidate the current one',
    steps: [step('I live in Munich.'), step('I used to live in Paris.')],
    expectLive: [fact('lives_in', 'Munich')],
    expectInvalidated: [fact('lives_in', 'Paris')],
  },
  {
    name: 'used-to on the current value ends it',
    steps: [step('I live in Paris.'), step('I used to live in Paris, now I live in Lyon.')],
    expectLive: [fact('lives_in', 'Lyon')],
    expectInvalidated: [fact('lives_in', 'Paris')],
  },
  {
    name: 'planned move is planned; the current residence stays valid until the move',
    steps: [step('I live in Berlin.'), step("I'm moving to Rome next month.")],
    expectLive: [fact('lives_in', 'Berlin')],
    expectPlanned: [fact('lives_in', 'Rome')],
    asOf: [{ at: '2024-07-15T00:00:00Z', expectLive: [fact('lives_in', 'Rome')], expectNotLive: [fact('lives_in', 'Berlin')] }],
  },
  {
    name: 'named third person moves',
    steps: [step('My sister Anna lives in Rome.'), step('Anna moved to Milan.')],
    expectLive: [fact('has_sister', 'Anna'), fact('lives_in', 'Milan', 'Anna')],
    expectInvalidated: [fact('lives_in', 'Rome', 'Anna')],
  },
  {
    name: 'third-person facts do not touch the user',
    steps: [step('I live in Berlin.'), step('Anna lives in Vienna.')],
    expectLive: [fact('lives_in', 'Berlin'), fact('lives_in', 'Vienna', 'Anna')],
  },
  {
    name: 'divorce without a name ends the marriage',
    steps: [step("I'm married to Julia.", '2023-11-02T09:00:00Z'), step('I got divorced last month.', '2024-06-01T09:00:00Z')],
    expectLive: [],
    expectInvalidated: [fact('married_to', 'Julia')],
    expectNoLive: [key('married_to')],
  },
  {
    name: 'divorce by name is the opposite predicate',
    steps: [step("My wife's name is Maria."), step('I divorced Maria.')],
    expectLive: [fact('divorced_from', 'Maria')],
    expectInvalidated: [fact('married_to', 'Maria')],
  },
  {
    name: 'new partner replaces the old one',
    steps: [step('My girlfriend Sophie is a nurse.'), step("I'm dating Emma now.")],
    expectLive: [fact('partner', 'Emma'), fact('job_title', 'nurse', 'Sophie')],
    expectInvalidated: [fact('partner', 'Sophie')],
  },
  {
    name: 'pet dies',
    steps: [step('I have a dog.'), step('Our dog died last week.')],
    expectLive: [],
    expectInvalidated: [fact('has_pet', 'dog')],
    expectNoLive: [key('has_pet')],
  },
  {
    name: 'pets accumulate',
    steps: [step('I have a dog.'), step('We adopted a cat.')],
    expectLive: [fact('has_pet', 'dog'), fact('has_pet', 'cat')],
  },
  {
    name: 'selling a car retracts ownership',
    steps: [step('I bought a Tesla.'), step('I sold my Tesla.')],
    expectLive: [],
    expectInvalidated: [fact('owns', 'Tesla')],
    expectNoLive: [key('owns')],
  },
  {
    name: 'age increases',
    steps: [step("I'm 34."), step('I just turned 35.')],
    expectLive: [fact('age', '35')],
    expectInvalidated: [fact('age', '34')],
  },
  {
    name: 'promotion changes the job title',
    steps: [step("I'm a junior developer."), step('I got promoted to senior developer.')],
    expectLive: [fact('job_title', 'senior developer')],
    expectInvalidated: [fact('job_title', 'junior developer')],
  },
  {
    name: 'diet change',
    steps: [step("I'm vegetarian."), step('I went vegan.')],
    expectLive: [fact('diet', 'vegan')],
    expectInvalidated: [fact('diet', 'vegetarian')],
  },
  {
    name: 'diet negation',
    steps: [step("I'm vegetarian."), step("I'm not vegetarian anymore.")],
    expectLive: [],
    expectInvalidated: [fact('diet', 'vegetarian')],
    expectNoLive: [key('diet')],
  },
  {
    name: 'quitting smoking',
    steps: [step('I smoke.'), step('I quit smoking.')],
    expectLive: [],
    expectInvalidated: [fact('habit', 'smoking')],
    expectNoLive: [key('habit')],
  },
  {
    name: 'raise replaces the salary',
    steps: [step('I earn 60k a year.'), step('I got a raise to 70k.')],
    expectLive: [fact('salary', '70k')],
    expectInvalidated: [fact('salary', '60k a year')],
  },
  {
    name: 'favourite colour changes',
    steps: [step('My favorite color is green.'), step('My favorite color is blue now.')],
    expectLive: [fact('favorite_color', 'blue')],
    expectInvalidated: [fact('favorite_color', 'green')],
  },
  {
    name: 'employer restated three ways stays one fact',
    steps: [step('I work at Google.'), step('I work for Google.'), step("I'm employed by Google.")],
    expectLive: [fact('works_at', 'Google')],
  },
  {
    name: 'languages accumulate',
    steps: [step('I speak English.'), step('I speak German too.')],
    expectLive: [fact('speaks', 'English'), fact('speaks', 'German')],
  },
  {
    name: 'hedged restatement confirms',
    steps: [step("I'm allergic to peanuts."), step("I think I'm allergic to peanuts.")],
    expectLive: [fact('allergic_to', 'peanuts')],
  },
  {
    name: 'assistant lines in a transcript are ignored',
    steps: [step('user: I live in Oslo\nassistant: Great, I live in Berlin myself.')],
    expectLive: [fact('lives_in', 'Oslo')],
  },
  {
    name: 'back-dated move processed after a newer one',
    steps: [step('I moved to Hamburg in May.', '2024-06-01T10:00:00Z'), step('I moved to Cologne in 2022.', '2024-06-02T10:00:00Z')],
    expectLive: [fact('lives_in', 'Hamburg')],
    expectInvalidated: [fact('lives_in', 'Cologne')],
  },
  {
    name: 'equal timestamps are ordered by write sequence',
    steps: [step('I live in Bonn.', '2024-06-01T10:00:00Z'), step('I live in Kiel.', '2024-06-01T10:00:00Z')],
    expectLive: [fact('lives_in', 'Kiel')],
    expectInvalidated: [fact('lives_in', 'Bonn')],
  },
  {
    name: 'negating one item of a list',
    steps: [step('I like tea and coffee.'), step("I don't like coffee anymore.")],
    expectLive: [fact('likes', 'tea'), fact('dislikes', 'coffee')],
    expectInvalidated: [fact('likes', 'coffee')],
  },
  {
    name: '"we" moves count for the user',
    steps: [step('We live in Leeds.'), step('We moved to York.')],
    expectLive: [fact('lives_in', 'York')],
    expectInvalidated: [fact('lives_in', 'Leeds')],
  },
  {
    name: 'leave one employer, join another',
    steps: [step('I work at Bosch.'), step('I left Bosch.'), step('I joined Siemens.')],
    expectLive: [fact('works_at', 'Siemens')],
    expectInvalidated: [fact('works_at', 'Bosch')],
  },
  {
    name: 'unemployment ends the employer',
    steps: [step('I work at Bosch.'), step("I'm unemployed at the moment.")],
    expectLive: [],
    expectInvalidated: [fact('works_at', 'Bosch')],
    expectNoLive: [key('works_at')],
  },
  {
    name: 'a planned move later confirmed',
    steps: [step("I'm moving to Rome next month.", '2024-06-01T10:00:00Z'), step('I live in Rome now.', '2024-07-20T10:00:00Z')],
    expectLive: [fact('lives_in', 'Rome')],
  },
  {
    name: 'small talk and questions change nothing',
    steps: [step('I live in Berlin.'), step('thanks!'), step("What's the weather like in Munich?"), step('Can you recommend a bar in Hamburg?')],
    expectLive: [fact('lives_in', 'Berlin')],
  },
  {
    name: 'pronoun continues the named person',
    steps: [step('My brother Tim works at Bosch.'), step('Tim just joined Audi.')],
    expectLive: [fact('has_brother', 'Tim'), fact('works_at', 'Audi', 'Tim')],
    expectInvalidated: [fact('works_at', 'Bosch', 'Tim')],
  },
  {
    name: 'same-message change: he/she refers back',
    steps: [step('My sister Anna works at Fiat. She just started at Ferrari.')],
    expectLive: [fact('works_at', 'Ferrari', 'Anna')],
    expectInvalidated: [fact('works_at', 'Fiat', 'Anna')],
  },
  {
    name: 'past job with an end date leaves the current job alone',
    steps: [step('I work at SAP.'), step('I worked at IBM until 2020.')],
    expectLive: [fact('works_at', 'SAP')],
    expectInvalidated: [fact('works_at', 'IBM')],
  },
  {
    name: 'used-to on the current employer ends it',
    steps: [step('I work at Google.'), step('I used to work at Google.')],
    expectLive: [],
    expectInvalidated: [fact('works_at', 'Google')],
    expectNoLive: [key('works_at')],
  },
  {
    name: 'three users interleaved with preference changes',
    steps: [
      step('I love jazz.', undefined, A),
      step('I hate jazz.', undefined, B),
      step('I like jazz and rock.', undefined, C),
      step("I don't like jazz anymore.", undefined, A),
      step('I changed my mind, I love jazz.', undefined, B),
    ],
    expectLive: [fact('dislikes', 'jazz', 'user', A), fact('likes', 'jazz', 'user', B), fact('likes', 'jazz', 'user', C), fact('likes', 'rock', 'user', C)],
    expectInvalidated: [fact('likes', 'jazz', 'user', A), fact('dislikes', 'jazz', 'user', B)],
  },
  {
    name: 'medication started and stopped',
    steps: [step('I take insulin every day.'), step('I stopped taking insulin.')],
    expectLive: [],
    expectInvalidated: [fact('takes_medication', 'insulin')],
    expectNoLive: [key('takes_medication')],
  },
  {
    name: 'subscription cancelled, another kept',
    steps: [step('I subscribe to Netflix and Spotify.'), step('I cancelled my Netflix subscription.')],
    expectLive: [fact('subscribes_to', 'Spotify')],
    expectInvalidated: [fact('subscribes_to', 'Netflix')],
  },
  {
    name: 'a later statement about the present wins over an earlier undated one, even when its date precedes it',
    steps: [step('I live in Berlin.', '2024-06-01T10:00:00Z'), step('We relocated to Munich last month.', '2024-06-01T10:01:00Z')],
    expectLive: [fact('lives_in', 'Munich')],
    expectInvalidated: [fact('lives_in', 'Berlin')],
    asOf: [{ at: '2024-05-15T00:00:00Z', expectLive: [fact('lives_in', 'Munich')], expectNotLive: [fact('lives_in', 'Berlin')] }],
  },
  {
    name: 'a negation older than the live fact does not retract it',
    steps: [step('I smoke.', '2024-06-01T10:00:00Z'), step("I didn't smoke back in 2015.", '2024-06-02T10:00:00Z')],
    expectLive: [fact('habit', 'smoking')],
  },
];
