// On every page, and tiny: shortcuts to the search box, and loading the search code only once
// a reader starts to search. Pages stay readable without it.
(() => {
  const input = document.getElementById("header-q");
  const root = document.documentElement.dataset.root || "/";
  let panel = null;

  function openSearch() {
    panel = panel || import(`${root}static/search-panel.js`).then((module) => module.attach(input, root));
    return panel;
  }

  if (input) {
    input.addEventListener("focus", openSearch, { once: true });
    document.addEventListener("keydown", (event) => {
      const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName) || event.target.isContentEditable;
      const shortcut = (event.key === "/" && !typing) ||
        (event.key.toLowerCase() === "k" && (event.ctrlKey || event.metaKey));
      if (shortcut) {
        event.preventDefault();
        const box = document.getElementById("search-q") || input;  // the search page's own box
        box.focus();
        box.select();
      }
    });
  }

  // Arriving from a search result: mark the words that were searched for.
  const terms = new URLSearchParams(window.location.search).get("highlight");
  if (terms && document.querySelector("[data-pagefind-body]")) {
    import(`${root}pagefind/pagefind-highlight.js`).then(() => {
      // addStyles would inject a <style> element, which a strict CSP forbids: style.css has the rule.
      new window.PagefindHighlight({ highlightParam: "highlight", addStyles: false, markOptions: { className: "search-hit" } });
    });
  }
})();
