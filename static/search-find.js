// Finding papers: Pagefind, plus what it lacks. An arXiv address or versioned id is searched as
// the bare id; the query as a phrase (in a title, then anywhere) moves up; when few papers hold
// every word, papers holding most of them follow; a word found nowhere is corrected by spelling.
const FEW = 5;          // fewer results than this with every word: add papers with most words
const RERANKED = 20;    // how many of the first results the phrase may reorder
const ARXIV = /(?:https?:\/\/)?(?:www\.)?(?:arxiv\.org\/(?:abs|pdf)\/|arxiv:\s*)?(\d{4}\.\d{4,5})(?:v\d+)?(?:\.pdf)?/gi;

import { shardCount } from "./search-core.js";

let words = null;

export function normalise(query) {
  return query.replace(ARXIV, "$1").replace(/\s+/g, " ").trim();
}

// A text as Pagefind compares it, for finding a phrase: lower case, words between single spaces.
function plain(text) {
  return ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()} `;
}

// The results for `query`, in order: { results, query }, and with `partial` the ids of the papers
// with `every` word and how many words (`needed` of `words`) the others have; with `corrected`,
// the query searched instead of the `original`.
export async function findPapers(pagefind, root, query, options = {}, correct = true) {
  const q = normalise(query);
  const all = await pagefind.search(q || null, options);
  const terms = q.split(" ").filter(Boolean);
  if (all.results.length >= FEW || terms.length === 0) {
    const results = options.sort ? (shardCount() > 1 ? await inOrder(pagefind, all.results, options.sort) : all.results)
      : await byPhrase(all.results, q);
    return { results, query: q };
  }
  // Few results, and a word that starts no word of the index: Pagefind's loose matches for a typo
  // ("smaba" finds two unrelated papers) are worth less than the word it meant.
  if (correct) {
    const corrected = await spellingOf(root, terms);
    if (corrected) return { ...(await findPapers(pagefind, root, corrected, options, false)), corrected, original: q };
  }
  if (terms.length === 1) return { results: all.results, query: q };
  let most = await mostWords(pagefind, terms, all.results, options);
  if (options.sort) most = await inOrder(pagefind, most, options.sort);
  const every = new Set(all.results.map((result) => result.id));
  return { results: most, query: q, partial: most.length > every.size, every, needed: wordsNeeded(terms), words: terms.length };
}

// How many of a query's words a paper must have to follow those that have every word.
const wordsNeeded = (terms) => Math.ceil(terms.length / 2);

// The first results with the whole query as a phrase in the title first, then anywhere.
async function byPhrase(results, q) {
  if (!q.includes(" ")) return results;
  const phrase = plain(q).trimEnd();  // the last word may be the start of a word, as Pagefind reads it
  const head = results.slice(0, RERANKED);
  const data = await Promise.all(head.map((result) => result.data()));
  const rank = data.map((d) => (plain(d.meta.title || "").includes(phrase) ? 2 : plain(d.content).includes(phrase) ? 1 : 0));
  const order = head.map((result, i) => [result, rank[i], i]).sort((a, b) => b[1] - a[1] || a[2] - b[2]);
  return [...order.map(([result]) => result), ...results.slice(RERANKED)];
}

// Papers with every word, then those with at least half of them, more words first, then by score.
async function mostWords(pagefind, terms, every, options) {
  const alone = await Promise.all(terms.map((term) => pagefind.search(term, options)));
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

// The query with each word that starts no word of the index replaced by the nearest word (at
// most one edit in a short word, two in a longer one), or null if nothing needs correcting.
async function spellingOf(root, terms) {
  words = words || fetch(`${root}pagefind/words.json`)
    .then((response) => (response.ok ? response.json() : []))
    .catch(() => []);  // offline: no corrections, and the search still answers
  const known = await words;
  let changed = false;
  const fixed = terms.map((term) => {
    const word = term.toLowerCase();
    if (!/^\p{L}{4,}$/u.test(word) || known.some((k) => k.startsWith(word))) return term;
    const nearest = closest(word, known, word.length < 6 ? 1 : 2);
    changed = changed || nearest !== null;
    return nearest || term;
  });
  return changed ? fixed.join(" ") : null;
}

// The first word of `known` (most common first) within `limit` edits of `word`, or null.
function closest(word, known, limit) {
  let best = null;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    if (Math.abs(candidate.length - word.length) >= bestDistance) continue;
    const distance = edits(word, candidate, bestDistance);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
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
