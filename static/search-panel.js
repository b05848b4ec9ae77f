// The results that appear under the header search box as you type; Enter opens /search/.
import { arrowKeys, caveat, element, link, loadPagefind, nothingFound, plural, resultItem, searchAt } from "./search-core.js";
import { findPapers } from "./search-find.js";

const SHOWN = 6;
const WAIT = 120;  // ms after a keystroke before searching: typing on needs no search per letter

export function attach(input, root) {
  const form = input.form;
  const panel = element("div", "search-panel");
  panel.id = "search-panel";
  panel.hidden = true;
  panel.setAttribute("role", "region");
  panel.setAttribute("aria-label", "Search results");
  panel.setAttribute("aria-live", "polite");
  form.append(panel);
  input.setAttribute("aria-controls", panel.id);
  const searchUrl = (query) => searchAt(root, query);
  let latest = 0;

  async function update() {
    const query = input.value.trim();
    const ticket = ++latest;
    if (!query) {
      panel.hidden = true;
      return;
    }
    await new Promise((resolve) => { setTimeout(resolve, WAIT); });
    if (ticket !== latest) return;  // a newer keystroke won
    const found = await findPapers(await loadPagefind(root), root, query);
    if (found.browse) {  // punctuation alone: nothing to search for
      panel.hidden = true;
      return;
    }
    const data = await Promise.all(found.results.slice(0, SHOWN).map((result) => result.data()));
    if (ticket !== latest) return;
    const list = element("ul", "result-list");
    data.forEach((result) => list.append(resultItem(result, found.terms)));
    const summary = element("p", "panel-summary");
    if (found.results.length) {
      const count = found.results.length;
      const note = caveat(found, searchUrl);
      if (note) summary.append(note, " ");
      summary.append(link(searchUrl(query), count === 1 ? "See it on the search page, with filters →" : `See all ${plural(count, "result")}, with filters →`));
    } else {
      summary.append(await nothingFound(found, query, root));
    }
    if (ticket !== latest) return;
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
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      panel.hidden = true;
      input.focus();
    }
  });
  arrowKeys(input, panel);
  document.addEventListener("click", (event) => {
    if (!form.contains(event.target)) panel.hidden = true;
  });
  loadPagefind(root);  // start fetching while the reader types the first letters
  if (input.value.trim()) update();
}
