// /search/: full results with venue, presentation, theme and tag filters, sorting, and a URL that says it all,
// so a search can be pasted into a discussion: /search/?q=kv+cache&venue=ICML+2025
import { arrowKeys, caveat, loadPagefind, nothingFound, plural, resultItem, searchAt } from "./search-core.js";
import { findPapers } from "./search-find.js";

const FACETS = ["venue", "presentation", "theme", "tag"];
const SORTS = { relevance: null, title: { title: "asc" }, venue: { year: "desc" } };
const PAGE = 20;
const WIDE = window.matchMedia("(min-width: 50rem)");

const root = document.documentElement.dataset.root || "/";
const form = document.getElementById("search-form");
const input = document.getElementById("search-q");
const sort = document.getElementById("search-sort");
const status = document.getElementById("search-status");
const list = document.getElementById("search-results");
const more = document.getElementById("search-more");
const facetsBox = document.getElementById("search-facets");
const filters = document.getElementById("search-filters");

let state = readUrl();
let results = [];
let shown = 0;
let latest = 0;
let facetSets = null;
let shownTerms = [];  // the words the results' excerpts mark

function readUrl() {
  const params = new URLSearchParams(window.location.search);
  const chosen = {};
  FACETS.forEach((facet) => { chosen[facet] = params.getAll(facet); });
  const sortBy = SORTS[params.get("sort")] ? params.get("sort") : "relevance";
  return { q: params.get("q") || "", sort: sortBy, chosen, exact: params.get("exact") === "1" };
}

function writeUrl() {
  const params = new URLSearchParams();
  if (state.q) params.set("q", state.q);
  FACETS.forEach((facet) => state.chosen[facet].forEach((value) => params.append(facet, value)));
  if (state.sort !== "relevance") params.set("sort", state.sort);
  if (state.exact) params.set("exact", "1");
  const query = params.toString().replace(/%20/g, "+");
  history.replaceState(null, "", query ? `?${query}` : window.location.pathname);
}

const searchUrl = (query) => searchAt(root, query);

// Each facet value's papers, from Pagefind's filter index, read once: filtering and counting
// any list of results then needs no more searches.
async function readFacetSets(pagefind) {
  const values = await pagefind.filters();
  const sets = {};
  await Promise.all(FACETS.map(async (facet) => {
    sets[facet] = {};
    await Promise.all(Object.keys(values[facet] || {}).map(async (value) => {
      const search = await pagefind.search(null, { filters: { [facet]: value } });
      sets[facet][value] = new Set(search.results.map((result) => result.id));
    }));
  }));
  return sets;
}

// Values of one facet are alternatives (any of them), so a facet's counts ignore its own choices.
function applyFacets(found, sets) {
  const passes = (id, facet) => !state.chosen[facet].length
    || state.chosen[facet].some((value) => sets[facet][value] && sets[facet][value].has(id));
  const counts = {};
  FACETS.forEach((facet) => {
    const others = found.filter((result) => FACETS.every((f) => f === facet || passes(result.id, f)));
    counts[facet] = {};
    Object.entries(sets[facet]).forEach(([value, ids]) => {
      counts[facet][value] = others.filter((result) => ids.has(result.id)).length;
    });
  });
  return { kept: found.filter((result) => FACETS.every((facet) => passes(result.id, facet))), counts };
}

async function run() {
  const ticket = ++latest;
  writeUrl();
  delete status.dataset.done;
  status.textContent = "Searching…";
  const pagefind = await loadPagefind(root);
  facetSets = facetSets || readFacetSets(pagefind);
  const sets = await facetSets;
  const found = await findPapers(pagefind, root, state.q, SORTS[state.sort] ? { sort: SORTS[state.sort] } : {}, !state.exact);
  if (ticket !== latest) return;
  const { kept, counts } = applyFacets(found.results, sets);
  results = kept;
  shown = 0;
  list.replaceChildren();
  drawFacets(counts, sets);
  await describe(found, kept.length);
  if (ticket !== latest) return;
  await showMore(ticket, found.terms);
  if (ticket === latest) status.dataset.done = "";
}

async function describe(found, count) {
  const where = filtered() ? " with these filters" : "";
  if (found.browse) {  // no query, or no word in it
    status.textContent = `${plural(count, "paper")}${where || " in the catalogue"}`;
  } else if (!found.results.length) {
    status.replaceChildren(await nothingFound(found, state.q, root));
  } else if (found.partial || found.corrected || found.missing) {
    const complete = results.filter((result) => found.every && found.every.has(result.id)).length;
    status.replaceChildren(caveat(found, searchUrl, count, complete));
    if (where) status.append(` (${where.trim()})`);
  } else {
    const asked = found.question ? ", the key words of the question" : "";
    status.textContent = `${plural(count, "paper")} ${count === 1 ? "matches" : "match"} “${found.query}”${asked}${where}`;
  }
}

function filtered() {
  return FACETS.some((facet) => state.chosen[facet].length);
}

async function showMore(ticket = latest, terms = shownTerms) {
  shownTerms = terms;
  const next = results.slice(shown, shown + PAGE);
  const data = await Promise.all(next.map((result) => result.data()));
  if (ticket !== latest) return;
  data.forEach((result) => list.append(resultItem(result, terms)));
  shown += next.length;
  more.hidden = shown >= results.length;
}

// A facet no paper has a value of (no presentation is known) is left out.
function drawFacets(allCounts, sets) {
  facetsBox.replaceChildren(...FACETS.filter((facet) => Object.keys(sets[facet]).length).map((facet) => {
    const box = document.createElement("fieldset");
    box.className = "facet";
    const legend = document.createElement("legend");
    legend.textContent = facet[0].toUpperCase() + facet.slice(1);
    box.append(legend);
    const counts = allCounts[facet];
    const values = Object.keys(sets[facet])
      .filter((value) => counts[value] || state.chosen[facet].includes(value))
      .sort((a, b) => (counts[b] || 0) - (counts[a] || 0) || a.localeCompare(b));
    values.forEach((value) => box.append(facetOption(facet, value, counts[value] || 0)));
    return box;
  }));
}

function facetOption(facet, value, count) {
  const label = document.createElement("label");
  const box = document.createElement("input");
  box.type = "checkbox";
  box.name = facet;
  box.value = value;
  box.checked = state.chosen[facet].includes(value);
  box.addEventListener("change", () => {
    state.chosen[facet] = box.checked
      ? [...state.chosen[facet], value]
      : state.chosen[facet].filter((chosen) => chosen !== value);
    run();
  });
  const name = document.createElement("span");
  name.textContent = value;
  const number = document.createElement("span");
  number.className = "count";
  number.textContent = count;
  label.append(box, name, number);
  return label;
}

// The controls that work only with JavaScript are hidden in the page until now.
document.querySelectorAll("#search-ui [data-needs-script]").forEach((node) => { node.hidden = false; });
filters.open = WIDE.matches || filtered();
input.value = state.q;
sort.value = state.sort;
form.addEventListener("submit", (event) => {
  event.preventDefault();
  state.q = input.value.trim();
  run();
});
input.addEventListener("input", () => {
  state.q = input.value.trim();
  state.exact = false;
  run();
});
sort.addEventListener("change", () => {
  state.sort = sort.value;
  run();
});
more.addEventListener("click", () => showMore());
arrowKeys(input, list);
run();
