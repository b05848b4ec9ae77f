// Runs in <head>, before the page is drawn, so a chosen theme never flashes the other one.
// The switch cycles auto → light → dark; the choice is remembered in localStorage.
(() => {
  const root = document.documentElement;
  const read = () => { try { return localStorage.getItem("theme") || "auto"; } catch { return "auto"; } };
  const apply = (theme) => {
    if (theme === "auto") delete root.dataset.theme;
    else root.dataset.theme = theme;
  };
  apply(read());
  document.addEventListener("DOMContentLoaded", () => {
    const button = document.getElementById("theme-switch");
    if (!button) return;
    const show = (theme) => {
      button.textContent = `Theme: ${theme}`;
      button.setAttribute("aria-label", `Colour theme: ${theme}. Change it`);
    };
    show(read());
    button.hidden = false;
    button.addEventListener("click", () => {
      const next = { auto: "light", light: "dark", dark: "auto" }[read()] || "auto";
      try { localStorage.setItem("theme", next); } catch { /* private mode: this page only */ }
      apply(next);
      show(next);
    });
  });
})();
