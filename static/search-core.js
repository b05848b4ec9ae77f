// Shared by the header panel and the search page: loading Pagefind, drawing one result, the
// words that describe a search, and moving through results with the arrow keys.
import { bare, stem } from "./search-words.js";

let pagefind = null;
let shards = 0;
const OPTIONS = { excerptLength: 24, ranking: { termFrequency: 0.6, pageLength: 0.5 } };

// A catalogue too big for one index is indexed in shards, each a range of titles, listed in
// pagefind/shards.json; Pagefind merges them, searching all at once. Each shard's papers carry
// the filter `shard` (its number), so that the papers of one can be listed in its own order.
export function loadPagefind(root) {
  pagefind = pagefind || import(`${root}pagefind/pagefind.js`).then(async (module) => {
    await module.options({ baseUrl: root, ...OPTIONS });
    await module.init();
    const others = await fetch(`${root}pagefind/shards.json`)
      .then((response) => (response.ok ? response.json() : []))
      .catch(() => []);
    if (others.length) {
      await module.options({ mergeFilter: { shard: "0" } });
      await Promise.all(others.map((folder, i) => module.mergeIndex(`${root}pagefind/${folder}`,
        { baseUrl: root, ...OPTIONS, mergeFilter: { shard: String(i + 1) } })));
    }
    shards = others.length + 1;
    return { ...module, search: oneAtATime(module.search) };
  });
  return pagefind;
}

// Pagefind's searches, run one after another. A search holds the index's state as it was when
// it began, while the words it needs are fetched; one that begins meanwhile may load other words
// into a newer state and the first then finds nothing ("Liliang Ren", with each word looked up
// in each shard at once, found no "Liliang").
function oneAtATime(search) {
  let last = Promise.resolve();
  return (term, options) => {
    const next = last.then(() => search(term, options));
    last = next.catch(() => {});
    return next;
  };
}

// How many shards the index is in (known once loadPagefind has answered).
export function shardCount() {
  return shards;
}

export function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function link(href, text) {
  const node = element("a", null, text);
  node.href = href;
  return node;
}

const quoted = (words) => words.map((word) => `“${word}”`).join(", ");

// Says how the results were found, if not simply by every word: a correction, words no paper
// holds, or some words. `count` and `complete` are the results shown and how many have every word.
export function caveat(found, searchUrl, count = found.results.length, complete = found.every && found.every.size) {
  if (found.corrected) {
    const note = element("span", "search-caveat", `Showing ${plural(count, "paper")} for “${found.query}”: ` +
      `no paper mentions ${quoted([...found.typos, ...(found.missing || [])])}. `);
    note.append(link(`${searchUrl(found.original)}&exact=1`, `Search for “${found.original}” instead`));
    return note;
  }
  const missing = found.missing ? `No paper mentions ${quoted(found.missing)}. ` : "";
  if (found.partial) return element("span", "search-caveat", missing + someWords(found, count, complete));
  if (missing) return element("span", "search-caveat", `${missing}Showing ${plural(count, "paper")} with “${found.query}”.`);
  return null;
}

// "No paper has every word of “…”; showing 12 papers with 2 or more of its 4 words."
function someWords(found, count, complete) {
  const besides = found.left && found.left.length ? ` besides ${quoted(found.left)}` : "";
  const rest = `with ${found.needed === 1 ? "one" : `${found.needed} or more`} of its ${found.words} words${besides}`;
  if (!complete) return `No paper has every word of “${found.query}”; showing ${plural(count, "paper")} ${rest}.`;
  const has = complete === 1 ? "paper has" : "papers have";
  return `${complete} ${has} every word of “${found.query}”; below ${complete === 1 ? "it" : "them"}, ${count - complete} more ${rest}.`;
}

