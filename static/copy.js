// Paper pages: "Copy link", and a "Copy" button for each citation format: `data-copy` names the
// element whose text it copies, `data-copy-from` the file (RIS, CSL-JSON: not repeated in the
// page). Without JavaScript they stay hidden, and the download links do it.
async function textToCopy(button, source) {  // a promise of the text
  if (button.dataset.copyFrom) {
    const response = await fetch(button.dataset.copyFrom);
    if (!response.ok) throw new Error(`${button.dataset.copyFrom}: ${response.status}`);
    return response.text();
  }
  return source ? source.textContent : document.querySelector("link[rel=canonical]").href;
}

document.querySelectorAll("[data-copy], [data-copy-from], [data-copy-link]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", async () => {
    const source = button.dataset.copy && document.getElementById(button.dataset.copy);
    const label = button.textContent;
    try {
      // The text as a promise inside the click: Safari refuses a write after an awaited fetch.
      const text = textToCopy(button, source);
      await navigator.clipboard.write([new ClipboardItem({ "text/plain": text.then((t) => new Blob([t], { type: "text/plain" })) })]);
      button.textContent = "Copied";
    } catch {
      button.textContent = button.dataset.copyFrom ? "Use the download" : "Press Ctrl+C to copy";
      if (source) window.getSelection().selectAllChildren(source);
    }
    setTimeout(() => { button.textContent = label; }, 2000);
  });
});
