"""The two-minute read: one summary card per paper, for ``reports/audit.md`` and (shorter) the README.

A card says who wrote the paper and where it appeared, what is wrong with it in plain sentences (its errata from
:mod:`repro.errata`: kind, where in the paper's own numbering, what, which results fail through it), the counts of
verdicts, how sure the suite is (profile, runs and seeds, what was not run) and where the details are. Internal ids
appear only inside links and replay commands: a claim is named by the paper's numbering (its location), and the ids a
computed sentence contains are replaced the same way.
"""
from __future__ import annotations

import re

from .errata import Kind
from .pages import anchor, with_places
from . import registry
from .verdicts import Verdict, counts

__all__ = ["card", "readme_card", "plain", "claim_names", "short_location"]

#: the words of an erratum's sentence a card keeps (the report's detail page has the whole sentence)
SENTENCE_WORDS = 12
#: the length (characters) from which a parenthesis is an aside a card leaves out
_ASIDE = 20
#: words whose dot ends no sentence, where a card looks for the end of one
_ABBREVIATIONS = {"e.g.", "i.e.", "cf.", "prop.", "fig.", "eq.", "eqs.", "thm.", "resp.", "al.", "vs."}
#: the claims an erratum's consequence names before "and N more"
NAMED_CLAIMS = 2


def short_location(location: str) -> str:
    """A place in the paper's numbering, short: "Lemma 3, Appendix A.1" -> "Lemma 3"; a section keeps what follows it
    and a proof its display ("Section 4.1, Figure 1 (right)", "Proof of Lemma 4 (Appendix A), (52)" stay whole)."""
    head, _, rest = location.partition(", ")
    if rest and (head.startswith("Section") or rest.startswith(("(", "display", "eq", "line", "Figure"))):
        return f"{head}, {rest.split(', ')[0]}"
    return head


def claim_names(paper: str) -> dict[str, str]:
    """Claim id -> its short location, for every claim and figure statement of ``paper``."""
    return {cid: short_location(where) for cid, where in registry.paper(paper).locations().items()}


def _cut(text: str, words: int = SENTENCE_WORDS) -> str:
    """The first ``words`` words of ``text`` with " ..." where it is cut (:func:`_head`); when that would keep less
    than half of them (a long parenthesis opens early), with its asides in parentheses (a quote, an example) left out
    as "(...)" first."""
    parts = text.split()
    if len(parts) <= words:
        return text
    head = _head(parts, words)
    if len(head) < words // 2:
        head = _head(re.sub(r"\([^()]{%d,}\)" % _ASIDE, "(...)", text).split(), words) or head
    cut = " ".join(head or parts[:words]).rstrip(",;:.") + " ..."
    return cut + '"' if cut.count('"') % 2 else cut                     # a quote the cut opened is closed


