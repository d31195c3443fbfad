/**
 * Closed word lists the rule extractor relies on. Keep entries lower-case.
 */

import { isPossessionNoun, wordnetPetKind } from './noun-kinds.js';

const set = (words: string) => new Set(words.split('|').map((w) => w.trim()).filter(Boolean));

/** Relation nouns after "my", mapped to the people predicate and the canonical relation word. */
export const RELATIONS: Record<string, { predicate: string; relation: string }> = {};
function relation(words: string, predicate: string, canonical?: string) {
  for (const w of words.split('|')) RELATIONS[w] = { predicate, relation: canonical ?? w };
}
relation('wife|husband|spouse', 'married_to');
relation('partner|girlfriend|boyfriend|fiance|fiancee|fiancé|fiancée', 'partner');
relation('mother|mom|mum|mommy|mummy|mama|stepmom|stepmum|stepmother', 'has_mother', 'mother');
relation('father|dad|daddy|papa|stepdad|stepfather', 'has_father', 'father');
relation('sister|sis|big sister|little sister|older sister|younger sister|twin sister|baby sister|half-sister|stepsister', 'has_sister', 'sister');
relation('brother|bro|big brother|little brother|older brother|younger brother|twin brother|baby brother|half-brother|stepbrother', 'has_brother', 'brother');
relation('son|eldest son|youngest son|oldest son|stepson', 'has_son', 'son');
relation('daughter|eldest daughter|youngest daughter|oldest daughter|stepdaughter', 'has_daughter', 'daughter');
relation('kid|child|baby|toddler|eldest|youngest', 'has_child', 'child');
relation('cousin|aunt|auntie|uncle|grandma|grandmother|granny|nana|grandpa|grandfather|grandad|granddad|niece|nephew|grandson|granddaughter|mother-in-law|father-in-law|sister-in-law|brother-in-law', 'has_relative');
relation('friend|best friend|close friend|old friend|good friend|bff|buddy|pal', 'has_friend', 'friend');
relation('colleague|coworker|co-worker|workmate|teammate', 'has_colleague', 'colleague');
relation('boss|manager|supervisor|line manager', 'has_manager', 'manager');
relation('roommate|flatmate|housemate', 'has_roommate', 'roommate');

/** Former partners: "my ex-wife Claire". */
export const EX_RELATIONS: Record<string, { predicate: string; negated: boolean }> = {
  'ex-wife': { predicate: 'divorced_from', negated: false },
  'ex-husband': { predicate: 'divorced_from', negated: false },
  ex: { predicate: 'partner', negated: true },
  'ex-girlfriend': { predicate: 'partner', negated: true },
  'ex-boyfriend': { predicate: 'partner', negated: true },
  'ex-partner': { predicate: 'partner', negated: true },
};

/** Relation words that are plural or collective: a subject but no people fact ("my parents live in Porto"). */
export const GROUP_RELATIONS = set('parents|kids|children|family|siblings|grandparents|in-laws|friends|colleagues|coworkers|neighbors|neighbours|team');
/** People the user knows without a people predicate: "my neighbor Frank" is the subject Frank, with no relation fact. */
export const ACQUAINTANCES = set('neighbor|neighbour|doctor|dentist|therapist|landlord|landlady|coach|trainer|teacher|tutor|vet|lawyer|accountant|assistant|client|patient|student|mentor|classmate|ex|date');

const PET_LIST =
  'dog|puppy|cat|kitten|hamster|rabbit|bunny|parrot|budgie|bird|fish|goldfish|turtle|tortoise|horse|pony|guinea pig|snake|lizard|gecko|ferret|chinchilla|rat|mouse|hedgehog|' +
  'golden retriever|labrador|retriever|poodle|beagle|dachshund|terrier|husky|corgi|bulldog|german shepherd|shepherd|collie|border collie|spaniel|pug|chihuahua|greyhound|rottweiler|dalmatian|schnauzer|maine coon|tabby|siamese cat|persian cat';
export const PETS = set(PET_LIST);
const PET_PLURALS: Record<string, string> = { puppies: 'puppy', mice: 'mouse', fish: 'fish', goldfish: 'goldfish', ponies: 'pony', bunnies: 'bunny', budgies: 'budgie' };

