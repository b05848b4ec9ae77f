// Watch mode only: reload the page when the site is rebuilt. Never part of a production build.
// The stream says which page this is, so that watch mode renders the pages a reader looks at
// first; a reload names the pages it is for ("*": every page).
(() => {
  const page = window.location.pathname;
  const events = new EventSource(`/__watch/events?page=${encodeURIComponent(page)}`);
  events.addEventListener("reload", (event) => {
    if (event.data === "*" || JSON.parse(event.data).includes(page)) window.location.reload();
  });
})();
