import type { ObjectClass, SurfaceForm } from './taxonomy.js';

/**
 * Verbs of change shared by every relation of one kind, so that each predicate does not have to list
 * them: what one can have (a pet, a possession) one can also get, buy or bring home (onset) and lose,
 * sell or give away (end); an activity one does can be taken up or started (onset) and given up or
 * stopped (end). A predicate gets them for each object class its "have"/"do" state surfaces name.
 */

const ACQUIRE = ['get', 'buy', 'adopt', 'bring home', 'pick up', 'take in', 'rescue', 'inherit', 'be given'];
const PART_WITH = ['lose', 'sell', 'give away', 'get rid of', 'rehome', 'part with', 'put down', 'trade in', 'scrap'];
// Not "start"/"stop": "can't stop laughing", "starting my own store" are no pastimes.
const TAKE_UP = ['take up', 'get into', 'pick up'];
const GIVE_UP = ['give up', 'quit'];

/** Object classes one has, and the verbs that change having them. */
const HAVE_CLASSES: ReadonlySet<ObjectClass> = new Set(['pet', 'ownable']);
const DO_CLASSES: ReadonlySet<ObjectClass> = new Set(['activity']);

/** The change surfaces a predicate's state surfaces imply, minus those it already lists. */
export function changeSurfaces(surfaces: readonly SurfaceForm[]): SurfaceForm[] {
  const listed = new Set(surfaces.map((s) => `${s.phrase}|${s.objectClass ?? ''}`));
  const derived: SurfaceForm[] = [];
  const add = (phrase: string, aspect: 'onset' | 'end', objectClass: ObjectClass) => {
    const key = `${phrase}|${objectClass}`;
    // A phrase the predicate lists for every object ("buy") already covers this class.
    if (listed.has(key) || listed.has(`${phrase}|`)) return;
    listed.add(key);
    derived.push({ phrase, aspect, objectClass });
  };
  for (const s of surfaces) {
    if (s.aspect !== 'state' || !s.objectClass) continue;
    if (s.phrase === 'have' && HAVE_CLASSES.has(s.objectClass)) {
      for (const verb of ACQUIRE) add(verb, 'onset', s.objectClass);
      for (const verb of PART_WITH) add(verb, 'end', s.objectClass);
    }
    if (s.phrase === 'do' && DO_CLASSES.has(s.objectClass)) {
      for (const verb of TAKE_UP) add(verb, 'onset', s.objectClass);
      for (const verb of GIVE_UP) add(verb, 'end', s.objectClass);
    }
  }
  return derived;
}