/** Singular pet kind for a noun phrase ending in a pet word, e.g. "two cats" -> "cat". */
export function petKind(phrase: string): string | undefined {
  // "a labrador puppy": the breed says more than the age word, and tells this dog from the last one.
  const young = /^(.+?)\s+(?:puppy|puppies|pup|kitten|kittens)$/i.exec(phrase.trim());
  if (young && young[1].split(' ').length <= 3) {
    const breed = petKind(young[1]);
    if (breed) return breed;
  }
  const words = phrase.toLowerCase().split(' ');
  for (let take = Math.min(3, words.length); take >= 1; take--) {
    const tail = words.slice(-take).join(' ');
    if (PETS.has(tail)) return tail;
    const last = words[words.length - 1];
    const singularLast = PET_PLURALS[last] ?? (last.endsWith('s') ? last.slice(0, -1) : last);
    const singular = [...words.slice(-take, -1), singularLast].join(' ');
    if (PETS.has(singular)) return singular;
  }
  return wordnetPetKind(phrase);
}

export const OWNABLES = set(
  'car|cars|bike|bikes|bicycle|e-bike|ebike|motorbike|motorcycle|scooter|moped|house|home|apartment|flat|condo|cabin|cottage|villa|boat|yacht|sailboat|kayak|canoe|van|truck|camper|campervan|rv|' +
    'laptop|computer|pc|desktop|phone|smartphone|cellphone|tablet|ipad|iphone|macbook|kindle|e-reader|camera|drone|tv|television|console|playstation|xbox|switch|nintendo switch|smartwatch|watch|' +
    'guitar|piano|keyboard|violin|cello|drum kit|drums|ukulele|saxophone|trumpet|flute|tent|garden|garage|farm|property|land|plot|painting|collection|record collection|' +
    'vinyl collection|telescope|3d printer|printer|headphones|espresso machine|coffee machine|vacation home|holiday home|summer house|shares|stocks|bitcoin|ethereum|crypto|stock|bonds|gold|jeep|tesla|porsche',
);

export const CONDITIONS = set(
  'diabetes|type 1 diabetes|type 2 diabetes|asthma|migraine|migraines|adhd|add|depression|anxiety|insomnia|arthritis|rheumatoid arthritis|eczema|psoriasis|epilepsy|cancer|breast cancer|' +
    'hypertension|high blood pressure|low blood pressure|high cholesterol|celiac disease|coeliac disease|crohn\'s disease|crohns|ibs|covid|long covid|the flu|flu|a cold|cold|back pain|' +
    'chronic back pain|tinnitus|endometriosis|pcos|autism|dyslexia|sleep apnea|hay fever|hayfever|fibromyalgia|lupus|ms|multiple sclerosis|ptsd|ocd|bipolar disorder|heart disease|' +
    'a heart condition|heart condition|thyroid problems|hypothyroidism|anemia|anaemia|gout|acid reflux|lactose intolerance|gluten intolerance|allergy|allergies|bad knee|bad back|' +
    'concussion|broken arm|broken leg|broken wrist|broken ankle|sprained ankle|torn acl|herniated disc|a broken arm|a broken leg|chronic pain|a bad back|a bad knee|headache|headaches|fever|cough|covid-19|hiv|kidney disease|liver disease|scoliosis|glaucoma|cataracts|color blindness|colour blindness',
);
const CONDITION_HEADS = set('disease|disorder|syndrome|condition|pain|infection|injury|allergy|intolerance|deficiency|cancer|diabetes|fracture|sclerosis|itis');

/** Adjectives that name a condition: "I'm diabetic" -> diabetes. */
export const CONDITION_ADJECTIVES: Record<string, string> = {
  diabetic: 'diabetes',
  asthmatic: 'asthma',
  epileptic: 'epilepsy',
  celiac: 'celiac disease',
  coeliac: 'celiac disease',
  anemic: 'anemia',
  anaemic: 'anemia',
  'lactose intolerant': 'lactose intolerance',
  'lactose-intolerant': 'lactose intolerance',
  'gluten intolerant': 'gluten intolerance',
  'gluten-intolerant': 'gluten intolerance',
  pregnant: 'pregnancy',
  autistic: 'autism',
  dyslexic: 'dyslexia',
  'colorblind': 'color blindness',
  'colourblind': 'color blindness',
  'color blind': 'color blindness',
  'hard of hearing': 'hearing loss',
  deaf: 'deafness',
};