// What a search that found nothing says: which words no paper holds, a spelling that some
// paper has, the catalogue's largest themes, and where to browse.
export async function nothingFound(found, query, root) {
  const note = element("span", "search-caveat",
    found.missing ? `No paper mentions ${quoted(found.missing)}. ` : `No papers match “${query}”. `);
  if (found.suggested) note.append("Did you mean ", link(searchAt(root, found.suggested), `“${found.suggested}”`), "? ");
  const themes = await largestThemes(root);
  if (themes.length) {
    note.append("The catalogue's largest themes: ");
    themes.forEach(([theme, count], i) => note.append(
      i ? " · " : "", link(`${root}search/?theme=${encodeURIComponent(theme)}`, theme), ` (${count})`));
    note.append(". ");
  }
  note.append(browseLinks(root));
  return note;
}

const THEMES = 4;  // how many themes a search that found nothing offers

async function largestThemes(root) {
  const counts = (await (await loadPagefind(root)).filters()).theme || {};
  return Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, THEMES);
}

export function searchAt(root, query) {
  return `${root}search/?q=${encodeURIComponent(query).replace(/%20/g, "+")}`;
}

// Links to browse by, for a search that found nothing: the index pages at the site's root, as
// `searchAt` finds the search page (catalogue/urls.py names them).
const BROWSE = [["tag", "tags/"], ["theme", "themes/"], ["venue", "venues/"], ["author", "authors/"]];

export function browseLinks(root) {
  const caveat = element("span", "search-caveat", "Try fewer or other words, or browse by ");
  BROWSE.forEach(([name, path], i) => caveat.append(i ? (i === BROWSE.length - 1 ? " or " : ", ") : "", link(`${root}${path}`, name)));
  caveat.append(".");
  return caveat;
}

export function shortAuthors(authors) {
  const names = (authors || "").split(", ").filter(Boolean);
  return names.length > 3 ? `${names.slice(0, 3).join(", ")} et al.` : names.join(", ");
}

// One result: title, venue and authors, tags, the abstract around the words searched for
// (`terms`), and its PDF and a button that saves it to the reading list.
export function resultItem(data, terms) {
  const item = element("li", "result");
  const highlight = terms && terms.length ? `?highlight=${encodeURIComponent(terms.join(" "))}` : "";
  const title = link(`${data.url}${highlight}`, data.meta.title || data.url);
  title.className = "result-title";
  item.append(title);
  const byline = element("p", "result-byline");
  byline.append(element("span", "result-venue", data.meta.venue || (data.filters.venue || []).join(", ")));
  if (data.meta.authors) byline.append(" · ", element("span", "result-authors", shortAuthors(data.meta.authors)));
  item.append(byline);
  const tags = element("p", "result-facts");
  (data.filters.tag || []).forEach((tag) => tags.append(element("span", "tag", tag)));
  item.append(tags);
  if (terms && terms.length) item.append(excerptNode(data, terms));
  item.append(actions(data));
  return item;
}

const EXCERPT = 24;  // words, as Pagefind's excerptLength

// The abstract's EXCERPT words holding most of the words searched for, marked, as Pagefind's
// own excerpt does (which would often show the index words or the authors instead); the
// abstract's first words when it holds none (a hit in the title or the authors).
function excerptNode(data, terms) {
  const words = data.content.split(/\s+/);
  const [start, end] = abstractSpan(data, words);
  const hit = words.map((word, i) => (i >= start && i < end ? terms.findIndex((term) => matches(word, term)) : -1));
  const from = bestWindow(hit, start, end);
  const to = Math.min(from + EXCERPT, end);
  const node = element("p", "result-excerpt");
  if (from > start) node.append("… ");
  for (let i = from; i < to; i += 1) {
    let last = i;
    while (hit[i] >= 0 && last + 1 < to && hit[last + 1] >= 0) last += 1;  // "KV cache": one mark
    const text = words.slice(i, last + 1).join(" ");
    node.append(i > from ? " " : "", hit[i] >= 0 ? element("mark", null, text) : text);
    i = last;
  }
  if (to < end) node.append(" …");
  return node;
}

