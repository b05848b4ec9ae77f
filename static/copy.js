// Paper pages: "Copy link", and a "Copy" button for each citation format (`data-copy` names the
// element whose text it copies). Without JavaScript they stay hidden.
document.querySelectorAll("[data-copy], [data-copy-link]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", async () => {
    const source = button.dataset.copy && document.getElementById(button.dataset.copy);
    const text = source ? source.textContent : document.querySelector("link[rel=canonical]").href;
    const label = button.textContent;
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Press Ctrl+C to copy";
      if (source) window.getSelection().selectAllChildren(source);
    }
    setTimeout(() => { button.textContent = label; }, 2000);
  });
});