def _head(parts: list[str], words: int) -> list[str]:
    """The first ``words`` of ``parts``, ending at the last end of a sentence or clause ("." or ";"; an abbreviation's
    dot is not one) when that keeps at least half of them, and never inside a parenthesis (cut before it)."""
    head = parts[:words]
    ends = [i for i, w in enumerate(head, 1) if i >= words // 2 and _ends_clause(w, parts[i] if i < len(parts) else "")]
    if ends:
        head = head[:ends[-1]]
    while head and (" ".join(head).count("(") > " ".join(head).count(")") or head[-1] == "..."):
        head.pop()
    return head


def _ends_clause(word: str, following: str) -> bool:
    """Whether ``word`` ends a sentence or clause: ";", a colon not followed by a number, or a dot that is not an
    abbreviation's nor an ellipsis."""
    if word.endswith(":"):
        return not re.match(r"[-+]?[\d.]", following)
    return word.endswith(";") or word.endswith(".") and not word.endswith("...") and word.lower() not in _ABBREVIATIONS


def plain(paper: str, text: str, names: dict[str, str], where: str = "") -> str:
    """``text`` for a reader: without the place it repeats (``where``) or the source it opens with, and with every
    claim id replaced by its short location."""
    text = text.removeprefix(f"{where}: ") if where else text
    text = re.sub(rf"^{re.escape(paper)}\.[\w.\-]+(?: \([^)]*\))?: ", "", text)
    return re.sub(rf"\b{re.escape(paper)}\.[\w.\-]*\w", lambda m: names.get(m.group(0), m.group(0)), text)


def _claims(paper: str, ids, names: dict[str, str]) -> str:
    """The first :data:`NAMED_CLAIMS` claims, linked to their detail, then how many more."""
    shown = [f"[{names.get(c, c)}]({paper}.md#{anchor(c)})" for c in ids[:NAMED_CLAIMS]]
    more = len(ids) - NAMED_CLAIMS
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def consequence(paper: str, e, names: dict[str, str], verdicts=()) -> str:
    """What follows from erratum ``e``: the claims that fail as printed (and stay failing once it is corrected), named
    by their own verdict in ``verdicts`` -- "fails" those found violated, "leaves unproven" those not proven (all of
    them for a gap, whose statements survive), "fails as printed" the others and all where no verdicts are given --,
    then those that hold once it is corrected, and those that change with it: "its value decides" those whose verdict
    is "depends on a choice" (all where no verdicts are given), "affects" the others (e.g. not checkable: one reading
    holds, another is inconclusive)."""
    failing = [c for c in e.fails_as_printed if c not in e.holds_once_corrected]
    verdict = {v.claim: v.verdict for v in verdicts}
    groups: dict[str, list[str]] = {}
    for c in failing:
        verb = ("leaves unproven" if e.kind is Kind.GAP or verdict.get(c) is Verdict.NOT_PROVEN
                else "fails" if verdict.get(c) is Verdict.VIOLATED else "fails as printed")
        groups.setdefault(verb, []).append(c)
    parts = [f"{verb}: {_claims(paper, ids, names)}" for verb, ids in groups.items()]
    decided = [c for c in e.depends if verdict.get(c, Verdict.DEPENDS) is Verdict.DEPENDS]
    parts += [(f"holds once corrected: {_claims(paper, e.holds_once_corrected, names)}"
               if e.holds_once_corrected else ""),
              (f"its value decides: {_claims(paper, decided, names)}" if decided else ""),
              (f"its value affects: {_claims(paper, [c for c in e.depends if c not in decided], names)}"
               if len(decided) < len(e.depends) else "")]
    return "; ".join(p for p in parts if p)


def _rests(e) -> bool:
    """Whether a verdict rests on erratum ``e``: it has a consequence (:func:`consequence` is not empty)."""
    return any(c not in e.holds_once_corrected for c in e.fails_as_printed) or bool(e.holds_once_corrected or e.depends)


def where(paper: str, e) -> str:
    """Where an erratum is, each place it names shortened to the paper's numbering; a display the paper does not
    number is given by its place there before the report's label for it (:func:`repro.pages.with_places`)."""
    return with_places(paper, "; ".join(dict.fromkeys(short_location(w) for w in e.where.split("; "))))


def what(paper: str, e, names: dict[str, str]) -> str:
    """What is wrong, for a card: the erratum's gist where its paper gives one, else cut: the declared sentence, or
    for a statement found false without a declaration the paper's words, what was found and its observed value
    against its bound."""
    if e.gist:
        return e.gist
    sentence = plain(paper, e.sentence, names, e.where)
    if e.declared or e.id not in names or not e.printed.startswith('"'):
        return _cut(sentence)
    return f"{_quote_cut(e.printed)}: {_with_value(sentence)}" + (f" ({e.numbers})" if e.numbers else "")


def _with_value(found: str) -> str:
    """A computed finding cut without losing its number: "what was measured: value, interval over n seeds" keeps the
    value (signed, or inf) and its first clause (to the first ";"), the description before it cut (:func:`_cut`,
    its " ..." kept)."""
    measured = re.match(r"(.*?): ([-+\u2212]?(?:\d|\.\d|inf\b)[^;]*)", found)
    return f"{_cut(measured.group(1))}: {measured.group(2)}" if measured else _cut(found)


def _quote_cut(quote: str, words: int = SENTENCE_WORDS) -> str:
    """A quote cut in its middle, so that it keeps its subject and what it says of it (where its claim is)."""
    parts = quote.split()
    if len(parts) <= words:
        return quote
    return " ".join(parts[:words // 2 - 1]) + " ... " + " ".join(parts[-(words // 2 + 1):])


def _bullet(paper: str, e, names: dict[str, str], verdicts) -> str:
    follows = consequence(paper, e, names, verdicts)
    return (f"- **{e.kind.value}**, {plain(paper, where(paper, e), names)}: {what(paper, e, names)}"
            + (f" *({follows})*" if follows else ""))


def _minor(paper: str, reports, names: dict[str, str], on_its_page: bool) -> list[str]:
    """The errata no verdict rests on, in one line: counted by kind, with a link to the errata table of the paper's
    page (where each is listed), or, on the page itself, each with its place."""
    minor = [e for e in reports if not _rests(e)]
    if not minor:
        return []
    if on_its_page:
        return ["- No verdict rests on: " + "; ".join(
            f"{e.kind.value} at {plain(paper, where(paper, e), names)}" for e in minor) + "."]
    kinds: dict = {}
    for e in minor:
        kinds[e.kind] = kinds.get(e.kind, 0) + 1
    return ["- No verdict rests on: " + ", ".join(k.counted(n) for k, n in kinds.items())
            + f" ([listed]({paper}.md#errata))."]


def tally(verdicts) -> str:
    return ", ".join(f"{n} {v}" for v, n in counts(verdicts).items() if n)


def card(paper: str, verdicts, reports, how_sure: str, notebook: bool, on_its_page: bool = False) -> list[str]:
    """The card of ``paper``: citation and links, one bullet per erratum that a verdict rests on, a line for the
    others, the verdict counts and how sure. In ``reports/audit.md`` under the paper's title; ``on_its_page``, the
    first thing of the paper's own page (no title; its links are the page's own)."""
    record = registry.paper(paper)
    names = claim_names(paper)
    links = [] if on_its_page else [f"[details]({paper}.md)"] + (
        [f"[notebook](../notebooks/{paper}.ipynb)"] if notebook else [])
    head = [] if on_its_page else [f'<a id="{paper}"></a>', "", f"## {record.title}", ""]
    cite = record.citation
    about = ". ".join(p for p in (cite, " · ".join(links)) if p)
    head += [about + ".", ""] if about else []
    major = [_bullet(paper, e, names, verdicts) for e in reports if _rests(e)]
    body = (major + _minor(paper, reports, names, on_its_page) if reports
            else ["Nothing fails under any reading the paper admits."])
    return head + body + ["", f"Verdicts ({len(verdicts)} claims): {tally(verdicts)}. How sure: {how_sure}.", ""]


#: the errata the README names per paper (the rest are counted and linked)
README_ERRATA = 4


def readme_card(paper: str, verdicts, reports) -> list[str]:
    """The README's lines for ``paper``: its verdict counts, the first :data:`README_ERRATA` errata that a verdict
    rests on (false statements first), each in a few words, and how many more its card in the report lists."""
    names = claim_names(paper)
    title = registry.paper(paper).title.split(":")[0]
    lines = [f"- **[{title}](reports/audit.md#{paper})**: {tally(verdicts)}."]
    major = [e for e in reports if _rests(e)]
    lines += [f"  - {e.kind.value}, {plain(paper, where(paper, e), names)}: {e.gist or _cut(what(paper, e, names), 10)}"
              for e in major[:README_ERRATA]]
    more = len(reports) - min(len(major), README_ERRATA)
    if more:
        lines.append(f"  - and {more} more errata [in its card](reports/audit.md#{paper}).")
    return lines
