// Watch mode only: reload the page when the site is rebuilt. Never part of a production build.
(() => {
  const events = new EventSource("/__watch/events");
  events.addEventListener("reload", () => window.location.reload());
})();
