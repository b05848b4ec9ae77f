// /search/: full results with venue, theme and tag filters, sorting, and a URL that says it all,
// so a search can be pasted into a discussion: /search/?q=kv+cache&venue=ICML+2025
import { loadPagefind, resultItem } from "./search-core.js";

const FACETS = ["venue", "theme", "tag"];
const SORTS = { relevance: null, title: { title: "asc" }, venue: { year: "desc" } };
const PAGE = 20;

const root = document.documentElement.dataset.root || "/";
const form = document.getElementById("search-form");
const input = document.getElementById("search-q");
const sort = document.getElementById("search-sort");
const status = document.getElementById("search-status");
const list = document.getElementById("search-results");
const more = document.getElementById("search-more");
const facetsBox = document.getElementById("search-facets");

let state = readUrl();
let results = [];
let shown = 0;
let latest = 0;

function readUrl() {
  const params = new URLSearchParams(window.location.search);
  const chosen = {};
  FACETS.forEach((facet) => { chosen[facet] = params.getAll(facet); });
  return { q: params.get("q") || "", sort: SORTS[params.get("sort")] ? params.get("sort") : "relevance", chosen };
}

function writeUrl() {
  const params = new URLSearchParams();
  if (state.q) params.set("q", state.q);
  FACETS.forEach((facet) => state.chosen[facet].forEach((value) => params.append(facet, value)));
  if (state.sort !== "relevance") params.set("sort", state.sort);
  const query = params.toString().replace(/%20/g, "+");
  history.replaceState(null, "", query ? `?${query}` : window.location.pathname);
}

function filtersFor(state) {
  const filters = {};
  FACETS.forEach((facet) => {
    if (state.chosen[facet].length) filters[facet] = { any: state.chosen[facet] };
  });
  return filters;
}

async function run() {
  const ticket = ++latest;
  writeUrl();
  status.textContent = "Searching…";
  const pagefind = await loadPagefind(root);
  await pagefind.filters();  // loads every filter, so each facet can show its counts
  const options = { filters: filtersFor(state) };
  if (SORTS[state.sort]) options.sort = SORTS[state.sort];
  const search = await pagefind.search(state.q || null, options);
  const counts = await facetCounts(pagefind, search);
  if (ticket !== latest) return;
  results = search.results;
  shown = 0;
  list.replaceChildren();
  drawFacets(counts, search.totalFilters);
  status.textContent = describe(results.length);
  await showMore(ticket);
}

function describe(count) {
  const what = `${count} paper${count === 1 ? "" : "s"}`;
  return state.q ? `${what} match “${state.q}”` : `${what}${filtered() ? " with these filters" : " in the catalogue"}`;
}

function filtered() {
  return FACETS.some((facet) => state.chosen[facet].length);
}

async function showMore(ticket = latest) {
  const next = results.slice(shown, shown + PAGE);
  const data = await Promise.all(next.map((result) => result.data()));
  if (ticket !== latest) return;
  data.forEach((result) => list.append(resultItem(result, state.q)));
  shown += next.length;
  more.hidden = shown >= results.length;
}

// Values of one facet are alternatives (any of them), so a facet's counts ignore its own choices.
async function facetCounts(pagefind, search) {
  const counts = {};
  for (const facet of FACETS) {
    if (!state.chosen[facet].length) {
      counts[facet] = search.filters[facet] || {};
      continue;
    }
    const others = { ...state, chosen: { ...state.chosen, [facet]: [] } };
    const without = await pagefind.search(state.q || null, { filters: filtersFor(others) });
    counts[facet] = without.filters[facet] || {};
  }
  return counts;
}

function drawFacets(allCounts, totals) {
  facetsBox.replaceChildren(...FACETS.map((facet) => {
    const box = document.createElement("fieldset");
    box.className = "facet";
    const legend = document.createElement("legend");
    legend.textContent = facet[0].toUpperCase() + facet.slice(1);
    box.append(legend);
    const counts = allCounts[facet];
    const values = Object.keys(totals[facet] || counts)
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

input.value = state.q;
sort.value = state.sort;
form.addEventListener("submit", (event) => {
  event.preventDefault();
  state.q = input.value.trim();
  run();
});
input.addEventListener("input", () => {
  state.q = input.value.trim();
  run();
});
sort.addEventListener("change", () => {
  state.sort = sort.value;
  run();
});
more.addEventListener("click", () => showMore());
run();