export const MEDICATIONS = set(
  'insulin|metformin|ibuprofen|aspirin|paracetamol|acetaminophen|antidepressants|antidepressant|antibiotics|statins|statin|vitamin d|vitamin b12|vitamin c|iron|iron supplements|' +
    'levothyroxine|lisinopril|sertraline|zoloft|prozac|fluoxetine|adderall|ritalin|methylphenidate|birth control|the pill|melatonin|omega-3|fish oil|blood thinners|warfarin|' +
    'inhaler|an inhaler|ventolin|antihistamines|antihistamine|cetirizine|beta blockers|beta-blockers|lithium|xanax|valium|creatine|magnesium|probiotics|multivitamins|vitamins|' +
    'ozempic|wegovy|hrt|prednisone|steroids|thyroid medication|blood pressure medication|allergy medication|painkillers|sleeping pills',
);
const MEDICATION_HEADS = set('medication|medications|medicine|pills|tablets|supplement|supplements|meds|drops|injections|shots');

export const LOANS = set('mortgage|loan|loans|student loan|student loans|car loan|personal loan|debt|debts|credit card debt|home loan|business loan|overdraft|lease');

export const APPOINTMENT_HEADS = set(
  'appointment|meeting|interview|exam|checkup|check-up|surgery|operation|flight|presentation|session|consultation|call|date|test|deadline|hearing|class|lesson|therapy session|visit|vaccination|scan|mri',
);

export const EVENT_HEADS = set(
  'wedding|concert|party|conference|festival|game|match|show|funeral|graduation|meetup|workshop|summit|marathon|gig|reunion|ceremony|premiere|exhibition|convention|retreat|hackathon|tournament|race|fair|recital|opera|musical|play|baby shower|bachelor party|hen party|stag do|barbecue|bbq|expo',
);

export const LANGUAGES = set(
  'english|german|french|spanish|italian|portuguese|dutch|japanese|chinese|mandarin|cantonese|korean|russian|arabic|hindi|turkish|polish|swedish|norwegian|danish|finnish|greek|' +
    'hebrew|czech|hungarian|romanian|ukrainian|vietnamese|thai|indonesian|malay|swahili|urdu|bengali|punjabi|tamil|telugu|persian|farsi|catalan|basque|galician|irish|welsh|' +
    'icelandic|estonian|latvian|lithuanian|slovak|slovenian|croatian|serbian|bosnian|bulgarian|albanian|tagalog|filipino|latin|esperanto|sign language|asl|bsl|afrikaans|zulu|amharic|yoruba|hausa|nepali|sinhala|khmer|lao|mongolian|georgian|armenian|azerbaijani|kazakh|uzbek',
);

export const NATIONALITIES = set(
  'german|french|spanish|italian|portuguese|dutch|belgian|swiss|austrian|british|english|scottish|welsh|irish|american|canadian|mexican|brazilian|argentinian|argentine|chilean|colombian|' +
    'peruvian|venezuelan|cuban|japanese|chinese|korean|south korean|indian|pakistani|bangladeshi|vietnamese|thai|filipino|indonesian|malaysian|singaporean|australian|new zealander|kiwi|' +
    'russian|ukrainian|polish|czech|slovak|hungarian|romanian|bulgarian|greek|turkish|israeli|lebanese|egyptian|moroccan|algerian|tunisian|nigerian|ghanaian|kenyan|ethiopian|south african|' +
    'swedish|norwegian|danish|finnish|icelandic|estonian|latvian|lithuanian|croatian|serbian|bosnian|slovenian|albanian|iranian|iraqi|syrian|saudi|emirati|afghan|nepalese|sri lankan|' +
    'jamaican|haitian|dominican|puerto rican|ecuadorian|bolivian|uruguayan|paraguayan|costa rican|guatemalan|honduran|salvadoran|nicaraguan|panamanian|luxembourgish|maltese|cypriot|georgian|armenian',
);

export const DIETS = set('vegetarian|vegan|pescatarian|pescetarian|keto|paleo|gluten-free|gluten free|dairy-free|dairy free|halal|kosher|flexitarian|raw vegan|plant-based|plant based|low-carb|low carb|carnivore|fruitarian|intermittent fasting|mediterranean|ketogenic|low-fodmap|low fodmap|whole30|atkins|dash|low-fat|low fat|sugar-free|sugar free|lactose-free|lactose free|pescetarian');

