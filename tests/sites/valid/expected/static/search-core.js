// Shared by the header panel and the search page: loading Pagefind and drawing one result.
let pagefind = null;

export function loadPagefind(root) {
  pagefind = pagefind || import(`${root}pagefind/pagefind.js`).then(async (module) => {
    await module.options({ baseUrl: root, excerptLength: 24, ranking: { termFrequency: 0.6, pageLength: 0.5 } });
    module.init();
    return module;
  });
  return pagefind;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Pagefind's excerpt is text with <mark> around the hits: keep the marks, escape the rest.
function excerptNode(excerpt) {
  const node = element("p", "result-excerpt");
  excerpt.split(/(<mark>.*?<\/mark>)/).forEach((part) => {
    const hit = part.match(/^<mark>(.*)<\/mark>$/);
    const text = (hit ? hit[1] : part).replace(/&lt;/g, "<").replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
    node.append(hit ? element("mark", null, text) : document.createTextNode(text));
  });
  return node;
}

export function resultItem(data, query) {
  const item = element("li", "result");
  const link = element("a", "result-title", data.meta.title || data.url);
  link.href = query ? `${data.url}?highlight=${encodeURIComponent(query)}` : data.url;
  item.append(link);
  const facts = element("p", "result-facts");
  (data.filters.venue || []).forEach((venue) => facts.append(element("span", "result-venue", venue)));
  (data.filters.tag || []).forEach((tag) => facts.append(element("span", "tag", tag)));
  item.append(facts);
  if (query) item.append(excerptNode(bestExcerpt(data)));
  return item;
}

// The page starts with the title and authors: prefer the abstract's excerpt when it has a hit.
function bestExcerpt(data) {
  const abstract = data.sub_results.find((sub) => sub.anchor && sub.anchor.id === "abstract");
  return abstract && abstract.excerpt.includes("<mark>") ? abstract.excerpt : data.excerpt;
}
