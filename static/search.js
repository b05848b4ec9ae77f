// Starts Pagefind's UI on /search/ and runs the query from ?q= (the header form submits here).
window.addEventListener("DOMContentLoaded", () => {
  const container = document.getElementById("search");
  const ui = new PagefindUI({
    element: "#search",
    bundlePath: container.dataset.bundlePath,
    showImages: false,
    showSubResults: false,
    resetStyles: false,
  });
  const query = new URLSearchParams(window.location.search).get("q");
  if (query) {
    ui.triggerSearch(query);
  }
});