const JOB_NOUNS =
  'teacher|nurse|doctor|physician|surgeon|dentist|lawyer|attorney|solicitor|barrister|judge|engineer|developer|programmer|designer|architect|accountant|consultant|manager|chef|cook|' +
  'baker|butcher|pilot|flight attendant|scientist|researcher|professor|lecturer|student|phd student|journalist|writer|author|editor|photographer|artist|painter|musician|singer|actor|' +
  'actress|dancer|electrician|plumber|carpenter|mechanic|farmer|pharmacist|therapist|psychologist|psychiatrist|paramedic|firefighter|police officer|cop|detective|soldier|officer|' +
  'veterinarian|vet|waiter|waitress|bartender|barista|cashier|clerk|receptionist|secretary|assistant|intern|trainee|apprentice|analyst|data scientist|economist|banker|broker|' +
  'translator|interpreter|librarian|social worker|salesman|saleswoman|salesperson|sales rep|realtor|real estate agent|entrepreneur|founder|co-founder|cofounder|ceo|cto|cfo|coo|cmo|' +
  'freelancer|contractor|consultant|tutor|coach|trainer|personal trainer|driver|truck driver|taxi driver|courier|nanny|caregiver|carer|midwife|optician|physiotherapist|physio|' +
  'administrator|sysadmin|devops engineer|product manager|project manager|product owner|scrum master|ux designer|ui designer|graphic designer|web developer|software developer|' +
  'software engineer|data engineer|data analyst|marketing manager|teaching assistant|principal|headteacher|head teacher|postdoc|professor|surveyor|pharmacologist|biologist|chemist|' +
  'physicist|mathematician|statistician|historian|curator|zookeeper|gardener|landscaper|janitor|cleaner|housekeeper|security guard|guard|lifeguard|model|influencer|youtuber|streamer|' +
  'blogger|copywriter|recruiter|hr manager|lab technician|technician|mechanic|welder|machinist|miner|fisherman|sailor|captain|diplomat|politician|civil servant|priest|pastor|rabbi|imam|' +
  'nun|monk|homemaker|housewife|househusband|stay-at-home mom|stay-at-home dad|stay-at-home parent|retiree|pensioner|cto|vp|director|executive|supervisor|foreman|tester|qa engineer|' +
  'game developer|animator|illustrator|producer|director|dj|composer|violinist|pianist|guitarist|drummer|florist|tailor|hairdresser|barber|stylist|beautician|makeup artist|' +
  'optometrist|radiologist|anesthesiologist|cardiologist|pediatrician|oncologist|neurologist|dermatologist|gp|general practitioner|resident|medical student|law student|grad student|' +
  'undergrad|undergraduate|graduate student|high school student|schoolteacher|kindergarten teacher|preschool teacher|substitute teacher|professor|dean|bookkeeper|auditor|actuary|underwriter|' +
  'logistics manager|warehouse worker|factory worker|construction worker|builder|roofer|painter|decorator|nurse practitioner|care worker|support worker|customer service rep|call center agent|' +
  'bus driver|train driver|conductor|air traffic controller|mechanical engineer|civil engineer|electrical engineer|chemical engineer|frontend developer|backend developer|full-stack developer|full stack developer|' +
  'mobile developer|security engineer|site reliability engineer|sre|machine learning engineer|ml engineer|ai researcher|research scientist|product designer|content creator|podcaster|novelist|poet|screenwriter';
