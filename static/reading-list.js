// The reading list: a "Save" button on each paper page and each paper in a list, and
// /reading-list/ to see the saved papers, export them (BibTeX, RIS, CSL-JSON, Markdown) and share
// them as a link (/reading-list/#papers=slug1,slug2), which opens the same list elsewhere with an
// offer to add it to the list there. Kept in this browser only (localStorage).
(() => {
  const KEY = "reading-list";
  const root = document.documentElement.dataset.root || "/";
  const load = () => { try { return JSON.parse(localStorage.getItem(KEY)) || []; } catch { return []; } };
  const store = (list) => { try { localStorage.setItem(KEY, JSON.stringify(list)); } catch { /* private mode */ } };
  const has = (slug) => load().some((item) => item.slug === slug);

  // Save buttons: a paper page's one, or one per list item (a paper may be listed twice on a page).
  // A list's button says "Save", and to a screen reader which paper it saves.
  const saves = Array.from(document.querySelectorAll("[data-save-paper]"));
  const showSaved = () => saves.forEach((button) => {
    const paper = JSON.parse(button.dataset.savePaper);
    const saved = has(paper.slug);
    if (button.closest(".paper-item")) {
      const which = document.createElement("span");
      which.className = "visually-hidden";
      which.textContent = ` “${paper.title}”`;
      button.replaceChildren(saved ? "Saved ✓" : "Save", which);
    } else {
      button.textContent = saved ? "Saved ✓ (remove)" : "Save to reading list";
    }
    button.setAttribute("aria-pressed", String(saved));
  });
  saves.forEach((button) => {
    const paper = JSON.parse(button.dataset.savePaper);
    button.hidden = false;
    button.addEventListener("click", () => {
      store(has(paper.slug) ? load().filter((item) => item.slug !== paper.slug) : [...load(), paper]);
      showSaved();
    });
  });
  showSaved();
  window.addEventListener("storage", (event) => { if (event.key === KEY) showSaved(); });

  const list = document.getElementById("reading-list");
  if (!list) return;
  const status = document.getElementById("reading-list-status");
  const paperLink = (item) => {
    const link = document.createElement("a");
    link.href = `${root}papers/${item.slug}/`;
    link.textContent = item.title;
    const venue = document.createElement("span");
    venue.className = "count";
    venue.textContent = ` ${item.venue} `;
    return [link, venue];
  };
  const shareLink = (items) => `${new URL(`${root}reading-list/`, window.location.href)}#papers=${items.map((i) => i.slug).join(",")}`;
  const draw = () => {
    const items = load();
    document.getElementById("reading-list-ui").hidden = false;
    document.getElementById("reading-list-empty").hidden = items.length > 0;
    document.getElementById("reading-list-actions").hidden = items.length === 0;
    document.getElementById("reading-list-share").hidden = items.length === 0;
    document.getElementById("share-link").value = shareLink(items);
    list.replaceChildren(...items.map((item, index) => {
      const entry = document.createElement("li");
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
      entry.append(...paperLink(item), remove);
      return entry;
    }));
  };
  // Focus stays where it was: on the next paper's Remove (the one before, after the last one),
  // or on the message that the list is empty; and the removal is said aloud.
  const afterRemoving = (item, index) => {
    const buttons = list.querySelectorAll("button");
    const empty = document.getElementById("reading-list-empty");
    (buttons[Math.min(index, buttons.length - 1)] || empty).focus();
    status.textContent = `Removed ${item.title}.`;
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
  const copy = document.getElementById("share-copy");
  copy.addEventListener("click", async () => {
    const field = document.getElementById("share-link");
    try {
      await navigator.clipboard.writeText(field.value);
      status.textContent = "Link copied.";
      copy.textContent = "Copied";
    } catch {
      field.select();
      copy.textContent = "Press Ctrl+C to copy";
    }
    setTimeout(() => { copy.textContent = "Copy link"; }, 2000);
  });

  // A shared list: its papers named as their own pages name them (the Save button's data there),
  // a few pages fetched at a time; a paper no longer in the catalogue is said to be missing.
  const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
  const shared = document.getElementById("shared-list");
  const sharedSlugs = () => {
    const match = window.location.hash.match(/^#papers=([^&]*)/);
    if (!match) return [];
    const slugs = decodeURIComponent(match[1]).split(",").map((slug) => slug.trim()).filter((slug) => SLUG.test(slug));
    return [...new Set(slugs)].slice(0, 500);
  };
  // A renamed paper's old address is a page that moves on (or a 301, which fetch follows): one hop.
  const described = async (slug, address = `${root}papers/${slug}/`, hops = 1) => {
    try {
      const response = await fetch(address);
      const page = new DOMParser().parseFromString(response.ok ? await response.text() : "", "text/html");
      const save = page.querySelector("[data-save-paper]");
      if (save) return JSON.parse(save.dataset.savePaper);
      const moved = page.querySelector('meta[http-equiv="refresh"]');
      const target = moved && moved.content.split("url=")[1];
      return target && hops ? described(slug, new URL(target, new URL(address, window.location.href)).href, hops - 1)
        : { slug, missing: true };
    } catch {
      return { slug, missing: true };
    }
  };
  const describedAll = async (slugs) => {
    const found = new Array(slugs.length);
    let next = 0;
    const worker = async () => {
      while (next < slugs.length) {
        const index = next++;
        found[index] = await described(slugs[index]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(6, slugs.length) }, worker));
    return found;
  };
  const forget = () => {
    shared.hidden = true;
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
  };
  const showShared = async () => {
    const slugs = sharedSlugs();
    shared.hidden = slugs.length === 0;
    if (!slugs.length) return;
    const papers = document.getElementById("shared-papers");
    const save = document.getElementById("shared-save");
    document.getElementById("shared-summary").textContent = `Loading ${slugs.length === 1 ? "its paper" : `its ${slugs.length} papers`}…`;
    papers.replaceChildren();
    save.hidden = true;
    const found = await describedAll(slugs);
    const present = found.filter((item) => !item.missing);
    const fresh = present.filter((item) => !has(item.slug));
    papers.replaceChildren(...found.map((item) => {
      const entry = document.createElement("li");
      if (item.missing) entry.textContent = `${item.slug}: not in the catalogue now`;
      else entry.append(...paperLink(item), has(item.slug) ? "(in your list)" : "");
      return entry;
    }));
    const missing = found.length - present.length;
    document.getElementById("shared-summary").textContent = [
      `${present.length} ${present.length === 1 ? "paper" : "papers"}`,
      fresh.length < present.length ? `, ${present.length - fresh.length} of them in your list already` : "",
      missing ? `; ${missing} no longer in the catalogue` : "", "."].join("");
    save.hidden = fresh.length === 0;
    save.textContent = fresh.length === present.length && !load().length ? "Save this list" : `Add ${fresh.length === 1 ? "it" : `these ${fresh.length}`} to your list`;
    save.onclick = () => {
      store([...load(), ...fresh.filter((item) => !has(item.slug))]);
      forget();
      draw();
      status.textContent = `Added ${fresh.length} ${fresh.length === 1 ? "paper" : "papers"} to your reading list.`;
      document.getElementById("saved-heading").focus();
    };
  };
  document.getElementById("shared-dismiss").addEventListener("click", () => {
    forget();
    document.getElementById("saved-heading").focus();
  });
  window.addEventListener("hashchange", showShared);
  draw();
  showShared();
})();
