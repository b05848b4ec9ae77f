// The reading list: a "Save" button on each paper page, and /reading-list/ to see the saved
// papers and export them as BibTeX, RIS, CSL-JSON or Markdown. Kept in this browser only (localStorage).
(() => {
  const KEY = "reading-list";
  const root = document.documentElement.dataset.root || "/";
  const load = () => { try { return JSON.parse(localStorage.getItem(KEY)) || []; } catch { return []; } };
  const store = (list) => { try { localStorage.setItem(KEY, JSON.stringify(list)); } catch { /* private mode */ } };

  const save = document.querySelector("[data-save-paper]");
  if (save) {
    const paper = JSON.parse(save.dataset.savePaper);
    const saved = () => load().some((item) => item.slug === paper.slug);
    const show = () => {
      save.textContent = saved() ? "Saved ✓ (remove)" : "Save to reading list";
      save.setAttribute("aria-pressed", String(saved()));
    };
    save.hidden = false;
    show();
    save.addEventListener("click", () => {
      store(saved() ? load().filter((item) => item.slug !== paper.slug) : [...load(), paper]);
      show();
    });
  }

  const list = document.getElementById("reading-list");
  if (!list) return;
  const draw = () => {
    const items = load();
    document.getElementById("reading-list-ui").hidden = false;
    document.getElementById("reading-list-empty").hidden = items.length > 0;
    document.getElementById("reading-list-actions").hidden = items.length === 0;
    list.replaceChildren(...items.map((item, index) => {
      const entry = document.createElement("li");
      const link = document.createElement("a");
      link.href = `${root}papers/${item.slug}/`;
      link.textContent = item.title;
      const venue = document.createElement("span");
      venue.className = "count";
      venue.textContent = ` ${item.venue} `;
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "button";
      remove.textContent = "Remove";
      remove.setAttribute("aria-label", `Remove ${item.title}`);
      remove.addEventListener("click", () => {
        store(load().filter((i) => i.slug !== item.slug));
        draw();
        afterRemoving(item, index);
      });
      entry.append(link, venue, remove);
      return entry;
    }));
  };
  // Focus stays where it was: on the next paper's Remove (the one before, after the last one),
  // or on the message that the list is empty; and the removal is said aloud.
  const afterRemoving = (item, index) => {
    const buttons = list.querySelectorAll("button");
    const empty = document.getElementById("reading-list-empty");
    (buttons[Math.min(index, buttons.length - 1)] || empty).focus();
    document.getElementById("reading-list-status").textContent = `Removed ${item.title}.`;
  };
  const download = (name, text, type) => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type }));
    link.download = name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  };
  // Each saved paper's own citation file (`data-export`: cite.bib, cite.ris or cite.json in its
  // folder), so the export holds the very entries its page offers; CSL-JSON arrays become one.
  const TYPES = { bib: "application/x-bibtex", ris: "application/x-research-info-systems",
    json: "application/vnd.citationstyles.csl+json" };
  const joined = (extension, texts) => (extension === "json"
    ? `${JSON.stringify(texts.flatMap((text) => JSON.parse(text)), null, 2)}\n` : texts.join("\n"));
  document.querySelectorAll("[data-export]").forEach((button) => {
    button.addEventListener("click", async () => {
      const file = button.dataset.export;
      const extension = file.split(".").pop();
      const texts = await Promise.all(load().map((item) =>
        fetch(`${root}papers/${item.slug}/${file}`).then((response) => (response.ok ? response.text() : ""))));
      download(`reading-list.${extension}`, joined(extension, texts.filter(Boolean)), TYPES[extension]);
    });
  });
  document.getElementById("export-markdown").addEventListener("click", () => {
    const base = new URL(root, window.location.href);
    const lines = load().map((item) => `- [${item.title}](${new URL(`papers/${item.slug}/`, base)}) (${item.venue})`);
    download("reading-list.md", `# Reading list\n\n${lines.join("\n")}\n`, "text/markdown");
  });
  draw();
})();