/** Everyday and British job names, abbreviations and trades (the longer tail of occupations people name in chat). */
const MORE_JOB_NOUNS =
  'dev|swe|sde|pm|hca|porter|night porter|bin man|binman|dinner lady|lollipop lady|air hostess|steward|stewardess|cabin crew|shelf stacker|warehouse operative|' +
  'delivery driver|postman|postwoman|mail carrier|paralegal|dental nurse|hygienist|dental hygienist|sonographer|radiographer|phlebotomist|pharmacy technician|healthcare assistant|' +
  'childminder|au pair|labourer|laborer|bricklayer|plasterer|joiner|scaffolder|tiler|glazier|locksmith|handyman|caretaker|groundskeeper|sous chef|line cook|kitchen porter|' +
  'server|concierge|doorman|bouncer|prison officer|probation officer|estate agent|letting agent|mortgage adviser|mortgage advisor|financial adviser|financial advisor|insurance broker|' +
  'claims handler|call handler|customer service advisor|support engineer|solutions architect|business analyst|management consultant|marketer|marketing executive|account manager|' +
  'account executive|sales manager|store manager|shop assistant|retail assistant|checkout operator|barman|barmaid|sommelier|brewer|fishmonger|veterinary nurse|vet nurse|dog walker|' +
  'groomer|dog groomer|personal shopper|nail technician|tattoo artist|videographer|reporter|publisher|archivist|lab tech|uber driver|lorry driver|hgv driver|instructor|' +
  'yoga teacher|driving instructor|occupational therapist|speech therapist|counsellor|counselor|youth worker|chaplain|vicar|game designer|ux researcher|tax adviser|councillor|' +
  'marine|anaesthetist|anesthetist|dietitian|dietician|nutritionist|registrar|consultant surgeon|junior doctor|locum|sales assistant|team leader|team lead|tech lead|engineering manager|' +
  'cto|head chef|pastry chef|carpenter|builder|electrician|software dev|backend dev|frontend dev|full stack dev|web dev|mobile dev|data engineer|devops|sre|qa|tester|cleaner|' +
  'housekeeper|care assistant|teaching assistant|learning support assistant|ta|sen teacher|supply teacher|lecturer|researcher|research assistant|lab assistant|' +
  'pilot|co-pilot|first officer|flight attendant|air steward|conductor|guard|train guard|signaller|dispatcher|paramedic|ambulance driver|firefighter|coastguard|lifeguard|' +
  'footballer|basketball player|professional basketball player|athlete|boxer|jockey|golfer|referee|umpire|personal assistant|pa|executive assistant|office manager|' +
  'project coordinator|coordinator|administrator|admin|receptionist|translator|copy editor|proofreader|illustrator|animator|artist|sculptor|potter|ceramicist|jeweller|jeweler|' +
  'seamstress|tailor|cobbler|upholsterer|mechanic|technician|engineer|surveyor|architect|planner|town planner|urban planner|quantity surveyor|site manager|foreman|forewoman';
export const JOB_NOUN_SET = new Set([...set(JOB_NOUNS), ...set(MORE_JOB_NOUNS)]);
/** Nouns with a job-like suffix that are not jobs (or that other rules handle). */
const NOT_JOBS = set(
  'fan|member|smoker|non-smoker|beginner|vegetarian|vegan|pescatarian|runner|winner|loser|lover|dreamer|believer|foodie|introvert|extrovert|ambivert|person|morning person|night owl|' +
    'citizen|resident|native|parent|mother|father|sister|brother|daughter|son|grandmother|grandfather|partner|owner|customer|user|reader|listener|gamer|player|swimmer|cyclist|' +
    'hiker|climber|walker|traveler|traveller|tourist|expat|immigrant|foreigner|stranger|neighbor|neighbour|newcomer|perfectionist|optimist|pessimist|realist|idealist|minimalist|' +
    'procrastinator|worrier|overthinker|other|number|better|matter|danger|monster|letter|order|water|center|centre|corner|killer|super|bit|lot|little|quarter|teenager|bachelor|member',
);

/** True when a noun phrase (without article) names an occupation. */
export function isJobPhrase(phrase: string): boolean {
  const p = phrase.toLowerCase().replace(/\s+/g, ' ').trim();
  if (!p || p.split(' ').length > 5) return false;
  if (JOB_NOUN_SET.has(p)) return true;
  const words = p.split(' ');
  const head = words[words.length - 1].replace(/s$/, '');
  if (NOT_JOBS.has(p) || NOT_JOBS.has(head)) return false;
  // Only known occupation heads: suffix guesses ("early riser", "fast learner") cost too much precision.
  return JOB_NOUN_SET.has(head) || JOB_NOUN_SET.has(words.slice(-2).join(' '));
}

/** Words after a job title that name an employer: "a nurse at St. Mary's", "a developer for Acme". */
export const EMPLOYER_PREPOSITIONS = set('at|for|with');