const matches = (word, term) => bare(word).startsWith(stem(bare(term))) && bare(term) !== "";

// Where the abstract is in a page's indexed words: from its heading's anchor to the themes and
// tags, which the page lists after it.
function abstractSpan(data, words) {
  const anchor = (data.anchors || []).find((a) => a.id === "abstract");
  const listed = [...(data.filters.theme || []), ...(data.filters.tag || [])];
  const listedWords = listed.join(" ").split(/\s+/).filter(Boolean).length;
  return [anchor ? anchor.location : 0, Math.max(words.length - listedWords, anchor ? anchor.location + 1 : 1)];
}

// The first window of EXCERPT words in [start, end), a few words before a hit, with the most
// different words searched for, then the most hits; `start` if none.
function bestWindow(hit, start, end) {
  let best = start;
  let bestScore = 0;
  for (let at = start; at < end; at += 1) {
    if (hit[at] < 0) continue;
    const from = Math.max(start, at - 4);
    const inside = hit.slice(from, Math.min(from + EXCERPT, end)).filter((h) => h >= 0);
    const score = new Set(inside).size * 1000 + inside.length;
    if (score > bestScore) [best, bestScore] = [from, score];
  }
  return best;
}

// The reading list is static/reading-list.js's: the same localStorage key and items. It hears
// of changes made in other tabs; one made here, in the header's panel, is told to it alike, so
// that the page's own Save button follows.
const READING_LIST = "reading-list";
const loadList = () => { try { return JSON.parse(localStorage.getItem(READING_LIST)) || []; } catch { return []; } };
function storeList(list) {
  try { localStorage.setItem(READING_LIST, JSON.stringify(list)); } catch { return; /* private mode */ }
  window.dispatchEvent(new StorageEvent("storage", { key: READING_LIST }));
}

// The result's PDF, when the paper has one, and Save, which adds it to the reading list or takes it off.
function actions(data) {
  const row = element("p", "result-actions");
  if (data.meta.pdf) {
    const pdf = link(data.meta.pdf, "PDF");
    pdf.className = "button result-pdf";
    pdf.append(element("span", "visually-hidden", ` of ${data.meta.title}`));
    row.append(pdf);
  }
  const slug = (data.url.match(/\/papers\/([^/]+)\/$/) || [])[1];
  if (slug) row.append(saveButton({ slug, title: data.meta.title || slug, venue: data.meta.venue || "" }));
  return row;
}

function saveButton(paper) {
  const button = element("button", "button result-save");
  button.type = "button";
  const saved = () => loadList().some((item) => item.slug === paper.slug);
  const show = () => {  // the title, unseen, says which paper to one who hears the button
    const which = element("span", "visually-hidden", ` ${paper.title} to the reading list`);
    button.replaceChildren(saved() ? "Saved ✓" : "Save", which);
    button.setAttribute("aria-pressed", String(saved()));
  };
  button.addEventListener("click", () => {
    storeList(saved() ? loadList().filter((item) => item.slug !== paper.slug) : [...loadList(), paper]);
    show();
  });
  show();
  return button;
}

// Up and Down move between `input` and the result links in `list`; Enter follows a link as ever.
export function arrowKeys(input, list) {
  const links = () => [...list.querySelectorAll(".result-title")];
  input.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowDown" || !links().length) return;
    event.preventDefault();
    links()[0].focus();
  });
  list.addEventListener("keydown", (event) => {
    const all = links();
    const at = all.indexOf(document.activeElement);
    if (at < 0 || (event.key !== "ArrowDown" && event.key !== "ArrowUp")) return;
    event.preventDefault();
    const next = at + (event.key === "ArrowDown" ? 1 : -1);
    if (next < 0) input.focus();
    else all[Math.min(next, all.length - 1)].focus();
  });
}
