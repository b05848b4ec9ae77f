// Runs in <head>, before the page is drawn, so a chosen theme never flashes the other one.
// The switch names the theme in effect, and each click shows the other one: the theme that is
// not the system's is remembered (localStorage), the system's own means following the system.
(() => {
  const root = document.documentElement;
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  const read = () => { try { return localStorage.getItem("theme") || "auto"; } catch { return "auto"; } };
  const shown = (choice) => (choice === "auto" ? (system.matches ? "dark" : "light") : choice);
  const apply = (choice) => {
    if (choice === "auto") delete root.dataset.theme;
    else root.dataset.theme = choice;
  };
  apply(read());
  document.addEventListener("DOMContentLoaded", () => {
    const button = document.getElementById("theme-switch");
    if (!button) return;
    const label = () => {
      const choice = read(), theme = shown(choice), other = theme === "dark" ? "light" : "dark";
      const whence = choice === "auto" ? " (system)" : "";
      button.textContent = `Theme: ${theme}${whence}`;
      button.setAttribute("aria-label", `Colour theme: ${theme}${choice === "auto" ? ", as your system" : ""}. Switch to ${other}`);
    };
    label();
    button.hidden = false;
    system.addEventListener("change", label);
    button.addEventListener("click", () => {
      const wanted = shown(read()) === "dark" ? "light" : "dark";
      const next = wanted === shown("auto") ? "auto" : wanted;  // the system's own: follow it again
      try { localStorage.setItem("theme", next); } catch { /* private mode: this page only */ }
      apply(next);
      label();
    });
  });
})();