export function isConditionPhrase(phrase: string): boolean {
  const p = phrase.toLowerCase().replace(/^(a|an|the|some|severe|mild|chronic|bad)\s+/, '');
  if (CONDITIONS.has(p) || CONDITIONS.has(phrase.toLowerCase())) return true;
  const words = p.split(' ');
  const head = words[words.length - 1];
  if (CONDITION_HEADS.has(head) || CONDITION_HEADS.has(head.replace(/s$/, ''))) return true;
  return words.some((_, i) => CONDITIONS.has(words.slice(i).join(' ')));
}

/**
 * International nonproprietary drug names share stems by class (WHO INN stems): -pram/-oxetine/-aline
 * (SSRIs), -olol (beta blockers), -pril/-sartan (blood pressure), -statin, -prazole, -cillin/-mycin/-cycline
 * (antibiotics), -formin, -gliptin/-glutide, -azepam/-zolam, -triptan, -tidine, -lukast, -mab, -vir, -thyroxine.
 */
const DRUG_STEM = /^[a-z]{3,}(?:pram|oxetine|aline|afine|olol|pril|sartan|statin|prazole|cillin|mycin|cycline|floxacin|formin|gliptin|glutide|azepam|zolam|triptan|tidine|lukast|mab|vir|thyroxine|dronate|semide|thiazide|pine|tadine|codone|morphone|profen|oxacin|azole|ipine|idone|apine|etine|amine|barb|lamide)$/;

export function isMedicationPhrase(phrase: string): boolean {
  const p = phrase.toLowerCase();
  if (MEDICATIONS.has(p)) return true;
  const words = p.split(' ');
  if (MEDICATION_HEADS.has(words[words.length - 1])) return true;
  if (/\b\d+(?:\.\d+)?\s?(mg|mcg|µg|ml|iu|g)\b/.test(p)) return true;
  if (words.length <= 3 && DRUG_STEM.test(words[0])) return true;
  return words.some((_, i) => MEDICATIONS.has(words.slice(i).join(' ')));
}

export function isLoanPhrase(phrase: string): boolean {
  const words = phrase.toLowerCase().split(' ');
  return words.some((_, i) => LOANS.has(words.slice(i).join(' ')));
}

