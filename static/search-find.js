// Finding papers: Pagefind, plus what it lacks. An arXiv or OpenReview address or a versioned
// arXiv id is searched as the bare id. A word no paper holds is corrected by spelling, or said to
// be missing, and the others searched: never "3 papers match" a word found nowhere. The query as
// a phrase (in a title, then anywhere) moves up, and in a question the papers whose title, tags
// or themes hold its key words; when few papers hold every word, papers holding most of them
// (stop words left out) follow.
import { shardCount } from "./search-core.js";
import {
  catalogueWords, holders, holds, inText, isQuestion, isStopWord, keyWords, nearWords, plain, wordsOf,
} from "./search-words.js";

const FEW = 5;          // fewer results than this with every word: add papers with most words
const RERANKED = 20;    // how many of the first results the phrase and the key words may reorder
const ARXIV = /(?:https?:\/\/)?(?:www\.)?(?:arxiv\.org\/(?:abs|pdf)\/|arxiv:\s*)?(\d{4}\.\d{4,5})(?:v\d+)?(?:\.pdf)?/gi;
const OPENREVIEW = /(?:https?:\/\/)?(?:www\.)?openreview\.net\/(?:forum|pdf)\/?\?(?:[^\s#]*&)?id=([\w-]+)[^\s#]*(?:#\S*)?/gi;

export function normalise(query) {
  return query.replace(ARXIV, "$1").replace(OPENREVIEW, "$1").replace(/\s+/g, " ").trim();
}

// The results for `query`, in order: { results, query, terms } (`terms`: the words to mark in
// excerpts), and with `partial` the ids of the papers with `every` word and how many key words
// (`needed` of `words`; `left`, the words not counted) the others have; with `corrected`, the
// query searched instead of the `original`, whose `typos` no paper holds; with `missing`, the
// words no paper holds, searched without (and perhaps a `suggested` query); with `browse`, no
// word was asked for (an empty query, or punctuation): every paper.
export async function findPapers(pagefind, root, query, options = {}, correct = true) {
  const q = normalise(query);
  const words = wordsOf(q);
  if (!words.length) return { results: await listed(pagefind, options), query: "", terms: [], browse: true };  // "", "?"
  const question = isQuestion(q);
  const terms = keyWords(words, question);
  const known = await catalogueWords(root);
  const held = await Promise.all(terms.map((term) => holders(pagefind, known, term, shardCount())));
  const missing = terms.filter((_, i) => !held[i].length);
  if (missing.length) return withoutMissing(pagefind, root, { q, words, missing, known, options, correct });
  return search(pagefind, { q, words, terms, held, question, options });
}

// A query with words no paper holds: corrected if each is a typo of a word of the catalogue's
// own text, else searched without them.
async function withoutMissing(pagefind, root, { q, words, missing, known, options, correct }) {
  const fixes = correct ? await corrections(pagefind, known, words, missing) : new Map();
  if (fixes.size) {
    const fixed = words.map((word) => fixes.get(word) || word).join(" ");
    const found = await findPapers(pagefind, root, fixed, options, false);
    return { ...found, corrected: fixed, original: q, typos: [...fixes.keys()] };
  }
  const rest = words.filter((word) => !missing.includes(word));
  const found = rest.some((word) => !isStopWord(word))
    ? await findPapers(pagefind, root, rest.join(" "), options, false)
    : { results: [], query: "", terms: [] };
  const suggested = correct ? suggestion(words, missing, known) : null;
  return { ...found, missing, original: q, suggested };
}

// Each word of `missing` that is a typo, with its correction: the nearest word of some paper's
// own text, never an author's name, unless the query's other words are names ("Beidi Chne").
async function corrections(pagefind, known, words, missing) {
  let names = null;
  const others = words.filter((word) => !missing.includes(word) && !isStopWord(word));
  const inQueryOfNames = () => {
    names = names || Promise.all(others.map((word) => inText(pagefind, word)))
      .then((text) => others.length > 0 && text.every((t) => !t));
    return names;
  };
  const fixes = new Map();
  for (const term of missing) {
    const word = term.toLowerCase();
    if (!/^\p{L}{4,}$/u.test(word)) continue;
    for (const candidate of nearWords(word, known).slice(0, 5)) {
      if (await inText(pagefind, candidate) || await inQueryOfNames()) {
        fixes.set(term, sameCase(candidate, term));
        break;
      }
    }
  }
  return fixes;
}

// For a missing word that may be a misspelt name ("Mahony"), the query with the nearest word.
function suggestion(words, missing, known) {
  const word = missing.find((term) => /^\p{L}{5,}$/u.test(term));
  const nearest = word && nearWords(word.toLowerCase(), known)[0];
  return nearest ? words.map((w) => (w === word ? sameCase(nearest, word) : w)).join(" ") : null;
}

// "Chne" → "Chen": a correction capitalised as the word it corrects.
const sameCase = (word, like) => (/^\p{Lu}/u.test(like) ? word[0].toUpperCase() + word.slice(1) : word);

// Every word is in some paper: Pagefind's results, reordered, and in few, papers with most words.
async function search(pagefind, { q, words, terms, held, question, options }) {
  const asked = question ? terms.join(" ") : q;
  const everyIn = held.reduce((shards, some) => shards.filter((shard) => some.includes(shard)));
  const all = everyIn.length ? await pagefind.search(asked, inShards(options, everyIn)) : { results: [] };
  const found = { query: asked, terms, question };
  if (all.results.length >= FEW || terms.length === 1) {
    const results = options.sort ? await sorted(pagefind, all.results, options.sort)
      : await reranked(all.results, q, question ? terms : []);
    return { ...found, results };
  }
  let most = await mostWords(pagefind, terms, held, all.results, options);
  if (options.sort) most = await inOrder(pagefind, most, options.sort);
  const every = new Set(all.results.map((result) => result.id));
  const left = [...new Set(words.filter((word) => !terms.includes(word)))];
  return { ...found, results: most, partial: most.length > every.size, every, left,
    needed: wordsNeeded(terms), words: terms.length };
}

// `options` searching only the shards of the index that hold a word: in the others, Pagefind
// matches the start of the word instead.
function inShards(options, shards) {
  if (shards.length === shardCount()) return options;
  return { ...options, filters: { ...(options.filters || {}), shard: { any: shards } } };
}

// Every paper, for an empty query: as Pagefind lists them, or in the order asked for.
async function listed(pagefind, options) {
  const all = await pagefind.search(null, options);
  return options.sort ? sorted(pagefind, all.results, options.sort) : all.results;
}

async function sorted(pagefind, results, sort) {
  return shardCount() > 1 ? inOrder(pagefind, results, sort) : results;
}

// How many of a query's key words a paper must have to follow those that have every word.
const wordsNeeded = (terms) => Math.ceil(terms.length / 2);

// The first results: with `keys` (a question's key words), those holding most of them in
// their title, then in their tags or themes, first; then those with the whole query as a
// phrase in the title, then anywhere; else as Pagefind ranks them.
async function reranked(results, q, keys) {
  if (!q.includes(" ")) return results;
  const phrase = plain(q).trimEnd();  // the last word may be the start of a word, as Pagefind reads it
  const head = results.slice(0, RERANKED);
  const data = await Promise.all(head.map((result) => result.data()));
  const rank = data.map((d) => [
    fieldScore(d, keys),
    plain(d.meta.title || "").includes(phrase) ? 2 : plain(d.content).includes(phrase) ? 1 : 0]);
  const order = head.map((result, i) => [result, rank[i], i])
    .sort((a, b) => b[1][0] - a[1][0] || b[1][1] - a[1][1] || a[2] - b[2]);
  return [...order.map(([result]) => result), ...results.slice(RERANKED)];
}

// Two points for each key word in the title, one for each in a tag or theme only.
function fieldScore(data, keys) {
  const title = plain(data.meta.title || "");
  const labels = plain([...(data.filters.tag || []), ...(data.filters.theme || [])].join(" . "));
  return keys.reduce((score, key) => score + (holds(title, key) ? 2 : holds(labels, key) ? 1 : 0), 0);
}

// Papers with every word, then those with at least half of them, more words first, then by score.
async function mostWords(pagefind, terms, held, every, options) {
  const alone = await Promise.all(terms.map((term, i) => pagefind.search(term, inShards(options, held[i]))));
  const seen = new Set(every.map((result) => result.id));
  const merged = new Map();
  alone.forEach((search) => search.results.forEach((result) => {
    const entry = merged.get(result.id) || { result, words: 0, score: 0 };
    entry.words += 1;
    entry.score += result.score;
    merged.set(result.id, entry);
  }));
  const needed = wordsNeeded(terms);
  const rest = [...merged.values()]
    .filter((entry) => !seen.has(entry.result.id) && entry.words >= needed)
    .sort((a, b) => b.words - a.words || b.score - a.score);
  return [...every, ...rest.map((entry) => entry.result)];
}

// `results` in the catalogue's order for `sort`, as Pagefind sorts them.
async function inOrder(pagefind, results, sort) {
  const place = new Map((await catalogueOrder(pagefind, sort)).map((id, i) => [id, i]));
  return [...results].sort((a, b) => place.get(a.id) - place.get(b.id));
}

// Every paper's id in the order of `sort`. Pagefind sorts a merged index within each shard
// only, so by title the shards (ranges of titles) are listed in turn; by venue, the venues are
// put in order here, each with its papers in title order.
async function catalogueOrder(pagefind, sort) {
  const ids = async (options) => (await pagefind.search(null, options)).results.map((result) => result.id);
  if (shardCount() === 1) return ids({ sort });
  const shards = [...Array(shardCount()).keys()].map(String);
  const byTitle = (await Promise.all(shards.map((shard) => ids({ sort: { title: "asc" }, filters: { shard } })))).flat();
  if (sort.title) return byTitle;
  const venues = Object.keys((await pagefind.filters()).venue || {}).sort(venueOrder);
  const members = await Promise.all(venues.map(async (venue) => new Set(await ids({ filters: { venue } }))));
  return members.flatMap((inVenue) => byTitle.filter((id) => inVenue.has(id)));
}

// "ICLR 2025" before "ICML 2024": newest first, then by name, as the pages' year sort key says.
function venueOrder(a, b) {
  const [nameA, yearA] = [a.replace(/\s*\d{4}$/, ""), a.slice(-4)];
  const [nameB, yearB] = [b.replace(/\s*\d{4}$/, ""), b.slice(-4)];
  return yearB.localeCompare(yearA) || nameB.localeCompare(nameA);
}
