// What the search knows of words: the stop words and question words left out of counting, a
// rough stem, which words some paper holds (in its own text, or only in its authors' names),
// and the nearest of them to a typo.
const STOP = new Set(("a an the and or of in on at to for from by with into as is are was were be been do does did " +
  "can could should would will may might it its this that these those there their they we our you your not no " +
  "than so such via vs if but also has have had").split(" "));
const ASKING = new Set("why how what when where which who whom whose".split(" "));
const OPENERS = new Set([...ASKING, ..."do does did is are was were can could should would will".split(" ")]);
// English endings Pagefind's stemmer takes off too: "learning" finds "learn", "models" "model".
const ENDING = /(?:ations?|ings?|ies|ied|ers?|ed|es|ly|s)$/;

let list = null;

// A text as Pagefind compares it, for finding words and phrases: lower case, words between single spaces.
export function plain(text) {
  return ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()} `;
}

// One word as Pagefind indexes it: lower case, letters and digits only ("In-Context" → "incontext").
export function bare(word) {
  return word.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

export function stem(word) {
  const cut = /^\p{L}{5,}$/u.test(word) ? word.replace(ENDING, "") : word;
  return cut.length >= 3 ? cut : word;
}

// Whether `text` (made `plain`) holds `term` as Pagefind matches it: each of its words, in turn,
// the start of a word of the text, from its stem on.
export function holds(text, term) {
  const parts = plain(term).trim().split(" ").filter(Boolean).map(stem);
  return parts.length > 0 && text.includes(` ${parts.join(" ")}`);
}

export function isStopWord(word) {
  return STOP.has(word.toLowerCase());
}

// A query's words, without a question's punctuation ("work?" → "work").
export function wordsOf(query) {
  return query.replace(/[?!,;:]+(?=\s|$)/g, "").split(" ").filter(Boolean);
}

// "why does in-context learning work", "Is ICL Bayesian?": a question, whose question words
// and stop words say nothing of what it is about.
export function isQuestion(query) {
  const words = wordsOf(query);
  return words.length > 2 && (OPENERS.has(words[0].toLowerCase()) || query.endsWith("?"));
}

// The words that say what a query is about: without stop words (nor question words, in a
// question); all of its words if that leaves none.
export function keyWords(words, question) {
  const key = words.filter((word) => !isStopWord(word) && !(question && ASKING.has(word.toLowerCase())));
  return key.length ? key : words;
}

// The catalogue's words (pagefind/words.json, made at build time), those on most papers first.
export function catalogueWords(root) {
  list = list || fetch(`${root}pagefind/words.json`)
    .then((response) => (response.ok ? response.json() : []))
    .catch(() => []);  // offline: every word is looked up in the index instead
  return list;
}

// The shards of the index ("0", "1"…; "0" alone when it is whole) in which some paper holds
// `term`. Pagefind never says: for a word an index lacks it matches shorter and shorter starts
// of it ("kubernetes" finds every "k"), each shard on its own. So the word list answers for a
// whole index; else (ids, numbers, short words, a shard) the first result does, which holds
// the word if any paper does.
export async function holders(pagefind, known, term, shards = 1) {
  const word = bare(term);
  const all = [...Array(shards).keys()].map(String);
  if (!word || (shards === 1 && /^\p{L}{3,}$/u.test(word) && known.some((k) => k.startsWith(word)))) return all;
  const held = await Promise.all(all.map((shard) => firstHolds(pagefind, term, shards > 1 ? { filters: { shard } } : {})));
  return all.filter((_, i) => held[i]);
}

// Whether the first result for `term` holds it among its words. Not among the `locations`
// Pagefind matched: a page's data is one object, whose locations the next search to find the
// page overwrites, maybe before they are read.
async function firstHolds(pagefind, term, options) {
  const [first] = (await pagefind.search(term, options)).results;
  if (!first) return false;
  const data = await first.data();
  return data.content.split(/\s+/).some((word) => sameWord(bare(word), bare(term)));
}

// Whether Pagefind matched `word` for `term` as a word (its start, or its stem: "theories" for
// "theory"), not for a shorter start of it, as it does for a word the index lacks ("sample"
// for "samba").
function sameWord(word, term) {
  let common = 0;
  while (common < term.length && word[common] === term[common]) common += 1;
  return word.startsWith(stem(term)) || (term.length >= 6 && common >= term.length - 1);
}

// Whether `word` is in some paper's own text (title, abstract, tags, themes, index words), not
// only in its authors' names: only such words may correct a typo of another word.
export async function inText(pagefind, word) {
  const search = await pagefind.search(word);
  const wanted = plain(word);
  const data = await Promise.all(search.results.slice(0, 10).map((result) => result.data()));
  return data.some((d) => plain(d.content.replace(d.meta.authors || "", " ")).includes(wanted));
}

// The words of `known` nearest to `word`, within `limit` edits (one in a short word, two in a
// longer one), those on most papers first: a farther word is never offered for a nearer one.
export function nearWords(word, known, limit = word.length < 6 ? 1 : 2) {
  let near = [];
  let nearest = limit;
  for (const candidate of known) {
    if (Math.abs(candidate.length - word.length) > nearest) continue;
    const distance = edits(word, candidate, nearest + 1);
    if (distance > nearest) continue;
    if (distance < nearest) [near, nearest] = [[], distance];
    near.push(candidate);
  }
  return near;
}

// Edits (insert, delete, substitute, swap two neighbours) from a to b; any value >= cap means "too many".
function edits(a, b, cap) {
  let before = null;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      if (before && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j], before[j - 2] + 1);
      }
    }
    if (Math.min(...row) >= cap) return cap;
    [before, previous] = [previous, row];
  }
  return previous[b.length];
}