function headIn(phrase: string, lexicon: Set<string>): boolean {
  const words = phrase.toLowerCase().replace(/[^a-z0-9' -]/g, '').split(' ');
  for (let i = 0; i < words.length; i++) {
    const tail = words.slice(i).join(' ');
    if (lexicon.has(tail) || lexicon.has(tail.replace(/s$/, ''))) return true;
  }
  return false;
}

export function isAppointmentPhrase(phrase: string): boolean {
  const head = phrase.toLowerCase().split(/\s+(?:with|at|for|about|in|on)\s+/)[0];
  return headIn(head, APPOINTMENT_HEADS);
}

export function isEventPhrase(phrase: string): boolean {
  const head = phrase.toLowerCase().split(/\s+(?:with|at|for|about|in|on|of)\s+/)[0];
  return headIn(head, EVENT_HEADS);
}

export function isOwnablePhrase(phrase: string): boolean {
  const head = phrase.split(/\s+(?:with|at|for|about|in|on|from|near)\s+/)[0].trim();
  if (headIn(head, OWNABLES)) return true;
  if (isPossessionNoun(head)) return true;
  // A brand or model name: "a Tesla", "a MacBook Pro", "a PlayStation 5" - but not a person ("Emma").
  if (!/^(?:new |used |old |second-hand |brand new )?[A-Z][\w-]*(?: [A-Z0-9][\w-]*)*$/.test(head) || /^(I|Mr|Mrs|Ms|Dr)$/.test(head)) return false;
  return !isPersonName(head);
}

let personNameCheck: (name: string) => boolean = () => false;
/** Lets the extractor plug in compromise's name lexicon without this module importing it. */
export function setPersonNameCheck(check: (name: string) => boolean): void {
  personNameCheck = check;
}
export function isPersonName(name: string): boolean {
  return personNameCheck(name);
}

export function isLanguage(phrase: string): boolean {
  return LANGUAGES.has(phrase.toLowerCase());
}

export const CLUB_HEADS = set('club|team|choir|band|orchestra|society|association|union|group|league|gym|community|committee|party|guild|chapter|fraternity|sorority|board|council|network|church|congregation');

export function isClubPhrase(phrase: string): boolean {
  return headIn(phrase.split(/\s+(?:with|at|for|in|on)\s+/)[0], CLUB_HEADS);
}

/** Amounts of money: "60k", "$85,000", "4000 euros", "3,500 a month". */
export const MONEY = /(?:[$€£]\s?\d[\d,.]*\s?(?:k|m|million|thousand|grand)?|\d[\d,.]*\s?(?:k|m|million|thousand|grand)\b|\d[\d,.]*\s?(?:euros?|dollars?|pounds?|usd|eur|gbp|chf|francs?|bucks|yen|kr|sek|nok|dkk|pln|inr|rupees?|aud|cad)\b|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{3,}(?:[,.]\d{3})*)/i;

export function isMoneyPhrase(phrase: string): boolean {
  return MONEY.test(phrase);
}

/** Words that begin a question or request: sentences starting with them state no fact. */
export const QUESTION_STARTERS = set(
  'what|where|when|who|whom|whose|why|how|which|do|does|did|can|could|would|will|should|shall|is|are|am|was|were|may|might|have|has|had|' +
    "isn't|aren't|don't|doesn't|didn't|won't|can't|couldn't|wouldn't|shouldn't|please|tell|show|give|explain|help|find|write|list|summarize|summarise|translate|describe|" +
    'recommend|suggest|let|remind|send|make|create|generate|check|compare|calculate|search|look|book|order|set|call|text|email|fix|draft',
);

/** Pronoun objects that need context the extractor does not have. */
export const UNRESOLVED_OBJECTS = set('it|this|that|them|these|those|there|here|him|her|one|so|too|something|anything|everything|nothing|stuff|things|lot|a lot|you|yours|mine|ours|theirs|home|both|all|either|neither|which|what|such|same|the same|other|others|more|less|most|much|many');

/** Number words for ages and counts. */
const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };

/** "34", "thirty-four", "thirty four", "a hundred" -> number; otherwise undefined. */
export function parseSmallNumber(text: string): number | undefined {
  const t = text.toLowerCase().trim();
  if (/^\d{1,3}$/.test(t)) return Number(t);
  if (t === 'a hundred' || t === 'one hundred' || t === 'hundred') return 100;
  if (t in UNITS) return UNITS[t];
  const m = /^(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](one|two|three|four|five|six|seven|eight|nine))?$/.exec(t);
  if (m) return TENS[m[1]] + (m[2] ? UNITS[m[2]] : 0);
  return undefined;
}

export const NUMBER_WORD = '(?:\\d{1,3}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|a hundred)';

/** Common fixed "X and Y" expressions that must not be split into list items. */
export const AND_COMPOUNDS = set(
  'mac and cheese|rock and roll|fish and chips|salt and pepper|black and white|drum and bass|rhythm and blues|bread and butter|peanut butter and jelly|pb and j|' +
    'arts and crafts|dungeons and dragons|cops and robbers|sweet and sour|tom and jerry|pride and prejudice|war and peace|crime and punishment|law and order|research and development|' +
    'bed and breakfast|trial and error|pros and cons|oil and gas|procter and gamble|johnson and johnson|marks and spencer|ben and jerry\'s|simon and garfunkel|hall and oates|' +
    'strawberries and cream|rice and beans|eggs and bacon|bacon and eggs|chips and salsa|gin and tonic|rum and coke|cookies and cream|hip hop and r and b|r and b|bosnia and herzegovina|' +
    'trinidad and tobago|antigua and barbuda|st kitts and nevis',
);

const SCHOOL_HEADS = set('university|college|school|academy|institute|uni|polytechnic|conservatory|seminary|high school|grad school|law school|med school|medical school|business school|kindergarten|preschool|gymnasium|lyceum|community college');
const KNOWN_SCHOOLS = set('mit|ucla|usc|nyu|lse|eth|epfl|tum|kit|harvard|stanford|oxford|cambridge|yale|princeton|berkeley|caltech|columbia|cornell|imperial|sorbonne');

export function isSchoolPhrase(phrase: string): boolean {
  const p = phrase.toLowerCase();
  if (KNOWN_SCHOOLS.has(p)) return true;
  if (/^(?:tu|lmu|fu|hu|rwth|uc|ucl)\b/.test(p)) return true;
  return p.split(/\s+/).some((_, i, words) => SCHOOL_HEADS.has(words.slice(i).join(' ')) || SCHOOL_HEADS.has(words[i]));
}

