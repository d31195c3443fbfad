/**
 * Frequent misspellings of words the rules key on, corrected before anything else reads the text
 * ("i'm alergic to latex", "my freind Sam", "vegeterian"). Whole words only; the case of the first
 * letter is kept.
 */
const CORRECTIONS: Record<string, string> = {
  alergic: 'allergic', allergick: 'allergic', alergy: 'allergy', alergies: 'allergies', allergie: 'allergy',
  freind: 'friend', freinds: 'friends', girlfreind: 'girlfriend', boyfreind: 'boyfriend', bestfriend: 'best friend',
  collegue: 'colleague', collegues: 'colleagues', colleage: 'colleague', neice: 'niece', nephwe: 'nephew',
  vegeterian: 'vegetarian', vegitarian: 'vegetarian', pescatarin: 'pescatarian', pescitarian: 'pescatarian',
  diabetis: 'diabetes', diabeties: 'diabetes', asthama: 'asthma', excema: 'eczema', migrane: 'migraine', migranes: 'migraines',
  finaly: 'finally', definately: 'definitely', recieved: 'received', wierd: 'weird', untill: 'until', tommorow: 'tomorrow', tomorow: 'tomorrow',
  teh: 'the', adn: 'and', wiht: 'with', liek: 'like', livign: 'living', lvie: 'live', wrok: 'work', wokr: 'work', workign: 'working',
  moeved: 'moved', mvoed: 'moved', startd: 'started', boughtt: 'bought', marred: 'married', maried: 'married', divorsed: 'divorced',
  seperated: 'separated', enginer: 'engineer', engeneer: 'engineer', accountent: 'accountant', nurce: 'nurse', teachr: 'teacher',
};
const WORD = new RegExp(`\\b(${Object.keys(CORRECTIONS).join('|')})\\b`, 'gi');

export function correctTypos(text: string): string {
  return text.replace(WORD, (word) => {
    const fixed = CORRECTIONS[word.toLowerCase()];
    return /^[A-Z]/.test(word) ? fixed.charAt(0).toUpperCase() + fixed.slice(1) : fixed;
  });
}
