// The results that appear under the header search box as you type; Enter opens /search/.
import { loadPagefind, resultItem } from "./search-core.js";

const SHOWN = 6;

export function attach(input, root) {
  const form = input.form;
  const panel = document.createElement("div");
  panel.className = "search-panel";
  panel.id = "search-panel";
  panel.hidden = true;
  panel.setAttribute("role", "region");
  panel.setAttribute("aria-label", "Search results");
  panel.setAttribute("aria-live", "polite");
  form.append(panel);
  input.setAttribute("aria-controls", panel.id);
  let latest = 0;

  async function update() {
    const query = input.value.trim();
    const ticket = ++latest;
    if (!query) {
      panel.hidden = true;
      return;
    }
    const pagefind = await loadPagefind(root);
    const search = await pagefind.debouncedSearch(query, {}, 120);
    if (search === null || ticket !== latest) return;  // a newer keystroke won
    const data = await Promise.all(search.results.slice(0, SHOWN).map((result) => result.data()));
    if (ticket !== latest) return;
    const list = document.createElement("ul");
    list.className = "result-list";
    data.forEach((result) => list.append(resultItem(result, query)));
    const summary = document.createElement("p");
    summary.className = "panel-summary";
    const all = document.createElement("a");
    all.href = `${root}search/?q=${encodeURIComponent(query)}`;
    all.textContent = search.results.length
      ? `All ${search.results.length} results, with filters →`
      : `No papers match “${query}”.`;
    summary.append(all);
    panel.replaceChildren(list, summary);
    panel.hidden = false;
  }

  input.addEventListener("input", update);
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      panel.hidden = true;
      input.blur();
    }
  });
  document.addEventListener("click", (event) => {
    if (!form.contains(event.target)) panel.hidden = true;
  });
  loadPagefind(root);  // start fetching while the reader types the first letters
  if (input.value.trim()) update();
}
