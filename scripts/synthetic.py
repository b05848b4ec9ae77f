#!/usr/bin/env python3
"""Make a synthetic catalogue of N papers in our content format, from the real catalogue's words.

    .venv/bin/python scripts/synthetic.py 10000 /tmp/synthetic/content

Abstracts are shuffled sentences of the real ones (some with math), with a quarter of their
longer words swapped for coined ones drawn from a vocabulary that grows with N by Zipf's law:
as in a real catalogue, most words are rare and a few are common (shuffled real sentences alone
would make every word common, and every pair of papers alike). Tags follow the real tags'
popularity, venues spread over three conferences and three years, authors come from a pool
with a long tail. The same N and seed give the same files.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import random
import re
import shutil
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
CONFERENCES = {"ICLR": "International Conference on Learning Representations",
               "ICML": "International Conference on Machine Learning",
               "NeurIPS": "Advances in Neural Information Processing Systems"}
VENUES = [f"{name} {year}" for name in CONFERENCES for year in (2023, 2024, 2025)]
COINED_SHARE = 0.25  # of the words of 6 letters or more
COINED_PER_PAPER = 20  # the coined vocabulary's size, per paper
ZIPF = 1.07  # the exponent of word frequencies in English text
LONG_WORD = re.compile(r"\$[^$]*\$|\\[a-z]+|\b[a-z]{6,}\b")  # math and TeX commands are matched to be kept
SYLLABLES = ["long", "rope", "flash", "kv", "mamba", "sparse", "gist", "zeta", "samba", "star",
             "cache", "ext", "lo", "co", "prefill", "hyper", "mem", "ret", "ada", "split"]


def real_material(content: Path) -> tuple[list[str], list[str], list[str], dict[str, int]]:
    """Sentences, titles, authors and tag popularity of the real catalogue."""
    sentences, titles, authors, tag_uses = [], [], [], {}
    for path in sorted((content / "papers").glob("*.md")):
        _, front, body = path.read_text(encoding="utf-8").split("---\n", 2)
        meta = yaml.safe_load(front)
        titles.append(meta["title"])
        authors += meta.get("authors", [])
        for tag in meta["tags"]:
            tag_uses[tag] = tag_uses.get(tag, 0) + 1
        sentences += [s.strip() for s in re.split(r"(?<=[.!?])\s+", body.strip()) if len(s) > 30]
    return sentences, titles, authors, tag_uses


def generate(count: int, target: Path, seed: int = 7, source: Path = ROOT / "content") -> None:
    """Write `count` papers and the real taxonomy into `target` (a content folder)."""
    rng = random.Random(seed)
    sentences, titles, authors, tag_uses = real_material(source)
    authors += [f"{rng.choice('ABCDEFGHJKLMNPRSTWYZ')}. {rng.choice(['Chen', 'Garcia', 'Kim', 'Müller', 'Singh', 'Rossi', 'Tanaka', 'Okafor'])}-{i}"
                for i in range(max(200, count // 4))]
    tags, weights = list(tag_uses), list(tag_uses.values())
    coined = Zipf(COINED_PER_PAPER * count)
    shutil.rmtree(target, ignore_errors=True)
    (target / "papers").mkdir(parents=True)
    shutil.copy(source / "taxonomy.yaml", target / "taxonomy.yaml")
    shutil.copy(source / "site.yaml", target / "site.yaml")
    venues = [{"name": label.split()[0], "year": int(label.split()[1]), "title": CONFERENCES[label.split()[0]]}
              for label in VENUES]
    (target / "venues.yaml").write_text(yaml.safe_dump({"venues": venues}, sort_keys=False), encoding="utf-8")
    for number in range(count):
        name = "".join(rng.choice(SYLLABLES).capitalize() for _ in range(2))
        slug = f"{name.lower()}-{number}"
        chosen = []
        while len(chosen) < rng.randint(2, 5):
            tag = rng.choices(tags, weights)[0]
            if tag not in chosen:
                chosen.append(tag)
        meta = {
            "title": f"{name}: {rng.choice(titles).split(': ')[-1]}",
            "title_source": "metadata", "slug": slug, "venue": rng.choice(VENUES),
            "authors": rng.sample(authors, rng.randint(2, 8)),
            "arxiv": f"2{rng.randint(300, 512):03d}.{rng.randint(10000, 99999)}", "tags": chosen,
        }
        if rng.random() < 0.4:
            meta["code"] = f"https://github.com/example/{slug}"
        body = coin(" ".join(rng.sample(sentences, rng.randint(6, 10))), rng, coined)
        if rng.random() < 0.3:
            body += f" The cost falls to $O(n \\log n)$ for $n = {rng.randint(2, 9)}k$ tokens."
        front = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, default_flow_style=None, width=10_000)
        (target / "papers" / f"{slug}.md").write_text(f"---\n{front}---\n\n{body}\n", encoding="utf-8")


class Zipf:
    """Words coined from syllables, the k-th drawn with weight 1 / k^ZIPF."""

    def __init__(self, size: int):
        self.size = size
        self.cumulative = list(itertools.accumulate(1 / k ** ZIPF for k in range(1, size + 1)))

    def draw(self, rng: random.Random) -> str:
        rank = bisect.bisect(self.cumulative, rng.random() * self.cumulative[-1])
        word, rank = "", rank + len(SYLLABLES)
        while rank:
            rank, digit = divmod(rank, len(SYLLABLES))
            word += SYLLABLES[digit]
        return word


def coin(text: str, rng: random.Random, coined: Zipf) -> str:
    """The text with COINED_SHARE of its longer words coined (never inside math)."""
    def swap(match: re.Match) -> str:
        word = match.group(0)
        return word if word[0] in "$\\" or rng.random() >= COINED_SHARE else coined.draw(rng)
    return LONG_WORD.sub(swap, text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int)
    parser.add_argument("target", type=Path, help="content folder to (re)create")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    generate(args.count, args.target, args.seed)
    print(f"Wrote {args.count} papers to {args.target}/papers/")


if __name__ == "__main__":
    main()
