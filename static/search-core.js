// Shared by the header panel and the search page: loading Pagefind, drawing one result, the
// words that describe a search, and moving through results with the arrow keys.
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
    return module;
  });
  return pagefind;
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

// Says how the results were found, if not simply by every word: a correction, or some words.
// `count` and `complete` are the results shown and how many of them have every word.
export function caveat(found, searchUrl, count = found.results.length, complete = found.every && found.every.size) {
  if (found.corrected) {
    const note = element("span", "search-caveat",
      `Showing ${plural(count, "paper")} for “${found.corrected}”: no paper matches “${found.original}”. `);
    note.append(link(`${searchUrl(found.original)}&exact=1`, `Search for “${found.original}” instead`));
    return note;
  }
  if (!found.partial) return null;
  const rest = `with ${found.needed === 1 ? "one" : `${found.needed} or more`} of its ${found.words} words`;
  if (!complete) {
    return element("span", "search-caveat", `No paper has every word of “${found.query}”; showing ${plural(count, "paper")} ${rest}.`);
  }
  const has = complete === 1 ? "paper has" : "papers have";
  return element("span", "search-caveat",
    `${complete} ${has} every word of “${found.query}”; below ${complete === 1 ? "it" : "them"}, ${count - complete} more ${rest}.`);
}

// Links to browse by, for a search that found nothing (in base.html, where the addresses are known).
export function browseLinks() {
  const template = document.getElementById("search-browse");
  return template ? template.content.cloneNode(true) : "";
}

// Pagefind's excerpt is text with <mark> around the hits: keep the marks, escape the rest.
function excerptNode(excerpt) {
  const node = element("p", "result-excerpt");
  excerpt.split(/(<mark>.*?<\/mark>)/).forEach((part) => {
    const hit = part.match(/^<mark>(.*)<\/mark>$/);
    const text = (hit ? hit[1] : part).replace(/&lt;/g, "<").replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
    node.append(hit ? element("mark", null, text) : document.createTextNode(text));
  });
  return node;
}

export function shortAuthors(authors) {
  const names = (authors || "").split(", ").filter(Boolean);
  return names.length > 3 ? `${names.slice(0, 3).join(", ")} et al.` : names.join(", ");
}

export function resultItem(data, query) {
  const item = element("li", "result");
  const title = link(query ? `${data.url}?highlight=${encodeURIComponent(query)}` : data.url, data.meta.title || data.url);
  title.className = "result-title";
  item.append(title);
  const byline = element("p", "result-byline");
  byline.append(element("span", "result-venue", data.meta.venue || (data.filters.venue || []).join(", ")));
  if (data.meta.authors) byline.append(" · ", element("span", "result-authors", shortAuthors(data.meta.authors)));
  item.append(byline);
  const tags = element("p", "result-facts");
  (data.filters.tag || []).forEach((tag) => tags.append(element("span", "tag", tag)));
  item.append(tags);
  if (query) item.append(excerptNode(bestExcerpt(data)));
  return item;
}

// The abstract's excerpt when the hit is in it; otherwise (a hit in the title, the authors, the
// words for the index only) the abstract's first words, which say what the paper is about.
function bestExcerpt(data) {
  const sub = data.sub_results.find((result) => result.anchor && result.anchor.id === "abstract");
  if (sub && sub.excerpt.includes("<mark>")) return sub.excerpt;
  const anchor = (data.anchors || []).find((a) => a.id === "abstract");
  if (!anchor) return data.excerpt;
  const words = data.content.split(" ").slice(anchor.location, anchor.location + 24);
  const text = words.join(" ").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return words.length === 24 ? `${text} …` : text;
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
