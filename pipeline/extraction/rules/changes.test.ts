import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

/**
 * Statements of change and statements without the usual subject/verb frame, in wordings written
 * for this file: each test names the class of statement, not one sentence.
 */
const referenceTime = new Date('2024-06-15T12:00:00Z');
const facts = (content: string) =>
  extractFactsWithRules({ content, referenceTime }).map((f) => ({
    fact: `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`,
    tense: f.tense,
    from: f.validFrom?.toISOString().slice(0, 10) ?? null,
    to: f.validTo?.toISOString().slice(0, 10) ?? null,
  }));
const described = (content: string) => facts(content).map((f) => f.fact);

describe('clauses that leave their subject out', () => {
  it('reads agent notes and chat fragments as being about the user', () => {
    expect(described('Client was born in Accra. Resides in Leeds these days.')).toEqual(expect.arrayContaining(['user born_in Accra', 'user lives_in Leeds']));
    expect(described('raised in Hull, live in York now')).toEqual(expect.arrayContaining(['user is_from Hull', 'user lives_in York']));
  });

  it('reads a profile list of verbless fragments', () => {
    expect(described('The user, 52, pharmacist at Boots, married to Ruth.')).toEqual(
      expect.arrayContaining(['user age 52', 'user job_title pharmacist', 'user works_at Boots', 'user married_to Ruth']),
    );
    expect(described('Paramedic, West Midlands Ambulance Service.')).toEqual(['user job_title Paramedic', 'user works_at West Midlands Ambulance Service']);
  });

  it('does not carry a non-person word over as the subject', () => {
    expect(described('I am Chilean, so Spanish is my first language, been in Oslo 4 years')).toContain('user lives_in Oslo');
  });

  it('takes no title from a name or a person after a comma', () => {
    expect(described('The dentist, Omar, was lovely.').filter((f) => f.includes('job_title') || f.includes('works_at'))).toEqual([]);
  });
});

describe('residence stated as being somewhere', () => {
  it('counts a stretch of time or a stated start as living there, but not a bare "I am in X"', () => {
    expect(described("I've been in Lisbon nearly six years")).toEqual(['user lives_in Lisbon']);
    expect(facts('we are in Cardiff as of last month')).toEqual([{ fact: 'user lives_in Cardiff', tense: 'current', from: '2024-05-15', to: null }]);
    expect(described('In Madrid now, the tapas are great')).toEqual([]);
  });
});

describe('replacements and endings in one message', () => {
  it('keeps the old home until a planned move and ends it after a completed one', () => {
    expect(facts("We're moving from Derby to Bath in October")).toEqual([
      { fact: 'user lives_in Bath', tense: 'planned', from: '2024-10-01', to: null },
      { fact: 'user lives_in Derby', tense: 'current', from: null, to: null },
    ]);
    expect(described('we moved from Leeds to York in March')).toEqual(['user lives_in York', 'user NOT lives_in Leeds']);
  });

  it('reads a life history whose later clauses leave out the verb', () => {
    expect(facts('I lived in Oslo from 2008 to 2012, then Bergen until 2019, and I have been in Tromsø since')).toEqual([
      { fact: 'user lives_in Oslo', tense: 'past', from: '2008-01-01', to: '2012-01-01' },
      { fact: 'user lives_in Bergen', tense: 'past', from: '2012-01-01', to: '2019-01-01' },
      { fact: 'user lives_in Tromsø', tense: 'current', from: '2019-01-01', to: null },
    ]);
  });

  it('reads a clinician changing the medication', () => {
    expect(described('my GP added ramipril last week')).toContain('user takes_medication ramipril');
    expect(described('the psychiatrist has taken me off sertraline')).toContain('user NOT takes_medication sertraline');
  });

  it('ends a plan when the employer withdraws the offer, and a job on its last day', () => {
    expect(described('Klarna withdrew the offer, so I am staying put')).toContain('user NOT works_at Klarna');
    expect(facts('my last day at Aldi is the 28th of June')).toEqual([{ fact: 'user NOT works_at Aldi', tense: 'planned', from: '2024-06-28', to: null }]);
  });

  it('moves a given-up drink to drinks', () => {
    expect(described('gave up coffee, green tea only now')).toContain('user NOT drinks coffee');
  });

  it('states nothing when the speaker says it is a joke', () => {
    expect(described("that's it, I'm moving to Fiji (kidding)")).toEqual([]);
  });
});

describe('people named anywhere in a sentence', () => {
  it('relates named relatives that are not the subject', () => {
    expect(described('spent Sunday with my cousin Nadia and her kids')).toContain('user has_relative Nadia');
    expect(described('- husband: Tomasz\n- daughter: Zuzia (6)')).toEqual(['user married_to Tomasz', 'Zuzia age 6', 'user has_daughter Zuzia']);
    expect(described("my old flatmate Kev is getting married")).toContain('user NOT has_roommate Kev');
  });

  it('reads relations stated as changes', () => {
    expect(described('Marta got promoted and she is my manager now')).toContain('user has_manager Marta');
    expect(described('I report to Olu since the reorg')).toContain('user has_manager Olu');
    expect(described('The divorce from Pete came through in May.')).toEqual(['user divorced_from Pete', 'user NOT married_to Pete']);
  });
});

describe('measures and skills without a verb', () => {
  it('reads weights and heights with units', () => {
    expect(described('weighed in at 78 kg today')).toEqual(['user weight 78 kg']);
    expect(described("I'm 6'1\" if it matters")).toEqual(['user height 6\'1"']);
  });

  it('reads skills lists and fluency in tools as skills', () => {
    expect(described('Skills: Go, Kubernetes, some Terraform.')).toEqual(['user has_skill Go', 'user has_skill Kubernetes', 'user has_skill Terraform']);
    expect(described("I'm fluent in Excel")).toEqual(['user has_skill Excel']);
  });
});
