// The topic map's preview box: the dot pointed at, focused or tapped shows its paper's title,
// venue and theme under the map. A tap previews the nearest dot (a finger covers several);
// tapping the same dot again, or the title in the box, opens the paper. Without JavaScript the
// dots are plain links whose <title> names the paper.
(() => {
  const svg = document.querySelector(".topic-map .map-svg");
  const box = document.getElementById("map-preview");
  if (!svg || !box) return;
  const dots = Array.from(svg.querySelectorAll("a"));
  const hint = "Point at, tap or focus a dot: its paper shows here.";
  const REACH = 32;  // px: a tap this close to a dot's centre picks it
  let shown = null;
  let touched = false;

  box.hidden = false;
  box.textContent = hint;

  function show(dot) {
    if (dot === shown) return;
    if (shown) shown.classList.remove("previewed");
    shown = dot;
    dot.classList.add("previewed");
    const title = dot.getAttribute("aria-label");
    const details = dot.querySelector("title").textContent.slice(title.length + 3);
    const link = document.createElement("a");
    link.href = dot.getAttribute("href");
    link.textContent = title;
    const meta = document.createElement("span");
    meta.className = "meta";
    meta.textContent = details;
    box.replaceChildren(link, meta);
  }

  function nearest(x, y) {
    let best = null;
    let bestDistance = REACH;
    for (const dot of dots) {
      const rect = dot.querySelector("path").getBoundingClientRect();
      const distance = Math.hypot(rect.left + rect.width / 2 - x, rect.top + rect.height / 2 - y);
      if (distance < bestDistance) [best, bestDistance] = [dot, distance];
    }
    return best;
  }

  svg.addEventListener("pointerover", (event) => {
    const dot = event.target.closest("a");
    if (dot && event.pointerType === "mouse") show(dot);
  });
  svg.addEventListener("focusin", (event) => {
    const dot = event.target.closest("a");
    if (dot && !touched) show(dot);  // a tap focuses before its click: the click decides
  });
  svg.addEventListener("pointerdown", (event) => { touched = event.pointerType !== "mouse"; });
  svg.addEventListener("click", (event) => {
    if (!touched) return;  // a mouse click or the keyboard's Enter opens the paper
    touched = false;
    const dot = nearest(event.clientX, event.clientY);
    if (dot && dot === shown) {
      event.preventDefault();
      window.location.href = dot.getAttribute("href");
    } else if (dot) {
      event.preventDefault();
      show(dot);
      dot.focus({ preventScroll: true });
      box.scrollIntoView({ block: "nearest" });  // a phone may have the box below the screen
    }
  });
})();