const ACTIVITIES = set(
  'yoga|pilates|crossfit|karate|judo|taekwondo|boxing|kickboxing|martial arts|ballet|gymnastics|meditation|archery|fencing|parkour|bouldering|climbing|rock climbing|' +
    'photography|pottery|woodworking|calligraphy|origami|embroidery|crochet|knitting|sewing|gardening|birdwatching|bird watching|volunteering|volunteer work|triathlons|marathons|' +
    'tai chi|aikido|jiu jitsu|jiu-jitsu|bjj|mma|zumba|spinning|weightlifting|powerlifting|stand-up comedy|improv|theater|theatre|karaoke|scuba diving|diving|sailing|rowing|kayaking|' +
    'canoeing|skiing|snowboarding|surfing|skateboarding|horse riding|horseback riding|running|jogging|swimming|cycling|biking|hiking|camping|fishing|hunting|dancing|salsa|tango|' +
    'crosswords|sudoku|puzzles|jigsaw puzzles|cosplay|geocaching|astronomy|baking|cooking|painting|drawing|sketching|writing|reading|blogging|vlogging|podcasting|gaming',
);

/** Leisure activities: "go hiking", "do yoga". Gerunds count ("go running"). */
export function isActivityPhrase(phrase: string): boolean {
  const p = phrase.toLowerCase().trim();
  if (ACTIVITIES.has(p)) return true;
  return /^[a-z]+ing$/.test(p) && !/^(?:nothing|something|anything|everything|thing|morning|evening|king|ring|wing|spring|string|building|ceiling|wedding|meeting|pudding|thing|being)$/.test(p);
}

const SKILLS = set(
  'python|java|javascript|typescript|rust|go|golang|c|c++|c#|ruby|php|swift|kotlin|scala|haskell|sql|r|matlab|excel|photoshop|illustrator|figma|sketch|autocad|blender|unity|' +
    'unreal|react|angular|vue|node|node.js|docker|kubernetes|aws|azure|gcp|linux|git|tableau|power bi|sap|salesforce|html|css|latex|bash|perl|julia|elixir|erlang|clojure|dart|' +
    'flutter|django|rails|ruby on rails|spring|tensorflow|pytorch|pandas|machine learning|deep learning|statistics|accounting|bookkeeping|first aid|cpr|sign language|photography|' +
    'video editing|graphic design|web design|seo|copywriting|negotiation|public speaking|calculus|algebra|chess|morse code|sql server|postgres|postgresql|mysql|mongodb|redis|' +
    'terraform|ansible|jenkins|premiere|after effects|final cut|lightroom|indesign|solidworks|revit|ms office|microsoft office|word|powerpoint|spss|stata|sas|fortran|cobol|assembly|' +
    'lua|objective-c|vba|graphql|rest|next.js|svelte|spark|hadoop|kafka|data analysis|project management|karate|judo|how to code|how to cook|how to drive|how to swim|how to sew|how to knit',
);

/** Skills, tools and programming languages ("I know Python"); "how to X" counts. */
export function isSkillPhrase(phrase: string): boolean {
  const p = phrase.toLowerCase().trim();
  return SKILLS.has(p) || /^how to [a-z]+/.test(p);
}

const COMPANY_HEADS = set(
  'company|firm|startup|start-up|agency|bank|hospital|clinic|school|university|college|council|ministry|government|lab|laboratory|studio|bakery|restaurant|cafe|café|store|shop|' +
    'factory|plant|corporation|corp|inc|ltd|gmbh|ag|llc|group|consultancy|institute|foundation|charity|ngo|nonprofit|non-profit|organization|organisation|department|office|airline|' +
    'newspaper|magazine|publisher|law firm|practice|hotel|supermarket|retailer|brewery|winery|farm|church|army|navy|air force|police|fire department|military|nhs|un|eu|nasa',
);

/** An employer named by a proper noun ("Google", "St. Mary's") or a company-like noun ("a startup"). */
export function isCompanyPhrase(phrase: string): boolean {
  if (/^[A-Z0-9]/.test(phrase.trim())) return true;
  const words = phrase.toLowerCase().split(/\s+/);
  return words.some((w) => COMPANY_HEADS.has(w));
}
