// Watch mode only: reload the page when the site is rebuilt. Never part of a production build.
(() => {
  const events = new EventSource("/__watch/events");
  events.addEventListener("reload", () => window.location.reload());
  // The review list, worked out in the background: only its own page reloads.
  events.addEventListener("review", () => {
    if (window.location.pathname.endsWith("/_review/")) window.location.reload();
  });
})();
