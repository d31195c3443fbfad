import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const read = (content: string) => extractFactsWithRules({ content, referenceTime: new Date('2024-05-02T10:00:00Z') }).map((f) => `${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('chat phrasings of an update', () => {
  it('an interjection set off by punctuation does not hide the statement', () => {
    expect(read('Weirdly enough - no. Honestly, my favourite band is Wet Leg these days')).toContain('favorite_music Wet Leg');
    expect(read('big news: I live in Cardiff now')).toContain('lives_in Cardiff');
  });

  it('the purpose clause after quitting is the next employer, with its title', () => {
    expect(read('I quit Siemens to join BMW as a data engineer').sort()).toEqual(['NOT works_at Siemens', 'job_title data engineer', 'works_at BMW']);
    expect(read("I've just quit Tesco to work for Asda").sort()).toEqual(['NOT works_at Tesco', 'works_at Asda']);
    // A third person is not carried over to the second verb by the clause parser, so nothing is made up for the user.
    expect(read('Kasper left Novo Nordisk to join a startup')).not.toContain('works_at startup');
  });

  it('a new favourite given as a label is a favourite', () => {
    expect(read('so new favourite film: Past Lives. cried twice')).toContain('favorite_movie Past Lives');
  });

  it('a favourite with a dropped "my" and "has always been"', () => {
    expect(read("favourite season's always been autumn")).toContain('favorite_season autumn');
  });

  it('the new name after taking a spouse\'s name', () => {
    expect(read("heads up, I've taken my wife's surname so it is Jordan Okafor now")).toContain('name Jordan Okafor');
  });
});

describe('endings and replacements in chat form', () => {
  it('a device that died and was replaced', () => {
    expect(read('my kindle packed in so we replaced it with a Kobo Libra')).toEqual(expect.arrayContaining(['NOT uses kindle', 'uses Kobo Libra']));
    expect(read('I swapped my Fitbit for a Garmin Venu')).toEqual(expect.arrayContaining(['NOT uses Fitbit', 'uses Garmin Venu']));
  });

  it('a car handed back and its replacement', () => {
    expect(read('gave back the Passat, new lease car is a Skoda Enyaq')).not.toContain('drives Passat');
    expect(read('handed back the Passat and the new lease car is a Skoda Enyaq')).toEqual(expect.arrayContaining(['NOT drives Passat', 'drives Skoda Enyaq']));
  });

  it('a closed account and a completed sale end what they name', () => {
    expect(read('finally closed my natwest account')).toContain('NOT banks_with natwest');
    expect(read('we completed the sale of our cottage yesterday')).toContain('NOT owns cottage');
  });

  it('moving out of one field or town and into another', () => {
    expect(read('my sister has moved out of marketing and into teaching')).toEqual(expect.arrayContaining(['NOT works_in marketing', 'works_in teaching']));
    expect(read("My dad has moved out of Swindon and into a care home in Reading.")).toEqual(expect.arrayContaining(['NOT lives_in Swindon', 'lives_in Reading']));
  });

  it('a denial without its subject', () => {
    expect(read('not going swimming any more, the pool shut')).not.toContain('hobby swimming');
    expect(read('no longer playing the cello')).toContain('NOT plays cello');
  });

  it('engaged now and married from the stated date', () => {
    expect(read('Leon and I are getting married on 3 August!!')).toEqual(expect.arrayContaining(['married_to Leon', 'partner Leon']));
  });

  it('giving one thing up for another ends the first under the second verb', () => {
    expect(read('gave up on the violin and started playing the ukulele instead')).toEqual(expect.arrayContaining(['NOT plays violin', 'plays ukulele']));
  });

  it('an outstanding balance means the loan is there; paying it off ends it', () => {
    expect(read('still got around 3k left on the student loan')).toContain('has_loan student loan');
  });

  it('a subjectless switch between devices, but not a journey', () => {
    expect(read('went from a Galaxy S21 to an iPhone 15, regret nothing')).toEqual(expect.arrayContaining(['NOT uses Galaxy S21', 'uses iPhone 15']));
    expect(read('went from Leeds to York on the train')).not.toContain('uses York');
    expect(read("I'm on a Pixel 7")).toContain('uses Pixel 7');
  });

  it('a new favourite that replaced the old one, and emphasis that is no part of a name', () => {
    expect(read('honestly, Sabrina Carpenter has overtaken Taylor Swift as my favourite singer')).toContain('favorite_music Sabrina Carpenter');
    expect(read('fave film is Paddington 2 forever')).toContain('favorite_movie Paddington 2');
  });

  it('signing up for an event is attending it', () => {
    expect(read('registered for the Bristol half marathon on 12 May')).toContain('attending Bristol half marathon');
  });

  it('memberships: joining a club, leaving one for another, a bare profile line', () => {
    expect(read('left PureGym and joined the Riverside Rowing Club instead')).toEqual(expect.arrayContaining(['NOT member_of PureGym', 'member_of Riverside Rowing Club']));
    expect(read('just joined the village chess club')).toContain('member_of village chess club');
    expect(read('member of the National Trust')).toContain('member_of National Trust');
  });

  it('a switch between two banks is a change of bank, in a note or in chat', () => {
    expect(read('The user moved from Lloyds to Monzo last month.')).toEqual(expect.arrayContaining(['NOT banks_with Lloyds', 'banks_with Monzo']));
    expect(read('finally switched banks from natwest to starling')).toEqual(expect.arrayContaining(['NOT banks_with natwest', 'banks_with starling']));
  });
});
